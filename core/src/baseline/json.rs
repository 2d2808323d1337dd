//! Deterministic JSON helpers: deep key sorting and content hashes.

use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

/// A copy of `value` whose object keys are sorted at every depth.
///
/// Insertion order is what serde_json keeps when `preserve_order` is on, so
/// rebuilding in sorted order gives sorted output under either feature set.
pub fn sort_keys(value: &Value) -> Value {
    match value {
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            let mut out = Map::new();
            for k in keys {
                if let Some(v) = m.get(k) {
                    out.insert(k.clone(), sort_keys(v));
                }
            }
            Value::Object(out)
        }
        Value::Array(a) => Value::Array(a.iter().map(sort_keys).collect()),
        other => other.clone(),
    }
}

/// Lower-case hex SHA-256 of bytes.
pub fn sha256_hex(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// Hash of a value's compact, deep-key-sorted JSON form.
pub fn deep_hash(value: &Value) -> String {
    let text = serde_json::to_string(&sort_keys(value)).unwrap_or_default();
    sha256_hex(text.as_bytes())
}

/// The `templateHash` of a deployed template body (SHA-256 hex of its bytes).
pub use crate::template::template_hash;

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn deep_hash_ignores_key_order_but_not_values() {
        let a = json!({"S3Bucket": "b", "S3Key": "k"});
        let b = json!({"S3Key": "k", "S3Bucket": "b"});
        assert_eq!(deep_hash(&a), deep_hash(&b));
        assert_ne!(
            deep_hash(&a),
            deep_hash(&json!({"S3Key": "k2", "S3Bucket": "b"}))
        );
    }

    #[test]
    fn template_hash_is_sha256_hex() {
        assert_eq!(
            template_hash(""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }
}
