//! Applying a baseline to a run's findings: the per-entry semantics of seed 000 §8.
//!
//! The unit of "recorded" is the entry, not the file: a value with an equal
//! entry is silent, a different one is drift, and a value with no entry is
//! drift only on a resource the record fully covered — elsewhere it is
//! unrecorded (potential drift). Lifecycle events (a resource removed from the
//! template, replaced by a deploy, its declared source redeployed, a value
//! promoted into the template) fold into one-line notes, never drift.

use super::context::{ReadState, ResourceState, RunContext};
use super::error::BaselineError;
use super::facts::{facts, source_fingerprint};
use super::file::{BaselineFile, RecordedEntry};
use super::path::{below, lookup, parent_cuts, Lookup};
use crate::finding::{Finding, Tier};
use crate::normalize::canonicalize_for_compare;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// A one-line, non-fatal remark about the baseline (printed to stderr / in notes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BaselineNote {
    /// A schemaVersion 1 file: nothing is snapshot-complete until re-recorded.
    LegacySchema,
    /// The file has no accountId; the next record stamps it.
    MissingAccountId,
    /// The deployed template changed since record.
    TemplateChanged,
    /// Entries of resources no longer in the template were folded.
    RemovedFromTemplate {
        /// How many entries.
        entries: usize,
    },
    /// A resource was replaced by a deploy (new physical id); its entries were voided.
    Replaced {
        /// The resource.
        logical_id: String,
        /// How many entries.
        entries: usize,
    },
    /// A resource's type changed; its entries were voided.
    Retyped {
        /// The resource.
        logical_id: String,
        /// How many entries.
        entries: usize,
    },
    /// A content hash's declared source was redeployed; the recorded hash is stale.
    SourceRedeployed {
        /// The resource.
        logical_id: String,
        /// The hash path.
        path: String,
    },
    /// A recorded value is now declared in the template.
    Promoted {
        /// The resource.
        logical_id: String,
        /// The recorded path.
        path: String,
    },
    /// Recorded out-of-band resources were not observed this run.
    AddedGone {
        /// How many entries.
        entries: usize,
    },
}

impl fmt::Display for BaselineNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BaselineNote::LegacySchema => f.write_str(
                "baseline is schemaVersion 1: values that appeared since record read as potential drift until you re-run record",
            ),
            BaselineNote::MissingAccountId => f.write_str(
                "baseline has no accountId; the next record stamps it",
            ),
            BaselineNote::TemplateChanged => f.write_str(
                "the deployed template changed since the baseline was recorded; the recorded set may be stale — consider re-running record",
            ),
            BaselineNote::RemovedFromTemplate { entries } => write!(
                f,
                "{entries} baseline entries belong to resources no longer in the template — re-run record"
            ),
            BaselineNote::Replaced { logical_id, entries } => write!(
                f,
                "{logical_id} was replaced by a deploy (new physical id); its {entries} baseline entries no longer apply — re-run record"
            ),
            BaselineNote::Retyped { logical_id, entries } => write!(
                f,
                "{logical_id} changed resource type; its {entries} baseline entries no longer apply — re-run record"
            ),
            BaselineNote::SourceRedeployed { logical_id, path } => write!(
                f,
                "{logical_id}.{path}: declared source was redeployed via CloudFormation since record — re-run record to watch the new value"
            ),
            BaselineNote::Promoted { logical_id, path } => write!(
                f,
                "{logical_id}.{path} is now declared in the template — re-run record"
            ),
            BaselineNote::AddedGone { entries } => write!(
                f,
                "{entries} recorded out-of-band resources were not observed this run — re-run record"
            ),
        }
    }
}

/// The findings after the baseline, plus what it silenced and its notes.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ApplyOutcome {
    /// Findings to report (recorded-and-unchanged undeclared values removed).
    pub findings: Vec<Finding>,
    /// Undeclared findings silenced because their recorded value is unchanged.
    pub suppressed: Vec<Finding>,
    /// Lifecycle folds and file remarks.
    pub notes: Vec<BaselineNote>,
}

/// Note text on a value whose recorded entry differs.
pub const NOTE_CHANGED: &str = "changed since record";
/// Note text on a value with no entry on a snapshot-complete resource.
pub const NOTE_APPEARED: &str = "appeared since record";
/// Note text on a recorded value that is gone.
pub const NOTE_REMOVED: &str = "removed since record";
/// Note text on a tracked default that was deleted.
pub const NOTE_DEFAULT_DELETED: &str = "observed default deleted since record";
/// Note text on a content hash whose declared source was redeployed.
pub const NOTE_REDEPLOYED: &str = "declared source redeployed since record — re-run record";

