//! Recording a baseline: what is recorded, carry-forward, completeness,
//! markers, and the delta against an existing file — and that a fresh record
//! applied to the same run reports nothing.

#[path = "fixtures/baselines/support.rs"]
mod support;

use futures_executor::block_on;
use realdrift_core::baseline::{
    apply_baseline, candidates, fingerprint_key, load_baseline, preview, record, save_baseline,
    BaselineFile, ChildScan, MemoryStore, Precondition, ReadState, RecordInput, RunContext,
    Selection,
};
use realdrift_core::{Finding, Tier};
use serde_json::json;
use std::collections::BTreeSet;
use support::*;

const STACK: &str = "CdkRealDriftIntegS3NotifRich";
const HANDLER: &str = "AWS__Lambda__Function.Handler.drifted";
const BUCKET: &str = "AWS__S3__Bucket.Bucket83908E77";
const ATHENA: &str = "AWS__Athena__WorkGroup.WgDescend.drifted";
const RUBY: &str = "AWS__Lambda__Function.HuntRubyB2F34A71";
const LOGS: &str = "AWS__Logs__LogGroup.MatrixLogsDDD521D9.drifted";
const ALL: [&str; 5] = [HANDLER, BUCKET, ATHENA, RUBY, LOGS];

fn run() -> (RunContext, Vec<Finding>) {
    (ctx_for(STACK, &ALL), classified_of(&ALL))
}

fn rec(
    findings: &[Finding],
    existing: Option<&BaselineFile>,
    ctx: &RunContext,
    selection: &Selection,
) -> realdrift_core::baseline::RecordOutcome {
    record(RecordInput {
        classified: findings,
        existing,
        ctx,
        selection,
        captured_at: "2026-07-01T10:00:00Z",
    })
}

fn keys(b: &BaselineFile) -> Vec<(String, String)> {
    b.recorded.iter().map(|e| e.key()).collect()
}

#[test]
fn record_all_snapshots_undeclared_and_recordable_hashes_only() {
    let (ctx, findings) = run();
    let out = rec(&findings, None, &ctx, &Selection::All);
    let b = &out.baseline;
    assert_eq!(
        keys(b),
        vec![
            (
                "Bucket83908E77".to_string(),
                "NotificationConfiguration".to_string()
            ),
            ("Handler".into(), "ReservedConcurrentExecutions".into()),
            ("HuntRubyB2F34A71".into(), "CodeSha256".into()),
            (
                "WgDescend".into(),
                "WorkGroupConfiguration.BytesScannedCutoffPerQuery".into()
            ),
            // The engine version Athena chose at create time (user-changeable).
            (
                "WgDescend".into(),
                "WorkGroupConfiguration.EngineVersion".into()
            ),
        ]
    );
    // Never a constant atDefault, never a non-recordable generated value (LoggingConfig).
    assert!(b
        .recorded
        .iter()
        .all(|e| e.path != "LoggingConfig" && e.path != "MemorySize"));
    // Every read resource is complete, including one with zero findings to record.
    assert_eq!(
        b.complete_resources.clone().unwrap(),
        vec![
            "Bucket83908E77",
            "Handler",
            "HuntRubyB2F34A71",
            "MatrixLogsDDD521D9",
            "WgDescend"
        ]
    );
    assert_eq!(b.recorded_physical_ids.len(), 5);
    assert!(b
        .recorded_source_fingerprints
        .contains_key(&fingerprint_key("HuntRubyB2F34A71", "CodeSha256")));
    assert_eq!(b.observed_defaults.len(), 1);
    assert_eq!(
        b.observed_defaults[0].path,
        "PublicAccessBlockConfiguration"
    );
    assert_eq!(
        (b.schema_version, b.account_id.as_deref()),
        (2, Some(ACCOUNT))
    );
    assert_eq!(b.template_hash.as_deref(), Some("tmpl-hash-1"));
    assert_eq!(out.delta.new.len(), 5);
    assert!(out.delta.changed.is_empty() && out.delta.unchanged.is_empty());
}

