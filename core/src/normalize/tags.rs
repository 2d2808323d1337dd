//! Tag noise: `aws:*` tags AWS adds (CloudFormation's stack/logical-id tags)
//! and stack-level tags CloudFormation propagates onto every resource.

use super::path::values_at;
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// True for an AWS-reserved tag key (`aws:*`).
pub fn is_aws_key(k: &str) -> bool {
    k.starts_with("aws:")
}

/// True for a property name that holds tags (`Tags`, `UserPoolTags`, the
/// schema's tag property).
pub fn is_tag_key(k: &str, tag_keys: &[&str]) -> bool {
    tag_keys.contains(&k) || k.ends_with("Tags")
}

/// Removes `aws:*` entries from `{Key, Value}` lists anywhere, and from
/// key/value maps held under a tag key (`Tags`, `*Tags`, or the schema's tag
/// property). Maps elsewhere are left alone: an IAM condition key such as
/// `aws:SecureTransport` is policy content, not a tag.
pub fn strip_aws_tags_deep(v: &mut Value, tag_keys: &[&str]) {
    match v {
        Value::Object(o) => {
            for (k, child) in o.iter_mut() {
                if is_tag_key(k, tag_keys) {
                    if let Value::Object(m) = child {
                        m.retain(|tk, _| !is_aws_key(tk));
                        continue;
                    }
                }
                strip_aws_tags_deep(child, tag_keys);
            }
        }
        Value::Array(a) => {
            if is_tag_list(a) {
                a.retain(|e| !e.get("Key").and_then(Value::as_str).is_some_and(is_aws_key));
            }
            a.iter_mut().for_each(|x| strip_aws_tags_deep(x, tag_keys));
        }
        _ => {}
    }
}

/// True for a `{Key, Value}` tag list.
pub fn is_tag_list(a: &[Value]) -> bool {
    !a.is_empty()
        && a.iter()
            .all(|e| e.get("Key").is_some_and(Value::is_string) && e.get("Value").is_some())
}

/// Removes propagated stack tags (same key AND value) from a resource's tag
/// property, except keys the resource declares itself (a declared key is
/// compared). `tag_prop` is the schema's tag property as a dotted path; a
/// `*` segment stands for every element of a list (EC2's capacity
/// reservations hold their tags in `TagSpecifications.*.Tags`).
pub fn strip_stack_tags(
    live: &mut Map<String, Value>,
    tag_prop: &str,
    stack_tags: &BTreeMap<String, String>,
    declared_keys: &[String],
) {
    if stack_tags.is_empty() {
        return;
    }
    // Equality-gated: a propagated tag whose value was changed on the
    // resource out of band is not the stack's tag any more, and stays.
    let propagated = |k: &str, v: Option<&Value>| {
        stack_tags
            .get(k)
            .is_some_and(|sv| v.and_then(Value::as_str) == Some(sv.as_str()))
            && !declared_keys.iter().any(|d| d == k)
    };
    for tags in tag_values_mut(live, tag_prop) {
        match tags {
            Value::Array(a) => a.retain(|e| {
                !e.get("Key")
                    .and_then(Value::as_str)
                    .is_some_and(|k| propagated(k, e.get("Value")))
            }),
            Value::Object(m) => m.retain(|k, v| !propagated(k, Some(v))),
            _ => {}
        }
    }
}

/// Every value at the dotted tag path (one for a top-level property).
fn tag_values_mut<'a>(live: &'a mut Map<String, Value>, tag_prop: &str) -> Vec<&'a mut Value> {
    fn walk<'a>(v: &'a mut Value, segs: &[&str], out: &mut Vec<&'a mut Value>) {
        match (segs, v) {
            ([], v) => out.push(v),
            (["*", rest @ ..], Value::Array(a)) => {
                a.iter_mut().for_each(|e| walk(e, rest, out));
            }
            ([seg, rest @ ..], Value::Object(o)) => {
                if let Some(c) = o.get_mut(*seg) {
                    walk(c, rest, out);
                }
            }
            _ => {}
        }
    }
    let segs: Vec<&str> = tag_prop.split('.').collect();
    let mut out = Vec::new();
    if let Some((first, rest)) = segs.split_first() {
        if let Some(v) = live.get_mut(*first) {
            walk(v, rest, &mut out);
        }
    }
    out
}

