//! `check --accounts`: one fixture stack created through CloudFormation in two
//! moto accounts, drifted in each, checked through an assumed role; a third
//! account without the role is an error entry and the others go on.
//! `check --org [--ou]`: outside an Organization the listing fails naming the
//! call; inside one, the accounts under an OU (nested OUs included) or all
//! active accounts are swept.
//! `report --hub-bucket`: two members' status documents and a broken one in
//! the hub bucket, shown per account as JSON and as an HTML page.

use crate::scenarios::Scenario;
use crate::world::{ids, World, ACCOUNT};
use serde_json::{json, Value};

/// The sweep's scenario.
pub const ALL: &[Scenario] = &[Scenario {
    name: "accounts_sweep_reports_each_account_and_the_unassumable_one_and_the_org",
    run: accounts_sweep,
}];

const ROLE: &str = "RealdriftRead";
const MEMBERS: [&str; 2] = ["111111111111", "222222222222"];
const NO_ROLE: &str = "333333333333";

fn accounts_sweep(w: &World) {
    for (account, display) in MEMBERS.iter().zip(["first by hand", "second by hand"]) {
        let s = w.deploy_in(account, "Fleet");
        w.mutate_in(
            account,
            json!([
                ["role-create", ROLE, ACCOUNT],
                ["topic-display-name", s.id(ids::TOPIC), display],
            ]),
        );
    }
    let accounts = format!("{},{},{NO_ROLE}", MEMBERS[0], MEMBERS[1]);
    let args = [
        "check",
        "Fleet",
        "--accounts",
        &accounts,
        "--role-name",
        ROLE,
    ];
    let mut json_args = args.to_vec();
    json_args.extend(["--json", "--fail"]);
    let run = w.realdrift(&json_args);
    run.expect_code(2);
    let doc = run.json();
    assert_eq!(doc["schema"], "realdrift.sweep.v1");
    let sections = doc["sections"].as_array().expect("sections");
    assert_eq!(sections.len(), 3, "{doc:#}");
    for (section, display) in sections.iter().zip(["first by hand", "second by hand"]) {
        assert!(section["error"].is_null(), "{section:#}");
        assert_eq!(section["region"], "us-east-1");
        assert_eq!(section["exitCode"], 1, "drift under --fail: {section:#}");
        let stack = &section["report"]["stacks"][0];
        assert_eq!(stack["accountId"], section["accountId"], "{stack:#}");
        assert_eq!(topic_drift(stack), vec![display.to_string()], "{stack:#}");
    }
    assert_eq!(sections[0]["accountId"], MEMBERS[0]);
    assert_eq!(sections[1]["accountId"], MEMBERS[1]);
    let denied = &sections[2];
    assert_eq!(denied["accountId"], NO_ROLE);
    assert!(denied["region"].is_null() && denied["report"].is_null());
    let reason = denied["error"].as_str().unwrap_or_default();
    assert!(
        reason.contains(&format!("arn:aws:iam::{NO_ROLE}:role/{ROLE}"))
            && reason.contains("AccessDenied"),
        "{reason}"
    );

    let text = w.realdrift(&args);
    text.expect_code(2);
    assert!(
        text.stdout
            .contains(&format!("=== account {}, region us-east-1 ===", MEMBERS[1]))
            && text
                .stdout
                .contains(&format!("error: could not check account {NO_ROLE}: ")),
        "{}",
        text.stdout
    );
    org_sweep(w);
    hub_report(w);
}

/// A member's status document, as its scan writes it (docs/json-output.md).
fn status(account: &str, stack: &str, drift: usize, actor: &str) -> String {
    let since: serde_json::Map<String, Value> = (0..drift)
        .map(|i| {
            (
                format!("Topic/Prop{i}"),
                json!(1_780_000_000_000u64 + i as u64),
            )
        })
        .collect();
    json!({
        "schema": "realdrift.org-status.v1",
        "accountId": account, "region": "us-east-1", "stack": stack,
        "checkedAtMs": 1_780_086_400_000u64,
        "drift": drift, "compared": 3, "total": 4,
        "notCompared": [{"logicalId": "Seed", "resourceType": "Custom::Seeder", "reason": "custom resource"}],
        "driftSinceMs": since,
        "actors": if drift > 0 { json!({actor: drift}) } else { json!({}) },
    })
    .to_string()
}

