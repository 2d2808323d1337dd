//! An Organization hub's delivery across accounts: the hub (moto's default
//! account) has the findings bus with the synthesized policy (only the
//! Organization may put events) and delivery rules (the member's account
//! named), its topic subscribed by an SQS inbox; a member account of the
//! Organization runs the scan function with assumed-role credentials and
//! REALDRIFT_EVENT_BUS_ARN naming the hub's bus. An out-of-band change in the
//! member reaches the hub's inbox with the member's account id and name; an
//! account outside the Organization is refused by the bus policy.
//!
//! moto 5.1.22 routes PutEvents by bus name only and has no SNS rule
//! targets: tests/emulator/moto_patches/events_org.py does both as AWS does
//! (docs/emulator.md).

use crate::lambda::LocalLambda;
use crate::scenarios::Scenario;
use crate::world::{ids, World};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::process::Command;

/// The hub delivery scenario.
pub const ALL: &[Scenario] = &[Scenario {
    name: "org_hub_delivers_a_member_transition_and_refuses_outsiders",
    run: org_hub_delivery,
}];

const STACK: &str = "HubApp";

fn helper(w: &World, args: &[&str]) -> Value {
    let out = Command::new(w.emu.python())
        .arg(w.root.join("tests/e2e/org_world.py"))
        .args(args)
        .envs(w.emu.env())
        .output()
        .expect("run org_world.py");
    assert!(
        out.status.success(),
        "org_world.py {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("org_world.py JSON")
}

/// A scheduled scan in the member: dispatch, then the work queue's messages.
fn scheduled_scan(l: &LocalLambda, w: &World, member: &str, work: &str) {
    let event = json!({
        "version": "0", "id": "e2e-org", "detail-type": "Scheduled Event", "source": "aws.events",
        "account": member, "time": "2026-12-07T01:00:00Z", "region": "us-east-1",
        "resources": [format!("arn:aws:events:us-east-1:{member}:rule/realdrift-schedule")], "detail": {}
    });
    let out = l
        .invoke("realdrift-scan", &event)
        .unwrap_or_else(|e| panic!("dispatch: {e}"));
    assert_eq!(out["dispatched"], json!([STACK]), "{out}\n{}", l.log());
    let records = helper(w, &["work", member, work]);
    let out = l
        .invoke("realdrift-scan", &records)
        .unwrap_or_else(|e| panic!("scan: {e}"));
    assert_eq!(out["batchItemFailures"], json!([]), "{out}\n{}", l.log());
}

fn org_hub_delivery(w: &World) {
    let setup = helper(w, &["setup"]);
    let s = |k: &str| setup[k].as_str().unwrap_or_default().to_string();
    let (member, bus, inbox) = (s("member"), s("bus"), s("inbox"));
    let stack = w.deploy_in(&member, STACK);
    let bucket = stack.id(ids::BUCKET).to_string();

    let mut env: BTreeMap<String, String> = w.emu.env().clone();
    for (k, v) in [
        ("AWS_ACCESS_KEY_ID", s("accessKeyId")),
        ("AWS_SECRET_ACCESS_KEY", s("secretAccessKey")),
        ("AWS_SESSION_TOKEN", s("sessionToken")),
        ("REALDRIFT_BUCKET", s("bucket")),
        ("REALDRIFT_TOPIC_ARN", s("topic")),
        ("REALDRIFT_SCAN_QUEUE_URL", s("work")),
        ("REALDRIFT_EVENT_BUS_ARN", bus.clone()),
        ("REALDRIFT_FLAP_WINDOW_SECONDS", "0".into()),
        ("REALDRIFT_SCAN_VISIBILITY_SECONDS", "5400".into()),
    ] {
        env.insert(k.into(), v);
    }
    let l = LocalLambda::start(w.root, &w.dir, &env).expect("cargo lambda watch");

    // Inventory first: nothing reaches the hub.
    scheduled_scan(&l, w, &member, &s("work"));
    assert_eq!(helper(w, &["inbox", &inbox]), json!([]), "first scan");

    // An out-of-band change in the member: one delivery at the hub, named.
    w.mutate_in(&member, json!([["versioning", bucket, "Suspended"]]));
    scheduled_scan(&l, w, &member, &s("work"));
    let got = helper(w, &["inbox", &inbox]);
    let got = got.as_array().cloned().unwrap_or_default();
    assert_eq!(got.len(), 1, "{got:#?}\n{}", l.log());
    let message: Value =
        serde_json::from_str(got[0]["Message"].as_str().unwrap_or_default()).expect("delivery");
    assert_eq!(message["accountName"], "payments-prod", "{message:#}");
    let doc = &message["document"];
    assert_eq!(
        (
            doc["kind"].as_str(),
            doc["account"].as_str(),
            doc["stack"].as_str()
        ),
        (Some("drift-detected"), Some(member.as_str()), Some(STACK)),
        "{doc:#}"
    );
    assert!(
        doc["findings"]
            .as_array()
            .into_iter()
            .flatten()
            .any(|f| f["path"] == "VersioningConfiguration.Status" && f["actual"] == "Suspended"),
        "{doc:#}"
    );

    // Outside the Organization: the bus policy refuses the event.
    let refused = helper(w, &["outsider", &bus]);
    assert_eq!(
        refused[0]["ErrorCode"], "AccessDeniedException",
        "{refused}"
    );
    assert_eq!(
        helper(w, &["inbox", &inbox]),
        json!([]),
        "nothing delivered"
    );
}
