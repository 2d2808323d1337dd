//! The hub function's handler, callable directly in tests with in-memory
//! notifiers, names and stores.
//!
//! ```text
//! SQS batch (findings-bus events) --deliver--> topic (required) + Slack (optional)
//!   a topic failure retries that message (partial batch failure);
//!   an event that is not a transition is logged, counted and dropped
//! {"realdrift": "summary"} --summarize--> org/summary.html + topic + Slack
//! ```

mod batch;
mod build;
mod names;

pub use batch::{handle_batch, now_ms};
pub use build::Hub;
pub use names::{account_names, ACCOUNT_NAMES_VAR};

use anyhow::Context;
use aws_lambda_events::event::sqs::SqsEvent;
use realdrift_core::hub::summarize;
use realdrift_lambda::Metrics;
use serde_json::{json, Value};

/// The schedule's input: `{"realdrift": "summary"}`.
pub const SUMMARY_INPUT: &str = "summary";

/// Handles one invocation: an SQS batch, or the scheduled summary.
pub async fn handle(hub: &Hub, event: Value) -> anyhow::Result<Value> {
    if event.get("Records").is_some() {
        let batch: SqsEvent = serde_json::from_value(event).context("an SQS event")?;
        let response = handle_batch(&hub.channels, &hub.names, batch).await;
        return serde_json::to_value(response).context("encoding the batch response");
    }
    if event.get("realdrift").and_then(Value::as_str) == Some(SUMMARY_INPUT) {
        return summary(hub).await;
    }
    anyhow::bail!("unknown event: neither an SQS batch nor {{\"realdrift\": \"summary\"}}")
}

/// Writes the summary page, then announces it (topic required, Slack optional).
async fn summary(hub: &Hub) -> anyhow::Result<Value> {
    let s = summarize(&hub.bucket, &hub.bucket_name)
        .await
        .with_context(|| format!("the Organization view of s3://{}/org/", hub.bucket_name))?;
    hub.channels
        .topic
        .send(&s.notice)
        .await
        .context("publishing the summary")?;
    if let Some(slack) = &hub.channels.slack {
        if let Err(e) = slack.send(&s.notice).await {
            tracing::warn!(channel = e.channel, error = %e.message, "summary not posted to an optional channel");
        }
    }
    let mut m = Metrics::new("hub");
    m.count("SummaryStacks", s.view.stacks().count() as u64)
        .count("SummaryUnreadable", s.view.errors.len() as u64);
    m.emit();
    tracing::info!(subject = %s.notice.subject, "summary published");
    Ok(json!({"summary": realdrift_core::hub::SUMMARY_KEY, "subject": s.notice.subject}))
}
