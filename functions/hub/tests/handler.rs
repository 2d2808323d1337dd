//! The hub's batch handler called directly with SQS batches of findings-bus
//! events (the envelope EventBridge delivers, `detail` = a member's SNS
//! document), over in-memory notifiers: one alert per transition naming the
//! account, dropped bodies that are not transitions, and a retry of only
//! the messages the topic refused.
//!
//! This file is also what makes `cargo test --workspace --no-run` build the
//! `realdrift-hub` binary that the end-to-end suite runs in the local
//! Lambda runtime (cargo builds a package's binaries for its integration
//! tests only).

use aws_lambda_events::event::sqs::{SqsEvent, SqsMessage};
use futures_util::future::{BoxFuture, FutureExt};
use realdrift_core::hub::{AccountNames, HubChannels};
use realdrift_core::notify::{MemoryNotifier, Notice, Notifier, NotifyError};
use realdrift_hub::handle_batch;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

const MEMBER: &str = "222222222222";

/// A member's drift-detected event as the findings bus delivers it.
fn transition(stack: &str) -> Value {
    json!({
        "version": "0", "id": "6a7e8feb-b491-4cf7-a9f1-bf3703467718",
        "detail-type": "realdrift drift transition", "source": "realdrift",
        "account": MEMBER, "time": "2026-12-07T06:00:00Z", "region": "eu-west-1",
        "resources": [],
        "detail": {
            "version": 1, "kind": "drift-detected", "account": MEMBER,
            "region": "eu-west-1", "stack": stack,
            "summary": {"drift": 1, "potentialDrift": 0},
            "findings": [{
                "logicalId": "WorkQueue", "type": "AWS::SQS::Queue",
                "physicalId": "https://sqs.eu-west-1.amazonaws.com/222222222222/work",
                "path": "/VisibilityTimeout", "tier": "drift",
                "expected": 30, "actual": 45
            }]
        }
    })
}

fn message(id: &str, body: &str) -> SqsMessage {
    let mut m = SqsMessage::default();
    m.message_id = Some(id.to_string());
    m.body = Some(body.to_string());
    m
}

fn batch(messages: Vec<SqsMessage>) -> SqsEvent {
    let mut e = SqsEvent::default();
    e.records = messages;
    e
}

fn names() -> AccountNames {
    let overrides = BTreeMap::from([(MEMBER.to_string(), "payments-prod".to_string())]);
    AccountNames::new(overrides, None)
}

#[tokio::test]
async fn each_transition_is_one_named_alert_and_other_bodies_are_dropped() {
    let topic = Arc::new(MemoryNotifier::new("sns"));
    let slack = Arc::new(MemoryNotifier::new("slack"));
    let channels = HubChannels {
        topic: topic.clone(),
        slack: Some(slack.clone()),
    };
    let event = batch(vec![
        message("m1", &transition("Payments").to_string()),
        message("m2", "not json {"),
        message("m3", &json!({"detail-type": "something else"}).to_string()),
        message("m4", &transition("Ledger").to_string()),
    ]);
    let response = handle_batch(&channels, &names(), event).await;

    assert!(response.batch_item_failures.is_empty(), "nothing to retry");
    let sent = topic.sent();
    let subjects: Vec<&str> = sent.iter().map(|n| n.subject.as_str()).collect();
    assert_eq!(subjects.len(), 2, "{subjects:?}");
    assert!(subjects[0].contains("Payments") && subjects[0].contains("payments-prod"));
    assert!(subjects[1].contains("Ledger") && subjects[1].contains("payments-prod"));
    assert!(sent.iter().all(|n| n.kind == "drift-detected"));
    let posted = slack.sent();
    assert_eq!(posted.len(), 1, "one Slack message for the batch");
    let digest = posted[0].slack.to_string();
    assert!(digest.contains("realdrift: 2 alerts"), "{digest}");
    assert!(
        digest.contains("Payments") && digest.contains("Ledger"),
        "{digest}"
    );
}

