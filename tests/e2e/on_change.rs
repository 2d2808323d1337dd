//! The on-change function end to end, through a local Lambda runtime
//! (`cargo lambda watch` + `cargo lambda invoke`, one session) against the
//! emulator. The fixture stack is deployed and scanned once (the scan
//! function writes the resource index and the state); then the role's
//! trust policy is changed through the IAM API, and a real CloudTrail
//! record of that call (stratus-red-team's UpdateAssumeRolePolicy, names
//! swapped for the fixture's) is handed to on-change in an SQS event:
//!
//! - made by CloudFormation for the stack's own deploy (its template
//!   changed since the scan): no alert;
//! - made by realdrift's revert role: no alert;
//! - made by a user: exactly one alert on the SNS topic (read from an SQS
//!   queue subscribed to it) and at the Slack receiver, naming the user;
//! - made by CloudFormation for another stack (a queue policy replacing the
//!   watched stack's own, with the watched stack settled): exactly one
//!   alert, naming CloudFormation and the principal it acted for.
//!
//! The role really is drifted before the first two events, so a re-read
//! would alert: their silence is the screening's doing.

use crate::lambda::LocalLambda;
use crate::scenarios::Scenario;
use crate::slack_receiver::SlackReceiver;
use crate::world::{ids, World, ACCOUNT};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::process::Command;
use std::time::{SystemTime, UNIX_EPOCH};

/// The on-change scenarios (`REALDRIFT_E2E_MEASURE=1` adds the latency measurement).
pub fn selected() -> &'static [Scenario] {
    if std::env::var_os("REALDRIFT_E2E_MEASURE").is_some() {
        WITH_MEASURE
    } else {
        &WITH_MEASURE[..1]
    }
}

const WITH_MEASURE: &[Scenario] = &[
    Scenario {
        name: "on_change_alerts_a_user_change_once_and_not_cloudformation_or_revert",
        run: on_change_alerts_once,
    },
    Scenario {
        name: "measure_on_change_event_to_alert_latency",
        run: measure_latency,
    },
];

const FUNCTION: &str = "realdrift-on-change";
const STACK: &str = "ChangeApp";
const REVERT_ROLE: &str = "arn:aws:iam::123456789012:role/realdrift-revert";
/// A trust policy to flip back to (the fixture's own).
const LAMBDA_TRUST: &str = r#"{"Version":"2012-10-17","Statement":[{"Action":"sts:AssumeRole","Effect":"Allow","Principal":{"Service":"lambda.amazonaws.com"}}]}"#;

/// The resources around the function (made by tests/e2e/scan_world.py).
struct Around {
    bucket: String,
    topic: String,
    alerts: String,
    secret: String,
}

fn world_py(w: &World, args: &[&str]) -> String {
    let out = Command::new(w.emu.python())
        .arg(w.root.join("tests/e2e/scan_world.py"))
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

/// The SNS documents waiting on the alert queue (received and deleted).
fn alert_documents(w: &World, a: &Around) -> Vec<Value> {
    let list: Vec<Value> =
        serde_json::from_str(&world_py(w, &["alerts", &a.alerts])).expect("alerts JSON");
    list.iter()
        .map(|n| serde_json::from_str(n["Message"].as_str().unwrap_or_default()).expect("SNS JSON"))
        .collect()
}

/// The first successful `name` record of a file of shared/cloudtrail.
fn real_record(file: &str, name: &str) -> Value {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/cloudtrail")
        .join(file);
    let all: Vec<Value> =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("cloudtrail set"))
            .expect("cloudtrail JSON");
    all.into_iter()
        .find(|r| r["eventName"] == name && r.get("errorCode").is_none())
        .unwrap_or_else(|| panic!("a {name} record in {file}"))
}

