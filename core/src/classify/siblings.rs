//! Facts gathered from OTHER resources of the stack (`ctx.sibling_facts`,
//! the corpus `opts` keys). Each explains a live value of this resource by a
//! declared sibling: an instance echoing its cluster, a replica inheriting
//! its source, an association made by a sibling resource. Every rule is
//! equality-gated against the sibling's own value.

use super::defaults::matches_default;
use super::scope::Scope;
use crate::normalize::path::{Path, Seg};
use serde_json::{Map, Value};

/// What a sibling fact says about an undeclared live value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// An echo of a sibling's own configuration: no finding.
    Drop,
    /// The value AWS derives from a sibling: `atDefault`.
    AtDefault,
    /// An identifier a sibling generated: `generated`.
    Generated,
}

/// Instance properties a cluster model stores under another name.
const CLUSTER_ECHO_ALIASES: [(&str, &str); 2] = [
    ("VPCSecurityGroups", "VpcSecurityGroupIds"),
    ("DBPort", "Port"),
];

fn fact<'a>(scope: &'a Scope<'_>, key: &str) -> Option<&'a Value> {
    scope.ctx.sibling_facts.get(key)
}

fn declared_str<'a>(scope: &'a Scope<'_>, key: &str) -> Option<&'a str> {
    scope.declared.get(key).and_then(Value::as_str)
}

fn contains_str(list: Option<&Value>, s: &str) -> bool {
    list.and_then(Value::as_array)
        .is_some_and(|a| a.iter().any(|x| x.as_str() == Some(s)))
}

/// The sibling verdict for an undeclared top-level value, if any.
pub(crate) fn top_level_verdict(scope: &Scope<'_>, key: &str, v: &Value) -> Option<Verdict> {
    let pid = scope.physical_id;
    // A cluster member echoes its cluster's settings.
    if let Some(model) = fact(scope, "clusterEchoModel").and_then(|m| m.get(pid)) {
        let alias = CLUSTER_ECHO_ALIASES
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, a)| *a);
        let echoed = [Some(key), alias]
            .into_iter()
            .flatten()
            .filter_map(|k| model.get(k))
            .any(|m| matches_default(v, m));
        if echoed {
            return Some(Verdict::Drop);
        }
    }
    let acct = fact(scope, "accountDefaults");
    let t = scope.res.resource_type.as_str();
    // Account-level defaults keyed by a declared property.
    if t == "AWS::DMS::ReplicationInstance" && key == "AllocatedStorage" {
        let class = declared_str(scope, "ReplicationInstanceClass");
        let d = acct
            .and_then(|a| a.get("dmsAllocatedStorageDefaults"))
            .zip(class)
            .and_then(|(m, c)| m.get(c));
        if d.is_some_and(|d| matches_default(v, d)) {
            return Some(Verdict::AtDefault);
        }
    }
    if t == "AWS::EC2::Volume"
        && key == "Encrypted"
        && acct
            .and_then(|a| a.get("ebsEncryptionByDefault"))
            .is_some_and(|d| matches_default(v, d))
    {
        return Some(Verdict::AtDefault);
    }
    // The VPC of a Client VPN endpoint comes from its sibling association.
    if key == "VpcId" {
        if let Some(d) = fact(scope, "siblingClientVpnEndpointVpcs").and_then(|m| m.get(pid)) {
            if matches_default(v, d) {
                return Some(Verdict::AtDefault);
            }
        }
    }
    // An endpoint group's health-check port defaults to its listener's port.
    if key == "HealthCheckPort" {
        let port = declared_str(scope, "ListenerArn")
            .and_then(|l| fact(scope, "siblingListenerPorts").and_then(|m| m.get(l)));
        if port.is_some_and(|p| matches_default(v, p)) {
            return Some(Verdict::AtDefault);
        }
    }
    // An EIP associated by a declared sibling (its NAT gateway) reflects the
    // association; only an association nobody declared should surface.
    if key == "NetworkInterfaceId" && contains_str(fact(scope, "siblingEipAssociations"), pid) {
        return Some(Verdict::Drop);
    }
    // IPv6 blocks attached by a declared sibling AWS::EC2::SubnetCidrBlock.
    if (key == "Ipv6CidrBlock" || key == "Ipv6CidrBlocks")
        && contains_str(fact(scope, "siblingSubnetCidrBlocks"), pid)
    {
        return Some(Verdict::Drop);
    }
    // Targets registered by a declared sibling (an ECS service).
    if key == "Targets" && contains_str(fact(scope, "siblingTargetGroupRegistrars"), pid) {
        return Some(Verdict::Generated);
    }
    None
}

