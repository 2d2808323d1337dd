//! Registry-schema `propertyTransform`: a JSONata expression describing how
//! the SERVICE rewrites a declared value before storing it (lower-casing,
//! unit scaling, a stripped trailing newline). Used only as a fold of a
//! declared mismatch: it can suppress a false `declared` finding when the
//! transform reproduces live exactly, or spells a pattern (`8.0.*`) that
//! matches all of it. A rewrite whose output does not follow
//! the declared value (a constant, a branch that drops it) is marked so the
//! caller can ask for a second source: a wrong condition in such a rewrite
//! would hide any change. Any parse or evaluation failure leaves the finding
//! in place.

use bumpalo::Bump;
use jsonata_rs::JsonAta;
use serde_json::Value;

/// `expr` with `\\/` inside string literals written as `/`. JSON and
/// JSONata read the two as one character, and the schemas write ARN
/// prefixes so (`"arn:...:key\\/"`), but the evaluator rejects the escape.
/// Regex literals (`/a\\/b/`) keep theirs.
fn plain_slashes(expr: &str) -> String {
    let mut out = String::with_capacity(expr.len());
    let mut quote: Option<char> = None;
    let mut chars = expr.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(_), '\\') => match chars.next() {
                Some('/') => out.push('/'),
                Some(next) => {
                    out.push('\\');
                    out.push(next);
                }
                None => out.push('\\'),
            },
            (Some(q), c) if c == q => {
                quote = None;
                out.push(c);
            }
            (None, '"' | '\'') => {
                quote = Some(c);
                out.push(c);
            }
            (_, c) => out.push(c),
        }
    }
    out
}

/// Evaluates one expression against `input`; `None` on any error or an
/// undefined result.
fn eval(expr: &str, input: &Value) -> Option<Value> {
    let text = serde_json::to_string(input).ok()?;
    let expr = plain_slashes(expr);
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

/// What a transform alternative gave: a value, and where it is a string
/// written as a pattern (`$join([Version, ".*"])`), the pattern it spells.
#[derive(Debug, Clone)]
pub struct Output {
    value: Value,
    pattern: Option<regex::Regex>,
}

impl Output {
    fn new(value: Value) -> Self {
        let pattern = value.as_str().and_then(as_pattern);
        Output { value, pattern }
    }

    /// True when this output stands for `live`: equal, or a pattern that
    /// matches all of it.
    pub fn reproduces(&self, live: &Value) -> bool {
        same(&self.value, live)
            || matches!((&self.pattern, live), (Some(p), Value::String(l)) if p.is_match(l))
    }
}

/// Characters a pattern uses and a plain value rarely holds; a lone `.`
/// (a DNS name, a version) is not enough to read a value as a pattern.
const PATTERN_MARKS: &[char] = &['^', '$', '*', '+', '?', '[', '(', '{', '\\', '|'];

/// The anchored pattern a string spells, when it reads as one and
/// compiles within a small size.
fn as_pattern(s: &str) -> Option<regex::Regex> {
    if !s.contains(PATTERN_MARKS) {
        return None;
    }
    let body = s.strip_prefix('^').unwrap_or(s);
    let body = body.strip_suffix('$').unwrap_or(body);
    regex::RegexBuilder::new(&format!("^(?:{body})$"))
        .size_limit(1 << 16)
        .build()
        .ok()
}

/// What one alternative of a transform makes of the declared value, and of
/// another declared value.
#[derive(Debug, Clone)]
pub struct Rewrite {
    /// The output for the value as declared.
    pub declared: Output,
    /// The output with the declared value changed: `None` when it could
    /// not be changed, `Some(None)` when the alternative gave nothing then.
    altered: Option<Option<Output>>,
}

impl Rewrite {
    /// True when the rewrite stands for `live` and would not have, had the
    /// template said something else. False for a rewrite that discards
    /// what the template says (a constant, a branch that ignores the
    /// value): such a rewrite is only as good as its condition.
    pub fn follows_declared(&self, live: &Value) -> bool {
        match &self.altered {
            None => false,
            Some(None) => true,
            Some(Some(other)) => !other.reproduces(live),
        }
    }
}

/// Every rewrite the ` $OR `-separated alternatives of `expr` give in the
/// contexts; an alternative that fails or is undefined gives none.
pub fn rewrites(expr: &str, contexts: &[Context]) -> Vec<Rewrite> {
    let mut out = Vec::new();
    for alt in expr.split(" $OR ").map(str::trim) {
        for ctx in contexts {
            let Some(value) = eval(alt, &ctx.declared) else {
                continue;
            };
            let altered = ctx.altered.as_ref().map(|a| eval(alt, a).map(Output::new));
            out.push(Rewrite {
                declared: Output::new(value),
                altered,
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
            .find(|r| r.declared.reproduces(live))
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
    fn a_rewrite_written_as_a_pattern_matches_what_it_spells() {
        // RDS: a declared major version stands for any minor of it.
        let c = ctx(json!({"EngineVersion": "8.0"}), "EngineVersion");
        let expr = "$join([$string(EngineVersion), \".*\"])";
        assert_eq!(folds(expr, &c, &json!("8.0.35")), Some(true));
        assert_eq!(folds(expr, &c, &json!("5.7.44")), None);
        // A key id stands for its ARN, and for no other key's.
        let c = ctx(json!({"KmsKeyId": "1234abcd"}), "KmsKeyId");
        let expr = "$join([\"arn:.+?:kms:.+?:.+?:key\\/\", KmsKeyId])";
        let arn = |id: &str| json!(format!("arn:aws:kms:eu-west-1:123456789012:key/{id}"));
        assert_eq!(folds(expr, &c, &arn("1234abcd")), Some(true));
        assert_eq!(folds(expr, &c, &arn("99999999")), None);
        // A constant pattern says nothing of the declared value.
        let c = ctx(json!({"Location": "EqDC2"}), "Location");
        assert_eq!(
            folds("\"^[a-zA-Z0-9-]+$\"", &c, &json!("Other1")),
            Some(false)
        );
        // A dotted name is a value, not a pattern.
        let c = ctx(json!({"Name": "example.com"}), "Name");
        assert_eq!(
            folds("$join([Name, \".\"])", &c, &json!("exampleXcom.")),
            None
        );
    }

    #[test]
    fn escaped_slashes_in_strings_read_as_slashes() {
        assert_eq!(
            plain_slashes(r#"$join(["key\/", K])"#),
            r#"$join(["key/", K])"#
        );
        assert_eq!(
            plain_slashes(r#"$replace(N, /a\/b/, 'c\'d\/')"#),
            r#"$replace(N, /a\/b/, 'c\'d/')"#
        );
    }

    #[test]
    fn broken_expressions_fail_open() {
        let c = ctx(json!({}), "X");
        assert!(rewrites("$$$(", &[c]).is_empty());
    }
}
