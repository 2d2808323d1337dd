//! The DocumentDB readers (issue 46) proven on the emulator: a cluster and
//! its instance, declared as a CDK app would, check clean with full
//! coverage; a console change to each one's most security-relevant settings
//! (cluster deletion protection off and backups shortened, the instance's
//! CA certificate switched) is reported on the right property; `revert`
//! writes them back through ModifyDBCluster / ModifyDBInstance, judged by
//! reading DocumentDB itself, and refuses an engine upgrade (one-way) with
//! the reason. The master password never appears in a report
//! or plan.

use crate::scenarios::Scenario;
use crate::world::{
    assert_clean_and_fully_compared, drift_findings, not_compared, str_at, summary, the_finding,
    world_parameters, World,
};
use serde_json::{json, Value};

/// The scenarios of this file.
pub const ALL: &[Scenario] = &[Scenario {
    name: "readers_docdb_check_clean_then_report_and_revert_console_changes",
    run: readers_docdb_check_clean_then_report_and_revert_console_changes,
}];

/// Logical ids of tests/fixtures/templates/readers-docdb.yaml.
mod ids {
    pub const CLUSTER: &str = "Docs";
    pub const INSTANCE: &str = "DocsInstance1";
}

const STACK: &str = "ReadersDocDb";
const TEMPLATE: &str = "tests/fixtures/templates/readers-docdb.yaml";
const WORLD: &str = "tests/e2e/readers_docdb_world.py";

fn check_json(w: &World, args: &[&str]) -> (i32, Value, String) {
    let mut all = vec!["check", STACK, "--json"];
    all.extend_from_slice(args);
    let run = w.realdrift(&all);
    (run.code, run.json(), run.stdout.clone())
}

fn readers_docdb_check_clean_then_report_and_revert_console_changes(w: &World) {
    let world = w.script_json(WORLD, &["setup"]);
    let params = world_parameters(&world);
    let password = world["password"].as_str().unwrap_or_default().to_string();
    assert!(!password.is_empty(), "{world}");
    let s = w.deploy_template(STACK, TEMPLATE, &params);

    // Fresh: both resources compared by their readers, nothing drifted.
    let (code, doc, raw) = check_json(w, &["--fail", "--strict"]);
    assert_eq!(code, 0, "{doc}");
    assert!(!raw.contains(&password), "the master password in a report");
    assert_clean_and_fully_compared(&doc, 2);
    // The password is the one value not compared: DocumentDB never returns
    // it, so it is a write-only readGap (as on a type Cloud Control reads),
    // not lost coverage.
    let not_compared = not_compared(&doc);
    let unread: Vec<(&str, &str, bool)> = not_compared
        .iter()
        .map(|f| {
            (
                f["logicalId"].as_str().unwrap_or_default(),
                f["path"].as_str().unwrap_or_default(),
                f["writeOnly"] == json!(true),
            )
        })
        .collect();
    assert_eq!(
        unread,
        [(ids::CLUSTER, "MasterUserPassword", true)],
        "{}",
        summary(&not_compared)
    );

    // A person's console changes.
    w.mutate(json!([
        ["docdb-cluster-unprotect", s.id(ids::CLUSTER), 1],
        ["docdb-instance-ca", s.id(ids::INSTANCE), "rds-ca-2019"],
        ["docdb-cluster-upgrade", s.id(ids::CLUSTER), "5.0.1"],
    ]));
    let (code, doc, raw) = check_json(w, &["--fail"]);
    assert_eq!(code, 1, "{doc}");
    assert!(!raw.contains(&password), "the master password in a report");
    let changed = [
        (
            ids::CLUSTER,
            "DeletionProtection",
            json!(true),
            json!(false),
        ),
        (ids::CLUSTER, "BackupRetentionPeriod", json!(7), json!(1)),
        (
            ids::INSTANCE,
            "CACertificateIdentifier",
            json!("rds-ca-rsa2048-g1"),
            json!("rds-ca-2019"),
        ),
        // An upgrade cannot be taken back: reported, and refused by revert.
        (
            ids::CLUSTER,
            "EngineVersion",
            json!("5.0.0"),
            json!("5.0.1"),
        ),
    ];
    for (logical, path, desired, actual) in &changed {
        let f = the_finding(&doc, "declared", logical, path);
        assert_eq!((&f["desired"], &f["actual"]), (desired, actual), "{f}");
    }
    let all = drift_findings(&doc);
    assert_eq!(all.len(), changed.len(), "{}", summary(&all));

    revert_through_the_modify_calls(w, s.id(ids::CLUSTER), s.id(ids::INSTANCE), &password);
}

