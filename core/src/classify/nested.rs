//! Live sub-keys inside a DECLARED value that the template did not set
//! (`nested: true` findings). Objects are walked key by key; object arrays
//! are walked only where elements can be aligned by an identity field (so a
//! sub-key is attributed to the right element, path `Prop[<id>].sub`).

use super::compare::Cmp;
use super::emit::Out;
use super::keyed::{keyed_below, keyed_for};
use super::scope::{is_unresolved_marker, Scope};
use super::undeclared::classify_value;
use crate::finding::Tier;
use crate::normalize::arrays::{identity_key_of, ALIGN_IDENTITY_KEYS};
use crate::normalize::path::{Path, Seg};
use crate::normalize::shapes::{identity_value, shape_identity_keys};
use serde_json::{Map, Value};

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
    let id_of = |e: &Value| identity_value(e, &keys);
    let declared: Vec<String> = da.iter().filter_map(id_of).collect();
    if !declared
        .iter()
        .all(|id| la.iter().any(|le| id_of(le).as_ref() == Some(id)))
    {
        return;
    }
    let none = Map::new();
    for le in la {
        let Some(id) = id_of(le).filter(|id| !declared.contains(id)) else {
            continue;
        };
        path.push(Seg::Id(id));
        classify_value(scope, live_top, &none, path, le, true, out);
        path.pop();
    }
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

/// Pairs declared elements with live ones by equality (declared subset) and
/// descends into each pair, naming elements by their live position.
fn positional(
    scope: &Scope<'_>,
    live_top: &Map<String, Value>,
    path: &mut Path,
    da: &[Value],
    la: &[Value],
    out: &mut Out<'_, '_>,
) {
    let cmp = Cmp { scope };
    let mut used = vec![false; la.len()];
    for de in da {
        let pick = (0..la.len()).find(|&j| {
            path.push(Seg::Index(j));
            let ok = !used[j] && cmp.eq(path, de, &la[j]);
            path.pop();
            ok
        });
        if let Some(j) = pick {
            used[j] = true;
            path.push(Seg::Index(j));
            collect(scope, live_top, path, de, &la[j], out);
            path.pop();
        }
    }
}

/// Emits nested findings for live-only sub-keys of declared `d` at `path`
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
        (Value::Object(dm), Value::Object(lm)) => {
            let free_form = scope.is_free_form(path);
            for (k, lv) in lm {
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
        (Value::Array(da), Value::Array(la)) => {
            if let Some(k) = keyed_for(scope, path, da, la) {
                // Matched elements are walked only where they carry a standard
                // identity field; elsewhere AWS default-fills element bodies.
                let walk_matched =
                    !k.is_bag() && identity_key_of(da, &ALIGN_IDENTITY_KEYS).is_some();
                let none = Map::new();
                for le in la {
                    let Some(id) = k.id(le) else { continue };
                    let declared = k.is_declared(da, &id);
                    path.push(Seg::Id(id));
                    if declared {
                        if walk_matched {
                            let de = da.iter().find(|de| {
                                k.id(de)
                                    .is_some_and(|d| k.find(std::slice::from_ref(le), &d).is_some())
                            });
                            if let Some(de) = de {
                                collect(scope, live_top, path, de, le, out);
                            }
                        }
                    } else if k.is_husk(le) {
                        out.push_actual(Tier::AtDefault, path, le, true);
                    } else {
                        classify_value(scope, live_top, &none, path, k.value(le), true, out);
                    }
                    path.pop();
                }
                return;
            }
            let Some(keys) = align_keys(scope, path, da, la) else {
                live_only_elements(scope, live_top, path, da, la, out);
                if keyed_below(scope, path) {
                    positional(scope, live_top, path, da, la, out);
                }
                return;
            };
            live_only_elements(scope, live_top, path, da, la, out);
            for le in la {
                let Some(id) = identity_of(le, &keys) else {
                    continue;
                };
                if let Some(de) = da
                    .iter()
                    .find(|de| identity_of(de, &keys).as_deref() == Some(id.as_str()))
                {
                    path.push(Seg::Id(id));
                    collect(scope, live_top, path, de, le, out);
                    path.pop();
                }
            }
        }
        _ => {}
    }
}
