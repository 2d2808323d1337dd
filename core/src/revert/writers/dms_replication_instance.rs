//! AWS::DMS::ReplicationInstance: ModifyReplicationInstance with one declared
//! setting per call, applied immediately (ApplyImmediately: a revert applies
//! now, not at the next maintenance window). A declared EngineVersion is sent
//! with the declared AllowMajorVersionUpgrade, which DMS needs for a major
//! version change; nothing else is added to the call.

use super::{declared_json, physical_id};
use crate::revert::input::RevertResource;
use crate::revert::model::{RefusalReason, ServiceOp};
use crate::revert::target::Refused;
use serde_json::Value;

/// The ModifyReplicationInstance call writing the declared `top`.
pub(super) fn modify(res: &RevertResource, top: &str) -> Result<ServiceOp, Refused> {
    let replication_instance_arn = physical_id(res, "the replication instance ARN")?;
    let Some(value) = declared_json(res, top)? else {
        return Err((
            RefusalReason::NoTarget,
            format!(
                "the template declares no {top}; ModifyReplicationInstance cannot remove a setting"
            ),
        ));
    };
    let allow_major_version_upgrade = match (top, declared_json(res, "AllowMajorVersionUpgrade")?) {
        ("EngineVersion", Some(Value::Bool(b))) => Some(b),
        ("EngineVersion", Some(_)) => {
            return Err((
                RefusalReason::NoTarget,
                "declared AllowMajorVersionUpgrade is not a boolean".into(),
            ))
        }
        _ => None,
    };
    Ok(ServiceOp::ModifyReplicationInstance {
        replication_instance_arn,
        property: top.to_string(),
        value,
        allow_major_version_upgrade,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::declared::DeclaredValue;
    use serde_json::json;

    fn instance(declared: Value) -> RevertResource {
        let mut res = RevertResource {
            physical_id: Some("arn:aws:dms:us-east-1:1:rep:R".into()),
            ..RevertResource::default()
        };
        if let DeclaredValue::Object(m) = DeclaredValue::from_json(&declared) {
            res.declared = m;
        }
        res
    }

    #[test]
    fn one_setting_per_call_and_the_engine_with_its_upgrade_permission() {
        let res = instance(
            json!({"AutoMinorVersionUpgrade": true, "EngineVersion": "3.5.3",
                                  "AllowMajorVersionUpgrade": true}),
        );
        assert_eq!(
            modify(&res, "AutoMinorVersionUpgrade").unwrap(),
            ServiceOp::ModifyReplicationInstance {
                replication_instance_arn: "arn:aws:dms:us-east-1:1:rep:R".into(),
                property: "AutoMinorVersionUpgrade".into(),
                value: json!(true),
                allow_major_version_upgrade: None,
            }
        );
        let ServiceOp::ModifyReplicationInstance {
            allow_major_version_upgrade,
            ..
        } = modify(&res, "EngineVersion").unwrap()
        else {
            panic!("wrong op");
        };
        assert_eq!(allow_major_version_upgrade, Some(true));
    }

    #[test]
    fn an_undeclared_setting_or_a_mistyped_permission_is_refused() {
        let res = instance(json!({"EngineVersion": "3.5.3", "AllowMajorVersionUpgrade": "yes"}));
        assert_eq!(
            modify(&res, "MultiAZ").unwrap_err().0,
            RefusalReason::NoTarget
        );
        let (_, message) = modify(&res, "EngineVersion").unwrap_err();
        assert!(message.contains("AllowMajorVersionUpgrade"), "{message}");
    }
}
