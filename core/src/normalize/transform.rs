//! Registry-schema `propertyTransform`: a JSONata expression describing how
//! the SERVICE rewrites a declared value before storing it (lower-casing,
//! unit scaling, a stripped trailing newline). Used only as a fold of a
//! declared mismatch: it can suppress a false `declared` finding when the
//! transform reproduces live exactly. A rewrite whose output does not follow
//! the declared value (a constant, a branch that drops it) is marked so the
//! caller can ask for a second source: a wrong condition in such a rewrite
//! would hide any change. Any parse or evaluation failure leaves the finding
//! in place.

use bumpalo::Bump;
use jsonata_rs::JsonAta;
use serde_json::Value;
use std::cell::OnceCell;
use std::rc::Rc;

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
pub fn same(a: &Value, b: &Value) -> bool {
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

/// A value a transform is evaluated against: the declared resource root or
/// the declared object holding the property, and the same value with the
/// property changed (`None` where it cannot be changed).
#[derive(Debug, Clone)]
pub struct Context {
    /// The context as declared.
    pub declared: Value,
    /// The context with the property's declared value changed.
    pub altered: Option<Value>,
}

/// What one alternative of a transform makes of the declared value, and of
/// another declared value (worked out only when asked: most rewrites stand
/// for no live value, and then it is never needed).
#[derive(Debug, Clone)]
pub struct Rewrite {
    /// The output for the value as declared.
    pub declared: Value,
    /// The alternative that gave it.
    alt: String,
    /// Its context with the declared value changed; `None` when it could
    /// not be changed.
    altered_ctx: Option<Rc<Value>>,
    /// The output in `altered_ctx` (`None` inside: the alternative gave
    /// nothing then).
    altered: OnceCell<Option<Value>>,
}

impl Rewrite {
    /// True when the rewrite stands for `live` and would not have, had the
    /// template said something else. False for a rewrite that discards
    /// what the template says (a constant, a branch that ignores the
    /// value): such a rewrite is only as good as its condition.
    pub fn follows_declared(&self, live: &Value) -> bool {
        let Some(ctx) = &self.altered_ctx else {
            return false;
        };
        let other = self.altered.get_or_init(|| eval(&self.alt, ctx));
        other.as_ref().is_none_or(|o| !same(o, live))
    }

    /// True when the rewrite of the declared value is exactly `live`.
    /// A rewrite written as a pattern (`arn:...:[0-9]{12}:role/` and a
    /// name) is compared as text, so it never matches: as a pattern it
    /// would accept another account's or region's resource of that name,
    /// and the ARN and name rules already fold the stack's own.
    pub fn reproduces(&self, live: &Value) -> bool {
        same(&self.declared, live)
    }
}

/// Every rewrite the ` $OR `-separated alternatives of `expr` give in the
/// contexts; an alternative that fails or is undefined gives none.
pub fn rewrites(expr: &str, contexts: &[Context]) -> Vec<Rewrite> {
    let altered: Vec<Option<Rc<Value>>> = contexts
        .iter()
        .map(|c| c.altered.clone().map(Rc::new))
        .collect();
    let mut out = Vec::new();
    for alt in expr.split(" $OR ").map(str::trim) {
        for (ctx, altered_ctx) in contexts.iter().zip(&altered) {
            let Some(value) = eval(alt, &ctx.declared) else {
                continue;
            };
            out.push(Rewrite {
                declared: value,
                alt: alt.to_string(),
                altered_ctx: altered_ctx.clone(),
                altered: OnceCell::new(),
            });
        }
    }
    out
}

/// Another value of the same kind as `v`, to see whether a transform's
/// output follows it; `None` for a kind with no obvious other value.
pub fn altered(v: &Value) -> Option<Value> {
    match v {
        Value::Bool(b) => Some(Value::Bool(!b)),
        Value::Number(n) => match n.as_i64() {
            Some(i) => Some(Value::from(i.wrapping_add(7))),
            None => n.as_f64().map(|f| Value::from(f * 2.0 + 7.0)),
        },
        Value::String(s) => Some(Value::String(format!("{s}0x7"))),
        Value::Array(a) => {
            let mut a = a.clone();
            a.push(Value::String("0x7".into()));
            Some(Value::Array(a))
        }
        Value::Object(_) | Value::Null => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ctx(declared: Value, key: &str) -> Context {
        let mut altered_ctx = declared.clone();
        let changed = declared.get(key).and_then(altered);
        let altered_ctx = changed.map(|c| {
            altered_ctx[key] = c;
            altered_ctx
        });
        Context {
            declared,
            altered: altered_ctx,
        }
    }

    fn folds(expr: &str, c: &Context, live: &Value) -> Option<bool> {
        rewrites(expr, std::slice::from_ref(c))
            .into_iter()
            .find(|r| r.reproduces(live))
            .map(|r| r.follows_declared(live))
    }

    #[test]
    fn a_lowercasing_transform_follows_the_declared_value() {
        let c = ctx(json!({"ColumnType": "TEXT"}), "ColumnType");
        assert_eq!(
            folds("$lowercase(ColumnType)", &c, &json!("text")),
            Some(true)
        );
        assert_eq!(folds("$lowercase(ColumnType)", &c, &json!("int")), None);
    }

    #[test]
    fn scaling_and_alternatives() {
        let c = ctx(
            json!({"StartingPositionTimestamp": 1700000000}),
            "StartingPositionTimestamp",
        );
        let expr = "$uppercase(X) $OR StartingPositionTimestamp * 1000";
        assert_eq!(folds(expr, &c, &json!(1700000000000_u64)), Some(true));
    }

    #[test]
    fn a_branch_that_ignores_the_value_is_marked_as_discarding_it() {
        // EC2's schema keeps ports only for tcp and udp (it spells icmp
        // "imcp"), so an ICMP type becomes -1 whatever it was.
        let expr = "($ipProtocol := $lowercase(IpProtocol);$ipProtocol in ['imcp', 'tcp', 'udp'] ? FromPort : -1)";
        let icmp = ctx(json!({"IpProtocol": "icmp", "FromPort": 8}), "FromPort");
        assert_eq!(folds(expr, &icmp, &json!(-1)), Some(false));
        let tcp = ctx(json!({"IpProtocol": "tcp", "FromPort": 443}), "FromPort");
        assert_eq!(folds(expr, &tcp, &json!(443)), Some(true));
        let constant = ctx(json!({"Encrypted": false}), "Encrypted");
        assert_eq!(
            folds("Encrypted and Encrypted $OR true", &constant, &json!(true)),
            Some(false)
        );
    }

    #[test]
    fn a_context_that_cannot_be_altered_proves_nothing_followed() {
        let c = Context {
            declared: json!({"Name": "A"}),
            altered: None,
        };
        assert_eq!(folds("$lowercase(Name)", &c, &json!("a")), Some(false));
    }

    #[test]
    fn a_rewrite_written_as_a_pattern_is_text() {
        // ECS: a role name stands for an ARN of any account by the
        // schema's pattern; as text it matches nothing.
        let c = ctx(json!({"TaskRoleArn": "MyRole"}), "TaskRoleArn");
        let expr = "$join([\"arn:aws:iam::[0-9]{12}:role/\", TaskRoleArn])";
        let other = json!("arn:aws:iam::999999999999:role/MyRole");
        assert_eq!(folds(expr, &c, &other), None);
    }

    #[test]
    fn broken_expressions_fail_open() {
        let c = ctx(json!({}), "X");
        assert!(rewrites("$$$(", &[c]).is_empty());
    }
}
