//! The declared loop: every top-level property the template sets is either
//! unresolved, write-only (a readGap), absent from live (drift for a
//! non-empty settable collection, a readGap otherwise), or compared.

use super::compare::{Cmp, Mismatch};
use super::emit::Out;
use super::nested;
use super::scope::{fully_known, Scope};
use super::undeclared;
use crate::finding::Tier;
use crate::normalize::arn::{is_unknown_alias_target, is_unlisted_managed_alias};
use crate::normalize::arrays::holds_ordered_list;
use crate::normalize::empty::{is_empty_collection, is_trivially_empty, may_be_left_out};
use crate::normalize::path::{Path, Seg};
use crate::normalize::scalars::{is_masked_non_ascii, typed_like};
use serde_json::{Map, Value};

const NOTE_WRITE_ONLY: &str = "write-only — cannot be read back";
const NOTE_NOT_RETURNED: &str = "declared but not returned by live read";
const NOTE_REMOVED: &str =
    "not returned by the live read, which returns it whenever it is set: the value was removed";
const NOTE_ORDER_ONLY: &str = "the declared members in another order: AWS may return this list in its own order (potential drift; record it, or revert to the declared order)";
const NOTE_MASKED: &str =
    "declared value unverifiable — CloudFormation GetTemplate masks non-ASCII characters as \"?\"";
const NOTE_MANAGED_ALIAS_UNLISTED: &str = "declared AWS-managed KMS alias lists no key in the account (kms:ListAliases) — the key in use is not shown to be its key; a key swapped in would look the same";
const NOTE_ALIAS_UNKNOWN: &str = "declared KMS alias unverifiable — the account's aliases could not be read (kms:ListAliases), so the key behind it is unknown";

/// The live property a declared one is stored under when AWS renames it
/// (and the declared name itself is absent from live).
fn alt_live_name<'f>(
    scope: &'f Scope<'_>,
    key: &str,
    live: &Map<String, Value>,
) -> Option<&'f str> {
    if live.contains_key(key) {
        return None;
    }
    scope
        .facts
        .alt
        .iter()
        .find(|a| {
            a.declared == key && live.contains_key(&a.live) && !scope.declared.contains_key(&a.live)
        })
        .map(|a| a.live.as_str())
}

/// Runs the declared loop; returns the live names it consumed under another
/// name (so the undeclared loop skips them).
pub(crate) fn run(
    scope: &Scope<'_>,
    live: &Map<String, Value>,
    out: &mut Out<'_, '_>,
) -> Vec<String> {
    let mut consumed = Vec::new();
    let cmp = Cmp::new(scope);
    for (key, dv) in &scope.res.declared {
        let mut path = Path::key(key);
        let lv = live.get(key);
        // The canonical JSON view (built once in the scope).
        let Some(d) = scope.declared.get(key) else {
            continue;
        };
        if scope.is_write_only_top(key) {
            let f = out.push(Tier::ReadGap, &path);
            f.write_only = true;
            f.note = Some(NOTE_WRITE_ONLY.to_string());
            // AWS may store the write-only input under another, readable name.
            if let Some(alt) = alt_live_name(scope, key, live) {
                consumed.push(alt.to_string());
                if let (Some(l), true) = (live.get(alt), dv.is_fully_resolved()) {
                    compare(scope, &cmp, live, &mut Path::key(alt), d, l, out);
                }
            }
            continue;
        }
        if !dv.is_fully_resolved() {
            out.push(Tier::Unresolved, &path);
            if let Some(l) = lv {
                // What the template does resolve is known: a change there
                // surfaces beside the part that could not be resolved.
                if let Some(known) = known_part(d) {
                    mismatches(scope, &cmp, live, &mut path, &known, l, out);
                }
                nested::collect(scope, live, &mut path, d, l, out);
            }
            continue;
        }
        match lv {
            None => absent(scope, &path, d, out),
            Some(l) => compare(scope, &cmp, live, &mut path, d, l, out),
        }
    }
    consumed
}

