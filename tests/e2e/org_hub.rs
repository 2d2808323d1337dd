//! An Organization hub's delivery across accounts: the hub (moto's default
//! account, the Organization's management account) has the findings bus
//! with the synthesized policy (only the Organization may put events) and
//! its one delivery rule to the hub function's queue, its topic subscribed
//! by an SQS inbox and a Slack secret naming a local receiver; a member
//! account of the Organization, created with a name, runs the scan function
//! with assumed-role credentials and REALDRIFT_EVENT_BUS_ARN naming the
//! hub's bus. An out-of-band change in the member reaches the hub's inbox
//! once, with the name the hub function read from Organizations
//! (DescribeAccount), and Slack once; an account outside the Organization
//! is refused by the bus policy. The member's status document in the hub
//! bucket then makes the hub's scheduled summary: the page in the bucket,
//! the headline on the topic and Slack.
//!
//! moto 5.1.22 routes PutEvents by bus name only: tests/emulator/moto_patches/events_org.py
//! routes it as AWS does (docs/emulator.md).

use crate::lambda::LocalLambda;
use crate::scenarios::Scenario;
use crate::slack_receiver::SlackReceiver;
use crate::world::{ids, World};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::process::Command;

/// The hub delivery scenario.
pub const ALL: &[Scenario] = &[Scenario {
    name: "org_hub_delivers_a_named_member_transition_and_summarizes",
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

/// The member's scan function, with its assumed-role credentials.
fn member_lambda(w: &World, setup: &Value) -> LocalLambda {
    let s = |k: &str| setup[k].as_str().unwrap_or_default().to_string();
    let mut env: BTreeMap<String, String> = w.emu.env().clone();
    for (k, v) in [
        ("AWS_ACCESS_KEY_ID", s("accessKeyId")),
        ("AWS_SECRET_ACCESS_KEY", s("secretAccessKey")),
        ("AWS_SESSION_TOKEN", s("sessionToken")),
        ("REALDRIFT_BUCKET", s("bucket")),
        ("REALDRIFT_BASELINES_BUCKET", s("hubBucket")),
        ("REALDRIFT_TOPIC_ARN", s("topic")),
        ("REALDRIFT_SCAN_QUEUE_URL", s("work")),
        ("REALDRIFT_EVENT_BUS_ARN", s("bus")),
        ("REALDRIFT_FLAP_WINDOW_SECONDS", "0".into()),
        ("REALDRIFT_SCAN_VISIBILITY_SECONDS", "5400".into()),
    ] {
        env.insert(k.into(), v);
    }
    LocalLambda::start(w.root, &w.dir, &env).expect("cargo lambda watch")
}

/// The hub function, with the hub account's (default) credentials and no
/// `accountNames` map: names come from Organizations.
fn hub_lambda(w: &World, setup: &Value) -> LocalLambda {
    let s = |k: &str| setup[k].as_str().unwrap_or_default().to_string();
    let mut env: BTreeMap<String, String> = w.emu.env().clone();
    for (k, v) in [
        ("REALDRIFT_BUCKET", s("hubBucket")),
        ("REALDRIFT_TOPIC_ARN", s("hubTopic")),
        ("REALDRIFT_SLACK_SECRET_ID", s("hubSecret")),
    ] {
        env.insert(k.into(), v);
    }
    let scratch = w.dir.join("hub");
    std::fs::create_dir_all(&scratch).expect("hub scratch");
    LocalLambda::start(w.root, &scratch, &env).expect("cargo lambda watch (hub)")
}

/// The hub function's run over what waits on its delivery queue.
fn hub_delivers(hub: &LocalLambda, w: &World, delivery: &str) {
    let records = helper(w, &["work", "", delivery]);
    let out = hub
        .invoke("realdrift-hub", &records)
        .unwrap_or_else(|e| panic!("hub: {e}"));
    assert_eq!(out["batchItemFailures"], json!([]), "{out}\n{}", hub.log());
}

/// The inbox's notifications, each Message parsed (the `sqs` protocol's document).
fn inbox(w: &World, url: &str) -> Vec<Value> {
    let got = helper(w, &["inbox", url]);
    got.as_array()
        .into_iter()
        .flatten()
        .map(|n| {
            serde_json::from_str(n["Message"].as_str().unwrap_or_default()).expect("a JSON message")
        })
        .collect()
}

fn org_hub_delivery(w: &World) {
    let slack = SlackReceiver::start().expect("Slack receiver");
    let setup = helper(w, &["setup", &slack.url()]);
    let s = |k: &str| setup[k].as_str().unwrap_or_default().to_string();
    let (member, bus, inbox_url, delivery) = (s("member"), s("bus"), s("inbox"), s("delivery"));
    let stack = w.deploy_in(&member, STACK);
    let bucket = stack.id(ids::BUCKET).to_string();
    let l = member_lambda(w, &setup);
    let hub = hub_lambda(w, &setup);

    // Inventory first: nothing reaches the hub.
    scheduled_scan(&l, w, &member, &s("work"));
    assert_eq!(
        helper(w, &["work", "", &delivery])["Records"],
        json!([]),
        "first scan"
    );

    // An out-of-band change in the member: one delivery at the hub, named
    // from Organizations, on the topic and on Slack.
    w.mutate_in(&member, json!([["versioning", bucket, "Suspended"]]));
    scheduled_scan(&l, w, &member, &s("work"));
    hub_delivers(&hub, w, &delivery);
    let got = inbox(w, &inbox_url);
    assert_eq!(got.len(), 1, "{got:#?}\n{}", hub.log());
    let message = &got[0];
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
    let posted = slack.bodies();
    assert_eq!(posted.len(), 1, "{posted:#?}");
    assert!(
        posted[0].contains(&format!("payments-prod ({member})")),
        "{}",
        posted[0]
    );
    assert!(
        !hub.log().contains(&slack.url()),
        "the webhook URL is never logged"
    );
    slack.clear();

    // Outside the Organization: the bus policy refuses the event.
    let refused = helper(w, &["outsider", &bus]);
    assert_eq!(
        refused[0]["ErrorCode"], "AccessDeniedException",
        "{refused}"
    );
    assert_eq!(
        helper(w, &["work", "", &delivery])["Records"],
        json!([]),
        "nothing delivered"
    );

    // The scheduled summary over the member's status document.
    let out = hub
        .invoke("realdrift-hub", &json!({"realdrift": "summary"}))
        .unwrap_or_else(|e| panic!("summary: {e}"));
    assert_eq!(out["summary"], "org/summary.html", "{out}\n{}", hub.log());
    let got = inbox(w, &inbox_url);
    assert_eq!(got.len(), 1, "{got:#?}");
    assert_eq!(
        (
            got[0]["kind"].as_str(),
            got[0]["accounts"].as_u64(),
            got[0]["driftedStacks"].as_u64()
        ),
        (Some("org-summary"), Some(1), Some(1)),
        "{:#}",
        got[0]
    );
    let page = helper(w, &["object", &s("hubBucket"), "org/summary.html"]);
    let page = page.as_str().unwrap_or_default();
    assert!(page.contains(STACK) && page.contains(&member), "{page}");
    let posted = slack.bodies();
    assert_eq!(posted.len(), 1, "{posted:#?}");
    assert!(posted[0].contains("Organization summary"), "{}", posted[0]);
}
