//! AWS::IAM::AccessKey: UpdateAccessKey with the declared `Status`, on the
//! key the physical id names under the declared user. A key re-activated out
//! of band is set back to the declared status; nothing else of a key changes
//! in place (its user and serial are create-only).

use super::{declared_text, physical_id};
use crate::revert::input::RevertResource;
use crate::revert::model::{RefusalReason, ServiceOp};
use crate::revert::target::Refused;

/// The statuses IAM takes (UpdateAccessKey `Status`).
const STATUSES: &[&str] = &["Active", "Inactive"];

/// The UpdateAccessKey call writing the declared status.
pub(super) fn update(res: &RevertResource) -> Result<ServiceOp, Refused> {
    let access_key_id = physical_id(res, "the access key id")?;
    let user_name = declared_text(res, "UserName")?;
    let status = declared_text(res, "Status")?;
    if !STATUSES.contains(&status.as_str()) {
        return Err((
            RefusalReason::NoWriter,
            format!("declared Status {status:?} is not a status IAM takes (Active, Inactive)"),
        ));
    }
    Ok(ServiceOp::UpdateAccessKey {
        user_name,
        access_key_id,
        status,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::declared::DeclaredValue;
    use serde_json::{json, Value};

    fn key(declared: Value) -> RevertResource {
        let mut res = RevertResource {
            physical_id: Some("AKIAEXAMPLE".into()),
            ..RevertResource::default()
        };
        if let DeclaredValue::Object(m) = DeclaredValue::from_json(&declared) {
            res.declared = m;
        }
        res
    }

    #[test]
    fn the_declared_status_is_written_on_the_key() {
        let op = update(&key(json!({"UserName": "deployer", "Status": "Inactive"}))).unwrap();
        assert_eq!(
            op,
            ServiceOp::UpdateAccessKey {
                user_name: "deployer".into(),
                access_key_id: "AKIAEXAMPLE".into(),
                status: "Inactive".into()
            }
        );
    }

    #[test]
    fn a_status_iam_does_not_take_or_a_missing_user_is_refused() {
        let (reason, message) =
            update(&key(json!({"UserName": "deployer", "Status": "Disabled"}))).unwrap_err();
        assert_eq!(reason, RefusalReason::NoWriter);
        assert!(message.contains("Disabled"), "{message}");
        let (reason, _) = update(&key(json!({"Status": "Inactive"}))).unwrap_err();
        assert_eq!(reason, RefusalReason::NoTarget);
        let (reason, _) = update(&key(json!({"UserName": "deployer"}))).unwrap_err();
        assert_eq!(reason, RefusalReason::NoTarget, "no status is guessed");
        let mut nameless = key(json!({"UserName": "deployer"}));
        nameless.physical_id = None;
        assert_eq!(update(&nameless).unwrap_err().0, RefusalReason::NoTarget);
    }
}
