//! The revert handler called directly, over in-memory sources, store,
//! writer and notifier: dry run, apply with the digest, a stale digest, a
//! missing digest, scope and region refusals.

use futures_executor::block_on;
use futures_util::future::{BoxFuture, FutureExt};
use realdrift_core::baseline::MemoryStore;
use realdrift_core::corpus::CorpusCase;
use realdrift_core::notify::{MemoryNotifier, Notice, Notifier, NotifyError};
use realdrift_core::pipeline::memory::{MemoryStack, MemoryStacks};
use realdrift_core::pipeline::{
    LiveReader, Pipeline, ReadOutcome, ReadRequest, StackDescription, StackResourceRow,
};
use realdrift_core::revert::{
    apply_and_verify, ApplySettings, Batch, BatchAction, Checked, Pause, Rereader, RevertIo,
    RevertOutcome, RevertPlan, RevertWriter, WriteOutcome,
};
use realdrift_core::schema::InMemorySchemas;
use realdrift_core::watch::{WorkMessage, WorkQueue};
use realdrift_fn_revert::scope::Scope;
use realdrift_fn_revert::{handle, Applier, Invocation, RevertRequest, State, Status};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

const QUEUE: &str = "https://sqs.us-east-1.amazonaws.com/111111111111/jobs";

#[derive(Clone, Default)]
struct Live(Arc<Mutex<BTreeMap<String, Value>>>);

impl LiveReader for Live {
    fn read<'a>(&'a self, req: &'a ReadRequest) -> BoxFuture<'a, ReadOutcome> {
        let found = self.0.lock().unwrap().get(&req.physical_id).cloned();
        async move { found.map_or(ReadOutcome::NotFound, ReadOutcome::found) }.boxed()
    }
}

struct Writer(Live, Arc<Mutex<u32>>);

impl RevertWriter for Writer {
    fn write<'a>(&'a self, batch: &'a Batch, _token: &'a str) -> BoxFuture<'a, WriteOutcome> {
        *self.1.lock().unwrap() += 1;
        if let BatchAction::Patch(p) = &batch.action {
            let pid = batch.resource.physical_id.clone().unwrap();
            json_patch::patch(self.0 .0.lock().unwrap().get_mut(&pid).unwrap(), p).unwrap();
        }
        async { WriteOutcome::ok(1) }.boxed()
    }
}

struct NoPause;
impl Pause for NoPause {
    fn pause(&self, _: Duration) -> BoxFuture<'_, ()> {
        async {}.boxed()
    }
}

struct MemoryApplier {
    live: Live,
    writes: Arc<Mutex<u32>>,
}

impl Applier for MemoryApplier {
    fn apply<'a>(
        &'a self,
        plan: &'a RevertPlan,
        checked: Checked<'a>,
        _budget: Duration,
    ) -> BoxFuture<'a, RevertOutcome> {
        async move {
            let writer = Writer(self.live.clone(), self.writes.clone());
            let io = RevertIo {
                writer: &writer,
                reread: Rereader {
                    reader: &self.live,
                    children: None,
                },
                pause: &NoPause,
            };
            apply_and_verify(plan, checked, io, ApplySettings::default()).await
        }
        .boxed()
    }
}

/// Publishes into a shared list.
struct SharedNotifier(Arc<MemoryNotifier>);
impl Notifier for SharedNotifier {
    fn channel(&self) -> &'static str {
        self.0.channel()
    }
    fn send<'a>(&'a self, n: &'a Notice) -> BoxFuture<'a, Result<(), NotifyError>> {
        self.0.send(n)
    }
}

/// The scan work queue, in memory.
#[derive(Clone, Default)]
struct Jobs(Arc<Mutex<Vec<WorkMessage>>>);
impl WorkQueue for Jobs {
    fn send_batch<'a>(
        &'a self,
        messages: &'a [WorkMessage],
    ) -> BoxFuture<'a, Result<Vec<(WorkMessage, String)>, String>> {
        self.0.lock().unwrap().extend(messages.iter().cloned());
        async { Ok(Vec::new()) }.boxed()
    }
}

struct World {
    state: State,
    jobs: Jobs,
    live: Live,
    writes: Arc<Mutex<u32>>,
    published: Arc<MemoryNotifier>,
}

/// Stack `App` with one queue whose VisibilityTimeout drifted 30 -> 60.
fn world(scope: &[&str]) -> World {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/cases");
    let queue = CorpusCase::load(&dir.join("AWS__SQS__Queue.WorkQueue.json")).unwrap();
    let live = Live::default();
    let mut model = queue.live_raw.clone();
    model["QueueUrl"] = json!(QUEUE);
    live.0.lock().unwrap().insert(QUEUE.into(), model);
    let template = json!({
        "Resources": {"Jobs": {"Type": "AWS::SQS::Queue", "Properties": queue.resource.declared}},
        "Metadata": {"aws:cdk:path": "App"}
    });
    let stacks = MemoryStacks::default().with_stack(MemoryStack {
        description: StackDescription {
            name: "App".into(),
            stack_id: "arn:aws:cloudformation:us-east-1:111111111111:stack/App/1".into(),
            status: "CREATE_COMPLETE".into(),
            ..Default::default()
        },
        template: template.to_string(),
        resources: vec![StackResourceRow {
            logical_id: "Jobs".into(),
            physical_id: Some(QUEUE.into()),
            resource_type: "AWS::SQS::Queue".into(),
            status: "CREATE_COMPLETE".into(),
        }],
    });
    let schemas = InMemorySchemas::new().with_facts("AWS::SQS::Queue", queue.schema.clone());
    let pipeline = Pipeline::new(Arc::new(stacks), Arc::new(live.clone()), Arc::new(schemas));
    let writes = Arc::new(Mutex::new(0));
    let published = Arc::new(MemoryNotifier::new("sns"));
    let scope: Vec<String> = scope.iter().map(|s| s.to_string()).collect();
    let jobs = Jobs::default();
    let state = State {
        pipeline,
        store: Box::new(MemoryStore::default()),
        store_location: "mem".into(),
        scope: Scope::parse(&scope).unwrap(),
        region: "us-east-1".into(),
        applier: Box::new(MemoryApplier {
            live: live.clone(),
            writes: writes.clone(),
        }),
        notifier: Box::new(SharedNotifier(published.clone())),
        recheck: Some(Box::new(jobs.clone())),
    };
    World {
        state,
        jobs,
        live,
        writes,
        published,
    }
}

