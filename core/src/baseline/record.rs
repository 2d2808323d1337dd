//! Recording a baseline: snapshot accepted undeclared state into a new file.
//!
//! Record takes the findings as classify produced them (after ignore rules,
//! before the baseline is applied), the existing file, and a selection. It
//! never records atDefault or generated values except the recordable content
//! hashes of the bundled facts and the values AWS chose at create time that a
//! user can change (`chosenAtCreate` knowledge), carries forward entries of resources that were
//! not read this run, and computes `completeResources` at write time,
//! monotonically.

use super::apply::{guard_identity, same, BaselineNote, Voids};
use super::context::{ChildScan, ReadState, RunContext};
use super::error::BaselineError;
use super::facts::{facts, source_fingerprint};
use super::file::{BaselineFile, ObservedDefault, RecordedEntry, ResourceRef, SCHEMA_VERSION};
use crate::finding::{Finding, Tier};
use serde_json::Map;
use std::collections::{BTreeMap, BTreeSet};

/// An entry key: logical id and path.
pub type EntryKey = (String, String);

/// Which candidate values the user accepts.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Selection {
    /// Every recordable value.
    #[default]
    All,
    /// Only these (logical id, path) keys; unchanged recorded values are kept regardless.
    Only(BTreeSet<EntryKey>),
}

impl Selection {
    fn contains(&self, key: &EntryKey) -> bool {
        match self {
            Selection::All => true,
            Selection::Only(keys) => keys.contains(key),
        }
    }
}

/// How a new record differs from the existing baseline.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RecordDelta {
    /// Values recorded for the first time.
    pub new: Vec<RecordedEntry>,
    /// Values whose recorded entry is replaced: (old, new).
    pub changed: Vec<(RecordedEntry, RecordedEntry)>,
    /// Values already recorded with the same (canonical) value, kept as they are.
    pub unchanged: Vec<RecordedEntry>,
    /// Entries of resources not read this run, kept as they are.
    pub carried: Vec<RecordedEntry>,
    /// Existing entries the new file no longer holds (gone, replaced, removed from the template).
    pub dropped: Vec<RecordedEntry>,
    /// Candidates not selected (new values left unrecorded, changed values left at their old entry).
    pub declined: Vec<EntryKey>,
}

impl RecordDelta {
    /// True when recording changes no entry (the file only refreshes).
    pub fn is_empty(&self) -> bool {
        self.new.is_empty() && self.changed.is_empty() && self.dropped.is_empty()
    }
}

/// The new baseline and how it differs from the old one.
#[derive(Debug, Clone, PartialEq)]
pub struct RecordOutcome {
    /// The file to write.
    pub baseline: BaselineFile,
    /// The delta against the existing file.
    pub delta: RecordDelta,
}

/// Inputs of a record.
#[derive(Debug, Clone, Copy)]
pub struct RecordInput<'a> {
    /// Findings as classify produced them, after ignore rules.
    pub classified: &'a [Finding],
    /// The baseline on file, if any.
    pub existing: Option<&'a BaselineFile>,
    /// The run.
    pub ctx: &'a RunContext,
    /// What to accept.
    pub selection: &'a Selection,
    /// Capture time (ISO 8601), supplied by the caller so this stays pure.
    pub captured_at: &'a str,
}

/// True when record may snapshot this finding.
pub fn is_recordable(f: &Finding) -> bool {
    if f.actual.is_none() {
        return false;
    }
    match f.tier {
        Tier::Undeclared | Tier::Added => true,
        Tier::Generated => facts().is_recordable_generated(&f.resource_type, &f.path),
        // A value AWS chose at create time that a user can change (a
        // security group, a window): recorded so a later change surfaces.
        // So is a value only the create-only rule explains: only a
        // re-created resource changes it.
        Tier::AtDefault => f.create_only || f.chosen_at_create,
        _ => false,
    }
}

/// The recordable findings of a run, as (key, finding).
pub fn candidates(classified: &[Finding]) -> Vec<(EntryKey, &Finding)> {
    let mut seen = BTreeSet::new();
    classified
        .iter()
        .filter(|f| is_recordable(f))
        .map(|f| ((f.logical_id.clone(), f.path.clone()), f))
        .filter(|(k, _)| seen.insert(k.clone()))
        .collect()
}

