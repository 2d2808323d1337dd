//! The per-service readers (issue 46) proven on the emulator: a stack of
//! every reader type moto can create checks clean with full coverage, then a
//! console-style change to each type's most security-relevant property is
//! reported on the right resource and property; `revert` writes back the
//! types a service writer covers (judged by reading the emulator itself)
//! and names why the rest is not.

use crate::scenarios::Scenario;
use crate::world::{
    assert_clean_and_fully_compared, drift_findings, not_compared, str_at, summary, the_finding,
    world_parameters, World,
};
use serde_json::{json, Value};

/// The scenarios of this file.
pub const ALL: &[Scenario] = &[Scenario {
    name: "readers_check_clean_then_report_console_changes",
    run: readers_check_clean_then_report_console_changes,
}];

/// Logical ids of tests/fixtures/templates/readers.yaml.
mod ids {
    pub const NACL_ENTRY: &str = "HttpsIn";
    pub const PROJECT: &str = "Build";
    pub const ACCESS_KEY: &str = "DeployKey";
    pub const LAUNCH_TEMPLATE: &str = "WebTemplate";
    pub const RECORDS: &str = "ApiRecords";
    pub const LISTENER_CERT: &str = "SniCertificate";
    pub const DAX: &str = "Cache";
    pub const DMS: &str = "Replication";
    pub const LAKE: &str = "DataLocation";
}

const STACK: &str = "Readers";
const TEMPLATE: &str = "tests/fixtures/templates/readers.yaml";

fn check_json(w: &World, args: &[&str]) -> (i32, Value) {
    let mut all = vec!["check", STACK, "--json"];
    all.extend_from_slice(args);
    let run = w.realdrift(&all);
    (run.code, run.json())
}

fn readers_check_clean_then_report_console_changes(w: &World) {
    let world = w.script_json("tests/e2e/readers_world.py", &["setup"]);
    let params = world_parameters(&world);
    let ids_of = &world["ids"];
    let s = w.deploy_template(STACK, TEMPLATE, &params);

    // Fresh: every resource compared by its reader, nothing drifted.
    let (code, doc) = check_json(w, &["--fail", "--strict"]);
    assert_eq!(code, 0, "{doc}");
    assert_clean_and_fully_compared(&doc, 9);
    let not_compared = not_compared(&doc);
    assert!(not_compared.is_empty(), "{}", summary(&not_compared));

    let text = w.realdrift(&["check", STACK]);
    text.expect_code(0);
    assert!(text.stdout.contains("9 of 9 compared"), "{}", text.stdout);
    assert!(!text.stdout.contains("not compared"), "{}", text.stdout);

    // A person's console changes, one per type.
    let str_of = |v: &Value| v.as_str().unwrap_or_default().to_string();
    w.mutate(json!([
        ["nacl-entry-open", str_of(&ids_of["NetworkAclId"]), 100],
        ["codebuild-privileged", s.id(ids::PROJECT)],
        [
            "access-key-status",
            str_of(&ids_of["DeployUser"]),
            s.id(ids::ACCESS_KEY),
            "Active"
        ],
        [
            "launch-template-default",
            s.id(ids::LAUNCH_TEMPLATE),
            "optional"
        ],
        [
            "record-upsert",
            str_of(&ids_of["HostedZoneId"]),
            "api.readers.example.com.",
            "A",
            "203.0.113.66"
        ],
        [
            "listener-certificate-remove",
            str_of(&ids_of["ListenerArn"]),
            str_of(&ids_of["SniCertificateArn"])
        ],
        ["dax-nodes", s.id(ids::DAX), 3],
        ["dax-description", s.id(ids::DAX), "scratch cache"],
        [
            "lake-location-role",
            str_of(&ids_of["DataLocationArn"]),
            str_of(&ids_of["otherRoleArn"])
        ],
        ["dms-minor-upgrades-off", s.id(ids::DMS)],
    ]));
    let (code, doc) = check_json(w, &["--fail"]);
    assert_eq!(code, 1, "{doc}");
    let changed = [
        (
            ids::NACL_ENTRY,
            "CidrBlock",
            json!("10.0.0.0/16"),
            json!("0.0.0.0/0"),
        ),
        (ids::NACL_ENTRY, "Protocol", json!(6), json!(-1)),
        (
            ids::NACL_ENTRY,
            "PortRange",
            json!({"From": 443, "To": 443}),
            Value::Null,
        ),
        (
            ids::PROJECT,
            "Environment.PrivilegedMode",
            json!(false),
            json!(true),
        ),
        (
            ids::ACCESS_KEY,
            "Status",
            json!("Inactive"),
            json!("Active"),
        ),
        (
            ids::LAUNCH_TEMPLATE,
            "LaunchTemplateData.MetadataOptions.HttpTokens",
            json!("required"),
            json!("optional"),
        ),
        (
            ids::RECORDS,
            "RecordSets.0.ResourceRecords",
            json!(["192.0.2.10"]),
            json!(["203.0.113.66"]),
        ),
        (ids::DAX, "ReplicationFactor", json!(1), json!(3)),
        (
            ids::DAX,
            "Description",
            json!("read-through cache of the readers tables"),
            json!("scratch cache"),
        ),
        (
            ids::DMS,
            "AutoMinorVersionUpgrade",
            json!(true),
            json!(false),
        ),
        (
            ids::LAKE,
            "RoleArn",
            ids_of["ServiceRoleArn"].clone(),
            ids_of["otherRoleArn"].clone(),
        ),
    ];
    for (logical, path, desired, actual) in &changed {
        let f = the_finding(&doc, "declared", logical, path);
        assert_eq!((&f["desired"], &f["actual"]), (desired, actual), "{f}");
    }
    // One of the two declared certificates detached: the other is still read.
    let f = the_finding(&doc, "declared", ids::LISTENER_CERT, "Certificates");
    assert_eq!(
        f["actual"],
        json!([{"CertificateArn": ids_of["SecondSniCertificateArn"]}]),
        "{f}"
    );
    let all = drift_findings(&doc);
    assert_eq!(all.len(), changed.len() + 1, "{}", summary(&all));

    let read = [
        format!("project={}", s.id(ids::PROJECT)),
        format!("acl={}", str_of(&ids_of["NetworkAclId"])),
        "rule=100".to_string(),
        format!("user={}", str_of(&ids_of["DeployUser"])),
        format!("key={}", s.id(ids::ACCESS_KEY)),
        format!("zone={}", str_of(&ids_of["HostedZoneId"])),
        "record=api.readers.example.com.".to_string(),
        format!("listener={}", str_of(&ids_of["ListenerArn"])),
        format!("cluster={}", s.id(ids::DAX)),
        format!("instance={}", s.id(ids::DMS)),
        format!("location={}", str_of(&ids_of["DataLocationArn"])),
    ];
    revert_through_the_service_writers(w);
    judge_the_reverts(w, &read, ids_of);
}

