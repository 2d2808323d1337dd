//! Record + table entry -> [`Touch`]: the resources one API call touched,
//! as canonical keys, with the child candidates of a child API.

use super::identity::{Identities, ResourceKey};
use super::record::CloudTrailRecord;
use super::table::{EventEntry, IdentifierSpec, Origin, ResolveMode, ValueSpec};
use serde::Serialize;
use serde_json::Value;

/// At most this many identifier values are read from one record, so a
/// hostile record with a huge array costs bounded work.
pub const MAX_VALUES_PER_POINTER: usize = 64;

/// One identifier found in the record, keyed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Target {
    /// The type it names.
    pub resource_type: String,
    /// The identifier as recorded.
    pub identifier: String,
    /// The form that matched.
    pub form: String,
    /// Its canonical key.
    pub key: ResourceKey,
}

/// Which children of the touched parent a child API means.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase", tag = "by", content = "value")]
pub enum ChildSelector {
    /// Not a child API, or no way to tell children apart: all of them.
    All,
    /// A parent has at most one such child: that one.
    Singleton,
    /// The child named so within its parent (`None`: the record names none,
    /// which for a qualifier means the unqualified one).
    Name(Option<String>),
    /// The children with these identifiers (empty: the record names none
    /// that could be a stack's, e.g. a new subscription pending confirmation).
    Identifiers(Vec<Target>),
}

/// What one accepted API call touched.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Touch {
    /// The service endpoint.
    pub event_source: String,
    /// The bare API name (no version suffix).
    pub event_name: String,
    /// The account that owns the resource, when known.
    pub account_id: Option<String>,
    /// The region the call was recorded in, when known.
    pub region: Option<String>,
    /// A global service's call (recorded in us-east-1 for every region):
    /// resolve it against every region's index of the account.
    pub global: bool,
    /// The touched resources (parents, for a child API).
    pub targets: Vec<Target>,
    /// The child types a child API may be about.
    pub children: Vec<String>,
    /// Which of those children.
    pub child_selector: ChildSelector,
    /// How children and parents combine.
    pub resolve: Option<ResolveMode>,
}

/// Keys every identifier the entry names; `None` when no identifier of an
/// allowed form is in the record.
pub fn extract(
    record: &CloudTrailRecord,
    entry: &EventEntry,
    ids: &Identities,
) -> Option<(Vec<Target>, ChildSelector)> {
    let targets = keyed_targets(record, &entry.identifiers, &entry.resource_type, ids);
    if targets.is_empty() {
        return None;
    }
    Some((targets, child_selector(record, entry, ids)))
}

fn child_selector(
    record: &CloudTrailRecord,
    entry: &EventEntry,
    ids: &Identities,
) -> ChildSelector {
    if entry.children.is_empty() {
        return ChildSelector::All;
    }
    if !entry.child_identifiers.is_empty() {
        let first = entry
            .children
            .first()
            .map(String::as_str)
            .unwrap_or_default();
        return ChildSelector::Identifiers(keyed_targets(
            record,
            &entry.child_identifiers,
            first,
            ids,
        ));
    }
    if let Some(spec) = &entry.child_name {
        return ChildSelector::Name(read_name(record, spec));
    }
    let singleton = entry
        .children
        .iter()
        .all(|c| ids.get(c).is_some_and(|r| r.singleton));
    if singleton {
        ChildSelector::Singleton
    } else {
        ChildSelector::All
    }
}

fn keyed_targets(
    record: &CloudTrailRecord,
    specs: &[IdentifierSpec],
    entry_type: &str,
    ids: &Identities,
) -> Vec<Target> {
    let mut out: Vec<Target> = Vec::new();
    for spec in specs {
        let values = read_values(record, spec);
        for resource_type in spec.types(entry_type) {
            let Some(rules) = ids.get(resource_type) else {
                continue;
            };
            for v in &values {
                let Some(m) = rules.match_identifier(v, Some(&spec.forms)) else {
                    continue;
                };
                let same = out
                    .iter_mut()
                    .find(|t| t.resource_type == resource_type && same_resource(&t.key, &m.key));
                match same {
                    // One resource named twice (a name and its ARN): one
                    // target, keeping every location part either form gave.
                    Some(t) => {
                        t.key.account = t.key.account.take().or(m.key.account);
                        t.key.region = t.key.region.take().or(m.key.region);
                    }
                    None => out.push(Target {
                        resource_type: resource_type.to_string(),
                        identifier: v.clone(),
                        form: m.form,
                        key: m.key,
                    }),
                }
            }
        }
    }
    out
}

