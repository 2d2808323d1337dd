//! The on-change handler called directly with SQS batches of real
//! CloudTrail records (names swapped for the stack's), over the in-memory
//! pipeline, store and notifiers: one alert naming the actor, one alert
//! for a burst, the calls that are not drift, untracked resources, the
//! DescribeStackResources fallback, partial batch failures.

use aws_lambda_events::event::sqs::SqsEvent;
use futures_util::future::{BoxFuture, FutureExt};
use realdrift_core::baseline::{BaselineStore, MemoryStore};
use realdrift_core::corpus::CorpusCase;
use realdrift_core::events::Catalog;
use realdrift_core::events::Screener;
use realdrift_core::notify::{MemoryNotifier, Notifier};
use realdrift_core::pipeline::memory::{MemoryReader, MemoryStack, MemoryStacks};
use realdrift_core::pipeline::{
    CallCounter, Pipeline, ReadOutcome, SourceError, StackDescription, StackResourceRow,
    StackSource, StackSummary,
};
use realdrift_core::schema::InMemorySchemas;
use realdrift_core::watch::{update_index, Channels, StackRows};
use realdrift_on_change::{filter_config, handle, Invocation, Watcher};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

const ACCOUNT: &str = "111111111111";
const REGION: &str = "us-east-1";
const REVERT_ROLE: &str = "arn:aws:iam::111111111111:role/realdrift-revert";

fn shared() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared")
}

fn case() -> CorpusCase {
    CorpusCase::load(&shared().join("corpus/cases/AWS__SQS__Queue.WorkQueue.json")).unwrap()
}

fn queue_url() -> String {
    case().resource.physical_id.clone().unwrap()
}

/// A real record of `file` named `name` (the first without an errorCode).
fn real_record(file: &str, name: &str) -> Value {
    let text = std::fs::read_to_string(shared().join("cloudtrail").join(file)).unwrap();
    let all: Vec<Value> = serde_json::from_str(&text).unwrap();
    all.into_iter()
        .find(|r| r["eventName"] == name && r.get("errorCode").is_none())
        .unwrap_or_else(|| panic!("{file}: no {name}"))
}

/// streamalert's SetQueueAttributes (identity fields are "..." there) with
/// the queue swapped for the stack's and the caller swapped for the IAM
/// user of invictus-ir's records; `id` and `time` set per test.
fn set_queue_attributes(id: &str, time: &str) -> Value {
    let mut r = real_record(
        "airbnb_streamalert_rule-test-events.json",
        "SetQueueAttributes",
    );
    let mut who = real_record("invictus-ir_aws_dataset.json", "UpdateAssumeRolePolicy")
        ["userIdentity"]
        .clone();
    who["accountId"] = json!(ACCOUNT);
    who["arn"] = json!("arn:aws:iam::111111111111:user/bert-jan");
    r["userIdentity"] = who;
    r["requestParameters"]["queueUrl"] = json!(queue_url());
    r["requestParameters"]["attributes"] = json!({"VisibilityTimeout": "60"});
    r["recipientAccountId"] = json!(ACCOUNT);
    r["sourceIPAddress"] = json!("192.168.10.20");
    r["userAgent"] = json!("aws-cli/2.13.0");
    r["eventID"] = json!(id);
    r["eventTime"] = json!(time);
    r
}

/// The record as EventBridge delivers it.
fn wrapped(record: &Value) -> String {
    json!({
        "version": "0", "id": "6f0f2a54-0000-0000-0000-000000000000",
        "detail-type": "AWS API Call via CloudTrail", "source": "aws.sqs",
        "account": ACCOUNT, "time": record["eventTime"], "region": REGION,
        "resources": [], "detail": record
    })
    .to_string()
}

fn sqs(bodies: &[String]) -> SqsEvent {
    let records: Vec<Value> = bodies
        .iter()
        .enumerate()
        .map(|(i, b)| {
            json!({"messageId": format!("m{i}"), "receiptHandle": "h", "body": b,
                   "attributes": {}, "messageAttributes": {}, "eventSource": "aws:sqs",
                   "eventSourceARN": "arn:aws:sqs:us-east-1:111111111111:changes", "awsRegion": REGION})
        })
        .collect();
    serde_json::from_value(json!({"Records": records})).unwrap()
}

/// Stack `App` with the corpus queue (declared VisibilityTimeout 30) whose
/// live timeout is `timeout`; `owners` answers DescribeStackResources.
fn pipeline(timeout: u64, stacks: &[&str], owners: bool) -> Pipeline {
    pipeline_with(timeout, stacks, owners, |_| {})
}

