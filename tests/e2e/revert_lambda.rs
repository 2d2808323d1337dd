//! The revert function end to end, through the local Lambda runtime
//! (`cargo lambda watch` + `cargo lambda invoke`, one session for every
//! step): a stack outside the scope is refused, a dry run returns the plan
//! and its digest, an apply with a stale digest writes nothing, an apply
//! with the current digest converges, a following check is clean, and the
//! applied revert is published to SNS.

use crate::lambda::LocalLambda;
use crate::world::{drift_findings, ids, summary, World};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

const BUCKET: &str = "realdrift-fn-e2e";
const STACK: &str = "FnRevert";

/// Runs tests/e2e/sns_inbox.py.
fn inbox(w: &World, args: &[&str]) -> Value {
    let script: PathBuf = Path::new(w.root).join("tests/e2e/sns_inbox.py");
    let out = Command::new(w.emu.python())
        .arg(script)
        .args(args)
        .envs(w.emu.env())
        .output()
        .expect("sns_inbox.py");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("inbox JSON")
}

fn s3_check(w: &World) -> (i32, Value) {
    let base = format!("s3://{BUCKET}/baselines");
    let run = w.realdrift(&["check", STACK, "--json", "--fail", "--baseline-s3", &base]);
    (run.code, run.json())
}

/// The whole Lambda story in one local runtime session.
pub fn revert_lambda_through_the_local_runtime(w: &World) {
    let s = w.deploy(STACK);
    w.mutate(json!([["create-bucket", BUCKET]]));
    let sns = inbox(w, &["create", "realdrift-alerts"]);
    let base = format!("s3://{BUCKET}/baselines");
    w.realdrift(&["record", STACK, "--yes", "--baseline-s3", &base])
        .expect_code(0);
    let (bucket, topic, role) = (s.id(ids::BUCKET), s.id(ids::TOPIC), s.id(ids::ROLE));
    w.mutate(json!([
        ["versioning", bucket, "Suspended"],
        ["topic-display-name", topic, "Changed by hand"],
        ["role-policy", role, "Rogue", "s3:*"],
        ["subscribe", topic, "email", "oncall@example.com"],
    ]));

    let topic_arn = sns["topicArn"].as_str().unwrap_or_default().to_string();
    let mut env: BTreeMap<String, String> = w.emu.env().clone();
    for (k, v) in [
        ("REALDRIFT_BUCKET", BUCKET),
        ("REALDRIFT_TOPIC_ARN", &topic_arn),
        ("REALDRIFT_STACKS", "FnRevert,Other*"),
        ("RUST_LOG", "info"),
    ] {
        env.insert(k.into(), v.into());
    }
    let lambda = LocalLambda::start(w.root, &w.dir, &env).expect("local Lambda runtime");
    let invoke = |event: Value| {
        lambda
            .invoke("realdrift-revert", &event)
            .unwrap_or_else(|e| panic!("invoke {event}: {e}"))
    };

    // Outside the scope: refused before anything is read.
    let r = invoke(json!({"stack": "NotInScope"}));
    assert_eq!(r["status"], "refused", "{r}");

    // A dry run is the default.
    let dry = invoke(json!({"stack": STACK}));
    assert_eq!(dry["status"], "planned", "{dry}");
    assert_eq!(
        dry["plan"]["items"].as_array().map(Vec::len),
        Some(4),
        "{dry}"
    );
    let stale = dry["digest"].as_str().unwrap_or_default().to_string();

    // Something else drifts before the apply: the approved digest is stale.
    w.mutate(json!([["accelerate", bucket, "Enabled"]]));
    let r = invoke(json!({"stack": STACK, "dryRun": false, "planDigest": stale}));
    assert_eq!(r["status"], "refused", "{r}");
    assert!(
        r["message"]
            .as_str()
            .unwrap_or_default()
            .contains("nothing was written"),
        "{r}"
    );
    assert!(r.get("outcome").is_none());
    let (_, doc) = s3_check(w);
    assert_eq!(
        drift_findings(&doc).len(),
        5,
        "nothing written:\n{}",
        summary(&drift_findings(&doc))
    );

    // The new plan, approved and applied.
    let dry = invoke(json!({"stack": STACK}));
    let digest = dry["digest"].as_str().unwrap_or_default().to_string();
    assert_ne!(digest, stale);
    let r = invoke(json!({"stack": STACK, "dryRun": false, "planDigest": digest}));
    assert_eq!(r["status"], "converged", "{r}");
    let items = r["outcome"]["items"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert_eq!(items.len(), 5, "{r}");
    assert!(items.iter().all(|i| i["status"] == "converged"), "{r}");

    let (code, doc) = s3_check(w);
    assert!(
        drift_findings(&doc).is_empty(),
        "{}",
        summary(&drift_findings(&doc))
    );
    assert_eq!(code, 0);

    // One notice, for the one apply.
    let queue = sns["queueUrl"].as_str().unwrap_or_default().to_string();
    let notices = inbox(w, &["read", &queue]);
    let notices = notices.as_array().cloned().unwrap_or_default();
    assert_eq!(notices.len(), 1, "{notices:?}");
    let n = &notices[0];
    assert_eq!(
        n["subject"],
        format!("realdrift revert converged: {STACK} (5 reverted, 0 failed)")
    );
    assert_eq!(n["message"]["planDigest"], json!(digest));
    assert_eq!(n["message"]["result"], "converged");
    assert_eq!(n["message"]["items"].as_array().map(Vec::len), Some(5));
}
