//! Lists whose order carries meaning.
//!
//! The compare stage folds a reorder only where a rule calls the list
//! order-free (the schema's `insertionOrder: false`, tags, address ranges,
//! a create-only list) and reports any other as order-only potential drift.
//! Where the documentation says the order is part of the value ("These
//! policies are executed in the order that you list them"), or a top-level
//! list holds Lambda layer ARNs (later layers overlay earlier ones), the
//! declared order is checked here on the values as written and as read,
//! before any canonical ordering: a reorder is declared drift.

use super::emit::Out;
use super::scope::Scope;
use crate::declared::DeclaredValue;
use crate::finding::{Finding, Tier};
use crate::normalize::arrays::{canonical_text, is_layer_arn};
use crate::normalize::canonicalize_for_compare;
use crate::normalize::path::Path;
use crate::normalize::shapes::{identity_value, is_cidr, shape_identity_keys};
use crate::normalize::tags::is_tag_list;
use serde_json::{Map, Value};

const NOTE_REORDERED: &str =
    "the same members in another order, and the order of this list carries meaning";

/// Reports each order-significant declared list that live holds in another
/// order, replacing any finding the compare stage made at the same path.
pub(crate) fn run(scope: &Scope<'_>, raw_live: &Map<String, Value>, out: &mut Out<'_, '_>) {
    for (key, dv) in &scope.res.declared {
        // Cheap tests first: most properties hold no ordered list.
        let top_is_layers = scope
            .declared
            .get(key)
            .and_then(Value::as_array)
            .is_some_and(|a| a.iter().any(|e| e.as_str().is_some_and(is_layer_arn)));
        // Split only the paths under this property (most are not).
        let mut paths: Vec<Vec<&str>> = scope
            .facts
            .ordered
            .iter()
            .filter(|p| p.split('.').next() == Some(key.as_str()))
            .map(|p| p.split('.').collect::<Vec<_>>())
            .collect();
        if top_is_layers {
            paths.push(vec![key.as_str()]);
        }
        if paths.is_empty() || !dv.is_fully_resolved() {
            continue;
        }
        let declared = dv.to_corpus_json();
        for segs in paths {
            let (Some(Value::Array(d)), Some(Value::Array(l))) =
                (at(&declared, &segs[1..]), at_map(raw_live, &segs))
            else {
                continue;
            };
            if is_reordered(d, l) {
                let mut path = Path::root();
                segs.iter().for_each(|k| path.push_key(k));
                out.findings.retain(|f| f.path != path.render());
                let f = out.push(Tier::Declared, &path);
                f.desired = Some(Value::Array(d.clone()));
                f.actual = Some(Value::Array(l.clone()));
                f.note = Some(NOTE_REORDERED.to_string());
            }
        }
    }
}

const NOTE_KEYED_REORDER: &str = "the same named members in another order; nothing says the \
     order of this list is free, so it may matter";

/// Reports, as potential drift, each declared list of named elements that
/// live holds in another order: the compare folds it as a keyed set, but
/// its order may carry meaning (a pipeline's stages run in list order). The
/// order is free, and a reorder folds, where the schema marks the list
/// unordered (`insertionOrder: false`), for tag lists, elements named by
/// address ranges (a prefix list's entries), elements that state their own
/// place (`Priority`, `RunOrder`) and entries of a map written as a list
/// (`{Name, Value}`, `{AttributeName, AttributeType}`).
pub(crate) fn run_keyed(scope: &Scope<'_>, raw_live: &Map<String, Value>, out: &mut Out<'_, '_>) {
    for (key, dv) in &scope.res.declared {
        let Some(l) = raw_live.get(key) else { continue };
        // Only an object or a list on both sides can hold a list to walk
        // (the cheap test first: most declared values are scalars).
        let walked = matches!(
            (dv, l),
            (DeclaredValue::Object(_), Value::Object(_))
                | (DeclaredValue::Array(_), Value::Array(_))
        );
        if !walked || !dv.is_fully_resolved() {
            continue;
        }
        let mut path = Path::root();
        path.push_key(key);
        declared_walk(scope, &mut path, dv, l, out);
    }
}