/// [`pipeline`] with the stacks in `status` and `description` as the
/// template's Description (another description: another template).
fn pipeline_in(
    timeout: u64,
    stacks: &[&str],
    owners: bool,
    status: &str,
    description: &str,
) -> Pipeline {
    pipeline_with(timeout, stacks, owners, |s| {
        for stack in s.stacks.values_mut() {
            stack.description.status = status.into();
            if !description.is_empty() {
                let mut t: Value = serde_json::from_str(&stack.template).unwrap();
                t["Description"] = json!(description);
                stack.template = t.to_string();
            }
        }
    })
}

/// [`pipeline`] with the stack source adjusted by `tweak`.
fn pipeline_with(
    timeout: u64,
    stacks: &[&str],
    owners: bool,
    tweak: impl FnOnce(&mut MemoryStacks),
) -> Pipeline {
    let (source, reader, schemas) = parts(timeout, stacks, owners);
    let mut source = source;
    tweak(&mut source);
    Pipeline::new(Arc::new(source), Arc::new(reader), Arc::new(schemas))
}

/// The stack source, reader and schemas of [`pipeline`].
fn parts(
    timeout: u64,
    stacks: &[&str],
    owners: bool,
) -> (MemoryStacks, MemoryReader, InMemorySchemas) {
    let queue = case();
    let pid = queue_url();
    let mut live = queue.live_raw.clone();
    live["VisibilityTimeout"] = json!(timeout);
    let template = json!({"Resources": {
        "Queue": {"Type": "AWS::SQS::Queue", "Properties": queue.resource.declared,
                  "Metadata": {"aws:cdk:path": "App/Queue/Resource"}},
        "Dlq": {"Type": "AWS::SQS::Queue", "Properties": {}},
        "CDKMetadata": {"Type": "AWS::CDK::Metadata", "Properties": {}}
    }});
    let mut source = MemoryStacks::default();
    for name in stacks {
        source = source.with_stack(MemoryStack {
            description: StackDescription {
                name: name.to_string(),
                stack_id: format!("arn:aws:cloudformation:{REGION}:{ACCOUNT}:stack/{name}/0f0f"),
                status: "UPDATE_COMPLETE".into(),
                ..Default::default()
            },
            template: template.to_string(),
            resources: vec![
                StackResourceRow {
                    logical_id: "Queue".into(),
                    physical_id: Some(pid.clone()),
                    resource_type: "AWS::SQS::Queue".into(),
                    status: "CREATE_COMPLETE".into(),
                },
                // Untouched by every event here (never read by on-change).
                StackResourceRow {
                    logical_id: "Dlq".into(),
                    physical_id: Some(pid.replace("corpus-work-queue", "app-dlq")),
                    resource_type: "AWS::SQS::Queue".into(),
                    status: "CREATE_COMPLETE".into(),
                },
            ],
        });
    }
    if owners {
        source.owners.insert(pid.clone(), "App".into());
    }
    let reader = MemoryReader::default().with("AWS::SQS::Queue", &pid, ReadOutcome::found(live));
    let schemas = InMemorySchemas::new().with_facts("AWS::SQS::Queue", queue.schema.clone());
    (source, reader, schemas)
}

struct World {
    baselines: Arc<MemoryStore>,
    bucket: Arc<MemoryStore>,
    sns: Arc<MemoryNotifier>,
    slack: Arc<MemoryNotifier>,
}

impl World {
    fn new() -> Self {
        World {
            baselines: Arc::new(MemoryStore::new()),
            bucket: Arc::new(MemoryStore::new()),
            sns: Arc::new(MemoryNotifier::new("sns")),
            slack: Arc::new(MemoryNotifier::new("slack")),
        }
    }

    /// Writes the index the scan would have written for `App`'s gather.
    async fn index(&self) {
        let p = pipeline(30, &["App"], false);
        let g = p.gather("App").await.unwrap();
        let catalog = Catalog::bundled().unwrap();
        update_index(
            self.bucket.as_ref(),
            catalog,
            (ACCOUNT, REGION),
            "App",
            &StackRows::of(catalog, &g),
            1,
        )
        .await
        .unwrap();
    }

    fn watcher(&self, pipeline: Pipeline) -> Watcher {
        let catalog = Catalog::bundled().unwrap();
        let sns: Arc<dyn Notifier> = self.sns.clone();
        let slack: Arc<dyn Notifier> = self.slack.clone();
        Watcher {
            pipeline,
            baselines: self.baselines.clone(),
            baselines_location: "s3://bucket/baselines".into(),
            bucket: self.bucket.clone(),
            channels: Channels {
                required: vec![sns],
                optional: vec![slack],
            },
            screener: Screener::new(
                catalog,
                filter_config(catalog, Some(ACCOUNT), REGION, Some(REVERT_ROLE)).unwrap(),
            ),
            account: Some(ACCOUNT.into()),
            region: REGION.into(),
            stacks: realdrift_on_change::stack_globs(&[]).unwrap(),
            lost_after: 2,
            flap_window_ms: realdrift_core::watch::DEFAULT_FLAP_WINDOW_MS,
            storm: realdrift_core::watch::StormPolicy::default(),
            flushes: None,
            lookups: realdrift_on_change::Lookups::new(300),
        }
    }

