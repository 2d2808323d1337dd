//! Tag reverts: a top-level tag property (`Tags`, `*Tags`, the schema's tag
//! property) is rewritten whole, addressing `[{Key, Value}]` entries by key,
//! and keeps every entry the template cannot own: AWS-reserved and
//! service-managed keys (data) and the stack tags CloudFormation propagates.

use super::model::RefusalReason;
use super::rules::revert_facts;
use super::target::{Change, Refused};
use crate::baseline::Segment;
use crate::normalize::canonicalize_for_compare;
use crate::normalize::tags::{is_tag_key, is_tag_list};
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// The whole-property value a tag change writes, and the keys it kept.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct TagWrite {
    /// The new tag property (`None`: remove it).
    pub value: Option<Value>,
    /// Keys kept from the live value that the target did not name.
    pub preserved: Vec<String>,
}

/// True when `prop` is a top-level tag property of the type.
pub(crate) fn is_tag_property(prop: &str, schema_tag_property: Option<&str>) -> bool {
    is_tag_key(prop, &["Tags", schema_tag_property.unwrap_or("Tags")])
}

/// Refuses a change to the list that holds a nested tag property
/// (`TagSpecifications.*.Tags`): the compared view left out the tags AWS and
/// the stack own, so writing it back whole would strip them.
pub(crate) fn nested_tag_holder(
    top: &str,
    schema_tag_property: Option<&str>,
) -> Result<(), Refused> {
    match schema_tag_property.and_then(|p| p.split_once('.')) {
        Some((holder, _)) if holder == top => Err((
            RefusalReason::NoWriter,
            format!(
                "tags held inside {top}: a write of the compared value would drop the tags \
                 CloudFormation propagates; change them with the stack or by hand"
            ),
        )),
        _ => Ok(()),
    }
}

