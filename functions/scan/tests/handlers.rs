//! The scan function's handlers called directly with fixture events, over
//! the in-memory pipeline, store, notifiers and queue: dispatch, the SQS
//! worker (transitions, partial batch failures, malformed bodies, the
//! deadline), and the direct invoke.

use futures_util::future::{BoxFuture, FutureExt};
use realdrift_core::baseline::{BaselineStore, MemoryStore, Precondition};
use realdrift_core::corpus::CorpusCase;
use realdrift_core::events::Catalog;
use realdrift_core::notify::{MemoryNotifier, Notifier};
use realdrift_core::pipeline::memory::{MemoryReader, MemoryStack, MemoryStacks};
use realdrift_core::pipeline::{Pipeline, ReadOutcome, StackDescription, StackResourceRow};
use realdrift_core::schema::InMemorySchemas;
use realdrift_core::watch::{Channels, WorkMessage, WorkQueue};
use realdrift_scan::{handle, Invocation, Scanner};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

const ACCOUNT: &str = "111111111111";

fn case() -> CorpusCase {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/cases");
    CorpusCase::load(&dir.join("AWS__SQS__Queue.WorkQueue.json")).unwrap()
}

/// Stacks `App` and `Other`, one queue each, whose live VisibilityTimeout is `timeout`
/// (declared: 30).
fn pipeline(timeout: u64) -> Pipeline {
    let queue = case();
    let pid = queue.resource.physical_id.clone().unwrap();
    let mut live = queue.live_raw.clone();
    live["VisibilityTimeout"] = json!(timeout);
    let template = json!({"Resources": {
        "Queue": {
            "Type": "AWS::SQS::Queue",
            "Properties": queue.resource.declared,
            "Metadata": {"aws:cdk:path": "App/Queue/Resource"}
        },
        "CDKMetadata": {"Type": "AWS::CDK::Metadata", "Properties": {}}
    }});
    let mut stacks = MemoryStacks::default();
    for name in ["App", "Other"] {
        stacks = stacks.with_stack(MemoryStack {
            description: StackDescription {
                name: name.into(),
                stack_id: format!("arn:aws:cloudformation:eu-west-1:{ACCOUNT}:stack/{name}/0f0f"),
                status: "UPDATE_COMPLETE".into(),
                ..Default::default()
            },
            template: template.to_string(),
            resources: vec![StackResourceRow {
                logical_id: "Queue".into(),
                physical_id: Some(pid.clone()),
                resource_type: "AWS::SQS::Queue".into(),
                status: "CREATE_COMPLETE".into(),
            }],
        });
    }
    let reader = MemoryReader::default().with("AWS::SQS::Queue", &pid, ReadOutcome::found(live));
    let schemas = InMemorySchemas::new().with_facts("AWS::SQS::Queue", queue.schema.clone());
    Pipeline::new(Arc::new(stacks), Arc::new(reader), Arc::new(schemas))
}

#[derive(Default)]
struct MemoryQueue(Mutex<Vec<WorkMessage>>);

impl WorkQueue for MemoryQueue {
    fn send_batch<'a>(
        &'a self,
        messages: &'a [WorkMessage],
    ) -> BoxFuture<'a, Result<Vec<(WorkMessage, String)>, String>> {
        self.0.lock().unwrap().extend(messages.iter().cloned());
        async { Ok(Vec::new()) }.boxed()
    }
}

/// The world the function runs against across invocations.
struct World {
    baselines: Arc<MemoryStore>,
    bucket: Arc<MemoryStore>,
    sns: Arc<MemoryNotifier>,
    slack: Arc<MemoryNotifier>,
    queue: Arc<MemoryQueue>,
}

impl World {
    fn new(slack: MemoryNotifier) -> Self {
        World {
            baselines: Arc::new(MemoryStore::new()),
            bucket: Arc::new(MemoryStore::new()),
            sns: Arc::new(MemoryNotifier::new("sns")),
            slack: Arc::new(slack),
            queue: Arc::new(MemoryQueue::default()),
        }
    }

