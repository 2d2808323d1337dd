//! The notification channels: SNS publish (mocked SDK), the Slack webhook
//! client against a scripted local HTTP server (retries on 429 / 5xx
//! honouring Retry-After, immediate failure otherwise, the URL never in an
//! error), and the webhook URL read once from Secrets Manager.

mod aws_support;

use aws_sdk_secretsmanager::operation::get_secret_value::GetSecretValueOutput;
use aws_sdk_secretsmanager::Client as Secrets;
use aws_sdk_sns::operation::publish::PublishOutput;
use aws_sdk_sns::Client as Sns;
use aws_smithy_mocks::{mock, mock_client, RuleMode};
use realdrift_aws::notify::{
    Clock, RetryPolicy, SecretWebhookUrl, SlackWebhook, SnsNotifier, WebhookUrlSource,
};
use realdrift_core::notify::{Notice, Notifier};
use serde_json::json;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};
use std::time::Duration;

fn notice() -> Notice {
    Notice {
        kind: "drift-detected".into(),
        subject: "realdrift: drift detected in App (eu-west-1)".into(),
        document: r#"{"kind":"drift-detected","version":1}"#.into(),
        text: None,
        slack: json!({"text": "realdrift: drift detected in App", "blocks": []}),
    }
}

#[tokio::test]
async fn sns_publishes_the_subject_and_the_document() {
    let ok = mock!(Sns::publish)
        .match_requests(|r| {
            r.topic_arn() == Some("arn:aws:sns:eu-west-1:111111111111:alerts")
                && r.subject() == Some("realdrift: drift detected in App (eu-west-1)")
                && r.message() == Some(r#"{"kind":"drift-detected","version":1}"#)
        })
        .then_output(|| PublishOutput::builder().message_id("m").build());
    let client = mock_client!(aws_sdk_sns, RuleMode::MatchAny, [&ok]);
    let sns = SnsNotifier::new(client, "arn:aws:sns:eu-west-1:111111111111:alerts");
    sns.send(&notice()).await.unwrap();
    assert_eq!(ok.num_calls(), 1);

    let denied = mock!(Sns::publish).then_http_response(|| {
        aws_support::xml_error(403, "AuthorizationError", "not allowed to publish")
    });
    let client = mock_client!(aws_sdk_sns, RuleMode::MatchAny, [&denied]);
    let err = SnsNotifier::new(client, "arn:t")
        .send(&notice())
        .await
        .unwrap_err();
    assert_eq!(err.channel, "sns");
    assert!(
        err.message.contains("sns:Publish") && err.message.contains("AuthorizationError"),
        "{err}"
    );
}

#[tokio::test]
async fn sns_publishes_text_to_people_and_the_document_to_programs() {
    let doc = r#"{"kind":"drift-detected","version":1}"#;
    let per_protocol = mock!(Sns::publish)
        .match_requests(move |r| {
            let Some(m) = r.message() else { return false };
            let Ok(v) = serde_json::from_str::<serde_json::Value>(m) else {
                return false;
            };
            r.message_structure() == Some("json")
                && v["default"] == "What changed: Queue.VisibilityTimeout: 30 → 60"
                && v["email"] == v["default"]
                && ["sqs", "lambda", "http", "https", "email-json"]
                    .iter()
                    .all(|p| v[p] == doc)
        })
        .then_output(|| PublishOutput::builder().message_id("m").build());
    let client = mock_client!(aws_sdk_sns, RuleMode::MatchAny, [&per_protocol]);
    let sns = SnsNotifier::new(client, "arn:aws:sns:eu-west-1:111111111111:alerts");
    let mut n = notice();
    n.text = Some("What changed: Queue.VisibilityTimeout: 30 → 60".into());
    sns.send(&n).await.unwrap();
    assert_eq!(per_protocol.num_calls(), 1);
}

/// A local webhook answering the scripted `(status, extra header)` list in
/// order (200 once the script runs out); records each body.
struct Hook {
    url: String,
    bodies: Arc<Mutex<Vec<String>>>,
}

fn hook(script: Vec<(u16, &'static str)>) -> Hook {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!(
        "http://{}/services/T0/B0/secret-token",
        listener.local_addr().unwrap()
    );
    let bodies = Arc::new(Mutex::new(Vec::new()));
    let seen = bodies.clone();
    std::thread::spawn(move || {
        let mut script = script.into_iter();
        for conn in listener.incoming().flatten() {
            let mut reader = BufReader::new(conn.try_clone().unwrap());
            let mut length = 0;
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
                    break;
                }
                if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                    length = v.trim().parse().unwrap_or(0);
                }
            }
            let mut body = vec![0; length];
            let _ = reader.read_exact(&mut body);
            seen.lock()
                .unwrap()
                .push(String::from_utf8_lossy(&body).into_owned());
            let (status, header) = script.next().unwrap_or((200, ""));
            let mut c = conn;
            let _ = write!(
                c,
                "HTTP/1.1 {status} X\r\n{header}content-length: 2\r\nconnection: close\r\n\r\nno"
            );
        }
    });
    Hook { url, bodies }
}