/// Applies `baseline` (or none) to a run's findings.
///
/// With no baseline every undeclared and added value is unrecorded (potential
/// drift). Errors only when the file belongs to another account, stack or region.
pub fn apply_baseline(
    findings: Vec<Finding>,
    baseline: Option<&BaselineFile>,
    ctx: &RunContext,
) -> Result<ApplyOutcome, BaselineError> {
    let Some(b) = baseline else {
        return Ok(ApplyOutcome {
            findings: mark_unrecorded(findings),
            ..ApplyOutcome::default()
        });
    };
    guard_identity(b, ctx)?;

    let mut notes = file_notes(b, ctx);
    let voids = Voids::compute(b, ctx, &mut notes);
    let index = live_index(b, &voids);
    let enumerated = live_enumerated_parents(b, &voids);
    // What the run observed, before any re-tagging (for the removal passes).
    let observed: Vec<(String, String, Tier)> = findings
        .iter()
        .map(|f| (f.logical_id.clone(), f.path.clone(), f.tier))
        .collect();

    let placer = Placer {
        b,
        ctx,
        voids: &voids,
        index: &index,
        enumerated: &enumerated,
    };
    let mut out = Vec::with_capacity(findings.len());
    let mut suppressed = Vec::new();
    for f in findings {
        match placer.place(f) {
            Placed::Reported(f) => out.push(f),
            Placed::Suppressed(f) => suppressed.push(f),
        }
    }

    let mut synthesized = Vec::new();
    removal_pass(ctx, &index, &observed, &mut synthesized, &mut notes);
    observed_default_pass(b, ctx, &voids, &observed, &mut synthesized);
    out.extend(synthesized);
    Ok(ApplyOutcome {
        findings: out,
        suppressed,
        notes,
    })
}

/// With no baseline, every undeclared and added value is potential drift.
fn mark_unrecorded(findings: Vec<Finding>) -> Vec<Finding> {
    findings
        .into_iter()
        .map(|mut f| {
            if matches!(f.tier, Tier::Undeclared | Tier::Added) {
                f.unrecorded = true;
            }
            f
        })
        .collect()
}

/// Remarks about the file itself: legacy schema, no accountId, template changed.
fn file_notes(b: &BaselineFile, ctx: &RunContext) -> Vec<BaselineNote> {
    let mut notes = Vec::new();
    if b.is_legacy() {
        notes.push(BaselineNote::LegacySchema);
    }
    if b.account_id.is_none() {
        notes.push(BaselineNote::MissingAccountId);
    }
    if let (Some(rec), Some(now)) = (&b.template_hash, &ctx.template_hash) {
        if rec != now {
            notes.push(BaselineNote::TemplateChanged);
        }
    }
    notes
}

/// Recorded entries by (logical id, path).
type EntryIndex<'a> = BTreeMap<(&'a str, &'a str), &'a RecordedEntry>;

/// The entries still in play (not voided); the first of a duplicated key wins.
fn live_index<'a>(b: &'a BaselineFile, voids: &Voids) -> EntryIndex<'a> {
    b.recorded
        .iter()
        .filter(|e| !voids.entries.contains(&e.key()))
        .fold(BTreeMap::new(), |mut m, e| {
            m.entry((e.logical_id.as_str(), e.path.as_str()))
                .or_insert(e);
            m
        })
}

/// Parents whose recorded enumeration is still in play.
fn live_enumerated_parents<'a>(b: &'a BaselineFile, voids: &Voids) -> BTreeSet<&'a str> {
    b.enumerated_parents
        .iter()
        .map(|p| p.logical_id.as_str())
        .filter(|id| !voids.resources.contains(*id))
        .collect()
}

/// Where one finding goes after the baseline.
enum Placed {
    /// Reported (possibly re-tagged as drift or unrecorded).
    Reported(Finding),
    /// Silenced: its recorded value is unchanged.
    Suppressed(Finding),
}

/// What each finding of the run is judged against.
struct Placer<'a> {
    b: &'a BaselineFile,
    ctx: &'a RunContext,
    voids: &'a Voids,
    index: &'a EntryIndex<'a>,
    enumerated: &'a BTreeSet<&'a str>,
}

