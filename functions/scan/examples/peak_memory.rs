//! Peak memory of one scan of a 300-resource stack through the scan
//! function's SQS handler, over in-memory sources (the live models are the
//! corpus's real Cloud Control answers, one per resource), a memory store
//! and memory notifiers: the engine's own footprint, without the SDK.
//!
//! ```sh
//! cargo run --release -p realdrift-fn-scan --example peak_memory [RESOURCES]
//! ```
//!
//! Prints the resident-set high-water mark (VmHWM) after a first scan and
//! a second one with every resource drifted (every notice rendered), and
//! the state and index objects' sizes after each.

use realdrift_core::baseline::MemoryStore;
use realdrift_core::corpus::CorpusCase;
use realdrift_core::events::Catalog;
use realdrift_core::notify::{MemoryNotifier, Notifier};
use realdrift_core::pipeline::memory::{MemoryReader, MemoryStack, MemoryStacks};
use realdrift_core::pipeline::{Pipeline, ReadOutcome, StackDescription, StackResourceRow};
use realdrift_core::schema::InMemorySchemas;
use realdrift_core::watch::{Channels, WorkMessage};
use realdrift_scan::{handle, Invocation, Scanner};
use serde_json::{json, Map, Value};
use std::path::PathBuf;
use std::sync::Arc;

fn pipeline(n: usize, drift: bool) -> Pipeline {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/cases");
    let case = CorpusCase::load(&dir.join("AWS__SQS__Queue.WorkQueue.json")).expect("corpus case");
    let mut resources = Map::new();
    let mut rows = Vec::new();
    let mut reader = MemoryReader::default();
    for i in 0..n {
        let id = format!("Queue{i:03}");
        let pid = format!("https://sqs.eu-west-1.amazonaws.com/111111111111/q{i}");
        let mut declared = case.resource.declared.clone();
        declared["QueueName"] = json!(format!("q{i}"));
        resources.insert(
            id.clone(),
            json!({"Type": "AWS::SQS::Queue", "Properties": declared,
                   "Metadata": {"aws:cdk:path": format!("Big/{id}/Resource")}}),
        );
        let mut live = case.live_raw.clone();
        live["QueueName"] = json!(format!("q{i}"));
        live["QueueUrl"] = json!(pid);
        live["Arn"] = json!(format!("arn:aws:sqs:eu-west-1:111111111111:q{i}"));
        live["VisibilityTimeout"] = json!(if drift { 60 } else { 30 });
        reader = reader.with("AWS::SQS::Queue", &pid, ReadOutcome::found(live));
        rows.push(StackResourceRow {
            logical_id: id,
            physical_id: Some(pid),
            resource_type: "AWS::SQS::Queue".into(),
            status: "CREATE_COMPLETE".into(),
        });
    }
    let stacks = MemoryStacks::default().with_stack(MemoryStack {
        description: StackDescription {
            name: "Big".into(),
            stack_id: "arn:aws:cloudformation:eu-west-1:111111111111:stack/Big/1".into(),
            status: "CREATE_COMPLETE".into(),
            ..Default::default()
        },
        template: Value::Object(Map::from_iter([(
            "Resources".into(),
            Value::Object(resources),
        )]))
        .to_string(),
        resources: rows,
    });
    let schemas = InMemorySchemas::new().with_facts("AWS::SQS::Queue", case.schema.clone());
    Pipeline::new(Arc::new(stacks), Arc::new(reader), Arc::new(schemas))
}

fn vm_hwm_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(300);
    let bucket = Arc::new(MemoryStore::new());
    let sns = Arc::new(MemoryNotifier::new("sns"));
    let event = json!({"Records": [{
        "messageId": "m", "body": WorkMessage::stack("Big").body(), "eventSource": "aws:sqs"
    }]});
    let inv = Invocation {
        request_id: "peak".into(),
        deadline_ms: u64::MAX / 2,
    };
    for drift in [false, true] {
        let sns_dyn: Arc<dyn Notifier> = sns.clone();
        let scanner = Scanner {
            pipeline: pipeline(n, drift),
            baselines: Arc::new(MemoryStore::new()),
            baselines_location: "memory".into(),
            bucket: bucket.clone(),
            hub: None,
            channels: Channels {
                required: vec![sns_dyn],
                optional: Vec::new(),
            },
            queue: None,
            stacks: Vec::new(),
            region: "eu-west-1".into(),
            catalog: Catalog::bundled().unwrap(),
            lost_after: 2,
            flap_window_ms: realdrift_core::watch::DEFAULT_FLAP_WINDOW_MS,
            storm: realdrift_core::watch::StormPolicy::default(),
            inflight_ttl_ms: None,
        };
        let out = handle(&scanner, event.clone(), &inv).await.expect("scan");
        assert_eq!(out["batchItemFailures"], json!([]), "{out}");
        // The objects' sizes, which the cost estimate prices as noncurrent versions.
        let sizes = bucket.snapshot();
        let bytes = |prefix: &str| -> usize {
            sizes
                .iter()
                .filter(|(k, _)| k.starts_with(prefix))
                .map(|(_, t)| t.len())
                .sum()
        };
        println!(
            "drift={drift} state_object_bytes={} index_object_bytes={}",
            bytes("state/"),
            bytes("index/")
        );
    }
    let state_bytes: usize = bucket.snapshot().values().map(String::len).sum();
    println!(
        "resources={n} notices={} state_bytes={state_bytes} peak_rss_mib={:.1}",
        sns.sent().len(),
        vm_hwm_kib() as f64 / 1024.0
    );
}