/// A declared property the live read does not return.
fn absent(scope: &Scope<'_>, path: &Path, d: &Value, out: &mut Out<'_, '_>) {
    let collection = d.is_object() || d.is_array();
    // A declared collection that is all off (`{Enabled: false}`, `[]`) is
    // what AWS omits from a read: not returned, not removed.
    if collection
        && !may_be_left_out(d)
        && !Scope::any(&scope.facts.readgap_collections, path)
        // A create-only property is set once at create and never removed in
        // place, so a read that omits it shows a handler that does not
        // return it (Budgets' NotificationsWithSubscribers), not a removal.
        && !scope.is_create_only_top(path)
    {
        // Every declared leaf write-only (Lambda's `Code.ZipFile`): nothing
        // in it can be read back, so its absence says nothing.
        if only_write_only_leaves(scope, path, d) {
            let f = out.push(Tier::ReadGap, path);
            f.write_only = true;
            f.note = Some(NOTE_WRITE_ONLY.to_string());
            return;
        }
        let f = out.push(Tier::Declared, path);
        f.desired = Some(d.clone());
        return;
    }
    // A set scalar the read returns whenever it is set (seen so on real
    // deploys): gone from the read, it was removed (a log group's retention,
    // a queue's KMS key). Off values stay a read gap: handlers omit those.
    if !collection
        && !is_trivially_empty(d)
        && Scope::any(&scope.facts.returned_when_set, path)
        && !scope.is_create_only_top(path)
    {
        let f = out.push(Tier::Declared, path);
        f.desired = Some(d.clone());
        f.note = Some(NOTE_REMOVED.to_string());
        return;
    }
    let f = out.push(Tier::ReadGap, path);
    f.note = Some(NOTE_NOT_RETURNED.to_string());
}

/// True when `d` holds at least one leaf and every leaf under `path` is a
/// write-only path.
fn only_write_only_leaves(scope: &Scope<'_>, path: &Path, d: &Value) -> bool {
    let children: Vec<(Path, &Value)> = match d {
        Value::Object(o) => o.iter().map(|(k, v)| (path.with_key(k), v)).collect(),
        Value::Array(a) => a
            .iter()
            .enumerate()
            .map(|(i, v)| (path.child(Seg::Index(i)), v))
            .collect(),
        _ => return scope.is_write_only(path),
    };
    !children.is_empty()
        && children
            .iter()
            .all(|(p, v)| scope.is_write_only(p) || only_write_only_leaves(scope, p, v))
}

/// The part of a declared value that resolved: objects keep their resolved
/// members; a list holding anything unresolved is dropped whole (an
/// unresolved element may stand for none or for several). `None` when
/// nothing is left.
fn known_part(d: &Value) -> Option<Value> {
    match d {
        Value::Object(o) => {
            let known: Map<String, Value> = o
                .iter()
                .filter_map(|(k, v)| known_part(v).map(|v| (k.clone(), v)))
                .collect();
            (!known.is_empty()).then_some(Value::Object(known))
        }
        Value::Array(a) => a.iter().all(fully_known).then(|| d.clone()),
        other => fully_known(other).then(|| other.clone()),
    }
}

/// Compares a declared property with live: its mismatches, then what live
/// holds beyond it.
fn compare(
    scope: &Scope<'_>,
    cmp: &Cmp<'_, '_>,
    live: &Map<String, Value>,
    path: &mut Path,
    d: &Value,
    l: &Value,
    out: &mut Out<'_, '_>,
) {
    if filled_empty(scope, live, live, path, d, l, out) {
        return;
    }
    mismatches(scope, cmp, live, path, d, l, out);
    nested::collect(scope, live, path, d, l, out);
}

