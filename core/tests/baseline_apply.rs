//! Applying a baseline: the per-entry semantics of seed 000 §8, with real
//! findings from the golden corpus and a baseline written in the
//! cdk-real-drift format.

#[path = "fixtures/baselines/support.rs"]
mod support;

use realdrift_core::baseline::{
    apply_baseline, facts, fingerprint_key, source_fingerprint, BaselineError, BaselineFile,
    BaselineNote, ChildScan, ReadState, RecordedEntry, ResourceRef, RunContext, NOTE_APPEARED,
    NOTE_CHANGED, NOTE_DEFAULT_DELETED, NOTE_REDEPLOYED, NOTE_REMOVED,
};
use realdrift_core::{DeclaredValue, Finding, Tier};
use serde_json::{json, Map, Value};
use support::*;

const STACK: &str = "CdkRealDriftIntegS3NotifRich";
const HANDLER: &str = "AWS__Lambda__Function.Handler.drifted";
const BUCKET: &str = "AWS__S3__Bucket.Bucket83908E77";
const ATHENA: &str = "AWS__Athena__WorkGroup.WgDescend.drifted";
const MATRIX: &str = "AWS__Lambda__Function.MatrixFn0598BE1E.drifted";
const RUBY: &str = "AWS__Lambda__Function.HuntRubyB2F34A71";

fn cdkrd_baseline() -> BaselineFile {
    let name = "CdkRealDriftIntegS3NotifRich.111111111111.us-east-1.json";
    BaselineFile::parse(name, &std::fs::read_to_string(fixture(name)).unwrap()).unwrap()
}

fn ctx() -> RunContext {
    ctx_for(STACK, &[HANDLER, BUCKET, ATHENA, MATRIX])
}

fn drift(fs: &[Finding]) -> Vec<(String, String, Option<String>)> {
    fs.iter()
        .filter(|f| f.tier.is_drift() && !f.unrecorded)
        .map(|f| (f.logical_id.clone(), f.path.clone(), f.note.clone()))
        .collect()
}

fn potential(fs: &[Finding]) -> Vec<(String, String)> {
    fs.iter()
        .filter(|f| f.unrecorded)
        .map(|f| (f.logical_id.clone(), f.path.clone()))
        .collect()
}

fn find<'a>(fs: &'a [Finding], id: &str, path: &str) -> &'a Finding {
    fs.iter()
        .find(|f| f.logical_id == id && f.path == path)
        .unwrap_or_else(|| panic!("no finding {id}.{path} in {fs:#?}"))
}

fn entry(id: &str, ty: &str, path: &str, value: Value) -> RecordedEntry {
    RecordedEntry {
        logical_id: id.into(),
        resource_type: ty.into(),
        path: path.into(),
        value,
        extra: Map::new(),
    }
}

#[test]
fn without_a_baseline_every_live_only_value_is_potential_drift() {
    let findings = findings_of(&[HANDLER, BUCKET, ATHENA, MATRIX]);
    let out = apply_baseline(findings, None, &ctx()).unwrap();
    assert_eq!(
        potential(&out.findings),
        vec![
            (
                "Handler".to_string(),
                "ReservedConcurrentExecutions".to_string()
            ),
            ("Bucket83908E77".into(), "NotificationConfiguration".into()),
            (
                "WgDescend".into(),
                "WorkGroupConfiguration.BytesScannedCutoffPerQuery".into()
            ),
        ]
    );
    // Declared drift is unaffected by baselines.
    assert_eq!(
        drift(&out.findings),
        vec![("MatrixFn0598BE1E".into(), "MemorySize".into(), None)]
    );
    assert!(out.suppressed.is_empty() && out.notes.is_empty());
}

#[test]
fn recorded_and_unchanged_values_are_silent() {
    let b = cdkrd_baseline();
    let findings = findings_of(&[HANDLER, BUCKET]);
    let before = findings.len();
    let out = apply_baseline(findings, Some(&b), &ctx()).unwrap();
    assert!(drift(&out.findings).is_empty(), "{:#?}", out.findings);
    assert!(potential(&out.findings).is_empty());
    assert_eq!(out.suppressed.len(), 2);
    assert_eq!(out.findings.len() + 2, before);
    assert!(out.notes.is_empty(), "{:?}", out.notes);
}

