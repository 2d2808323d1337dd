//! Is an undeclared live value a known default? Sources, in order: the
//! schema's own `default` annotations (top-level and nested), then the
//! per-type known defaults in `core/data/known-defaults.json`. Every source
//! is equality-gated except the explicitly value-independent data entries.

use super::scope::Scope;
use crate::normalize::canonicalize_in_place;
use crate::normalize::empty::is_trivially_empty;
use crate::normalize::path::Path;
use crate::normalize::scalars::{is_stringly_equal, parse_json_text};
use serde_json::{Map, Value};

/// Expands `${AccountId}`, `${Region}`, `${PhysicalId}` in every string.
pub(crate) fn expand(v: &Value, scope: &Scope<'_>) -> Value {
    match v {
        Value::String(s) if s.contains("${") => {
            let mut t = s.clone();
            if let Some(a) = scope.ctx.account_id.as_deref() {
                t = t.replace("${AccountId}", a);
            }
            if let Some(r) = scope.ctx.region.as_deref() {
                t = t.replace("${Region}", r);
            }
            t = t.replace("${PhysicalId}", scope.physical_id);
            Value::String(t)
        }
        Value::Array(a) => Value::Array(a.iter().map(|x| expand(x, scope)).collect()),
        Value::Object(o) => Value::Object(
            o.iter()
                .map(|(k, x)| (k.clone(), expand(x, scope)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// Drops trivially-empty members of objects (recursively): an unset
/// sub-option and an absent one are the same default.
fn prune(v: &Value) -> Value {
    match v {
        Value::Object(o) => {
            let m: Map<String, Value> = o
                .iter()
                .filter(|(_, x)| !is_trivially_empty(x))
                .map(|(k, x)| (k.clone(), prune(x)))
                .collect();
            Value::Object(m)
        }
        Value::Array(a) => Value::Array(a.iter().map(prune).collect()),
        other => other.clone(),
    }
}

/// Equality for default matching: exact structure (live extras count),
/// modulo trivially-empty members, stringly-typed scalars, JSON text, and
/// element order.
fn same(a: &Value, b: &Value) -> bool {
    if a == b {
        return true;
    }
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        (Value::Array(x), Value::Array(y)) => {
            if x.len() != y.len() {
                return false;
            }
            if x.iter().zip(y).all(|(p, q)| same(p, q)) {
                return true;
            }
            let mut used = vec![false; y.len()];
            x.iter().all(
                |p| match (0..y.len()).find(|&j| !used[j] && same(p, &y[j])) {
                    Some(j) => {
                        used[j] = true;
                        true
                    }
                    None => false,
                },
            )
        }
        (Value::String(s), o @ (Value::Object(_) | Value::Array(_)))
        | (o @ (Value::Object(_) | Value::Array(_)), Value::String(s)) => parse_json_text(s)
            .is_some_and(|mut p| {
                canonicalize_in_place(&mut p);
                same(&prune(&p), o)
            }),
        (Value::String(live), Value::String(d)) if d.starts_with("re:") => {
            regex_matches(&d[3..], live)
        }
        (Value::String(x), Value::String(y)) => match (parse_json_text(x), parse_json_text(y)) {
            (Some(mut p), Some(mut q)) => {
                canonicalize_in_place(&mut p);
                canonicalize_in_place(&mut q);
                same(&prune(&p), &prune(&q))
            }
            _ => false,
        },
        _ => is_stringly_equal(a, b),
    }
}

/// `re:<regex>` default values match by shape (e.g. AWS-reserved
/// `default.` parameter-group names); compiled once per pattern.
fn regex_matches(pattern: &str, s: &str) -> bool {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    static CACHE: OnceLock<Mutex<HashMap<String, Option<regex::Regex>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    let Ok(mut map) = cache.lock() else {
        return false;
    };
    map.entry(pattern.to_string())
        .or_insert_with(|| regex::Regex::new(pattern).ok())
        .as_ref()
        .is_some_and(|r| r.is_match(s))
}

/// True when live value `v` equals default `d` (canonicalized, pruned).
pub(crate) fn matches_default(v: &Value, d: &Value) -> bool {
    let mut x = v.clone();
    let mut y = d.clone();
    canonicalize_in_place(&mut x);
    canonicalize_in_place(&mut y);
    same(&prune(&x), &prune(&y))
}

fn when_holds(
    scope: &Scope<'_>,
    live: &Map<String, Value>,
    when: &std::collections::HashMap<String, Value>,
) -> bool {
    when.iter().all(|(prop, want)| {
        let got = scope.declared.get(prop).or_else(|| live.get(prop));
        got.is_some_and(|g| matches_default(g, want))
    })
}

/// True when the undeclared live value at `path` is a known default.
pub(crate) fn is_known_default(
    scope: &Scope<'_>,
    live: &Map<String, Value>,
    path: &Path,
    v: &Value,
) -> bool {
    if path.len() == 1 {
        if let Some(d) = path.top().and_then(|k| scope.schema.defaults.get(k)) {
            if matches_default(v, d) {
                return true;
            }
        }
    }
    if scope
        .default_paths
        .iter()
        .any(|(p, d)| p.matches(path) && matches_default(v, d))
    {
        return true;
    }
    scope.facts.defaults.iter().any(|kd| {
        kd.pattern.matches(path)
            && kd
                .entry
                .when
                .as_ref()
                .is_none_or(|w| when_holds(scope, live, w))
            && ((kd.entry.any && !is_trivially_empty(v))
                || kd
                    .entry
                    .values
                    .iter()
                    .any(|d| matches_default(v, &expand(d, scope))))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn json_text_defaults_match_modulo_formatting() {
        let live = json!("{\n  \"A\" : {\n    \"K\" : \"x\",\n    \"V\" : [ \"5.0\" ]\n  }\n}");
        let d = json!("{\"A\":{\"K\":\"x\",\"V\":[\"5.0\"]}}");
        assert!(matches_default(&live, &d));
        assert!(!matches_default(
            &live,
            &json!("{\"A\":{\"K\":\"y\",\"V\":[\"5.0\"]}}")
        ));
    }

    #[test]
    fn object_defaults_ignore_unset_members_but_not_set_ones() {
        let d = json!({"IncludeExecutionData": false, "Level": "OFF"});
        assert!(matches_default(&json!({"Level": "OFF"}), &d));
        assert!(!matches_default(&json!({"Level": "ALL"}), &d));
        assert!(!matches_default(
            &json!({"Level": "OFF", "Destinations": ["x"]}),
            &d
        ));
    }

    #[test]
    fn regex_defaults_match_by_shape() {
        assert!(matches_default(
            &json!("default.mysql8.0"),
            &json!("re:^default\\.")
        ));
        assert!(!matches_default(
            &json!("custom-pg"),
            &json!("re:^default\\.")
        ));
    }
}