fn quick() -> RetryPolicy {
    RetryPolicy {
        attempts: 3,
        backoff: Duration::from_millis(10),
        max_wait: Duration::from_secs(5),
        timeout: Duration::from_secs(5),
        min_interval: Duration::ZERO,
    }
}

fn slack(url: Option<String>) -> SlackWebhook {
    SlackWebhook::new(Arc::new(url), quick()).unwrap()
}

#[tokio::test]
async fn slack_retries_429_and_5xx_then_delivers() {
    let h = hook(vec![(429, "retry-after: 0\r\n"), (503, "")]);
    slack(Some(h.url.clone())).send(&notice()).await.unwrap();
    let bodies = h.bodies.lock().unwrap().clone();
    assert_eq!(bodies.len(), 3);
    let payload: serde_json::Value = serde_json::from_str(&bodies[2]).unwrap();
    assert_eq!(payload["text"], "realdrift: drift detected in App");
}

#[tokio::test]
async fn slack_gives_up_without_leaking_the_url() {
    let h = hook(vec![(500, ""), (500, ""), (500, "")]);
    let err = slack(Some(h.url.clone()))
        .send(&notice())
        .await
        .unwrap_err();
    assert!(
        err.message.contains("HTTP 500") && err.message.contains("3 attempts"),
        "{err}"
    );
    assert!(!err.message.contains("secret-token"), "{err}");

    let revoked = hook(vec![(404, "")]);
    let err = slack(Some(revoked.url.clone()))
        .send(&notice())
        .await
        .unwrap_err();
    assert!(err.message.contains("HTTP 404"), "{err}");
    assert_eq!(
        revoked.bodies.lock().unwrap().len(),
        1,
        "a 4xx is not retried"
    );

    let slow = hook(vec![(429, "retry-after: 3600\r\n")]);
    let err = slack(Some(slow.url.clone()))
        .send(&notice())
        .await
        .unwrap_err();
    assert!(err.message.contains("asked to wait 3600 s"), "{err}");

    // Nothing listening: a transport error, still without the URL.
    let closed = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    let url = format!("http://{closed}/services/T0/B0/secret-token");
    let err = slack(Some(url)).send(&notice()).await.unwrap_err();
    assert!(!err.message.contains("secret-token"), "{err}");
}

#[tokio::test]
async fn no_url_means_no_slack() {
    slack(None).send(&notice()).await.unwrap();
}

#[tokio::test]
async fn the_webhook_url_is_read_once_and_an_empty_secret_means_none() {
    let value = mock!(Secrets::get_secret_value)
        .match_requests(|r| r.secret_id() == Some("realdrift/slack"))
        .then_output(|| {
            GetSecretValueOutput::builder()
                .secret_string(" https://hooks.slack.com/services/T/B/X \n")
                .build()
        });
    let client = mock_client!(aws_sdk_secretsmanager, RuleMode::MatchAny, [&value]);
    let url = SecretWebhookUrl::new(client, "realdrift/slack");
    for _ in 0..3 {
        assert_eq!(
            url.url().await.unwrap().as_deref(),
            Some("https://hooks.slack.com/services/T/B/X")
        );
    }
    assert_eq!(value.num_calls(), 1, "once per container");

    let unset = mock!(Secrets::get_secret_value).then_http_response(|| {
        aws_support::json_error(400, "ResourceNotFoundException", "no current version")
    });
    let client = mock_client!(aws_sdk_secretsmanager, RuleMode::MatchAny, [&unset]);
    assert_eq!(
        SecretWebhookUrl::new(client, "s").url().await.unwrap(),
        None
    );

    let denied = mock!(Secrets::get_secret_value)
        .then_http_response(|| aws_support::json_error(400, "AccessDeniedException", "no"));
    let client = mock_client!(aws_sdk_secretsmanager, RuleMode::MatchAny, [&denied]);
    let err = SecretWebhookUrl::new(client, "s").url().await.unwrap_err();
    assert!(
        err.contains("secretsmanager:GetSecretValue s") && err.contains("AccessDenied"),
        "{err}"
    );
}

