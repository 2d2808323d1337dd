//! The stages after gathering, as pure functions over a gathered stack:
//! check = baseline -> ignore rules -> report; record = ignore rules -> record.

use anyhow::Context;
use realdrift_core::baseline::{
    apply_baseline, load_baseline, BaselineFile, BaselineStore, RunContext,
};
use realdrift_core::finding::Finding;
use realdrift_core::ignore::{apply_ignores, IgnoreConfig, IgnoreScope};
use realdrift_core::pipeline::StackReport as Gathered;
use realdrift_core::report::{Coverage, MaskPolicy, StackReport};

/// The store key of the ignore file (beside the baselines).
pub const IGNORE_KEY: &str = "ignore.yaml";

/// Loads the ignore rules from the store; a missing file means no rules,
/// a malformed one is an error naming the file.
pub async fn load_ignores(
    store: &dyn BaselineStore,
    location: &str,
) -> anyhow::Result<IgnoreConfig> {
    let file = format!("{location}/{IGNORE_KEY}");
    match store
        .load(IGNORE_KEY)
        .await
        .with_context(|| format!("reading {file}"))?
    {
        Some(stored) => Ok(IgnoreConfig::parse(&file, &stored.text)?),
        None => Ok(IgnoreConfig::default()),
    }
}

/// The identity scope ignore rules are matched against.
pub fn scope_of(ctx: &RunContext) -> IgnoreScope {
    IgnoreScope::new(
        &ctx.identity.stack_name,
        &ctx.identity.account_id,
        &ctx.identity.region,
    )
}

/// The baseline store key of a gathered stack.
pub fn baseline_key(ctx: &RunContext) -> anyhow::Result<String> {
    ctx.identity
        .file_name()
        .with_context(|| format!("stack {}: baseline file name", ctx.identity.stack_name))
}

/// Loads a stack's baseline file, naming the file in errors.
pub async fn load_stack_baseline(
    store: &dyn BaselineStore,
    ctx: &RunContext,
) -> anyhow::Result<Option<BaselineFile>> {
    let key = baseline_key(ctx)?;
    load_baseline(store, &key)
        .await
        .with_context(|| format!("stack {}: baseline {key}", ctx.identity.stack_name))
}

/// Options of the check stages.
#[derive(Debug, Clone, Copy, Default)]
pub struct CheckOptions {
    /// Inventory mode: do not apply the baseline (every live-only value is listed).
    pub show_all: bool,
}

/// check's stages for one gathered stack: baseline, then ignore rules, then
/// the report model. `baseline` is the stack's file, loaded by the caller.
pub fn check_stack(
    g: &Gathered,
    baseline: Option<&BaselineFile>,
    ignores: &IgnoreConfig,
    opts: CheckOptions,
) -> anyhow::Result<StackReport> {
    let ctx = g.run_context();
    let applied = apply_baseline(
        g.findings.clone(),
        if opts.show_all { None } else { baseline },
        &ctx,
    )
    .with_context(|| format!("stack {}: applying the baseline", g.stack))?;
    let findings = apply_ignores(applied.findings, &scope_of(&ctx), ignores);
    let mut notes = g.notes.clone();
    notes.extend(applied.notes.iter().map(ToString::to_string));
    Ok(StackReport {
        stack: g.stack.clone(),
        account_id: g.account.clone(),
        region: g.region.clone().unwrap_or_default(),
        coverage: Coverage::from_findings(g.resources.len(), &findings, 0),
        findings,
        notes,
        has_baseline: baseline.is_some(),
        error: None,
        masks: secret_positions(g),
    })
}

/// The declared positions that hold secrets (NoEcho parameters, dynamic
/// references), so every rendering shows them as `***`.
pub fn secret_positions(g: &Gathered) -> MaskPolicy {
    g.resources.iter().fold(MaskPolicy::default(), |acc, r| {
        r.secret_paths
            .iter()
            .fold(acc, |acc, p| acc.with(&r.logical_id, p))
    })
}

/// The report entry of a stack that could not be checked.
pub fn error_report(stack: &str, region: &str, error: String) -> StackReport {
    StackReport {
        stack: stack.to_string(),
        region: region.to_string(),
        error: Some(error),
        ..StackReport::default()
    }
}

/// record's view of the findings: classify output after ignore rules
/// (ignored findings are never recorded).
pub fn recordable_findings(g: &Gathered, ignores: &IgnoreConfig) -> Vec<Finding> {
    apply_ignores(g.findings.clone(), &scope_of(&g.run_context()), ignores)
}

