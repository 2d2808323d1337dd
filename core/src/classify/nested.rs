//! Live sub-values inside a DECLARED value that the template did not set
//! (`nested: true` findings). One walk descends wherever a declared value
//! has structure: object members key by key; JSON text (on either side) as
//! the structure it encodes; keyed-set elements matched by identity and
//! identity-aligned elements, named `Prop[<id>].sub`; any other element
//! paired with a distinct live element it equals, named by its live index
//! `Prop.<index>.sub`. Every live-only value found is sorted by the same
//! rules as a top-level one (`classify_value`): defaults, generated ids and
//! values a service fills fold, the rest is `undeclared`.

use super::compare::Cmp;
use super::emit::Out;
use super::keyed::{keyed_for, Keyed};
use super::matching::pair;
use super::scope::{fully_known, is_unresolved_marker, Scope};
use super::undeclared::classify_value;
use crate::finding::Tier;
use crate::normalize::arrays::{identity_key_of, ALIGN_IDENTITY_KEYS};
use crate::normalize::canonicalize_in_place;
use crate::normalize::path::{Path, Seg};
use crate::normalize::policy::policy_metadata;
use crate::normalize::scalars::parse_document_text;
use crate::normalize::shapes::{identity_value, shape_identity_keys};
use serde_json::{Map, Value};
use std::borrow::Cow;

/// The identity field(s) that align elements of the arrays at `path`.
pub(crate) fn align_keys(
    scope: &Scope<'_>,
    path: &Path,
    d: &[Value],
    l: &[Value],
) -> Option<Vec<String>> {
    if let Some((_, keys)) = scope.facts.identity.iter().find(|(p, _)| p.matches(path)) {
        return Some(keys.clone());
    }
    let k = identity_key_of(d, &ALIGN_IDENTITY_KEYS)?;
    identity_key_of(l, &[k]).map(|k| vec![k.to_string()])
}

/// The identity value of an element under `keys` (joined with `|`).
pub(crate) fn identity_of(e: &Value, keys: &[String]) -> Option<String> {
    let mut parts = Vec::with_capacity(keys.len());
    for k in keys {
        match e.get(k)? {
            Value::String(s) => parts.push(s.clone()),
            Value::Number(n) => parts.push(n.to_string()),
            _ => return None,
        }
    }
    Some(parts.join("|"))
}

/// Emits nested findings for live-only sub-values of declared `d` at `path`
/// (a walk stack: pushed and popped).
pub(crate) fn collect(
    scope: &Scope<'_>,
    live_top: &Map<String, Value>,
    path: &mut Path,
    d: &Value,
    l: &Value,
    out: &mut Out<'_, '_>,
) {
    if is_unresolved_marker(d) {
        // Structure unknown below an unresolved leaf: nothing to attribute.
        return;
    }
    match (d, l) {
        (Value::Object(dm), Value::Object(lm)) => objects(scope, live_top, path, dm, lm, out),
        (Value::Array(da), Value::Array(la)) => arrays(scope, live_top, path, da, la, out),
        _ => json_text(scope, live_top, path, d, l, out),
    }
}

/// Live members of an object the declared object does not set.
fn objects(
    scope: &Scope<'_>,
    live_top: &Map<String, Value>,
    path: &mut Path,
    dm: &Map<String, Value>,
    lm: &Map<String, Value>,
    out: &mut Out<'_, '_>,
) {
    // A policy document (or a statement standing alone) compares whole
    // (see `compare`): a member added inside it is a declared difference,
    // so only its metadata is walked. One that did not resolve compares in
    // part only: it is walked whole.
    let policy = policy_metadata(dm).filter(|_| dm.values().all(fully_known));
    let free_form = scope.is_free_form(path);
    for (k, lv) in lm {
        if policy.is_some_and(|meta| !meta.contains(&k.as_str())) {
            continue;
        }
        if !dm.contains_key(k) && scope.is_alias_of_declared(path, k, dm) {
            continue;
        }
        path.push_key(k);
        match dm.get(k) {
            Some(dv) => collect(scope, live_top, path, dv, lv, out),
            None => {
                let before = out.findings.len();
                classify_value(scope, live_top, lm, path, lv, true, out);
                if free_form {
                    for f in &mut out.findings[before..] {
                        if f.tier == Tier::Undeclared {
                            f.free_form_key = true;
                        }
                    }
                }
            }
        }
        path.pop();
    }
}

