//! AWS::DocDB::DBCluster / DBInstance: ModifyDBCluster / ModifyDBInstance
//! with one declared top-level setting, always with ApplyImmediately true so a
//! revert takes effect now rather than at the next maintenance window. Only
//! the settings named here are sent; the master password is never one of them.

use super::declared::{boolean, float, int, strings, text, unusable};
use super::{op_error, sdk_error, service, AttemptError, WriteCall};
use crate::clients::AwsClients;
use aws_sdk_docdb::operation::modify_db_cluster::builders::ModifyDBClusterFluentBuilder;
use aws_sdk_docdb::operation::modify_db_instance::builders::ModifyDBInstanceFluentBuilder;
use aws_sdk_docdb::types::ServerlessV2ScalingConfiguration;
use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use realdrift_core::revert::{ServiceOp, WriteOutcome};
use serde_json::Value;

/// Applies a batch of cluster calls (the docdbDbCluster writer's table row).
pub fn write_cluster(call: WriteCall<'_>) -> BoxFuture<'_, WriteOutcome> {
    service(call, apply)
}

/// Applies a batch of instance calls (the docdbDbInstance writer's table row).
pub fn write_instance(call: WriteCall<'_>) -> BoxFuture<'_, WriteOutcome> {
    service(call, apply)
}

fn not_written(writer: &str, property: &str) -> AttemptError {
    AttemptError {
        code: None,
        message: format!("the {writer} writer does not write {property}"),
    }
}

/// Both capacities, as the declared structure gives them (a missing one is
/// not guessed).
fn scaling(v: &Value) -> Result<ServerlessV2ScalingConfiguration, AttemptError> {
    let p = "ServerlessV2ScalingConfiguration";
    let member = |k: &str| {
        v.get(k)
            .ok_or_else(|| unusable(&format!("{p}.{k}")))
            .and_then(|m| float(m, &format!("{p}.{k}")))
    };
    Ok(ServerlessV2ScalingConfiguration::builder()
        .min_capacity(member("MinCapacity")?)
        .max_capacity(member("MaxCapacity")?)
        .build())
}

/// The cluster call with one setting; anything else is refused (a plan defect).
fn cluster_setting(
    call: ModifyDBClusterFluentBuilder,
    property: &str,
    v: &Value,
) -> Result<ModifyDBClusterFluentBuilder, AttemptError> {
    Ok(match property {
        "BackupRetentionPeriod" => call.backup_retention_period(int(v, property)?),
        "DeletionProtection" => call.deletion_protection(boolean(v, property)?),
        "PreferredBackupWindow" => call.preferred_backup_window(text(v, property)?),
        "PreferredMaintenanceWindow" => call.preferred_maintenance_window(text(v, property)?),
        "Port" => call.port(int(v, property)?),
        "DBClusterParameterGroupName" => call.db_cluster_parameter_group_name(text(v, property)?),
        "VpcSecurityGroupIds" => call.set_vpc_security_group_ids(Some(strings(v, property)?)),
        "StorageType" => call.storage_type(text(v, property)?),
        "CopyTagsToSnapshot" => call.copy_tags_to_snapshot(boolean(v, property)?),
        "NetworkType" => call.network_type(text(v, property)?),
        "ServerlessV2ScalingConfiguration" => call.serverless_v2_scaling_configuration(scaling(v)?),
        other => return Err(not_written("docdbDbCluster", other)),
    })
}

/// The instance call with one setting; anything else is refused (a plan defect).
fn instance_setting(
    call: ModifyDBInstanceFluentBuilder,
    property: &str,
    v: &Value,
) -> Result<ModifyDBInstanceFluentBuilder, AttemptError> {
    Ok(match property {
        "DBInstanceClass" => call.db_instance_class(text(v, property)?),
        "AutoMinorVersionUpgrade" => call.auto_minor_version_upgrade(boolean(v, property)?),
        "PreferredMaintenanceWindow" => call.preferred_maintenance_window(text(v, property)?),
        "CACertificateIdentifier" => call.ca_certificate_identifier(text(v, property)?),
        "EnablePerformanceInsights" => call.enable_performance_insights(boolean(v, property)?),
        other => return Err(not_written("docdbDbInstance", other)),
    })
}

/// Modifies one setting of one cluster or instance, applied immediately.
fn apply<'a>(c: &'a AwsClients, op: &'a ServiceOp) -> BoxFuture<'a, Result<(), AttemptError>> {
    async move {
        match op {
            ServiceOp::ModifyDocDbCluster {
                identifier,
                property,
                value,
            } => {
                let call = c
                    .docdb
                    .modify_db_cluster()
                    .db_cluster_identifier(identifier)
                    .apply_immediately(true);
                let call = cluster_setting(call, property, value)?;
                call.send().await.map_err(|err| {
                    sdk_error(
                        "docdb:ModifyDBCluster",
                        &format!("{identifier} ({property})"),
                        &err,
                    )
                })?;
            }
            ServiceOp::ModifyDocDbInstance {
                identifier,
                property,
                value,
            } => {
                let call = c
                    .docdb
                    .modify_db_instance()
                    .db_instance_identifier(identifier)
                    .apply_immediately(true);
                let call = instance_setting(call, property, value)?;
                call.send().await.map_err(|err| {
                    sdk_error(
                        "docdb:ModifyDBInstance",
                        &format!("{identifier} ({property})"),
                        &err,
                    )
                })?;
            }
            other => return Err(op_error("docdb", other)),
        }
        Ok(())
    }
    .boxed()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn cluster_call() -> ModifyDBClusterFluentBuilder {
        let conf = aws_sdk_docdb::Config::builder()
            .behavior_version(aws_sdk_docdb::config::BehaviorVersion::latest())
            .region(aws_sdk_docdb::config::Region::new("us-east-1"))
            .build();
        aws_sdk_docdb::Client::from_conf(conf)
            .modify_db_cluster()
            .db_cluster_identifier("docs")
            .apply_immediately(true)
    }

    #[test]
    fn a_declared_cluster_setting_is_sent_with_apply_immediately() {
        let call = cluster_setting(cluster_call(), "DeletionProtection", &json!("true")).unwrap();
        assert_eq!(call.get_deletion_protection(), &Some(true));
        assert_eq!(call.get_apply_immediately(), &Some(true));
        assert_eq!(call.get_master_user_password(), &None);
        let call =
            cluster_setting(cluster_call(), "VpcSecurityGroupIds", &json!(["sg-1"])).unwrap();
        assert_eq!(
            call.get_vpc_security_group_ids(),
            &Some(vec!["sg-1".to_string()])
        );
    }

    #[test]
    fn a_mistyped_or_unmapped_setting_is_not_guessed() {
        let e = cluster_setting(cluster_call(), "BackupRetentionPeriod", &json!([7])).unwrap_err();
        assert!(e.message.contains("BackupRetentionPeriod"), "{}", e.message);
        let e = cluster_setting(cluster_call(), "MasterUserPassword", &json!("x")).unwrap_err();
        assert!(
            e.message.contains("does not write MasterUserPassword"),
            "{}",
            e.message
        );
        let e = scaling(&json!({"MinCapacity": 0.5})).unwrap_err();
        assert!(e.message.contains("MaxCapacity"), "{}", e.message);
    }
}
