//! Storms in the on-change function (the logic is `realdrift_core::watch`'s
//! storm module): a flush message puts its stack into the batch's work
//! with nothing to read, and a stack whose state is left with an open
//! storm gets a flush message on the change queue, delayed until the storm
//! would close. A flush that arrives while changes kept coming finds the
//! storm still open and schedules the next one, so a storm is announced
//! a window after its last change, never later than the next scan.

use super::deadline::now_ms;
use super::locate::Located;
use super::watcher::Watcher;
use realdrift_core::watch::{flush_delay_seconds, FlushMessage, Update};
use realdrift_lambda::Metrics;
use std::collections::BTreeSet;

/// Adds the stacks of the batch's flush messages to `located` (a stack
/// already there keeps its touched resources; the message joins its
/// messages). Returns the flush messages to retry (scope unknown).
pub async fn add_flushes(
    w: &Watcher,
    flushes: &[(Option<String>, String)],
    located: &mut Located,
) -> BTreeSet<String> {
    let mut failed = BTreeSet::new();
    for (id, stack) in flushes {
        match w.in_scope_by_root(stack).await {
            Ok(true) => {
                let work = located.stacks.entry(stack.clone()).or_default();
                work.messages.extend(id.iter().cloned());
            }
            Ok(false) => {
                tracing::warn!(stack = %stack, reason = "stack not in scope", "flush message dropped");
            }
            Err(e) => {
                tracing::error!(stack = %stack, error = %e, "flush message retried: scope unknown");
                failed.extend(id.iter().cloned());
            }
        }
    }
    if !flushes.is_empty() {
        let mut m = Metrics::new("on-change");
        m.count("StormFlushesReceived", flushes.len() as u64);
        m.emit();
    }
    failed
}

/// Sends the delayed flush of the storm `update` left open in `stack`'s
/// state. Nothing to do without a change queue, without an open storm, or
/// for a stack that is not settled (its next check after it settles, the
/// scan's, closes the storm: a flush could not, and would come back every
/// window).
pub async fn schedule_flush(w: &Watcher, stack: &str, update: &Update) -> Result<(), String> {
    let Some(queue) = &w.flushes else {
        return Ok(());
    };
    let state = &update.step.state;
    if state.not_checked.is_some() {
        return Ok(());
    }
    let Some(closes) = state
        .storm
        .as_ref()
        .and_then(|s| s.closes_at_ms(w.storm.window_ms))
    else {
        return Ok(());
    };
    let delay = flush_delay_seconds(closes, now_ms());
    queue
        .send_flush(&FlushMessage::for_stack(stack), delay)
        .await?;
    tracing::info!(stack = %stack, delay_seconds = delay, "storm held; flush scheduled");
    let mut m = Metrics::new("on-change");
    m.count("StormFlushesSent", 1);
    m.emit();
    Ok(())
}