    fn documents(&self) -> Vec<Value> {
        self.sns
            .sent()
            .iter()
            .map(|n| serde_json::from_str(&n.document).unwrap())
            .collect()
    }

    async fn state(&self) -> Option<String> {
        self.bucket
            .load("state/App.111111111111.us-east-1.json")
            .await
            .unwrap()
            .map(|s| s.text)
    }
}

fn inv() -> Invocation {
    Invocation {
        request_id: "req-1".into(),
        deadline_ms: realdrift_on_change::now_ms() + 60_000,
    }
}

fn failed(r: &aws_lambda_events::event::sqs::SqsBatchResponse) -> Vec<String> {
    r.batch_item_failures
        .iter()
        .map(|f| f.item_identifier.clone())
        .collect()
}

#[tokio::test]
async fn an_out_of_band_change_gives_one_alert_naming_the_actor() {
    let w = World::new();
    w.index().await;
    let event = set_queue_attributes("e-1", "2026-11-30T12:00:00Z");
    let r = handle(
        &w.watcher(pipeline(60, &["App"], false)),
        sqs(&[wrapped(&event)]),
        &inv(),
    )
    .await;
    assert!(failed(&r).is_empty());
    let docs = w.documents();
    assert_eq!(docs.len(), 1, "{docs:?}");
    let doc = &docs[0];
    assert_eq!(doc["kind"], "drift-detected");
    let f = &doc["findings"][0];
    assert_eq!(
        (
            f["path"].as_str(),
            f["desired"].clone(),
            f["actual"].clone()
        ),
        (Some("VisibilityTimeout"), json!(30), json!(60)),
        "{doc}"
    );
    let cause = &f["cause"];
    assert_eq!(
        cause["actor"]["arn"],
        "arn:aws:iam::111111111111:user/bert-jan"
    );
    assert_eq!(cause["actor"]["type"], "IAMUser");
    assert_eq!(cause["eventName"], "SetQueueAttributes");
    assert_eq!(cause["eventId"], "e-1");
    assert_eq!(cause["sourceIp"], "192.168.10.20");
    assert_eq!(cause["console"], false);
    assert_eq!(doc["cause"], *cause, "the document names the cause too");
    assert_eq!(
        (
            doc["coverage"]["total"].clone(),
            doc["coverage"]["checked"].clone()
        ),
        (json!(1), json!(1)),
        "the alert speaks for the re-read resource only"
    );
    let slack = w.slack.sent();
    assert_eq!(slack.len(), 1);
    assert!(
        slack[0].slack.to_string().contains("user/bert-jan"),
        "{}",
        slack[0].slack
    );
    assert!(
        w.state().await.unwrap().contains("\"eventId\": \"e-1\""),
        "the drift entry keeps its cause"
    );
}

#[tokio::test]
async fn a_burst_on_one_resource_gives_one_alert_with_the_latest_call() {
    let w = World::new();
    w.index().await;
    let bodies: Vec<String> = [
        ("e-1", "2026-11-30T12:00:00Z"),
        ("e-3", "2026-11-30T12:00:02.5Z"),
        ("e-2", "2026-11-30T12:00:02Z"),
    ]
    .iter()
    .map(|(id, t)| wrapped(&set_queue_attributes(id, t)))
    .chain([wrapped(&set_queue_attributes(
        "e-3",
        "2026-11-30T12:00:02.5Z",
    ))]) // SQS redelivery
    .collect();
    let r = handle(
        &w.watcher(pipeline(60, &["App"], false)),
        sqs(&bodies),
        &inv(),
    )
    .await;
    assert!(failed(&r).is_empty());
    let docs = w.documents();
    assert_eq!(docs.len(), 1, "{docs:?}");
    assert_eq!(docs[0]["cause"]["eventId"], "e-3");
    assert_eq!(w.slack.sent().len(), 1);
}