#[test]
fn a_fresh_record_applied_to_the_same_run_is_clean() {
    let (ctx, findings) = run();
    let b = rec(&findings, None, &ctx, &Selection::All).baseline;
    let out = apply_baseline(findings, Some(&b), &ctx).unwrap();
    let loud: Vec<&Finding> = out.findings.iter().filter(|f| f.tier.is_drift()).collect();
    // Only the template-declared drift of the log group remains.
    assert_eq!(loud.len(), 1, "{loud:#?}");
    assert_eq!(loud[0].tier, Tier::Declared);
    assert!(out.notes.is_empty(), "{:?}", out.notes);
}

#[test]
fn a_chosen_subset_records_only_that_and_leaves_the_rest_potential() {
    let (ctx, findings) = run();
    let pick = Selection::Only(BTreeSet::from([(
        "Handler".to_string(),
        "ReservedConcurrentExecutions".to_string(),
    )]));
    let out = rec(&findings, None, &ctx, &pick);
    assert_eq!(
        keys(&out.baseline),
        vec![(
            "Handler".to_string(),
            "ReservedConcurrentExecutions".to_string()
        )]
    );
    assert_eq!(out.delta.declined.len(), 4);
    let complete = out.baseline.complete_resources.clone().unwrap();
    assert!(complete.contains(&"Handler".to_string()));
    assert!(!complete.contains(&"Bucket83908E77".to_string()));
    let applied = apply_baseline(findings, Some(&out.baseline), &ctx).unwrap();
    assert!(applied
        .findings
        .iter()
        .all(|f| f.tier != Tier::Undeclared || f.unrecorded));
    assert_eq!(applied.findings.iter().filter(|f| f.unrecorded).count(), 2);
}

#[test]
fn delta_against_an_existing_baseline() {
    let (ctx, findings) = run();
    let first = rec(&findings, None, &ctx, &Selection::All).baseline;
    let mut next = findings.clone();
    next.iter_mut()
        .find(|f| f.path == "ReservedConcurrentExecutions")
        .unwrap()
        .actual = Some(json!(9));
    next.retain(|f| f.path != "NotificationConfiguration");
    let d = preview(&next, Some(&first), &ctx);
    assert_eq!(d.changed.len(), 1);
    assert_eq!(d.changed[0].0.value, json!(5));
    assert_eq!(d.changed[0].1.value, json!(9));
    assert_eq!(d.unchanged.len(), 3);
    assert_eq!(d.dropped.len(), 1);
    assert!(d.new.is_empty() && !d.is_empty());
    // Nothing new: a re-record only refreshes the file.
    assert!(preview(&findings, Some(&first), &ctx).is_empty());
}

#[test]
fn declining_a_changed_value_keeps_the_old_entry_and_its_drift() {
    let (ctx, findings) = run();
    let first = rec(&findings, None, &ctx, &Selection::All).baseline;
    let mut next = findings.clone();
    next.iter_mut()
        .find(|f| f.path == "ReservedConcurrentExecutions")
        .unwrap()
        .actual = Some(json!(9));
    let out = rec(&next, Some(&first), &ctx, &Selection::Only(BTreeSet::new()));
    let e = out
        .baseline
        .recorded
        .iter()
        .find(|e| e.logical_id == "Handler")
        .unwrap();
    assert_eq!(e.value, json!(5));
    let applied = apply_baseline(next, Some(&out.baseline), &ctx).unwrap();
    assert!(applied
        .findings
        .iter()
        .any(|f| f.logical_id == "Handler" && f.tier == Tier::Undeclared && !f.unrecorded));
}

