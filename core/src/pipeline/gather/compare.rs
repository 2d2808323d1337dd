//! Classify (stage 6): every planned resource with its read outcome becomes
//! findings, a coverage count and the record of what this run saw.

use super::context::Schemas;
use super::desired::Planned;
use super::reads::Reads;
use crate::baseline::{ChildScan, ReadState};
use crate::classify::{classify, ClassifyContext, ResourceInput, SiblingPolicyNames};
use crate::finding::{Finding, Tier};
use crate::pipeline::{is_unreadable_type, Coverage, LiveModel, ReadOutcome, ResourceRecord};
use crate::report::{NotCompared, NotComparedReason};
use crate::schema::SchemaFacts;
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
    /// The resources not compared, with why.
    pub not_compared: Vec<NotCompared>,
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
            (None, None) => ReadOutcome::denied("not read"),
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
                let kind = skip_kind(&p.resource_type, &reason, coverage_lost);
                out.skip(&p, reason, kind)
            }
            ReadOutcome::Unsupported { reason } => {
                out.skip(&p, reason, NotComparedReason::NoReader)
            }
            // The read was expected and did not happen: lost, not benign.
            ReadOutcome::TargetUnresolved { reason } => out.skip(
                &p,
                format!("read target unresolved: {reason}"),
                NotComparedReason::ReadFailed,
            ),
        }
        out.records.push(record);
    }
    out.coverage.total = out.records.len();
    out
}

impl Compared {
    /// A resource not compared: a `skipped` finding with why, counted as
    /// lost coverage unless the skip is benign (custom, nothing to read).
    fn skip(&mut self, p: &Planned, reason: String, kind: NotComparedReason) {
        self.coverage.skipped += 1;
        if kind.is_loss() {
            self.coverage.lost += 1;
        }
        self.not_compared.push(not_compared(p, kind, &reason));
        self.findings
            .push(resource_finding(p, Tier::Skipped, reason));
    }