#[test]
fn recorded_and_changed_is_drift_with_the_recorded_value_as_desired() {
    let b = cdkrd_baseline();
    let mut findings = findings_of(&[HANDLER, BUCKET]);
    findings
        .iter_mut()
        .find(|f| f.path == "ReservedConcurrentExecutions")
        .unwrap()
        .actual = Some(json!(50));
    let out = apply_baseline(findings, Some(&b), &ctx()).unwrap();
    let f = find(&out.findings, "Handler", "ReservedConcurrentExecutions");
    assert_eq!((f.tier, f.unrecorded), (Tier::Undeclared, false));
    assert_eq!(f.desired, Some(json!(5)));
    assert_eq!(f.actual, Some(json!(50)));
    assert_eq!(f.note.as_deref(), Some(NOTE_CHANGED));
}

#[test]
fn no_entry_is_drift_on_a_complete_resource_and_potential_elsewhere() {
    let mut b = cdkrd_baseline();
    let findings = findings_of(&[HANDLER, BUCKET, ATHENA]);
    // WgDescend is not complete: its live-only value was never decided.
    let out = apply_baseline(findings.clone(), Some(&b), &ctx()).unwrap();
    assert_eq!(
        potential(&out.findings),
        vec![(
            "WgDescend".to_string(),
            "WorkGroupConfiguration.BytesScannedCutoffPerQuery".to_string()
        )]
    );
    // Once the record covered the whole resource, the value appeared since record.
    b.complete_resources
        .as_mut()
        .unwrap()
        .push("WgDescend".into());
    let out = apply_baseline(findings, Some(&b), &ctx()).unwrap();
    assert_eq!(
        drift(&out.findings),
        vec![(
            "WgDescend".to_string(),
            "WorkGroupConfiguration.BytesScannedCutoffPerQuery".to_string(),
            Some(NOTE_APPEARED.to_string())
        )]
    );
}

#[test]
fn a_cherry_picked_record_does_not_flip_the_rest_to_drift() {
    // One value recorded, nothing complete: the other values stay potential.
    let mut b = cdkrd_baseline();
    b.recorded.retain(|e| e.logical_id == "Handler");
    b.complete_resources = Some(vec![]);
    let out = apply_baseline(findings_of(&[HANDLER, BUCKET, ATHENA]), Some(&b), &ctx()).unwrap();
    assert!(drift(&out.findings).is_empty());
    assert_eq!(potential(&out.findings).len(), 2);
}

#[test]
fn a_recorded_value_gone_from_a_read_resource_is_removed_drift() {
    let b = cdkrd_baseline();
    let findings: Vec<Finding> = findings_of(&[HANDLER, BUCKET])
        .into_iter()
        .filter(|f| f.path != "ReservedConcurrentExecutions")
        .collect();
    let out = apply_baseline(findings, Some(&b), &ctx()).unwrap();
    let f = find(&out.findings, "Handler", "ReservedConcurrentExecutions");
    assert_eq!(f.tier, Tier::Undeclared);
    assert_eq!(f.desired, Some(json!(5)));
    assert_eq!(f.actual, None);
    assert_eq!(f.note.as_deref(), Some(NOTE_REMOVED));
    assert_eq!(f.physical_id.as_deref(), Some("corpus-handler"));
}

#[test]
fn removal_is_silent_on_unread_or_deleted_resources() {
    let b = cdkrd_baseline();
    for state in [ReadState::NotRead, ReadState::Deleted] {
        let mut c = ctx();
        c.resources.get_mut("Handler").unwrap().read = state;
        let findings: Vec<Finding> = findings_of(&[BUCKET]);
        let out = apply_baseline(findings, Some(&b), &c).unwrap();
        assert!(
            drift(&out.findings).is_empty(),
            "{state:?}: {:#?}",
            out.findings
        );
    }
}

