//! When a live value equals a stated default: members left unset are the
//! same default, and values compare in canonical form.

use super::*;

/// Non-empty members of an object (an unset sub-option and an absent one
/// are the same default).
pub(super) fn members(o: &Map<String, Value>) -> impl Iterator<Item = (&String, &Value)> {
    o.iter().filter(|(_, x)| !is_trivially_empty(x))
}

/// Equality for default matching: exact structure (live extras count),
/// modulo trivially-empty members, stringly-typed scalars, JSON text, and
/// element order. Both sides are expected in canonical form.
pub(super) fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            members(x).count() == members(y).count()
                && members(x).all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        (Value::Array(x), Value::Array(y)) => {
            if x.len() != y.len() {
                return false;
            }
            if x.iter().zip(y).all(|(p, q)| same(p, q)) {
                return true;
            }
            crate::normalize::arrays::pairs_as_multiset(x, y, same)
        }
        (Value::String(s), o @ (Value::Object(_) | Value::Array(_)))
        | (o @ (Value::Object(_) | Value::Array(_)), Value::String(s)) => parse_json_text(s)
            .is_some_and(|mut p| {
                canonicalize_in_place(&mut p);
                same(&p, o)
            }),
        (Value::String(x), Value::String(y)) if x == y => true,
        // A number is its value: a weight of `1` is the documented `1.0`
        // (as the declared comparison holds it).
        (Value::Number(x), Value::Number(y)) => x.as_f64().is_some() && x.as_f64() == y.as_f64(),
        (Value::String(live), Value::String(d)) if d.starts_with("re:") => {
            regex_matches(&d[3..], live)
        }
        // A count condition (`NumNodeGroups` above one) is a pattern too.
        (Value::Number(n), Value::String(d)) if d.starts_with("re:") => {
            regex_matches(&d[3..], &n.to_string())
        }
        (Value::String(x), Value::String(y)) if is_same_instant(x, y) || is_same_address(x, y) => {
            true
        }
        (Value::String(x), Value::String(y)) => match (parse_json_text(x), parse_json_text(y)) {
            (Some(mut p), Some(mut q)) => {
                canonicalize_in_place(&mut p);
                canonicalize_in_place(&mut q);
                same(&p, &q)
            }
            _ => false,
        },
        _ => a == b || is_stringly_equal(a, b),
    }
}

/// `re:<regex>` default values match by shape (e.g. AWS-reserved
/// `default.` parameter-group names); compiled once per pattern.
pub(super) fn regex_matches(pattern: &str, s: &str) -> bool {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    static CACHE: OnceLock<Mutex<HashMap<String, Option<regex::Regex>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    let Ok(mut map) = cache.lock() else {
        return false;
    };
    // Looked up before inserting: the key is copied only on a first use.
    if let Some(r) = map.get(pattern) {
        return r.as_ref().is_some_and(|r| r.is_match(s));
    }
    map.entry(pattern.to_string())
        .or_insert_with(|| regex::Regex::new(pattern).ok())
        .as_ref()
        .is_some_and(|r| r.is_match(s))
}

/// True when live value `v` and data default `d` (both canonical) match.
pub(crate) fn matches_canonical(v: &Value, d: &Value) -> bool {
    same(v, d)
}

/// True when live value `v` (canonical, as prepared) equals default `d`.
pub(crate) fn matches_default(v: &Value, d: &Value) -> bool {
    if d.is_object() || d.is_array() {
        let mut y = d.clone();
        canonicalize_in_place(&mut y);
        same(v, &y)
    } else {
        same(v, d)
    }
}
