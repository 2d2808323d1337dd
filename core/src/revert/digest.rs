//! The plan's canonical JSON form and digest. The digest covers everything
//! that would be written and the identities it is written to — item ids,
//! resources, writers, operations, targets, kept tags and re-sent write-only
//! properties — and nothing run-specific: not the current live values, not
//! refusals or their wording, no timestamps. So a dry run and the re-plan
//! before an apply agree exactly when the same writes would be made.

use super::model::RevertPlan;
use crate::baseline::{deep_hash, sort_keys};
use serde_json::{json, Value};

/// Compact JSON with object keys sorted at every depth (no insignificant whitespace).
pub fn canonical_json(value: &Value) -> String {
    serde_json::to_string(&sort_keys(value)).unwrap_or_default()
}

/// The part of a plan its digest covers.
pub fn digest_view(plan: &RevertPlan) -> Value {
    let items: Vec<Value> = plan
        .items
        .iter()
        .map(|i| {
            json!({
                "id": i.id,
                "resource": i.resource,
                "path": i.path,
                "kind": i.kind,
                "unrecorded": i.unrecorded,
                "target": i.target,
                "preservedTags": i.preserved_tags,
                "writer": i.writer,
                "operation": i.operation,
            })
        })
        .collect();
    json!({
        "version": plan.version,
        "stack": plan.stack,
        "account": plan.account,
        "region": plan.region,
        "items": items,
        "reincluded": plan.reincluded,
    })
}

/// Lower-case hex SHA-256 of the canonical JSON of [`digest_view`].
pub fn plan_digest(plan: &RevertPlan) -> String {
    deep_hash(&digest_view(plan))
}

impl RevertPlan {
    /// The whole plan as canonical JSON (sorted keys, compact).
    pub fn canonical_json(&self) -> String {
        canonical_json(&serde_json::to_value(self).unwrap_or(Value::Null))
    }

    /// True when `digest` is this plan's digest (and the stored one agrees).
    pub fn matches_digest(&self, digest: &str) -> bool {
        let now = plan_digest(self);
        now == self.digest && now == digest
    }
}
