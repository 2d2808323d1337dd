//! Array shapes whose order AWS does not preserve: identity-keyed object
//! arrays (tags, origins, key schemas) and arrays of AWS ids / ARNs / HTTP
//! verbs. Both are sets, so both sides are put in one canonical order.

use serde_json::Value;

/// Identity fields that make an object array an unordered, keyed set for
/// canonical ordering (`Tags` `Key`, CloudFront `Id`, DynamoDB names, IAM
/// inline `PolicyName`, named elements).
pub const SORT_IDENTITY_KEYS: [&str; 6] = [
    "Key",
    "Id",
    "AttributeName",
    "IndexName",
    "PolicyName",
    "Name",
];

/// Identity fields used to ALIGN elements of a declared array with live ones
/// when collecting live-only sub-keys (`Prop[<id>].sub`). Broader than the
/// sort keys: aligning never changes equality, it only names elements
/// (a per-region list, `ReplicaRegions[eu-west-1].KmsKeyId`, by its region).
pub const ALIGN_IDENTITY_KEYS: [&str; 7] = [
    "Key",
    "Id",
    "AttributeName",
    "IndexName",
    "PolicyName",
    "Name",
    "Region",
];

const HTTP_VERBS: [&str; 7] = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/// The identity field shared by every element of an object array, from
/// `keys`, with string values that are unique within the array.
pub fn identity_key_of<'k>(arr: &[Value], keys: &[&'k str]) -> Option<&'k str> {
    let first = arr.first()?.as_object()?;
    keys.iter().copied().find(|k| {
        first.get(*k).is_some_and(Value::is_string)
            && arr.iter().enumerate().all(|(i, e)| match e.get(*k) {
                Some(Value::String(id)) => arr[..i]
                    .iter()
                    .all(|p| p.get(*k).and_then(Value::as_str) != Some(id.as_str())),
                _ => false,
            })
    })
}

/// True for a string shaped like an AWS resource id (`subnet-0abc…`, `sg-…`).
pub fn is_aws_id(s: &str) -> bool {
    let Some((prefix, rest)) = s.split_once('-') else {
        return false;
    };
    !prefix.is_empty()
        && prefix.len() <= 12
        && prefix.bytes().all(|b| b.is_ascii_lowercase())
        && rest.len() >= 8
        && rest.len() <= 32
        && rest
            .bytes()
            .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
}

/// True for a Lambda layer-version ARN (order-significant in `Layers`).
pub fn is_layer_arn(s: &str) -> bool {
    s.starts_with("arn:") && s.contains(":lambda:") && s.contains(":layer:")
}

/// True when `v` holds, at any depth, a list whose order is known to carry
/// meaning: Lambda layer ARNs (later layers overlay earlier ones).
pub fn holds_ordered_list(v: &Value) -> bool {
    match v {
        Value::Array(a) => {
            a.iter().any(|e| e.as_str().is_some_and(is_layer_arn))
                || a.iter().any(holds_ordered_list)
        }
        Value::Object(o) => o.values().any(holds_ordered_list),
        _ => false,
    }
}

/// True when every element is an AWS id, an ARN or an HTTP verb, and no
/// element is a Lambda layer ARN (later layers overlay earlier ones).
pub fn is_id_set(arr: &[Value]) -> bool {
    arr.len() > 1
        && arr.iter().all(|e| {
            e.as_str().is_some_and(|s| {
                (is_aws_id(s) || s.starts_with("arn:") || HTTP_VERBS.contains(&s))
                    && !is_layer_arn(s)
            })
        })
}

/// Sorts, in place and at any depth, identity-keyed object arrays (by their
/// identity value) and id/ARN/verb arrays (lexically).
pub fn canonicalize_arrays_deep(v: &mut Value) {
    match v {
        Value::Object(o) => o.values_mut().for_each(canonicalize_arrays_deep),
        Value::Array(a) => {
            a.iter_mut().for_each(canonicalize_arrays_deep);
            sort_set(a);
        }
        _ => {}
    }
}

