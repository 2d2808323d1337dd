//! Placeholders a resource fills from its own write-only map: Step
//! Functions (and Bedrock flows) replace each `${key}` in the declared
//! definition with the value `DefinitionSubstitutions` gives for `key`
//! ("Substitutions must follow the syntax: `${key_name}`"), and the read
//! returns only the result. Shape-driven: a write-only top-level map of
//! strings named `...Substitutions` fills the placeholders of the other
//! declared properties before they are compared, so the template's
//! definition is compared as AWS stored it.

use super::scope::is_unresolved_marker;
use serde_json::{Map, Value};

/// Fills, in every declared top-level property, the `${key}` placeholders
/// that a declared write-only `...Substitutions` map of strings names. A
/// text with a placeholder whose value did not resolve is left as written:
/// it cannot be filled, and a guess is never compared.
pub(crate) fn fill_placeholders(declared: &mut Map<String, Value>, write_only: &[&str]) {
    let maps: Vec<(String, Map<String, Value>)> = declared
        .iter()
        .filter(|(k, _)| k.ends_with("Substitutions") && write_only.contains(&k.as_str()))
        .filter_map(|(k, v)| Some((k.clone(), v.as_object()?.clone())))
        .collect();
    for (name, map) in maps {
        for (k, v) in declared.iter_mut() {
            if *k != name {
                fill_value(v, &map);
            }
        }
    }
}

/// [`fill_text`] on every string leaf of `v`.
fn fill_value(v: &mut Value, map: &Map<String, Value>) {
    match v {
        Value::String(s) => {
            if let Some(filled) = fill_text(s, map) {
                *s = filled;
            }
        }
        Value::Array(a) => a.iter_mut().for_each(|x| fill_value(x, map)),
        Value::Object(o) => o.values_mut().for_each(|x| fill_value(x, map)),
        _ => {}
    }
}

/// `text` with every `${key}` the map holds a resolved string for
/// replaced; None when nothing was replaced or when a placeholder the map
/// names has no resolved string value.
fn fill_text(text: &str, map: &Map<String, Value>) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    let mut filled = false;
    while let Some(start) = rest.find("${") {
        let Some(len) = rest[start + 2..].find('}') else {
            break;
        };
        let key = &rest[start + 2..start + 2 + len];
        out.push_str(&rest[..start]);
        match map.get(key) {
            Some(v) if is_unresolved_marker(v) => return None,
            Some(Value::String(s)) => {
                out.push_str(s);
                filled = true;
            }
            Some(_) => return None,
            None => out.push_str(&rest[start..start + 3 + len]),
        }
        rest = &rest[start + 3 + len..];
    }
    out.push_str(rest);
    filled.then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn map(v: Value) -> Map<String, Value> {
        v.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn named_placeholders_are_filled_and_others_kept() {
        let m = map(json!({"Fn": "arn:aws:lambda:eu-west-1:1:function:f"}));
        assert_eq!(
            fill_text(r#"{"Resource":"${Fn}","Other":"${Unknown}"}"#, &m).as_deref(),
            Some(r#"{"Resource":"arn:aws:lambda:eu-west-1:1:function:f","Other":"${Unknown}"}"#)
        );
        assert_eq!(fill_text("no placeholder", &m), None);
        assert_eq!(fill_text("unclosed ${Fn", &m), None);
    }

    #[test]
    fn an_unresolved_value_leaves_the_text_as_written() {
        let m = map(json!({"Fn": crate::declared::CORPUS_UNRESOLVED_MARKER}));
        assert_eq!(fill_text("${Fn}", &m), None);
    }

    #[test]
    fn only_a_write_only_substitutions_map_fills() {
        let mut d = map(json!({
            "DefinitionString": "{\"Resource\":\"${Fn}\"}",
            "DefinitionSubstitutions": {"Fn": "arn:f"}
        }));
        let mut kept = d.clone();
        fill_placeholders(&mut kept, &[]);
        assert_eq!(kept["DefinitionString"], json!("{\"Resource\":\"${Fn}\"}"));
        fill_placeholders(&mut d, &["DefinitionSubstitutions"]);
        assert_eq!(d["DefinitionString"], json!("{\"Resource\":\"arn:f\"}"));
        assert_eq!(d["DefinitionSubstitutions"], json!({"Fn": "arn:f"}));
    }
}
