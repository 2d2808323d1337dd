//! Revert plans built from real corpus cases: classify a case through the
//! engine (as corpus_replay does), plan, apply the plan to the case's raw
//! live model (patches with the json-patch crate, service writer calls by
//! their documented effect), classify again, and check the drift is gone.
//! The same on reads changed out of band: every declared scalar changed,
//! every declared member dropped, an element added to every declared list,
//! every folded default changed since record.

mod classify_support;
mod corpus_support;

use classify_support::changed_scalar;
use corpus_support::{corpus_dir, declared_lists, declared_pointers};
use realdrift_core::baseline::NOTE_CHANGED;
use realdrift_core::corpus::{context_from_opts, resource_from_case, CorpusCase};
use realdrift_core::revert::{
    build_plan, BatchAction, ItemKind, PlanInput, PlanOptions, PrincipalKind, RefusalReason,
    RevertPlan, RevertResource, ServiceOp,
};
use realdrift_core::{classify::classify, DeclaredValue, Finding, Tier};
use serde_json::Value;
use std::sync::Arc;

fn load(name: &str) -> CorpusCase {
    CorpusCase::load(&corpus_dir().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn all_cases() -> Vec<(String, CorpusCase)> {
    let mut names: Vec<String> = std::fs::read_dir(corpus_dir())
        .expect("corpus dir")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".json"))
        .collect();
    names.sort();
    names.into_iter().map(|n| (n.clone(), load(&n))).collect()
}

fn classify_with(case: &CorpusCase, live: &Value) -> Vec<Finding> {
    let resource = resource_from_case(case);
    let ctx = context_from_opts(&case.opts, case.resource.construct_path.as_deref());
    classify(&resource, live, &case.schema, &ctx)
}

fn revert_resource(case: &CorpusCase, live: &Value) -> RevertResource {
    let r = &case.resource;
    RevertResource {
        logical_id: r.logical_id.clone(),
        resource_type: r.resource_type.clone(),
        physical_id: r.physical_id.clone(),
        declared: r
            .declared
            .iter()
            .map(|(k, v)| (k.clone(), DeclaredValue::from_corpus_json(v)))
            .collect(),
        live: Some(live.clone()),
        schema: Some(Arc::new(case.schema.clone())),
        secret_paths: Default::default(),
    }
}

fn plan_case(case: &CorpusCase, findings: Vec<Finding>, remove_unrecorded: bool) -> RevertPlan {
    plan_read(case, &case.live_raw, findings, remove_unrecorded)
}

/// The plan for findings classified from the read `live`.
fn plan_read(
    case: &CorpusCase,
    live: &Value,
    findings: Vec<Finding>,
    remove_unrecorded: bool,
) -> RevertPlan {
    let stack_tags = case
        .opts
        .get("stackTags")
        .and_then(Value::as_object)
        .map(|m| {
            m.iter()
                .filter_map(|(k, v)| Some((k.clone(), v.as_str()?.to_string())))
                .collect()
        })
        .unwrap_or_default();
    let input = PlanInput {
        stack: "CorpusStack".into(),
        account: Some("111111111111".into()),
        region: Some("us-east-1".into()),
        findings,
        resources: vec![revert_resource(case, live)],
        stack_tags,
    };
    build_plan(
        &input,
        &PlanOptions {
            remove_unrecorded,
            select: None,
        },
    )
}

/// The live model after the plan's writes (what a re-read would return).
fn applied(live: &Value, plan: &RevertPlan) -> Value {
    let mut doc = live.clone();
    for b in plan.batches() {
        match b.action {
            BatchAction::Patch(p) => json_patch::patch(&mut doc, &p)
                .unwrap_or_else(|e| panic!("{}: {e}", b.resource.logical_id)),
            BatchAction::Service(ops) => ops.iter().for_each(|op| service_effect(&mut doc, op)),
            BatchAction::Delete => {}
        }
    }
    doc
}