    /// The function as deployed while the queue's live timeout is `timeout`.
    fn scanner(&self, timeout: u64) -> Scanner {
        let sns: Arc<dyn Notifier> = self.sns.clone();
        let slack: Arc<dyn Notifier> = self.slack.clone();
        Scanner {
            pipeline: pipeline(timeout),
            baselines: self.baselines.clone(),
            baselines_location: "s3://bucket/baselines".into(),
            bucket: self.bucket.clone(),
            channels: Channels {
                required: vec![sns],
                optional: vec![slack],
            },
            queue: Some(self.queue.clone()),
            stacks: Vec::new(),
            region: "eu-west-1".into(),
            catalog: Catalog::bundled().unwrap(),
        }
    }

    fn kinds(&self) -> Vec<String> {
        self.sns.sent().into_iter().map(|n| n.kind).collect()
    }
}

fn inv() -> Invocation {
    Invocation {
        request_id: "req-1".into(),
        deadline_ms: realdrift_now() + 900_000,
    }
}

fn realdrift_now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64
}

fn sqs(bodies: &[&str]) -> Value {
    let records: Vec<Value> = bodies
        .iter()
        .enumerate()
        .map(|(i, b)| {
            json!({
                "messageId": format!("m{i}"),
                "receiptHandle": "h",
                "body": b,
                "attributes": {},
                "messageAttributes": {},
                "eventSource": "aws:sqs",
                "eventSourceARN": "arn:aws:sqs:eu-west-1:111111111111:work",
                "awsRegion": "eu-west-1"
            })
        })
        .collect();
    json!({"Records": records})
}

fn scheduled() -> Value {
    json!({
        "version": "0",
        "id": "53dc4d37-cffa-4f76-80c9-8b7d4a4d2eaa",
        "detail-type": "Scheduled Event",
        "source": "aws.events",
        "account": ACCOUNT,
        "time": "2026-11-30T12:00:00Z",
        "region": "eu-west-1",
        "resources": ["arn:aws:events:eu-west-1:111111111111:rule/realdrift-schedule"],
        "detail": {}
    })
}

fn failed_ids(response: &Value) -> Vec<String> {
    response["batchItemFailures"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["itemIdentifier"].as_str().unwrap().to_string())
        .collect()
}

async fn run(s: &Scanner, event: Value) -> Value {
    handle(s, event, &inv()).await.unwrap()
}

#[tokio::test]
async fn the_schedule_dispatches_one_message_per_cdk_stack() {
    let w = World::new(MemoryNotifier::new("slack"));
    let out = run(&w.scanner(30), scheduled()).await;
    assert_eq!(out["dispatched"], json!(["App", "Other"]));
    let sent = w.queue.0.lock().unwrap().clone();
    assert_eq!(
        sent,
        vec![WorkMessage::stack("App"), WorkMessage::stack("Other")]
    );
}

#[tokio::test]
async fn scans_announce_transitions_only() {
    let w = World::new(MemoryNotifier::new("slack"));
    let msg = WorkMessage::stack("App").body();
    let clean = run(&w.scanner(30), sqs(&[&msg])).await;
    assert!(failed_ids(&clean).is_empty());
    assert!(w.kinds().is_empty(), "a clean first scan announces nothing");
    run(&w.scanner(60), sqs(&[&msg])).await;
    assert_eq!(w.kinds(), vec!["drift-detected"]);
    let doc: Value = serde_json::from_str(&w.sns.sent()[0].document).unwrap();
    assert_eq!(doc["findings"][0]["path"], "VisibilityTimeout");
    assert_eq!(
        (
            doc["findings"][0]["desired"].clone(),
            doc["findings"][0]["actual"].clone()
        ),
        (json!(30), json!(60))
    );
    run(&w.scanner(60), sqs(&[&msg])).await;
    assert_eq!(w.kinds().len(), 1, "unchanged drift is not announced again");
    run(&w.scanner(30), sqs(&[&msg])).await;
    assert_eq!(w.kinds(), vec!["drift-detected", "drift-resolved"]);
    assert_eq!(w.slack.sent().len(), 2, "Slack got the same notices");
    let state = w.bucket.snapshot();
    assert!(
        state.contains_key(&format!("state/App.{ACCOUNT}.eu-west-1.json")),
        "{:?}",
        state.keys()
    );
}

