//! The on-change handler called directly with SQS batches of real
//! CloudTrail records (names swapped for the stack's), over the in-memory
//! pipeline, store and notifiers: one alert naming the actor, one alert
//! for a burst, the calls that are not drift, untracked resources, the
//! DescribeStackResources fallback, partial batch failures.

use aws_lambda_events::event::sqs::SqsEvent;
use realdrift_core::baseline::{BaselineStore, MemoryStore};
use realdrift_core::corpus::CorpusCase;
use realdrift_core::events::Catalog;
use realdrift_core::events::Screener;
use realdrift_core::notify::{MemoryNotifier, Notifier};
use realdrift_core::pipeline::memory::{MemoryReader, MemoryStack, MemoryStacks};
use realdrift_core::pipeline::{Pipeline, ReadOutcome, StackDescription, StackResourceRow};
use realdrift_core::schema::InMemorySchemas;
use realdrift_core::watch::{index_inputs, update_index, Channels};
use realdrift_on_change::{filter_config, handle, Invocation, Watcher};
use serde_json::{json, Value};
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
    pipeline_in(timeout, stacks, owners, "UPDATE_COMPLETE", "")
}

/// [`pipeline`] with the stack in `status` and `description` as the
/// template's Description (another description: another template).
fn pipeline_in(
    timeout: u64,
    stacks: &[&str],
    owners: bool,
    status: &str,
    description: &str,
) -> Pipeline {
    let queue = case();
    let pid = queue_url();
    let mut live = queue.live_raw.clone();
    live["VisibilityTimeout"] = json!(timeout);
    let mut template = json!({"Resources": {
        "Queue": {"Type": "AWS::SQS::Queue", "Properties": queue.resource.declared,
                  "Metadata": {"aws:cdk:path": "App/Queue/Resource"}},
        "Dlq": {"Type": "AWS::SQS::Queue", "Properties": {}},
        "CDKMetadata": {"Type": "AWS::CDK::Metadata", "Properties": {}}
    }});
    if !description.is_empty() {
        template["Description"] = json!(description);
    }
    let mut source = MemoryStacks::default();
    for name in stacks {
        source = source.with_stack(MemoryStack {
            description: StackDescription {
                name: name.to_string(),
                stack_id: format!("arn:aws:cloudformation:{REGION}:{ACCOUNT}:stack/{name}/0f0f"),
                status: status.into(),
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
    Pipeline::new(Arc::new(source), Arc::new(reader), Arc::new(schemas))
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
            &index_inputs(&g),
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

#[tokio::test]
async fn only_the_messages_of_a_failing_stack_are_retried() {
    let w = World::new();
    w.index().await;
    // The index also names stack `Gone` for another queue; CloudFormation no longer has it.
    let p = pipeline(30, &["Gone"], false);
    let mut g = p.gather("Gone").await.unwrap();
    let other = queue_url().replace("corpus-work-queue", "gone-queue");
    let queue = g
        .resources
        .iter_mut()
        .find(|r| r.logical_id == "Queue")
        .unwrap();
    queue.physical_id = Some(other.clone());
    let catalog = Catalog::bundled().unwrap();
    update_index(
        w.bucket.as_ref(),
        catalog,
        (ACCOUNT, REGION),
        "Gone",
        &index_inputs(&g),
        1,
    )
    .await
    .unwrap();
    let mut to_gone = set_queue_attributes("e-gone", "2026-11-30T12:00:00Z");
    to_gone["requestParameters"]["queueUrl"] = json!(other);
    let bodies = vec![
        wrapped(&set_queue_attributes("e-1", "2026-11-30T12:00:00Z")),
        wrapped(&to_gone),
    ];
    let r = handle(
        &w.watcher(pipeline(60, &["App"], false)),
        sqs(&bodies),
        &inv(),
    )
    .await;
    assert_eq!(failed(&r), vec!["m1"]);
    assert_eq!(w.documents().len(), 1, "App's alert still went out");
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
    let r = handle(
        &w.watcher(pipeline_in(60, &["App"], false, "UPDATE_IN_PROGRESS", "")),
        sqs(&[wrapped(&by_cloudformation("cfn", "2026-11-30T12:00:00Z"))]),
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
