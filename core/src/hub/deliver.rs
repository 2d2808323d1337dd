//! One findings-bus event delivered at the hub: parsed, named, published to
//! the hub's topic (required: a failure retries the message) and posted to
//! Slack (optional, as for members: a failure is reported, not retried,
//! since a retry would publish to the topic a second time).

use super::names::AccountNames;
use crate::notify::{Notice, Notifier, NotifyError};
use crate::report::{hub_notice, hub_slack_digest, parse_transition, NotATransition};
use serde_json::Value;
use std::sync::Arc;

/// Where the hub delivers.
pub struct HubChannels {
    /// The hub's alert topic (required).
    pub topic: Arc<dyn Notifier>,
    /// Slack (optional), when a secret is configured.
    pub slack: Option<Arc<dyn Notifier>>,
}

/// What one delivery did.
#[derive(Debug, Clone, PartialEq)]
pub struct Delivered {
    /// The account the event came from.
    pub account: String,
    /// Whether a name was found for it.
    pub named: bool,
    /// The transition kind.
    pub kind: String,
    /// Slack's failure, when the post failed (the topic got the alert).
    pub slack_error: Option<NotifyError>,
}

/// Why an event was not delivered.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum DeliveryError {
    /// Not a realdrift transition: retrying cannot help; dropped.
    #[error(transparent)]
    Malformed(#[from] NotATransition),
    /// The topic refused it: the message is retried.
    #[error(transparent)]
    Topic(NotifyError),
}

/// One event published to the topic, its Slack post still to make.
pub struct Published {
    /// The notice the topic got.
    pub notice: Notice,
    /// The account the event came from.
    pub account: String,
    /// Whether a name was found for it.
    pub named: bool,
}

/// Publishes one findings-bus event (the SQS message body, parsed) to the topic.
pub async fn publish(
    channels: &HubChannels,
    names: &AccountNames,
    event: &Value,
    now_ms: u64,
) -> Result<Published, DeliveryError> {
    let t = parse_transition(event)?;
    let name = names.name(&t.account, now_ms).await;
    let notice = hub_notice(&t, name.as_deref());
    channels
        .topic
        .send(&notice)
        .await
        .map_err(DeliveryError::Topic)?;
    Ok(Published {
        notice,
        account: t.account,
        named: name.is_some(),
    })
}

/// Posts a published event to Slack (when configured): its failure, if any.
pub async fn post_to_slack(channels: &HubChannels, p: Published) -> Delivered {
    let slack_error = match &channels.slack {
        Some(s) => s.send(&p.notice).await.err(),
        None => None,
    };
    Delivered {
        account: p.account,
        named: p.named,
        kind: p.notice.kind,
        slack_error,
    }
}

/// Posts a batch's published events to Slack: one alone as its own
/// message, several as one digest (Slack takes about one message a second
/// per webhook; the topic has each alert). Each delivery carries the
/// digest's failure, if any.
pub async fn post_batch_to_slack(channels: &HubChannels, batch: Vec<Published>) -> Vec<Delivered> {
    if batch.len() < 2 {
        let mut out = Vec::with_capacity(batch.len());
        for p in batch {
            out.push(post_to_slack(channels, p).await);
        }
        return out;
    }
    let notices: Vec<Notice> = batch.iter().map(|p| p.notice.clone()).collect();
    let slack_error = match (&channels.slack, hub_slack_digest(&notices)) {
        (Some(s), Some(digest)) => s.send(&digest).await.err(),
        _ => None,
    };
    batch
        .into_iter()
        .map(|p| Delivered {
            account: p.account,
            named: p.named,
            kind: p.notice.kind,
            slack_error: slack_error.clone(),
        })
        .collect()
}

/// Delivers one findings-bus event: the topic, then Slack.
pub async fn deliver(
    channels: &HubChannels,
    names: &AccountNames,
    event: &Value,
    now_ms: u64,
) -> Result<Delivered, DeliveryError> {
    let p = publish(channels, names, event, now_ms).await?;
    Ok(post_to_slack(channels, p).await)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notify::MemoryNotifier;
    use serde_json::json;
    use std::collections::BTreeMap;

    fn event() -> Value {
        json!({"account": "111111111111", "detail": {"version": 1, "kind": "drift-resolved",
               "account": "111111111111", "region": "us-east-1", "stack": "App",
               "summary": {"drift": 0, "potentialDrift": 0}, "findings": []}})
    }

    fn run<F: std::future::Future>(f: F) -> F::Output {
        futures_executor::block_on(f)
    }

    #[test]
    fn a_failed_topic_fails_the_delivery_and_a_failed_slack_does_not() {
        let names = AccountNames::new(BTreeMap::new(), None);
        let failing = HubChannels {
            topic: Arc::new(MemoryNotifier::failing("sns", "throttled")),
            slack: None,
        };
        assert!(matches!(
            run(deliver(&failing, &names, &event(), 0)),
            Err(DeliveryError::Topic(_))
        ));
        let topic = Arc::new(MemoryNotifier::new("sns"));
        let slack_down = HubChannels {
            topic: topic.clone(),
            slack: Some(Arc::new(MemoryNotifier::failing("slack", "HTTP 500"))),
        };
        let d = run(deliver(&slack_down, &names, &event(), 0)).unwrap();
        assert_eq!(topic.sent().len(), 1);
        assert!(d.slack_error.is_some());
        assert!(!d.named);
    }

    #[test]
    fn an_event_that_is_not_a_transition_is_malformed() {
        let names = AccountNames::new(BTreeMap::new(), None);
        let topic = Arc::new(MemoryNotifier::new("sns"));
        let ch = HubChannels {
            topic: topic.clone(),
            slack: None,
        };
        let r = run(deliver(&ch, &names, &json!({"hello": 1}), 0));
        assert!(matches!(r, Err(DeliveryError::Malformed(_))));
        assert!(topic.sent().is_empty());
    }
}
