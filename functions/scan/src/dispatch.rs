//! The scheduled event: discover the stacks in scope and send one work
//! message per stack, in batches.

use super::scanner::Scanner;
use anyhow::{anyhow, Context as _};
use realdrift_core::pipeline::{discover_stacks, GatherFailure};
use realdrift_core::watch::{WorkMessage, MAX_BATCH};
use realdrift_lambda::Metrics;
use serde_json::{json, Value};

/// Discovers the stacks in scope and queues them. Fails when discovery or
/// the queue fails (EventBridge retries the event).
pub async fn dispatch(s: &Scanner) -> anyhow::Result<Value> {
    let queue = s
        .queue
        .as_ref()
        .ok_or_else(|| anyhow!("REALDRIFT_SCAN_QUEUE_URL is not set: cannot dispatch"))?;
    let found = discover_stacks(s.pipeline.stack_source().as_ref(), &s.stacks)
        .await
        .context("discovering stacks")?;
    let unavailable: Vec<String> = found
        .unavailable
        .iter()
        .map(|u| GatherFailure::from(u.clone()).to_string())
        .collect();
    for why in &unavailable {
        tracing::warn!(error = %why, "stack in scope not dispatched");
    }
    let messages: Vec<WorkMessage> = found.stacks.iter().map(|n| WorkMessage::stack(n)).collect();
    let mut failed = Vec::new();
    for chunk in messages.chunks(MAX_BATCH) {
        let refused = queue.send_batch(chunk).await.map_err(|e| anyhow!(e))?;
        for (m, why) in refused {
            tracing::error!(stack = %m.stack, error = %why, "work message not queued");
            failed.push(m.stack);
        }
    }
    let mut metrics = Metrics::new("scan");
    metrics
        .count("StacksDispatched", (messages.len() - failed.len()) as u64)
        .count("DispatchFailures", failed.len() as u64);
    metrics.emit();
    tracing::info!(stacks = messages.len(), failed = failed.len(), "dispatched");
    if !failed.is_empty() {
        anyhow::bail!(
            "{} work messages were not queued: {}",
            failed.len(),
            failed.join(", ")
        );
    }
    Ok(json!({"dispatched": found.stacks, "unavailable": unavailable}))
}