#[tokio::test]
async fn calls_that_are_not_drift_give_nothing() {
    let w = World::new();
    w.index().await;
    let mut by_revert = set_queue_attributes("revert", "2026-11-30T12:00:01Z");
    by_revert["userIdentity"] = json!({
        "type": "AssumedRole", "principalId": "AROAEXAMPLE:realdrift-revert",
        "arn": "arn:aws:sts::111111111111:assumed-role/realdrift-revert/revert-fn",
        "accountId": ACCOUNT,
        "sessionContext": {"sessionIssuer": {"type": "Role", "principalId": "AROAEXAMPLE",
            "arn": REVERT_ROLE, "accountId": ACCOUNT, "userName": "realdrift-revert"}}
    });
    let mut failed_call = set_queue_attributes("denied", "2026-11-30T12:00:02Z");
    failed_call["errorCode"] = json!("AccessDenied");
    let mut other_account = set_queue_attributes("other", "2026-11-30T12:00:03Z");
    other_account["recipientAccountId"] = json!("222222222222");
    let bodies = [by_revert, failed_call, other_account].map(|e| wrapped(&e));
    let bodies: Vec<String> = bodies.into_iter().chain(["not json".to_string()]).collect();
    // The queue really is drifted: any of these re-read would alert.
    let r = handle(
        &w.watcher(pipeline(60, &["App"], false)),
        sqs(&bodies),
        &inv(),
    )
    .await;
    assert!(failed(&r).is_empty(), "nothing to retry");
    assert!(w.sns.sent().is_empty(), "{:?}", w.documents());
    assert!(w.slack.sent().is_empty());
    assert_eq!(w.state().await, None, "nothing was re-read");
}

#[tokio::test]
async fn a_change_back_by_someone_else_resolves() {
    let w = World::new();
    w.index().await;
    let change = wrapped(&set_queue_attributes("e-1", "2026-11-30T12:00:00Z"));
    handle(
        &w.watcher(pipeline(60, &["App"], false)),
        sqs(&[change]),
        &inv(),
    )
    .await;
    let mut back = set_queue_attributes("e-2", "2026-11-30T12:05:00Z");
    back["userIdentity"]["arn"] = json!("arn:aws:iam::111111111111:user/oncall");
    back["requestParameters"]["attributes"] = json!({"VisibilityTimeout": "30"});
    handle(
        &w.watcher(pipeline(30, &["App"], false)),
        sqs(&[wrapped(&back)]),
        &inv(),
    )
    .await;
    let kinds: Vec<String> = w.sns.sent().into_iter().map(|n| n.kind).collect();
    assert_eq!(kinds, vec!["drift-detected", "drift-resolved"]);
}

#[tokio::test]
async fn an_untracked_resource_is_dropped_and_the_fallback_finds_a_new_stack() {
    let w = World::new();
    // No index yet (the stack is newer than the last scan), no owner: untracked.
    let event = wrapped(&set_queue_attributes("e-1", "2026-11-30T12:00:00Z"));
    let r = handle(
        &w.watcher(pipeline(60, &["App"], false)),
        sqs(std::slice::from_ref(&event)),
        &inv(),
    )
    .await;
    assert!(failed(&r).is_empty());
    assert!(w.sns.sent().is_empty());
    // DescribeStackResources by physical id names the stack.
    let r = handle(
        &w.watcher(pipeline(60, &["App"], true)),
        sqs(&[event]),
        &inv(),
    )
    .await;
    assert!(failed(&r).is_empty());
    assert_eq!(w.documents().len(), 1);
    assert_eq!(w.documents()[0]["stack"], "App");
}

/// Indexes stack `name` as holding the queue `physical_id` (gathered from
/// a pipeline that has the stack).
async fn index_stack(w: &World, name: &str, physical_id: &str) {
    let p = pipeline(30, &[name], false);
    let mut g = p.gather(name).await.unwrap();
    let queue = g
        .resources
        .iter_mut()
        .find(|r| r.logical_id == "Queue")
        .unwrap();
    queue.physical_id = Some(physical_id.to_string());
    let catalog = Catalog::bundled().unwrap();
    update_index(
        w.bucket.as_ref(),
        catalog,
        (ACCOUNT, REGION),
        name,
        &StackRows::of(catalog, &g),
        1,
    )
    .await
    .unwrap();
}

/// A SetQueueAttributes event on the queue `url`.
fn event_on(id: &str, url: &str) -> String {
    let mut e = set_queue_attributes(id, "2026-11-30T12:00:00Z");
    e["requestParameters"]["queueUrl"] = json!(url);
    wrapped(&e)
}

#[tokio::test]
async fn only_the_messages_of_a_failing_stack_are_retried() {
    let w = World::new();
    w.index().await;
    // Other's state file was written by a newer realdrift: refused, kept.
    let other = queue_url().replace("corpus-work-queue", "other-queue");
    index_stack(&w, "Other", &other).await;
    w.bucket
        .save(
            "state/Other.111111111111.us-east-1.json",
            &json!({"version": 9}).to_string(),
            realdrift_core::baseline::Precondition::None,
        )
        .await
        .unwrap();
    let bodies = vec![
        wrapped(&set_queue_attributes("e-1", "2026-11-30T12:00:00Z")),
        event_on("e-other", &other),
    ];
    let r = handle(
        &w.watcher(pipeline(60, &["App", "Other"], false)),
        sqs(&bodies),
        &inv(),
    )
    .await;
    assert_eq!(failed(&r), vec!["m1"]);
    assert_eq!(w.documents().len(), 1, "App's alert still went out");
}

