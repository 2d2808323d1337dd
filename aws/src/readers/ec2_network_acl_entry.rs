//! AWS::EC2::NetworkAclEntry: the entry of the declared network ACL with the
//! declared rule number and direction (DescribeNetworkAcls; an entry has no
//! id of its own in the EC2 API).

use super::{declared_target, failed_read, AwsClients, Model};
use aws_sdk_ec2::types::NetworkAclEntry;
use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use realdrift_core::declared::DeclaredValue;
use realdrift_core::pipeline::{Projection, ReadOutcome, ReadRequest};
use serde_json::{json, Value};

/// Every property of the type: the EC2 entry carries them all.
pub const PROJECTION: Projection = Projection {
    resource_type: "AWS::EC2::NetworkAclEntry",
    reads: &[
        "NetworkAclId",
        "RuleNumber",
        "Egress",
        "RuleAction",
        "Protocol",
        "CidrBlock",
        "Ipv6CidrBlock",
        "PortRange",
        "Icmp",
    ],
    leaves_out: "not a property of an EC2 network ACL entry",
};

/// Reads the entry (NetworkAclId, RuleNumber, Egress) from DescribeNetworkAcls.
pub fn read<'a>(clients: &'a AwsClients, req: &'a ReadRequest) -> BoxFuture<'a, ReadOutcome> {
    async move {
        let acl = match declared_target(req, "NetworkAclId") {
            Ok(a) => a.to_string(),
            Err(o) => return *o,
        };
        let Some(rule) = declared_int(req, "RuleNumber") else {
            return ReadOutcome::denied(
                "AWS::EC2::NetworkAclEntry RuleNumber is not a resolved integer",
            );
        };
        // Egress defaults to false (ingress) in the registry schema.
        let egress = match req.declared.get("Egress") {
            None => false,
            Some(DeclaredValue::Bool(b)) => *b,
            Some(DeclaredValue::String(s)) if s == "true" || s == "false" => s == "true",
            Some(_) => {
                return ReadOutcome::denied(
                    "AWS::EC2::NetworkAclEntry Egress is not a resolved boolean",
                )
            }
        };
        let out = match clients
            .ec2
            .describe_network_acls()
            .network_acl_ids(&acl)
            .send()
            .await
        {
            Ok(o) => o,
            Err(e) => {
                return failed_read(
                    &e,
                    &["InvalidNetworkAclID.NotFound"],
                    &format!("ec2:DescribeNetworkAcls on {acl}"),
                );
            }
        };
        let entry = out
            .network_acls()
            .iter()
            .flat_map(|a| a.entries())
            .find(|e| e.rule_number() == Some(rule) && e.egress() == Some(egress));
        match entry {
            Some(e) => Model::new(PROJECTION, req, entry_model(&acl, e)).found(),
            None => ReadOutcome::NotFound,
        }
    }
    .boxed()
}

/// A declared integer (CloudFormation passes `"100"` as 100).
fn declared_int(req: &ReadRequest, prop: &str) -> Option<i32> {
    match req.declared.get(prop)? {
        DeclaredValue::Number(n) => n.as_i64().and_then(|v| i32::try_from(v).ok()),
        DeclaredValue::String(s) => s.parse().ok(),
        _ => None,
    }
}

/// The CloudFormation-shaped model of one entry, only what EC2 returned.
pub(crate) fn entry_model(acl: &str, e: &NetworkAclEntry) -> Value {
    let mut m = serde_json::Map::new();
    m.insert("NetworkAclId".into(), json!(acl));
    if let Some(n) = e.rule_number() {
        m.insert("RuleNumber".into(), json!(n));
    }
    if let Some(b) = e.egress() {
        m.insert("Egress".into(), json!(b));
    }
    if let Some(a) = e.rule_action() {
        m.insert("RuleAction".into(), json!(a.as_str()));
    }
    if let Some(p) = e.protocol() {
        // EC2 answers the protocol number as a string; the schema's is an integer.
        let v = p
            .parse::<i64>()
            .map(Value::from)
            .unwrap_or_else(|_| json!(p));
        m.insert("Protocol".into(), v);
    }
    if let Some(c) = e.cidr_block() {
        m.insert("CidrBlock".into(), json!(c));
    }
    if let Some(c) = e.ipv6_cidr_block() {
        m.insert("Ipv6CidrBlock".into(), json!(c));
    }
    if let Some(r) = e.port_range() {
        let mut pr = serde_json::Map::new();
        if let Some(f) = r.from() {
            pr.insert("From".into(), json!(f));
        }
        if let Some(t) = r.to() {
            pr.insert("To".into(), json!(t));
        }
        m.insert("PortRange".into(), Value::Object(pr));
    }
    if let Some(i) = e.icmp_type_code() {
        let mut ic = serde_json::Map::new();
        if let Some(c) = i.code() {
            ic.insert("Code".into(), json!(c));
        }
        if let Some(t) = i.r#type() {
            ic.insert("Type".into(), json!(t));
        }
        m.insert("Icmp".into(), Value::Object(ic));
    }
    Value::Object(m)
}
