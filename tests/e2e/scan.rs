//! The scan function end to end, through a local Lambda runtime (`cargo
//! lambda watch` + `cargo lambda invoke`) against the emulator: a scheduled
//! scan dispatches and scans the fixture stack; an out-of-band change is
//! announced exactly once on SNS and Slack, a second scan announces
//! nothing, undoing the change announces "resolved", and a Slack receiver
//! answering 500 still leaves the SNS alert published and the state written.
//! A state that holds a newer read than the scan's is not replaced (no
//! false "resolved"), and a deleted stack is announced once and forgotten.
//! With REALDRIFT_SECURITY_HUB the drifted property is one Security Hub
//! finding: created ACTIVE on detect, archived on resolve, made ACTIVE
//! again (same finding, later UpdatedAt) when the drift returns.
//!
//! Alerts are read from an SQS queue subscribed to the topic and from a
//! local Slack webhook receiver. One runtime session serves every step.

use crate::lambda::LocalLambda;
use crate::scenarios::Scenario;
use crate::slack_receiver::SlackReceiver;
use crate::world::{ids, World, ACCOUNT};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::process::Command;

/// The scan scenarios.
pub const ALL: &[Scenario] = &[Scenario {
    name: "scan_function_announces_transitions_once",
    run: scan_function_announces_transitions_once,
}];

const FUNCTION: &str = "realdrift-scan";
const STACK: &str = "ScanApp";

/// The emulator resources around the function.
struct Around {
    bucket: String,
    topic: String,
    alerts: String,
    work: String,
    secret: String,
}