/// stratus-red-team's UpdateAssumeRolePolicy record (a backdoored trust
/// policy) with the role, account and region swapped for the fixture's.
fn trust_record(role: &str, event_id: &str) -> Value {
    let mut r = real_record(
        "datadog_stratus-red-team_detonation-logs.json",
        "UpdateAssumeRolePolicy",
    );
    r["requestParameters"]["roleName"] = json!(role);
    r["userIdentity"]["accountId"] = json!(ACCOUNT);
    r["userIdentity"]["arn"] = json!(format!("arn:aws:iam::{ACCOUNT}:user/christophe"));
    r["recipientAccountId"] = json!(ACCOUNT);
    r["awsRegion"] = json!("us-east-1");
    r["eventID"] = json!(event_id);
    r["eventTime"] = json!(now_iso());
    r
}

/// Now as CloudTrail writes it (`2026-11-30T12:00:00.123Z`): the event's
/// time is when the test made the call, so the latency metric is real.
fn now_iso() -> String {
    let ms = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0);
    let (days, rest) = (ms.div_euclid(86_400_000), ms.rem_euclid(86_400_000));
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    let (h, m, s, milli) = (
        rest / 3_600_000,
        rest / 60_000 % 60,
        rest / 1000 % 60,
        rest % 1000,
    );
    format!("{year:04}-{month:02}-{day:02}T{h:02}:{m:02}:{s:02}.{milli:03}Z")
}

/// streamalert's SetQueueAttributes record setting a queue's policy, as
/// CloudFormation makes it for `deployer`'s stack operation.
fn queue_policy_record(queue_url: &str, deployer: &str, event_id: &str) -> Value {
    let mut r = real_record(
        "airbnb_streamalert_rule-test-events.json",
        "SetQueueAttributes",
    );
    r["requestParameters"] = json!({"queueUrl": queue_url, "attributes": {"Policy": "{}"}});
    by_cloudformation(r, deployer, event_id)
}

/// `r` as CloudFormation makes it for `deployer`, in the fixture's account
/// and region, now.
fn by_cloudformation(mut r: Value, deployer: &str, event_id: &str) -> Value {
    r["userIdentity"] = json!({
        "type": "AssumedRole", "principalId": "AROAEXAMPLEDEPLOYER:deployer",
        "arn": deployer, "accountId": ACCOUNT, "invokedBy": "cloudformation.amazonaws.com"
    });
    r["sourceIPAddress"] = json!("cloudformation.amazonaws.com");
    r["userAgent"] = json!("cloudformation.amazonaws.com");
    r["recipientAccountId"] = json!(ACCOUNT);
    r["awsRegion"] = json!("us-east-1");
    r["eventID"] = json!(event_id);
    r["eventTime"] = json!(now_iso());
    r
}

/// The SQS event Lambda hands on-change for one EventBridge event of `record`.
fn sqs_event(record: &Value) -> Value {
    let service = record["eventSource"]
        .as_str()
        .unwrap_or_default()
        .trim_end_matches(".amazonaws.com");
    let eventbridge = json!({
        "version": "0", "id": format!("eb-{}", record["eventID"].as_str().unwrap_or_default()),
        "detail-type": "AWS API Call via CloudTrail", "source": format!("aws.{service}"),
        "account": ACCOUNT, "time": record["eventTime"], "region": "us-east-1",
        "resources": [], "detail": record
    });
    json!({"Records": [{
        "messageId": format!("msg-{}", record["eventID"].as_str().unwrap_or_default()),
        "receiptHandle": "h", "body": eventbridge.to_string(),
        "attributes": {}, "messageAttributes": {}, "md5OfBody": "",
        "eventSource": "aws:sqs",
        "eventSourceARN": format!("arn:aws:sqs:us-east-1:{ACCOUNT}:realdrift-changes"),
        "awsRegion": "us-east-1"
    }]})
}

/// Deploys, starts the runtime and scans once (index and state written).
fn start(w: &World, slack: &SlackReceiver) -> (Around, String, LocalLambda) {
    let (a, stack, l) = start_stack(w, slack);
    (a, stack.id(ids::ROLE).to_string(), l)
}