#[tokio::test]
async fn events_on_a_retained_resource_of_a_gone_stack_are_dropped_not_retried() {
    let w = World::new();
    w.index().await;
    // The index still names stack `Gone` (DeletionPolicy: Retain kept its
    // queue); CloudFormation no longer has the stack.
    let retained = queue_url().replace("corpus-work-queue", "gone-queue");
    index_stack(&w, "Gone", &retained).await;
    let bodies = vec![
        wrapped(&set_queue_attributes("e-1", "2026-11-30T12:00:00Z")),
        event_on("e-gone", &retained),
    ];
    let r = handle(
        &w.watcher(pipeline(60, &["App"], false)),
        sqs(&bodies),
        &inv(),
    )
    .await;
    assert!(
        failed(&r).is_empty(),
        "retrying cannot bring the stack back"
    );
    assert_eq!(w.documents().len(), 1, "App's alert still went out");
}

#[tokio::test]
async fn a_stack_not_settled_is_announced_not_checked_once_and_not_retried() {
    let w = World::new();
    w.index().await;
    let stuck = || {
        pipeline_with(60, &["App"], false, |s| {
            if let Some(app) = s.stacks.get_mut("App") {
                app.description.status = "UPDATE_ROLLBACK_FAILED".into();
            }
        })
    };
    for id in ["e-1", "e-2"] {
        let event = wrapped(&set_queue_attributes(id, "2026-11-30T12:00:00Z"));
        let r = handle(&w.watcher(stuck()), sqs(&[event]), &inv()).await;
        assert!(failed(&r).is_empty(), "not retried");
    }
    let docs = w.documents();
    assert_eq!(docs.len(), 1, "{docs:?}");
    assert_eq!(docs[0]["kind"], "coverage-lost");
    assert!(docs[0].to_string().contains("UPDATE_ROLLBACK_FAILED"));
}

#[tokio::test]
async fn an_unowned_id_is_looked_up_once_per_ttl_and_a_failed_lookup_is_retried() {
    let w = World::new();
    let counter = CallCounter::new();
    let watcher = w.watcher(pipeline_with(60, &["App"], false, |s| {
        s.counter = counter.clone();
    }));
    for id in ["e-1", "e-2", "e-3"] {
        let event = wrapped(&set_queue_attributes(id, "2026-11-30T12:00:00Z"));
        let r = handle(&watcher, sqs(&[event]), &inv()).await;
        assert!(failed(&r).is_empty());
    }
    assert_eq!(
        counter
            .snapshot()
            .get("cloudformation:DescribeStackResources"),
        Some(&1),
        "a burst on an untracked resource asks CloudFormation once"
    );
    // CloudFormation still throttling after the SDK's retries: retried.
    let (source, reader, schemas) = parts(60, &["App"], true);
    let throttled = Pipeline::new(
        Arc::new(Throttled(source)),
        Arc::new(reader),
        Arc::new(schemas),
    );
    let event = wrapped(&set_queue_attributes("e-4", "2026-11-30T12:00:00Z"));
    let r = handle(&w.watcher(throttled), sqs(&[event]), &inv()).await;
    assert_eq!(failed(&r), vec!["m0"], "the change is not dropped");
}

#[tokio::test]
async fn a_nested_stack_is_in_scope_when_its_root_stack_is() {
    let w = World::new();
    w.index().await;
    let nested = queue_url().replace("corpus-work-queue", "nested-queue");
    index_stack(&w, "App-Inner-1ABC", &nested).await;
    let app_id = format!("arn:aws:cloudformation:{REGION}:{ACCOUNT}:stack/App/0f0f");
    let p = pipeline_with(60, &["App", "App-Inner-1ABC", "Payments"], false, |s| {
        if let Some(inner) = s.stacks.get_mut("App-Inner-1ABC") {
            inner.description.parent_id = Some(app_id.clone());
        }
    });
    let mut watcher = w.watcher(p);
    watcher.stacks = realdrift_on_change::stack_globs(&["App".to_string()]).unwrap();
    let r = handle(&watcher, sqs(&[event_on("e-n", &nested)]), &inv()).await;
    assert!(failed(&r).is_empty());
    let docs = w.documents();
    assert_eq!(docs.len(), 1, "{docs:?}");
    assert_eq!(docs[0]["stack"], "App-Inner-1ABC");
}

/// A stack source whose owner lookups fail as throttling does once the
/// SDK has given up retrying.
struct Throttled(MemoryStacks);