impl Placer<'_> {
    /// Judges one finding against its entry and places it.
    fn place(&self, mut f: Finding) -> Placed {
        let undeclared_side =
            matches!(f.tier, Tier::Undeclared | Tier::AtDefault | Tier::Generated);
        if undeclared_side
            && self
                .voids
                .redeployed
                .contains(&(f.logical_id.clone(), f.path.clone()))
        {
            // A hash that moved with its declared source: informational, never drift.
            f.tier = Tier::Generated;
            f.unrecorded = false;
            f.note = Some(NOTE_REDEPLOYED.to_string());
            return Placed::Reported(f);
        }
        match f.tier {
            Tier::Undeclared | Tier::AtDefault | Tier::Generated => self.place_live_only(f),
            Tier::Added => self.place_added(f),
            _ => Placed::Reported(f),
        }
    }

    /// An undeclared, at-default or generated value.
    fn place_live_only(&self, mut f: Finding) -> Placed {
        let placed = match judge(&f, self.index) {
            Judgement::Equal => {
                if f.tier == Tier::Undeclared {
                    return Placed::Suppressed(f);
                }
                f
            }
            Judgement::Changed(recorded) => drift(f, Some(recorded), NOTE_CHANGED),
            Judgement::Appeared if self.watched(&f) => drift(f, None, NOTE_APPEARED),
            Judgement::Appeared => f,
            Judgement::NoEntry if self.watched(&f) => {
                if self.complete(&f.logical_id) {
                    drift(f, None, NOTE_APPEARED)
                } else {
                    // Potential drift; a create-only value stays folded.
                    f.unrecorded = f.tier == Tier::Undeclared;
                    f
                }
            }
            Judgement::NoEntry => f,
        };
        Placed::Reported(placed)
    }

    /// An out-of-band resource.
    fn place_added(&self, mut f: Finding) -> Placed {
        let placed = match self.index.get(&(f.logical_id.as_str(), f.path.as_str())) {
            Some(e) if same(Some(&e.value), f.actual.as_ref()) => return Placed::Suppressed(f),
            Some(e) => {
                let recorded = e.value.clone();
                drift(f, Some(recorded), NOTE_CHANGED)
            }
            None => {
                let parent_complete = self
                    .ctx
                    .added_parents
                    .get(&f.logical_id)
                    .is_some_and(|p| self.enumerated.contains(p.as_str()));
                if parent_complete {
                    drift(f, None, NOTE_APPEARED)
                } else {
                    f.unrecorded = true;
                    f
                }
            }
        };
        Placed::Reported(placed)
    }

    /// True when the record fully covered the resource.
    fn complete(&self, id: &str) -> bool {
        self.b.is_complete(id) && !self.voids.resources.contains(id)
    }

    /// A create-only value (folded `atDefault`) is watched like an undeclared
    /// one once a record has snapshotted such values: missing from a complete
    /// resource, it appeared since (a resource re-created out of band).
    fn watched(&self, f: &Finding) -> bool {
        f.tier == Tier::Undeclared || (f.create_only && self.b.create_only_recorded)
    }
}

/// The file must be this run's: same account, stack and region. A run
/// whose own identity is unknown (an empty part) cannot prove that, so it
/// never passes; a file without an accountId (a legacy file) is accepted on
/// stack and region, with a note.
pub(crate) fn guard_identity(b: &BaselineFile, ctx: &RunContext) -> Result<(), BaselineError> {
    let id = &ctx.identity;
    let name = id
        .file_name()
        .unwrap_or_else(|_| format!("for stack {}", id.stack_name));
    let mismatch = |field, found: &str, expected: &str| BaselineError::IdentityMismatch {
        name: name.clone(),
        field,
        found: found.to_string(),
        expected: expected.to_string(),
    };
    let recorded_account = b.account_id.as_deref().unwrap_or_default();
    let axes = [
        ("accountId", recorded_account, id.account_id.as_str()),
        ("stackName", b.stack_name.as_str(), id.stack_name.as_str()),
        ("region", b.region.as_str(), id.region.as_str()),
    ];
    for (field, found, expected) in axes {
        // A legacy file without an accountId is matched on the other axes.
        let legacy = field == "accountId" && b.account_id.is_none();
        if expected.is_empty() || (!legacy && found != expected) {
            return Err(mismatch(field, found, expected));
        }
    }
    Ok(())
}

/// Entries and resources the lifecycle folds put out of play.
#[derive(Debug, Default)]
pub(crate) struct Voids {
    /// Every voided entry key.
    pub entries: BTreeSet<(String, String)>,
    /// Resources replaced or re-typed: their completeness and markers are void too.
    pub resources: BTreeSet<String>,
    /// Entries voided because their declared source was redeployed.
    pub redeployed: BTreeSet<(String, String)>,
}