/// The documented effect of an IAM inline-policy call on a principal's model.
fn service_effect(doc: &mut Value, op: &ServiceOp) {
    let list = |doc: &mut Value| -> Vec<Value> {
        doc.get("Policies")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
    };
    match op {
        // An AWS::IAM::Policy is the inline policy itself, listing the
        // principals that hold it.
        ServiceOp::PutInlinePolicy {
            policy_name,
            policy_document,
            principals,
        } if doc["PolicyName"] == *policy_name.as_str() => {
            doc["PolicyDocument"] = policy_document.clone();
            for p in principals {
                let list = &mut doc[principal_list(p.kind)];
                if !list.is_array() {
                    *list = Value::Array(Vec::new());
                }
                if let Some(a) = list
                    .as_array_mut()
                    .filter(|a| !a.contains(&p.name.as_str().into()))
                {
                    a.push(p.name.as_str().into());
                }
            }
        }
        ServiceOp::DeleteInlinePolicy {
            policy_name,
            principals,
        } if doc["PolicyName"] == *policy_name.as_str() => {
            for p in principals {
                if let Some(a) = doc[principal_list(p.kind)].as_array_mut() {
                    a.retain(|n| *n != *p.name.as_str());
                }
            }
        }
        ServiceOp::PutInlinePolicy {
            policy_name,
            policy_document,
            ..
        } => {
            let mut l = list(doc);
            l.retain(|e| e["PolicyName"] != *policy_name.as_str());
            l.push(
                serde_json::json!({"PolicyName": policy_name, "PolicyDocument": policy_document}),
            );
            doc["Policies"] = Value::Array(l);
        }
        ServiceOp::DeleteInlinePolicy { policy_name, .. } => {
            let mut l = list(doc);
            l.retain(|e| e["PolicyName"] != *policy_name.as_str());
            doc["Policies"] = Value::Array(l);
        }
        other => panic!("no simulated effect for {other:?}"),
    }
}

/// The AWS::IAM::Policy property that lists principals of `kind`.
fn principal_list(kind: PrincipalKind) -> &'static str {
    match kind {
        PrincipalKind::Role => "Roles",
        PrincipalKind::User => "Users",
        PrincipalKind::Group => "Groups",
    }
}

fn drift_at(findings: &[Finding], tier: Tier, path: &str) -> bool {
    findings.iter().any(|f| f.tier == tier && f.path == path)
}

#[test]
fn every_declared_drift_in_the_corpus_is_planned_or_refused_and_reverts_converge() {
    let mut reverted = 0usize;
    let mut refused = Vec::new();
    for (name, case) in all_cases() {
        let findings = classify_with(&case, &case.live_raw);
        let declared: Vec<&Finding> = findings
            .iter()
            .filter(|f| f.tier == Tier::Declared)
            .collect();
        if declared.is_empty() {
            continue;
        }
        let plan = plan_case(&case, findings.clone(), false);
        for f in &declared {
            let id = realdrift_core::revert::item_id(f);
            let planned = plan.items.iter().any(|i| i.id == id);
            let refusal = plan.refused.iter().find(|r| r.id == id);
            assert!(
                planned != refusal.is_some(),
                "{name}: {id} must be exactly one of item / refusal"
            );
            if let Some(r) = refusal {
                refused.push(format!("{name}: {id}: {:?}", r.reason));
            }
        }
        let after = classify_with(&case, &applied(&case.live_raw, &plan));
        for item in plan.items.iter().filter(|i| i.kind == ItemKind::Template) {
            assert!(
                !drift_at(&after, Tier::Declared, &item.path),
                "{name}: {} still drifts after the revert: {:?}",
                item.id,
                after
                    .iter()
                    .filter(|f| f.path == item.path)
                    .collect::<Vec<_>>()
            );
            reverted += 1;
        }
    }
    println!("declared drift reverted and verified: {reverted}; refused: {refused:#?}");
    // The corpus carries 16 declared findings in 15 cases; the ELB
    // attribute-bag entry is the one refused (no per-attribute writer).
    assert_eq!(reverted, 15, "refused: {refused:#?}");
    assert_eq!(refused.len(), 1, "{refused:#?}");
    assert!(refused[0].ends_with("NoWriter"), "{refused:#?}");
}