/// A value written as JSON text on either side (a policy document, a
/// redrive policy, a state machine definition) is walked as the structure it
/// encodes, at the same paths as its structured form.
fn json_text(
    scope: &Scope<'_>,
    live_top: &Map<String, Value>,
    path: &mut Path,
    d: &Value,
    l: &Value,
    out: &mut Out<'_, '_>,
) {
    if !(d.is_string() || l.is_string()) {
        return;
    }
    if let (Some(d), Some(l)) = (structure(d), structure(l)) {
        // Both are collections now, so this recursion does not come back here.
        collect(scope, live_top, path, &d, &l, out);
    }
}

/// The structure a value holds: itself when a collection, the parsed and
/// canonical form of JSON (or block YAML) text, else none.
fn structure(v: &Value) -> Option<Cow<'_, Value>> {
    match v {
        Value::String(s) => {
            let mut parsed = parse_document_text(s)?;
            canonicalize_in_place(&mut parsed);
            Some(Cow::Owned(parsed))
        }
        Value::Object(_) | Value::Array(_) => Some(Cow::Borrowed(v)),
        _ => None,
    }
}

/// Arrays: keyed sets, identity-aligned, else positional.
fn arrays(
    scope: &Scope<'_>,
    live_top: &Map<String, Value>,
    path: &mut Path,
    da: &[Value],
    la: &[Value],
    out: &mut Out<'_, '_>,
) {
    if let Some(k) = keyed_for(scope, path, da, la) {
        return keyed(scope, live_top, path, k, da, la, out);
    }
    live_only_elements(scope, live_top, path, da, la, out);
    if let Some(keys) = align_keys(scope, path, da, la) {
        let id_of = |e: &Value| identity_of(e, &keys);
        return matched(scope, live_top, path, da, la, &id_of, out);
    }
    positional(scope, live_top, path, da, la, out);
}

/// A keyed-set array: each matched element is walked (a bag entry through
/// its value field); each live-only one is its own finding.
fn keyed(
    scope: &Scope<'_>,
    live_top: &Map<String, Value>,
    path: &mut Path,
    k: Keyed<'_>,
    da: &[Value],
    la: &[Value],
    out: &mut Out<'_, '_>,
) {
    let none = Map::new();
    for (i, le) in la.iter().enumerate() {
        let Some(id) = k.id(le) else {
            // No identity: it matches no declared element, so it is live-only.
            path.push(Seg::Index(i));
            classify_value(scope, live_top, &none, path, le, true, out);
            path.pop();
            continue;
        };
        let declared = da.iter().find(|de| k.aligns(de, &id));
        let default_item = k.is_default_item(&id);
        path.push(Seg::Id(id));
        match declared {
            Some(de) => collect(scope, live_top, path, k.value(de), k.value(le), out),
            None if default_item || k.is_husk(le) => {
                out.push_actual(Tier::AtDefault, path, le, true);
            }
            None => classify_value(scope, live_top, &none, path, k.value(le), true, out),
        }
        path.pop();
    }
}

