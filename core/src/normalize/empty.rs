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

/// True when a declared value may be missing from the read: trivially
/// empty, except that a member holding an empty object `{}` is a choice, not
/// an unset value. Union-shaped settings are spelled by which member holds
/// `{}` (a WAF rule's `Action: {Block: {}}`, `OverrideAction: {None: {}}`),
/// so `{Block: {}}` read back as `{Allow: {}}` or with no action is a change.
pub fn may_be_left_out(v: &Value) -> bool {
    match v {
        Value::Object(o) => o.values().all(member_may_be_left_out),
        other => is_trivially_empty(other),
    }
}

/// [`may_be_left_out`] for a member of a declared object: `{}` there is the
/// member's presence, which is the setting.
pub fn member_may_be_left_out(v: &Value) -> bool {
    !matches!(v, Value::Object(o) if o.is_empty()) && may_be_left_out(v)
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
    fn a_member_spelled_empty_object_is_a_choice() {
        assert!(may_be_left_out(&json!({})));
        assert!(may_be_left_out(&json!({"Logging": {"Enabled": false}})));
        assert!(!may_be_left_out(&json!({"Block": {}})));
        assert!(!may_be_left_out(
            &json!({"Audit": {"FindingsDestination": {}}})
        ));
        assert!(!member_may_be_left_out(&json!({})));
        assert!(member_may_be_left_out(&json!([])));
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
