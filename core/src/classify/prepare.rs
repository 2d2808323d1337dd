//! Prepares the live model for comparison: removes what is never
//! configuration (schema read-only outputs, write-only echoes, managed
//! timestamps, `aws:*` tags, propagated stack tags) and what a sibling
//! resource owns (IAM policies attached by a sibling `AWS::IAM::Policy`).

use super::context::SiblingPolicyNames;
use super::scope::Scope;
use super::siblings;
use crate::normalize::aws_facts::facts;
use crate::normalize::canonicalize_in_place;
use crate::normalize::managed_fields::strip_managed_fields;
use crate::normalize::schema_strip::strip_paths;
use crate::normalize::tags::{declared_tag_keys, strip_aws_tags_deep, strip_stack_tags};
use serde_json::{Map, Value};

/// The prepared live model.
pub(crate) fn prepare_live(scope: &Scope<'_>, live: &Map<String, Value>) -> Map<String, Value> {
    let mut m = live.clone();
    let declared = |k: &str| scope.declared.contains_key(k);
    strip_paths(&mut m, &scope.read_only, declared);
    strip_paths(&mut m, &scope.write_only, |_| false);
    let mut v = Value::Object(m);
    strip_managed_fields(&mut v, &facts().managed_names, &scope.free_form);
    let tag_prop = scope.schema.tag_property.as_deref().unwrap_or("Tags");
    strip_aws_tags_deep(&mut v, &["Tags", tag_prop]);
    let Value::Object(mut m) = v else {
        return Map::new();
    };
    let declared_keys = declared_tag_keys(scope.declared.get(tag_prop));
    strip_stack_tags(&mut m, tag_prop, &scope.ctx.stack_tags, &declared_keys);
    drop_sibling_policies(scope, &mut m);
    siblings::drop_sibling_sg_rules(scope, &mut m);
    // One canonical form for every finding value (policy statements, keyed
    // and id arrays in a stable order).
    let mut v = Value::Object(m);
    canonicalize_in_place(&mut v);
    match v {
        Value::Object(m) => m,
        _ => Map::new(),
    }
}

/// Drops live inline policies a sibling `AWS::IAM::Policy` owns (matched by
/// name). An unresolvable sibling name keeps everything (fail open: an
/// out-of-band policy must never be hidden).
fn drop_sibling_policies(scope: &Scope<'_>, m: &mut Map<String, Value>) {
    let SiblingPolicyNames::Known(names) = &scope.res.sibling_policy_names else {
        return;
    };
    if let Some(Value::Array(pols)) = m.get_mut("Policies") {
        pols.retain(|p| {
            !p.get("PolicyName")
                .and_then(Value::as_str)
                .is_some_and(|n| names.iter().any(|x| x == n))
        });
    }
}
