//! What every renderer reads: one stack's result, its coverage and its counts.

use super::mask::{mask_findings, MaskPolicy};
use super::not_compared::NotCompared;
use crate::finding::{Finding, Tier};
use std::collections::{BTreeMap, BTreeSet};

/// How much of a stack was actually compared.
///
/// Gathering fills it from the read outcomes; the check path keeps it as
/// is (ignore rules change findings, never coverage).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Coverage {
    /// Resources in the template (those expected to exist, CDK metadata and
    /// nested stacks left out).
    pub total: usize,
    /// Resources a comparison was made for (deleted ones included: their state is known).
    pub checked: usize,
    /// Resources not compared, benign or not (custom, unsupported, read
    /// failed or denied, properties unresolvable).
    pub skipped: usize,
    /// Coverage the user expects and did not get: reads refused or failed,
    /// read models without a schema, resources whose properties cannot be
    /// resolved, failed child listings (a resource can count here without
    /// being skipped: its own properties were compared, its out-of-band
    /// children were not), resources of a type no reader can read that no
    /// accept rule accepts. Benign skips (custom resources, nothing to
    /// read) never count here.
    pub lost: usize,
    /// Nested stacks not recursed into.
    pub nested_not_recursed: usize,
    /// Resources of a type no reader reads that an `accept` rule of
    /// `ignore.yaml` accepts as not compared (not lost, still not compared).
    pub accepted: usize,
}

impl Coverage {
    /// Coverage from a stack's resource count and its findings (`skipped` counted per resource).
    pub fn from_findings(total: usize, findings: &[Finding], nested_not_recursed: usize) -> Self {
        let skipped: BTreeSet<&str> = findings
            .iter()
            .filter(|f| f.tier == Tier::Skipped)
            .map(|f| f.logical_id.as_str())
            .collect();
        let skipped = skipped.len().min(total);
        Coverage {
            total,
            checked: total.saturating_sub(skipped + nested_not_recursed),
            skipped,
            lost: 0,
            nested_not_recursed,
            accepted: 0,
        }
    }

    /// True when every resource was compared and nothing was lost.
    pub fn is_complete(&self) -> bool {
        self.skipped == 0
            && self.lost == 0
            && self.nested_not_recursed == 0
            && self.checked == self.total
    }

    /// True when coverage the user expects was lost (what `--strict` fails on).
    pub fn has_lost(&self) -> bool {
        self.lost > 0 || self.nested_not_recursed > 0
    }

    /// True when nothing at all was compared (no reassuring mark may be shown).
    pub fn nothing_compared(&self) -> bool {
        self.checked == 0
    }
}

/// Why a stack was not compared although it exists and could be read:
/// CloudFormation holds it in a state that has no settled template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotChecked {
    /// The stack status, e.g. `UPDATE_IN_PROGRESS` or `UPDATE_ROLLBACK_FAILED`.
    pub status: String,
}

impl std::fmt::Display for NotChecked {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "stack status {}: only a settled stack (*_COMPLETE) can be compared",
            self.status
        )
    }
}

/// One stack's check result, as renderers and exit codes read it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct StackReport {
    /// Stack name.
    pub stack: String,
    /// Account id, when known.
    pub account_id: Option<String>,
    /// Region.
    pub region: String,
    /// Findings after baseline and ignore rules.
    pub findings: Vec<Finding>,
    /// What was compared.
    pub coverage: Coverage,
    /// One-line notes (baseline lifecycle folds and the like).
    pub notes: Vec<String>,
    /// Whether a baseline file exists for the stack.
    pub has_baseline: bool,
    /// Set when the stack could not be checked at all (not found, not
    /// readable, a bad baseline): always an error.
    pub error: Option<String>,
    /// Set when the stack was not compared for its state (mid-change or
    /// failed): all of its coverage is lost.
    pub not_checked: Option<NotChecked>,
    /// Secret positions to mask.
    pub masks: MaskPolicy,
    /// The resources not compared, each with why (in template order).
    pub not_compared: Vec<NotCompared>,
    /// Every template resource checked: logical id -> type.
    pub resource_types: BTreeMap<String, String>,
}