/// Drops, under a nested tag property (`TagSpecifications.*.Tags`), each
/// holder element left with no tag once AWS's and the stack's were removed,
/// when its other members are plain labels (`ResourceType`); then the holder
/// list itself when it is left empty. Such an element says nothing the
/// template could own: the resource carries no tag of its own there.
pub fn drop_emptied_tag_holders(live: &mut Map<String, Value>, tag_prop: &str) {
    let segs: Vec<&str> = tag_prop.split('.').collect();
    let [holder, "*", tags] = segs.as_slice() else {
        return;
    };
    let Some(Value::Array(elements)) = live.get_mut(*holder) else {
        return;
    };
    elements.retain(|e| !is_emptied_holder(e, tags));
    if elements.is_empty() {
        live.remove(*holder);
    }
}

/// True for `{<label>: "...", <tags>: []}`: no tag left, only text labels.
fn is_emptied_holder(e: &Value, tags: &str) -> bool {
    let Value::Object(o) = e else { return false };
    let no_tags = match o.get(tags) {
        Some(Value::Array(a)) => a.is_empty(),
        Some(Value::Object(m)) => m.is_empty(),
        None => true,
        _ => false,
    };
    no_tags && o.iter().all(|(k, v)| k == tags || v.is_string())
}

/// The tag keys a declared tag property sets (list or map form), at the
/// schema's dotted tag path.
pub fn declared_tag_keys(declared: &Map<String, Value>, tag_prop: &str) -> Vec<String> {
    let segs: Vec<&str> = tag_prop.split('.').collect();
    let Some((first, rest)) = segs.split_first() else {
        return Vec::new();
    };
    values_at(declared.get(*first), rest)
        .into_iter()
        .flatten()
        .flat_map(|tags| match tags {
            Value::Array(a) => a
                .iter()
                .filter_map(|e| e.get("Key").and_then(Value::as_str).map(str::to_string))
                .collect(),
            Value::Object(m) => m.keys().cloned().collect(),
            _ => Vec::new(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn aws_tags_go_user_tags_and_condition_keys_stay() {
        let mut v = json!({
            "Tags": [{"Key": "aws:cloudformation:stack-name", "Value": "s"}, {"Key": "team", "Value": "a"}],
            "Nested": {"Tags": {"aws:x": "1", "k": "v"}},
            "Policy": {"Condition": {"Bool": {"aws:SecureTransport": "false"}}}
        });
        strip_aws_tags_deep(&mut v, &["Tags"]);
        assert_eq!(v["Tags"], json!([{"Key": "team", "Value": "a"}]));
        assert_eq!(v["Nested"]["Tags"], json!({"k": "v"}));
        assert_eq!(
            v["Policy"]["Condition"]["Bool"]["aws:SecureTransport"],
            "false"
        );
    }

    #[test]
    fn stack_tags_stripped_unless_declared() {
        let mut live = json!({"Tags": [{"Key": "env", "Value": "prod"}, {"Key": "own", "Value": "x"}, {"Key": "oob", "Value": "y"}]})
            .as_object()
            .cloned()
            .unwrap_or_default();
        let mut st = BTreeMap::new();
        st.insert("env".to_string(), "prod".to_string());
        st.insert("own".to_string(), "x".to_string());
        strip_stack_tags(&mut live, "Tags", &st, &["own".to_string()]);
        assert_eq!(
            live["Tags"],
            json!([{"Key": "own", "Value": "x"}, {"Key": "oob", "Value": "y"}])
        );
        // A propagated key whose value changed on the resource stays visible.
        let mut live = json!({"Tags": [{"Key": "env", "Value": "dev"}]})
            .as_object()
            .cloned()
            .unwrap_or_default();
        strip_stack_tags(&mut live, "Tags", &st, &[]);
        assert_eq!(live["Tags"], json!([{"Key": "env", "Value": "dev"}]));
    }
}
