//! What an applied revert did: per item, whether its write was made and
//! whether a re-read shows it converged. Serde round-trippable in camelCase
//! (the CLI's `--json` and the revert function's response carry it).

use super::model::{ResourceIdentity, Writer};
use serde::{Deserialize, Serialize};

/// What happened to one planned item.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ItemStatus {
    /// Written, and the re-read shows the target value.
    Converged,
    /// Written, but the re-read still shows drift at the path.
    NotConverged,
    /// The write failed (after retries where the failure was transient).
    Failed,
    /// Written, but the resource could not be re-read: convergence unknown.
    Unverified,
}

impl ItemStatus {
    /// The wire name of the status.
    pub fn as_str(self) -> &'static str {
        match self {
            ItemStatus::Converged => "converged",
            ItemStatus::NotConverged => "notConverged",
            ItemStatus::Failed => "failed",
            ItemStatus::Unverified => "unverified",
        }
    }
}

/// Why a write failed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WriteError {
    /// The service or handler error code, when one was returned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    /// A readable message (the operation and the service's words).
    pub message: String,
    /// True when the failure was transient and retries ran out at the deadline.
    #[serde(default, skip_serializing_if = "crate::finding::is_false")]
    pub transient: bool,
}

/// The outcome of one batch's write (one resource, one writer).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WriteOutcome {
    /// `None` when the write succeeded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<WriteError>,
    /// Requests made (1 when the first one settled it).
    pub attempts: u32,
}

impl WriteOutcome {
    /// A successful write after `attempts` requests.
    pub fn ok(attempts: u32) -> Self {
        WriteOutcome {
            error: None,
            attempts,
        }
    }

    /// A failed write.
    pub fn failed(attempts: u32, error: WriteError) -> Self {
        WriteOutcome {
            error: Some(error),
            attempts,
        }
    }
}

/// One item's result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ItemResult {
    /// The plan item's id.
    pub id: String,
    /// The resource written.
    pub resource: ResourceIdentity,
    /// The item's path (empty for a whole resource).
    pub path: String,
    /// Who wrote it.
    pub writer: Writer,
    /// What happened.
    pub status: ItemStatus,
    /// Requests made for the item's batch.
    pub attempts: u32,
    /// The write's failure, when it failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<WriteError>,
    /// Why the item is not converged or unverified (our words, no values).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// The result of applying one stack's plan.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RevertOutcome {
    /// Stack name.
    pub stack: String,
    /// Account id, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub account: Option<String>,
    /// Region, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub region: Option<String>,
    /// The digest of the plan that was applied.
    pub digest: String,
    /// One result per applied item, in plan order.
    pub items: Vec<ItemResult>,
    /// Drift the re-check still shows on the touched resources that no item
    /// was about (`<logicalId>.<path>`): a write that moved something else.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub other_drift: Vec<String>,
}

impl RevertOutcome {
    /// True when every item converged (and there was at least nothing left failing).
    pub fn converged(&self) -> bool {
        self.items.iter().all(|i| i.status == ItemStatus::Converged)
    }

    /// Items with a given status.
    pub fn count(&self, status: ItemStatus) -> usize {
        self.items.iter().filter(|i| i.status == status).count()
    }
}
