//! The scan function's handlers called directly with fixture events, over
//! the in-memory pipeline, store, notifiers and queue: dispatch, the SQS
//! worker (transitions, partial batch failures, malformed bodies, the
//! deadline), and the direct invoke.

use futures_util::future::{BoxFuture, FutureExt};
use realdrift_core::baseline::{
    BaselineStore, MemoryStore, Precondition, StoreError, Stored, Version,
};
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

/// What the account holds: the stacks (one queue each, from the corpus
/// case; declared VisibilityTimeout 30), the queue's live values, and the
/// template's description (changing it is a deploy: a new template hash).
#[derive(Clone)]
struct Live {
    stacks: Vec<String>,
    timeout: u64,
    /// MessageRetentionPeriod, which the template does not declare.
    retention: Option<u64>,
    description: &'static str,
    /// Stacks that are not settled, with their status.
    stuck: Vec<(String, String)>,
}

impl Live {
    fn timeout(timeout: u64) -> Self {
        Live {
            stacks: vec!["App".into(), "Other".into()],
            timeout,
            retention: None,
            description: "v1",
            stuck: Vec::new(),
        }
    }

    fn stuck(mut self, stack: &str, status: &str) -> Self {
        self.stuck.push((stack.into(), status.into()));
        self
    }

    fn only(mut self, stacks: &[&str]) -> Self {
        self.stacks = stacks.iter().map(|s| s.to_string()).collect();
        self
    }

    fn retention(mut self, seconds: u64) -> Self {
        self.retention = Some(seconds);
        self
    }

    fn deployed(mut self, description: &'static str) -> Self {
        self.description = description;
        self
    }
}

