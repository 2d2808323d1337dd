//! Revert plans through the real baseline stage: corpus cases classified,
//! a cdk-real-drift baseline applied, the plan built from what the baseline
//! confirmed, applied to the live models, and the whole check run again —
//! the confirmed drift is gone and nothing unrecorded was touched.

#[path = "fixtures/baselines/support.rs"]
mod support;

use realdrift_core::baseline::{apply_baseline, BaselineFile};
use realdrift_core::classify::classify;
use realdrift_core::corpus::{context_from_opts, resource_from_case, CorpusCase};
use realdrift_core::revert::{
    build_plan, BatchAction, ItemKind, PlanInput, PlanOptions, RefusalReason, RevertPlan,
    RevertResource,
};
use realdrift_core::{DeclaredValue, Finding};
use serde_json::{json, Value};
use std::sync::Arc;
use support::*;

const STACK: &str = "CdkRealDriftIntegS3NotifRich";
const HANDLER: &str = "AWS__Lambda__Function.Handler.drifted";
const BUCKET: &str = "AWS__S3__Bucket.Bucket83908E77";
const ATHENA: &str = "AWS__Athena__WorkGroup.WgDescend.drifted";

fn baseline() -> BaselineFile {
    let name = "CdkRealDriftIntegS3NotifRich.111111111111.us-east-1.json";
    let mut b =
        BaselineFile::parse(name, &std::fs::read_to_string(fixture(name)).unwrap()).unwrap();
    // The record covered the work group too: its live-only value appeared since.
    b.complete_resources
        .get_or_insert_with(Vec::new)
        .push("WgDescend".into());
    b
}

/// The stack's cases with their (possibly changed) live models.
fn stack(changes: &[(&str, &str, Value)]) -> Vec<CorpusCase> {
    [HANDLER, BUCKET, ATHENA]
        .iter()
        .map(|stem| {
            let mut c = case(stem);
            for (s, prop, v) in changes {
                if s == stem {
                    c.live_raw[*prop] = v.clone();
                }
            }
            c
        })
        .collect()
}

/// classify + baseline, as the pipeline runs them.
fn check(cases: &[CorpusCase]) -> Vec<Finding> {
    let findings = cases
        .iter()
        .flat_map(|c| {
            let ctx = context_from_opts(&c.opts, c.resource.construct_path.as_deref());
            classify(&resource_from_case(c), &c.live_raw, &c.schema, &ctx)
        })
        .collect();
    let ctx = ctx_for(STACK, &[HANDLER, BUCKET, ATHENA]);
    apply_baseline(findings, Some(&baseline()), &ctx)
        .unwrap()
        .findings
}

fn plan(cases: &[CorpusCase], findings: Vec<Finding>) -> RevertPlan {
    let resources = cases
        .iter()
        .map(|c| RevertResource {
            logical_id: c.resource.logical_id.clone(),
            resource_type: c.resource.resource_type.clone(),
            physical_id: c.resource.physical_id.clone(),
            declared: c
                .resource
                .declared
                .iter()
                .map(|(k, v)| (k.clone(), DeclaredValue::from_corpus_json(v)))
                .collect(),
            live: Some(c.live_raw.clone()),
            schema: Some(Arc::new(c.schema.clone())),
            secret_paths: Default::default(),
        })
        .collect();
    let input = PlanInput {
        stack: STACK.into(),
        account: Some(ACCOUNT.into()),
        region: Some(REGION.into()),
        findings,
        resources,
        stack_tags: Default::default(),
    };
    build_plan(&input, &PlanOptions::default())
}

fn apply(cases: &mut [CorpusCase], plan: &RevertPlan) {
    for b in plan.batches() {
        let BatchAction::Patch(p) = b.action else {
            panic!("only Cloud Control patches expected here: {b:?}")
        };
        let c = cases
            .iter_mut()
            .find(|c| c.resource.logical_id == b.resource.logical_id)
            .expect("batch names a stack resource");
        json_patch::patch(&mut c.live_raw, &p).expect("patch applies");
    }
}

fn confirmed(findings: &[Finding]) -> Vec<(String, String)> {
    findings
        .iter()
        .filter(|f| f.tier.is_drift() && !f.unrecorded)
        .map(|f| (f.logical_id.clone(), f.path.clone()))
        .collect()
}

#[test]
fn confirmed_undeclared_drift_reverts_to_the_baseline_and_the_check_comes_back_clean() {
    let mut cases = stack(&[(HANDLER, "ReservedConcurrentExecutions", json!(50))]);
    let findings = check(&cases);
    assert_eq!(
        confirmed(&findings),
        vec![
            (
                "Handler".to_string(),
                "ReservedConcurrentExecutions".to_string()
            ),
            (
                "WgDescend".into(),
                "WorkGroupConfiguration.BytesScannedCutoffPerQuery".into()
            ),
        ]
    );
    let p = plan(&cases, findings);
    let by_path = |path: &str| {
        p.items
            .iter()
            .find(|i| i.path == path)
            .unwrap_or_else(|| panic!("{path} not planned: {:#?}", p.refused))
    };
    let changed = by_path("ReservedConcurrentExecutions");
    assert_eq!(changed.kind, ItemKind::Baseline);
    assert_eq!(
        (changed.current.clone(), changed.target.clone()),
        (Some(json!(50)), Some(json!(5)))
    );
    let appeared = by_path("WorkGroupConfiguration.BytesScannedCutoffPerQuery");
    assert_eq!(appeared.kind, ItemKind::Remove);

    apply(&mut cases, &p);
    assert_eq!(confirmed(&check(&cases)), Vec::<(String, String)>::new());
}

#[test]
fn without_the_record_the_same_values_are_refused_as_unrecorded() {
    let cases = stack(&[]);
    let findings: Vec<Finding> = cases
        .iter()
        .flat_map(|c| {
            let ctx = context_from_opts(&c.opts, c.resource.construct_path.as_deref());
            classify(&resource_from_case(c), &c.live_raw, &c.schema, &ctx)
        })
        .collect();
    let ctx = ctx_for(STACK, &[HANDLER, BUCKET, ATHENA]);
    let findings = apply_baseline(findings, None, &ctx).unwrap().findings;
    let p = plan(&cases, findings);
    assert!(p.items.is_empty(), "{:#?}", p.items);
    assert!(!p.refused.is_empty());
    assert!(p
        .refused
        .iter()
        .filter(|r| r.tier == realdrift_core::Tier::Undeclared)
        .all(|r| r.reason == RefusalReason::Unrecorded));
}
