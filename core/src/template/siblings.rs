//! Sibling `AWS::IAM::Policy` resources attached to each role, user and group.
//!
//! CDK puts a role's grants in a separate policy resource that shows up in the
//! role's live inline `Policies`. Classify drops only the live entries named
//! here, so an out-of-band inline policy next to them still surfaces.

use super::context::ResolverContext;
use super::model::Template;
use super::resolve::Resolver;
use crate::classify::SiblingPolicyNames;
use crate::declared::DeclaredValue;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// The properties of `AWS::IAM::Policy` that attach it to principals.
const ATTACHMENT_PROPERTIES: [&str; 3] = ["Roles", "Users", "Groups"];

/// Per target logical id, the names of the policies attached to it.
///
/// Only targets with at least one attached policy appear. A target gets
/// `Unresolved` when any attached policy's name (or whether the policy
/// exists at all) cannot be determined statically, so nothing is hidden.
pub fn sibling_policy_names(
    template: &Template,
    ctx: &ResolverContext,
) -> BTreeMap<String, SiblingPolicyNames> {
    let mut names: BTreeMap<String, Option<BTreeSet<String>>> = BTreeMap::new();
    let mut resolver = Resolver::new(template, ctx);
    let by_physical_id: BTreeMap<&str, &str> = ctx
        .physical_ids
        .iter()
        .filter(|(logical, _)| template.resources.contains_key(logical.as_str()))
        .map(|(logical, physical)| (physical.as_str(), logical.as_str()))
        .collect();
    for resource in template.resources.values() {
        if resource.resource_type != "AWS::IAM::Policy" {
            continue;
        }
        let exists = match &resource.condition {
            None => Some(true),
            Some(c) => resolver.condition(c),
        };
        if exists == Some(false) {
            continue;
        }
        let name = match (exists, resource.properties.get("PolicyName")) {
            (Some(true), Some(raw)) => match resolver.scratch(raw) {
                DeclaredValue::String(s) => Some(s),
                _ => None,
            },
            _ => None,
        };
        for target in attached_targets(&resource.properties, &by_physical_id) {
            let entry = names.entry(target).or_insert_with(|| Some(BTreeSet::new()));
            match (entry.as_mut(), &name) {
                (Some(set), Some(n)) => {
                    set.insert(n.clone());
                }
                _ => *entry = None,
            }
        }
    }
    names
        .into_iter()
        .map(|(target, set)| {
            let v = match set {
                Some(s) => SiblingPolicyNames::Known(s.into_iter().collect()),
                None => SiblingPolicyNames::Unresolved,
            };
            (target, v)
        })
        .collect()
}

/// Logical ids a policy attaches to: `{"Ref": id}` entries, or literal names
/// equal to a stack resource's physical id.
fn attached_targets(
    properties: &serde_json::Map<String, Value>,
    by_physical_id: &BTreeMap<&str, &str>,
) -> Vec<String> {
    let mut out = Vec::new();
    for prop in ATTACHMENT_PROPERTIES {
        let Some(Value::Array(entries)) = properties.get(prop) else {
            continue;
        };
        for entry in entries {
            match entry {
                Value::Object(o) if o.len() == 1 => {
                    if let Some(Value::String(logical)) = o.get("Ref") {
                        out.push(logical.clone());
                    }
                }
                Value::String(name) => {
                    if let Some(logical) = by_physical_id.get(name.as_str()) {
                        out.push((*logical).to_string());
                    }
                }
                _ => {}
            }
        }
    }
    out
}
