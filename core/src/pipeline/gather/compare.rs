//! Classify (stage 6): every planned resource with its read outcome becomes
//! findings, a coverage count and the record of what this run saw.

use super::context::Schemas;
use super::desired::Planned;
use super::reads::Reads;
use crate::baseline::{ChildScan, ReadState};
use crate::classify::{classify, ClassifyContext, ResourceInput, SiblingPolicyNames};
use crate::finding::{Finding, Tier};
use crate::pipeline::{Coverage, LiveModel, ReadOutcome, ResourceRecord};
use std::collections::{BTreeMap, BTreeSet};

/// What classifying the plan produced.
#[derive(Default)]
pub(super) struct Compared {
    /// Findings in template order.
    pub findings: Vec<Finding>,
    /// Coverage counts.
    pub coverage: Coverage,
    /// One record per planned resource, in template order.
    pub records: Vec<ResourceRecord>,
    /// Remarks (reader notes).
    pub notes: Vec<String>,
}

/// Classifies every planned resource against its read outcome.
pub(super) fn compare_all(
    plan: Vec<Planned>,
    mut reads: Reads,
    schemas: &Schemas,
    siblings: &BTreeMap<String, SiblingPolicyNames>,
    cctx: &ClassifyContext,
) -> Compared {
    let mut out = Compared::default();
    for (i, p) in plan.into_iter().enumerate() {
        let sibling = siblings.get(&p.logical_id).cloned().unwrap_or_default();
        let outcome = match (&p.fixed, reads.remove(&i)) {
            (Some(o), _) => o.clone(),
            (None, Some(o)) => o,
            (None, None) => ReadOutcome::skipped("not read"),
        };
        let mut record = ResourceRecord {
            logical_id: p.logical_id.clone(),
            resource_type: p.resource_type.clone(),
            physical_id: p.physical_id.clone(),
            construct_path: p.construct_path.clone(),
            declared: p.resolved.properties.clone(),
            sibling_policy_names: sibling,
            live: None,
            schema: None,
            read: ReadState::NotRead,
            children: ChildScan::None,
            secret_paths: p.resolved.secret_paths.clone(),
        };
        match outcome {
            ReadOutcome::Found(model) => out.found(&p, &mut record, model, schemas, cctx),
            ReadOutcome::NotFound => {
                out.coverage.checked += 1;
                record.read = ReadState::Deleted;
                out.findings.push(resource_finding(
                    &p,
                    Tier::Deleted,
                    "the resource no longer exists".into(),
                ));
            }
            ReadOutcome::Skipped {
                reason,
                coverage_lost,
            } => {
                out.coverage.skipped += 1;
                if coverage_lost {
                    out.coverage.lost += 1;
                }
                out.findings
                    .push(resource_finding(&p, Tier::Skipped, reason));
            }
            ReadOutcome::TargetUnresolved { reason } => {
                out.coverage.skipped += 1;
                out.findings.push(resource_finding(
                    &p,
                    Tier::Skipped,
                    format!("read target unresolved: {reason}"),
                ));
            }
        }
        out.records.push(record);
    }
    out.coverage.total = out.records.len();
    out
}

impl Compared {
    /// Keeps the findings and coverage of the `only` resources (a scoped
    /// gather); every record stays, so child listings still know every
    /// declared resource.
    pub(super) fn keep_only(&mut self, only: &BTreeSet<String>) {
        self.findings.retain(|f| only.contains(&f.logical_id));
        let in_scope = self
            .records
            .iter()
            .filter(|r| only.contains(&r.logical_id))
            .count();
        // Resources out of scope were never read: none of them counts as lost.
        let lost = self.coverage.lost;
        self.coverage = Coverage::from_findings(in_scope, &self.findings, 0);
        self.coverage.lost = lost;
    }

    /// A read resource: classified when its schema is known, else skipped —
    /// comparing without one would report every read-only field as drift.
    fn found(
        &mut self,
        p: &Planned,
        record: &mut ResourceRecord,
        model: LiveModel,
        schemas: &Schemas,
        cctx: &ClassifyContext,
    ) {
        let Some(facts) = schemas.get(&p.resource_type) else {
            self.coverage.skipped += 1;
            self.findings.push(resource_finding(
                p,
                Tier::Skipped,
                format!("no registry schema for {}", p.resource_type),
            ));
            record.live = Some(model.properties);
            return;
        };
        self.coverage.checked += 1;
        for n in &model.notes {
            self.notes.push(format!("{}: {n}", p.logical_id));
        }
        let input = ResourceInput {
            logical_id: p.logical_id.clone(),
            resource_type: p.resource_type.clone(),
            physical_id: p.physical_id.clone(),
            construct_path: p.construct_path.clone(),
            declared: p.resolved.properties.clone(),
            sibling_policy_names: record.sibling_policy_names.clone(),
        };
        self.findings
            .extend(classify(&input, &model.properties, facts, cctx));
        record.live = Some(model.properties);
        record.schema = Some(facts.clone());
        record.read = ReadState::Read;
    }
}

/// A whole-resource finding (deleted / skipped) for a planned resource.
fn resource_finding(p: &Planned, tier: Tier, note: String) -> Finding {
    let mut f = Finding::new(tier, &p.logical_id, &p.resource_type, "");
    f.physical_id = p.physical_id.clone();
    f.construct_path = p.construct_path.clone();
    f.note = Some(note);
    f
}
