//! Property tests of revert plans over generated live models and findings:
//! a plan never holds an operation for a refused finding, and applying a
//! plan's patches to the live model with the json-patch crate yields the
//! value each item targets (the template or baseline value, the documented
//! default, or absence).

use proptest::prelude::*;
use realdrift_core::baseline::{NOTE_APPEARED, NOTE_CHANGED};
use realdrift_core::revert::{
    build_plan, revert_facts, BatchAction, ItemKind, Operation, PlanInput, PlanOptions,
    RefusalReason, RevertResource,
};
use realdrift_core::schema::SchemaFacts;
use realdrift_core::{Finding, Tier};
use serde_json::{json, Map, Value};
use std::collections::BTreeSet;
use std::sync::Arc;

const TYPE: &str = "AWS::IAM::Role";

const PATHS: &[&str] = &[
    "A",
    "A.x",
    "A.y",
    "B",
    "B.x.z",
    "C",
    "C.0",
    "C.1.x",
    "D[k]",
    "E.f.g",
    "Tags",
    "Tags[k1]",
    "MaxSessionDuration",
];

fn scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        any::<i16>().prop_map(|n| json!(n)),
        "[a-c]{0,3}".prop_map(Value::String),
        any::<bool>().prop_map(Value::Bool),
    ]
}

fn value() -> impl Strategy<Value = Value> {
    prop_oneof![
        3 => scalar(),
        1 => prop::collection::btree_map("[xyz]", scalar(), 0..3)
            .prop_map(|m| Value::Object(m.into_iter().collect())),
        1 => Just(json!("{{resolve:ssm-secure:p}}")),
    ]
}

fn tag_list() -> impl Strategy<Value = Value> {
    prop::collection::btree_map(
        prop_oneof![
            Just("k1".to_string()),
            Just("k2".to_string()),
            Just("aws:cloudformation:stack-name".to_string()),
            Just("AmazonECSManaged".to_string()),
        ],
        "[a-c]{0,2}",
        0..4,
    )
    .prop_map(|m| {
        Value::Array(
            m.into_iter()
                .map(|(k, v)| json!({"Key": k, "Value": v}))
                .collect(),
        )
    })
}

fn live_model() -> impl Strategy<Value = Value> {
    (
        prop::option::of(prop_oneof![
            value(),
            (scalar(), scalar()).prop_map(|(x, y)| json!({"x": x, "y": y}))
        ]),
        prop::option::of(value()),
        prop::option::of(prop::collection::vec(value(), 0..3).prop_map(Value::Array)),
        prop::option::of(tag_list()),
        prop::option::of(value()),
        prop::option::of(tag_list()),
        prop::option::of(any::<u16>().prop_map(|n| json!(n))),
    )
        .prop_map(|(a, b, c, d, e, tags, msd)| {
            let mut m = Map::new();
            for (k, v) in [
                ("A", a),
                ("B", b),
                ("C", c),
                ("D", d),
                ("E", e),
                ("Tags", tags),
                ("MaxSessionDuration", msd),
            ] {
                if let Some(v) = v {
                    m.insert(k.to_string(), v);
                }
            }
            Value::Object(m)
        })
}

#[derive(Debug, Clone)]
struct Spec {
    tier: Tier,
    path: &'static str,
    desired: Option<Value>,
    unrecorded: bool,
}

fn spec() -> impl Strategy<Value = Spec> {
    (
        prop_oneof![
            4 => Just(Tier::Declared),
            4 => Just(Tier::Undeclared),
            1 => Just(Tier::ReadGap),
            1 => Just(Tier::Unresolved),
            1 => Just(Tier::AtDefault),
        ],
        prop::sample::select(PATHS),
        prop::option::of(prop_oneof![value(), tag_list()]),
        any::<bool>(),
    )
        .prop_map(|(tier, path, desired, unrecorded)| Spec {
            tier,
            path,
            desired,
            unrecorded,
        })
}

/// The live side of a finding, as classify would report it.
fn actual_at(live: &Value, path: &str) -> Option<Value> {
    let pointer = format!("/{}", path.replace('.', "/"));
    if path.contains('[') {
        return Some(json!("element"));
    }
    live.pointer(&pointer).cloned()
}

fn findings(live: &Value, specs: &[Spec]) -> Vec<Finding> {
    specs
        .iter()
        .map(|s| {
            let mut f = Finding::new(s.tier, "Res", TYPE, s.path);
            f.physical_id = Some("res-1".into());
            f.actual = actual_at(live, s.path);
            f.desired = s.desired.clone();
            if s.tier == Tier::Undeclared {
                // As the baseline stage marks it: unrecorded, or confirmed and how.
                f.unrecorded = s.unrecorded;
                f.note = (!s.unrecorded).then(|| {
                    let n = if s.desired.is_some() {
                        NOTE_CHANGED
                    } else {
                        NOTE_APPEARED
                    };
                    n.to_string()
                });
            }
            f
        })
        .collect()
}

