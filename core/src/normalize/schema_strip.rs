//! Removes schema read-only / write-only paths from a live model. Read-only
//! attributes (ARNs, ids, endpoints) are outputs, never configuration;
//! write-only ones cannot be compared because AWS never returns them.

use super::path::{Path, Pattern, Seg};
use serde_json::{Map, Value};

/// Removes every node of `live` whose path matches one of `patterns`
/// (`*` = any array element). Top-level keys for which `keep_top` returns
/// true are never removed (a declared property is compared, not stripped).
pub fn strip_paths(
    live: &mut Map<String, Value>,
    patterns: &[Pattern],
    keep_top: impl Fn(&str) -> bool,
) {
    if patterns.is_empty() {
        return;
    }
    let root = Path::root();
    strip_object(live, &root, patterns, Some(&keep_top));
}

fn strip_object(
    o: &mut Map<String, Value>,
    at: &Path,
    patterns: &[Pattern],
    keep_top: Option<&dyn Fn(&str) -> bool>,
) {
    let keys: Vec<String> = o.keys().cloned().collect();
    for k in keys {
        let child = at.with_key(&k);
        let exact = patterns.iter().any(|p| p.matches(&child));
        let kept = keep_top.is_some_and(|f| f(&k));
        if exact && !kept {
            o.remove(&k);
            continue;
        }
        let deeper = patterns.iter().any(|p| p.extends(&child));
        if deeper {
            if let Some(v) = o.get_mut(&k) {
                strip_value(v, &child, patterns);
            }
        }
    }
}

fn strip_value(v: &mut Value, at: &Path, patterns: &[Pattern]) {
    match v {
        Value::Object(o) => strip_object(o, at, patterns, None),
        Value::Array(a) => {
            for (i, e) in a.iter_mut().enumerate() {
                strip_value(e, &at.child(Seg::Index(i)), patterns);
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
    fn strips_nested_and_star_paths_but_keeps_declared_top_level() {
        let mut live = json!({
            "Arn": "arn:x", "Name": "n",
            "Rules": [{"Id": "a", "Gen": 1}, {"Id": "b", "Gen": 2}],
            "Cfg": {"Secret": "s", "Keep": 1}
        })
        .as_object()
        .cloned()
        .unwrap_or_default();
        let pats: Vec<Pattern> = ["Arn", "Name", "Rules.*.Gen", "Cfg.Secret"]
            .iter()
            .map(|p| Pattern::parse(p))
            .collect();
        strip_paths(&mut live, &pats, |k| k == "Name");
        assert_eq!(
            Value::Object(live),
            json!({"Name": "n", "Rules": [{"Id": "a"}, {"Id": "b"}], "Cfg": {"Keep": 1}})
        );
    }
}