/// [`start`], returning the deployed stack.
fn start_stack(w: &World, slack: &SlackReceiver) -> (Around, crate::world::Stack, LocalLambda) {
    let v: Value =
        serde_json::from_str(&world_py(w, &["setup", &slack.url()])).expect("setup JSON");
    let s = |k: &str| v[k].as_str().unwrap_or_default().to_string();
    let a = Around {
        bucket: s("bucket"),
        topic: s("topic"),
        alerts: s("alerts"),
        secret: s("secret"),
    };
    let stack = w.deploy(STACK);
    let role = stack.id(ids::ROLE).to_string();
    let mut env: BTreeMap<String, String> = w.emu.env().clone();
    env.insert("REALDRIFT_BUCKET".into(), a.bucket.clone());
    env.insert("REALDRIFT_TOPIC_ARN".into(), a.topic.clone());
    env.insert("REALDRIFT_SLACK_SECRET_ID".into(), a.secret.clone());
    env.insert("REALDRIFT_REVERT_ROLE_ARN".into(), REVERT_ROLE.into());
    env.insert("RUST_LOG".into(), "info".into());
    // The measurement flips one value 50 times and times each alert: the
    // flapping window (tested in core) would hold the returns back.
    env.insert("REALDRIFT_FLAP_WINDOW_SECONDS".into(), "0".into());
    // Its 50 changes come within seconds, a storm by rate (tested in core and
    // tests/emulator/test_storm.py): one alert per change is measured here.
    env.insert("REALDRIFT_STORM_THRESHOLD".into(), "0".into());
    let l = LocalLambda::start(w.root, &w.dir, &env).expect("cargo lambda watch");
    scan(&l);
    let index = world_py(
        w,
        &[
            "object",
            &a.bucket,
            &format!("index/{ACCOUNT}.us-east-1.json"),
        ],
    );
    assert!(index.contains(&role), "the scan indexed the role: {index}");
    assert_eq!(
        alert_documents(w, &a),
        Vec::<Value>::new(),
        "a first scan is inventory"
    );
    slack.clear();
    (a, stack, l)
}

fn scan(l: &LocalLambda) {
    let scanned = l
        .invoke("realdrift-scan", &json!({"stacks": [STACK]}))
        .unwrap_or_else(|e| panic!("scan: {e}"));
    assert_eq!(scanned["stacks"][0]["stack"], STACK, "{scanned}");
}

fn on_change(l: &LocalLambda, record: &Value) {
    let out = l
        .invoke(FUNCTION, &sqs_event(record))
        .unwrap_or_else(|e| panic!("on-change: {e}"));
    assert_eq!(out["batchItemFailures"], json!([]), "{out}\n{}", l.log());
}