impl Voids {
    pub(crate) fn compute(
        b: &BaselineFile,
        ctx: &RunContext,
        notes: &mut Vec<BaselineNote>,
    ) -> Self {
        let mut v = Voids::default();
        let mut removed = 0usize;
        let mut per_resource: BTreeMap<&str, usize> = BTreeMap::new();
        for e in &b.recorded {
            *per_resource.entry(e.logical_id.as_str()).or_default() += 1;
        }
        // Resource-level voids: replaced by a deploy, or re-typed.
        for (id, res) in &ctx.resources {
            let count = per_resource.get(id.as_str()).copied().unwrap_or(0);
            let retyped = b
                .recorded
                .iter()
                .any(|e| &e.logical_id == id && e.resource_type != res.resource_type);
            if retyped {
                v.resources.insert(id.clone());
                notes.push(BaselineNote::Retyped {
                    logical_id: id.clone(),
                    entries: count,
                });
                continue;
            }
            if replaced(b, id, res) {
                v.resources.insert(id.clone());
                if count > 0 {
                    notes.push(BaselineNote::Replaced {
                        logical_id: id.clone(),
                        entries: count,
                    });
                }
            }
        }
        for e in &b.recorded {
            let key = e.key();
            if v.resources.contains(&e.logical_id) {
                v.entries.insert(key);
                continue;
            }
            let Some(res) = ctx.resources.get(&e.logical_id) else {
                // Added-resource entries have synthesized ids that are never in
                // the template; they are judged by observation, not folded here.
                if !e.path.is_empty() {
                    removed += 1;
                    v.entries.insert(key);
                }
                continue;
            };
            if let (Some(stored), Some(fact)) = (
                b.recorded_source_fingerprints.get(&e.fingerprint_key()),
                facts().fingerprint_for(&res.resource_type, &e.path),
            ) {
                if let Some(now) = source_fingerprint(&res.declared, fact) {
                    if &now != stored {
                        notes.push(BaselineNote::SourceRedeployed {
                            logical_id: e.logical_id.clone(),
                            path: e.path.clone(),
                        });
                        v.redeployed.insert(key.clone());
                        v.entries.insert(key);
                    }
                }
            }
        }
        if removed > 0 {
            notes.push(BaselineNote::RemovedFromTemplate { entries: removed });
        }
        v
    }
}

/// A resource is replaced only when a recorded id exists and differs from a known live id.
fn replaced(b: &BaselineFile, id: &str, res: &ResourceState) -> bool {
    match (b.recorded_physical_ids.get(id), &res.physical_id) {
        (Some(rec), Some(live)) => res.read == ReadState::Read && rec != live,
        _ => false,
    }
}

enum Judgement {
    Equal,
    Changed(Value),
    /// A recorded ancestor object lacks this key.
    Appeared,
    NoEntry,
}

/// Compares a finding with its entry, or with the part of an ancestor entry
/// that covers it (a baseline recorded at a coarser path under older rules).
fn judge(f: &Finding, index: &BTreeMap<(&str, &str), &RecordedEntry>) -> Judgement {
    let actual = f.actual.as_ref();
    if let Some(e) = index.get(&(f.logical_id.as_str(), f.path.as_str())) {
        return if same(Some(&e.value), actual) {
            Judgement::Equal
        } else {
            Judgement::Changed(e.value.clone())
        };
    }
    for cut in parent_cuts(&f.path).into_iter().rev() {
        let ancestor = &f.path[..cut];
        let Some(e) = index.get(&(f.logical_id.as_str(), ancestor)) else {
            continue;
        };
        let Some(rel) = below(ancestor, &f.path) else {
            continue;
        };
        return match lookup(&e.value, rel) {
            Lookup::Found(v) if same(Some(v), actual) => Judgement::Equal,
            Lookup::Found(v) => Judgement::Changed(v.clone()),
            Lookup::Missing => Judgement::Appeared,
            // Fail closed: an uncertain match is judged as if unrecorded.
            Lookup::Unknown => Judgement::NoEntry,
        };
    }
    Judgement::NoEntry
}

/// Equality through the canonical form classify uses.
pub(crate) fn same(a: Option<&Value>, b: Option<&Value>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => canonicalize_for_compare(a) == canonicalize_for_compare(b),
        (None, None) => true,
        _ => false,
    }
}