#[test]
fn a_value_promoted_into_the_template_folds_with_a_note() {
    let b = cdkrd_baseline();
    let mut c = ctx();
    c.resources.get_mut("Handler").unwrap().declared.insert(
        "ReservedConcurrentExecutions".into(),
        DeclaredValue::from_json(&json!(5)),
    );
    let findings = findings_of(&[BUCKET]);
    let out = apply_baseline(findings, Some(&b), &c).unwrap();
    assert!(drift(&out.findings).is_empty());
    assert_eq!(
        out.notes,
        vec![BaselineNote::Promoted {
            logical_id: "Handler".into(),
            path: "ReservedConcurrentExecutions".into()
        }]
    );
}

#[test]
fn entries_of_resources_removed_from_the_template_fold() {
    let b = cdkrd_baseline();
    let mut c = ctx();
    c.resources.remove("Handler");
    let out = apply_baseline(findings_of(&[BUCKET]), Some(&b), &c).unwrap();
    assert!(drift(&out.findings).is_empty());
    assert_eq!(
        out.notes,
        vec![BaselineNote::RemovedFromTemplate { entries: 1 }]
    );
    assert!(out.notes[0]
        .to_string()
        .contains("no longer in the template"));
}

#[test]
fn a_replaced_resource_voids_its_entries_and_completeness() {
    let b = cdkrd_baseline();
    let mut c = ctx();
    c.resources.get_mut("Handler").unwrap().physical_id = Some("corpus-handler-v2".into());
    // The fresh resource shows a different value: not "changed since record".
    let mut findings = findings_of(&[HANDLER, BUCKET]);
    for f in findings.iter_mut().filter(|f| f.logical_id == "Handler") {
        f.physical_id = Some("corpus-handler-v2".into());
        if f.path == "ReservedConcurrentExecutions" {
            f.actual = Some(json!(7));
        }
    }
    let out = apply_baseline(findings, Some(&b), &c).unwrap();
    assert!(drift(&out.findings).is_empty(), "{:#?}", out.findings);
    assert_eq!(
        potential(&out.findings),
        vec![(
            "Handler".to_string(),
            "ReservedConcurrentExecutions".to_string()
        )]
    );
    assert!(out.notes.contains(&BaselineNote::Replaced {
        logical_id: "Handler".into(),
        entries: 1
    }));
    // An unknown live id (unread resource) never voids.
    let mut c2 = ctx();
    c2.resources.get_mut("Handler").unwrap().physical_id = None;
    let out = apply_baseline(findings_of(&[HANDLER, BUCKET]), Some(&b), &c2).unwrap();
    assert!(out.notes.is_empty());
}

fn ruby_setup(code_key: &str) -> (BaselineFile, RunContext, Vec<Finding>) {
    let stem = RUBY;
    let mut c = ctx_for(STACK, &[stem]);
    let case = case(stem);
    let id = case.resource.logical_id.clone();
    let recorded_ctx = ctx_for(STACK, &[stem]);
    let fact = facts()
        .fingerprint_for("AWS::Lambda::Function", "CodeSha256")
        .unwrap();
    let fp = source_fingerprint(&recorded_ctx.resources[&id].declared, fact).unwrap();
    let mut b = BaselineFile::empty(STACK, ACCOUNT, REGION);
    let hash = find(&case.expected, &id, "CodeSha256")
        .actual
        .clone()
        .unwrap();
    b.recorded
        .push(entry(&id, "AWS::Lambda::Function", "CodeSha256", hash));
    b.recorded_source_fingerprints
        .insert(fingerprint_key(&id, "CodeSha256"), fp);
    b.complete_resources = Some(vec![id.clone()]);
    // The deploy (or not) changes the declared Code.
    let code =
        json!({"S3Bucket": "cdk-hnb659fds-assets-111111111111-us-east-1", "S3Key": code_key});
    c.resources
        .get_mut(&id)
        .unwrap()
        .declared
        .insert("Code".into(), DeclaredValue::from_json(&code));
    (b, c, case.expected)
}

