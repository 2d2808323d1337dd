//! The shared value canonicalization used by classify and baseline compare.

use super::arrays::{canonicalize_arrays_deep, sort_set};
use super::policy::{
    canonicalize_document, canonicalize_statement, is_policy_document, is_policy_statement,
};
use serde_json::Value;

/// Canonical form of a value for equality: the same pipeline classify uses,
/// so a baseline recorded under older rules never produces false drift.
///
/// Policy documents are canonicalized first (statement sets, principal
/// forms), then identity-keyed object arrays and id/ARN arrays are put in
/// one order.
pub fn canonicalize_for_compare(value: &Value) -> Value {
    let mut v = value.clone();
    canonicalize_in_place(&mut v);
    v
}

/// In-place variant of [`canonicalize_for_compare`].
pub fn canonicalize_in_place(v: &mut Value) {
    // One post-order walk equal to "policies everywhere, then arrays
    // everywhere": a policy document is canonicalized before its arrays are
    // ordered, and every array is ordered after its elements are final.
    match v {
        Value::Object(o) => {
            if is_policy_document(o) {
                // The document stringifies its condition values: a number
                // takes its one form first.
                o.values_mut().for_each(integral_numbers_deep);
                canonicalize_document(o);
                o.values_mut().for_each(canonicalize_arrays_deep);
            } else if is_policy_statement(o) {
                // A statement standing alone takes the form it has inside a
                // document.
                o.values_mut().for_each(integral_numbers_deep);
                canonicalize_statement(o);
                o.values_mut().for_each(canonicalize_arrays_deep);
            } else {
                o.values_mut().for_each(canonicalize_in_place);
            }
        }
        Value::Array(a) => {
            a.iter_mut().for_each(canonicalize_in_place);
            sort_set(a);
        }
        Value::Number(_) => integral_number(v),
        _ => {}
    }
}

/// A whole number written with a fraction (`5.0`, as a hand-written
/// template may) is the integer `5`: JSON has one number type, and
/// CloudFormation passes the value, not its spelling. Only values an `f64`
/// holds exactly (below 2^53) are rewritten.
fn integral_number(v: &mut Value) {
    const EXACT: f64 = 9_007_199_254_740_992.0;
    if let Value::Number(n) = v {
        if let Some(f) = n.as_f64().filter(|_| n.is_f64()) {
            if f.fract() == 0.0 && f.abs() < EXACT {
                // In range and whole, so the cast is exact.
                *v = Value::from(f as i64);
            }
        }
    }
}

/// [`integral_number`] at every depth.
fn integral_numbers_deep(v: &mut Value) {
    match v {
        Value::Object(o) => o.values_mut().for_each(integral_numbers_deep),
        Value::Array(a) => a.iter_mut().for_each(integral_numbers_deep),
        _ => integral_number(v),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_whole_number_written_with_a_fraction_is_the_integer() {
        let declared = json!({
            "MemorySize": 512.0,
            "Weight": 0.5,
            "Ports": [443.0, 80],
            "Huge": 1.0e300,
            "PolicyDocument": {"Statement": {"Effect": "Allow", "Action": "s3:GetObject",
                "Resource": "*", "Condition": {"NumericLessThan": {"s3:max-keys": 10.0}}}}
        });
        let live = json!({
            "MemorySize": 512,
            "Weight": 0.5,
            "Ports": [443, 80],
            "Huge": 1.0e300,
            "PolicyDocument": {"Statement": [{"Effect": "Allow", "Action": ["s3:GetObject"],
                "Resource": ["*"], "Condition": {"NumericLessThan": {"s3:max-keys": "10"}}}]}
        });
        assert_eq!(
            canonicalize_for_compare(&declared),
            canonicalize_for_compare(&live)
        );
        // A fraction is kept, and a different whole number stays different.
        assert_ne!(
            canonicalize_for_compare(&json!({"W": 0.5})),
            canonicalize_for_compare(&json!({"W": 0}))
        );
        assert_ne!(
            canonicalize_for_compare(&json!({"M": 512.0})),
            canonicalize_for_compare(&json!({"M": 513}))
        );
    }

    #[test]
    fn same_content_in_another_order_is_equal() {
        let a = json!({
            "Tags": [{"Key": "b", "Value": "2"}, {"Key": "a", "Value": "1"}],
            "PolicyDocument": {"Statement": [{"Effect": "Allow", "Action": "s3:Get*", "Resource": "*"}]},
            "SecurityGroupIds": ["sg-0bbbbbbbbbbbbbbbb", "sg-0aaaaaaaaaaaaaaaa"]
        });
        let b = json!({
            "Tags": [{"Key": "a", "Value": "1"}, {"Key": "b", "Value": "2"}],
            "PolicyDocument": {"Statement": {"Effect": "Allow", "Action": ["s3:Get*"], "Resource": ["*"]}},
            "SecurityGroupIds": ["sg-0aaaaaaaaaaaaaaaa", "sg-0bbbbbbbbbbbbbbbb"]
        });
        assert_eq!(canonicalize_for_compare(&a), canonicalize_for_compare(&b));
    }

    #[test]
    fn one_pass_equals_policies_then_arrays() {
        let v = json!({"Doc": {"Statement": [{"Effect": "Allow", "Action": "b",
            "Resource": ["arn:aws:s3:::z", "arn:aws:s3:::a"]}]},
            "Rules": [{"Name": "b", "Ids": ["sg-0bbbbbbbbbbbbbbbb", "sg-0aaaaaaaaaaaaaaaa"]}, {"Name": "a"}]});
        let mut two = v.clone();
        super::super::policy::canonicalize_policies_deep(&mut two);
        canonicalize_arrays_deep(&mut two);
        assert_eq!(canonicalize_for_compare(&v), two);
    }

    #[test]
    fn a_changed_tag_value_still_differs() {
        let a = json!({"Tags": [{"Key": "a", "Value": "1"}]});
        let b = json!({"Tags": [{"Key": "a", "Value": "2"}]});
        assert_ne!(canonicalize_for_compare(&a), canonicalize_for_compare(&b));
    }
}
