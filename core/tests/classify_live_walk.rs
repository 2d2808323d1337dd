//! Live-only members are walked everywhere below a declared value: inside
//! JSON text, inside array elements with no identity key, and inside
//! elements matched by a keyed-set rule (inside a policy document, where
//! AWS adds nothing, such a member is declared drift instead). Each case starts from a real corpus
//! case (recorded from AWS) and adds one live-only member out of band; the
//! unmodified case is checked too, so AWS-filled members stay quiet.

use realdrift_core::corpus::{replay_case, CorpusCase};
use realdrift_core::{Finding, Tier};
use serde_json::{json, Value};
use std::path::PathBuf;

fn case_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/corpus/cases")
        .join(name)
}

/// The corpus case `name` as JSON, to be edited.
fn load(name: &str) -> Value {
    let text = std::fs::read_to_string(case_path(name)).expect("corpus case readable");
    serde_json::from_str(&text).expect("corpus case is JSON")
}

fn classify(case: &Value) -> Vec<Finding> {
    let parsed = CorpusCase::parse(&case_path("edited.json"), &case.to_string())
        .expect("edited case parses");
    replay_case(&parsed)
}

fn at<'f>(fs: &'f [Finding], path: &str) -> Vec<&'f Finding> {
    fs.iter().filter(|f| f.path == path).collect()
}

fn paths(fs: &[Finding]) -> Vec<String> {
    fs.iter()
        .map(|f| format!("{}:{}", f.tier, f.path))
        .collect()
}

/// The one undeclared, nested finding at `path`, carrying `actual`.
fn assert_undeclared(fs: &[Finding], path: &str, actual: &Value) {
    let hits = at(fs, path);
    assert_eq!(hits.len(), 1, "one finding at {path} in {:?}", paths(fs));
    assert_eq!(hits[0].tier, Tier::Undeclared, "{:?}", paths(fs));
    assert!(hits[0].nested);
    assert_eq!(hits[0].actual.as_ref(), Some(actual));
}

/// (a) A state machine definition the template writes as JSON text, edited
/// out of band to give a Pass state a Result: the new member surfaces at its
/// path inside the parsed definition.
#[test]
fn live_only_member_inside_json_text_surfaces() {
    let mut case = load("AWS__StepFunctions__StateMachine.SM934E715A.json");
    assert!(
        at(&classify(&case), "DefinitionString.States.P.Result").is_empty(),
        "the recorded case has no such finding"
    );
    case["liveRaw"]["DefinitionString"] = json!(
        r#"{"StartAt":"P","States":{"P":{"Type":"Pass","End":true,"Result":{"injected":true}}}}"#
    );
    let fs = classify(&case);
    assert_undeclared(
        &fs,
        "DefinitionString.States.P.Result",
        &json!({"injected": true}),
    );
    assert!(
        fs.iter().all(|f| f.tier != Tier::Declared),
        "declared members still match: {:?}",
        paths(&fs)
    );
}

/// (a) A redrive policy written as JSON text while live returns the object:
/// the same members on both sides give nothing new; a member only live has
/// surfaces under the property.
#[test]
fn redrive_policy_written_as_text_is_walked_as_its_object() {
    let mut case = load("AWS__SQS__Queue.MainRedrive.json");
    let policy = case["resource"]["declared"]["RedrivePolicy"].clone();
    case["resource"]["declared"]["RedrivePolicy"] = json!(policy.to_string());
    let quiet = classify(&case);
    assert!(
        quiet.iter().all(|f| !f.path.starts_with("RedrivePolicy")),
        "{:?}",
        paths(&quiet)
    );
    case["liveRaw"]["RedrivePolicy"]["redriveNote"] = json!("set out of band");
    let fs = classify(&case);
    assert_undeclared(&fs, "RedrivePolicy.redriveNote", &json!("set out of band"));
}

/// The live `readObjects` inline policy of the bounded role's case.
fn read_objects(case: &mut Value) -> &mut Value {
    let policies = case["liveRaw"]["Policies"]
        .as_array_mut()
        .expect("live Policies");
    policies
        .iter_mut()
        .find(|p| p["PolicyName"] == "readObjects")
        .expect("readObjects policy")
}

