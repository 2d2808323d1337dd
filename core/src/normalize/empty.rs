//! "Trivially empty" values: the feature-off / unset shapes AWS returns for
//! almost every option nobody set.

use serde_json::Value;

/// True for `null`, `false`, `""`, `[]`, and objects whose every value is
/// itself trivially empty (recursively, `{}` included). Numbers are never
/// trivially empty: `0` is a real setting.
pub fn is_trivially_empty(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::Bool(b) => !b,
        Value::String(s) => s.is_empty(),
        Value::Array(a) => a.is_empty(),
        Value::Object(o) => o.values().all(is_trivially_empty),
        Value::Number(_) => false,
    }
}

/// True for an empty collection (`[]` or `{}`), as declared.
pub fn is_empty_collection(v: &Value) -> bool {
    match v {
        Value::Array(a) => a.is_empty(),
        Value::Object(o) => o.is_empty(),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn off_shapes_are_empty() {
        for v in [
            json!(null),
            json!(false),
            json!(""),
            json!([]),
            json!({}),
            json!({"A": false, "B": {"C": []}}),
        ] {
            assert!(is_trivially_empty(&v), "{v}");
        }
    }

    #[test]
    fn real_settings_are_not_empty() {
        for v in [
            json!(0),
            json!(true),
            json!("x"),
            json!([false]),
            json!({"A": 1}),
        ] {
            assert!(!is_trivially_empty(&v), "{v}");
        }
    }
}