/// True when the tag property is handled here: a `{Key, Value}` list (live or
/// target), or a whole map-form tag property.
pub(crate) fn handles(live: Option<&Value>, rest: &[Segment<'_>], change: &Change) -> bool {
    let list =
        |v: Option<&Value>| matches!(v, Some(Value::Array(a)) if a.is_empty() || is_tag_list(a));
    let target = match change {
        Change::Set(v) if rest.is_empty() => Some(v),
        _ => None,
    };
    // A map-form entry below the property is an ordinary member path.
    list(live) || list(target) || rest.is_empty()
}

/// Computes the tag property after `change` at `rest` (the path below it).
pub(crate) fn tag_write(
    live: Option<&Value>,
    rest: &[Segment<'_>],
    change: &Change,
    stack_tags: &BTreeMap<String, String>,
) -> Result<TagWrite, Refused> {
    let keep = |k: &str, v: &Value| {
        revert_facts().is_preserved_tag(k)
            || stack_tags.get(k).is_some_and(|s| v.as_str() == Some(s))
    };
    let mut entries = tag_entries(live).ok_or_else(shape_refusal)?;
    match (rest, change) {
        ([], Change::Set(target)) => {
            let wanted = tag_entries(Some(target)).ok_or_else(shape_refusal)?;
            let mut preserved = Vec::new();
            for (k, v) in &entries {
                if !wanted.contains_key(k) && keep(k, v) {
                    preserved.push(k.clone());
                }
            }
            let mut out = wanted;
            for k in &preserved {
                if let Some(v) = entries.get(k) {
                    out.insert(k.clone(), v.clone());
                }
            }
            Ok(finish(out, live, Some(target), preserved))
        }
        ([], Change::Remove) => {
            entries.retain(|k, v| keep(k, v));
            let preserved: Vec<String> = entries.keys().cloned().collect();
            Ok(finish(entries, live, None, preserved))
        }
        ([Segment::Ident(key)], change) => entry_change(entries, key, None, change, live, &keep),
        ([Segment::Key(key)], change) if !matches!(live, Some(Value::Array(_))) => {
            entry_change(entries, key, None, change, live, &keep)
        }
        ([Segment::Ident(key), Segment::Key("Value")], change) => {
            entry_change(entries, key, Some(()), change, live, &keep)
        }
        _ => Err((
            RefusalReason::ArrayElement,
            "a tag path below a single entry's value; no writer addresses it".into(),
        )),
    }
}

/// One entry changed: `value_only` when the path names the entry's Value.
fn entry_change(
    mut entries: BTreeMap<String, Value>,
    key: &str,
    value_only: Option<()>,
    change: &Change,
    live: Option<&Value>,
    keep: &dyn Fn(&str, &Value) -> bool,
) -> Result<TagWrite, Refused> {
    if revert_facts().is_preserved_tag(key) {
        return Err((
            RefusalReason::NoWriter,
            "an AWS-reserved or service-managed tag key; tag reverts keep it".into(),
        ));
    }
    match change {
        Change::Set(v) => {
            let value = match (value_only, v) {
                (Some(()), v) => v.clone(),
                (None, Value::Object(e)) if e.get("Key").and_then(Value::as_str) == Some(key) => {
                    e.get("Value").cloned().unwrap_or(Value::Null)
                }
                // A map-form tag entry is the value itself.
                (None, v) if !matches!(live, Some(Value::Array(_))) => v.clone(),
                _ => return Err(shape_refusal()),
            };
            entries.insert(key.to_string(), value);
        }
        Change::Remove => {
            entries.remove(key);
        }
        Change::Delete => return Err(shape_refusal()),
    }
    let preserved = entries
        .iter()
        .filter(|(k, v)| k.as_str() != key && keep(k, v))
        .map(|(k, _)| k.clone())
        .collect();
    Ok(finish(entries, live, None, preserved))
}

fn shape_refusal() -> Refused {
    (
        RefusalReason::PatchInvalid,
        "the tag property is neither a {Key, Value} list nor a map; no certain rewrite".into(),
    )
}

/// Tag entries by key, from a `{Key, Value}` list or a map (absent: none).
fn tag_entries(v: Option<&Value>) -> Option<BTreeMap<String, Value>> {
    match v {
        None => Some(BTreeMap::new()),
        Some(Value::Array(a)) => a
            .iter()
            .map(|e| {
                let k = e.get("Key")?.as_str()?;
                Some((k.to_string(), e.get("Value")?.clone()))
            })
            .collect(),
        Some(Value::Object(m)) => Some(m.iter().map(|(k, v)| (k.clone(), v.clone())).collect()),
        Some(_) => None,
    }
}

/// Rebuilds the property in the shape the live value (else the target) has.
fn finish(
    entries: BTreeMap<String, Value>,
    live: Option<&Value>,
    target: Option<&Value>,
    preserved: Vec<String>,
) -> TagWrite {
    let as_map = match live.or(target) {
        Some(Value::Object(_)) => true,
        Some(Value::Array(_)) => false,
        _ => false,
    };
    if entries.is_empty() && target.is_none() {
        return TagWrite {
            value: None,
            preserved,
        };
    }
    let value = if as_map {
        Value::Object(entries.into_iter().collect::<Map<String, Value>>())
    } else {
        let list = entries
            .into_iter()
            .map(|(k, v)| {
                let mut e = Map::new();
                e.insert("Key".into(), Value::String(k));
                e.insert("Value".into(), v);
                Value::Object(e)
            })
            .collect();
        canonicalize_for_compare(&Value::Array(list))
    };
    TagWrite {
        value: Some(value),
        preserved,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn tags(pairs: &[(&str, &str)]) -> Value {
        Value::Array(
            pairs
                .iter()
                .map(|(k, v)| json!({"Key": k, "Value": v}))
                .collect(),
        )
    }

    #[test]
    fn whole_list_revert_keeps_reserved_managed_and_stack_tags() {
        let live = tags(&[
            ("aws:cloudformation:stack-name", "S"),
            ("AmazonECSManaged", ""),
            ("env", "prod"),
            ("team", "changed"),
            ("console", "added"),
        ]);
        let stack: BTreeMap<String, String> = [("env".to_string(), "prod".to_string())].into();
        let w = tag_write(
            Some(&live),
            &[],
            &Change::Set(tags(&[("team", "core")])),
            &stack,
        )
        .unwrap();
        assert_eq!(
            w.value,
            Some(tags(&[
                ("AmazonECSManaged", ""),
                ("aws:cloudformation:stack-name", "S"),
                ("env", "prod"),
                ("team", "core")
            ]))
        );
        assert_eq!(
            w.preserved,
            vec!["AmazonECSManaged", "aws:cloudformation:stack-name", "env"]
        );
    }

    #[test]
    fn a_stack_tag_changed_on_the_resource_is_not_kept() {
        let live = tags(&[("env", "dev")]);
        let stack: BTreeMap<String, String> = [("env".to_string(), "prod".to_string())].into();
        let w = tag_write(Some(&live), &[], &Change::Remove, &stack).unwrap();
        assert_eq!(w.value, None);
    }

    #[test]
    fn single_entries_are_addressed_by_key() {
        let live = tags(&[("aws:x", "1"), ("a", "1"), ("b", "2")]);
        let none = BTreeMap::new();
        let w = tag_write(Some(&live), &[Segment::Ident("b")], &Change::Remove, &none).unwrap();
        assert_eq!(w.value, Some(tags(&[("a", "1"), ("aws:x", "1")])));
        let w = tag_write(
            Some(&live),
            &[Segment::Ident("a"), Segment::Key("Value")],
            &Change::Set(json!("9")),
            &none,
        )
        .unwrap();
        assert_eq!(
            w.value,
            Some(tags(&[("a", "9"), ("aws:x", "1"), ("b", "2")]))
        );
        let e = tag_write(
            Some(&live),
            &[Segment::Ident("aws:x")],
            &Change::Remove,
            &none,
        );
        assert_eq!(e.map_err(|e| e.0), Err(RefusalReason::NoWriter));
    }

    #[test]
    fn map_form_tags_keep_reserved_keys() {
        let live = json!({"aws:cdk:path": "p", "a": "1", "x": "oob"});
        let w = tag_write(
            Some(&live),
            &[],
            &Change::Set(json!({"a": "2"})),
            &BTreeMap::new(),
        )
        .unwrap();
        assert_eq!(w.value, Some(json!({"a": "2", "aws:cdk:path": "p"})));
    }
}