/// (b) An inline policy statement (no identity key) gains a Condition out of
/// band. AWS stores a policy as written, so the member is not a value the
/// template left to AWS: the declared policy changed, and it is declared
/// drift on the statements (shown whole, with the condition), not a nested
/// potential drift.
#[test]
fn a_member_added_inside_a_policy_is_declared_drift() {
    let mut case = load("AWS__IAM__Role.BoundedRole588C8D80.json");
    let condition = json!({"StringEquals": {"aws:ResourceTag/team": "red"}});
    read_objects(&mut case)["PolicyDocument"]["Statement"][0]["Condition"] = condition;
    let fs = classify(&case);
    let under: Vec<&Finding> = fs
        .iter()
        .filter(|f| f.path.starts_with("Policies"))
        .collect();
    assert_eq!(under.len(), 1, "{:?}", paths(&fs));
    assert_eq!(under[0].tier, Tier::Declared, "{:?}", paths(&fs));
    assert!(under[0].path.ends_with(".PolicyDocument.Statement"));
    // Shown in the canonical policy form (condition values as lists).
    let shown = under[0].actual.as_ref().map(Value::to_string);
    assert!(
        shown.is_some_and(|s| s.contains(r#""aws:ResourceTag/team":["red"]"#)),
        "{:?}",
        under[0].actual
    );
}

/// (b) A policy's own metadata is not part of what it grants: an `Id` the
/// template left out, read back on the document, stays a nested potential
/// drift at its path (never filled in on the template's side), and the
/// statements still match.
#[test]
fn an_id_on_a_policy_document_stays_nested() {
    let mut case = load("AWS__IAM__Role.BoundedRole588C8D80.json");
    read_objects(&mut case)["PolicyDocument"]["Id"] = json!("named-out-of-band");
    let fs = classify(&case);
    assert_undeclared(
        &fs,
        "Policies[readObjects].PolicyDocument.Id",
        &json!("named-out-of-band"),
    );
    assert!(
        fs.iter().all(|f| f.tier != Tier::Declared),
        "{:?}",
        paths(&fs)
    );
}

/// (b) Security group rules have no identity key: the -1 ports EC2 fills
/// into an all-protocol rule stay quiet, a member added to a rule surfaces.
#[test]
fn security_group_rule_members_are_walked_without_false_drift() {
    let mut case = load("AWS__EC2__SecurityGroup.SgD4954771.json");
    let quiet = classify(&case);
    assert!(
        quiet
            .iter()
            .all(|f| !f.path.starts_with("SecurityGroupEgress")),
        "{:?}",
        paths(&quiet)
    );
    case["liveRaw"]["SecurityGroupEgress"][0]["SourcePrefixListId"] = json!("pl-0a1b2c3d");
    let fs = classify(&case);
    assert_undeclared(
        &fs,
        "SecurityGroupEgress.0.SourcePrefixListId",
        &json!("pl-0a1b2c3d"),
    );
}

/// (c) A block device mapping matched by its DeviceName (a keyed-set rule):
/// the members AWS fills from the AMI stay quiet, a throughput raised out of
/// band surfaces inside the matched element.
#[test]
fn live_only_member_inside_a_matched_keyed_element_surfaces() {
    let mut case = load("AWS__EC2__Instance.HostB4E45AD7.json");
    let quiet = classify(&case);
    assert!(
        at(&quiet, "BlockDeviceMappings[/dev/xvda].Ebs.Throughput").is_empty(),
        "{:?}",
        paths(&quiet)
    );
    let mappings = case["liveRaw"]["BlockDeviceMappings"]
        .as_array_mut()
        .expect("live mappings");
    let root = mappings
        .iter_mut()
        .find(|m| m["DeviceName"] == "/dev/xvda")
        .expect("root mapping");
    root["Ebs"]["Throughput"] = json!(500);
    let fs = classify(&case);
    assert_undeclared(
        &fs,
        "BlockDeviceMappings[/dev/xvda].Ebs.Throughput",
        &json!(500),
    );
}