/// Same key parts, and no location part that differs where both name one.
fn same_resource(a: &ResourceKey, b: &ResourceKey) -> bool {
    let agree = |x: &Option<String>, y: &Option<String>| match (x, y) {
        (Some(x), Some(y)) => x == y,
        _ => true,
    };
    a.parts == b.parts && agree(&a.account, &b.account) && agree(&a.region, &b.region)
}

fn part(record: &CloudTrailRecord, from: Origin) -> Option<&Value> {
    match from {
        Origin::RequestParameters => record.request_parameters.as_ref(),
        Origin::ResponseElements => record.response_elements.as_ref(),
        Origin::Resources => None,
    }
}

fn read_values(record: &CloudTrailRecord, spec: &IdentifierSpec) -> Vec<String> {
    if spec.from == Origin::Resources {
        return record
            .resources
            .iter()
            .filter(|r| r.resource_type.as_deref() == spec.resource_type.as_deref())
            .filter_map(|r| r.arn.clone())
            .take(MAX_VALUES_PER_POINTER)
            .collect();
    }
    let (Some(root), Some(pointer)) = (part(record, spec.from), spec.pointer.as_deref()) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    collect(root, &segments(pointer), &mut out);
    out
}

fn read_name(record: &CloudTrailRecord, spec: &ValueSpec) -> Option<String> {
    let root = part(record, spec.from)?;
    let mut out = Vec::new();
    collect(root, &segments(&spec.pointer), &mut out);
    out.into_iter().next()
}

/// RFC 6901 segments (`~1` -> `/`, `~0` -> `~`).
fn segments(pointer: &str) -> Vec<String> {
    pointer
        .split('/')
        .skip(1)
        .map(|s| s.replace("~1", "/").replace("~0", "~"))
        .collect()
}

/// Walks the pointer; `*` steps into every array element. Strings at the
/// end are collected (a list of strings gives each); other values are not
/// identifiers.
fn collect(v: &Value, path: &[String], out: &mut Vec<String>) {
    if out.len() >= MAX_VALUES_PER_POINTER {
        return;
    }
    let Some((head, rest)) = path.split_first() else {
        match v {
            Value::String(s) if !s.is_empty() => out.push(s.clone()),
            Value::Array(items) => {
                for s in items
                    .iter()
                    .filter_map(Value::as_str)
                    .filter(|s| !s.is_empty())
                {
                    if out.len() < MAX_VALUES_PER_POINTER {
                        out.push(s.to_string());
                    }
                }
            }
            _ => {}
        }
        return;
    };
    match v {
        Value::Array(items) if head == "*" => {
            for item in items {
                collect(item, rest, out);
            }
        }
        Value::Array(items) => {
            if let Some(item) = head.parse::<usize>().ok().and_then(|i| items.get(i)) {
                collect(item, rest, out);
            }
        }
        Value::Object(map) => {
            if let Some(next) = map.get(head.as_str()) {
                collect(next, rest, out);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn pointers_walk_arrays_and_stop_at_the_cap() {
        let v = json!({"set": {"items": [{"id": "sg-1"}, {"id": "i-2"}, {"id": 3}]}});
        let mut out = Vec::new();
        collect(&v, &segments("/set/items/*/id"), &mut out);
        assert_eq!(out, vec!["sg-1", "i-2"]);
        let many: Vec<Value> = (0..1000)
            .map(|i| json!({ "id": format!("x{i}") }))
            .collect();
        let mut out = Vec::new();
        collect(&json!({ "a": many }), &segments("/a/*/id"), &mut out);
        assert_eq!(out.len(), MAX_VALUES_PER_POINTER);
        let mut out = Vec::new();
        collect(&json!({"a/b": ["x", "y"]}), &segments("/a~1b"), &mut out);
        assert_eq!(out, vec!["x", "y"]);
    }
}