#[tokio::test]
async fn a_slack_failure_still_publishes_and_advances_the_state() {
    let w = World::new(MemoryNotifier::failing("slack", "HTTP 500"));
    let msg = WorkMessage::stack("App").body();
    run(&w.scanner(30), sqs(&[&msg])).await;
    let out = run(&w.scanner(60), sqs(&[&msg])).await;
    assert!(
        failed_ids(&out).is_empty(),
        "Slack is optional: the message succeeds"
    );
    assert_eq!(w.kinds(), vec!["drift-detected"]);
    run(&w.scanner(60), sqs(&[&msg])).await;
    assert_eq!(w.kinds().len(), 1, "the state advanced: no repeat");
}

#[tokio::test]
async fn one_bad_stack_fails_alone_and_malformed_bodies_are_dropped() {
    let w = World::new(MemoryNotifier::new("slack"));
    // Other's state file was written by a newer realdrift: refused, kept.
    let newer = json!({"version": 9}).to_string();
    w.bucket
        .save(
            &format!("state/Other.{ACCOUNT}.eu-west-1.json"),
            &newer,
            Precondition::None,
        )
        .await
        .unwrap();
    let app = WorkMessage::stack("App").body();
    let other = WorkMessage::stack("Other").body();
    let gone = WorkMessage::stack("Deleted").body();
    let out = run(
        &w.scanner(60),
        sqs(&[&app, "not json", &other, r#"{"stacks":["App"]}"#, &gone]),
    )
    .await;
    assert_eq!(failed_ids(&out), vec!["m2"], "only Other is retried");
    assert_eq!(w.kinds(), vec!["drift-detected"], "App went on");
    assert_eq!(
        w.bucket.snapshot()[&format!("state/Other.{ACCOUNT}.eu-west-1.json")],
        newer
    );
}

#[tokio::test]
async fn near_the_deadline_work_stays_on_the_queue() {
    let w = World::new(MemoryNotifier::new("slack"));
    let app = WorkMessage::stack("App").body();
    let soon = Invocation {
        request_id: "r".into(),
        deadline_ms: realdrift_now() + 5_000,
    };
    let out = handle(&w.scanner(60), sqs(&[&app, &app]), &soon)
        .await
        .unwrap();
    assert_eq!(failed_ids(&out), vec!["m0", "m1"]);
    assert!(w.bucket.snapshot().is_empty(), "nothing was started");
}

#[tokio::test]
async fn a_direct_invoke_scans_and_returns_the_findings() {
    let w = World::new(MemoryNotifier::new("slack"));
    let out = run(&w.scanner(60), json!({"stacks": ["App", "Missing"]})).await;
    let stacks = out["stacks"].as_array().unwrap();
    assert_eq!(stacks.len(), 2, "{out}");
    let app = stacks.iter().find(|s| s["stack"] == "App").unwrap();
    assert_eq!(app["findings"][0]["tier"], "declared");
    assert!(
        stacks
            .iter()
            .any(|s| s["stack"] == "Missing" && s["error"].is_string()),
        "{out}"
    );
    assert_eq!(out["announced"]["App"], json!(["drift-detected"]));
    assert!(handle(&w.scanner(60), json!({"stacks": []}), &inv())
        .await
        .is_err());
    assert!(handle(&w.scanner(60), json!({"hello": 1}), &inv())
        .await
        .is_err());
}
