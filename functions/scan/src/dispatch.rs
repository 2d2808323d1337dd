//! The scheduled event: discover the stacks in scope and send one work
//! message per stack, in batches.

use super::scanner::Scanner;
use anyhow::{anyhow, Context as _};
use realdrift_core::pipeline::error_chain;
use realdrift_core::pipeline::{discover_stacks, GatherFailure};
use realdrift_core::watch::{
    is_in_flight, mark_in_flight, prune_indexes, stacks_with_state, WorkMessage, MAX_BATCH,
};
use realdrift_lambda::Metrics;
use serde_json::{json, Value};
use std::collections::BTreeSet;

/// Stacks that had a state file and are no longer listed (queued so the
/// worker announces them gone once and removes their state), after the
/// index rows of every stack no longer listed were pruned. Failures are
/// logged: the next dispatch tries again, and the scan goes on.
async fn gone_stacks(s: &Scanner) -> Vec<String> {
    let listed: BTreeSet<String> = match s.pipeline.stack_source().list_stacks().await {
        Ok(l) => l.into_iter().map(|x| x.name).collect(),
        Err(e) => {
            tracing::warn!(error = %e, "stacks not listed: nothing pruned");
            return Vec::new();
        }
    };
    let keep = |stack: &str| listed.contains(stack);
    match prune_indexes(s.bucket.as_ref(), s.catalog, &s.region, &keep).await {
        Ok(removed) if !removed.is_empty() => {
            tracing::info!(stacks = ?removed, "index rows of stacks no longer listed removed")
        }
        Ok(_) => {}
        Err(e) => tracing::warn!(error = %error_chain(&e), "resource index not pruned"),
    }
    match stacks_with_state(s.bucket.as_ref(), &s.region).await {
        Ok(with_state) => with_state.into_iter().filter(|n| !keep(n)).collect(),
        Err(e) => {
            tracing::warn!(error = %error_chain(&e), "state files not listed");
            Vec::new()
        }
    }
}

/// Splits `stacks` into those to queue and those whose previous message
/// is still in flight (a marker younger than the visibility timeout).
async fn not_in_flight(s: &Scanner, stacks: &[String], now_ms: u64) -> (Vec<String>, Vec<String>) {
    let mut queue = Vec::new();
    let mut held = Vec::new();
    for stack in stacks {
        if s.inflight_ttl_ms.is_some()
            && is_in_flight(s.bucket.as_ref(), &s.region, stack, now_ms).await
        {
            held.push(stack.clone());
        } else {
            queue.push(stack.clone());
        }
    }
    (queue, held)
}

/// Marks the queued stacks in flight; a failure is logged (the stack may
/// then be queued again by the next dispatch, which is harmless).
async fn mark_all(s: &Scanner, stacks: &[String], now_ms: u64) {
    let Some(ttl) = s.inflight_ttl_ms else {
        return;
    };
    for stack in stacks {
        if let Err(e) = mark_in_flight(s.bucket.as_ref(), &s.region, stack, now_ms, ttl).await {
            tracing::warn!(stack = %stack, error = %e, "in-flight marker not written");
        }
    }
}

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
    let gone = gone_stacks(s).await;
    let now = crate::deadline::now_ms();
    let (to_queue, in_flight) = not_in_flight(s, &found.stacks, now).await;
    for stack in &in_flight {
        tracing::info!(stack = %stack, "previous scan message still in flight; not queued again");
    }
    let messages: Vec<WorkMessage> = to_queue
        .iter()
        .chain(gone.iter().filter(|g| !found.stacks.contains(g)))
        .map(|n| WorkMessage::stack(n))
        .collect();
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
        .count("DispatchFailures", failed.len() as u64)
        .count("GoneStacksQueued", gone.len() as u64)
        .count("StacksInFlight", in_flight.len() as u64);
    metrics.emit();
    tracing::info!(stacks = messages.len(), failed = failed.len(), "dispatched");
    if !failed.is_empty() {
        anyhow::bail!(
            "{} work messages were not queued: {}",
            failed.len(),
            failed.join(", ")
        );
    }
    mark_all(s, &to_queue, now).await;
    Ok(
        json!({"dispatched": to_queue, "gone": gone, "inFlight": in_flight, "unavailable": unavailable}),
    )
}
