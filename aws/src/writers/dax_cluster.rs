//! AWS::DAX::Cluster: UpdateCluster with one declared setting, converted
//! from CloudFormation's names to DAX's. A value the conversion cannot use
//! fails the call naming it; nothing is guessed.

use super::declared::{strings, text};
use super::{op_error, sdk_error, service, AttemptError, WriteCall};
use crate::clients::AwsClients;
use aws_sdk_dax::operation::update_cluster::builders::UpdateClusterFluentBuilder;
use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use realdrift_core::revert::{ServiceOp, WriteOutcome};
use serde_json::Value;

/// Applies a batch of these calls (the writer's table row).
pub fn write(call: WriteCall<'_>) -> BoxFuture<'_, WriteOutcome> {
    service(call, apply)
}

/// The call with one setting; a property the writer does not write is refused.
fn with_setting(
    call: UpdateClusterFluentBuilder,
    property: &str,
    v: &Value,
) -> Result<UpdateClusterFluentBuilder, AttemptError> {
    Ok(match property {
        "Description" => call.description(text(v, property)?),
        "PreferredMaintenanceWindow" => call.preferred_maintenance_window(text(v, property)?),
        "NotificationTopicARN" => call.notification_topic_arn(text(v, property)?),
        "ParameterGroupName" => call.parameter_group_name(text(v, property)?),
        "SecurityGroupIds" => call.set_security_group_ids(Some(strings(v, property)?)),
        other => {
            return Err(AttemptError {
                code: None,
                message: format!("the daxCluster writer does not write {other}"),
            })
        }
    })
}

/// Updates one setting of one cluster.
fn apply<'a>(
    clients: &'a AwsClients,
    op: &'a ServiceOp,
) -> BoxFuture<'a, Result<(), AttemptError>> {
    async move {
        let ServiceOp::UpdateDaxCluster {
            cluster_name,
            property,
            value,
        } = op
        else {
            return Err(op_error("daxCluster", op));
        };
        let call = clients.dax.update_cluster().cluster_name(cluster_name);
        with_setting(call, property, value)?
            .send()
            .await
            .map_err(|err| {
                sdk_error(
                    "dax:UpdateCluster",
                    &format!("{cluster_name} ({property})"),
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

    fn client() -> aws_sdk_dax::Client {
        let conf = aws_sdk_dax::Config::builder()
            .behavior_version(aws_sdk_dax::config::BehaviorVersion::latest())
            .build();
        aws_sdk_dax::Client::from_conf(conf)
    }

    #[test]
    fn the_declared_settings_convert() {
        let call = with_setting(
            client().update_cluster(),
            "SecurityGroupIds",
            &json!(["sg-1", "sg-2"]),
        )
        .unwrap();
        assert_eq!(
            call.get_security_group_ids().as_deref(),
            Some(&["sg-1".to_string(), "sg-2".to_string()][..])
        );
        let call = with_setting(client().update_cluster(), "Description", &json!("c")).unwrap();
        assert_eq!(call.get_description().as_deref(), Some("c"));
    }

    #[test]
    fn a_mistyped_value_or_an_unwritten_property_is_not_guessed() {
        let e = with_setting(
            client().update_cluster(),
            "SecurityGroupIds",
            &json!("sg-1"),
        )
        .unwrap_err();
        assert!(e.message.contains("SecurityGroupIds"), "{}", e.message);
        let e = with_setting(client().update_cluster(), "Description", &json!(3)).unwrap_err();
        assert!(e.message.contains("Description"), "{}", e.message);
        let e =
            with_setting(client().update_cluster(), "ReplicationFactor", &json!(1)).unwrap_err();
        assert!(e.message.contains("ReplicationFactor"), "{}", e.message);
    }
}
