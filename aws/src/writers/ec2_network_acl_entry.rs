//! AWS::EC2::NetworkAclEntry: ReplaceNetworkAclEntry with the declared entry.

use super::{op_error, sdk_error, service, AttemptError, WriteCall};
use crate::clients::AwsClients;
use aws_sdk_ec2::types::{IcmpTypeCode, PortRange, RuleAction};
use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use realdrift_core::revert::{ServiceOp, WriteOutcome};
use serde_json::{Map, Value};

/// Applies a batch of these calls (the writer's table row).
pub fn write(call: WriteCall<'_>) -> BoxFuture<'_, WriteOutcome> {
    service(call, apply)
}

fn int(v: Option<&Value>) -> Option<i32> {
    match v? {
        Value::Number(n) => n.as_i64().and_then(|x| i32::try_from(x).ok()),
        Value::String(s) => s.parse().ok(),
        _ => None,
    }
}

fn text(v: Option<&Value>) -> Option<String> {
    match v? {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

fn malformed(what: &str) -> AttemptError {
    AttemptError {
        code: None,
        message: format!("the declared network ACL entry has no usable {what}"),
    }
}

/// Replaces one entry.
fn apply<'a>(c: &'a AwsClients, op: &'a ServiceOp) -> BoxFuture<'a, Result<(), AttemptError>> {
    async move {
        let ServiceOp::ReplaceNetworkAclEntry { entry } = op else {
            return Err(op_error("ec2NetworkAclEntry", op));
        };
        let e: &Map<String, Value> = entry;
        let acl = text(e.get("NetworkAclId")).ok_or_else(|| malformed("NetworkAclId"))?;
        let rule = int(e.get("RuleNumber")).ok_or_else(|| malformed("RuleNumber"))?;
        let egress = matches!(e.get("Egress"), Some(Value::Bool(true)))
            || e.get("Egress").and_then(Value::as_str) == Some("true");
        let protocol = text(e.get("Protocol")).ok_or_else(|| malformed("Protocol"))?;
        let action = text(e.get("RuleAction")).ok_or_else(|| malformed("RuleAction"))?;
        let mut call = c
            .ec2
            .replace_network_acl_entry()
            .network_acl_id(&acl)
            .rule_number(rule)
            .egress(egress)
            .protocol(protocol)
            .rule_action(RuleAction::from(action.as_str()))
            .set_cidr_block(text(e.get("CidrBlock")))
            .set_ipv6_cidr_block(text(e.get("Ipv6CidrBlock")));
        if let Some(p) = e.get("PortRange") {
            call = call.port_range(
                PortRange::builder()
                    .set_from(int(p.get("From")))
                    .set_to(int(p.get("To")))
                    .build(),
            );
        }
        if let Some(i) = e.get("Icmp") {
            call = call.icmp_type_code(
                IcmpTypeCode::builder()
                    .set_code(int(i.get("Code")))
                    .set_type(int(i.get("Type")))
                    .build(),
            );
        }
        call.send().await.map_err(|err| {
            sdk_error(
                "ec2:ReplaceNetworkAclEntry",
                &format!("{acl} rule {rule}"),
                &err,
            )
        })?;
        Ok(())
    }
    .boxed()
}