fn helper(w: &World, args: &[&str]) -> String {
    let script = w.root.join("tests/e2e/scan_world.py");
    let out = Command::new(w.emu.python())
        .arg(script)
        .args(args)
        .envs(w.emu.env())
        .output()
        .expect("run scan_world.py");
    assert!(
        out.status.success(),
        "scan_world.py {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn setup(w: &World, slack: &SlackReceiver) -> Around {
    let v: Value = serde_json::from_str(&helper(w, &["setup", &slack.url()])).expect("setup JSON");
    let s = |k: &str| v[k].as_str().unwrap_or_default().to_string();
    Around {
        bucket: s("bucket"),
        topic: s("topic"),
        alerts: s("alerts"),
        work: s("work"),
        secret: s("secret"),
    }
}

/// The SNS notifications waiting on the alert queue: (kind, subject, document).
/// The emulator delivers to the subscribed queue inside Publish, so what
/// the function published before its invoke returned is there now.
fn alerts(w: &World, a: &Around) -> Vec<(String, String, Value)> {
    let list: Vec<Value> =
        serde_json::from_str(&helper(w, &["alerts", &a.alerts])).expect("alerts JSON");
    list.into_iter()
        .map(|n| {
            let doc: Value = serde_json::from_str(n["Message"].as_str().unwrap_or_default())
                .unwrap_or_else(|e| panic!("SNS message is not JSON ({e}): {n}"));
            (
                doc["kind"].as_str().unwrap_or_default().to_string(),
                n["Subject"].as_str().unwrap_or_default().to_string(),
                doc,
            )
        })
        .collect()
}

/// The alerts, read until `n` arrived (bounded: 20 reads), then once more
/// so an extra one is seen too.
fn alerts_until(w: &World, a: &Around, n: usize) -> Vec<(String, String, Value)> {
    let mut got = Vec::new();
    for _ in 0..20 {
        got.extend(alerts(w, a));
        if got.len() >= n {
            break;
        }
    }
    got.extend(alerts(w, a));
    got
}

/// The kinds of [`alerts_until`].
fn alert_kinds(w: &World, a: &Around, n: usize) -> Vec<String> {
    alerts_until(w, a, n)
        .into_iter()
        .map(|(k, _, _)| k)
        .collect()
}

/// A scheduled scan: the schedule's event dispatches, then the work
/// queue's messages are handed to the function as its SQS trigger would.
fn scheduled_scan(l: &LocalLambda, w: &World, a: &Around) {
    let event = json!({
        "version": "0", "id": "e2e", "detail-type": "Scheduled Event", "source": "aws.events",
        "account": ACCOUNT, "time": "2026-11-30T12:00:00Z", "region": "us-east-1",
        "resources": ["arn:aws:events:us-east-1:123456789012:rule/realdrift-schedule"], "detail": {}
    });
    let out = l
        .invoke(FUNCTION, &event)
        .unwrap_or_else(|e| panic!("dispatch: {e}"));
    assert_eq!(out["dispatched"], json!([STACK]), "{out}");
    let work: Value = serde_json::from_str(&helper(w, &["work", &a.work])).expect("work JSON");
    let records = work["Records"].as_array().cloned().unwrap_or_default();
    assert_eq!(records.len(), 1, "one message per stack: {work}");
    assert_eq!(records[0]["body"], json!({"stack": STACK}).to_string());
    let out = l
        .invoke(FUNCTION, &work)
        .unwrap_or_else(|e| panic!("scan: {e}"));
    assert_eq!(out["batchItemFailures"], json!([]), "{out}\n{}", l.log());
}

fn scan_function_announces_transitions_once(w: &World) {
    let slack = SlackReceiver::start().expect("Slack receiver");
    let a = setup(w, &slack);
    let stack = w.deploy(STACK);
    let bucket = stack.id(ids::BUCKET).to_string();
    let mut env: BTreeMap<String, String> = w.emu.env().clone();
    env.insert("REALDRIFT_BUCKET".into(), a.bucket.clone());
    env.insert("REALDRIFT_TOPIC_ARN".into(), a.topic.clone());
    env.insert("REALDRIFT_SCAN_QUEUE_URL".into(), a.work.clone());
    env.insert("REALDRIFT_SLACK_SECRET_ID".into(), a.secret.clone());
    env.insert("REALDRIFT_SECURITY_HUB".into(), "1".into());
    env.insert("REALDRIFT_PARTITION".into(), "aws".into());
    env.insert("RUST_LOG".into(), "info".into());
    // Each step here is one transition of the same value: the flapping
    // window (tested in core) would hold the returns back.
    env.insert("REALDRIFT_FLAP_WINDOW_SECONDS".into(), "0".into());
    // Dispatch's in-flight markers: each dispatch here follows the worker
    // finishing the previous message, so every stack is queued again.
    env.insert("REALDRIFT_SCAN_VISIBILITY_SECONDS".into(), "5400".into());
    let l = LocalLambda::start(w.root, &w.dir, &env).expect("cargo lambda watch");

    // A first scan of an untouched stack is inventory: nothing announced.
    scheduled_scan(&l, w, &a);
    assert_eq!(alerts(w, &a), vec![], "first scan");
    assert!(
        slack.bodies().is_empty(),
        "first scan: {:?}",
        slack.bodies()
    );
    let state_key = format!("state/{STACK}.{ACCOUNT}.us-east-1.json");
    assert!(
        !helper(w, &["object", &a.bucket, &state_key]).is_empty(),
        "state written"
    );
    // The resource index on-change reads: the stack's resources by physical id.
    let index_key = format!("index/{ACCOUNT}.us-east-1.json");
    let index: Value =
        serde_json::from_str(&helper(w, &["object", &a.bucket, &index_key])).expect("index JSON");
    let row = index["resources"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|r| r["physicalId"] == json!(bucket));
    assert!(
        row.is_some_and(|r| r["stack"] == STACK && r["logicalId"] == ids::BUCKET),
        "{index}"
    );

    // An out-of-band change: exactly one alert, on SNS and on Slack.
    w.mutate(json!([["versioning", bucket, "Suspended"]]));
    scheduled_scan(&l, w, &a);
    let got = alerts_until(w, &a, 1);
    assert_eq!(got.len(), 1, "{got:?}");
    let (kind, subject, doc) = &got[0];
    assert_eq!(kind, "drift-detected");
    assert_eq!(
        subject,
        &format!("realdrift: drift detected in {STACK} (us-east-1)")
    );
    let f = &doc["findings"][0];
    assert_eq!(
        (
            f["logicalId"].as_str(),
            f["path"].as_str(),
            f["desired"].as_str(),
            f["actual"].as_str()
        ),
        (
            Some(ids::BUCKET),
            Some("VersioningConfiguration.Status"),
            Some("Enabled"),
            Some("Suspended")
        ),
        "{doc}"
    );
    let created = security_hub_finding(w, "ACTIVE", None);
    let posted = slack.bodies();
    assert_eq!(posted.len(), 1, "{posted:?}");
    assert!(
        posted[0].contains("drift detected in ScanApp")
            && posted[0].contains("Enabled → Suspended"),
        "{}",
        posted[0]
    );
    slack.clear();

    // Nothing changed: nothing announced.
    scheduled_scan(&l, w, &a);
    assert_eq!(alerts(w, &a), vec![], "second scan");
    assert!(slack.bodies().is_empty());

    // Undone: resolved, once.
    w.mutate(json!([["versioning", bucket, "Enabled"]]));
    scheduled_scan(&l, w, &a);
    assert_eq!(alert_kinds(w, &a, 1), vec!["drift-resolved"]);
    assert_eq!(slack.bodies().len(), 1);
    slack.clear();
    let archived = security_hub_finding(w, "ARCHIVED", Some(&created));

    // Slack answering 500: SNS still gets the alert and the state advances.
    slack.answer(500);
    w.mutate(json!([["versioning", bucket, "Suspended"]]));
    scheduled_scan(&l, w, &a);
    assert_eq!(alert_kinds(w, &a, 1), vec!["drift-detected"]);
    security_hub_finding(w, "ACTIVE", Some(&archived));
    assert!(
        slack.bodies().len() >= 2,
        "a 5xx is retried: {}",
        slack.bodies().len()
    );
    let state: Value =
        serde_json::from_str(&helper(w, &["object", &a.bucket, &state_key])).expect("state JSON");
    assert!(
        state["drift"]
            .as_array()
            .into_iter()
            .flatten()
            .any(|e| e["path"] == "VersioningConfiguration.Status"),
        "{state}"
    );
    // The Slack message is kept (for Slack only) ...
    let outbox = state["outbox"].as_array().cloned().unwrap_or_default();
    assert_eq!(outbox.len(), 1, "{state}");
    assert_eq!(outbox[0]["optionalOnly"], true, "{state}");
    // ... and the next run, Slack answering again, sends it there once.
    slack.answer(200);
    slack.clear();
    scheduled_scan(&l, w, &a);
    assert_eq!(
        alerts(w, &a),
        vec![],
        "the state advanced: no repeat on SNS"
    );
    let posted = slack.bodies();
    assert_eq!(posted.len(), 1, "{posted:?}");
    assert!(
        posted[0].contains("drift detected in ScanApp"),
        "{}",
        posted[0]
    );
    let state: Value =
        serde_json::from_str(&helper(w, &["object", &a.bucket, &state_key])).expect("state JSON");
    assert_eq!(state["outbox"], Value::Null, "sent: released: {state}");
    slack.clear();
    scheduled_scan(&l, w, &a);
    assert!(slack.bodies().is_empty(), "sent once");

    // A direct invoke returns the findings; nothing new to announce.
    let out = l
        .invoke(FUNCTION, &json!({"stacks": [STACK]}))
        .unwrap_or_else(|e| panic!("direct invoke: {e}"));
    let found = out["stacks"][0]["findings"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert!(
        found
            .iter()
            .any(|f| f["path"] == "VersioningConfiguration.Status" && f["actual"] == "Suspended"),
        "{out}"
    );
    assert_eq!(out["announced"][STACK], json!([]), "{out}");
    assert_eq!(alerts(w, &a), vec![]);

    older_reads_do_not_replace_newer_ones(&l, w, &a, &bucket);
    an_applied_revert_is_rechecked_at_once(&l, w, &a, &bucket);
    a_deleted_stack_is_forgotten_once(&l, w, &a);

    let log = l.log();
    assert_emf(&log);
    assert!(
        log.contains(&format!("\"stack\":\"{STACK}\"")),
        "JSON log lines name the stack"
    );
    assert!(
        !log.contains(&slack.url()),
        "the webhook URL is never logged"
    );
}

/// The one Security Hub finding of the bucket's versioning drift, in
/// `state` (never a second one: the Id is stable), updated after `before`
/// when given (Security Hub applies only a later UpdatedAt). Returns it.
fn security_hub_finding(w: &World, state: &str, before: Option<&Value>) -> Value {
    let all: Vec<Value> = serde_json::from_str(&helper(w, &["findings"])).expect("findings JSON");
    let id = format!(
        "realdrift/{ACCOUNT}/us-east-1/{STACK}/{}/VersioningConfiguration.Status",
        ids::BUCKET
    );
    let mine: Vec<&Value> = all.iter().filter(|f| f["Id"] == json!(id)).collect();
    assert_eq!(mine.len(), 1, "one finding per property: {all:#?}");
    let f = mine[0];
    assert_eq!(f["RecordState"], state, "{f:#}");
    assert_eq!(f["AwsAccountId"], ACCOUNT);
    assert_eq!(
        f["ProductArn"],
        format!("arn:aws:securityhub:us-east-1:{ACCOUNT}:product/{ACCOUNT}/default")
    );
    if let Some(b) = before {
        assert!(
            f["UpdatedAt"].as_str() > b["UpdatedAt"].as_str(),
            "updated: {f:#} after {b:#}"
        );
    }
    f.clone()
}

/// The state holds a read that started after the next scan's (as when
/// on-change re-read the bucket while a scan was under way): the scan's
/// older read of the undone change leaves the drift as the state has it.
fn older_reads_do_not_replace_newer_ones(l: &LocalLambda, w: &World, a: &Around, bucket: &str) {
    let state_key = format!("state/{STACK}.{ACCOUNT}.us-east-1.json");
    let later = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as u64 + 3_600_000)
        .unwrap_or(u64::MAX);
    helper(
        w,
        &["hold-newer", &a.bucket, &state_key, &later.to_string()],
    );
    w.mutate(json!([["versioning", bucket, "Enabled"]]));
    scheduled_scan(l, w, a);
    assert_eq!(alerts(w, a), vec![], "an older read announced a resolution");
    let state: Value =
        serde_json::from_str(&helper(w, &["object", &a.bucket, &state_key])).expect("state JSON");
    assert!(
        state["drift"]
            .as_array()
            .into_iter()
            .flatten()
            .any(|e| e["path"] == "VersioningConfiguration.Status"),
        "the newer read's drift is kept: {state}"
    );
    // Once the state's reads are older than the scan's, it settles as usual.
    helper(w, &["hold-newer", &a.bucket, &state_key, "0"]);
    scheduled_scan(l, w, a);
    assert_eq!(alert_kinds(w, a, 1), vec!["drift-resolved"]);
}

/// The revert function applies a plan: it queues the stack on the scan
/// work queue itself, and that message (handed to the scan function as
/// its SQS trigger would; the test dispatches nothing) announces the
/// drift resolved.
fn an_applied_revert_is_rechecked_at_once(l: &LocalLambda, w: &World, a: &Around, bucket: &str) {
    w.mutate(json!([["versioning", bucket, "Suspended"]]));
    scheduled_scan(l, w, a);
    assert_eq!(alert_kinds(w, a, 1), vec!["drift-detected"]);
    let revert = |event: Value| {
        l.invoke("realdrift-revert", &event)
            .unwrap_or_else(|e| panic!("revert {event}: {e}"))
    };
    let dry = revert(json!({"stack": STACK}));
    let digest = dry["digest"].as_str().unwrap_or_default().to_string();
    let r = revert(json!({"stack": STACK, "dryRun": false, "planDigest": digest}));
    assert_eq!(
        (r["status"].as_str(), r["recheck"].as_str()),
        (Some("converged"), Some("queued")),
        "{r}"
    );
    let work: Value = serde_json::from_str(&helper(w, &["work", &a.work])).expect("work JSON");
    let records = work["Records"].as_array().cloned().unwrap_or_default();
    assert_eq!(records.len(), 1, "the revert queued its stack: {work}");
    assert_eq!(records[0]["body"], json!({"stack": STACK}).to_string());
    let out = l
        .invoke(FUNCTION, &work)
        .unwrap_or_else(|e| panic!("scan: {e}"));
    assert_eq!(out["batchItemFailures"], json!([]), "{out}\n{}", l.log());
    assert_eq!(alert_kinds(w, a, 2), vec!["revert", "drift-resolved"]);
}

/// The stack is deleted: the next dispatch prunes its index rows and queues
/// it once more; the scan announces it gone once and removes its state.
fn a_deleted_stack_is_forgotten_once(l: &LocalLambda, w: &World, a: &Around) {
    helper(w, &["delete-stack", STACK]);
    let event = json!({
        "version": "0", "id": "e2e-gone", "detail-type": "Scheduled Event", "source": "aws.events",
        "account": ACCOUNT, "time": "2026-11-30T13:00:00Z", "region": "us-east-1",
        "resources": ["arn:aws:events:us-east-1:123456789012:rule/realdrift-schedule"], "detail": {}
    });
    let out = l
        .invoke(FUNCTION, &event)
        .unwrap_or_else(|e| panic!("dispatch: {e}"));
    assert_eq!(
        (out["dispatched"].clone(), out["gone"].clone()),
        (json!([]), json!([STACK])),
        "{out}"
    );
    let index_key = format!("index/{ACCOUNT}.us-east-1.json");
    let index = helper(w, &["object", &a.bucket, &index_key]);
    assert!(!index.contains(STACK), "rows pruned: {index}");
    let work: Value = serde_json::from_str(&helper(w, &["work", &a.work])).expect("work JSON");
    for _ in 0..2 {
        let out = l
            .invoke(FUNCTION, &work)
            .unwrap_or_else(|e| panic!("scan: {e}"));
        assert_eq!(out["batchItemFailures"], json!([]), "{out}\n{}", l.log());
    }
    let got = alerts_until(w, a, 1);
    assert_eq!(got.len(), 1, "announced once: {got:?}");
    assert_eq!(got[0].0, "coverage-lost");
    assert!(
        got[0].2.to_string().contains("no longer exists"),
        "{:?}",
        got[0]
    );
    let state_key = format!("state/{STACK}.{ACCOUNT}.us-east-1.json");
    assert_eq!(
        helper(w, &["object", &a.bucket, &state_key]),
        "",
        "state removed"
    );
}

/// The per-stack Embedded Metric Format lines: the counts a Logs Insights
/// query reads, and findings by tier. Custom metrics are off by default
/// (docs/functions.md, "Metrics"): no line declares a metric.
fn assert_emf(log: &str) {
    let all: Vec<Value> = log
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .collect();
    assert!(
        all.iter().all(|v| v.get("_aws").is_none()),
        "no custom metric without REALDRIFT_CUSTOM_METRICS=1:\n{log}"
    );
    let scanned: Vec<&Value> = all
        .iter()
        .filter(|v| v.get("StacksScanned").is_some())
        .collect();
    assert!(!scanned.is_empty(), "no per-stack EMF line:\n{log}");
    for m in &scanned {
        assert_eq!(m["Function"], "scan", "{m}");
        let n = |k: &str| m[k].as_f64().unwrap_or(-1.0);
        assert!(
            n("ResourcesRead") >= 5.0 && n("AwsCalls") >= n("ResourcesRead"),
            "{m}"
        );
        assert_eq!(n("ReadFailures"), 0.0, "{m}");
        assert!(n("ScanDuration") >= 0.0, "{m}");
    }
    // Findings by tier: log fields.
    assert!(
        all.iter()
            .any(|v| v["Tier"] == "declared" && v["Findings"].as_f64().is_some_and(|n| n >= 1.0)),
        "findings by tier:\n{log}"
    );
}