/// The delta recording everything would produce (for a picker showing only new/changed).
pub fn preview(
    classified: &[Finding],
    existing: Option<&BaselineFile>,
    ctx: &RunContext,
) -> RecordDelta {
    record(RecordInput {
        classified,
        existing,
        ctx,
        selection: &Selection::All,
        captured_at: "",
    })
    .delta
}

/// Refuses to record over a file of another stack, account or region: the
/// same identity guard that makes check refuse the file. Recording over it
/// would merge another stack's accepted state and rewrite its identity.
pub fn check_record_target(existing: &BaselineFile, ctx: &RunContext) -> Result<(), BaselineError> {
    guard_identity(existing, ctx)
}

/// Builds the new baseline file.
pub fn record(input: RecordInput<'_>) -> RecordOutcome {
    let RecordInput {
        classified,
        existing,
        ctx,
        selection,
        captured_at,
    } = input;
    let empty = BaselineFile::empty(
        &ctx.identity.stack_name,
        &ctx.identity.account_id,
        &ctx.identity.region,
    );
    let old = existing.unwrap_or(&empty);
    let mut scratch = Vec::<BaselineNote>::new();
    let voids = Voids::compute(old, ctx, &mut scratch);
    let old_index = index_entries(old);

    let mut draft = Draft::default();
    let cands = candidates(classified);
    draft.take_candidates(&cands, &old_index, &voids, old, selection);
    let seen_keys: BTreeSet<&EntryKey> = cands.iter().map(|(k, _)| k).collect();
    draft.carry_unseen(&old_index, &seen_keys, old, ctx, &voids);
    draft.refresh_fingerprints(ctx);

    let complete = complete_resources(classified, old, ctx, &voids, &draft.entries);
    let parents = enumerated_parents(classified, ctx, &draft.entries, old);
    let physical_ids = physical_ids(&draft.entries, &complete, old, ctx);
    let Draft {
        delta,
        entries,
        fingerprints,
        ..
    } = draft;

    let mut baseline = BaselineFile {
        schema_version: SCHEMA_VERSION,
        stack_name: ctx.identity.stack_name.clone(),
        region: ctx.identity.region.clone(),
        account_id: Some(ctx.identity.account_id.clone()),
        captured_at: captured_at.to_string(),
        template_hash: ctx
            .template_hash
            .clone()
            .or_else(|| old.template_hash.clone()),
        recorded: entries.into_values().collect(),
        complete_resources: Some(complete),
        recorded_physical_ids: physical_ids,
        recorded_source_fingerprints: fingerprints,
        observed_defaults: observed_defaults(classified, old, ctx, &voids),
        enumerated_parents: parents,
        create_only_recorded: true,
        extra: old.extra.clone(),
    };
    baseline.normalize_order();
    RecordOutcome { baseline, delta }
}

/// The old file's entries by key; the first of a duplicated key wins.
fn index_entries(old: &BaselineFile) -> BTreeMap<EntryKey, &RecordedEntry> {
    old.recorded.iter().fold(BTreeMap::new(), |mut m, e| {
        m.entry(e.key()).or_insert(e);
        m
    })
}

/// The new file's entries and fingerprints as record builds them, with the delta.
#[derive(Default)]
struct Draft {
    delta: RecordDelta,
    entries: BTreeMap<EntryKey, RecordedEntry>,
    fingerprints: BTreeMap<String, String>,
    /// Keys whose entry was re-captured this run (their fingerprint is recomputed).
    fresh: BTreeSet<EntryKey>,
}

impl Draft {
    /// Takes each candidate in turn, against its old entry unless that is voided.
    fn take_candidates(
        &mut self,
        cands: &[(EntryKey, &Finding)],
        old_index: &BTreeMap<EntryKey, &RecordedEntry>,
        voids: &Voids,
        old: &BaselineFile,
        selection: &Selection,
    ) {
        for (key, f) in cands {
            let prior = old_index
                .get(key)
                .copied()
                .filter(|_| !voids.entries.contains(key));
            self.take_candidate(key, f, prior, old, selection);
        }
    }

