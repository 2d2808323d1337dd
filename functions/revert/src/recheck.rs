//! After an applied revert, the stack is queued for a scan at once, so its
//! drift-resolved alert follows within seconds instead of at the next
//! scheduled scan. The scan worker announces it through the stack's state
//! (transition-only, outbox-claimed), exactly as for any other scan.

use crate::state::State;
use realdrift_core::watch::WorkMessage;

/// What became of the re-check of a reverted stack (the response's `recheck`).
pub async fn queue_recheck(state: &State, stack: &str) -> String {
    let Some(queue) = &state.recheck else {
        return "not queued: REALDRIFT_SCAN_QUEUE_URL is not set (the next scheduled scan re-checks)"
            .into();
    };
    let message = [WorkMessage::stack(stack)];
    match queue.send_batch(&message).await {
        Ok(refused) if refused.is_empty() => "queued".into(),
        Ok(refused) => {
            let why: Vec<&str> = refused.iter().map(|(_, why)| why.as_str()).collect();
            not_queued(stack, &why.join("; "))
        }
        Err(e) => not_queued(stack, &e),
    }
}

/// Logs and words a re-check the queue did not take (the revert stands).
fn not_queued(stack: &str, why: &str) -> String {
    tracing::warn!(stack = %stack, error = %why, "revert applied; its re-check was not queued");
    format!("not queued: {why} (the next scheduled scan re-checks)")
}