/// The sibling verdict for a NON-empty undeclared top-level value: echoes of
/// a cluster or a replica source (an empty echo is noise either way).
pub(crate) fn echo_verdict(scope: &Scope<'_>, key: &str, v: &Value) -> Option<Verdict> {
    // A read replica inherits its source instance's settings.
    if let Some(src) = declared_str(scope, "SourceDBInstanceIdentifier") {
        if let Some(m) = fact(scope, "siblingRdsSourceModels")
            .and_then(|m| m.get(src))
            .and_then(|m| m.get(key))
        {
            if matches_default(v, m) {
                return Some(Verdict::AtDefault);
            }
        }
    }
    None
}

/// The sibling verdict for an undeclared nested value, if any.
pub(crate) fn nested_verdict(
    scope: &Scope<'_>,
    live: &Map<String, Value>,
    path: &Path,
    v: &Value,
) -> Option<Verdict> {
    let segs = path.segs();
    // A staging distribution's continuous-deployment policy is a sibling's.
    if path.matches_dotted("DistributionConfig.ContinuousDeploymentPolicyId") {
        let d =
            fact(scope, "siblingCloudFrontCdPolicyIds").and_then(|m| m.get(&scope.res.logical_id));
        if d.is_some_and(|d| matches_default(v, d)) {
            return Some(Verdict::AtDefault);
        }
    }
    // RDS option settings at their engine default (from DescribeOptionGroupOptions).
    if let [Seg::Key(oc), Seg::Index(i), Seg::Key(os), Seg::Id(name)] = segs {
        if oc == "OptionConfigurations" && os == "OptionSettings" {
            let option = live
                .get("OptionConfigurations")
                .and_then(|a| a.get(*i))
                .and_then(|o| o.get("OptionName"))
                .and_then(Value::as_str);
            let defaults = fact(scope, "rdsOptionSettingDefaults")
                .and_then(|m| m.get(scope.physical_id))
                .zip(option)
                .and_then(|(m, o)| m.get(o));
            if let Some(d) = defaults.and_then(|d| d.get(name)) {
                let live_value = v.get("Value").unwrap_or(&Value::Null);
                if matches_default(live_value, d) || (d.is_null() && v.get("Value").is_none()) {
                    return Some(Verdict::AtDefault);
                }
            }
        }
    }
    None
}

/// Elastic Beanstalk reports some security groups by id; the sibling map
/// names them so the option can be matched against its AWS-managed default.
pub(crate) fn eb_named_value(scope: &Scope<'_>, v: &Value) -> Option<Value> {
    let names = fact(scope, "ebSgNamesById")?;
    let id = v.get("Value")?.as_str()?;
    let name = names.get(id)?.clone();
    let mut out = v.clone();
    if let Some(o) = out.as_object_mut() {
        o.insert("Value".to_string(), name);
    }
    Some(out)
}

/// Removes security-group rules a declared sibling `AWS::EC2::SecurityGroupIngress`
/// / `Egress` owns from the group's live rule lists.
pub(crate) fn drop_sibling_sg_rules(scope: &Scope<'_>, live: &mut Map<String, Value>) {
    let Some(rules) = fact(scope, "siblingSgRules").and_then(|m| m.get(scope.physical_id)) else {
        return;
    };
    for (prop, dir) in [
        ("SecurityGroupIngress", "ingress"),
        ("SecurityGroupEgress", "egress"),
    ] {
        let Some(owned) = rules.get(dir).and_then(Value::as_array) else {
            continue;
        };
        if let Some(Value::Array(list)) = live.get_mut(prop) {
            list.retain(|r| !owned.iter().any(|o| matches_default(r, o)));
        }
    }
}
