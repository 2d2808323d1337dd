//! CloudFormation YAML short-form tags (`!Ref`, `!GetAtt`, ...) and their long JSON form.

use serde_json::{Map, Value};

/// The long-form key for a local tag name (`Ref` -> `Ref`, `Sub` -> `Fn::Sub`).
///
/// Tags CloudFormation does not define still map to `Fn::<Name>`, which the
/// resolver treats as an unknown intrinsic (unresolved), never as data.
pub(crate) fn long_form_key(tag: &str) -> String {
    match tag {
        "Ref" | "Condition" => tag.to_string(),
        other => format!("Fn::{other}"),
    }
}

/// Wraps an already-built value in its intrinsic, applying the per-tag shape rules.
pub(crate) fn to_long_form(tag: &str, value: Value) -> Value {
    let value = match (tag, value) {
        // `!GetAtt Res.Attr.Path` splits at the FIRST dot: the attribute may contain dots.
        ("GetAtt", Value::String(s)) => match s.split_once('.') {
            Some((logical, attr)) => Value::Array(vec![
                Value::String(logical.to_string()),
                Value::String(attr.to_string()),
            ]),
            None => Value::String(s),
        },
        (_, v) => v,
    };
    let mut m = Map::new();
    m.insert(long_form_key(tag), value);
    Value::Object(m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn getatt_splits_at_first_dot_only() {
        assert_eq!(
            to_long_form("GetAtt", json!("Db.Endpoint.Address")),
            json!({"Fn::GetAtt": ["Db", "Endpoint.Address"]})
        );
        assert_eq!(
            to_long_form("GetAtt", json!("NoDot")),
            json!({"Fn::GetAtt": "NoDot"})
        );
    }

    #[test]
    fn ref_and_condition_keep_their_names() {
        assert_eq!(to_long_form("Ref", json!("X")), json!({"Ref": "X"}));
        assert_eq!(
            to_long_form("Condition", json!("C")),
            json!({"Condition": "C"})
        );
        assert_eq!(
            to_long_form("Base64", json!("x")),
            json!({"Fn::Base64": "x"})
        );
    }
}