impl StackSource for Throttled {
    fn describe_stack<'a>(
        &'a self,
        stack: &'a str,
    ) -> BoxFuture<'a, Result<StackDescription, SourceError>> {
        self.0.describe_stack(stack)
    }
    fn get_template<'a>(&'a self, stack: &'a str) -> BoxFuture<'a, Result<String, SourceError>> {
        self.0.get_template(stack)
    }
    fn list_stack_resources<'a>(
        &'a self,
        stack: &'a str,
    ) -> BoxFuture<'a, Result<Vec<StackResourceRow>, SourceError>> {
        self.0.list_stack_resources(stack)
    }
    fn list_exports(&self) -> BoxFuture<'_, Result<BTreeMap<String, String>, SourceError>> {
        self.0.list_exports()
    }
    fn list_stacks(&self) -> BoxFuture<'_, Result<Vec<StackSummary>, SourceError>> {
        self.0.list_stacks()
    }
    fn stack_owning<'a>(
        &'a self,
        _physical_id: &'a str,
    ) -> BoxFuture<'a, Result<Option<String>, SourceError>> {
        async {
            Err(SourceError::Other(
                "DescribeStackResources: Throttling: Rate exceeded".into(),
            ))
        }
        .boxed()
    }
}

#[tokio::test]
async fn stacks_out_of_scope_are_not_rechecked() {
    let w = World::new();
    w.index().await;
    let mut watcher = w.watcher(pipeline(60, &["App"], false));
    watcher.stacks = realdrift_on_change::stack_globs(&["Payments*".to_string()]).unwrap();
    let event = wrapped(&set_queue_attributes("e-1", "2026-11-30T12:00:00Z"));
    let r = handle(&watcher, sqs(&[event]), &inv()).await;
    assert!(failed(&r).is_empty());
    assert!(w.sns.sent().is_empty(), "App is not in REALDRIFT_STACKS");
    assert_eq!(w.state().await, None);
}

/// `set_queue_attributes` as CloudFormation makes it for the deployer
/// `principal` with the CDK's cfn-exec role (invokedBy and the source IP
/// are AWS's).
fn by_cloudformation(id: &str, time: &str) -> Value {
    let mut r = set_queue_attributes(id, time);
    r["userIdentity"] = json!({
        "type": "AssumedRole", "principalId": "AROAEXAMPLECFN:AWSCloudFormation",
        "arn": "arn:aws:sts::111111111111:assumed-role/cdk-hnb659fds-cfn-exec-role-111111111111-us-east-1/AWSCloudFormation",
        "accountId": ACCOUNT, "invokedBy": "cloudformation.amazonaws.com",
        "sessionContext": {"sessionIssuer": {"type": "Role", "principalId": "AROAEXAMPLECFN",
            "arn": "arn:aws:iam::111111111111:role/cdk-hnb659fds-cfn-exec-role-111111111111-us-east-1",
            "accountId": ACCOUNT, "userName": "cdk-hnb659fds-cfn-exec-role-111111111111-us-east-1"}}
    });
    r["sourceIPAddress"] = json!("cloudformation.amazonaws.com");
    r["userAgent"] = json!("cloudformation.amazonaws.com");
    r
}

/// Seeds the state as a first user change does (one alert, drained).
async fn seeded(w: &World) {
    w.index().await;
    let user = wrapped(&set_queue_attributes("seed", "2026-11-30T11:00:00Z"));
    handle(
        &w.watcher(pipeline(60, &["App"], false)),
        sqs(&[user]),
        &inv(),
    )
    .await;
    assert_eq!(w.documents().len(), 1, "the seeding change alerts");
    assert!(w.state().await.is_some());
}

#[tokio::test]
async fn the_stacks_own_deploy_in_progress_is_silent() {
    let w = World::new();
    w.index().await;
    assert_silent_while_deploying(
        &w,
        wrapped(&by_cloudformation("cfn", "2026-11-30T12:00:00Z")),
    )
    .await;
}

/// Handles `event` while the stack deploys: nothing is retried, re-read or sent.
async fn assert_silent_while_deploying(w: &World, event: String) {
    let r = handle(
        &w.watcher(pipeline_in(60, &["App"], false, "UPDATE_IN_PROGRESS", "")),
        sqs(&[event]),
        &inv(),
    )
    .await;
    assert!(failed(&r).is_empty(), "nothing to retry");
    // The queue really is drifted (60 against 30): a re-read would alert.
    assert!(w.sns.sent().is_empty(), "{:?}", w.documents());
    assert_eq!(w.state().await, None, "nothing was re-read");
}