/// `revert` writes the three settings back (ModifyDBCluster /
/// ModifyDBInstance, applied immediately), judged by reading DocumentDB
/// itself; the plan never holds the password.
fn revert_through_the_modify_calls(w: &World, cluster: &str, instance: &str, password: &str) {
    let run = w.realdrift(&["revert", STACK, "--yes", "--json", "--wait", "30s"]);
    assert!(
        !run.stdout.contains(password),
        "the master password in a plan"
    );
    assert!(
        !run.stderr.contains(password),
        "the master password in a log"
    );
    let doc = run.json();
    let stack = &doc["stacks"][0];
    assert_eq!(run.code, 0, "{doc}");
    let items = stack["plan"]["items"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let mut written: Vec<(String, String, String)> = items
        .iter()
        .map(|i| {
            (
                str_at(&i["resource"]["logicalId"]),
                str_at(&i["path"]),
                str_at(&i["writer"]),
            )
        })
        .collect();
    written.sort();
    assert_eq!(
        written,
        [
            (ids::CLUSTER, "BackupRetentionPeriod", "docdbDbCluster"),
            (ids::CLUSTER, "DeletionProtection", "docdbDbCluster"),
            (ids::INSTANCE, "CACertificateIdentifier", "docdbDbInstance"),
        ]
        .map(|(a, b, c)| (a.to_string(), b.to_string(), c.to_string())),
        "{stack}"
    );
    // The upgrade is refused with the reason, not guessed at.
    let mut refused: Vec<(String, String, String)> = stack["plan"]["refused"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|r| {
            (
                str_at(&r["resource"]["logicalId"]),
                str_at(&r["path"]),
                str_at(&r["reason"]),
            )
        })
        .collect();
    refused.sort();
    // (The password, never read, is named as never compared: no value.)
    assert_eq!(
        refused,
        [
            (ids::CLUSTER, "EngineVersion", "noWriter"),
            (ids::CLUSTER, "MasterUserPassword", "readGap"),
        ]
        .map(|(a, b, c)| (a.to_string(), b.to_string(), c.to_string())),
        "{stack}"
    );
    let why = stack["plan"]["refused"].to_string();
    assert!(why.contains("one-way"), "{why}");
    let outcome = stack["outcome"]["items"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert!(
        outcome.len() == 3 && outcome.iter().all(|i| i["status"] == "converged"),
        "{stack}"
    );

    // What DocumentDB itself now holds.
    let held = w.script_json(WORLD, &["read", cluster, instance]);
    let c = &held["cluster"];
    assert_eq!(
        (&c["DeletionProtection"], &c["BackupRetentionPeriod"]),
        (&json!(true), &json!(7)),
        "{held}"
    );
    assert_eq!(
        held["instance"]["CACertificateIdentifier"],
        json!("rds-ca-rsa2048-g1"),
        "{held}"
    );
    // And a check agrees: only the refused upgrade is left.
    let (_, doc, _) = check_json(w, &["--fail"]);
    let left: Vec<String> = drift_findings(&doc)
        .iter()
        .map(|f| str_at(&f["path"]))
        .collect();
    assert_eq!(left, ["EngineVersion"], "{doc}");
}
