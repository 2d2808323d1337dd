//! Removes schema read-only / write-only paths from a live model. Read-only
//! attributes (ARNs, ids, endpoints) are outputs, never configuration;
//! write-only ones cannot be compared because AWS never returns them.

use super::path::{Path, Seg};
use serde_json::{Map, Value};

/// Removes every node of `live` whose path matches one of the dotted
/// `patterns` (`*` = any array element). Top-level keys for which `keep_top`
/// returns true are never removed (a declared property is compared, not
/// stripped).
pub fn strip_paths<S: AsRef<str>>(
    live: &mut Map<String, Value>,
    patterns: &[S],
    keep_top: impl Fn(&str) -> bool,
) {
    if patterns.is_empty() {
        return;
    }
    let mut at = Path::root();
    strip_object(live, &mut at, patterns, Some(&keep_top));
}

fn strip_object<S: AsRef<str>>(
    o: &mut Map<String, Value>,
    at: &mut Path,
    patterns: &[S],
    keep_top: Option<&dyn Fn(&str) -> bool>,
) {
    // Only keys some pattern names at this depth need a look.
    let depth = at.len();
    let mut heads: Vec<&str> = Vec::new();
    for p in patterns {
        if let Some(h) = p.as_ref().split('.').nth(depth) {
            if !heads.contains(&h) {
                heads.push(h);
            }
        }
    }
    let candidates: Vec<String> = if heads.contains(&"*") {
        o.keys().cloned().collect()
    } else {
        heads
            .into_iter()
            .filter(|h| o.contains_key(*h))
            .map(str::to_string)
            .collect()
    };
    for k in candidates {
        at.push_key(&k);
        let exact = patterns.iter().any(|p| at.matches_dotted(p.as_ref()));
        let kept = keep_top.is_some_and(|f| f(&k));
        if exact && !kept {
            o.remove(&k);
        } else if patterns.iter().any(|p| at.is_prefix_of_dotted(p.as_ref())) {
            if let Some(v) = o.get_mut(&k) {
                strip_value(v, at, patterns);
            }
        }
        at.pop();
    }
}

fn strip_value<S: AsRef<str>>(v: &mut Value, at: &mut Path, patterns: &[S]) {
    match v {
        Value::Object(o) => strip_object(o, at, patterns, None),
        Value::Array(a) => {
            for (i, e) in a.iter_mut().enumerate() {
                at.push(Seg::Index(i));
                strip_value(e, at, patterns);
                at.pop();
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
        let pats = ["Arn", "Name", "Rules.*.Gen", "Cfg.Secret"];
        strip_paths(&mut live, &pats, |k| k == "Name");
        assert_eq!(
            Value::Object(live),
            json!({"Name": "n", "Rules": [{"Id": "a"}, {"Id": "b"}], "Cfg": {"Keep": 1}})
        );
    }
}
