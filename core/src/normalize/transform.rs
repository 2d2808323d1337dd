//! Registry-schema `propertyTransform`: a JSONata expression describing how
//! the SERVICE rewrites a declared value before storing it (lower-casing,
//! unit scaling, a stripped trailing newline). Used only as the last fold of
//! a declared mismatch: it can suppress a false `declared` finding when the
//! transform reproduces live EXACTLY, and never hides anything else. Any
//! parse or evaluation failure leaves the finding in place (fail open).

use bumpalo::Bump;
use jsonata_rs::JsonAta;
use serde_json::Value;

/// Evaluates one expression against `input`; `None` on any error or an
/// undefined result.
fn eval(expr: &str, input: &Value) -> Option<Value> {
    let text = serde_json::to_string(input).ok()?;
    let expr = expr.to_string();
    // The evaluator is third-party code run on data from AWS: a panic inside
    // it must not take the scan down, so it is contained and treated as a
    // failed evaluation.
    std::panic::catch_unwind(move || {
        let arena = Bump::new();
        let j = JsonAta::new(&expr, &arena).ok()?;
        let out = j.evaluate(Some(&text), None).ok()?;
        if out.is_undefined() {
            return None;
        }
        serde_json::from_str::<Value>(&out.serialize(false)).ok()
    })
    .ok()
    .flatten()
}

/// Numbers compare by value (`1000` vs `1000.0`), everything else exactly.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

/// True when some ` $OR `-separated alternative of `expr`, evaluated against
/// the declared resource root or against the property's declared parent
/// object, yields exactly the live value.
pub fn transform_reproduces_live(
    expr: &str,
    root: &Value,
    parent: Option<&Value>,
    live: &Value,
) -> bool {
    expr.split(" $OR ").any(|alt| {
        let alt = alt.trim();
        std::iter::once(root)
            .chain(parent)
            .any(|ctx| eval(alt, ctx).is_some_and(|out| same(&out, live)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn lowercase_transform_folds_and_other_values_do_not() {
        let root = json!({"ColumnType": "TEXT"});
        assert!(transform_reproduces_live(
            "$lowercase(ColumnType)",
            &root,
            None,
            &json!("text")
        ));
        assert!(!transform_reproduces_live(
            "$lowercase(ColumnType)",
            &root,
            None,
            &json!("int")
        ));
    }

    #[test]
    fn scaling_and_alternatives() {
        let root = json!({"StartingPositionTimestamp": 1700000000});
        let expr = "$uppercase(X) $OR StartingPositionTimestamp * 1000";
        assert!(transform_reproduces_live(
            expr,
            &root,
            None,
            &json!(1700000000000_u64)
        ));
    }

    #[test]
    fn broken_expressions_fail_open() {
        assert!(!transform_reproduces_live(
            "$$$(",
            &json!({}),
            None,
            &json!(1)
        ));
    }
}