#[test]
fn completeness_is_monotonic_so_a_declined_new_value_stays_drift() {
    let (ctx, findings) = run();
    let first = rec(&findings, None, &ctx, &Selection::All).baseline;
    let mut next = findings.clone();
    let mut appeared = Finding::new(
        Tier::Undeclared,
        "Handler",
        "AWS::Lambda::Function",
        "KmsKeyArn",
    );
    appeared.actual = Some(json!("arn:aws:kms:us-east-1:111111111111:key/abc"));
    next.push(appeared);
    let out = rec(&next, Some(&first), &ctx, &Selection::Only(BTreeSet::new()));
    assert!(out.baseline.is_complete("Handler"));
    let applied = apply_baseline(next, Some(&out.baseline), &ctx).unwrap();
    let f = applied
        .findings
        .iter()
        .find(|f| f.path == "KmsKeyArn")
        .unwrap();
    assert!(!f.unrecorded && f.tier == Tier::Undeclared);
}

#[test]
fn entries_of_unread_resources_are_carried_forward_with_their_markers() {
    let (ctx, findings) = run();
    let first = rec(&findings, None, &ctx, &Selection::All).baseline;
    let mut unread = ctx.clone();
    unread.resources.get_mut("HuntRubyB2F34A71").unwrap().read = ReadState::NotRead;
    unread
        .resources
        .get_mut("HuntRubyB2F34A71")
        .unwrap()
        .physical_id = None;
    let rest: Vec<Finding> = findings
        .iter()
        .filter(|f| f.logical_id != "HuntRubyB2F34A71")
        .cloned()
        .collect();
    let out = rec(&rest, Some(&first), &unread, &Selection::All);
    assert_eq!(out.delta.carried.len(), 1);
    assert!(out.baseline.recorded.iter().any(|e| e.path == "CodeSha256"));
    let key = fingerprint_key("HuntRubyB2F34A71", "CodeSha256");
    assert_eq!(
        out.baseline.recorded_source_fingerprints.get(&key),
        first.recorded_source_fingerprints.get(&key)
    );
    assert_eq!(
        out.baseline.recorded_physical_ids.get("HuntRubyB2F34A71"),
        first.recorded_physical_ids.get("HuntRubyB2F34A71")
    );
    assert!(out.baseline.is_complete("HuntRubyB2F34A71"));
    // A deleted resource was not read either: entries carried, but never complete.
    let mut gone = ctx.clone();
    gone.resources.get_mut("Handler").unwrap().read = ReadState::Deleted;
    let rest: Vec<Finding> = findings
        .iter()
        .filter(|f| f.logical_id != "Handler")
        .cloned()
        .collect();
    let out = rec(&rest, Some(&first), &gone, &Selection::All);
    assert!(!out.baseline.is_complete("Handler"));
    assert!(out
        .baseline
        .recorded
        .iter()
        .any(|e| e.logical_id == "Handler"));
}

#[test]
fn enumerated_parents_need_a_complete_scan_and_every_child_endorsed() {
    let (mut ctx, mut findings) = run();
    ctx.resources.get_mut("Handler").unwrap().children = ChildScan::Complete;
    ctx.resources.get_mut("WgDescend").unwrap().children = ChildScan::Failed;
    ctx.added_parents
        .insert("HandlerUrlRogue".into(), "Handler".into());
    let mut child = Finding::new(Tier::Added, "HandlerUrlRogue", "AWS::Lambda::Url", "");
    child.actual = Some(json!({"AuthType": "NONE"}));
    findings.push(child);
    let all = rec(&findings, None, &ctx, &Selection::All).baseline;
    let parents: Vec<&str> = all
        .enumerated_parents
        .iter()
        .map(|p| p.logical_id.as_str())
        .collect();
    assert_eq!(parents, vec!["Handler"]);
    assert!(all
        .recorded
        .iter()
        .any(|e| e.logical_id == "HandlerUrlRogue" && e.path.is_empty()));
    // The user declined the child: the parent is demoted.
    let mut pick: BTreeSet<(String, String)> =
        candidates(&findings).into_iter().map(|(k, _)| k).collect();
    pick.remove(&("HandlerUrlRogue".to_string(), String::new()));
    let some = rec(&findings, None, &ctx, &Selection::Only(pick)).baseline;
    assert!(some.enumerated_parents.is_empty());
}

