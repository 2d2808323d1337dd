//! Revert end to end: the mutation matrix is reverted by `realdrift revert`
//! and a following check is clean; unrecorded values are refused until
//! `--remove-unrecorded`; a create-only drift is refused with its reason; a
//! write that fails for one resource leaves the others reverted (exit 2).

use crate::scenarios::Scenario;
use crate::world::{drift_findings, ids, summary, World};
use serde_json::{json, Value};

/// The revert scenarios, in run order.
pub const ALL: &[Scenario] = &[
    Scenario {
        name: "revert_converges_declared_and_appeared_drift",
        run: revert_converges_declared_and_appeared_drift,
    },
    Scenario {
        name: "revert_restores_recorded_values",
        run: revert_restores_recorded_values,
    },
    Scenario {
        name: "revert_refuses_unrecorded_until_asked",
        run: revert_refuses_unrecorded_until_asked,
    },
    Scenario {
        name: "revert_refuses_create_only_drift",
        run: revert_refuses_create_only_drift,
    },
    Scenario {
        name: "revert_one_failed_write_leaves_the_others",
        run: revert_one_failed_write_leaves_the_others,
    },
    Scenario {
        name: "revert_lambda_through_the_local_runtime",
        run: crate::revert_lambda::revert_lambda_through_the_local_runtime,
    },
];

fn check(w: &World, stack: &str) -> (i32, Value) {
    let run = w.realdrift(&["check", stack, "--json", "--fail"]);
    (run.code, run.json())
}

/// `revert --yes --json` (plus `extra`): the exit code and the stack's element.
fn revert(w: &World, stack: &str, extra: &[&str]) -> (i32, Value) {
    let mut args = vec!["revert", stack, "--yes", "--json", "--wait", "30s"];
    args.extend_from_slice(extra);
    let run = w.realdrift(&args);
    let doc = run.json();
    assert_eq!(doc["exitCode"], run.code, "{doc}");
    (run.code, doc["stacks"][0].clone())
}

