//! Finding paths as RFC 6902 targets: which paths a patch can address (whole
//! top-level properties and object members), and the add / replace / remove
//! operation that writes one, checked against the live model.

use crate::baseline::{segments, Segment};
use json_patch::jsonptr::PointerBuf;
use json_patch::{AddOperation, PatchOperation, RemoveOperation, ReplaceOperation};
use serde_json::{Map, Value};

/// How a finding path can be addressed in the live model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Address {
    /// A chain of object members (the first is a top-level property).
    Members(Vec<String>),
    /// The path names an array element (by identity or by position).
    Element,
}

/// Classifies `path` against the raw live model. A numeric segment is an
/// array position unless the live model shows an object there.
pub(crate) fn address(live: &Value, path: &str) -> Address {
    let mut keys = Vec::new();
    let mut cur = Some(live);
    for seg in segments(path) {
        let Segment::Key(k) = seg else {
            return Address::Element;
        };
        cur = match cur {
            Some(Value::Object(m)) => m.get(k),
            Some(Value::Array(_)) => return Address::Element,
            // Beyond a scalar, or below an absent member: only a name that
            // cannot be an array position is certain to be a member.
            _ if is_index(k) => return Address::Element,
            _ => None,
        };
        keys.push(k.to_string());
    }
    if keys.is_empty() {
        return Address::Element;
    }
    Address::Members(keys)
}

fn is_index(k: &str) -> bool {
    !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit())
}

/// The RFC 6901 pointer of a member chain (tokens escaped).
pub(crate) fn pointer(keys: &[String]) -> PointerBuf {
    PointerBuf::from_tokens(keys.iter().map(String::as_str))
}

/// The value at a member chain, if present.
pub(crate) fn get<'v>(live: &'v Value, keys: &[String]) -> Option<&'v Value> {
    keys.iter()
        .try_fold(live, |cur, k| cur.as_object().and_then(|m| m.get(k)))
}

/// The operation writing `value` at `keys`: a replace where the live model
/// has the member, else an add at the first missing member (building the
/// missing objects below it).
pub(crate) fn set_op(live: &Value, keys: &[String], value: Value) -> Option<PatchOperation> {
    if get(live, keys).is_some() {
        return Some(PatchOperation::Replace(ReplaceOperation {
            path: pointer(keys),
            value,
        }));
    }
    // The deepest present ancestor must be an object for an add to land.
    let present = (0..keys.len())
        .take_while(|&i| get(live, &keys[..=i]).is_some())
        .count();
    get(live, &keys[..present])?.as_object()?;
    let mut built = value;
    for k in keys[present + 1..].iter().rev() {
        let mut m = Map::new();
        m.insert(k.clone(), built);
        built = Value::Object(m);
    }
    Some(PatchOperation::Add(AddOperation {
        path: pointer(&keys[..=present]),
        value: built,
    }))
}

/// The operation removing the member at `keys`, when the live model has it.
pub(crate) fn remove_op(live: &Value, keys: &[String]) -> Option<PatchOperation> {
    get(live, keys)?;
    Some(PatchOperation::Remove(RemoveOperation {
        path: pointer(keys),
    }))
}

/// Applies operations to a copy of the live model (all or nothing).
pub(crate) fn apply(live: &Value, ops: &[PatchOperation]) -> Option<Value> {
    let mut doc = live.clone();
    json_patch::patch(&mut doc, ops).ok()?;
    Some(doc)
}

/// True when two member chains overlap (one is a prefix of the other).
pub(crate) fn overlaps(a: &[String], b: &[String]) -> bool {
    a.iter().zip(b).all(|(x, y)| x == y)
}

/// The member chain of a patch operation's path.
pub(crate) fn op_keys(op: &PatchOperation) -> Vec<String> {
    op.path()
        .tokens()
        .map(|t| t.decoded().into_owned())
        .collect()
}

/// The value at a finding path (`Prop[<id>]` names the element whose `Key`,
/// or any other string field, equals `<id>`; a numeric key indexes an array).
pub(crate) fn lookup_path<'v>(doc: &'v Value, path: &str) -> Option<&'v Value> {
    segments(path)
        .into_iter()
        .try_fold(doc, |cur, seg| match (seg, cur) {
            (Segment::Key(k), Value::Object(m)) => m.get(k),
            (Segment::Key(k), Value::Array(a)) => k.parse::<usize>().ok().and_then(|i| a.get(i)),
            (Segment::Ident(id), Value::Array(a)) => {
                let by_key = a
                    .iter()
                    .find(|e| e.get("Key").and_then(Value::as_str) == Some(id));
                by_key.or_else(|| {
                    a.iter().find(|e| match e {
                        Value::String(s) => s == id,
                        Value::Object(m) => m.values().any(|v| v.as_str() == Some(id)),
                        _ => false,
                    })
                })
            }
            _ => None,
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn members_objects_and_free_form_keys_are_addressable() {
        let live =
            json!({"Environment": {"Variables": {"A": "1"}}, "L": [{"K": 1}], "M": {"0": 1}});
        assert_eq!(
            address(&live, "Environment.Variables.A"),
            Address::Members(vec!["Environment".into(), "Variables".into(), "A".into()])
        );
        assert_eq!(
            address(&live, "Environment.Variables.NEW"),
            Address::Members(vec!["Environment".into(), "Variables".into(), "NEW".into()])
        );
        assert_eq!(
            address(&live, "M.0"),
            Address::Members(vec!["M".into(), "0".into()])
        );
    }

    #[test]
    fn array_elements_are_not_members() {
        let live = json!({"L": [{"K": 1}], "T": [{"Key": "a", "Value": "b"}]});
        assert_eq!(address(&live, "L.0.K"), Address::Element);
        assert_eq!(address(&live, "T[a].Value"), Address::Element);
        assert_eq!(address(&live, "Gone.0"), Address::Element);
        assert_eq!(address(&live, ""), Address::Element);
    }

    #[test]
    fn set_replaces_present_members_and_adds_missing_ones() {
        let live = json!({"A": {"B": 1}});
        let keys = |p: &str| p.split('.').map(String::from).collect::<Vec<_>>();
        let op = set_op(&live, &keys("A.B"), json!(2)).unwrap();
        assert_eq!(
            serde_json::to_value(&op).unwrap(),
            json!({"op": "replace", "path": "/A/B", "value": 2})
        );
        let op = set_op(&live, &keys("A.C.D"), json!(3)).unwrap();
        assert_eq!(
            serde_json::to_value(&op).unwrap(),
            json!({"op": "add", "path": "/A/C", "value": {"D": 3}})
        );
        assert_eq!(
            apply(&live, &[op]).unwrap(),
            json!({"A": {"B": 1, "C": {"D": 3}}})
        );
        // An add cannot land below a scalar.
        assert!(set_op(&json!({"A": 1}), &keys("A.B"), json!(1)).is_none());
        assert!(remove_op(&live, &keys("A.X")).is_none());
    }

    #[test]
    fn pointers_escape_slashes_and_tildes() {
        let keys = vec!["Variables".to_string(), "a/b~c".to_string()];
        assert_eq!(pointer(&keys).as_str(), "/Variables/a~1b~0c");
        let op = remove_op(&json!({"Variables": {"a/b~c": 1}}), &keys).unwrap();
        assert_eq!(op_keys(&op), keys);
    }
}
