//! Applying a plan through the check path, over in-memory sources: the
//! writes go to a writer that patches the in-memory live models, the touched
//! resources are re-read and re-checked, and every item gets its verdict.
//! One resource's failure leaves the others reverted.

use futures_executor::block_on;
use futures_util::future::{BoxFuture, FutureExt};
use realdrift_core::baseline::MemoryStore;
use realdrift_core::corpus::CorpusCase;
use realdrift_core::ignore::IgnoreConfig;
use realdrift_core::pipeline::memory::{MemoryStack, MemoryStacks};
use realdrift_core::pipeline::{
    check_stacks, CheckOptions, CheckedStack, LiveReader, Pipeline, ReadOutcome, ReadRequest,
    StackDescription, StackResourceRow,
};
use realdrift_core::revert::{
    apply_and_verify, batch_token, build_plan, ApplySettings, Batch, BatchAction, Checked,
    ItemStatus, Pause, PlanInput, PlanOptions, Rereader, RevertIo, RevertWriter, WriteError,
    WriteOutcome,
};
use realdrift_core::schema::InMemorySchemas;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

const STACK_ID: &str = "arn:aws:cloudformation:us-east-1:111111111111:stack/App/0f0f";

/// Live models by physical id, shared by the reader and the writer.
#[derive(Clone, Default)]
struct Live(Arc<Mutex<BTreeMap<String, Value>>>);

impl LiveReader for Live {
    fn read<'a>(&'a self, req: &'a ReadRequest) -> BoxFuture<'a, ReadOutcome> {
        let found = self.0.lock().unwrap().get(&req.physical_id).cloned();
        async move { found.map_or(ReadOutcome::NotFound, ReadOutcome::found) }.boxed()
    }
}

/// Applies patches to the shared models; fails every write to `fail`;
/// with `lazy`, reports success without writing.
struct Writer {
    live: Live,
    fail: Option<String>,
    lazy: bool,
    tokens: Mutex<Vec<String>>,
}

impl RevertWriter for Writer {
    fn write<'a>(&'a self, batch: &'a Batch, token: &'a str) -> BoxFuture<'a, WriteOutcome> {
        self.tokens.lock().unwrap().push(token.to_string());
        let out = if self.fail.as_deref() == Some(batch.resource.logical_id.as_str()) {
            WriteOutcome::failed(
                1,
                WriteError {
                    code: Some("InvalidRequest".into()),
                    message: "refused by the service".into(),
                    transient: false,
                },
            )
        } else if self.lazy {
            WriteOutcome::ok(1)
        } else {
            let BatchAction::Patch(p) = &batch.action else {
                panic!("only patches here")
            };
            let pid = batch.resource.physical_id.clone().unwrap();
            let mut models = self.live.0.lock().unwrap();
            json_patch::patch(models.get_mut(&pid).unwrap(), p).unwrap();
            WriteOutcome::ok(1)
        };
        async move { out }.boxed()
    }
}

struct NoPause;
impl Pause for NoPause {
    fn pause(&self, _: Duration) -> BoxFuture<'_, ()> {
        async {}.boxed()
    }
}

/// Two queues from the corpus case, both with `VisibilityTimeout` 60 live
/// against 30 declared.
fn world() -> (Pipeline, Live) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/cases");
    let queue = CorpusCase::load(&dir.join("AWS__SQS__Queue.WorkQueue.json")).unwrap();
    let live = Live::default();
    let mut resources = serde_json::Map::new();
    let mut rows = Vec::new();
    for name in ["Jobs", "Mail"] {
        let url = format!("https://sqs.us-east-1.amazonaws.com/111111111111/{name}");
        let mut declared = queue.resource.declared.clone();
        declared["QueueName"] = json!(name);
        resources.insert(
            name.into(),
            json!({"Type": "AWS::SQS::Queue", "Properties": declared}),
        );
        let mut model = queue.live_raw.clone();
        model["QueueName"] = json!(name);
        model["QueueUrl"] = json!(url);
        model["Arn"] = json!(format!("arn:aws:sqs:us-east-1:111111111111:{name}"));
        live.0.lock().unwrap().insert(url.clone(), model);
        rows.push(StackResourceRow {
            logical_id: name.into(),
            physical_id: Some(url),
            resource_type: "AWS::SQS::Queue".into(),
            status: "CREATE_COMPLETE".into(),
        });
    }
    let stacks = MemoryStacks::default().with_stack(MemoryStack {
        description: StackDescription {
            name: "App".into(),
            stack_id: STACK_ID.into(),
            status: "CREATE_COMPLETE".into(),
            ..Default::default()
        },
        template: json!({"Resources": resources}).to_string(),
        resources: rows,
    });
    let schemas = InMemorySchemas::new().with_facts("AWS::SQS::Queue", queue.schema.clone());
    let p = Pipeline::new(Arc::new(stacks), Arc::new(live.clone()), Arc::new(schemas));
    (p, live)
}