#[test]
fn a_child_that_could_not_be_recorded_leaves_its_parent_unstamped() {
    // A present child with no model read is never endorsed into `recorded`;
    // stamping its parent would report it as "appeared since record" next run.
    let (mut ctx, mut findings) = run();
    ctx.resources.get_mut("Handler").unwrap().children = ChildScan::Complete;
    ctx.added_parents
        .insert("HandlerUrlRogue".into(), "Handler".into());
    ctx.added_parents
        .insert("HandlerUrlOther".into(), "Handler".into());
    let mut read = Finding::new(Tier::Added, "HandlerUrlRogue", "AWS::Lambda::Url", "");
    read.actual = Some(json!({"AuthType": "NONE"}));
    findings.push(read);
    findings.push(Finding::new(
        Tier::Added,
        "HandlerUrlOther",
        "AWS::Lambda::Url",
        "",
    ));
    let out = rec(&findings, None, &ctx, &Selection::All).baseline;
    assert!(out
        .recorded
        .iter()
        .any(|e| e.logical_id == "HandlerUrlRogue" && e.path.is_empty()));
    assert!(!out
        .recorded
        .iter()
        .any(|e| e.logical_id == "HandlerUrlOther"));
    assert!(
        out.enumerated_parents.is_empty(),
        "{:?}",
        out.enumerated_parents
    );
}

#[test]
fn records_are_byte_stable_and_round_trip_through_a_store() {
    let (ctx, findings) = run();
    let b = rec(&findings, None, &ctx, &Selection::All).baseline;
    let mut shuffled = findings.clone();
    shuffled.reverse();
    let b2 = rec(&shuffled, None, &ctx, &Selection::All).baseline;
    assert_eq!(
        b.to_text(),
        b2.to_text(),
        "input order must not change the file"
    );
    let store = MemoryStore::new();
    let key = ctx.identity.file_name().unwrap();
    assert_eq!(
        key,
        "CdkRealDriftIntegS3NotifRich.111111111111.us-east-1.json"
    );
    block_on(save_baseline(&store, &key, &b, Precondition::None)).unwrap();
    assert_eq!(block_on(load_baseline(&store, &key)).unwrap().unwrap(), b);
}

#[test]
fn re_recording_a_cdk_real_drift_file_keeps_its_unknown_fields() {
    let name = "CdkRealDriftIntegS3NotifRich.111111111111.us-east-1.json";
    let old = BaselineFile::parse(name, &std::fs::read_to_string(fixture(name)).unwrap()).unwrap();
    let (ctx, findings) = run();
    let out = rec(&findings, Some(&old), &ctx, &Selection::All);
    assert_eq!(out.baseline.extra["cdkrdVersion"], json!("0.9.3"));
    let bucket = out
        .baseline
        .recorded
        .iter()
        .find(|e| e.logical_id == "Bucket83908E77")
        .unwrap();
    assert_eq!(bucket.extra["recordedBy"], json!("cdkrd record --all"));
    assert_eq!(out.delta.unchanged.len(), 2);
}

#[test]
fn record_refuses_a_file_of_another_stack_account_or_region() {
    use realdrift_core::baseline::{check_record_target, BaselineError};
    let (ctx, findings) = run();
    let own = rec(&findings, None, &ctx, &Selection::All).baseline;
    assert!(check_record_target(&own, &ctx).is_ok());
    let mut other_stack = own.clone();
    other_stack.stack_name = "SomeoneElse".into();
    let mut other_account = own.clone();
    other_account.account_id = Some("999999999999".into());
    let mut other_region = own.clone();
    other_region.region = "ap-south-2".into();
    for (file, field) in [
        (other_stack, "stackName"),
        (other_account, "accountId"),
        (other_region, "region"),
    ] {
        match check_record_target(&file, &ctx) {
            Err(BaselineError::IdentityMismatch { field: f, .. }) => assert_eq!(f, field),
            other => panic!("{field}: expected a mismatch, got {other:?}"),
        }
    }
}
