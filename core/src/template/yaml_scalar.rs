//! Typing of untagged plain YAML scalars (YAML 1.2 core schema, conservatively).
//!
//! Only forms whose meaning is unambiguous become non-strings: `true`/`false`,
//! `null`/`~`/empty, and decimal numbers without a leading zero. Everything
//! else stays a string, so `yes`, `0x1F`, `0755` or `012345678901` (an account
//! id written unquoted) never lose their text.

use serde_json::{Number, Value};

/// Types a plain (unquoted, untagged) scalar.
pub(crate) fn plain_scalar(text: &str) -> Value {
    match text {
        "" | "~" | "null" | "Null" | "NULL" => return Value::Null,
        "true" | "True" | "TRUE" => return Value::Bool(true),
        "false" | "False" | "FALSE" => return Value::Bool(false),
        _ => {}
    }
    decimal_number(text).unwrap_or_else(|| Value::String(text.to_string()))
}

/// Parses a decimal number in core-schema syntax, refusing leading zeros
/// (other than `0` itself or `0.x`) and values JSON cannot hold.
pub(crate) fn decimal_number(text: &str) -> Option<Value> {
    if !is_core_decimal(text) {
        return None;
    }
    let unsigned = text.strip_prefix(['-', '+']).unwrap_or(text);
    let int_part = unsigned.split(['.', 'e', 'E']).next().unwrap_or("");
    if int_part.len() > 1 && int_part.starts_with('0') {
        return None;
    }
    let body = text.strip_prefix('+').unwrap_or(text);
    if let Ok(i) = body.parse::<i64>() {
        return Some(Value::Number(i.into()));
    }
    if let Ok(u) = body.parse::<u64>() {
        return Some(Value::Number(u.into()));
    }
    let f = body.parse::<f64>().ok()?;
    // An integer too large for 64 bits would silently lose digits as a float.
    let looks_integral = !body.contains(['.', 'e', 'E']);
    if looks_integral {
        return None;
    }
    Number::from_f64(f).map(Value::Number)
}

/// `[-+]? ( \.[0-9]+ | [0-9]+ ( \.[0-9]* )? ) ( [eE] [-+]? [0-9]+ )?`
fn is_core_decimal(text: &str) -> bool {
    let b = text.as_bytes();
    let mut i = 0;
    if matches!(b.first(), Some(b'-' | b'+')) {
        i += 1;
    }
    let int_start = i;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    let int_digits = i - int_start;
    let mut frac_digits = 0;
    if i < b.len() && b[i] == b'.' {
        i += 1;
        let s = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        frac_digits = i - s;
    }
    if int_digits == 0 && frac_digits == 0 {
        return false;
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'-' || b[i] == b'+') {
            i += 1;
        }
        let s = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == s {
            return false;
        }
    }
    i == b.len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn core_schema_forms() {
        assert_eq!(plain_scalar("123"), json!(123));
        assert_eq!(plain_scalar("-7"), json!(-7));
        assert_eq!(plain_scalar("+7"), json!(7));
        assert_eq!(plain_scalar("1.5"), json!(1.5));
        assert_eq!(plain_scalar("1e3"), json!(1000.0));
        assert_eq!(plain_scalar("0"), json!(0));
        assert_eq!(plain_scalar("0.25"), json!(0.25));
        assert_eq!(plain_scalar("true"), json!(true));
        assert_eq!(plain_scalar("FALSE"), json!(false));
        assert_eq!(plain_scalar("~"), Value::Null);
        assert_eq!(plain_scalar(""), Value::Null);
    }

    #[test]
    fn ambiguous_forms_stay_strings() {
        for s in [
            "yes",
            "no",
            "on",
            "0x1F",
            "0o17",
            "0755",
            "012345678901",
            "2012-10-17",
            ".inf",
            ".nan",
            "1_000",
            "1.2.3",
            "e5",
            "-",
            ".",
            "99999999999999999999999",
        ] {
            assert_eq!(plain_scalar(s), json!(s), "{s}");
        }
    }
}
