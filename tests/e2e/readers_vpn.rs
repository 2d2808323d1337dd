//! The readers of the types moto serves only through the emulator's own
//! patches (issue 46 §3): a CloudWatch anomaly detector and a Client VPN
//! endpoint with its subnet association check clean with full coverage; a
//! console change to each is reported; `revert` writes the endpoint and the
//! detector back through their service writers (judged by reading the
//! emulator itself) and names why the association is not revertable.

use crate::scenarios::Scenario;
use crate::world::{
    assert_clean_and_fully_compared, drift_findings, not_compared, str_at, summary, the_finding,
    world_parameters, World,
};
use serde_json::{json, Value};

/// The scenarios of this file.
pub const ALL: &[Scenario] = &[Scenario {
    name: "readers_vpn_check_clean_then_report_and_revert",
    run: readers_vpn_check_clean_then_report_and_revert,
}];

/// Logical ids of tests/fixtures/templates/readers-vpn.yaml.
mod ids {
    pub const DETECTOR: &str = "RequestAnomalies";
    pub const ENDPOINT: &str = "Vpn";
    pub const ASSOCIATION: &str = "VpnSubnet";
}

const STACK: &str = "ReadersVpn";
const TEMPLATE: &str = "tests/fixtures/templates/readers-vpn.yaml";
const WORLD: &str = "tests/e2e/readers_vpn_world.py";

fn check_json(w: &World, args: &[&str]) -> (i32, Value) {
    let mut all = vec!["check", STACK, "--json"];
    all.extend_from_slice(args);
    let run = w.realdrift(&all);
    (run.code, run.json())
}

fn readers_vpn_check_clean_then_report_and_revert(w: &World) {
    let world = w.script_json(WORLD, &["setup"]);
    let params = world_parameters(&world);
    let ids_of = &world["ids"];
    let s = w.deploy_template(STACK, TEMPLATE, &params);

    // Fresh: every resource compared by its reader, nothing drifted.
    let (code, doc) = check_json(w, &["--fail", "--strict"]);
    assert_eq!(code, 0, "{doc}");
    assert_clean_and_fully_compared(&doc, 3);
    let not_compared = not_compared(&doc);
    assert!(not_compared.is_empty(), "{}", summary(&not_compared));

    // A person's console changes (readers_vpn_world.py mutate).
    let endpoint = s.id(ids::ENDPOINT).to_string();
    let (default_group, vpc) = (str_at(&ids_of["defaultGroupId"]), str_at(&ids_of["VpcId"]));
    w.script_json(
        WORLD,
        &[
            "mutate",
            &endpoint,
            s.id(ids::ASSOCIATION),
            &default_group,
            &vpc,
        ],
    );
    let (code, doc) = check_json(w, &["--fail"]);
    assert_eq!(code, 1, "{doc}");
    let changed = [
        (ids::ENDPOINT, "SplitTunnel", json!(false), json!(true)),
        (
            ids::ENDPOINT,
            "ConnectionLogOptions.Enabled",
            json!(true),
            json!(false),
        ),
        (
            ids::ENDPOINT,
            "ConnectionLogOptions.CloudwatchLogGroup",
            json!("/vpn/connections"),
            Value::Null,
        ),
        (
            ids::ENDPOINT,
            "SecurityGroupIds",
            json!([ids_of["SecurityGroupId"]]),
            json!([default_group]),
        ),
        (
            ids::DETECTOR,
            "Configuration.MetricTimeZone",
            json!("Europe/Paris"),
            json!("UTC"),
        ),
        (
            ids::DETECTOR,
            "Configuration.ExcludedTimeRanges",
            json!([{"StartTime": "2026-11-01T00:00:00", "EndTime": "2026-11-02T00:00:00"}]),
            Value::Null,
        ),
    ];
    for (logical, path, desired, actual) in &changed {
        let f = the_finding(&doc, "declared", logical, path);
        assert_eq!((&f["desired"], &f["actual"]), (desired, actual), "{f}");
    }
    the_finding(&doc, "deleted", ids::ASSOCIATION, "");
    let all = drift_findings(&doc);
    assert_eq!(all.len(), changed.len() + 1, "{}", summary(&all));

    revert_through_the_service_writers(w, &endpoint, &str_at(&ids_of["SecurityGroupId"]));
    let (code, doc) = check_json(w, &["--fail"]);
    let left: Vec<Value> = drift_findings(&doc);
    assert_eq!(code, 1, "{doc}");
    assert_eq!(
        left.len(),
        1,
        "only the association is left:\n{}",
        summary(&left)
    );
    the_finding(&doc, "deleted", ids::ASSOCIATION, "");
}

/// `revert` writes the endpoint and the detector back through their service
/// writers (judged by reading the emulator itself) and refuses the
/// association, which EC2 cannot update.
fn revert_through_the_service_writers(w: &World, endpoint: &str, group: &str) {
    let run = w.realdrift(&["revert", STACK, "--yes", "--json", "--wait", "30s"]);
    let doc = run.json();
    let stack = &doc["stacks"][0];
    assert_eq!(run.code, 0, "{doc}");
    let list = |k: &str| stack["plan"][k].as_array().cloned().unwrap_or_default();
    let writers: Vec<(String, String)> = list("items")
        .iter()
        .map(|i| (str_at(&i["resource"]["logicalId"]), str_at(&i["writer"])))
        .collect();
    for (logical, writer) in [
        (ids::ENDPOINT, "ec2ClientVpnEndpoint"),
        (ids::DETECTOR, "cloudwatchAnomalyDetector"),
    ] {
        assert!(
            writers.contains(&(logical.into(), writer.into())),
            "{writers:?}"
        );
    }
    let outcome = stack["outcome"]["items"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert!(
        !outcome.is_empty() && outcome.iter().all(|i| i["status"] == "converged"),
        "{stack}"
    );
    let refused: Vec<String> = list("refused")
        .iter()
        .filter(|r| r["resource"]["logicalId"] == ids::ASSOCIATION)
        .map(|r| str_at(&r["reason"]))
        .collect();
    assert_eq!(refused, ["deleted"], "{stack}");

    // What the services themselves now hold.
    let held = w.script_json(WORLD, &["read", endpoint]);
    let vpn = &held["endpoint"];
    assert_eq!(vpn["SplitTunnel"], json!(false), "{held}");
    assert_eq!(
        vpn["ConnectionLogOptions"],
        json!({"Enabled": true, "CloudwatchLogGroup": "/vpn/connections"}),
        "{held}"
    );
    assert_eq!(vpn["SecurityGroupIds"], json!([group]), "{held}");
    assert_eq!(vpn["SessionTimeoutHours"], json!(8), "{held}");
    let detectors = held["detectors"].as_array().cloned().unwrap_or_default();
    assert_eq!(detectors.len(), 1, "{held}");
    let config = &detectors[0]["Configuration"];
    assert_eq!(config["MetricTimezone"], json!("Europe/Paris"), "{held}");
    assert_eq!(
        config["ExcludedTimeRanges"][0]["StartTime"],
        json!("2026-11-01 00:00:00+00:00"),
        "{held}"
    );
}