#[test]
fn undeclared_drift_removed_on_request_is_gone_after_the_revert() {
    let mut removed = 0usize;
    for (name, case) in all_cases() {
        let findings = classify_with(&case, &case.live_raw);
        let mut undeclared: Vec<Finding> = findings
            .into_iter()
            .filter(|f| f.tier == Tier::Undeclared)
            .collect();
        if undeclared.is_empty() {
            continue;
        }
        // With no baseline every undeclared value is unrecorded.
        undeclared.iter_mut().for_each(|f| f.unrecorded = true);
        let refused_plan = plan_case(&case, undeclared.clone(), false);
        assert!(refused_plan.items.is_empty(), "{name}");
        assert!(refused_plan
            .refused
            .iter()
            .all(|r| r.reason == RefusalReason::Unrecorded));

        let plan = plan_case(&case, undeclared, true);
        let after = classify_with(&case, &applied(&case.live_raw, &plan));
        for item in &plan.items {
            assert!(item.unrecorded, "{name}: {}", item.id);
            assert!(
                !drift_at(&after, Tier::Undeclared, &item.path),
                "{name}: {} still present after removal",
                item.id
            );
            removed += 1;
        }
    }
    println!("unrecorded values removed and verified: {removed}");
    assert!(removed >= 6, "only {removed} removals verified");
}

#[test]
fn a_whole_array_revert_rewrites_the_array_with_the_classified_value() {
    let case = load("AWS__CloudFront__Distribution.MultiOriginCdn.json");
    let findings = classify_with(&case, &case.live_raw);
    let plan = plan_case(&case, findings, false);
    let item = plan
        .items
        .iter()
        .find(|i| i.path == "DistributionConfig.Origins.1.OriginPath")
        .expect("the origin path is revertable through its whole array");
    let patch = serde_json::to_value(&item.operation).unwrap();
    assert_eq!(patch["patch"][0]["path"], "/DistributionConfig/Origins");
    assert_eq!(item.target, Some(Value::String("/v1".into())));
}

#[test]
fn a_role_inline_policy_reverts_by_name_without_touching_sibling_policies() {
    let case = load("AWS__IAM__Role.RoleInlinePolicyRemoved.json");
    let mut live = case.live_raw.clone();
    // A policy a sibling AWS::IAM::Policy owns, which the role's read also lists.
    live["Policies"] = serde_json::json!([{"PolicyName": "RoleDefaultPolicy", "PolicyDocument": {"Version": "2012-10-17", "Statement": []}}]);
    let mut case = case;
    case.resource.sibling_policy_names = Some(serde_json::json!(["RoleDefaultPolicy"]));
    case.live_raw = live.clone();
    let findings = classify_with(&case, &live);
    let plan = plan_case(&case, findings, false);
    let item = plan
        .items
        .iter()
        .find(|i| i.path == "Policies[cdkrd-inline-1]")
        .unwrap_or_else(|| panic!("planned: {}", serde_json::to_string(&plan).unwrap()));
    let ops = serde_json::to_value(&item.operation).unwrap();
    assert_eq!(ops["ops"].as_array().map(Vec::len), Some(1), "{ops}");
    assert_eq!(ops["ops"][0]["op"], "putInlinePolicy");
    assert_eq!(ops["ops"][0]["policyName"], "cdkrd-inline-1");
    assert_eq!(
        ops["ops"][0]["principals"][0],
        serde_json::json!({"kind": "role", "name": case.resource.physical_id})
    );
}

