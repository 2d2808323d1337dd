//! AWS::EC2::ClientVpnEndpoint: ModifyClientVpnEndpoint with declared
//! settings, converted from CloudFormation's shapes to EC2's. A value the
//! conversion cannot use fails the call naming it; nothing is guessed.

use super::declared::{boolean, int, strings, text, unusable};
use super::{op_error, sdk_error, service, AttemptError, WriteCall};
use crate::clients::AwsClients;
use aws_sdk_ec2::operation::modify_client_vpn_endpoint::builders::ModifyClientVpnEndpointFluentBuilder;
use aws_sdk_ec2::types::{ConnectionLogOptions, DnsServersOptionsModifyStructure};
use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use realdrift_core::revert::{ServiceOp, WriteOutcome};
use serde_json::Value;

/// Applies a batch of these calls (the writer's table row).
pub fn write(call: WriteCall<'_>) -> BoxFuture<'_, WriteOutcome> {
    service(call, apply)
}

/// `ConnectionLogOptions` (the plan admits only the members mapped here).
fn log_options(v: &Value) -> Result<ConnectionLogOptions, AttemptError> {
    let p = "ConnectionLogOptions";
    let member = |k: &str| v.get(k).map(|m| (m, format!("{p}.{k}")));
    let enabled = member("Enabled").ok_or_else(|| unusable(&format!("{p}.Enabled")))?;
    Ok(ConnectionLogOptions::builder()
        .enabled(boolean(enabled.0, &enabled.1)?)
        .set_cloudwatch_log_group(
            member("CloudwatchLogGroup")
                .map(|(m, path)| text(m, &path))
                .transpose()?,
        )
        .set_cloudwatch_log_stream(
            member("CloudwatchLogStream")
                .map(|(m, path)| text(m, &path))
                .transpose()?,
        )
        .build())
}

/// The call with one declared setting; an unknown one is refused (a plan defect).
fn with_setting(
    call: ModifyClientVpnEndpointFluentBuilder,
    property: &str,
    v: &Value,
) -> Result<ModifyClientVpnEndpointFluentBuilder, AttemptError> {
    Ok(match property {
        "Description" => call.description(text(v, property)?),
        "ServerCertificateArn" => call.server_certificate_arn(text(v, property)?),
        "ConnectionLogOptions" => call.connection_log_options(log_options(v)?),
        "DnsServers" => call.dns_servers(
            DnsServersOptionsModifyStructure::builder()
                .set_custom_dns_servers(Some(strings(v, property)?))
                .enabled(true)
                .build(),
        ),
        "VpnPort" => call.vpn_port(int(v, property)?),
        "SplitTunnel" => call.split_tunnel(boolean(v, property)?),
        "SecurityGroupIds" => call.set_security_group_ids(Some(strings(v, property)?)),
        "VpcId" => call.vpc_id(text(v, property)?),
        "SessionTimeoutHours" => call.session_timeout_hours(int(v, property)?),
        "DisconnectOnSessionTimeout" => call.disconnect_on_session_timeout(boolean(v, property)?),
        other => {
            return Err(AttemptError {
                code: None,
                message: format!("the ec2ClientVpnEndpoint writer does not write {other}"),
            })
        }
    })
}

/// Modifies the declared settings of one endpoint.
fn apply<'a>(c: &'a AwsClients, op: &'a ServiceOp) -> BoxFuture<'a, Result<(), AttemptError>> {
    async move {
        let ServiceOp::ModifyClientVpnEndpoint {
            endpoint_id,
            settings,
        } = op
        else {
            return Err(op_error("ec2ClientVpnEndpoint", op));
        };
        let mut call = c
            .ec2
            .modify_client_vpn_endpoint()
            .client_vpn_endpoint_id(endpoint_id);
        for (property, value) in settings {
            call = with_setting(call, property, value)?;
        }
        let names: Vec<&str> = settings.keys().map(String::as_str).collect();
        call.send().await.map_err(|err| {
            sdk_error(
                "ec2:ModifyClientVpnEndpoint",
                &format!("{endpoint_id} ({})", names.join(", ")),
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

    #[test]
    fn the_declared_log_options_convert_and_a_mistyped_value_is_named() {
        let o = log_options(&json!({"Enabled": "true", "CloudwatchLogGroup": "/vpn"})).unwrap();
        assert_eq!(
            (o.enabled(), o.cloudwatch_log_group()),
            (Some(true), Some("/vpn"))
        );
        let e = log_options(&json!({"CloudwatchLogGroup": "/vpn"})).unwrap_err();
        assert!(
            e.message.contains("ConnectionLogOptions.Enabled"),
            "{}",
            e.message
        );
        let e = log_options(&json!({"Enabled": true, "CloudwatchLogStream": 3})).unwrap_err();
        assert!(e.message.contains("CloudwatchLogStream"), "{}", e.message);
        assert!(int(&json!("eight"), "SessionTimeoutHours").is_err());
    }
}