/// The service writer each reverted resource's items name.
const WRITERS: &[(&str, &str)] = &[
    (ids::PROJECT, "codebuildProject"),
    (ids::NACL_ENTRY, "ec2NetworkAclEntry"),
    (ids::ACCESS_KEY, "iamAccessKey"),
    (ids::RECORDS, "route53RecordSetGroup"),
    (ids::LISTENER_CERT, "elbv2ListenerCertificate"),
    (ids::DAX, "daxCluster"),
    (ids::DMS, "dmsReplicationInstance"),
    (ids::LAKE, "lakeformationResource"),
];

/// `revert` writes every service-written change back (each through its
/// writer, all converged), and refuses what no writer covers with the reason.
fn revert_through_the_service_writers(w: &World) {
    let run = w.realdrift(&["revert", STACK, "--yes", "--json", "--wait", "30s"]);
    let doc = run.json();
    let stack = &doc["stacks"][0];
    assert_eq!(run.code, 0, "{doc}");
    let list = |k: &str| stack["plan"][k].as_array().cloned().unwrap_or_default();
    let writers: Vec<(String, String)> = list("items")
        .iter()
        .map(|i| (str_at(&i["resource"]["logicalId"]), str_at(&i["writer"])))
        .collect();
    for (logical, writer) in WRITERS {
        assert!(
            writers.contains(&(logical.to_string(), writer.to_string())),
            "{logical} by {writer}: {writers:?}"
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
    let refused: Vec<(String, String, String)> = list("refused")
        .iter()
        .map(|r| {
            (
                str_at(&r["resource"]["logicalId"]),
                str_at(&r["reason"]),
                str_at(&r["message"]),
            )
        })
        .collect();
    // The node count is not UpdateCluster's: refused, naming why.
    let dax: Vec<_> = refused.iter().filter(|r| r.0 == ids::DAX).collect();
    assert_eq!(dax.len(), 1, "{refused:?}");
    assert_eq!(dax[0].1, "noWriter", "{refused:?}");
    assert!(
        dax[0].2.contains("ReplicationFactor") && dax[0].2.contains("IncreaseReplicationFactor"),
        "{refused:?}"
    );
    for (logical, _) in WRITERS.iter().filter(|(l, _)| *l != ids::DAX) {
        assert!(
            refused.iter().all(|r| r.0 != *logical),
            "{logical}: {refused:?}"
        );
    }
}

/// What the services themselves hold after the revert: the declared values.
fn judge_the_reverts(w: &World, read: &[String], ids_of: &Value) {
    let mut args = vec!["read"];
    args.extend(read.iter().map(String::as_str));
    let held = w.script_json("tests/e2e/readers_world.py", &args);
    assert_eq!(held["project"]["privilegedMode"], json!(false), "{held}");
    let entry = &held["acl"];
    assert_eq!(
        (&entry["CidrBlock"], &entry["Protocol"], &entry["PortRange"]),
        (
            &json!("10.0.0.0/16"),
            &json!("6"),
            &json!({"From": 443, "To": 443})
        ),
        "{held}"
    );
    // The access key re-activated in the console is inactive again.
    assert_eq!(held["user"], json!("Inactive"), "{held}");
    assert_eq!(held["zone"], json!(["192.0.2.10"]), "{held}");
    let mut certs = vec![
        ids_of["SniCertificateArn"].clone(),
        ids_of["SecondSniCertificateArn"].clone(),
    ];
    certs.sort_by_key(|c| c.as_str().unwrap_or_default().to_string());
    assert_eq!(held["listener"], json!(certs), "{held}");
    assert_eq!(
        held["cluster"],
        json!("read-through cache of the readers tables"),
        "{held}"
    );
    assert_eq!(
        held["instance"]["AutoMinorVersionUpgrade"],
        json!(true),
        "{held}"
    );
    assert_eq!(
        held["location"]["RoleArn"], ids_of["ServiceRoleArn"],
        "{held}"
    );
}
