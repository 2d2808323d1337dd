//! Declared CloudFormation values converted to what a service call takes. A
//! value of another shape fails the call naming its path; nothing is guessed.
//! CloudFormation passes numbers and booleans either as JSON values or as
//! strings (`TTL: "300"`, `"true"`), so both forms are read.

use super::AttemptError;
use aws_smithy_types::error::operation::BuildError;
use serde_json::Value;

/// The failure for a declared value the call cannot take.
pub(super) fn unusable(path: &str) -> AttemptError {
    AttemptError {
        code: None,
        message: format!("the declared {path} is not a value the service call takes"),
    }
}

/// A string.
pub(super) fn text(v: &Value, path: &str) -> Result<String, AttemptError> {
    v.as_str().map(str::to_string).ok_or_else(|| unusable(path))
}

/// A whole number, or its string form.
pub(super) fn long(v: &Value, path: &str) -> Result<i64, AttemptError> {
    match v {
        Value::Number(n) => n.as_i64(),
        Value::String(s) => s.parse().ok(),
        _ => None,
    }
    .ok_or_else(|| unusable(path))
}

/// A whole number that fits 32 bits, or its string form.
pub(super) fn int(v: &Value, path: &str) -> Result<i32, AttemptError> {
    i32::try_from(long(v, path)?).map_err(|_| unusable(path))
}

/// A number, or its string form.
pub(super) fn float(v: &Value, path: &str) -> Result<f64, AttemptError> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.parse().ok(),
        _ => None,
    }
    .ok_or_else(|| unusable(path))
}

/// A boolean, or the string `true` / `false`.
pub(super) fn boolean(v: &Value, path: &str) -> Result<bool, AttemptError> {
    match v {
        Value::Bool(b) => Ok(*b),
        Value::String(s) if s == "true" || s == "false" => Ok(s == "true"),
        _ => Err(unusable(path)),
    }
}

/// A list of strings.
pub(super) fn strings(v: &Value, path: &str) -> Result<Vec<String>, AttemptError> {
    v.as_array()
        .ok_or_else(|| unusable(path))?
        .iter()
        .map(|s| text(s, path))
        .collect()
}

/// A member of a declared structure, converted when present.
pub(super) fn member<T>(
    v: &Value,
    parent: &str,
    key: &str,
    convert: impl Fn(&Value, &str) -> Result<T, AttemptError>,
) -> Result<Option<T>, AttemptError> {
    v.get(key)
        .map(|m| convert(m, &format!("{parent}.{key}")))
        .transpose()
}

/// An SDK structure built from declared members; a missing required member
/// fails naming the structure.
pub(super) fn built<T>(r: Result<T, BuildError>, path: &str) -> Result<T, AttemptError> {
    r.map_err(|e| AttemptError {
        code: None,
        message: format!("the declared {path} is incomplete: {e}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn numbers_and_booleans_are_read_in_both_cloudformation_forms() {
        assert_eq!(int(&json!("300"), "TTL").unwrap(), 300);
        assert_eq!(long(&json!(5_000_000_000_i64), "N").unwrap(), 5_000_000_000);
        assert_eq!(float(&json!("0.5"), "Min").unwrap(), 0.5);
        assert!(boolean(&json!("true"), "B").unwrap());
        assert!(!boolean(&json!(false), "B").unwrap());
    }

    #[test]
    fn a_value_of_another_shape_is_refused_naming_its_path() {
        let e = int(&json!(5_000_000_000_i64), "Port").unwrap_err();
        assert!(e.message.contains("Port"), "{}", e.message);
        assert!(boolean(&json!("yes"), "X.Flag")
            .unwrap_err()
            .message
            .contains("X.Flag"));
        assert!(strings(&json!(["a", 1]), "Groups").is_err());
        let e = member(&json!({"Depth": [1]}), "Source", "Depth", int).unwrap_err();
        assert!(e.message.contains("Source.Depth"), "{}", e.message);
        assert_eq!(member(&json!({}), "Source", "Depth", int).unwrap(), None);
    }
}
