//! AWS::DMS::ReplicationInstance: ModifyReplicationInstance with one declared
//! setting and ApplyImmediately (a revert applies now). A value the
//! conversion cannot use fails the call naming it; nothing is guessed.

use super::declared::{boolean, int, strings, text};
use super::{op_error, sdk_error, service, AttemptError, WriteCall};
use crate::clients::AwsClients;
use aws_sdk_databasemigration::operation::modify_replication_instance::builders::ModifyReplicationInstanceFluentBuilder as Modify;
use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use realdrift_core::revert::{ServiceOp, WriteOutcome};
use serde_json::Value;

/// Applies a batch of these calls (the writer's table row).
pub fn write(call: WriteCall<'_>) -> BoxFuture<'_, WriteOutcome> {
    service(call, apply)
}

/// The call with one setting; a property the writer does not write is refused.
fn with_setting(call: Modify, property: &str, v: &Value) -> Result<Modify, AttemptError> {
    Ok(match property {
        "AllocatedStorage" => call.allocated_storage(int(v, property)?),
        "AutoMinorVersionUpgrade" => call.auto_minor_version_upgrade(boolean(v, property)?),
        "MultiAZ" => call.multi_az(boolean(v, property)?),
        "ReplicationInstanceClass" => call.replication_instance_class(text(v, property)?),
        "PreferredMaintenanceWindow" => call.preferred_maintenance_window(text(v, property)?),
        "VpcSecurityGroupIds" => call.set_vpc_security_group_ids(Some(strings(v, property)?)),
        "EngineVersion" => call.engine_version(text(v, property)?),
        "NetworkType" => call.network_type(text(v, property)?),
        other => {
            return Err(AttemptError {
                code: None,
                message: format!("the dmsReplicationInstance writer does not write {other}"),
            })
        }
    })
}

/// Modifies one setting of one instance, now.
fn apply<'a>(
    clients: &'a AwsClients,
    op: &'a ServiceOp,
) -> BoxFuture<'a, Result<(), AttemptError>> {
    async move {
        let ServiceOp::ModifyReplicationInstance {
            replication_instance_arn: arn,
            property,
            value,
            allow_major_version_upgrade,
        } = op
        else {
            return Err(op_error("dmsReplicationInstance", op));
        };
        let call = clients
            .dms
            .modify_replication_instance()
            .replication_instance_arn(arn)
            .apply_immediately(true)
            .set_allow_major_version_upgrade(*allow_major_version_upgrade);
        with_setting(call, property, value)?
            .send()
            .await
            .map_err(|err| {
                sdk_error(
                    "dms:ModifyReplicationInstance",
                    &format!("{arn} ({property})"),
                    &err,
                )
            })?;
        Ok(())
    }
    .boxed()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn call() -> Modify {
        let conf = aws_sdk_databasemigration::Config::builder()
            .behavior_version(aws_sdk_databasemigration::config::BehaviorVersion::latest())
            .build();
        aws_sdk_databasemigration::Client::from_conf(conf).modify_replication_instance()
    }

    #[test]
    fn the_declared_settings_convert() {
        let c = with_setting(call(), "AllocatedStorage", &json!("50")).unwrap();
        assert_eq!(c.get_allocated_storage(), &Some(50));
        let c = with_setting(call(), "AutoMinorVersionUpgrade", &json!(true)).unwrap();
        assert_eq!(c.get_auto_minor_version_upgrade(), &Some(true));
        let c = with_setting(call(), "VpcSecurityGroupIds", &json!(["sg-1"])).unwrap();
        assert_eq!(
            c.get_vpc_security_group_ids().as_deref(),
            Some(&["sg-1".to_string()][..])
        );
    }

    #[test]
    fn a_mistyped_value_or_an_unwritten_property_is_not_guessed() {
        for (p, v) in [
            ("AllocatedStorage", json!("fifty")),
            ("MultiAZ", json!("yes")),
            ("VpcSecurityGroupIds", json!("sg-1")),
            ("PubliclyAccessible", json!(false)),
        ] {
            let e = with_setting(call(), p, &v).unwrap_err();
            assert!(e.message.contains(p), "{}", e.message);
        }
    }
}