fn checked(p: &Pipeline, store: &MemoryStore) -> CheckedStack {
    let opts = CheckOptions {
        show_all: false,
        region: "us-east-1".into(),
        store_location: "mem".into(),
    };
    let mut run = block_on(check_stacks(p, store, &["App".to_string()], &opts)).unwrap();
    run.stacks.remove(0)
}

fn revert(writer: &Writer, live: &Live, c: &CheckedStack) -> realdrift_core::revert::RevertOutcome {
    let g = c.gathered.as_ref().unwrap();
    let plan = build_plan(
        &PlanInput::from_checked(&c.report, g),
        &PlanOptions::default(),
    );
    let ignores = IgnoreConfig::default();
    let io = RevertIo {
        writer,
        reread: Rereader {
            reader: live,
            children: None,
        },
        pause: &NoPause,
    };
    let checked = Checked {
        gathered: g,
        report: &c.report,
        baseline: None,
        ignores: &ignores,
    };
    block_on(apply_and_verify(
        &plan,
        checked,
        io,
        ApplySettings::default(),
    ))
}

fn statuses(o: &realdrift_core::revert::RevertOutcome) -> Vec<(String, ItemStatus)> {
    o.items.iter().map(|i| (i.id.clone(), i.status)).collect()
}

#[test]
fn applied_items_converge_and_a_following_check_is_clean() {
    let (p, live) = world();
    let store = MemoryStore::default();
    let before = checked(&p, &store);
    let writer = Writer {
        live: live.clone(),
        fail: None,
        lazy: false,
        tokens: Mutex::default(),
    };
    let out = revert(&writer, &live, &before);
    assert_eq!(
        statuses(&out),
        [
            ("Jobs:VisibilityTimeout".to_string(), ItemStatus::Converged),
            ("Mail:VisibilityTimeout".to_string(), ItemStatus::Converged),
        ]
    );
    assert!(out.converged() && out.other_drift.is_empty());
    let after = checked(&p, &store);
    assert!(
        after.report.findings.iter().all(|f| !f.tier.is_drift()),
        "{:?}",
        after.report.findings
    );
    // One token per batch, derived from the plan: the same plan gives the same tokens.
    let tokens = writer.tokens.lock().unwrap().clone();
    assert_eq!(tokens.len(), 2);
    assert_ne!(tokens[0], tokens[1]);
    let plan = build_plan(
        &PlanInput::from_checked(&before.report, before.gathered.as_ref().unwrap()),
        &PlanOptions::default(),
    );
    assert_eq!(batch_token(&plan.digest, &plan.batches()[0]), tokens[0]);
}

#[test]
fn one_failed_resource_leaves_the_other_reverted() {
    let (p, live) = world();
    let store = MemoryStore::default();
    let before = checked(&p, &store);
    let writer = Writer {
        live: live.clone(),
        fail: Some("Jobs".into()),
        lazy: false,
        tokens: Mutex::default(),
    };
    let out = revert(&writer, &live, &before);
    assert_eq!(
        statuses(&out),
        [
            ("Jobs:VisibilityTimeout".to_string(), ItemStatus::Failed),
            ("Mail:VisibilityTimeout".to_string(), ItemStatus::Converged),
        ]
    );
    assert_eq!(
        out.items[0].error.as_ref().and_then(|e| e.code.as_deref()),
        Some("InvalidRequest")
    );
    assert!(!out.converged());
    let after = checked(&p, &store);
    let drift: Vec<&str> = after
        .report
        .findings
        .iter()
        .filter(|f| f.tier.is_drift())
        .map(|f| f.logical_id.as_str())
        .collect();
    assert_eq!(drift, ["Jobs"]);
}

#[test]
fn a_write_that_changes_nothing_is_not_converged() {
    let (p, live) = world();
    let before = checked(&p, &MemoryStore::default());
    let writer = Writer {
        live: live.clone(),
        fail: None,
        lazy: true,
        tokens: Mutex::default(),
    };
    let out = revert(&writer, &live, &before);
    assert!(out
        .items
        .iter()
        .all(|i| i.status == ItemStatus::NotConverged && i.note.is_some()));
}

#[test]
fn a_resource_gone_before_the_re_read_is_not_converged() {
    let (p, live) = world();
    let before = checked(&p, &MemoryStore::default());
    let writer = Writer {
        live: live.clone(),
        fail: None,
        lazy: true,
        tokens: Mutex::default(),
    };
    live.0.lock().unwrap().clear();
    let out = revert(&writer, &live, &before);
    assert!(out
        .items
        .iter()
        .all(|i| i.status == ItemStatus::NotConverged));
}
