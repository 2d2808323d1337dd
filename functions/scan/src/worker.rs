//! The work queue's messages: one stack each, one after another, until the
//! deadline gets close; failures are reported per message so only those
//! are retried. What was not started is sent again as new messages and
//! acknowledged: SQS counts every receive toward the queue's
//! maxReceiveCount (changing a message's visibility does not undo one), so
//! leaving it on the queue as a failure would walk a healthy stack toward
//! the dead-letter queue on every busy run.

use super::deadline::Invocation;
use super::scanner::Scanner;
use super::stack::scan_stack;
use aws_lambda_events::event::sqs::{SqsBatchResponse, SqsEvent, SqsMessage};
use realdrift_core::pipeline::{error_chain, load_ignores};
use realdrift_core::watch::{clear_in_flight, WorkMessage, MAX_BATCH};
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
            let rest = &event.records[i..];
            tracing::warn!(
                left = rest.len(),
                remaining_ms = inv.remaining().as_millis() as u64,
                deadline_ms = inv.deadline_ms,
                "deadline close: sending the rest again as new messages"
            );
            metrics.count("WorkDeferred", rest.len() as u64);
            for id in defer(s, rest).await {
                fail(&Some(id));
            }
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
            // Retried: the message is still in flight, so is its marker.
            fail(&record.message_id);
        } else if s.inflight_ttl_ms.is_some() {
            if let Err(e) = clear_in_flight(s.bucket.as_ref(), &s.region, &msg.stack).await {
                tracing::warn!(stack = %msg.stack, error = %e, "in-flight marker not removed; it expires by itself");
            }
        }
    }
    metrics.emit();
    failures
}

/// Sends the work of `records` again as new messages; returns the message
/// ids that could not be re-sent (left on the queue as failures instead).
async fn defer(s: &Scanner, records: &[SqsMessage]) -> Vec<String> {
    let id = |r: &SqsMessage| r.message_id.clone().unwrap_or_default();
    let Some(queue) = s.queue.as_ref() else {
        return records.iter().map(id).collect();
    };
    let mut work = Vec::new();
    for r in records {
        match WorkMessage::parse(r.body.as_deref().unwrap_or_default()) {
            Ok(m) => work.push((id(r), m)),
            // Dropped as it would be when its turn came.
            Err(e) => {
                tracing::error!(message_id = ?r.message_id, error = %e, "work message dropped")
            }
        }
    }
    let mut failed = Vec::new();
    for chunk in work.chunks(MAX_BATCH) {
        let messages: Vec<WorkMessage> = chunk.iter().map(|(_, m)| m.clone()).collect();
        match queue.send_batch(&messages).await {
            Ok(refused) => {
                for (m, why) in refused {
                    tracing::warn!(stack = %m.stack, error = %why, "deferred work not re-sent; left on the queue");
                    failed.extend(
                        chunk
                            .iter()
                            .filter(|(_, c)| *c == m)
                            .map(|(i, _)| i.clone()),
                    );
                }
            }
            Err(e) => {
                tracing::warn!(error = %e, "deferred work not re-sent; left on the queue");
                failed.extend(chunk.iter().map(|(i, _)| i.clone()));
            }
        }
    }
    failed
}