#[tokio::test]
async fn a_lone_alert_is_posted_to_slack_as_itself() {
    let slack = Arc::new(MemoryNotifier::new("slack"));
    let channels = HubChannels {
        topic: Arc::new(MemoryNotifier::new("sns")),
        slack: Some(slack.clone()),
    };
    let event = batch(vec![message("m1", &transition("Payments").to_string())]);
    handle_batch(&channels, &names(), event).await;
    let posted = slack.sent();
    assert_eq!(posted.len(), 1);
    assert_eq!(posted[0].kind, "drift-detected");
    let text = posted[0].slack.to_string();
    assert!(text.contains("payments-prod (222222222222)"), "{text}");
    assert!(!text.contains("alerts"), "not a digest: {text}");
}

#[tokio::test]
async fn a_refused_publish_retries_only_the_transitions() {
    let channels = HubChannels {
        topic: Arc::new(MemoryNotifier::failing("sns", "Throttling")),
        slack: None,
    };
    let event = batch(vec![
        message("m1", &transition("Payments").to_string()),
        message("m2", "not json {"),
        message("m3", &transition("Ledger").to_string()),
    ]);
    let response = handle_batch(&channels, &names(), event).await;

    let retried: Vec<&str> = response
        .batch_item_failures
        .iter()
        .map(|f| f.item_identifier.as_str())
        .collect();
    assert_eq!(retried, ["m1", "m3"], "the malformed body is not retried");
}

#[tokio::test]
async fn a_failed_slack_post_does_not_retry_the_message() {
    let topic = Arc::new(MemoryNotifier::new("sns"));
    let channels = HubChannels {
        topic: topic.clone(),
        slack: Some(Arc::new(MemoryNotifier::failing("slack", "HTTP 500"))),
    };
    let event = batch(vec![message("m1", &transition("Payments").to_string())]);
    let response = handle_batch(&channels, &names(), event).await;

    assert!(
        response.batch_item_failures.is_empty(),
        "a retry would publish to the topic twice"
    );
    assert_eq!(topic.sent().len(), 1);
}

/// Records `channel: subject` of every send into a log shared by channels.
struct Ordered {
    channel: &'static str,
    log: Arc<Mutex<Vec<String>>>,
}

impl Notifier for Ordered {
    fn channel(&self) -> &'static str {
        self.channel
    }

    fn send<'a>(&'a self, notice: &'a Notice) -> BoxFuture<'a, Result<(), NotifyError>> {
        let form = if self.channel == "slack" {
            notice.slack.to_string()
        } else {
            notice.subject.clone()
        };
        let stacks: Vec<&str> = ["Payments", "Ledger"]
            .into_iter()
            .filter(|s| form.contains(s))
            .collect();
        if let Ok(mut log) = self.log.lock() {
            log.push(format!("{}:{}", self.channel, stacks.join("+")));
        }
        async { Ok(()) }.boxed()
    }
}

#[tokio::test]
async fn the_topic_gets_every_alert_of_a_batch_before_slack_is_posted() {
    // Slack is paced to one post a second: the topic must not wait behind
    // it, and the batch is one post.
    let log = Arc::new(Mutex::new(Vec::new()));
    let channels = HubChannels {
        topic: Arc::new(Ordered {
            channel: "sns",
            log: log.clone(),
        }),
        slack: Some(Arc::new(Ordered {
            channel: "slack",
            log: log.clone(),
        })),
    };
    let event = batch(vec![
        message("m1", &transition("Payments").to_string()),
        message("m2", &transition("Ledger").to_string()),
    ]);
    handle_batch(&channels, &names(), event).await;
    let got = log.lock().map(|l| l.clone()).unwrap_or_default();
    assert_eq!(got, ["sns:Payments", "sns:Ledger", "slack:Payments+Ledger"]);
}