/// Pointers of the declared scalars the read echoes as declared, at any depth.
fn echoed_scalars(case: &CorpusCase) -> Vec<String> {
    let declared = Value::Object(case.resource.declared.clone());
    declared_pointers(case)
        .into_iter()
        .map(|(ptr, _)| ptr)
        .filter(|p| {
            declared.pointer(p).is_some() && declared.pointer(p) == case.live_raw.pointer(p)
        })
        .collect()
}

/// The plan's writes can be simulated here: Cloud Control patches and IAM
/// inline-policy calls (other service calls are checked by their writers'
/// own tests).
fn simulated(plan: &RevertPlan) -> bool {
    plan.batches().iter().all(|b| match &b.action {
        BatchAction::Service(ops) => ops.iter().all(|op| {
            matches!(
                op,
                ServiceOp::PutInlinePolicy { .. } | ServiceOp::DeleteInlinePolicy { .. }
            )
        }),
        _ => true,
    })
}

/// Drift whose revert target is the template: declared drift, and a
/// declared list read back in another order.
fn is_template_drift(f: &Finding) -> bool {
    f.tier == Tier::Declared || (f.tier == Tier::Undeclared && f.order_only)
}

/// What reverting the declared drift of changed reads came to.
#[derive(Default)]
struct Reverts {
    converged: usize,
    refused: usize,
    other_writers: usize,
    stuck: Vec<String>,
}

/// For every case and every changed read `changes` gives (a label and the
/// read), plans the new declared drift, applies it to the read and
/// classifies again.
fn revert_changed_reads(changes: impl Fn(&CorpusCase) -> Vec<(String, Value)>) -> Reverts {
    let mut r = Reverts::default();
    for (name, case) in all_cases() {
        let before: Vec<String> = classify_with(&case, &case.live_raw)
            .iter()
            .filter(|f| is_template_drift(f))
            .map(|f| f.path.clone())
            .collect();
        for (what, live) in changes(&case) {
            let findings = classify_with(&case, &live);
            let new: Vec<&Finding> = findings
                .iter()
                .filter(|f| is_template_drift(f) && !before.contains(&f.path))
                .collect();
            let plan = plan_read(&case, &live, findings.clone(), false);
            let ids: Vec<String> = new
                .iter()
                .map(|f| realdrift_core::revert::item_id(f))
                .collect();
            if new.is_empty() || plan.refused.iter().any(|x| ids.contains(&x.id)) {
                r.refused += usize::from(!new.is_empty());
                continue;
            }
            if !simulated(&plan) {
                r.other_writers += 1;
                continue;
            }
            let after = classify_with(&case, &applied(&live, &plan));
            match new.iter().find(|f| drift_at(&after, f.tier, &f.path)) {
                Some(f) => r.stuck.push(format!("{name} {what}: {}", f.path)),
                None => r.converged += 1,
            }
        }
    }
    println!(
        "converged {}; refused {}; other writers {}",
        r.converged, r.refused, r.other_writers
    );
    r
}

/// The reads of `case` with one declared scalar the read echoes changed.
fn changed_values(case: &CorpusCase) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    for ptr in echoed_scalars(case) {
        let mut live = case.live_raw.clone();
        if let Some(slot) = live.pointer_mut(&ptr) {
            if let Some(changed) = changed_scalar(slot) {
                *slot = changed;
                out.push((format!("changed {ptr}"), live));
            }
        }
    }
    out
}

#[test]
fn every_declared_value_changed_out_of_band_reverts_and_converges() {
    // Found keys that hold dots (a Glue table parameter
    // `projection.date.format`, an API Gateway mapping
    // `integration.request.header.Content-Type`) written to the wrong
    // place, and a policy moved to another role left on that role.
    let r = revert_changed_reads(changed_values);
    assert!(r.converged > 2500, "only {} reverts converged", r.converged);
    assert!(
        r.stuck.is_empty(),
        "reverts that leave the drift: {:#?}",
        r.stuck
    );
}