fn on_change_alerts_once(w: &World) {
    let slack = SlackReceiver::start().expect("Slack receiver");
    let (a, stack, l) = start_stack(w, &slack);
    let role = stack.id(ids::ROLE).to_string();
    let user = trust_record(&role, "0f8e6a1c-user");
    let backdoor = user["requestParameters"]["policyDocument"]
        .as_str()
        .expect("the recorded policy document")
        .to_string();
    w.mutate(json!([["trust-policy", role, backdoor]]));

    // The same call, made by CloudFormation for the stack's own deploy: its
    // template changed since the scan.
    w.mutate(json!([["stack-description", STACK, "redeployed"]]));
    let mut by_cfn = trust_record(&role, "0f8e6a1c-cfn");
    by_cfn["userIdentity"]["invokedBy"] = json!("cloudformation.amazonaws.com");
    by_cfn["sourceIPAddress"] = json!("cloudformation.amazonaws.com");
    on_change(&l, &by_cfn);
    // The same call, made by realdrift's revert function.
    let mut by_revert = trust_record(&role, "0f8e6a1c-revert");
    by_revert["userIdentity"] = json!({
        "type": "AssumedRole", "principalId": "AROAEXAMPLEREVERT:realdrift-revert",
        "arn": format!("arn:aws:sts::{ACCOUNT}:assumed-role/realdrift-revert/realdrift-revert"),
        "accountId": ACCOUNT,
        "sessionContext": {"sessionIssuer": {"type": "Role", "principalId": "AROAEXAMPLEREVERT",
            "arn": REVERT_ROLE, "accountId": ACCOUNT, "userName": "realdrift-revert"}}
    });
    on_change(&l, &by_revert);
    assert_eq!(
        alert_documents(w, &a),
        Vec::<Value>::new(),
        "CloudFormation and revert"
    );
    assert!(slack.bodies().is_empty(), "{:?}", slack.bodies());
    // The deploy is scanned (re-observed silently) with the role as deployed.
    w.mutate(json!([["trust-policy", role, LAMBDA_TRUST]]));
    scan(&l);
    assert_eq!(
        alert_documents(w, &a),
        Vec::<Value>::new(),
        "a deploy re-observes silently"
    );

    // The user's call: exactly one alert, naming the user.
    w.mutate(json!([["trust-policy", role, backdoor]]));
    on_change(&l, &user);
    let docs = alert_documents(w, &a);
    assert_eq!(docs.len(), 1, "{docs:?}");
    let doc = &docs[0];
    assert_eq!(doc["kind"], "drift-detected", "{doc}");
    let f = &doc["findings"][0];
    assert_eq!(f["logicalId"], ids::ROLE, "{doc}");
    assert!(
        f["path"]
            .as_str()
            .unwrap_or_default()
            .starts_with("AssumeRolePolicyDocument"),
        "{doc}"
    );
    assert_eq!(f["tier"], "declared", "{doc}");
    let cause = &doc["cause"];
    assert_eq!(
        cause["actor"]["arn"],
        format!("arn:aws:iam::{ACCOUNT}:user/christophe")
    );
    assert_eq!(cause["actor"]["type"], "IAMUser");
    assert_eq!(cause["eventName"], "UpdateAssumeRolePolicy");
    assert_eq!(cause["eventId"], "0f8e6a1c-user");
    let posted = slack.bodies();
    assert_eq!(posted.len(), 1, "{posted:?}");
    assert!(posted[0].contains("user/christophe"), "{}", posted[0]);
    let log = l.log();
    for reason in ["cloudFormation", "revertRole"] {
        assert!(
            log.contains(&format!("\"Reason\":\"{reason}\"")),
            "EventsDropped by {reason} in the EMF lines"
        );
    }
    assert!(log.contains("\"AlertLatency\""), "latency metric");
    through_another_stack(w, &a, &slack, &l, stack.id(ids::QUEUE));
    policy_through_another_stack(w, &a, &slack, &l, &role);
    assert!(
        !l.log().contains(&slack.url()),
        "the webhook URL is never logged"
    );
}

/// A second stack replaces the watched queue's policy: CloudFormation's
/// call, the watched stack settled on the template the state holds.
fn through_another_stack(
    w: &World,
    a: &Around,
    slack: &SlackReceiver,
    l: &LocalLambda,
    queue_url: &str,
) {
    slack.clear();
    w.mutate(json!([["queue-policy-stack", "OtherApp", queue_url]]));
    let deployer = format!("arn:aws:sts::{ACCOUNT}:assumed-role/Deployer/mallory");
    on_change(
        l,
        &queue_policy_record(queue_url, &deployer, "5b1d-other-stack"),
    );
    let docs = alert_documents(w, a);
    assert_eq!(docs.len(), 1, "{docs:?}");
    let doc = &docs[0];
    assert_eq!(doc["kind"], "drift-detected", "{doc}");
    assert_eq!(doc["findings"][0]["logicalId"], ids::QUEUE_POLICY, "{doc}");
    assert_eq!(doc["findings"][0]["tier"], "declared", "{doc}");
    let cause = &doc["cause"];
    assert_eq!(cause["through"]["kind"], "cloudFormation", "{doc}");
    assert_eq!(cause["actor"]["arn"], deployer.as_str(), "{doc}");
    let posted = slack.bodies();
    assert_eq!(posted.len(), 1, "{posted:?}");
    assert!(
        posted[0].contains(
            "by CloudFormation for arn:aws:sts::123456789012:assumed-role/Deployer/mallory"
        ),
        "{}",
        posted[0]
    );
}