#[tokio::test]
async fn eventbridge_puts_the_document_on_the_hub_bus_and_a_refused_entry_fails() {
    use aws_sdk_eventbridge::operation::put_events::PutEventsOutput;
    use aws_sdk_eventbridge::types::PutEventsResultEntry;
    use aws_sdk_eventbridge::Client as Eb;
    use realdrift_aws::notify::EventBusNotifier;
    let bus = "arn:aws:events:us-east-1:999999999999:event-bus/realdrift-findings";
    let ok = mock!(Eb::put_events)
        .match_requests(move |r| {
            let e = &r.entries()[0];
            r.entries().len() == 1
                && e.event_bus_name() == Some(bus)
                && e.source() == Some("realdrift")
                && e.detail_type() == Some("realdrift drift transition")
                && e.detail() == Some(r#"{"kind":"drift-detected","version":1}"#)
        })
        .then_output(|| {
            PutEventsOutput::builder()
                .failed_entry_count(0)
                .entries(PutEventsResultEntry::builder().event_id("e1").build())
                .build()
        });
    let client = mock_client!(aws_sdk_eventbridge, RuleMode::MatchAny, [&ok]);
    let eb = EventBusNotifier::new(&client, bus).unwrap();
    eb.send(&notice()).await.unwrap();
    assert_eq!(ok.num_calls(), 1);

    // PutEvents answers 200 with the entry's error: still a failed delivery.
    let refused = mock!(Eb::put_events).then_output(|| {
        PutEventsOutput::builder()
            .failed_entry_count(1)
            .entries(
                PutEventsResultEntry::builder()
                    .error_code("AccessDeniedException")
                    .error_message("not in the organization")
                    .build(),
            )
            .build()
    });
    let client = mock_client!(aws_sdk_eventbridge, RuleMode::MatchAny, [&refused]);
    let err = EventBusNotifier::new(&client, bus)
        .unwrap()
        .send(&notice())
        .await
        .unwrap_err();
    assert_eq!(err.channel, "eventbridge");
    assert!(err.message.contains("AccessDeniedException"), "{err}");
    assert!(EventBusNotifier::new(&client, "realdrift-findings").is_none());
}

/// A clock that does not wait: it records each wait and moves on by it.
#[derive(Default)]
struct FakeClock {
    start: Option<std::time::Instant>,
    waits: Mutex<Vec<Duration>>,
}

impl FakeClock {
    fn new() -> Self {
        FakeClock {
            start: Some(std::time::Instant::now()),
            waits: Mutex::new(Vec::new()),
        }
    }
    fn waits(&self) -> Vec<Duration> {
        self.waits.lock().unwrap().clone()
    }
}

impl Clock for FakeClock {
    fn now(&self) -> std::time::Instant {
        let waited: Duration = self.waits.lock().unwrap().iter().sum();
        self.start.unwrap() + waited
    }
    fn sleep(&self, d: Duration) -> futures_util::future::BoxFuture<'_, ()> {
        self.waits.lock().unwrap().push(d);
        Box::pin(async {})
    }
}

/// Slack's limit for incoming webhooks is about one message per second
/// per channel: a 429 is retried after the Retry-After it names (here 2 s,
/// waited on the injected clock), and posts in a row are paced a second
/// apart; a Retry-After beyond the cap fails the delivery.
#[tokio::test]
async fn slack_honours_retry_after_and_paces_posts_a_second_apart() {
    let h = hook(vec![(429, "retry-after: 2\r\n")]);
    let clock = Arc::new(FakeClock::new());
    let policy = RetryPolicy {
        min_interval: Duration::from_secs(1),
        ..quick()
    };
    let hook_client = SlackWebhook::new(Arc::new(Some(h.url.clone())), policy)
        .unwrap()
        .with_clock(clock.clone());
    hook_client.send(&notice()).await.unwrap();
    assert_eq!(h.bodies.lock().unwrap().len(), 2, "the 429 was retried");
    assert_eq!(clock.waits(), [Duration::from_secs(2)], "Retry-After");
    // Right after (no time passed on the clock): waits for its slot.
    hook_client.send(&notice()).await.unwrap();
    hook_client.send(&notice()).await.unwrap();
    assert_eq!(
        clock.waits(),
        [
            Duration::from_secs(2),
            Duration::from_secs(1),
            Duration::from_secs(1)
        ]
    );
    assert_eq!(h.bodies.lock().unwrap().len(), 4);
}

/// A transition document as the functions publish it, with `n` drifted properties.
fn transition(kind: &str, n: usize) -> Notice {
    let findings: Vec<_> = (0..n)
        .map(|i| {
            json!({"tier": "undeclared", "logicalId": format!("Queue{i}"), "resourceType": "AWS::SQS::Queue",
                   "physicalId": format!("https://sqs.eu-west-1.amazonaws.com/111111111111/q{i}"),
                   "path": "VisibilityTimeout", "expected": "30", "actual": "45"})
        })
        .collect();
    let doc = json!({"version": 1, "kind": kind, "account": "111111111111", "region": "eu-west-1",
                     "stack": "Payments", "findings": findings});
    Notice {
        kind: kind.into(),
        document: doc.to_string(),
        ..notice()
    }
}