/// Every scalar inside `v` changed (strings prefixed, numbers moved,
/// booleans flipped).
fn changed_all(v: &mut Value) {
    match v {
        Value::Object(m) => m.values_mut().for_each(changed_all),
        Value::Array(a) => a.iter_mut().for_each(changed_all),
        other => {
            if let Some(c) = changed_scalar(other) {
                *other = c;
            }
        }
    }
}

/// The reads of `case` with one declared member dropped, one element like
/// the last (every scalar changed) added to one declared list, or one
/// declared list rotated by one.
fn dropped_and_added(case: &CorpusCase) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    for ptr in echoed_scalars(case) {
        let Some((parent, key)) = ptr.rsplit_once('/') else {
            continue;
        };
        let mut live = case.live_raw.clone();
        if let Some(Value::Object(m)) = live.pointer_mut(parent) {
            m.remove(&key.replace("~1", "/").replace("~0", "~"));
            out.push((format!("dropped {ptr}"), live));
        }
    }
    for ptr in declared_lists(case) {
        let mut live = case.live_raw.clone();
        if let Some(Value::Array(a)) = live.pointer_mut(&ptr) {
            if let Some(mut e) = a.last().cloned() {
                changed_all(&mut e);
                a.push(e);
                out.push((format!("added to {ptr}"), live));
            }
        }
        let mut live = case.live_raw.clone();
        if let Some(Value::Array(a)) = live
            .pointer_mut(&ptr)
            .filter(|a| a.as_array().is_some_and(|a| a.len() > 1))
        {
            a.rotate_left(1);
            out.push((format!("rotated {ptr}"), live));
        }
    }
    out
}

#[test]
fn a_dropped_member_an_added_element_or_a_reorder_reverts_and_converges() {
    let r = revert_changed_reads(dropped_and_added);
    assert!(r.converged > 2000, "only {} reverts converged", r.converged);
    assert!(
        r.stuck.is_empty(),
        "reverts that leave the drift: {:#?}",
        r.stuck
    );
}

#[test]
fn a_default_changed_since_record_reverts_to_the_recorded_value() {
    // Every value the corpus folds as a default is changed in the read;
    // the undeclared drift, marked as the baseline stage marks a value
    // changed since record, reverts to the recorded value and converges.
    let (mut converged, mut refused) = (0usize, 0usize);
    let mut stuck = Vec::new();
    for (name, case) in all_cases() {
        let base = classify_with(&case, &case.live_raw);
        for f0 in base
            .iter()
            .filter(|f| f.tier == Tier::AtDefault && !f.path.contains('['))
        {
            let ptr: String = f0
                .path
                .split('.')
                .map(|k| format!("/{}", k.replace('~', "~0").replace('/', "~1")))
                .collect();
            let mut live = case.live_raw.clone();
            let Some(slot) = live.pointer_mut(&ptr) else {
                continue;
            };
            let recorded = slot.clone();
            let Some(changed) = changed_scalar(slot) else {
                continue;
            };
            *slot = changed;
            let mut findings = classify_with(&case, &live);
            let Some(f) = findings
                .iter_mut()
                .find(|f| f.tier == Tier::Undeclared && f.path == f0.path)
            else {
                continue;
            };
            f.desired = Some(recorded);
            f.note = Some(NOTE_CHANGED.to_string());
            let plan = plan_read(&case, &live, findings.clone(), false);
            if plan.refused.iter().any(|r| r.path == f0.path) {
                refused += 1;
                continue;
            }
            assert!(simulated(&plan), "{name}: {}", f0.path);
            let after = classify_with(&case, &applied(&live, &plan));
            if drift_at(&after, Tier::Undeclared, &f0.path) {
                stuck.push(format!("{name} {}", f0.path));
            } else {
                converged += 1;
            }
        }
    }
    println!("converged {converged}; refused {refused}");
    assert!(converged > 1000, "only {converged} reverts converged");
    assert!(stuck.is_empty(), "reverts that leave the drift: {stuck:#?}");
}