#[test]
fn a_recorded_code_hash_swapped_out_of_band_is_drift() {
    let original_key = "7cb8d80102ee1e1791ef95e5fc193f7cc0f74dcc4cf5b581c8aab6f0bbaffba9.zip";
    let (b, c, mut findings) = ruby_setup(original_key);
    // Unchanged hash: silent (stays generated).
    let out = apply_baseline(findings.clone(), Some(&b), &c).unwrap();
    assert!(drift(&out.findings).is_empty());
    // Swapped out of band: same template, different hash.
    findings
        .iter_mut()
        .find(|f| f.path == "CodeSha256")
        .unwrap()
        .actual = Some(json!("c3dhcHBlZA=="));
    let out = apply_baseline(findings, Some(&b), &c).unwrap();
    let f = find(&out.findings, "HuntRubyB2F34A71", "CodeSha256");
    assert_eq!(
        (f.tier, f.note.as_deref()),
        (Tier::Undeclared, Some(NOTE_CHANGED))
    );
}

#[test]
fn a_code_hash_that_moved_with_a_deploy_folds_with_a_note() {
    let (b, c, mut findings) = ruby_setup("ffffnew.zip");
    findings
        .iter_mut()
        .find(|f| f.path == "CodeSha256")
        .unwrap()
        .actual = Some(json!("bmV3IGNvZGU="));
    let out = apply_baseline(findings, Some(&b), &c).unwrap();
    assert!(drift(&out.findings).is_empty(), "{:#?}", out.findings);
    let f = find(&out.findings, "HuntRubyB2F34A71", "CodeSha256");
    assert_eq!(
        (f.tier, f.note.as_deref()),
        (Tier::Generated, Some(NOTE_REDEPLOYED))
    );
    assert!(matches!(
        &out.notes[..],
        [BaselineNote::SourceRedeployed { .. }]
    ));
}

#[test]
fn a_deleted_observed_default_is_drift_on_a_read_resource_only() {
    let b = cdkrd_baseline();
    let without_pab: Vec<Finding> = findings_of(&[HANDLER, BUCKET])
        .into_iter()
        .filter(|f| f.path != "PublicAccessBlockConfiguration")
        .collect();
    let out = apply_baseline(without_pab.clone(), Some(&b), &ctx()).unwrap();
    let f = find(
        &out.findings,
        "Bucket83908E77",
        "PublicAccessBlockConfiguration",
    );
    assert_eq!(f.note.as_deref(), Some(NOTE_DEFAULT_DELETED));
    assert_eq!(f.desired.as_ref().unwrap()["BlockPublicAcls"], json!(true));
    assert!(f.tier.is_drift() && !f.unrecorded);
    // Present at its default: silent.
    let out = apply_baseline(findings_of(&[HANDLER, BUCKET]), Some(&b), &ctx()).unwrap();
    assert!(drift(&out.findings).is_empty());
    // Unread bucket: silent.
    let mut c = ctx();
    c.resources.get_mut("Bucket83908E77").unwrap().read = ReadState::NotRead;
    let out = apply_baseline(without_pab, Some(&b), &c).unwrap();
    assert!(drift(&out.findings)
        .iter()
        .all(|d| d.1 != "PublicAccessBlockConfiguration"));
}

#[test]
fn file_remarks_template_hash_v1_and_missing_account() {
    let text = std::fs::read_to_string(fixture("legacy-v1.json")).unwrap();
    let b = BaselineFile::parse("legacy-v1.json", &text).unwrap();
    let out = apply_baseline(findings_of(&[HANDLER, ATHENA]), Some(&b), &ctx()).unwrap();
    assert!(out.notes.contains(&BaselineNote::LegacySchema));
    assert!(out.notes.contains(&BaselineNote::MissingAccountId));
    assert!(out.notes.contains(&BaselineNote::TemplateChanged));
    // v1: nothing complete, so the unrecorded value is potential, not drift.
    assert!(drift(&out.findings).is_empty());
    assert_eq!(out.suppressed.len(), 1);
}

