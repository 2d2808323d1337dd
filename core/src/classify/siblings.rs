//! Facts gathered from OTHER resources of the stack (`ctx.sibling_facts`,
//! the corpus `opts` keys). Each explains a live value of this resource by a
//! declared sibling: an instance echoing its cluster, a replica inheriting
//! its source, an association made by a sibling resource. Every rule is
//! equality-gated against the sibling's own value.

use super::defaults::matches_default;
use super::scope::Scope;
use super::sibling_rules::{Key, Lookup, SIBLING_RULES};
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
/// `path` is `key`'s one-key path (the caller's, not built again).
pub(crate) fn top_level_verdict(
    scope: &Scope<'_>,
    key: &str,
    path: &Path,
    v: &Value,
) -> Option<Verdict> {
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
    explained(scope, path, v)
}

/// The verdict of the first table row whose fact explains the value at
/// `path` (see [`SIBLING_RULES`]).
fn explained(scope: &Scope<'_>, path: &Path, v: &Value) -> Option<Verdict> {
    SIBLING_RULES
        .iter()
        .filter(|r| r.resource_type == scope.res.resource_type)
        .filter(|r| r.paths.iter().any(|p| path.matches_dotted(p)))
        .find(|r| {
            let Some(f) = fact(scope, r.fact) else {
                return false;
            };
            match r.lookup {
                Lookup::Equals(keys) => keys
                    .iter()
                    .try_fold(f, |at, k| at.get(key_text(scope, *k)?))
                    .is_some_and(|d| matches_default(v, d)),
                Lookup::Names(k) => key_text(scope, k).is_some_and(|id| contains_str(Some(f), id)),
            }
        })
        .map(|r| r.verdict)
}

/// The text a lookup key stands for on this resource, if it has one.
fn key_text<'a>(scope: &'a Scope<'_>, k: Key) -> Option<&'a str> {
    match k {
        Key::Literal(s) => Some(s),
        Key::PhysicalId => Some(scope.physical_id),
        Key::LogicalId => Some(scope.res.logical_id.as_str()),
        Key::Declared(p) => declared_str(scope, p),
    }
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
    if let Some(verdict) = explained(scope, path, v) {
        return Some(verdict);
    }
    let segs = path.segs();
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
