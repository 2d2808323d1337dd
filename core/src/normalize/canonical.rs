//! The shared value canonicalization used by classify and baseline compare.

use super::arrays::canonicalize_arrays_deep;
use super::policy::canonicalize_policies_deep;
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
    canonicalize_policies_deep(v);
    canonicalize_arrays_deep(v);
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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
    fn a_changed_tag_value_still_differs() {
        let a = json!({"Tags": [{"Key": "a", "Value": "1"}]});
        let b = json!({"Tags": [{"Key": "a", "Value": "2"}]});
        assert_ne!(canonicalize_for_compare(&a), canonicalize_for_compare(&b));
    }
}