#[test]
fn a_baseline_of_another_account_is_an_error() {
    let b = cdkrd_baseline();
    let mut c = ctx();
    c.identity.account_id = "222222222222".into();
    let err = apply_baseline(findings_of(&[HANDLER]), Some(&b), &c).unwrap_err();
    assert!(
        matches!(
            err,
            BaselineError::IdentityMismatch {
                field: "accountId",
                ..
            }
        ),
        "{err}"
    );
    let mut c = ctx();
    c.identity.region = "eu-west-1".into();
    assert!(apply_baseline(vec![], Some(&b), &c).is_err());
}

#[test]
fn a_baseline_recorded_at_a_coarser_path_never_false_drifts() {
    // Older rules recorded the whole object; classify now reports one nested key.
    let mut b = BaselineFile::empty(STACK, ACCOUNT, REGION);
    b.recorded.push(entry(
        "WgDescend",
        "AWS::Athena::WorkGroup",
        "WorkGroupConfiguration",
        json!({"BytesScannedCutoffPerQuery": 10000000, "EnforceWorkGroupConfiguration": true}),
    ));
    b.complete_resources = Some(vec!["WgDescend".into()]);
    let findings = findings_of(&[ATHENA]);
    let out = apply_baseline(findings.clone(), Some(&b), &ctx()).unwrap();
    assert!(drift(&out.findings).is_empty(), "{:#?}", out.findings);
    assert_eq!(out.suppressed.len(), 1);
    // A real change under the coarse entry still surfaces, against the recorded part.
    let mut changed = findings.clone();
    changed
        .iter_mut()
        .find(|f| f.path == "WorkGroupConfiguration.BytesScannedCutoffPerQuery")
        .unwrap()
        .actual = Some(json!(5));
    let out = apply_baseline(changed, Some(&b), &ctx()).unwrap();
    let f = find(
        &out.findings,
        "WgDescend",
        "WorkGroupConfiguration.BytesScannedCutoffPerQuery",
    );
    assert_eq!(
        (f.desired.clone(), f.note.as_deref()),
        (Some(json!(10000000)), Some(NOTE_CHANGED))
    );
    // A key the recorded object did not hold appeared since record.
    b.recorded[0].value = json!({"EnforceWorkGroupConfiguration": true});
    let out = apply_baseline(findings, Some(&b), &ctx()).unwrap();
    assert_eq!(drift(&out.findings)[0].2.as_deref(), Some(NOTE_APPEARED));
}

#[test]
fn a_recorded_value_now_folded_to_at_default_is_silent_when_equal() {
    // Recorded under older rules as undeclared; classify now calls it atDefault.
    let bucket = case(BUCKET);
    let pab = find(
        &bucket.expected,
        "Bucket83908E77",
        "PublicAccessBlockConfiguration",
    )
    .clone();
    let mut b = BaselineFile::empty(STACK, ACCOUNT, REGION);
    b.recorded.push(entry(
        "Bucket83908E77",
        "AWS::S3::Bucket",
        "PublicAccessBlockConfiguration",
        pab.actual.clone().unwrap(),
    ));
    let out = apply_baseline(findings_of(&[BUCKET]), Some(&b), &ctx()).unwrap();
    assert!(
        drift(&out.findings).is_empty(),
        "{:#?}",
        drift(&out.findings)
    );
    // Different from what was recorded: that is a change since record.
    b.recorded[0].value = json!({"BlockPublicAcls": false});
    let out = apply_baseline(findings_of(&[BUCKET]), Some(&b), &ctx()).unwrap();
    assert_eq!(
        drift(&out.findings),
        vec![(
            "Bucket83908E77".into(),
            "PublicAccessBlockConfiguration".into(),
            Some(NOTE_CHANGED.into())
        )]
    );
}

/// The run's real findings plus one out-of-band child.
fn added_child(model: Value) -> Vec<Finding> {
    let mut f = Finding::new(
        Tier::Added,
        "RestApiAuthorizerRogue",
        "AWS::ApiGateway::Authorizer",
        "",
    );
    f.actual = Some(model);
    let mut all = findings_of(&[HANDLER, BUCKET]);
    all.push(f);
    all
}

