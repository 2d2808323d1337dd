//! The SNS notice of an applied revert: what was written, by whom (as far as
//! the invocation context says), and the outcome per item. It carries item
//! ids, paths and statuses, never values, so no secret can reach it.

use realdrift_core::revert::{ItemStatus, RevertOutcome};
use serde_json::{json, Value};

/// Version of the notice document.
pub const NOTICE_VERSION: u32 = 1;

/// The notice document and its subject.
pub fn notice(
    outcome: &RevertOutcome,
    invoked_by: Option<&Value>,
    request_id: &str,
) -> (String, Value) {
    let n = |s| outcome.count(s);
    let result = if outcome.converged() {
        "converged"
    } else {
        "partial"
    };
    let subject = format!(
        "realdrift revert {result}: {} ({} reverted, {} failed)",
        outcome.stack,
        n(ItemStatus::Converged),
        n(ItemStatus::Failed) + n(ItemStatus::NotConverged) + n(ItemStatus::Unverified)
    );
    let doc = json!({
        "version": NOTICE_VERSION,
        "kind": "revert",
        "stack": outcome.stack,
        "account": outcome.account,
        "region": outcome.region,
        "requestId": request_id,
        "invokedBy": invoked_by,
        "planDigest": outcome.digest,
        "result": result,
        "counts": {
            "converged": n(ItemStatus::Converged),
            "failed": n(ItemStatus::Failed),
            "notConverged": n(ItemStatus::NotConverged),
            "unverified": n(ItemStatus::Unverified),
        },
        "items": outcome.items,
        "otherDrift": outcome.other_drift,
    });
    (subject, doc)
}
