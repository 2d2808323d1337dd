//! AWS::DocDB::DBCluster and AWS::DocDB::DBInstance: ModifyDBCluster /
//! ModifyDBInstance with one declared top-level setting per call, applied
//! immediately (aws/src/writers/docdb.rs sends ApplyImmediately true). The two
//! writers share this shape; each names the settings its call takes, and
//! why the others are refused. The master password is never sent.

use super::declared_json;
use crate::revert::input::RevertResource;
use crate::revert::model::{RefusalReason, ServiceOp, Writer};
use crate::revert::target::Refused;

/// Declared cluster properties ModifyDBCluster cannot set, with why.
const CLUSTER_UNWRITTEN: &[(&str, &str)] = &[
    ("MasterUserPassword", "the master password is never sent by realdrift (and never read, so it never drifts)"),
    ("StorageEncrypted", "create-only: encryption is chosen when the cluster is created"),
    ("KmsKeyId", "create-only: the storage key is chosen when the cluster is created"),
    ("MasterUsername", "create-only: ModifyDBCluster has no master user name"),
    ("DBSubnetGroupName", "create-only: ModifyDBCluster does not move a cluster to another subnet group"),
    ("AvailabilityZones", "create-only: ModifyDBCluster does not take availability zones"),
    ("DBClusterIdentifier", "a rename (NewDBClusterIdentifier) would change the physical id CloudFormation tracks"),
    ("EngineVersion", "DocumentDB engine upgrades are one-way: a newer live version cannot be taken back"),
    ("EnableCloudwatchLogsExports", "ModifyDBCluster takes log types to enable and to disable, not the declared list; not mapped"),
    ("ManageMasterUserPassword", "turning the managed password off needs a master password, which realdrift never sends"),
    ("MasterUserSecretKmsKeyId", "the managed password's key is changed only together with the password management; not mapped"),
];

/// Declared instance properties ModifyDBInstance cannot set, with why.
const INSTANCE_UNWRITTEN: &[(&str, &str)] = &[
    (
        "DBClusterIdentifier",
        "create-only: an instance does not move to another cluster",
    ),
    (
        "AvailabilityZone",
        "create-only: ModifyDBInstance does not move an instance",
    ),
    (
        "DBInstanceIdentifier",
        "a rename (NewDBInstanceIdentifier) would change the physical id CloudFormation tracks",
    ),
    (
        "CertificateRotationRestart",
        "acts once, with a certificate change; not a setting to converge",
    ),
];

/// Why the writer does not write `top`, when it is a property it knows.
pub(super) fn unwritten(writer: Writer, top: &str) -> Option<String> {
    let (table, call) = match writer {
        Writer::DocDbCluster => (CLUSTER_UNWRITTEN, "ModifyDBCluster"),
        Writer::DocDbInstance => (INSTANCE_UNWRITTEN, "ModifyDBInstance"),
        _ => return None,
    };
    table
        .iter()
        .find(|(p, _)| *p == top)
        .map(|(p, why)| format!("declared {p} is not written by {call}: {why}"))
}

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
    if let Some(why) = unwritten(writer, top) {
        return Err((RefusalReason::NoWriter, why));
    }
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
        let res = resource(json!({"StorageEncrypted": true, "MasterUserPassword": "x"}));
        let (reason, message) = modify(Writer::DocDbCluster, &res, "StorageEncrypted").unwrap_err();
        assert_eq!(reason, RefusalReason::NoWriter);
        assert!(
            message.contains("StorageEncrypted") && message.contains("create-only"),
            "{message}"
        );
        let (reason, message) =
            modify(Writer::DocDbCluster, &res, "MasterUserPassword").unwrap_err();
        assert_eq!(reason, RefusalReason::NoWriter);
        assert!(message.contains("never sent"), "{message}");
        let res = resource(json!({"AvailabilityZone": "us-east-1a"}));
        let (reason, _) = modify(Writer::DocDbInstance, &res, "AvailabilityZone").unwrap_err();
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