impl StackReport {
    /// The findings with secrets masked (what every renderer prints).
    pub fn masked_findings(&self) -> Vec<Finding> {
        mask_findings(&self.findings, &self.masks)
    }

    /// Counts and verdict.
    pub fn summary(&self) -> Summary {
        Summary::of(self)
    }

    /// True when every resource of a checked stack was compared. An
    /// errored or unchecked stack is never complete, whatever its counts.
    pub fn coverage_complete(&self) -> bool {
        self.error.is_none() && self.not_checked.is_none() && self.coverage.is_complete()
    }

    /// True when coverage the user expects was lost: a stack not checked for
    /// its state, or a read, schema or child listing that failed.
    pub fn coverage_lost(&self) -> bool {
        self.not_checked.is_some() || self.coverage.has_lost()
    }
}

/// True for a finding that counts as confirmed drift (fails `--fail`).
pub fn is_confirmed_drift(f: &Finding) -> bool {
    f.tier.is_drift() && !f.unrecorded
}

/// True for an unrecorded live-only value (potential drift: shown, never failing).
pub fn is_potential_drift(f: &Finding) -> bool {
    f.tier.is_drift() && f.unrecorded
}

/// The overall state of one stack.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// The stack could not be checked.
    Error,
    /// The stack was not compared for its state (mid-change or failed).
    NotChecked,
    /// Confirmed drift.
    Drift,
    /// Only unrecorded live-only values.
    PotentialOnly,
    /// No drift, but nothing was compared.
    NothingCompared,
    /// No drift in what was compared; coverage incomplete.
    CleanIncomplete,
    /// No drift; everything compared.
    Clean,
}

impl Verdict {
    /// The wire name (JSON `status`).
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Error => "error",
            Verdict::NotChecked => "notChecked",
            Verdict::Drift => "drift",
            Verdict::PotentialOnly => "potentialDrift",
            Verdict::NothingCompared => "nothingCompared",
            Verdict::CleanIncomplete => "cleanIncomplete",
            Verdict::Clean => "clean",
        }
    }
}

/// Counts derived from a stack's findings.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Summary {
    /// Confirmed drift per drift tier.
    pub drift_by_tier: BTreeMap<Tier, usize>,
    /// Confirmed drift total.
    pub drift: usize,
    /// Potential (unrecorded) drift total.
    pub potential: usize,
    /// Findings per tier (all tiers, unrecorded included under their tier).
    pub by_tier: BTreeMap<Tier, usize>,
    /// Coverage complete.
    pub coverage_complete: bool,
    /// The verdict.
    pub verdict: Option<Verdict>,
}

impl Summary {
    fn of(r: &StackReport) -> Self {
        let mut s = Summary {
            coverage_complete: r.coverage_complete(),
            ..Summary::default()
        };
        for f in &r.findings {
            *s.by_tier.entry(f.tier).or_default() += 1;
            if is_confirmed_drift(f) {
                s.drift += 1;
                *s.drift_by_tier.entry(f.tier).or_default() += 1;
            } else if is_potential_drift(f) {
                s.potential += 1;
            }
        }
        s.verdict = Some(if r.error.is_some() {
            Verdict::Error
        } else if r.not_checked.is_some() {
            Verdict::NotChecked
        } else if s.drift > 0 {
            Verdict::Drift
        } else if s.potential > 0 {
            Verdict::PotentialOnly
        } else if r.coverage.nothing_compared() {
            Verdict::NothingCompared
        } else if !s.coverage_complete {
            Verdict::CleanIncomplete
        } else {
            Verdict::Clean
        });
        s
    }

    /// The verdict (always set by [`StackReport::summary`]).
    pub fn verdict(&self) -> Verdict {
        self.verdict.unwrap_or(Verdict::Error)
    }

    /// `declared=1, undeclared=2` (non-zero drift tiers in report order).
    pub fn drift_breakdown(&self) -> String {
        Tier::ALL
            .iter()
            .filter_map(|t| self.drift_by_tier.get(t).map(|n| format!("{t}={n}")))
            .collect::<Vec<_>>()
            .join(", ")
    }
}
