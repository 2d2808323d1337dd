//! AWS::DocDB::DBCluster and AWS::DocDB::DBInstance: ModifyDBCluster /
//! ModifyDBInstance with one declared top-level setting per call, applied
//! immediately (aws/src/writers/docdb.rs sends ApplyImmediately true). The two
//! writers share this shape; the settings each call cannot take are refused
//! by their data row (`refuses` in core/data/revert-writers.json), with why.
//! The master password is never sent.

use super::declared_json;
use crate::revert::input::RevertResource;
use crate::revert::model::{RefusalReason, ServiceOp, Writer};
use crate::revert::target::Refused;

/// The Modify call writing the declared `top` of the cluster or instance.
pub(super) fn modify(
    writer: Writer,
    res: &RevertResource,
    top: &str,
) -> Result<ServiceOp, Refused> {
    let Some(identifier) = res.physical_id.clone().filter(|n| !n.is_empty()) else {
        return Err((
            RefusalReason::NoTarget,
            "the DocumentDB identifier (the physical id) is unknown".into(),
        ));
    };
    let Some(value) = declared_json(res, top)? else {
        return Err((
            RefusalReason::NoTarget,
            format!("the template declares no {top}; a Modify call cannot remove a setting"),
        ));
    };
    let property = top.to_string();
    match writer {
        Writer::DocDbCluster => Ok(ServiceOp::ModifyDocDbCluster {
            identifier,
            property,
            value,
        }),
        Writer::DocDbInstance => Ok(ServiceOp::ModifyDocDbInstance {
            identifier,
            property,
            value,
        }),
        other => Err((
            RefusalReason::NoWriter,
            format!("the {} writer makes no DocumentDB call", other.as_str()),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::declared::DeclaredValue;
    use crate::revert::model::ItemKind;
    use crate::revert::rules::revert_facts;
    use crate::revert::target::{Change, Decision};
    use serde_json::{json, Value};

    fn resource(declared: Value) -> RevertResource {
        let mut res = RevertResource {
            physical_id: Some("docs".into()),
            ..RevertResource::default()
        };
        if let DeclaredValue::Object(m) = DeclaredValue::from_json(&declared) {
            res.declared = m;
        }
        res
    }

    #[test]
    fn a_declared_setting_is_one_modify_call() {
        let res = resource(json!({"DeletionProtection": true, "BackupRetentionPeriod": 7}));
        assert_eq!(
            modify(Writer::DocDbCluster, &res, "DeletionProtection").unwrap(),
            ServiceOp::ModifyDocDbCluster {
                identifier: "docs".into(),
                property: "DeletionProtection".into(),
                value: json!(true)
            }
        );
        let res = resource(json!({"CACertificateIdentifier": "rds-ca-rsa2048-g1"}));
        assert!(matches!(
            modify(Writer::DocDbInstance, &res, "CACertificateIdentifier").unwrap(),
            ServiceOp::ModifyDocDbInstance { property, .. } if property == "CACertificateIdentifier"
        ));
    }

    #[test]
    fn create_only_and_secret_properties_are_refused_with_the_reason() {
        let refused = |ty: &str, res: &RevertResource, top: &str| {
            let entry = revert_facts().type_writer(ty).unwrap();
            let decision = Decision {
                change: Change::Set(json!(true)),
                kind: ItemKind::Template,
                unrecorded: false,
            };
            super::super::type_ops(entry, res, top, &decision).unwrap_err()
        };
        let res = resource(json!({"StorageEncrypted": true, "MasterUserPassword": "x"}));
        let (reason, message) = refused("AWS::DocDB::DBCluster", &res, "StorageEncrypted");
        assert_eq!(reason, RefusalReason::NoWriter);
        assert!(
            message.contains("StorageEncrypted") && message.contains("create-only"),
            "{message}"
        );
        let (reason, message) = refused("AWS::DocDB::DBCluster", &res, "MasterUserPassword");
        assert_eq!(reason, RefusalReason::NoWriter);
        assert!(message.contains("never sent"), "{message}");
        let res = resource(json!({"AvailabilityZone": "us-east-1a"}));
        let (reason, _) = refused("AWS::DocDB::DBInstance", &res, "AvailabilityZone");
        assert_eq!(reason, RefusalReason::NoWriter);
    }

    #[test]
    fn an_undeclared_setting_or_an_unknown_target_is_refused() {
        let res = resource(json!({"Port": 27017}));
        let (reason, _) = modify(Writer::DocDbCluster, &res, "BackupRetentionPeriod").unwrap_err();
        assert_eq!(reason, RefusalReason::NoTarget);
        let mut nameless = resource(json!({"Port": 27017}));
        nameless.physical_id = None;
        let (reason, _) = modify(Writer::DocDbCluster, &nameless, "Port").unwrap_err();
        assert_eq!(reason, RefusalReason::NoTarget);
    }
}