/// Emits the declared mismatches between `d` and `l` at their narrowest
/// paths, after every fold that explains one.
fn mismatches(
    scope: &Scope<'_>,
    cmp: &Cmp<'_, '_>,
    live: &Map<String, Value>,
    path: &mut Path,
    d: &Value,
    l: &Value,
    out: &mut Out<'_, '_>,
) {
    // Both sides are canonical already (prepared once per resource).
    let mut mismatches: Vec<Mismatch> = Vec::new();
    cmp.diff(path, d, l, None, &mut mismatches);
    let none = Map::new();
    for m in mismatches {
        if transformed_equal(scope, &m) {
            continue;
        }
        if let Some(a) = &m.actual {
            if filled_empty(scope, live, &none, &m.path, &m.desired, a, out) {
                continue;
            }
        }
        if let (Some(d), Some(Value::String(l))) = (m.desired.as_str(), m.actual.as_ref()) {
            if is_masked_non_ascii(d, l) {
                let f = out.push(Tier::ReadGap, &m.path);
                f.note = Some(NOTE_MASKED.to_string());
                continue;
            }
            // Fail closed both ways: neither equal nor drift.
            if is_unknown_alias_target(d, l, scope.ctx.kms_alias_targets.as_ref()) {
                let f = out.push(Tier::Unresolved, &m.path);
                f.note = Some(NOTE_ALIAS_UNKNOWN.to_string());
                continue;
            }
            if is_unlisted_managed_alias(d, l, scope.ctx.kms_alias_targets.as_ref()) {
                let f = out.push(Tier::Unresolved, &m.path);
                f.note = Some(NOTE_MANAGED_ALIAS_UNLISTED.to_string());
                continue;
            }
        }
        // Only the order of a list differs: potential drift, reverted like
        // declared drift (the same template value and array hint).
        let order_only = is_order_only(cmp, &m);
        let tier = if order_only {
            Tier::Undeclared
        } else {
            Tier::Declared
        };
        let f = out.push(tier, &m.path);
        if order_only {
            f.order_only = true;
            f.note = Some(NOTE_ORDER_ONLY.to_string());
        }
        // Reported as the typed value CloudFormation passed for it.
        let typed = m.actual.as_ref().and_then(|a| typed_like(&m.desired, a));
        f.desired = Some(typed.unwrap_or(m.desired));
        f.actual = m.actual;
        f.attribute_key = m.attribute_key;
        if let Some((p, v)) = m.whole_array {
            f.whole_array_revert = Some(crate::finding::WholeArrayRevert {
                path: p.render(),
                value: v,
            });
        }
    }
}

/// True when a declared empty collection (`[]`, `{}`) holds what AWS filled
/// in: CloudFormation passes an empty value as unset, and the service fills
/// its default. The live value is judged as if undeclared; when that folds
/// it (a known default, AWS's choice at create) its findings are emitted and
/// the declared compare is done. Any other value is left to the compare, as
/// declared drift.
fn filled_empty(
    scope: &Scope<'_>,
    live: &Map<String, Value>,
    parent: &Map<String, Value>,
    path: &Path,
    d: &Value,
    l: &Value,
    out: &mut Out<'_, '_>,
) -> bool {
    if !is_empty_collection(d) || is_trivially_empty(l) || d.is_array() != l.is_array() {
        return false;
    }
    let before = out.findings.len();
    undeclared::classify_value(scope, live, parent, path, l, path.len() > 1, out);
    let folded = out.findings[before..]
        .iter()
        .all(|f| matches!(f.tier, Tier::AtDefault | Tier::Generated));
    if !folded {
        out.findings.truncate(before);
    }
    folded
}

/// True when a mismatch is only the order of a list whose order nothing
/// says AWS keeps (a known set never reaches here): the same members, so
/// not certain drift — but a reorder can matter, so it is not folded. A
/// list whose order is known to matter (Lambda layers) stays declared.
fn is_order_only(cmp: &Cmp<'_, '_>, m: &Mismatch) -> bool {
    let Some(actual) = m.actual.as_ref() else {
        return false;
    };
    (m.desired.is_array() || m.desired.is_object())
        && !holds_ordered_list(&m.desired)
        && cmp
            .within_policy(m.in_policy)
            .eq_ignoring_order(&mut m.path.clone(), &m.desired, actual)
}

/// The schema `propertyTransform` fold of a mismatch the diff reported at
/// its own path (a top-level value, an element of an ordered list).
fn transformed_equal(scope: &Scope<'_>, m: &Mismatch) -> bool {
    let Some(actual) = m.actual.as_ref() else {
        return false;
    };
    if !scope.has_transform(&m.path) {
        return false;
    }
    let parent = if m.path.len() > 1 {
        parent_value(&Value::Object(scope.declared.clone()), &m.path)
    } else {
        None
    };
    let parent = parent.as_ref().and_then(Value::as_object);
    scope
        .transform_cache
        .explains(scope, &m.path, parent, actual)
}

fn parent_value(root: &Value, path: &Path) -> Option<Value> {
    use crate::normalize::path::Seg;
    let segs = path.segs();
    let mut cur = root;
    for s in &segs[..segs.len().saturating_sub(1)] {
        cur = match s {
            Seg::Key(k) => cur.get(k)?,
            Seg::Index(i) => cur.get(i)?,
            Seg::Id(_) => return None,
        };
    }
    Some(cur.clone())
}