#[test]
fn added_children_follow_the_enumerated_parent_marker() {
    let mut c = ctx();
    c.resources.get_mut("Handler").unwrap().children = ChildScan::Complete;
    c.added_parents
        .insert("RestApiAuthorizerRogue".into(), "Handler".into());
    let model = json!({"Name": "rogue", "Type": "TOKEN"});
    let mut b = cdkrd_baseline();
    // Unmarked parent: potential only.
    let out = apply_baseline(added_child(model.clone()), Some(&b), &c).unwrap();
    assert_eq!(potential(&out.findings).len(), 1);
    // Marked parent: confirmed "appeared since record".
    b.enumerated_parents.push(ResourceRef {
        logical_id: "Handler".into(),
        resource_type: "AWS::Lambda::Function".into(),
        extra: Map::new(),
    });
    let out = apply_baseline(added_child(model.clone()), Some(&b), &c).unwrap();
    assert_eq!(drift(&out.findings)[0].2.as_deref(), Some(NOTE_APPEARED));
    // Recorded whole: silent when equal, drift when changed.
    b.recorded.push(entry(
        "RestApiAuthorizerRogue",
        "AWS::ApiGateway::Authorizer",
        "",
        model.clone(),
    ));
    let out = apply_baseline(added_child(model), Some(&b), &c).unwrap();
    assert!(drift(&out.findings).is_empty() && out.suppressed.len() == 3);
    let out = apply_baseline(
        added_child(json!({"Name": "rogue", "Type": "REQUEST"})),
        Some(&b),
        &c,
    )
    .unwrap();
    assert_eq!(drift(&out.findings)[0].2.as_deref(), Some(NOTE_CHANGED));
}

#[test]
fn a_confirmed_out_of_band_child_keeps_the_added_tier() {
    // The report lists out-of-band resources by the `added` tier; re-tagging a
    // confirmed child as `undeclared` would move it out of that section.
    let mut c = ctx();
    c.resources.get_mut("Handler").unwrap().children = ChildScan::Complete;
    c.added_parents
        .insert("RestApiAuthorizerRogue".into(), "Handler".into());
    let mut b = cdkrd_baseline();
    b.enumerated_parents.push(ResourceRef {
        logical_id: "Handler".into(),
        resource_type: "AWS::Lambda::Function".into(),
        extra: Map::new(),
    });
    let model = json!({"Name": "rogue", "Type": "TOKEN"});
    let out = apply_baseline(added_child(model.clone()), Some(&b), &c).unwrap();
    let f = find(&out.findings, "RestApiAuthorizerRogue", "");
    assert_eq!(f.tier, Tier::Added);
    assert!(!f.unrecorded);
    assert_eq!(f.note.as_deref(), Some(NOTE_APPEARED));
    assert!(realdrift_core::report::is_confirmed_drift(f));
    // A recorded child whose model changed stays `added` too.
    b.recorded.push(entry(
        "RestApiAuthorizerRogue",
        "AWS::ApiGateway::Authorizer",
        "",
        model,
    ));
    let out = apply_baseline(
        added_child(json!({"Name": "rogue", "Type": "REQUEST"})),
        Some(&b),
        &c,
    )
    .unwrap();
    let f = find(&out.findings, "RestApiAuthorizerRogue", "");
    assert_eq!(f.tier, Tier::Added);
    assert_eq!(f.note.as_deref(), Some(NOTE_CHANGED));
    assert_eq!(f.desired, Some(json!({"Name": "rogue", "Type": "TOKEN"})));
}

#[test]
fn informational_and_declared_tiers_pass_through() {
    let b = cdkrd_baseline();
    let findings = findings_of(&[MATRIX, "AWS__RDS__DBInstance.HuntMariaDbFC079FD5"]);
    let tiers: Vec<Tier> = findings.iter().map(|f| f.tier).collect();
    let mut c = ctx();
    let (id, st) = resource_state(
        &case("AWS__RDS__DBInstance.HuntMariaDbFC079FD5"),
        ReadState::Read,
    );
    c.resources.insert(id, st);
    let out = apply_baseline(findings, Some(&b), &c).unwrap();
    let after: Vec<Tier> = out
        .findings
        .iter()
        .filter(|f| f.logical_id != "Handler" && f.logical_id != "Bucket83908E77")
        .map(|f| f.tier)
        .collect();
    assert_eq!(tiers, after);
}

