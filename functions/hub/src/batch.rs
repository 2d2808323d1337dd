//! One SQS batch of findings-bus events: each published to the topic on its
//! own, then one Slack message for the batch (the alert itself when it is
//! alone, else a digest with a line each); a topic failure retries only that message
//! (partial batch failure; after the queue's receive limit it goes to the
//! dead-letter queue); a body that is not a transition is logged, counted
//! and dropped.

use aws_lambda_events::event::sqs::{SqsBatchResponse, SqsEvent};
use realdrift_core::hub::{post_batch_to_slack, publish, AccountNames, DeliveryError, HubChannels};
use realdrift_lambda::Metrics;
use serde_json::Value;

/// Milliseconds since the Unix epoch (the name cache's clock).
pub fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

#[derive(Default)]
struct Counts {
    delivered: u64,
    unnamed: u64,
    malformed: u64,
    failed: u64,
    slack_failed: u64,
}

/// Delivers a batch; returns the messages to retry. Every event goes to the
/// topic first, then one Slack post for the batch: Slack is paced to one
/// post a second, and neither the topic's alerts nor the next batch may
/// wait behind a post per event.
pub async fn handle_batch(
    channels: &HubChannels,
    names: &AccountNames,
    event: SqsEvent,
) -> SqsBatchResponse {
    let mut response = SqsBatchResponse::default();
    let mut n = Counts::default();
    let mut published = Vec::new();
    for record in event.records {
        // A message without an id cannot be named: an empty id fails the
        // whole batch, so nothing is lost.
        let id = record.message_id.clone().unwrap_or_default();
        let body = record
            .body
            .as_deref()
            .and_then(|b| serde_json::from_str::<Value>(b).ok());
        let Some(body) = body else {
            tracing::warn!(message = %id, reason = "body is not JSON", "event dropped");
            n.malformed += 1;
            continue;
        };
        match publish(channels, names, &body, now_ms()).await {
            Ok(p) => published.push(p),
            Err(DeliveryError::Malformed(e)) => {
                tracing::warn!(message = %id, reason = %e, "event dropped");
                n.malformed += 1;
            }
            Err(DeliveryError::Topic(e)) => {
                tracing::error!(message = %id, error = %e, "alert not published; the message is retried");
                n.failed += 1;
                response.add_failure(id);
            }
        }
    }
    for d in post_batch_to_slack(channels, published).await {
        tracing::info!(account = %d.account, kind = %d.kind, named = d.named, "alert delivered");
        n.delivered += 1;
        n.unnamed += u64::from(!d.named);
        if let Some(e) = d.slack_error {
            tracing::warn!(account = %d.account, channel = e.channel, error = %e.message, "alert not delivered to an optional channel");
            n.slack_failed += 1;
        }
    }
    let mut m = Metrics::new("hub");
    m.count("AlertsDelivered", n.delivered)
        .count("AlertsUnnamed", n.unnamed)
        .count("MalformedMessages", n.malformed)
        .count("DeliveryFailures", n.failed)
        .count("SlackFailures", n.slack_failed);
    m.emit();
    response
}