fn req(v: Value) -> RevertRequest {
    serde_json::from_value(v).unwrap()
}

fn inv() -> Invocation {
    Invocation {
        request_id: "req-1".into(),
        invoked_by: Some(json!({"clientContext": {"custom": {"user": "alice"}}})),
        budget: Duration::from_secs(60),
    }
}

#[test]
fn a_dry_run_is_the_default_and_writes_nothing() {
    let w = world(&["App"]);
    let r = block_on(handle(&w.state, req(json!({"stack": "App"})), &inv()));
    assert_eq!(r.status, Status::Planned);
    assert!(r.dry_run);
    let plan = r.plan.expect("plan");
    assert_eq!(plan.items.len(), 1);
    assert_eq!(plan.items[0].id, "Jobs:VisibilityTimeout");
    assert_eq!(r.digest.as_deref(), Some(plan.digest.as_str()));
    assert_eq!(*w.writes.lock().unwrap(), 0);
    assert!(w.published.sent().is_empty());
    assert!(
        w.jobs.0.lock().unwrap().is_empty(),
        "a dry run queues no scan"
    );
}

#[test]
fn applying_the_approved_digest_converges_and_is_published() {
    let w = world(&[]);
    let dry = block_on(handle(&w.state, req(json!({"stack": "App"})), &inv()));
    let digest = dry.digest.expect("digest");
    let r = block_on(handle(
        &w.state,
        req(json!({"stack": "App", "dryRun": false, "planDigest": digest})),
        &inv(),
    ));
    assert_eq!(r.status, Status::Converged, "{r:?}");
    let outcome = r.outcome.expect("outcome");
    assert!(outcome.converged());
    assert_eq!(
        w.live.0.lock().unwrap()[QUEUE]["VisibilityTimeout"],
        json!(30)
    );
    let published = w.published.sent();
    assert_eq!(published.len(), 1);
    let subject = &published[0].subject;
    let doc: Value = serde_json::from_str(&published[0].document).expect("JSON document");
    assert_eq!(
        subject,
        "realdrift revert converged: App (1 reverted, 0 failed)"
    );
    assert_eq!(doc["kind"], "revert");
    assert_eq!(doc["planDigest"], json!(digest));
    assert_eq!(doc["invokedBy"]["clientContext"]["custom"]["user"], "alice");
    assert_eq!(doc["items"][0]["status"], "converged");
    assert!(
        !doc.to_string().contains("\"current\""),
        "no values in the notice"
    );
    // The stack is queued for an immediate scan: its drift-resolved alert
    // follows the revert instead of waiting for the schedule.
    assert_eq!(r.recheck.as_deref(), Some("queued"));
    assert_eq!(*w.jobs.0.lock().unwrap(), vec![WorkMessage::stack("App")]);
}

#[test]
fn a_stale_digest_writes_nothing() {
    let w = world(&["App"]);
    let dry = block_on(handle(&w.state, req(json!({"stack": "App"})), &inv()));
    let digest = dry.digest.expect("digest");
    // Another value drifts between the dry run and the apply: the plan
    // would now write more than was approved.
    w.live.0.lock().unwrap().get_mut(QUEUE).unwrap()["DelaySeconds"] = json!(10);
    let r = block_on(handle(
        &w.state,
        req(json!({"stack": "App", "dryRun": false, "planDigest": digest})),
        &inv(),
    ));
    assert_eq!(r.status, Status::Refused, "{r:?}");
    assert!(r
        .message
        .unwrap_or_default()
        .contains("nothing was written"));
    assert_ne!(r.digest.as_deref(), Some(digest.as_str()));
    assert_eq!(
        r.plan.map(|p| p.items.len()),
        Some(2),
        "the new plan is returned"
    );
    assert_eq!(*w.writes.lock().unwrap(), 0);
    assert!(w.published.sent().is_empty());
    assert!(
        w.jobs.0.lock().unwrap().is_empty(),
        "nothing written, no re-check"
    );
}

#[test]
fn an_apply_without_a_digest_or_outside_the_scope_is_refused() {
    let w = world(&["Prod*"]);
    let r = block_on(handle(&w.state, req(json!({"stack": "App"})), &inv()));
    assert_eq!(r.status, Status::Refused);
    assert!(r.message.unwrap_or_default().contains("outside"));
    let w = world(&["App"]);
    let r = block_on(handle(
        &w.state,
        req(json!({"stack": "App", "dryRun": false})),
        &inv(),
    ));
    assert_eq!(r.status, Status::Refused);
    assert!(r.message.unwrap_or_default().contains("planDigest"));
    let r = block_on(handle(
        &w.state,
        req(json!({"stack": "App", "region": "eu-west-1"})),
        &inv(),
    ));
    assert_eq!(r.status, Status::Refused);
    assert_eq!(*w.writes.lock().unwrap(), 0);
    // Unknown fields are an error of the event, not silently ignored.
    assert!(
        serde_json::from_value::<RevertRequest>(json!({"stack": "App", "dryrun": false})).is_err()
    );
}