/// [`keyed_walk`] over the declared value as the template holds it: only a
/// list live also holds as a list is converted to JSON (most declared
/// values are scalars, which hold no list).
fn declared_walk(
    scope: &Scope<'_>,
    path: &mut Path,
    d: &DeclaredValue,
    l: &Value,
    out: &mut Out<'_, '_>,
) {
    match (d, l) {
        (DeclaredValue::Object(dm), Value::Object(lm)) => {
            for (k, dv) in dm {
                if let Some(lv) = lm.get(k) {
                    path.push_key(k);
                    declared_walk(scope, path, dv, lv, out);
                    path.pop();
                }
            }
        }
        // A list of fewer than two elements has no order to check.
        (DeclaredValue::Array(a), Value::Array(_)) if a.len() >= 2 => {
            keyed_walk(scope, path, &d.to_corpus_json(), l, out)
        }
        _ => {}
    }
}

/// Walks objects (not list elements) for keyed lists held out of order.
fn keyed_walk(scope: &Scope<'_>, path: &mut Path, d: &Value, l: &Value, out: &mut Out<'_, '_>) {
    match (d, l) {
        (Value::Object(dm), Value::Object(lm)) => {
            for (k, dv) in dm {
                if let Some(lv) = lm.get(k) {
                    path.push_key(k);
                    keyed_walk(scope, path, dv, lv, out);
                    path.pop();
                }
            }
        }
        (Value::Array(da), Value::Array(la)) if is_keyed_reorder(scope, path, da, la) => {
            let at = path.render();
            let reported = |f: &Finding| {
                f.path == at
                    || f.path.starts_with(&format!("{at}."))
                    || f.path.starts_with(&format!("{at}["))
            };
            if !out
                .findings
                .iter()
                .any(|f| f.tier.is_drift() && reported(f))
            {
                let f = out.push(Tier::Undeclared, path);
                f.desired = Some(d.clone());
                f.actual = Some(l.clone());
                f.order_only = true;
                f.note = Some(NOTE_KEYED_REORDER.to_string());
            }
        }
        _ => {}
    }
}

/// True for a declared list of named elements that live holds, member for
/// member, in another order, where nothing says the order is free.
fn is_keyed_reorder(scope: &Scope<'_>, path: &Path, d: &[Value], l: &[Value]) -> bool {
    if d.len() < 2 || is_tag_list(d) || scope.is_unordered(path) {
        return false;
    }
    if scope.facts.ordered.iter().any(|p| *p == path.render()) {
        return false; // reported as declared drift by `run`
    }
    let Some(keys) = shape_identity_keys(d, l) else {
        return false;
    };
    let Some(ids) = l
        .iter()
        .map(|e| identity_value(e, &keys))
        .collect::<Option<Vec<_>>>()
    else {
        return false;
    };
    // Elements named by address ranges are a set, as a list of ranges is.
    !ids.iter().all(|i| is_cidr(i))
        && !d.iter().all(has_order_field)
        && !d.iter().all(is_map_entry)
        && is_reordered(d, l)
}

/// True for an element that states its own place (`Priority`, `RunOrder`):
/// the list's order then says nothing.
fn has_order_field(e: &Value) -> bool {
    e.as_object()
        .is_some_and(|o| o.keys().any(|k| ORDER_FIELDS.contains(&k.as_str())))
}

/// Member names by which an element states its own place in a sequence.
const ORDER_FIELDS: [&str; 6] = [
    "Priority", "RunOrder", "Order", "Sequence", "Position", "Rank",
];

/// True for an element that is one entry of a map written as a list: its
/// name and one scalar beside it (`{Name, Value}`, `{AttributeName,
/// AttributeType}`, `{ScopeName, ScopeDescription}`). A map has no order.
fn is_map_entry(e: &Value) -> bool {
    e.as_object()
        .is_some_and(|o| o.len() == 2 && o.values().all(|v| !v.is_object() && !v.is_array()))
}

/// The value below `v` at the keys `segs`.
fn at<'v>(v: &'v Value, segs: &[&str]) -> Option<&'v Value> {
    segs.iter().try_fold(v, |cur, k| cur.get(*k))
}

/// The value of a top-level map at the keys `segs`.
fn at_map<'v>(m: &'v Map<String, Value>, segs: &[&str]) -> Option<&'v Value> {
    let (first, rest) = segs.split_first()?;
    at(m.get(*first)?, rest)
}