#[tokio::test]
async fn securityhub_imports_one_finding_per_property_in_batches_of_100() {
    use aws_sdk_securityhub::operation::batch_import_findings::BatchImportFindingsOutput;
    use aws_sdk_securityhub::types::RecordState;
    use aws_sdk_securityhub::Client as Hub;
    use realdrift_aws::notify::SecurityHubNotifier;
    let seen = Arc::new(Mutex::new(Vec::new()));
    let record = seen.clone();
    let ok = mock!(Hub::batch_import_findings)
        .match_requests(move |r| {
            record.lock().unwrap().push(r.findings().to_vec());
            true
        })
        .then_output(|| {
            BatchImportFindingsOutput::builder()
                .failed_count(0)
                .success_count(1)
                .build()
        });
    let client = mock_client!(aws_sdk_securityhub, RuleMode::MatchAny, [&ok]);
    let hub = SecurityHubNotifier::new(client, "aws");
    hub.send(&transition("drift-detected", 150)).await.unwrap();
    let batches = seen.lock().unwrap().clone();
    assert_eq!(batches.iter().map(Vec::len).collect::<Vec<_>>(), [100, 50]);
    let f = &batches[0][0];
    assert_eq!(
        f.id(),
        Some("realdrift/111111111111/eu-west-1/Payments/Queue0/VisibilityTimeout")
    );
    assert_eq!(
        f.product_arn(),
        Some("arn:aws:securityhub:eu-west-1:111111111111:product/111111111111/default")
    );
    assert_eq!(f.aws_account_id(), Some("111111111111"));
    assert_eq!(f.record_state(), Some(&RecordState::Active));
    assert!(f
        .updated_at()
        .is_some_and(|t| t.ends_with('Z') && t.contains('.')));
    assert_eq!(
        f.resources()[0]
            .details()
            .and_then(|d| d.other())
            .and_then(|o| o.get("stack")),
        Some(&"Payments".to_string())
    );

    seen.lock().unwrap().clear();
    hub.send(&transition("drift-resolved", 1)).await.unwrap();
    let resolved = seen.lock().unwrap()[0][0].clone();
    assert_eq!(resolved.id(), f.id(), "resolve updates the same finding");
    assert_eq!(resolved.record_state(), Some(&RecordState::Archived));
    assert!(
        resolved.updated_at() > f.updated_at(),
        "a later UpdatedAt, or Security Hub ignores the update"
    );

    // Coverage transitions are about reads, not properties: nothing to import.
    seen.lock().unwrap().clear();
    hub.send(&transition("coverage-lost", 1)).await.unwrap();
    assert!(seen.lock().unwrap().is_empty());
}

#[tokio::test]
async fn securityhub_refused_findings_and_call_errors_fail_the_delivery() {
    use aws_sdk_securityhub::operation::batch_import_findings::BatchImportFindingsOutput;
    use aws_sdk_securityhub::types::ImportFindingsError;
    use aws_sdk_securityhub::Client as Hub;
    use realdrift_aws::notify::SecurityHubNotifier;
    // BatchImportFindings answers 200 with FailedCount: still a failed delivery.
    let refused = mock!(Hub::batch_import_findings).then_output(|| {
        BatchImportFindingsOutput::builder()
            .failed_count(1)
            .success_count(0)
            .failed_findings(
                ImportFindingsError::builder()
                    .id("realdrift/111111111111/eu-west-1/Payments/Queue0/VisibilityTimeout")
                    .error_code("InvalidAccess")
                    .error_message("Security Hub is not enabled")
                    .build(),
            )
            .build()
    });
    let client = mock_client!(aws_sdk_securityhub, RuleMode::MatchAny, [&refused]);
    let err = SecurityHubNotifier::new(client, "aws")
        .send(&transition("drift-detected", 1))
        .await
        .unwrap_err();
    assert_eq!(err.channel, "securityhub");
    assert!(
        err.message.contains("refused 1 of 1") && err.message.contains("InvalidAccess"),
        "{err}"
    );

    let denied = mock!(Hub::batch_import_findings)
        .then_http_response(|| aws_support::json_error(403, "AccessDeniedException", "no"));
    let client = mock_client!(aws_sdk_securityhub, RuleMode::MatchAny, [&denied]);
    let err = SecurityHubNotifier::new(client, "aws")
        .send(&transition("drift-detected", 1))
        .await
        .unwrap_err();
    assert!(
        err.message.contains("securityhub:BatchImportFindings"),
        "{err}"
    );
}