/// Elements aligned by an identity: each declared element is walked against
/// the live element with its identity, at `Prop[<id>]`. An identity AWS
/// spells otherwise (a record name lower-cased, with the root dot) finds no
/// element by text: such elements are paired with a distinct live element
/// they equal, named by its identity. Elements that carry no identity (on
/// either side) are paired among themselves as positional elements are.
/// Either way what they hold is still walked.
fn matched(
    scope: &Scope<'_>,
    live_top: &Map<String, Value>,
    path: &mut Path,
    da: &[Value],
    la: &[Value],
    id_of: &dyn Fn(&Value) -> Option<String>,
    out: &mut Out<'_, '_>,
) {
    let declared_ids: Vec<Option<String>> = da.iter().map(id_of).collect();
    let live_ids: Vec<Option<String>> = la.iter().map(id_of).collect();
    let by_text = |id: &Option<String>, ids: &[Option<String>]| {
        id.as_ref()
            .is_some_and(|id| ids.iter().flatten().any(|x| x == id))
    };
    for (le, id) in la.iter().zip(&live_ids) {
        let Some(id) = id else { continue };
        if let Some(i) = declared_ids.iter().position(|d| d.as_ref() == Some(id)) {
            path.push(Seg::Id(id.clone()));
            collect(scope, live_top, path, &da[i], le, out);
            path.pop();
        }
    }
    // Elements with an identity that no element on the other side spells
    // the same way; then elements with none.
    let unmatched = |named: bool| {
        let d: Vec<Value> = (0..da.len())
            .filter(|&i| {
                declared_ids[i].is_some() == named && !by_text(&declared_ids[i], &live_ids)
            })
            .map(|i| da[i].clone())
            .collect();
        let at: Vec<usize> = (0..la.len())
            .filter(|&j| live_ids[j].is_some() == named && !by_text(&live_ids[j], &declared_ids))
            .collect();
        (d, at)
    };
    for named in [true, false] {
        let (d, at) = unmatched(named);
        if d.is_empty() || at.is_empty() {
            continue;
        }
        let l: Vec<Value> = at.iter().map(|&j| la[j].clone()).collect();
        let name = |j: usize| match &live_ids[at[j]] {
            Some(id) if named => Seg::Id(id.clone()),
            _ => Seg::Index(at[j]),
        };
        paired_walk(scope, live_top, path, &d, &l, &name, out);
    }
}

/// Live-only elements of a declared array keyed by shape (a name or key
/// field) whose every declared element is present: out-of-band inventory,
/// each reported by itself as `Prop[<id>]`.
fn live_only_elements(
    scope: &Scope<'_>,
    live_top: &Map<String, Value>,
    path: &mut Path,
    da: &[Value],
    la: &[Value],
    out: &mut Out<'_, '_>,
) {
    let Some(keys) = shape_identity_keys(da, la).filter(|_| la.len() > da.len()) else {
        return;
    };
    // Each declared element's live one, by identity as AWS spells it.
    let cmp = Cmp::new(scope);
    let mut found = Vec::with_capacity(da.len());
    for de in da {
        match cmp.position_by_identity(path, &keys, de, la) {
            Some(j) => found.push(j),
            None => return,
        }
    }
    let none = Map::new();
    for (j, le) in la.iter().enumerate() {
        if found.contains(&j) {
            continue;
        }
        let Some(id) = identity_value(le, &keys) else {
            continue;
        };
        path.push(Seg::Id(id));
        classify_value(scope, live_top, &none, path, le, true, out);
        path.pop();
    }
}

/// Elements with no identity: each declared element is paired with a
/// distinct live element it equals (declared subset; its own position
/// first, so an unchanged array pairs in place) and walked, named by its
/// live position. An unpaired element is a declared mismatch already
/// reported with the whole live array.
fn positional(
    scope: &Scope<'_>,
    live_top: &Map<String, Value>,
    path: &mut Path,
    da: &[Value],
    la: &[Value],
    out: &mut Out<'_, '_>,
) {
    paired_walk(scope, live_top, path, da, la, &Seg::Index, out);
}

/// Each declared element paired with a distinct live element it equals and
/// walked, the live element named by `name` (its position, or its
/// identity).
fn paired_walk(
    scope: &Scope<'_>,
    live_top: &Map<String, Value>,
    path: &mut Path,
    da: &[Value],
    la: &[Value],
    name: &dyn Fn(usize) -> Seg,
    out: &mut Out<'_, '_>,
) {
    let cmp = Cmp::new(scope);
    let mut fits = |i: usize, j: usize| {
        path.push(name(j));
        let ok = cmp.eq(path, &da[i], &la[j]);
        path.pop();
        ok
    };
    let picks = pair(da, la, &mut fits);
    for (de, pick) in da.iter().zip(picks) {
        if let Some(j) = pick {
            path.push(name(j));
            collect(scope, live_top, path, de, &la[j], out);
            path.pop();
        }
    }
}