/// CloudFormation's PutRolePolicy for a second stack's `AWS::IAM::Policy`
/// on `role` (the record invictus-ir recorded, made by CloudFormation for
/// a deployer).
fn put_role_policy_record(role: &str, deployer: &str, event_id: &str) -> Value {
    let mut r = real_record("invictus-ir_aws_dataset.json", "PutRolePolicy");
    r["requestParameters"]["roleName"] = json!(role);
    r["requestParameters"]["policyName"] = json!("extra-rights");
    by_cloudformation(r, deployer, event_id)
}

/// A second stack attaches an inline policy to the watched role, whose
/// template declares none: one alert, a value new since the role was last
/// read, made by CloudFormation for the deployer.
fn policy_through_another_stack(
    w: &World,
    a: &Around,
    slack: &SlackReceiver,
    l: &LocalLambda,
    role: &str,
) {
    slack.clear();
    let before = alert_documents(w, a).len();
    w.mutate(json!([["role-policy-stack", "OtherRoleApp", role]]));
    let deployer = format!("arn:aws:sts::{ACCOUNT}:assumed-role/Deployer/mallory");
    on_change(
        l,
        &put_role_policy_record(role, &deployer, "7c2e-role-policy"),
    );
    let docs = alert_documents(w, a);
    assert_eq!(docs.len(), before + 1, "{docs:?}");
    let doc = &docs[before];
    assert_eq!(doc["kind"], "drift-detected", "{doc}");
    let f = &doc["findings"][0];
    assert_eq!(f["logicalId"], ids::ROLE, "{doc}");
    assert!(
        f["path"]
            .as_str()
            .unwrap_or_default()
            .starts_with("Policies"),
        "{doc}"
    );
    assert_eq!(doc["cause"]["through"]["kind"], "cloudFormation", "{doc}");
    assert_eq!(doc["cause"]["actor"]["arn"], deployer.as_str(), "{doc}");
    let posted = slack.bodies();
    assert_eq!(posted.len(), 1, "{posted:?}");
    assert!(posted[0].contains("by CloudFormation for"), "{}", posted[0]);
}

/// Event -> alert over 50 changes (flipping the trust policy), from the
/// function's own `AlertLatency` EMF lines; printed, not asserted on time.
fn measure_latency(w: &World) {
    let slack = SlackReceiver::start().expect("Slack receiver");
    let (a, role, l) = start(w, &slack);
    let backdoor = trust_record(&role, "x")["requestParameters"]["policyDocument"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    // Warm-up: the first invoke builds and starts the function; a dropped
    // event (the revert role's) costs no alert.
    let mut warm = trust_record(&role, "warm-up");
    warm["userIdentity"] = json!({
        "type": "AssumedRole", "arn": format!("arn:aws:sts::{ACCOUNT}:assumed-role/realdrift-revert/warm"),
        "accountId": ACCOUNT,
        "sessionContext": {"sessionIssuer": {"type": "Role", "arn": REVERT_ROLE, "userName": "realdrift-revert"}}
    });
    on_change(&l, &warm);
    const CHANGES: usize = 50;
    for i in 0..CHANGES {
        let doc = if i % 2 == 0 { &backdoor } else { LAMBDA_TRUST };
        w.mutate(json!([["trust-policy", role, doc]]));
        let mut r = trust_record(&role, &format!("measure-{i}"));
        r["requestParameters"]["policyDocument"] = json!(doc);
        on_change(&l, &r);
    }
    let kinds: Vec<String> = alert_documents(w, &a)
        .iter()
        .map(|d| d["kind"].as_str().unwrap_or_default().to_string())
        .collect();
    assert_eq!(kinds.len(), CHANGES, "one alert per change: {kinds:?}");
    let mut ms: Vec<f64> = l
        .log()
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .filter_map(|v| v.get("AlertLatency").and_then(Value::as_f64))
        .collect();
    assert_eq!(ms.len(), CHANGES, "one latency per alert");
    ms.sort_by(f64::total_cmp);
    let at = |q: f64| ms[((ms.len() as f64 * q).ceil() as usize).clamp(1, ms.len()) - 1];
    println!(
        "on-change event -> alert published over {CHANGES} changes: p50 {:.0} ms, p95 {:.0} ms, max {:.0} ms",
        at(0.50),
        at(0.95),
        at(1.0)
    );
}