/// True when both lists hold the same members, each once, in another
/// order. Members are matched by their text (scalars), their identity field,
/// or else by containment (the one declared element whose every member the
/// live element holds, as AWS adds its own defaults beside them); a list
/// whose members cannot be matched one to one is not judged.
fn is_reordered(declared: &[Value], live: &[Value]) -> bool {
    if declared.len() != live.len() || declared.len() < 2 {
        return false;
    }
    let Some(perm) = live_positions(declared, live) else {
        return false;
    };
    let mut seen = perm.clone();
    seen.sort_unstable();
    seen.dedup();
    seen.len() == perm.len() && perm.iter().enumerate().any(|(i, &j)| i != j)
}

/// For each live element, the position of the declared element it is.
fn live_positions(declared: &[Value], live: &[Value]) -> Option<Vec<usize>> {
    let scalars = |a: &[Value]| a.iter().all(|e| !e.is_object() && !e.is_array());
    if scalars(declared) && scalars(live) {
        let d: Vec<String> = declared.iter().map(canonical_text).collect();
        return live
            .iter()
            .map(|l| unique_position(&d, |x| *x == canonical_text(l)))
            .collect();
    }
    if let Some(keys) = shape_identity_keys(declared, live) {
        let d: Vec<Option<String>> = declared.iter().map(|e| identity_value(e, &keys)).collect();
        return live
            .iter()
            .map(|l| {
                let id = identity_value(l, &keys)?;
                unique_position(&d, |x| x.as_deref() == Some(id.as_str()))
            })
            .collect();
    }
    let d: Vec<Value> = declared.iter().map(canonicalize_for_compare).collect();
    live.iter()
        .map(|l| {
            let l = canonicalize_for_compare(l);
            unique_position(&d, |x| contains(&l, x))
        })
        .collect()
}

/// The one position in `items` that `hit` accepts.
fn unique_position<T>(items: &[T], hit: impl Fn(&T) -> bool) -> Option<usize> {
    let mut found = items
        .iter()
        .enumerate()
        .filter(|(_, x)| hit(x))
        .map(|(i, _)| i);
    let first = found.next()?;
    found.next().is_none().then_some(first)
}

/// True when live object `l` holds every member of declared object `d`
/// with the same canonical value.
fn contains(l: &Value, d: &Value) -> bool {
    match (l.as_object(), d.as_object()) {
        (Some(lo), Some(dobj)) => dobj.iter().all(|(k, v)| {
            lo.get(k)
                .is_some_and(|w| canonical_text(w) == canonical_text(v))
        }),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn arr(v: Value) -> Vec<Value> {
        v.as_array().cloned().unwrap_or_default()
    }

    #[test]
    fn a_permutation_is_a_reorder_and_a_change_of_members_is_not() {
        let d = arr(json!(["OldestInstance", "Default"]));
        assert!(is_reordered(&d, &arr(json!(["Default", "OldestInstance"]))));
        assert!(!is_reordered(&d, &d));
        assert!(!is_reordered(
            &d,
            &arr(json!(["Default", "NewestInstance"]))
        ));
        assert!(!is_reordered(&d, &arr(json!(["Default"]))));
    }

    #[test]
    fn unnamed_members_are_matched_by_what_they_declare() {
        let cb = |p: &str| json!({"PathPattern": p, "TargetOriginId": "o"});
        let with_defaults =
            |p: &str| json!({"PathPattern": p, "TargetOriginId": "o", "Compress": false});
        let d = vec![cb("/api/v2/*"), cb("/api/*")];
        assert!(is_reordered(
            &d,
            &[with_defaults("/api/*"), with_defaults("/api/v2/*")]
        ));
        assert!(!is_reordered(
            &d,
            &[with_defaults("/api/v2/*"), with_defaults("/api/*")]
        ));
        // A member matching two declared elements cannot be placed.
        let twice = vec![cb("/a"), json!({"TargetOriginId": "o"})];
        assert!(!is_reordered(&twice, &[with_defaults("/a"), cb("/a")]));
    }

    #[test]
    fn named_members_are_compared_by_name_whatever_else_they_hold() {
        let d = arr(json!([{"PathPattern": "/api/v2/*", "TargetOriginId": "o"},
            {"PathPattern": "/api/*", "TargetOriginId": "o"}]));
        let l = arr(
            json!([{"PathPattern": "/api/*", "TargetOriginId": "o", "Compress": false},
            {"PathPattern": "/api/v2/*", "TargetOriginId": "o", "Compress": false}]),
        );
        assert!(is_reordered(&d, &l));
    }
}