    /// Records, keeps or declines one candidate against its live prior entry.
    fn take_candidate(
        &mut self,
        key: &EntryKey,
        f: &Finding,
        prior: Option<&RecordedEntry>,
        old: &BaselineFile,
        selection: &Selection,
    ) {
        let Some(actual) = f.actual.clone() else {
            return;
        };
        let new_entry = |extra: Map<String, serde_json::Value>| RecordedEntry {
            logical_id: f.logical_id.clone(),
            resource_type: f.resource_type.clone(),
            path: f.path.clone(),
            value: actual.clone(),
            extra,
        };
        match prior {
            Some(old_e) if same(Some(&old_e.value), Some(&actual)) => {
                self.delta.unchanged.push(old_e.clone());
                self.entries.insert(key.clone(), old_e.clone());
                self.fresh.insert(key.clone());
            }
            Some(old_e) if selection.contains(key) => {
                let e = new_entry(old_e.extra.clone());
                self.delta.changed.push((old_e.clone(), e.clone()));
                self.entries.insert(key.clone(), e);
                self.fresh.insert(key.clone());
            }
            Some(old_e) => {
                // Declined: the old entry stays, so the change keeps reporting as drift.
                self.delta.declined.push(key.clone());
                self.entries.insert(key.clone(), old_e.clone());
                self.keep_fingerprint(old, old_e);
            }
            None if selection.contains(key) => {
                let e = new_entry(Map::new());
                self.delta.new.push(e.clone());
                self.entries.insert(key.clone(), e);
                self.fresh.insert(key.clone());
            }
            None => self.delta.declined.push(key.clone()),
        }
    }

    /// Carries forward or drops each old entry that no candidate of this run covers.
    fn carry_unseen(
        &mut self,
        old_index: &BTreeMap<EntryKey, &RecordedEntry>,
        seen_keys: &BTreeSet<&EntryKey>,
        old: &BaselineFile,
        ctx: &RunContext,
        voids: &Voids,
    ) {
        let children_uncertain = ctx
            .resources
            .values()
            .any(|r| r.children == ChildScan::Failed);
        for (key, e) in old_index {
            if self.entries.contains_key(key) || seen_keys.contains(key) {
                continue;
            }
            if carries_forward(e, ctx, voids, children_uncertain) {
                self.delta.carried.push((*e).clone());
                self.entries.insert(key.clone(), (*e).clone());
                self.keep_fingerprint(old, e);
            } else {
                self.delta.dropped.push((*e).clone());
            }
        }
    }

    /// Keeps the old file's source fingerprint of an entry kept as it was.
    fn keep_fingerprint(&mut self, old: &BaselineFile, e: &RecordedEntry) {
        if let Some(fp) = old.recorded_source_fingerprints.get(&e.fingerprint_key()) {
            self.fingerprints.insert(e.fingerprint_key(), fp.clone());
        }
    }

    /// Recomputes the source fingerprint of every re-captured content hash.
    fn refresh_fingerprints(&mut self, ctx: &RunContext) {
        for key in &self.fresh {
            let Some(e) = self.entries.get(key) else {
                continue;
            };
            let Some(res) = ctx.resources.get(&e.logical_id) else {
                continue;
            };
            if let Some(fact) = facts().fingerprint_for(&res.resource_type, &e.path) {
                if let Some(fp) = source_fingerprint(&res.declared, fact) {
                    self.fingerprints.insert(e.fingerprint_key(), fp);
                }
            }
        }
    }
}

/// True when an old entry not seen this run stays in the new file.
fn carries_forward(
    e: &RecordedEntry,
    ctx: &RunContext,
    voids: &Voids,
    children_uncertain: bool,
) -> bool {
    if e.path.is_empty() {
        // A recorded out-of-band resource not observed: keep it only when
        // some enumeration failed and its absence is not certain.
        children_uncertain
    } else {
        match ctx.resources.get(&e.logical_id) {
            None => false,
            Some(_) if voids.resources.contains(&e.logical_id) => false,
            Some(r) => r.read != ReadState::Read,
        }
    }
}