fn input(
    live: &Value,
    specs: &[Spec],
    create_only: &BTreeSet<&'static str>,
    secrets: &BTreeSet<&'static str>,
) -> PlanInput {
    PlanInput {
        stack: "S".into(),
        account: Some("111111111111".into()),
        region: Some("us-east-1".into()),
        findings: findings(live, specs),
        resources: vec![RevertResource {
            logical_id: "Res".into(),
            resource_type: TYPE.into(),
            physical_id: Some("res-1".into()),
            declared: Default::default(),
            live: Some(live.clone()),
            schema: Some(Arc::new(SchemaFacts {
                create_only: create_only.iter().map(|s| s.to_string()).collect(),
                create_only_paths: create_only.iter().map(|s| s.to_string()).collect(),
                ..SchemaFacts::default()
            })),
            secret_paths: secrets.iter().map(|s| s.to_string()).collect(),
        }],
        stack_tags: Default::default(),
    }
}

fn lookup<'v>(doc: &'v Value, path: &str) -> Option<&'v Value> {
    if let Some((prop, rest)) = path.split_once('[') {
        let key = rest.trim_end_matches(']');
        return doc
            .get(prop)?
            .as_array()?
            .iter()
            .find(|e| e.get("Key").and_then(Value::as_str) == Some(key));
    }
    doc.pointer(&format!("/{}", path.replace('.', "/")))
}

fn overlaps(a: &str, b: &str) -> bool {
    let (a, b) = (format!("{a}."), format!("{b}."));
    a.starts_with(&b) || b.starts_with(&a)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(384))]

    #[test]
    fn refused_findings_never_get_an_operation(
        live in live_model(),
        specs in prop::collection::vec(spec(), 1..6),
        create_only in prop::sample::subsequence(vec!["A", "B", "C"], 0..2),
        secrets in prop::sample::subsequence(vec!["A.x", "E", "B.x.z"], 0..2),
        remove_unrecorded in any::<bool>(),
    ) {
        let create_only: BTreeSet<_> = create_only.into_iter().collect();
        let secrets: BTreeSet<_> = secrets.into_iter().collect();
        let inp = input(&live, &specs, &create_only, &secrets);
        let plan = build_plan(&inp, &PlanOptions { remove_unrecorded, select: None });

        let item_ids: BTreeSet<&str> = plan.items.iter().map(|i| i.id.as_str()).collect();
        let batched: BTreeSet<String> = plan.batches().into_iter().flat_map(|b| b.item_ids).collect();
        for r in &plan.refused {
            prop_assert!(!item_ids.contains(r.id.as_str()), "refused {} also planned", r.id);
            prop_assert!(!batched.contains(&r.id), "refused {} batched", r.id);
        }
        // Every drift finding is accounted for, exactly once.
        let drift = inp.findings.iter().filter(|f| f.tier != Tier::AtDefault).count();
        prop_assert_eq!(plan.items.len() + plan.refused.len(), drift);
        // No write reaches a secret position or changes a create-only property.
        for item in &plan.items {
            for s in &secrets {
                prop_assert!(!overlaps(s, &item.path), "{} writes secret position {}", item.id, s);
            }
            let written = serde_json::to_string(&item.operation).unwrap();
            prop_assert!(!written.contains("{{resolve:"), "{} writes a reference", item.id);
            if let Operation::CloudControlPatch { patch } = &item.operation {
                for op in patch.iter() {
                    let top = op.path().tokens().next().map(|t| t.decoded().into_owned());
                    if let Some(top) = top {
                        let changes_create_only = create_only.contains(top.as_str())
                            && live.get(&top) != patched_top(&live, patch, &top).as_ref();
                        prop_assert!(!changes_create_only, "{} changes create-only {}", item.id, top);
                    }
                }
            }
        }
        // Refusals carry no values.
        for r in &plan.refused {
            prop_assert!(!r.message.contains("{{resolve:"));
            if r.reason == RefusalReason::Secret {
                prop_assert!(!item_ids.contains(r.id.as_str()));
            }
        }
    }

    #[test]
    fn applying_the_patches_yields_each_items_target(
        live in live_model(),
        specs in prop::collection::vec(spec(), 1..6),
        remove_unrecorded in any::<bool>(),
    ) {
        let none = BTreeSet::new();
        let inp = input(&live, &specs, &none, &none);
        let plan = build_plan(&inp, &PlanOptions { remove_unrecorded, select: None });
        // Each item alone.
        let by_id = ids(&inp.findings);
        for item in &plan.items {
            let f = by_id.iter().find(|(id, _)| *id == item.id).map(|(_, f)| *f);
            prop_assert!(f.is_some(), "{} names no finding", item.id);
            let f = f.unwrap();
            let Operation::CloudControlPatch { patch } = &item.operation else { continue };
            let mut doc = live.clone();
            prop_assert!(json_patch::patch(&mut doc, patch).is_ok(), "{} does not apply", item.id);
            prop_assert_eq!(lookup(&doc, &item.path), item.target.as_ref(), "{} target", &item.id);
            if item.preserved_tags.is_empty() && !item.path.starts_with("Tags") {
                let expected = match item.kind {
                    ItemKind::Template | ItemKind::Baseline => f.desired.clone(),
                    ItemKind::ExplicitDefault => revert_facts()
                        .explicit_default(TYPE, &item.path)
                        .map(|d| d.value.clone()),
                    ItemKind::Remove | ItemKind::Delete => None,
                };
                prop_assert_eq!(lookup(&doc, &item.path), expected.as_ref(), "{} desired", &item.id);
            }
            for k in &item.preserved_tags {
                let kept = doc["Tags"].as_array().is_some_and(|a| a.iter().any(|t| t["Key"] == *k.as_str()));
                prop_assert!(kept, "{} lost tag {}", item.id, k);
            }
        }
        // All of one resource's items as one merged patch.
        let mut doc = live.clone();
        for b in plan.batches() {
            if let BatchAction::Patch(p) = b.action {
                prop_assert!(json_patch::patch(&mut doc, &p).is_ok(), "merged patch does not apply");
            }
        }
        for item in &plan.items {
            prop_assert_eq!(lookup(&doc, &item.path), item.target.as_ref(), "{} after merge", &item.id);
        }
    }
}

