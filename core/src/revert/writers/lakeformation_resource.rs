//! AWS::LakeFormation::Resource: UpdateResource on the declared location with
//! the declared role and, when declared, the federation and hybrid access
//! flags. UpdateResource requires a role ARN: a location the template
//! registers with the service-linked role (no RoleArn) is refused.

use super::{declared_json, declared_text};
use crate::revert::input::RevertResource;
use crate::revert::model::{RefusalReason, ServiceOp};
use crate::revert::target::Refused;
use serde_json::Value;

/// The UpdateResource call with the declared state.
pub(super) fn update(res: &RevertResource) -> Result<ServiceOp, Refused> {
    let resource_arn = declared_text(res, "ResourceArn")?;
    if !res.declared.contains_key("RoleArn") {
        return Err((
            RefusalReason::NoWriter,
            "the template declares no RoleArn (the service-linked role), and UpdateResource requires one"
                .into(),
        ));
    }
    let role_arn = declared_text(res, "RoleArn")?;
    Ok(ServiceOp::UpdateLakeFormationResource {
        resource_arn,
        role_arn,
        with_federation: flag(res, "WithFederation")?,
        hybrid_access_enabled: flag(res, "HybridAccessEnabled")?,
    })
}

/// A declared boolean, if declared; anything else is refused.
fn flag(res: &RevertResource, prop: &str) -> Result<Option<bool>, Refused> {
    match declared_json(res, prop)? {
        None => Ok(None),
        Some(Value::Bool(b)) => Ok(Some(b)),
        Some(_) => Err((
            RefusalReason::NoTarget,
            format!("declared {prop} is not a boolean"),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::declared::DeclaredValue;
    use serde_json::json;

    fn location(declared: Value) -> RevertResource {
        let mut res = RevertResource::default();
        if let DeclaredValue::Object(m) = DeclaredValue::from_json(&declared) {
            res.declared = m;
        }
        res
    }

    #[test]
    fn the_declared_role_and_flags_are_written() {
        let res = location(
            json!({"ResourceArn": "arn:aws:s3:::lake", "RoleArn": "arn:r",
                                  "UseServiceLinkedRole": false, "WithFederation": false}),
        );
        assert_eq!(
            update(&res).unwrap(),
            ServiceOp::UpdateLakeFormationResource {
                resource_arn: "arn:aws:s3:::lake".into(),
                role_arn: "arn:r".into(),
                with_federation: Some(false),
                hybrid_access_enabled: None,
            }
        );
    }

    #[test]
    fn a_service_linked_location_or_a_mistyped_flag_is_refused() {
        let res =
            location(json!({"ResourceArn": "arn:aws:s3:::lake", "UseServiceLinkedRole": true}));
        let (reason, message) = update(&res).unwrap_err();
        assert_eq!(reason, RefusalReason::NoWriter);
        assert!(message.contains("RoleArn"), "{message}");
        let res = location(
            json!({"ResourceArn": "arn:aws:s3:::lake", "RoleArn": "arn:r",
                                  "HybridAccessEnabled": "yes"}),
        );
        let (_, message) = update(&res).unwrap_err();
        assert!(message.contains("HybridAccessEnabled"), "{message}");
    }
}