/// Physical ids of recorded and complete resources: the live one when read, else the old one.
fn physical_ids(
    entries: &BTreeMap<EntryKey, RecordedEntry>,
    complete: &[String],
    old: &BaselineFile,
    ctx: &RunContext,
) -> BTreeMap<String, String> {
    let recorded_ids: BTreeSet<&str> = entries.keys().map(|(id, _)| id.as_str()).collect();
    let mut physical_ids = BTreeMap::new();
    for id in recorded_ids
        .iter()
        .copied()
        .chain(complete.iter().map(String::as_str))
    {
        let Some(res) = ctx.resources.get(id) else {
            continue;
        };
        let live = res
            .physical_id
            .as_ref()
            .filter(|_| res.read == ReadState::Read);
        match (live, old.recorded_physical_ids.get(id)) {
            (Some(p), _) => {
                physical_ids.insert(id.to_string(), p.clone());
            }
            (None, Some(p)) => {
                physical_ids.insert(id.to_string(), p.clone());
            }
            (None, None) => {}
        }
    }
    physical_ids
}

/// Resources whose every undeclared value is recorded, united with the old set.
fn complete_resources(
    classified: &[Finding],
    old: &BaselineFile,
    ctx: &RunContext,
    voids: &Voids,
    entries: &BTreeMap<EntryKey, RecordedEntry>,
) -> Vec<String> {
    let mut complete = BTreeSet::new();
    for (id, res) in &ctx.resources {
        match res.read {
            ReadState::Read => {
                let all_recorded = classified
                    .iter()
                    .filter(|f| &f.logical_id == id && f.tier == Tier::Undeclared)
                    .all(|f| entries.contains_key(&(f.logical_id.clone(), f.path.clone())));
                // Monotonic: a value declined after it appeared stays drift.
                let was = old.is_complete(id) && !voids.resources.contains(id);
                if all_recorded || was {
                    complete.insert(id.clone());
                }
            }
            ReadState::NotRead => {
                if old.is_complete(id) && !voids.resources.contains(id) {
                    complete.insert(id.clone());
                }
            }
            ReadState::Deleted => {}
        }
    }
    complete.into_iter().collect()
}

/// Tracked paths seen at their default on read resources, plus unread carry-overs.
fn observed_defaults(
    classified: &[Finding],
    old: &BaselineFile,
    ctx: &RunContext,
    voids: &Voids,
) -> Vec<ObservedDefault> {
    let mut out: Vec<ObservedDefault> = classified
        .iter()
        .filter(|f| f.tier == Tier::AtDefault && ctx.was_read(&f.logical_id))
        .filter(|f| facts().tracked_default(&f.resource_type, &f.path).is_some())
        .map(|f| ObservedDefault {
            logical_id: f.logical_id.clone(),
            resource_type: f.resource_type.clone(),
            path: f.path.clone(),
            extra: Map::new(),
        })
        .collect();
    for od in &old.observed_defaults {
        let unread = ctx
            .resources
            .get(&od.logical_id)
            .is_some_and(|r| r.read == ReadState::NotRead && r.resource_type == od.resource_type);
        if unread && !voids.resources.contains(&od.logical_id) {
            out.push(od.clone());
        }
    }
    out
}

/// Parents whose enumeration completed and whose every added child is recorded.
///
/// "Recorded" means present in the new file's entries: a child that was
/// declined, or that could not be recorded at all (no model read), leaves the
/// inventory incomplete, and stamping its parent would later misreport that
/// child as "appeared since record".
fn enumerated_parents(
    classified: &[Finding],
    ctx: &RunContext,
    entries: &BTreeMap<EntryKey, RecordedEntry>,
    old: &BaselineFile,
) -> Vec<ResourceRef> {
    ctx.resources
        .iter()
        .filter(|(_, r)| r.read == ReadState::Read && r.children == ChildScan::Complete)
        .filter(|(id, _)| {
            classified
                .iter()
                .filter(|f| f.tier == Tier::Added)
                .filter(|f| ctx.added_parents.get(&f.logical_id) == Some(*id))
                .all(|f| entries.contains_key(&(f.logical_id.clone(), f.path.clone())))
        })
        .map(|(id, r)| {
            let extra = old
                .enumerated_parents
                .iter()
                .find(|p| &p.logical_id == id)
                .map(|p| p.extra.clone())
                .unwrap_or_default();
            ResourceRef {
                logical_id: id.clone(),
                resource_type: r.resource_type.clone(),
                extra,
            }
        })
        .collect()
}