    /// Keeps the findings and coverage of the `only` resources (a scoped
    /// gather); every record stays, so child listings still know every
    /// declared resource.
    pub(super) fn keep_only(&mut self, only: &BTreeSet<String>) {
        self.findings.retain(|f| only.contains(&f.logical_id));
        self.not_compared.retain(|n| only.contains(&n.logical_id));
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

    /// A read resource: classified when its schema is known, else skipped as
    /// lost coverage — comparing without one would report every read-only
    /// field as drift.
    fn found(
        &mut self,
        p: &Planned,
        record: &mut ResourceRecord,
        model: LiveModel,
        schemas: &Schemas,
        cctx: &ClassifyContext,
    ) {
        if let Some(why) = &p.unresolvable {
            // Nothing declared is known: comparing would call every live
            // value undeclared. One resource-level `unresolved` finding.
            self.coverage.skipped += 1;
            self.coverage.lost += 1;
            let note = format!("properties cannot be resolved: {why}");
            self.not_compared
                .push(not_compared(p, NotComparedReason::Unresolved, &note));
            self.findings
                .push(resource_finding(p, Tier::Unresolved, note));
            record.live = Some(model.properties);
            return;
        }
        let Some(schema_facts) = schemas.facts.get(&p.resource_type) else {
            let why = schemas
                .missing
                .get(&p.resource_type)
                .map_or_else(String::new, |w| format!(": {w}"));
            self.skip(
                p,
                format!("no registry schema for {}{why}", p.resource_type),
                NotComparedReason::ReadFailed,
            );
            record.live = Some(model.properties);
            return;
        };
        let widened;
        let facts = if model.read_back.is_empty() && model.write_only.is_empty() {
            schema_facts
        } else {
            widened = with_write_only(
                with_read_back(schema_facts, &model.read_back),
                &model.write_only,
            );
            &widened
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
        let mut findings = classify(&input, &model.properties, facts, cctx);
        if !model.gaps.is_empty() {
            self.coverage.lost += 1;
            add_read_gaps(p, &mut findings, &model.gaps);
        }
        self.findings
            .extend(unresolved_at_leaves(findings, &p.resolved.unresolved));
        record.live = Some(model.properties);
        // The stored facts stay the registry's: revert never writes a write-only value.
        record.schema = Some(schema_facts.clone());
        record.read = ReadState::Read;
    }
}

/// The schema facts with the write-only properties the reader read back
/// made comparable (they stay write-only for every other resource).
fn with_read_back(facts: &SchemaFacts, read_back: &[String]) -> SchemaFacts {
    let mut facts = facts.clone();
    let kept = |p: &String| {
        !read_back.iter().any(|r| {
            p == r
                || p.strip_prefix(r.as_str())
                    .is_some_and(|rest| rest.starts_with('.'))
        })
    };
    facts.write_only.retain(kept);
    facts.write_only_paths.retain(kept);
    facts
}

/// The schema facts with the properties a reader says the service never
/// returns marked write-only (for this resource only).
fn with_write_only(mut facts: SchemaFacts, write_only: &[String]) -> SchemaFacts {
    for p in write_only {
        if !facts.write_only.contains(p) {
            facts.write_only.push(p.clone());
        }
    }
    facts
}

/// The reader's gaps as `readGap` findings; a gap where classify already
/// reports one (a write-only property) adds its reason to that finding. A
/// value classify called removed because the read lacks it was only unread.
fn add_read_gaps(p: &Planned, findings: &mut Vec<Finding>, gaps: &BTreeMap<String, String>) {
    for (path, why) in gaps {
        let unread = |f: &Finding| {
            f.tier == Tier::ReadGap || (f.tier == Tier::Declared && f.actual.is_none())
        };
        match findings.iter_mut().find(|f| f.path == *path && unread(f)) {
            Some(f) => {
                if f.tier == Tier::Declared {
                    f.tier = Tier::ReadGap;
                    f.desired = None;
                    f.note = None;
                }
                f.note = Some(match f.note.take() {
                    Some(n) => format!("{n}; {why}"),
                    None => why.clone(),
                });
            }
            None => {
                let mut f = resource_finding(p, Tier::ReadGap, why.clone());
                f.path = path.clone();
                findings.push(f);
            }
        }
    }
}

/// Each `unresolved` finding says which intrinsic failed, at the leaf: a
/// finding whose path holds unresolved leaves below it becomes one finding
/// per leaf (path in the finding form, array items by index), each noting
/// the intrinsic and why.
fn unresolved_at_leaves(findings: Vec<Finding>, leaves: &BTreeMap<String, String>) -> Vec<Finding> {
    let mut out = Vec::with_capacity(findings.len());
    for f in findings {
        if f.tier != Tier::Unresolved {
            out.push(f);
            continue;
        }
        let under: Vec<(&String, &String)> = leaves
            .iter()
            .filter(|(p, _)| {
                **p == f.path
                    || p.strip_prefix(f.path.as_str())
                        .is_some_and(|r| r.starts_with('.'))
            })
            .collect();
        if under.is_empty() {
            out.push(f);
            continue;
        }
        for (path, why) in under {
            let mut leaf = f.clone();
            leaf.path = path.clone();
            leaf.note = Some(why.clone());
            out.push(leaf);
        }
    }
    out
}

/// What a skip of a planned resource means: a custom resource and a skip
/// with nothing to read are benign; a failed read is refused or failed.
fn skip_kind(resource_type: &str, reason: &str, coverage_lost: bool) -> NotComparedReason {
    if coverage_lost {
        NotComparedReason::of_failed_read(reason)
    } else if is_unreadable_type(resource_type).is_some() {
        NotComparedReason::CustomResource
    } else {
        NotComparedReason::NothingToRead
    }
}

/// The not-compared entry of a planned resource.
fn not_compared(p: &Planned, reason: NotComparedReason, detail: &str) -> NotCompared {
    NotCompared {
        logical_id: p.logical_id.clone(),
        construct_path: p.construct_path.clone(),
        resource_type: p.resource_type.clone(),
        reason,
        detail: detail.to_string(),
        accepted: None,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::{context_from_opts, resource_from_case, CorpusCase};
    use serde_json::json;

    fn launch_template() -> CorpusCase {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../shared/corpus/cases/AWS__EC2__LaunchTemplate.LaunchTpl.json");
        CorpusCase::load(&dir).unwrap()
    }

    fn paths(c: &CorpusCase, live: &serde_json::Value, facts: &SchemaFacts) -> Vec<(Tier, String)> {
        let ctx = context_from_opts(&c.opts, c.resource.construct_path.as_deref());
        classify(&resource_from_case(c), live, facts, &ctx)
            .into_iter()
            .filter(|f| f.path.starts_with("LaunchTemplateData"))
            .map(|f| (f.tier, f.path))
            .collect()
    }

    #[test]
    fn read_back_launch_template_data_is_compared_not_a_read_gap() {
        let c = launch_template();
        // As recorded (Cloud Control alone): the data is write-only, a readGap.
        assert_eq!(
            paths(&c, &c.live_raw, &c.schema),
            vec![(Tier::ReadGap, "LaunchTemplateData".to_string())]
        );
        let read_back = with_read_back(&c.schema, &["LaunchTemplateData".to_string()]);
        let mut live = c.live_raw.clone();
        live["LaunchTemplateData"] = c.resource.declared["LaunchTemplateData"].clone();
        assert_eq!(paths(&c, &live, &read_back), vec![]);
        // A new default version with another instance type is drift.
        live["LaunchTemplateData"]["InstanceType"] = json!("t3.2xlarge");
        assert_eq!(
            paths(&c, &live, &read_back),
            vec![(
                Tier::Declared,
                "LaunchTemplateData.InstanceType".to_string()
            )]
        );
    }
}