/// Orders one array (not its elements) when it is an identity-keyed object
/// set or an id/ARN/verb set.
pub fn sort_set(a: &mut [Value]) {
    if a.len() < 2 {
        return;
    }
    if let Some(k) = identity_key_of(a, &SORT_IDENTITY_KEYS) {
        a.sort_by(|x, y| {
            x.get(k)
                .and_then(Value::as_str)
                .cmp(&y.get(k).and_then(Value::as_str))
        });
    } else if is_id_set(a) {
        a.sort_by(|x, y| x.as_str().cmp(&y.as_str()));
    }
}

/// Order-independent text of a value: object keys in sorted order, so two
/// equal values always produce the same text whatever their key order.
pub fn canonical_text(v: &Value) -> String {
    let mut out = String::new();
    write_canonical(v, &mut out);
    out
}

fn write_canonical(v: &Value, out: &mut String) {
    match v {
        Value::Object(o) => {
            let mut keys: Vec<&String> = o.keys().collect();
            keys.sort();
            out.push('{');
            for (i, k) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(k.clone()).to_string());
                out.push(':');
                if let Some(x) = o.get(k) {
                    write_canonical(x, out);
                }
            }
            out.push('}');
        }
        Value::Array(a) => {
            out.push('[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_canonical(x, out);
            }
            out.push(']');
        }
        other => out.push_str(&other.to_string()),
    }
}

/// Sorts an array by the canonical text of its elements (an unordered set).
pub fn sort_canonical(a: &mut [Value]) {
    if a.len() < 2 {
        return;
    }
    let mut keyed: Vec<(String, Value)> = a
        .iter_mut()
        .map(|x| (canonical_text(x), x.take()))
        .collect();
    keyed.sort_by(|x, y| x.0.cmp(&y.0));
    for (slot, (_, x)) in a.iter_mut().zip(keyed) {
        *slot = x;
    }
}

/// True when every element of `a` pairs with its own element of `b` under
/// `same` (each element of `b` used once): the two lists hold the same
/// members as a multiset. Greedy, so `same` must be an equivalence.
pub fn pairs_as_multiset(
    a: &[Value],
    b: &[Value],
    mut same: impl FnMut(&Value, &Value) -> bool,
) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut used = vec![false; b.len()];
    a.iter().all(
        |x| match (0..b.len()).find(|&j| !used[j] && same(x, &b[j])) {
            Some(j) => {
                used[j] = true;
                true
            }
            None => false,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn tag_lists_and_id_sets_sort_but_plain_lists_do_not() {
        let mut v = json!({
            "Tags": [{"Key": "b", "Value": "1"}, {"Key": "a", "Value": "2"}],
            "SubnetIds": ["subnet-0bbbbbbbbbbbbbbbb", "subnet-0aaaaaaaaaaaaaaaa"],
            "Names": ["b", "a"]
        });
        canonicalize_arrays_deep(&mut v);
        assert_eq!(v["Tags"][0]["Key"], "a");
        assert_eq!(v["SubnetIds"][0], "subnet-0aaaaaaaaaaaaaaaa");
        assert_eq!(v["Names"][0], "b");
    }

    #[test]
    fn layer_lists_are_known_to_be_ordered_at_any_depth() {
        let layer = "arn:aws:lambda:eu-west-1:123456789012:layer:base:3";
        assert!(holds_ordered_list(&json!({"Layers": [layer]})));
        assert!(holds_ordered_list(&json!([{"Inner": [layer, "x"]}])));
        assert!(!holds_ordered_list(&json!({"Names": ["a", "b"]})));
    }

    #[test]
    fn lambda_layers_keep_their_order() {
        let mut v = json!([
            "arn:aws:lambda:us-east-1:1:layer:b:1",
            "arn:aws:lambda:us-east-1:1:layer:a:1"
        ]);
        canonicalize_arrays_deep(&mut v);
        assert_eq!(v[0], "arn:aws:lambda:us-east-1:1:layer:b:1");
    }

    #[test]
    fn duplicate_identity_values_are_not_a_keyed_set() {
        let a = [json!({"Key": "a"}), json!({"Key": "a"})];
        assert_eq!(identity_key_of(&a, &SORT_IDENTITY_KEYS), None);
    }

    #[test]
    fn aws_id_shape() {
        assert!(is_aws_id("sg-0a26e23e2310ee0c9"));
        assert!(is_aws_id("subnet-0ddbb00e7c1d5b679"));
        assert!(!is_aws_id("my-bucket"));
        assert!(!is_aws_id("us-east-1"));
    }
}