#[cfg(test)]
mod tests {
    use super::*;
    use realdrift_core::baseline::{ChildScan, ReadState};
    use realdrift_core::classify::ClassifyContext;
    use realdrift_core::classify::SiblingPolicyNames;
    use realdrift_core::finding::Tier;
    use realdrift_core::ignore::IgnoreRule;
    use realdrift_core::pipeline::{Coverage as PipelineCoverage, ResourceRecord};
    use serde_json::json;
    use std::collections::BTreeMap;

    fn gathered(findings: Vec<Finding>) -> Gathered {
        Gathered {
            stack: "App".into(),
            stack_id: "arn:aws:cloudformation:us-east-1:123456789012:stack/App/x".into(),
            account: Some("123456789012".into()),
            region: Some("us-east-1".into()),
            template_hash: "h".into(),
            findings,
            coverage: PipelineCoverage::default(),
            api_calls: BTreeMap::new(),
            notes: vec!["a pipeline note".into()],
            resources: vec![ResourceRecord {
                logical_id: "Bucket".into(),
                resource_type: "AWS::S3::Bucket".into(),
                physical_id: Some("b".into()),
                construct_path: None,
                declared: BTreeMap::new(),
                sibling_policy_names: SiblingPolicyNames::None,
                live: Some(json!({})),
                schema: None,
                read: ReadState::Read,
                children: ChildScan::Complete,
                secret_paths: ["MasterPassword".to_string()].into(),
            }],
            context: ClassifyContext::default(),
            added_parents: BTreeMap::new(),
            nested_stacks: vec![],
        }
    }

    fn undeclared(path: &str) -> Finding {
        let mut f = Finding::new(Tier::Undeclared, "Bucket", "AWS::S3::Bucket", path);
        f.actual = Some(json!("Enabled"));
        f
    }

    #[test]
    fn without_a_baseline_undeclared_values_are_potential_drift() {
        let g = gathered(vec![undeclared(
            "AccelerateConfiguration.AccelerationStatus",
        )]);
        let r = check_stack(&g, None, &IgnoreConfig::default(), CheckOptions::default()).unwrap();
        assert!(r.findings[0].unrecorded);
        assert_eq!(r.notes, vec!["a pipeline note".to_string()]);
        assert!(!r.has_baseline);
        assert_eq!(r.coverage.total, 1);
    }

    #[test]
    fn noecho_positions_are_masked_in_the_report() {
        let mut f = Finding::new(
            Tier::Declared,
            "Bucket",
            "AWS::S3::Bucket",
            "MasterPassword",
        );
        f.desired = Some(json!("hunter2-from-noecho"));
        f.actual = Some(json!("changed-out-of-band"));
        let g = gathered(vec![f]);
        let r = check_stack(&g, None, &IgnoreConfig::default(), CheckOptions::default()).unwrap();
        let text = serde_json::to_string(&r.masked_findings()).unwrap();
        assert!(!text.contains("hunter2"), "{text}");
        assert!(!text.contains("changed-out-of-band"), "{text}");
    }

    #[test]
    fn ignore_rules_apply_after_the_baseline() {
        let g = gathered(vec![undeclared(
            "AccelerateConfiguration.AccelerationStatus",
        )]);
        let cfg = IgnoreConfig::from_rules(vec![IgnoreRule::new("Bucket.AccelerateConfiguration")])
            .unwrap();
        let r = check_stack(&g, None, &cfg, CheckOptions::default()).unwrap();
        assert_eq!(r.findings[0].tier, Tier::Ignored);
        assert_eq!(recordable_findings(&g, &cfg)[0].tier, Tier::Ignored);
    }

    #[test]
    fn show_all_does_not_apply_the_recorded_baseline() {
        let g = gathered(vec![undeclared(
            "AccelerateConfiguration.AccelerationStatus",
        )]);
        let ctx = g.run_context();
        let cands = recordable_findings(&g, &IgnoreConfig::default());
        let rec = realdrift_core::baseline::record(realdrift_core::baseline::RecordInput {
            classified: &cands,
            existing: None,
            ctx: &ctx,
            selection: &realdrift_core::baseline::Selection::All,
            captured_at: "2026-01-01T00:00:00Z",
        });
        let normal = check_stack(
            &g,
            Some(&rec.baseline),
            &IgnoreConfig::default(),
            CheckOptions::default(),
        )
        .unwrap();
        assert!(normal.findings.is_empty(), "{:?}", normal.findings);
        assert!(normal.has_baseline);
        let all = check_stack(
            &g,
            Some(&rec.baseline),
            &IgnoreConfig::default(),
            CheckOptions { show_all: true },
        )
        .unwrap();
        assert_eq!(all.findings.len(), 1);
        assert!(all.findings[0].unrecorded);
    }
}