#[test]
fn a_read_gap_elsewhere_on_the_resource_keeps_the_default_watch() {
    let b = cdkrd_baseline();
    let mut findings: Vec<Finding> = findings_of(&[HANDLER, BUCKET])
        .into_iter()
        .filter(|f| f.path != "PublicAccessBlockConfiguration")
        .collect();
    // Some other declared property the read could not return.
    let mut gap = Finding::new(
        Tier::ReadGap,
        "Bucket83908E77",
        "AWS::S3::Bucket",
        "ObjectLockConfiguration",
    );
    gap.note = Some("declared but not returned by live read".into());
    findings.push(gap);
    let out = apply_baseline(findings.clone(), Some(&b), &ctx()).unwrap();
    let f = find(
        &out.findings,
        "Bucket83908E77",
        "PublicAccessBlockConfiguration",
    );
    assert_eq!(f.note.as_deref(), Some(NOTE_DEFAULT_DELETED));
    // A gap at the watched path itself does hide it.
    findings.push(Finding::new(
        Tier::ReadGap,
        "Bucket83908E77",
        "AWS::S3::Bucket",
        "PublicAccessBlockConfiguration",
    ));
    let out = apply_baseline(findings, Some(&b), &ctx()).unwrap();
    assert!(drift(&out.findings)
        .iter()
        .all(|d| d.1 != "PublicAccessBlockConfiguration"));
}

#[test]
fn a_code_digest_that_could_not_be_read_is_not_removed_since_record() {
    let original_key = "7cb8d80102ee1e1791ef95e5fc193f7cc0f74dcc4cf5b581c8aab6f0bbaffba9.zip";
    let (b, c, findings) = ruby_setup(original_key);
    // GetFunction failed: no CodeSha256, a read gap on Code instead.
    let mut findings: Vec<Finding> = findings
        .into_iter()
        .filter(|f| f.path != "CodeSha256")
        .collect();
    findings.push(Finding::new(
        Tier::ReadGap,
        "HuntRubyB2F34A71",
        "AWS::Lambda::Function",
        "Code",
    ));
    let out = apply_baseline(findings.clone(), Some(&b), &c).unwrap();
    assert!(
        drift(&out.findings).is_empty(),
        "{:#?}",
        drift(&out.findings)
    );
    // Without the gap, a digest gone from a read function is removal drift.
    findings.retain(|f| f.tier != Tier::ReadGap || f.path != "Code");
    let out = apply_baseline(findings, Some(&b), &c).unwrap();
    assert_eq!(
        find(&out.findings, "HuntRubyB2F34A71", "CodeSha256")
            .note
            .as_deref(),
        Some(NOTE_REMOVED)
    );
}

#[test]
fn the_identity_guard_never_passes_on_an_unknown_account_stack_or_region() {
    let b = cdkrd_baseline();
    for field in ["accountId", "stackName", "region"] {
        let mut c = ctx();
        match field {
            "accountId" => c.identity.account_id.clear(),
            "stackName" => c.identity.stack_name.clear(),
            _ => c.identity.region.clear(),
        }
        let err = apply_baseline(vec![], Some(&b), &c).unwrap_err();
        assert!(
            matches!(&err, BaselineError::IdentityMismatch { field: f, .. } if *f == field),
            "{field}: {err}"
        );
    }
    // A file recorded with an empty accountId is not a legacy file.
    let mut odd = cdkrd_baseline();
    odd.account_id = Some(String::new());
    assert!(apply_baseline(vec![], Some(&odd), &ctx()).is_err());
    // A legacy file without one is matched on stack and region, with a note.
    let mut legacy = cdkrd_baseline();
    legacy.account_id = None;
    let out = apply_baseline(vec![], Some(&legacy), &ctx()).unwrap();
    assert!(out.notes.contains(&BaselineNote::MissingAccountId));
    let mut c = ctx();
    c.identity.account_id.clear();
    assert!(apply_baseline(vec![], Some(&legacy), &c).is_err());
}
