//! The status document a member's scan writes to the hub bucket after each
//! check of a stack (`org/<account>/<region>/<stack>.json`), read back by
//! `realdrift report --hub-bucket`. One document per stack, so scans of
//! different stacks never write the same object.

use super::model::StackReport;
use crate::events::Actor;
use crate::watch::DriftEntry;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The `schema` of a status document.
pub const ORG_STATUS_SCHEMA: &str = "realdrift.org-status.v1";

/// The key prefix of status documents in the hub bucket.
pub const ORG_PREFIX: &str = "org/";

/// One stack's current status, as a member reports it to the hub.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StackStatus {
    /// [`ORG_STATUS_SCHEMA`].
    pub schema: String,
    /// Account id.
    pub account_id: String,
    /// Region.
    pub region: String,
    /// Stack name.
    pub stack: String,
    /// When the check ran (milliseconds since the Unix epoch).
    pub checked_at_ms: u64,
    /// Unresolved drifted properties.
    pub drift: usize,
    /// Resources compared.
    pub compared: usize,
    /// Template resources.
    pub total: usize,
    /// Resources not compared, with why.
    #[serde(default)]
    pub not_compared: Vec<NotComparedEntry>,
    /// When each unresolved drift was first seen, by `logicalId/path`
    /// (carried over from the previous document, so it survives rechecks).
    #[serde(default)]
    pub drift_since_ms: BTreeMap<String, u64>,
    /// Who made the unresolved drift: actor -> drifted properties (events
    /// that named no caller count as `unknown`).
    #[serde(default)]
    pub actors: BTreeMap<String, usize>,
}

/// One resource not compared.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NotComparedEntry {
    /// Logical id.
    pub logical_id: String,
    /// Resource type.
    pub resource_type: String,
    /// Why (the reason's phrase).
    pub reason: String,
}

impl StackStatus {
    /// The oldest unresolved drift's first-seen time.
    pub fn oldest_drift_ms(&self) -> Option<u64> {
        self.drift_since_ms.values().min().copied()
    }
}

/// The key of a stack's status document.
pub fn status_key(account: &str, region: &str, stack: &str) -> String {
    format!("{ORG_PREFIX}{account}/{region}/{stack}.json")
}

/// The name an actor is counted under: its ARN, else its user name, else
/// the service that called, else `unknown` (never guessed).
pub fn actor_name(actor: Option<&Actor>) -> String {
    actor
        .and_then(|a| {
            a.arn
                .clone()
                .or_else(|| a.user_name.clone())
                .or_else(|| a.invoked_by.clone())
        })
        .unwrap_or_else(|| "unknown".to_string())
}

/// Builds the status of a checked stack from its report, its unresolved
/// drift set (the stored state's) and its previous document.
pub fn stack_status(
    report: &StackReport,
    account: &str,
    drift: &[DriftEntry],
    previous: Option<&StackStatus>,
    now_ms: u64,
) -> StackStatus {
    let mut since = BTreeMap::new();
    let mut actors: BTreeMap<String, usize> = BTreeMap::new();
    for d in drift {
        let key = format!("{}/{}", d.finding.logical_id, d.finding.path);
        let first = previous
            .and_then(|p| p.drift_since_ms.get(&key))
            .copied()
            .unwrap_or(now_ms);
        since.insert(key, first);
        let who = actor_name(d.finding.cause.as_ref().map(|c| &c.actor));
        *actors.entry(who).or_default() += 1;
    }
    StackStatus {
        schema: ORG_STATUS_SCHEMA.to_string(),
        account_id: account.to_string(),
        region: report.region.clone(),
        stack: report.stack.clone(),
        checked_at_ms: now_ms,
        drift: drift.len(),
        compared: report.coverage.checked,
        total: report.coverage.total,
        not_compared: report
            .not_compared
            .iter()
            .map(|n| NotComparedEntry {
                logical_id: n.logical_id.clone(),
                resource_type: n.resource_type.clone(),
                reason: n.reason.phrase().to_string(),
            })
            .collect(),
        drift_since_ms: since,
        actors,
    }
}

/// Why a status document was not read.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{0}")]
pub struct StatusError(pub String);

/// Parses a status document; another schema is an error, not a guess.
pub fn parse_status(text: &str) -> Result<StackStatus, StatusError> {
    let s: StackStatus = serde_json::from_str(text)
        .map_err(|e| StatusError(format!("not a status document: {e}")))?;
    if s.schema != ORG_STATUS_SCHEMA {
        return Err(StatusError(format!(
            "schema {:?}, expected {ORG_STATUS_SCHEMA}",
            s.schema
        )));
    }
    Ok(s)
}