#[tokio::test]
async fn a_deploy_not_yet_scanned_is_silent() {
    let w = World::new();
    seeded(&w).await;
    // Settled, but on a template the state does not hold: the stack's own
    // deploy finished before its calls arrived.
    let deployed = pipeline_in(90, &["App"], false, "UPDATE_COMPLETE", "v2");
    let r = handle(
        &w.watcher(deployed),
        sqs(&[wrapped(&by_cloudformation("cfn", "2026-11-30T12:00:00Z"))]),
        &inv(),
    )
    .await;
    assert!(failed(&r).is_empty());
    assert_eq!(w.documents().len(), 1, "no alert beyond the seed's");
}

#[tokio::test]
async fn a_write_through_another_stack_alerts_once_naming_cloudformation_and_the_principal() {
    let w = World::new();
    seeded(&w).await;
    // Settled on the template the state holds: CloudFormation wrote the
    // watched queue for another stack's deploy.
    let r = handle(
        &w.watcher(pipeline(90, &["App"], false)),
        sqs(&[wrapped(&by_cloudformation("cfn", "2026-11-30T12:00:00Z"))]),
        &inv(),
    )
    .await;
    assert!(failed(&r).is_empty());
    let docs = w.documents();
    assert_eq!(docs.len(), 2, "{docs:?}");
    let cause = &docs[1]["findings"][0]["cause"];
    assert_eq!(cause["through"]["kind"], "cloudFormation", "{cause}");
    assert_eq!(
        cause["actor"]["arn"],
        "arn:aws:sts::111111111111:assumed-role/cdk-hnb659fds-cfn-exec-role-111111111111-us-east-1/AWSCloudFormation"
    );
    let slack = w.slack.sent();
    assert_eq!(slack.len(), 2);
    let text = slack[1].slack.to_string();
    assert!(
        text.contains("by CloudFormation for arn:aws:sts::111111111111:assumed-role/cdk-hnb659fds-cfn-exec-role"),
        "{text}"
    );
}

#[tokio::test]
async fn an_unknown_stack_state_is_retried_not_guessed() {
    let w = World::new();
    w.index().await;
    w.bucket
        .save(
            "state/App.111111111111.us-east-1.json",
            "{not json",
            realdrift_core::baseline::Precondition::None,
        )
        .await
        .unwrap();
    let r = handle(
        &w.watcher(pipeline(60, &["App"], false)),
        sqs(&[wrapped(&by_cloudformation("cfn", "2026-11-30T12:00:00Z"))]),
        &inv(),
    )
    .await;
    assert_eq!(failed(&r), vec!["m0".to_string()]);
    assert!(w.sns.sent().is_empty());
}

const PROVIDER_FN: &str = "App-QueueSettingsHandler-1A2B";
const PROVIDER_ROLE: &str = "App-QueueSettingsHandlerRole-3C4D";

/// `set_queue_attributes` made by a custom resource's provider function:
/// the Lambda session shape of the real Cloud Custodian record
/// (`assumed-role/<role>/<function>`), with its role and name swapped.
fn by_provider(id: &str, time: &str) -> Value {
    let mut r = set_queue_attributes(id, time);
    let text = real_record(
        "cloud-custodian_cwe-fixtures.json",
        "PutDataCatalogEncryptionSettings",
    )["userIdentity"]
        .to_string()
        .replace("644160558196", ACCOUNT)
        .replace("CloudCustodianRole", PROVIDER_ROLE)
        .replace("custodian-net-change-encryption", PROVIDER_FN);
    r["userIdentity"] = serde_json::from_str(&text).unwrap();
    r["sourceIPAddress"] = json!("35.171.244.77");
    r["userAgent"] = json!("Boto3/1.34.0 Python/3.12.0 Linux exec-env/AWS_Lambda_python3.12");
    r
}

/// Adds to the stored index what the scan records for a custom resource
/// `QueueSettings` of `App` whose provider function has PROVIDER_ROLE
/// (core's events_providers tests derive such rows from a CDK template).
async fn index_provider(w: &World) {
    let key = "index/111111111111.us-east-1.json";
    let stored = w.bucket.load(key).await.unwrap().unwrap();
    let mut index =
        realdrift_core::events::ResourceIndex::from_json(key, stored.text.as_bytes()).unwrap();
    index.providers.push(realdrift_core::events::ProviderRow {
        stack: "App".into(),
        custom_resource: "QueueSettings".into(),
        function: PROVIDER_FN.into(),
        role_arn: format!("arn:aws:iam::{ACCOUNT}:role/{PROVIDER_ROLE}"),
        via: None,
    });
    w.bucket
        .save(
            key,
            &index.to_json(),
            realdrift_core::baseline::Precondition::None,
        )
        .await
        .unwrap();
}