/// Item ids as the planner assigns them (a repeated id gets `#2`, `#3`...).
fn ids(findings: &[Finding]) -> Vec<(String, &Finding)> {
    let mut seen = BTreeSet::new();
    findings
        .iter()
        .map(|f| {
            let base = realdrift_core::revert::item_id(f);
            let mut id = base.clone();
            let mut n = 2;
            while !seen.insert(id.clone()) {
                id = format!("{base}#{n}");
                n += 1;
            }
            (id, f)
        })
        .collect()
}

/// The value of top-level `top` after applying `patch` to `live`.
fn patched_top(live: &Value, patch: &json_patch::Patch, top: &str) -> Option<Value> {
    let mut doc = live.clone();
    json_patch::patch(&mut doc, patch).ok()?;
    doc.get(top).cloned()
}

/// The generators reach every outcome the properties are about, so the
/// properties above cannot pass by planning nothing.
#[test]
fn generated_plans_exercise_items_and_refusals() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::{Config, TestRunner};
    use std::collections::BTreeMap;

    let mut runner = TestRunner::new_with_rng(
        Config::default(),
        proptest::test_runner::TestRng::deterministic_rng(Config::default().rng_algorithm),
    );
    let strategy = (
        live_model(),
        prop::collection::vec(spec(), 1..6),
        prop::sample::subsequence(vec!["A", "B", "C"], 0..2),
        prop::sample::subsequence(vec!["A.x", "E", "B.x.z"], 0..2),
    );
    let mut kinds: BTreeMap<String, usize> = BTreeMap::new();
    let mut reasons: BTreeMap<String, usize> = BTreeMap::new();
    let mut preserved = 0;
    for _ in 0..400 {
        let (live, specs, co, se) = strategy.new_tree(&mut runner).expect("tree").current();
        let co: BTreeSet<_> = co.into_iter().collect();
        let se: BTreeSet<_> = se.into_iter().collect();
        let plan = build_plan(
            &input(&live, &specs, &co, &se),
            &PlanOptions {
                remove_unrecorded: true,
                select: None,
            },
        );
        for i in &plan.items {
            *kinds.entry(format!("{:?}", i.kind)).or_default() += 1;
            preserved += usize::from(!i.preserved_tags.is_empty());
        }
        for r in &plan.refused {
            *reasons.entry(format!("{:?}", r.reason)).or_default() += 1;
        }
    }
    for k in ["Template", "Baseline", "Remove", "ExplicitDefault"] {
        assert!(kinds.get(k).copied().unwrap_or(0) >= 5, "{k}: {kinds:?}");
    }
    for r in [
        "CreateOnly",
        "Secret",
        "ArrayElement",
        "ReadGap",
        "Conflict",
        "PatchInvalid",
    ] {
        assert!(
            reasons.get(r).copied().unwrap_or(0) >= 3,
            "{r}: {reasons:?}"
        );
    }
    assert!(preserved >= 3, "tag preservation reached {preserved} times");
}
