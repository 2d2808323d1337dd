//! Status documents in a store: a member writes its stack's document after
//! each check; the hub's report reads them all.

use super::model::StackReport;
use super::org_status::{parse_status, stack_status, status_key, StackStatus, ORG_PREFIX};
use super::org_view::StatusEntry;
use crate::baseline::{BaselineStore, Precondition, StoreError};
use crate::watch::DriftEntry;

/// Writes `report`'s status document, keeping each unresolved drift's
/// first-seen time from the previous document (an unreadable previous
/// document starts the times afresh: they then say "seen since now").
pub async fn write_status(
    store: &dyn BaselineStore,
    report: &StackReport,
    account: &str,
    drift: &[DriftEntry],
    now_ms: u64,
) -> Result<StackStatus, StoreError> {
    let key = status_key(account, &report.region, &report.stack);
    let previous = store
        .load(&key)
        .await?
        .and_then(|s| parse_status(&s.text).ok());
    let status = stack_status(report, account, drift, previous.as_ref(), now_ms);
    let text = serde_json::to_string(&status)
        .map_err(|e| StoreError::io(&key, format!("encoding the status: {e}")))?;
    store.save(&key, &text, Precondition::None).await?;
    Ok(status)
}

/// Removes a gone stack's status document.
pub async fn forget_status(
    store: &dyn BaselineStore,
    account: &str,
    region: &str,
    stack: &str,
) -> Result<(), StoreError> {
    store.delete(&status_key(account, region, stack)).await
}

/// Reads every status document under `org/`. A listing failure fails the
/// whole read; a document that cannot be read or parsed is an error entry
/// naming its key, and the others go on.
pub async fn read_statuses(store: &dyn BaselineStore) -> Result<Vec<StatusEntry>, StoreError> {
    let keys = store.list(ORG_PREFIX).await?;
    let mut out = Vec::new();
    for key in keys.into_iter().filter(|k| k.ends_with(".json")) {
        let status = match store.load(&key).await {
            Ok(Some(s)) => parse_status(&s.text).map_err(|e| e.to_string()),
            Ok(None) => Err("listed, then gone".to_string()),
            Err(e) => Err(crate::pipeline::error_chain(&e)),
        };
        out.push(StatusEntry { key, status });
    }
    Ok(out)
}
