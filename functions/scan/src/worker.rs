//! The work queue's messages: one stack each, one after another, until the
//! deadline gets close; failures are reported per message so only those
//! are retried, and what was not started stays on the queue.

use super::deadline::Invocation;
use super::scanner::Scanner;
use super::stack::scan_stack;
use aws_lambda_events::event::sqs::{SqsBatchResponse, SqsEvent};
use realdrift_core::pipeline::{error_chain, load_ignores};
use realdrift_core::watch::WorkMessage;
use realdrift_lambda::Metrics;
use std::time::{Duration, Instant};

/// Scans the batch's stacks; returns the messages to retry.
pub async fn work(s: &Scanner, event: SqsEvent, inv: &Invocation) -> SqsBatchResponse {
    let mut failures = SqsBatchResponse::default();
    let mut fail = |id: &Option<String>| {
        if let Some(id) = id {
            failures.add_failure(id.clone());
        }
    };
    let mut metrics = Metrics::new("scan");
    // The ignore rules are the same for every stack of the batch.
    let ignores = match load_ignores(s.baselines.as_ref(), &s.baselines_location).await {
        Ok(i) => i,
        Err(e) => {
            tracing::error!(error = %error_chain(&e), "ignore rules unreadable; the batch is retried");
            event.records.iter().for_each(|r| fail(&r.message_id));
            return failures;
        }
    };
    let mut longest = Duration::ZERO;
    for (i, record) in event.records.iter().enumerate() {
        if !inv.has_time_for(longest) {
            let left = event.records.len() - i;
            tracing::warn!(
                left,
                remaining_ms = inv.remaining().as_millis() as u64,
                deadline_ms = inv.deadline_ms,
                "deadline close: leaving the rest on the queue"
            );
            metrics.count("WorkDeferred", left as u64);
            event.records[i..].iter().for_each(|r| fail(&r.message_id));
            break;
        }
        let body = record.body.as_deref().unwrap_or_default();
        let msg = match WorkMessage::parse(body) {
            Ok(m) => m,
            Err(e) => {
                // Retrying cannot fix a body: drop it, say so, count it.
                tracing::error!(message_id = ?record.message_id, error = %e, "work message dropped");
                metrics.count("MalformedMessages", 1);
                continue;
            }
        };
        if let Some(r) = msg.region.as_deref().filter(|r| *r != s.region) {
            tracing::error!(stack = %msg.stack, region = r, function_region = %s.region, "work message for another region dropped");
            metrics.count("MalformedMessages", 1);
            continue;
        }
        let started = Instant::now();
        let outcome = scan_stack(s, &msg.stack, &ignores, inv).await;
        longest = longest.max(started.elapsed());
        if !outcome.failures.is_empty() {
            fail(&record.message_id);
        }
    }
    metrics.emit();
    failures
}