fn pipeline(l: &Live) -> Pipeline {
    let queue = case();
    let pid = queue.resource.physical_id.clone().unwrap();
    let mut live = queue.live_raw.clone();
    live["VisibilityTimeout"] = json!(l.timeout);
    if let Some(r) = l.retention {
        live["MessageRetentionPeriod"] = json!(r);
    }
    let template = json!({
        "Description": l.description,
        "Resources": {
            "Queue": {
                "Type": "AWS::SQS::Queue",
                "Properties": queue.resource.declared,
                "Metadata": {"aws:cdk:path": "App/Queue/Resource"}
            },
            "CDKMetadata": {"Type": "AWS::CDK::Metadata", "Properties": {}}
        }
    });
    let mut stacks = MemoryStacks::default();
    for name in &l.stacks {
        stacks = stacks.with_stack(MemoryStack {
            description: StackDescription {
                name: name.clone(),
                stack_id: format!("arn:aws:cloudformation:eu-west-1:{ACCOUNT}:stack/{name}/0f0f"),
                status: l
                    .stuck
                    .iter()
                    .find(|(s, _)| s == name)
                    .map_or("UPDATE_COMPLETE".to_string(), |(_, st)| st.clone()),
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

/// A work queue that keeps each batch sent, and refuses the messages of
/// the stacks named in `refuse` (as SendMessageBatch reports failed entries).
#[derive(Default)]
struct MemoryQueue {
    batches: Mutex<Vec<Vec<WorkMessage>>>,
    refuse: Vec<String>,
}

impl MemoryQueue {
    fn sent(&self) -> Vec<WorkMessage> {
        self.batches.lock().unwrap().concat()
    }
}

impl WorkQueue for MemoryQueue {
    fn send_batch<'a>(
        &'a self,
        messages: &'a [WorkMessage],
    ) -> BoxFuture<'a, Result<Vec<(WorkMessage, String)>, String>> {
        self.batches.lock().unwrap().push(messages.to_vec());
        let refused = messages
            .iter()
            .filter(|m| self.refuse.contains(&m.stack))
            .map(|m| (m.clone(), "AWS.SimpleQueueService.Throttled".to_string()))
            .collect();
        async move { Ok(refused) }.boxed()
    }
}

/// The world the function runs against across invocations.
struct World {
    baselines: Arc<MemoryStore>,
    bucket: Arc<MemoryStore>,
    /// The Organization hub's bucket (status documents under `org/`).
    hub: Arc<MemoryStore>,
    sns: Arc<MemoryNotifier>,
    slack: Arc<MemoryNotifier>,
    queue: Arc<MemoryQueue>,
}

impl World {
    fn new(slack: MemoryNotifier) -> Self {
        World {
            baselines: Arc::new(MemoryStore::new()),
            bucket: Arc::new(MemoryStore::new()),
            hub: Arc::new(MemoryStore::new()),
            sns: Arc::new(MemoryNotifier::new("sns")),
            slack: Arc::new(slack),
            queue: Arc::new(MemoryQueue::default()),
        }
    }

    /// The function as deployed while the queue's live timeout is `timeout`.
    fn scanner(&self, timeout: u64) -> Scanner {
        self.scanner_over(&Live::timeout(timeout))
    }

    /// The function while the account holds `live`.
    fn scanner_over(&self, live: &Live) -> Scanner {
        self.scanner_with_bucket(live, self.bucket.clone())
    }

    fn scanner_with_bucket(&self, live: &Live, bucket: Arc<dyn BaselineStore>) -> Scanner {
        let sns: Arc<dyn Notifier> = self.sns.clone();
        let slack: Arc<dyn Notifier> = self.slack.clone();
        Scanner {
            pipeline: pipeline(live),
            baselines: self.baselines.clone(),
            baselines_location: "s3://bucket/baselines".into(),
            bucket,
            hub: Some(self.hub.clone()),
            channels: Channels {
                required: vec![sns],
                optional: vec![slack],
            },
            queue: Some(self.queue.clone()),
            stacks: Vec::new(),
            region: "eu-west-1".into(),
            catalog: Catalog::bundled().unwrap(),
            lost_after: 2,
            flap_window_ms: realdrift_core::watch::DEFAULT_FLAP_WINDOW_MS,
            storm: realdrift_core::watch::StormPolicy::default(),
            inflight_ttl_ms: Some(5_400_000),
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
    let sent = w.queue.sent();
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

/// The hub's status document of `stack`, parsed.
fn hub_status(w: &World, stack: &str) -> Option<Value> {
    w.hub
        .snapshot()
        .get(&format!("org/{ACCOUNT}/eu-west-1/{stack}.json"))
        .map(|t| serde_json::from_str(t).unwrap())
}

#[tokio::test]
async fn a_member_reports_each_stacks_status_to_the_hub_and_forgets_a_gone_one() {
    let w = World::new(MemoryNotifier::new("slack"));
    let msg = WorkMessage::stack("App").body();
    run(&w.scanner(60), sqs(&[&msg])).await;
    let drifted = hub_status(&w, "App").expect("the status document");
    assert_eq!(drifted["schema"], "realdrift.org-status.v1");
    assert_eq!(drifted["drift"], 1, "{drifted:#}");
    assert_eq!(
        (drifted["compared"].clone(), drifted["total"].clone()),
        (json!(1), json!(1))
    );
    let since = drifted["driftSinceMs"]["Queue/VisibilityTimeout"].clone();
    assert!(since.is_u64(), "{drifted:#}");
    run(&w.scanner(60), sqs(&[&msg])).await;
    let again = hub_status(&w, "App").expect("rewritten");
    assert_eq!(
        again["driftSinceMs"]["Queue/VisibilityTimeout"], since,
        "first seen is kept"
    );
    run(&w.scanner(30), sqs(&[&msg])).await;
    assert_eq!(hub_status(&w, "App").expect("rewritten")["drift"], 0);
    let gone = Live::timeout(30).only(&["Other"]);
    run(&w.scanner_over(&gone), sqs(&[&msg])).await;
    assert!(
        hub_status(&w, "App").is_none(),
        "a gone stack leaves the view"
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
async fn near_the_deadline_work_is_sent_again_not_failed() {
    // A failure would count a receive toward the queue's maxReceiveCount
    // each busy run, and walk a healthy stack to the dead-letter queue.
    let w = World::new(MemoryNotifier::new("slack"));
    let app = WorkMessage::stack("App").body();
    let soon = Invocation {
        request_id: "r".into(),
        deadline_ms: realdrift_now() + 5_000,
    };
    let out = handle(&w.scanner(60), sqs(&[&app, &app]), &soon)
        .await
        .unwrap();
    assert!(failed_ids(&out).is_empty(), "{out}");
    assert_eq!(
        w.queue.sent(),
        vec![WorkMessage::stack("App"), WorkMessage::stack("App")]
    );
    assert!(w.bucket.snapshot().is_empty(), "nothing was started");
    // What the queue refuses stays on the queue as a failure.
    let mut w = World::new(MemoryNotifier::new("slack"));
    w.queue = Arc::new(MemoryQueue {
        refuse: vec!["App".into()],
        ..Default::default()
    });
    let out = handle(&w.scanner(60), sqs(&[&app]), &soon).await.unwrap();
    assert_eq!(failed_ids(&out), vec!["m0"]);
}

#[tokio::test]
async fn a_stack_not_settled_is_reported_not_checked_once_and_not_retried() {
    let w = World::new(MemoryNotifier::new("slack"));
    let msg = WorkMessage::stack("App").body();
    run(&w.scanner(60), sqs(&[&msg])).await;
    let stuck = Live::timeout(60).stuck("App", "UPDATE_ROLLBACK_FAILED");
    for _ in 0..2 {
        let out = run(&w.scanner_over(&stuck), sqs(&[&msg])).await;
        assert!(failed_ids(&out).is_empty(), "not retried: {out}");
    }
    assert_eq!(w.kinds(), vec!["drift-detected", "coverage-lost"]);
    let doc: Value = serde_json::from_str(&w.sns.sent()[1].document).unwrap();
    assert!(doc.to_string().contains("UPDATE_ROLLBACK_FAILED"), "{doc}");
    assert_eq!(app_state(&w)["notChecked"], "UPDATE_ROLLBACK_FAILED");
    run(&w.scanner(60), sqs(&[&msg])).await;
    assert_eq!(
        w.kinds(),
        vec!["drift-detected", "coverage-lost", "coverage-regained"],
        "settled again: regained, the drift not announced twice"
    );
}

fn index_stacks(w: &World) -> Vec<String> {
    let text = &w.bucket.snapshot()[&format!("index/{ACCOUNT}.eu-west-1.json")];
    let v: Value = serde_json::from_str(text).unwrap();
    let mut stacks: Vec<String> = v["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["stack"].as_str().unwrap().to_string())
        .collect();
    stacks.dedup();
    stacks
}

#[tokio::test]
async fn a_gone_stack_is_announced_once_and_its_state_and_index_rows_removed() {
    let w = World::new(MemoryNotifier::new("slack"));
    let app = WorkMessage::stack("App").body();
    let other = WorkMessage::stack("Other").body();
    run(&w.scanner(30), sqs(&[&app, &other])).await;
    assert_eq!(index_stacks(&w), vec!["App", "Other"]);
    let gone = Live::timeout(30).only(&["Other"]);
    for _ in 0..2 {
        let out = run(&w.scanner_over(&gone), sqs(&[&app])).await;
        assert!(failed_ids(&out).is_empty(), "not retried: {out}");
    }
    assert_eq!(w.kinds(), vec!["coverage-lost"], "said once");
    assert!(w.sns.sent()[0].document.contains("no longer exists"));
    let keys: Vec<String> = w.bucket.snapshot().into_keys().collect();
    assert!(
        !keys.contains(&format!("state/App.{ACCOUNT}.eu-west-1.json")),
        "{keys:?}"
    );
    assert_eq!(index_stacks(&w), vec!["Other"]);
}

#[tokio::test]
async fn a_stack_described_as_delete_complete_is_gone_not_unsettled() {
    // Described by id (as nested stacks are), a deleted stack answers.
    let w = World::new(MemoryNotifier::new("slack"));
    let app = WorkMessage::stack("App").body();
    run(&w.scanner(30), sqs(&[&app])).await;
    let deleted = Live::timeout(30).stuck("App", "DELETE_COMPLETE");
    let out = run(&w.scanner_over(&deleted), sqs(&[&app])).await;
    assert!(failed_ids(&out).is_empty(), "{out}");
    assert_eq!(w.kinds(), vec!["coverage-lost"]);
    assert!(w.sns.sent()[0].document.contains("no longer exists"));
}

#[tokio::test]
async fn the_schedule_prunes_the_index_and_queues_gone_stacks_that_have_state() {
    let w = World::new(MemoryNotifier::new("slack"));
    let app = WorkMessage::stack("App").body();
    let other = WorkMessage::stack("Other").body();
    run(&w.scanner(30), sqs(&[&app, &other])).await;
    let gone = Live::timeout(30).only(&["Other"]);
    let out = run(&w.scanner_over(&gone), scheduled()).await;
    assert_eq!(out["dispatched"], json!(["Other"]));
    assert_eq!(out["gone"], json!(["App"]));
    assert_eq!(index_stacks(&w), vec!["Other"], "pruned at dispatch");
    assert_eq!(
        w.queue.sent(),
        vec![WorkMessage::stack("Other"), WorkMessage::stack("App")],
        "App is queued once more so its state is forgotten with a notice"
    );
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

fn app_state(w: &World) -> Value {
    let text = &w.bucket.snapshot()[&format!("state/App.{ACCOUNT}.eu-west-1.json")];
    serde_json::from_str(text).unwrap()
}

#[tokio::test]
async fn the_schedule_sends_work_in_batches_of_ten() {
    let w = World::new(MemoryNotifier::new("slack"));
    let live = Live {
        stacks: (0..23).map(|i| format!("S{i:02}")).collect(),
        ..Live::timeout(30)
    };
    let out = run(&w.scanner_over(&live), scheduled()).await;
    assert_eq!(out["dispatched"].as_array().map(Vec::len), Some(23));
    let sizes: Vec<usize> = w
        .queue
        .batches
        .lock()
        .unwrap()
        .iter()
        .map(Vec::len)
        .collect();
    assert_eq!(sizes, vec![10, 10, 3], "SendMessageBatch takes at most 10");
    let sent: Vec<String> = w.queue.sent().into_iter().map(|m| m.stack).collect();
    assert_eq!(sent, live.stacks, "one message per stack, none twice");
}

#[tokio::test]
async fn a_message_the_queue_refuses_fails_the_dispatch_and_names_the_stack() {
    let mut w = World::new(MemoryNotifier::new("slack"));
    w.queue = Arc::new(MemoryQueue {
        refuse: vec!["Other".into()],
        ..Default::default()
    });
    let e = handle(&w.scanner(30), scheduled(), &inv())
        .await
        .unwrap_err()
        .to_string();
    assert!(e.contains("1 work messages were not queued: Other"), "{e}");
}

#[tokio::test]
async fn a_first_scan_is_inventory_even_of_undeclared_values() {
    let w = World::new(MemoryNotifier::new("slack"));
    let msg = WorkMessage::stack("App").body();
    let live = Live::timeout(30).retention(86_400);
    let out = run(&w.scanner_over(&live), sqs(&[&msg])).await;
    assert!(failed_ids(&out).is_empty());
    assert!(w.kinds().is_empty(), "{:?}", w.sns.sent());
    let state = app_state(&w);
    let refs = state["observations"].as_array().unwrap();
    assert!(
        refs.iter()
            .any(|o| o["path"] == "MessageRetentionPeriod" && o["value"] == json!(86_400)),
        "the value is remembered as its reference: {state}"
    );
    assert_eq!(state["drift"], json!([]));
}

#[tokio::test]
async fn an_undeclared_value_changed_under_the_same_template_is_alerted_without_a_baseline() {
    let w = World::new(MemoryNotifier::new("slack"));
    let msg = WorkMessage::stack("App").body();
    run(
        &w.scanner_over(&Live::timeout(30).retention(86_400)),
        sqs(&[&msg]),
    )
    .await;
    run(
        &w.scanner_over(&Live::timeout(30).retention(172_800)),
        sqs(&[&msg]),
    )
    .await;
    assert_eq!(w.kinds(), vec!["drift-detected"]);
    let doc: Value = serde_json::from_str(&w.sns.sent()[0].document).unwrap();
    let f = &doc["findings"][0];
    assert_eq!(
        (&f["tier"], &f["path"], &f["desired"], &f["actual"]),
        (
            &json!("undeclared"),
            &json!("MessageRetentionPeriod"),
            &json!(86_400),
            &json!(172_800)
        ),
        "{doc}"
    );
    assert!(
        f["note"]
            .as_str()
            .unwrap_or_default()
            .starts_with("changed since last observed"),
        "{doc}"
    );
    run(
        &w.scanner_over(&Live::timeout(30).retention(172_800)),
        sqs(&[&msg]),
    )
    .await;
    assert_eq!(w.kinds().len(), 1, "still changed: not announced again");
    run(
        &w.scanner_over(&Live::timeout(30).retention(86_400)),
        sqs(&[&msg]),
    )
    .await;
    assert_eq!(w.kinds(), vec!["drift-detected", "drift-resolved"]);
}

#[tokio::test]
async fn a_deploy_re_observes_undeclared_values_silently() {
    let w = World::new(MemoryNotifier::new("slack"));
    let msg = WorkMessage::stack("App").body();
    let before = Live::timeout(30).retention(86_400);
    run(&w.scanner_over(&before), sqs(&[&msg])).await;
    let hash = app_state(&w)["templateHash"].clone();
    // A deploy (new template) that also changed the undeclared value.
    let after = Live::timeout(30).retention(172_800).deployed("v2");
    run(&w.scanner_over(&after), sqs(&[&msg])).await;
    assert!(w.kinds().is_empty(), "{:?}", w.sns.sent());
    assert_ne!(app_state(&w)["templateHash"], hash, "a new template hash");
    // The value the deploy left is the new reference.
    let reverted = Live::timeout(30).retention(86_400).deployed("v2");
    run(&w.scanner_over(&reverted), sqs(&[&msg])).await;
    assert_eq!(w.kinds(), vec!["drift-detected"]);
}

/// A bucket where another scan of the same stack runs to completion
/// between this scan's state load and its first state write (the race two
/// overlapping schedules or a retried message can make).
struct RacingBucket {
    inner: Arc<MemoryStore>,
    rival: Mutex<Option<Arc<Scanner>>>,
}

impl BaselineStore for RacingBucket {
    fn load<'a>(&'a self, key: &'a str) -> BoxFuture<'a, Result<Option<Stored>, StoreError>> {
        self.inner.load(key)
    }

    fn save<'a>(
        &'a self,
        key: &'a str,
        text: &'a str,
        precondition: Precondition,
    ) -> BoxFuture<'a, Result<Version, StoreError>> {
        let rival = key
            .starts_with("state/")
            .then(|| self.rival.lock().unwrap().take())
            .flatten();
        async move {
            if let Some(r) = rival {
                let out = run(&r, sqs(&[&WorkMessage::stack("App").body()])).await;
                assert!(failed_ids(&out).is_empty(), "the rival scan went through");
            }
            self.inner.save(key, text, precondition).await
        }
        .boxed()
    }

    fn list<'a>(&'a self, prefix: &'a str) -> BoxFuture<'a, Result<Vec<String>, StoreError>> {
        self.inner.list(prefix)
    }

    fn delete<'a>(&'a self, key: &'a str) -> BoxFuture<'a, Result<(), StoreError>> {
        self.inner.delete(key)
    }
}

#[tokio::test]
async fn two_racing_scans_of_one_stack_announce_a_transition_once() {
    let w = World::new(MemoryNotifier::new("slack"));
    let msg = WorkMessage::stack("App").body();
    run(&w.scanner(30), sqs(&[&msg])).await;
    let drifted = Live::timeout(60);
    let racing = Arc::new(RacingBucket {
        inner: w.bucket.clone(),
        rival: Mutex::new(Some(Arc::new(w.scanner_over(&drifted)))),
    });
    let out = run(
        &w.scanner_with_bucket(&drifted, racing.clone()),
        sqs(&[&msg]),
    )
    .await;
    assert!(racing.rival.lock().unwrap().is_none(), "the rival ran");
    assert!(
        failed_ids(&out).is_empty(),
        "the lost write is recomputed, not failed"
    );
    assert_eq!(
        w.kinds(),
        vec!["drift-detected"],
        "the rival announced it; the scan that lost the write did not repeat it"
    );
    let state = app_state(&w);
    assert_eq!(state["drift"][0]["path"], "VisibilityTimeout", "{state}");
    assert!(state.get("outbox").is_none(), "no claim left: {state}");
}

/// Dispatch does not queue a stack whose previous message is in flight:
/// the worker finishing a stack frees it for the next dispatch, and a
/// marker past its expiry (the visibility timeout; a worker that crashed)
/// holds nothing back.
#[tokio::test]
async fn a_stack_still_in_flight_is_not_queued_again_until_done_or_expired() {
    let w = World::new(MemoryNotifier::new("slack"));
    let s = w.scanner(30);
    let out = run(&s, scheduled()).await;
    assert_eq!(out["dispatched"], json!(["App", "Other"]));
    let out = run(&s, scheduled()).await;
    assert_eq!(
        (out["dispatched"].clone(), out["inFlight"].clone()),
        (json!([]), json!(["App", "Other"])),
        "{out}"
    );
    assert_eq!(w.queue.sent().len(), 2, "nothing queued twice");
    // The worker scans App: App is free again, Other still in flight.
    let done = run(&s, sqs(&[r#"{"stack":"App"}"#])).await;
    assert_eq!(failed_ids(&done), Vec::<String>::new());
    let out = run(&s, scheduled()).await;
    assert_eq!(
        (out["dispatched"].clone(), out["inFlight"].clone()),
        (json!(["App"]), json!(["Other"])),
        "{out}"
    );
    // A stale marker (its worker crashed): expired, so Other is queued.
    let key = realdrift_core::watch::inflight_key("eu-west-1", "Other").unwrap();
    let stale = r#"{"queuedAtMs":0,"expiresAtMs":1}"#;
    w.bucket
        .save(&key, stale, realdrift_core::baseline::Precondition::None)
        .await
        .unwrap();
    let out = run(&s, scheduled()).await;
    assert_eq!(out["dispatched"], json!(["Other"]), "{out}");
}

/// A bucket logging every call as (operation, key or prefix).
struct CountingBucket {
    inner: Arc<MemoryStore>,
    calls: Mutex<Vec<(&'static str, String)>>,
}

impl CountingBucket {
    fn over(inner: Arc<MemoryStore>) -> Arc<Self> {
        Arc::new(CountingBucket {
            inner,
            calls: Mutex::new(Vec::new()),
        })
    }

    fn log(&self, op: &'static str, key: &str) {
        self.calls.lock().unwrap().push((op, key.to_string()));
    }

    /// The calls so far, cleared.
    fn take(&self) -> Vec<(&'static str, String)> {
        std::mem::take(&mut *self.calls.lock().unwrap())
    }
}

impl BaselineStore for CountingBucket {
    fn load<'a>(&'a self, key: &'a str) -> BoxFuture<'a, Result<Option<Stored>, StoreError>> {
        self.log("GET", key);
        self.inner.load(key)
    }

    fn save<'a>(
        &'a self,
        key: &'a str,
        text: &'a str,
        precondition: Precondition,
    ) -> BoxFuture<'a, Result<Version, StoreError>> {
        self.log("PUT", key);
        self.inner.save(key, text, precondition)
    }

    fn list<'a>(&'a self, prefix: &'a str) -> BoxFuture<'a, Result<Vec<String>, StoreError>> {
        self.log("LIST", prefix);
        self.inner.list(prefix)
    }

    fn delete<'a>(&'a self, key: &'a str) -> BoxFuture<'a, Result<(), StoreError>> {
        self.log("DELETE", key);
        self.inner.delete(key)
    }
}

/// Issue 45 §5: the hourly scan of a stack nobody changed writes its state
/// (per-resource read times) but not the index, which it only reads. The
/// calls it prints (`--nocapture`) are the S3 requests docs/deploy.md
/// prices per dispatch and per scan.
#[tokio::test]
async fn an_hourly_scan_of_an_unchanged_stack_writes_its_state_not_the_index() {
    let w = World::new(MemoryNotifier::new("slack"));
    let bucket = CountingBucket::over(w.bucket.clone());
    let baselines = CountingBucket::over(w.baselines.clone());
    let mut s = w.scanner_with_bucket(&Live::timeout(30).only(&["App"]), bucket.clone());
    s.baselines = baselines.clone();
    let index = format!("index/{ACCOUNT}.eu-west-1.json");
    let state = format!("state/App.{ACCOUNT}.eu-west-1.json");
    let msg = WorkMessage::stack("App").body();
    for hour in 0..3 {
        run(&s, scheduled()).await;
        eprintln!("hour {hour} dispatch: {:?}", bucket.take());
        let out = run(&s, sqs(&[&msg])).await;
        assert!(failed_ids(&out).is_empty(), "{out}");
        eprintln!("hour {hour} scan, baselines: {:?}", baselines.take());
        let calls = bucket.take();
        eprintln!("hour {hour} scan, bucket: {calls:?}");
        let n = |op: &str, key: &str| calls.iter().filter(|(o, k)| *o == op && k == key).count();
        assert_eq!(n("PUT", &index), usize::from(hour == 0), "hour {hour}");
        assert_eq!(n("GET", &index), 1, "{calls:?}");
        assert_eq!(n("PUT", &state), 1, "the state is written every scan");
    }
    assert!(w.kinds().is_empty(), "nothing changed: {:?}", w.sns.sent());
}