fn hub_report(w: &World) {
    let key = |a: &str, s: &str| format!("org/{a}/us-east-1/{s}.json");
    w.mutate(json!([
        ["create-bucket", "hub"],
        [
            "put-object",
            "hub",
            key(MEMBERS[0], "Fleet"),
            status(
                MEMBERS[0],
                "Fleet",
                2,
                "arn:aws:iam::111111111111:user/alice"
            )
        ],
        [
            "put-object",
            "hub",
            key(MEMBERS[1], "Web<b>"),
            status(MEMBERS[1], "Web<b>", 0, "")
        ],
        ["put-object", "hub", key(NO_ROLE, "Broken"), "{not json"],
    ]));
    let html = w.dir.join("org.html");
    let html_arg = html.to_str().unwrap_or_default();
    let run = w.realdrift(&[
        "report",
        "--hub-bucket",
        "hub",
        "--json",
        "--html",
        html_arg,
    ]);
    run.expect_code(2);
    let doc = run.json();
    assert_eq!(doc["schema"], "realdrift.org-report.v1");
    let accounts: Vec<&Value> = doc["accounts"].as_array().into_iter().flatten().collect();
    assert_eq!(accounts.len(), 2, "{doc:#}");
    assert_eq!(accounts[0]["accountId"], MEMBERS[0]);
    assert_eq!(accounts[0]["drift"], 2);
    assert_eq!(accounts[1]["regions"][0]["stacks"][0]["stack"], "Web<b>");
    assert_eq!(doc["oldestDrift"]["since"], "2026-05-28T20:26:40Z");
    assert_eq!(
        doc["actors"][0]["actor"],
        "arn:aws:iam::111111111111:user/alice"
    );
    assert_eq!(doc["errors"][0]["key"], key(NO_ROLE, "Broken"));
    let page = std::fs::read_to_string(&html).expect("the HTML page");
    assert!(
        page.contains("Web&lt;b&gt;") && !page.contains("Web<b>"),
        "{page}"
    );
}

/// The role moto (as Organizations) creates in each account it creates.
const ORG_ROLE: &str = "OrganizationAccountAccessRole";

fn org_sweep(w: &World) {
    let org_args = ["check", "Fleet", "--org", "--role-name", ORG_ROLE, "--json"];
    let outside_org = w.realdrift(&org_args);
    outside_org.expect_code(2);
    let reason = outside_org.json()["error"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    // AWS answers AWSOrganizationsNotInUseException; moto lists no account.
    assert!(
        reason.contains("organizations:ListAccounts") && reason.contains("no account"),
        "{reason}"
    );

    let org = w.script_json("tests/e2e/organization.py", &[]);
    let id = |k: &str| org[k].as_str().unwrap_or_default().to_string();
    let (nested, outside) = (id("nested"), id("outside"));
    let s = w.deploy_in(&nested, "Fleet");
    w.mutate_in(
        &nested,
        json!([["topic-display-name", s.id(ids::TOPIC), "nested by hand"]]),
    );
    let ou = id("workloads");
    let under = [
        "check",
        "Fleet",
        "--org",
        "--ou",
        &ou,
        "--role-name",
        ORG_ROLE,
    ];
    let run = w.realdrift(&[&under[..], &["--json", "--fail"]].concat());
    run.expect_code(1);
    let doc = run.json();
    let sections = doc["sections"].as_array().expect("sections");
    assert_eq!(sections.len(), 1, "only the account under the OU: {doc:#}");
    assert_eq!(sections[0]["accountId"], nested.as_str());
    let stack = &sections[0]["report"]["stacks"][0];
    assert_eq!(topic_drift(stack), vec!["nested by hand"], "{stack:#}");

    let all = w.realdrift(&org_args);
    all.expect_code(2);
    let doc = all.json();
    let mut got: Vec<(String, bool)> = doc["sections"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|s| {
            let id = s["accountId"].as_str().unwrap_or_default().to_string();
            (id, s["error"].is_null())
        })
        .collect();
    got.sort();
    let mut want = vec![
        (ACCOUNT.to_string(), false),
        (nested.clone(), true),
        (outside.clone(), true),
    ];
    want.sort();
    assert_eq!(
        got, want,
        "every active account; the management account has no such role: {doc:#}"
    );
}

/// The actual values of the topic's declared DisplayName drift.
fn topic_drift(stack: &Value) -> Vec<String> {
    stack["findings"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|f| {
            f["tier"] == "declared" && f["logicalId"] == ids::TOPIC && f["path"] == "DisplayName"
        })
        .filter_map(|f| f["actual"].as_str().map(String::from))
        .collect()
}