/// `(item id, status)` of every applied item.
fn statuses(stack: &Value) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = stack["outcome"]["items"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|i| {
            (
                i["id"].as_str().unwrap_or_default().to_string(),
                i["status"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect();
    out.sort();
    out
}

fn assert_clean(w: &World, stack: &str) {
    let (code, doc) = check(w, stack);
    let drift = drift_findings(&doc);
    assert!(drift.is_empty(), "after revert:\n{}", summary(&drift));
    assert_eq!(code, 0, "{doc}");
}

fn revert_converges_declared_and_appeared_drift(w: &World) {
    let s = w.deploy("RevertAll");
    // A baseline of the untouched stack: what appears later is drift.
    w.realdrift(&["record", "RevertAll", "--yes"])
        .expect_code(0);
    let (bucket, topic, role) = (s.id(ids::BUCKET), s.id(ids::TOPIC), s.id(ids::ROLE));
    w.mutate(json!([
        ["versioning", bucket, "Suspended"],
        ["topic-display-name", topic, "Changed by hand"],
        ["accelerate", bucket, "Enabled"],
        ["cors-put", bucket, "https://app.example"],
        ["role-policy", role, "Rogue", "s3:*"],
        ["subscribe", topic, "email", "oncall@example.com"],
    ]));
    let (code, doc) = check(w, "RevertAll");
    assert_eq!(code, 1);
    assert_eq!(
        drift_findings(&doc).len(),
        6,
        "{}",
        summary(&drift_findings(&doc))
    );

    let (code, stack) = revert(w, "RevertAll", &[]);
    assert_eq!(code, 0, "{stack}");
    let got = statuses(&stack);
    assert_eq!(got.len(), 6, "{stack}");
    assert!(got.iter().all(|(_, s)| s == "converged"), "{got:?}");
    let writers: Vec<&str> = stack["plan"]["items"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|i| i["writer"].as_str())
        .collect();
    assert!(writers.contains(&"iamInlinePolicy"), "{writers:?}");
    let deletes = stack["plan"]["items"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|i| i["kind"] == "delete")
        .count();
    assert_eq!(deletes, 1, "the out-of-band subscription is deleted");
    assert_clean(w, "RevertAll");
}

fn revert_restores_recorded_values(w: &World) {
    let s = w.deploy("RevertRecorded");
    let (bucket, role) = (s.id(ids::BUCKET), s.id(ids::ROLE));
    w.mutate(json!([
        ["accelerate", bucket, "Enabled"],
        ["cors-put", bucket, "https://app.example"],
        ["role-policy", role, "Rogue", "s3:*"],
    ]));
    w.realdrift(&["record", "RevertRecorded", "--yes"])
        .expect_code(0);
    // Changed, removed and changed since record.
    w.mutate(json!([
        ["accelerate", bucket, "Suspended"],
        ["cors-delete", bucket],
        ["role-policy", role, "Rogue", "iam:*"],
    ]));
    assert_eq!(check(w, "RevertRecorded").0, 1);

    let (code, stack) = revert(w, "RevertRecorded", &[]);
    assert_eq!(code, 0, "{stack}");
    let kinds: Vec<&str> = stack["plan"]["items"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|i| i["kind"].as_str())
        .collect();
    assert_eq!(kinds, ["baseline", "baseline", "baseline"], "{stack}");
    assert!(
        statuses(&stack).iter().all(|(_, s)| s == "converged"),
        "{stack}"
    );
    assert_clean(w, "RevertRecorded");
    // The recorded values are back, not merely removed.
    let run = w.realdrift(&["check", "RevertRecorded", "--json", "--show-all"]);
    let doc = run.json();
    let cors = crate::world::the_finding(&doc, "undeclared", ids::BUCKET, "CorsConfiguration");
    assert!(
        cors["actual"].to_string().contains("https://app.example"),
        "{cors}"
    );
    let policy = crate::world::the_finding(&doc, "undeclared", ids::ROLE, "Policies");
    assert!(policy["actual"].to_string().contains("s3:*"), "{policy}");
}

fn revert_refuses_unrecorded_until_asked(w: &World) {
    let s = w.deploy("RevertUnrecorded");
    w.mutate(json!([
        ["accelerate", s.id(ids::BUCKET), "Enabled"],
        ["role-policy", s.id(ids::ROLE), "Rogue", "s3:*"],
    ]));
    // No baseline: both values are unrecorded, so there is no revert target.
    let (code, stack) = revert(w, "RevertUnrecorded", &[]);
    assert_eq!(code, 0, "{stack}");
    assert_eq!(stack["written"], false, "{stack}");
    assert_eq!(stack["plan"]["items"], json!([]));
    let reasons: Vec<&str> = stack["plan"]["refused"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|r| r["reason"].as_str())
        .collect();
    assert_eq!(reasons, ["unrecorded", "unrecorded"], "{stack}");
    let (_, doc) = check(w, "RevertUnrecorded");
    assert_eq!(doc["summary"]["potentialDrift"], 2, "nothing was written");

    // The text plan folds the refusals by reason.
    let text = w.realdrift(&["revert", "RevertUnrecorded", "--dry-run"]);
    text.expect_code(0);
    assert!(
        text.stdout.contains("Not revertable (2):"),
        "{}",
        text.stdout
    );
    assert!(text.stdout.contains("unrecorded — "), "{}", text.stdout);

    let (code, stack) = revert(w, "RevertUnrecorded", &["--remove-unrecorded"]);
    assert_eq!(code, 0, "{stack}");
    let items = stack["plan"]["items"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert_eq!(items.len(), 2, "{stack}");
    assert!(items
        .iter()
        .all(|i| i["unrecorded"] == true && i["kind"] == "remove"));
    assert!(
        statuses(&stack).iter().all(|(_, s)| s == "converged"),
        "{stack}"
    );
    let run = w.realdrift(&["check", "RevertUnrecorded", "--json", "--show-all"]);
    let drift = drift_findings(&run.json());
    assert!(drift.is_empty(), "removed:\n{}", summary(&drift));
}

fn revert_refuses_create_only_drift(w: &World) {
    let s = w.deploy("RevertCreateOnly");
    w.realdrift(&["record", "RevertCreateOnly", "--yes"])
        .expect_code(0);
    w.mutate(json!([["queue-fifo", s.id(ids::QUEUE)]]));
    let (code, stack) = revert(w, "RevertCreateOnly", &[]);
    assert_eq!(code, 0, "{stack}");
    assert_eq!(stack["written"], false);
    // (moto also drops the queue's policy when FifoQueue is set, so the
    // policy is refused as deleted; only the create-only refusal matters here.)
    let refused: Vec<Value> = stack["plan"]["refused"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|r| r["resource"]["logicalId"] == ids::QUEUE)
        .cloned()
        .collect();
    assert_eq!(refused.len(), 1, "{stack}");
    assert_eq!(refused[0]["reason"], "createOnly");
    assert_eq!(refused[0]["path"], "FifoQueue");
    assert!(
        refused[0]["message"]
            .as_str()
            .unwrap_or_default()
            .contains("create-only property FifoQueue"),
        "{}",
        refused[0]
    );
    let text = w.realdrift(&["revert", "RevertCreateOnly", "--dry-run", "--verbose"]);
    assert!(
        text.stdout
            .contains("create-only property — requires replacing the resource (1)"),
        "{}",
        text.stdout
    );
    assert!(
        text.stdout.contains(&format!("{}:FifoQueue", ids::QUEUE)),
        "{}",
        text.stdout
    );
}

fn revert_one_failed_write_leaves_the_others(w: &World) {
    let s = w.deploy("RevertPartial");
    let (bucket, topic) = (s.id(ids::BUCKET), s.id(ids::TOPIC));
    w.mutate(json!([
        ["versioning", bucket, "Suspended"],
        ["topic-display-name", topic, "Changed by hand"],
        // The topic's write always fails; the bucket's is throttled once.
        ["cc-fault", "UpdateResource", topic, "InvalidRequest"],
        ["cc-fault", "UpdateResource", bucket, "Throttling", 1],
    ]));
    let (code, stack) = revert(w, "RevertPartial", &[]);
    assert_eq!(code, 2, "{stack}");
    let items = stack["outcome"]["items"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let by_id = |id: &str| -> Value {
        items
            .iter()
            .find(|i| i["id"] == id)
            .cloned()
            .unwrap_or_else(|| panic!("no item {id}: {stack}"))
    };
    let b = by_id(&format!("{}:VersioningConfiguration.Status", ids::BUCKET));
    assert_eq!(
        (&b["status"], &b["attempts"]),
        (&json!("converged"), &json!(2)),
        "{b}"
    );
    let t = by_id(&format!("{}:DisplayName", ids::TOPIC));
    assert_eq!(t["status"], "failed", "{t}");
    assert_eq!(t["error"]["code"], "InvalidRequest", "{t}");

    let (code, doc) = check(w, "RevertPartial");
    assert_eq!(code, 1);
    let left: Vec<String> = drift_findings(&doc)
        .iter()
        .map(|f| {
            format!(
                "{}.{}",
                f["logicalId"].as_str().unwrap_or_default(),
                f["path"].as_str().unwrap_or_default()
            )
        })
        .collect();
    assert_eq!(left, [format!("{}.DisplayName", ids::TOPIC)]);

    // The text form names the failure and ends with the tally.
    let text = w.realdrift(&["revert", "RevertPartial", "--yes", "--wait", "1s"]);
    text.expect_code(2);
    assert!(
        text.stdout
            .contains(&format!("FAILED: {}.DisplayName", ids::TOPIC)),
        "{}",
        text.stdout
    );
    assert!(
        text.stdout.contains("0 reverted, 1 failed"),
        "{}",
        text.stdout
    );
}