/// Marks a finding as confirmed drift. An out-of-band resource keeps its
/// `added` tier so the report lists it with the out-of-band resources; any
/// other live-only value becomes undeclared drift.
fn drift(mut f: Finding, recorded: Option<Value>, note: &str) -> Finding {
    if f.tier != Tier::Added {
        f.tier = Tier::Undeclared;
    }
    f.unrecorded = false;
    if recorded.is_some() {
        f.desired = recorded;
    }
    f.note = Some(note.to_string());
    f
}

/// True when a finding at `path` on the resource overlaps `entry_path`.
fn overlaps(entry_path: &str, path: &str) -> bool {
    path == entry_path || below(entry_path, path).is_some() || below(path, entry_path).is_some()
}

/// True when a `readGap` finding of this run covers `path` on the resource:
/// it overlaps the path, or one of the declared sources a content hash at
/// `path` is derived from (a failed code-digest lookup is a gap on `Code`,
/// which hides `CodeSha256`).
fn unobservable(
    observed: &[(String, String, Tier)],
    logical_id: &str,
    resource_type: &str,
    path: &str,
) -> bool {
    let sources = facts()
        .fingerprint_for(resource_type, path)
        .map(|f| f.sources.as_slice())
        .unwrap_or_default();
    observed.iter().any(|(id, p, t)| {
        id == logical_id
            && *t == Tier::ReadGap
            && (overlaps(path, p) || sources.iter().any(|s| overlaps(s, p)))
    })
}

/// True when the template now declares a value at `path`.
pub(crate) fn declared_at_path(res: &ResourceState, path: &str) -> bool {
    let declared = Value::Object(
        res.declared
            .iter()
            .map(|(k, v)| (k.clone(), v.to_corpus_json()))
            .collect(),
    );
    matches!(lookup(&declared, path), Lookup::Found(_))
}

fn removal_pass(
    ctx: &RunContext,
    index: &BTreeMap<(&str, &str), &RecordedEntry>,
    observed: &[(String, String, Tier)],
    out: &mut Vec<Finding>,
    notes: &mut Vec<BaselineNote>,
) {
    let mut added_gone = 0usize;
    for e in index.values() {
        let seen = observed
            .iter()
            .any(|(id, p, _)| id == &e.logical_id && overlaps(&e.path, p));
        if e.path.is_empty() {
            if !seen {
                added_gone += 1;
            }
            continue;
        }
        let Some(res) = ctx.resources.get(&e.logical_id) else {
            continue;
        };
        // Unread, deleted or skipped resources keep their entries silently,
        // and so do values this read could not return (a read gap there).
        if res.read != ReadState::Read
            || unobservable(observed, &e.logical_id, &e.resource_type, &e.path)
        {
            continue;
        }
        if declared_at_path(res, &e.path) {
            notes.push(BaselineNote::Promoted {
                logical_id: e.logical_id.clone(),
                path: e.path.clone(),
            });
            continue;
        }
        if seen {
            continue;
        }
        let mut f = Finding::new(Tier::Undeclared, &e.logical_id, &e.resource_type, &e.path);
        f.physical_id = res.physical_id.clone();
        f.construct_path = res.construct_path.clone();
        f.desired = Some(e.value.clone());
        f.note = Some(NOTE_REMOVED.to_string());
        out.push(f);
    }
    if added_gone > 0 {
        notes.push(BaselineNote::AddedGone {
            entries: added_gone,
        });
    }
}

fn observed_default_pass(
    b: &BaselineFile,
    ctx: &RunContext,
    voids: &Voids,
    observed: &[(String, String, Tier)],
    out: &mut Vec<Finding>,
) {
    for od in &b.observed_defaults {
        if voids.resources.contains(&od.logical_id) {
            continue;
        }
        let Some(res) = ctx.resources.get(&od.logical_id) else {
            continue;
        };
        if res.resource_type != od.resource_type || res.read != ReadState::Read {
            continue;
        }
        if declared_at_path(res, &od.path) {
            continue;
        }
        // Only a read gap at this path hides its value; a gap elsewhere on
        // the resource says nothing about it.
        if unobservable(observed, &od.logical_id, &od.resource_type, &od.path)
            || observed
                .iter()
                .any(|(id, p, _)| id == &od.logical_id && overlaps(&od.path, p))
        {
            continue;
        }
        let mut f = Finding::new(
            Tier::Undeclared,
            &od.logical_id,
            &od.resource_type,
            &od.path,
        );
        f.physical_id = res.physical_id.clone();
        f.construct_path = res.construct_path.clone();
        f.desired = facts()
            .tracked_default(&od.resource_type, &od.path)
            .map(|d| d.default.clone());
        f.note = Some(NOTE_DEFAULT_DELETED.to_string());
        out.push(f);
    }
}