#[tokio::test]
async fn a_custom_resource_provider_writing_during_its_stacks_deploy_is_silent() {
    let w = World::new();
    w.index().await;
    index_provider(&w).await;
    assert_silent_while_deploying(&w, wrapped(&by_provider("cr", "2026-11-30T12:00:00Z"))).await;
}

#[tokio::test]
async fn a_custom_resource_provider_writing_outside_a_deploy_alerts_once_naming_it() {
    let w = World::new();
    seeded(&w).await;
    index_provider(&w).await;
    let r = handle(
        &w.watcher(pipeline(90, &["App"], false)),
        sqs(&[wrapped(&by_provider("cr", "2026-11-30T12:00:00Z"))]),
        &inv(),
    )
    .await;
    assert!(failed(&r).is_empty());
    let docs = w.documents();
    assert_eq!(docs.len(), 2, "{docs:?}");
    let through = &docs[1]["findings"][0]["cause"]["through"];
    assert_eq!(through["kind"], "customResource", "{through}");
    assert_eq!(through["stack"], "App");
    assert_eq!(
        through["provider"]["customResources"],
        json!(["QueueSettings"])
    );
    let text = w.slack.sent()[1].slack.to_string();
    assert!(
        text.contains(&format!(
            "by custom resource QueueSettings of stack App (function {PROVIDER_FN}) as arn:aws:sts::{ACCOUNT}:assumed-role/{PROVIDER_ROLE}/{PROVIDER_FN}"
        )),
        "{text}"
    );
}

/// Flush messages sent, in memory: (stack, delay seconds).
#[derive(Default)]
struct SentFlushes(std::sync::Mutex<Vec<(String, u32)>>);

impl realdrift_core::watch::FlushQueue for SentFlushes {
    fn send_flush<'a>(
        &'a self,
        message: &'a realdrift_core::watch::FlushMessage,
        delay_seconds: u32,
    ) -> BoxFuture<'a, Result<(), String>> {
        self.0
            .lock()
            .unwrap()
            .push((message.stack.clone(), delay_seconds));
        async { Ok(()) }.boxed()
    }
}

#[tokio::test]
async fn a_held_storm_schedules_its_flush_and_the_flush_announces_it_once() {
    use realdrift_core::watch::{FlushMessage, StormPolicy};
    let w = World::new();
    w.index().await;
    let flushes = Arc::new(SentFlushes::default());
    // Every change opens a storm; the window is read at each check, so the
    // flush's check is run with a window that has passed (no sleeping).
    let watcher = |timeout, window_ms| {
        let mut v = w.watcher(pipeline(timeout, &["App"], false));
        v.storm = StormPolicy {
            window_ms,
            threshold: 1,
        };
        let queue: Arc<dyn realdrift_core::watch::FlushQueue> = flushes.clone();
        v.flushes = Some(queue);
        v
    };
    for (i, timeout) in [60, 61, 62].into_iter().enumerate() {
        let mut e = set_queue_attributes(&format!("e-{i}"), "2026-11-30T12:00:00Z");
        e["requestParameters"]["attributes"] = json!({"VisibilityTimeout": timeout.to_string()});
        let r = handle(&watcher(timeout, 60_000), sqs(&[wrapped(&e)]), &inv()).await;
        assert!(failed(&r).is_empty());
    }
    assert!(w.sns.sent().is_empty(), "held: {:?}", w.documents());
    let sent = flushes.0.lock().unwrap().clone();
    assert_eq!(sent.len(), 3, "one flush per holding invocation");
    assert!(
        sent.iter()
            .all(|(s, d)| s == "App" && (59..=60).contains(d)),
        "{sent:?}"
    );
    // The flush message (as on-change sent it), with a malformed one.
    let flush = FlushMessage::for_stack("App").body();
    let bad = r#"{"kind": "realdrift-storm-flush", "stack": "App", "x": 1}"#.to_string();
    let r = handle(&watcher(62, 1), sqs(&[flush.clone(), bad]), &inv()).await;
    assert!(
        failed(&r).is_empty(),
        "a malformed flush is dropped, not retried"
    );
    let docs = w.documents();
    assert_eq!(docs.len(), 1, "{docs:?}");
    assert_eq!(docs[0]["kind"], "drift-detected");
    assert_eq!(docs[0]["findings"][0]["actual"], json!(62), "{}", docs[0]);
    assert_eq!(docs[0]["storm"]["resources"], 1, "{}", docs[0]);
    assert_eq!(w.slack.sent().len(), 1);
    let before = flushes.0.lock().unwrap().len();
    handle(&watcher(62, 1), sqs(&[flush]), &inv()).await;
    assert_eq!(w.documents().len(), 1, "a late flush finds nothing held");
    assert_eq!(
        flushes.0.lock().unwrap().len(),
        before,
        "and schedules nothing"
    );
}
