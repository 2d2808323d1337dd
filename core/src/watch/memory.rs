//! Observation memory: the reference value of every undeclared value no
//! baseline entry covers, so a value that changes between two checks under
//! the same template is drift ("changed since last observed") even before
//! anyone records a baseline. A value AWS chose at create that a user can
//! change later (a maintenance window, a placement, an option setting a
//! solution stack filled in) folds like a default, so it is remembered the
//! same way: its reference is kept as an undeclared value, and a change is
//! announced as one.
//!
//! - A value seen for the first time (or after a deploy) becomes its own
//!   reference: inventory, not an alert.
//! - A value that appears on a resource the previous check under the same
//!   template read without it is an observed change ("was absent or at its
//!   default"): its reference is absent (JSON null), so removing the value
//!   resolves it. Without this, anything added out of band to a resource no
//!   baseline covers (an inline policy on a role, notifications turned on)
//!   would be taken as inventory and never announced.
//! - A value that differs from its reference, or is gone from a resource
//!   that was read, is an observed change. The reference stays, so putting
//!   the value back resolves it.
//! - A reference whose resource was not read this time is kept as is
//!   (unknown is not a change).
//! - A reference whose value a baseline entry or an ignore rule now covers
//!   is dropped: the baseline (or the rule) speaks for it from now on.

use super::observe::{is_value_tier, Observation};
use super::state::{DriftEntry, ListStatus, ObservedValue, ReadStatus, ResourceCoverage, ValueKey};
use crate::finding::{Finding, Tier};
use serde_json::Value;
use std::collections::BTreeMap;

/// What observation memory concluded for one check.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Recall {
    /// The references to store.
    pub references: Vec<ObservedValue>,
    /// Drift entries that exist because a value changed since observed.
    pub changes: Vec<DriftEntry>,
}

/// The note on an observed change.
fn change_note(reference: &Value, now: Option<&Value>) -> String {
    let show = |v: &Value| crate::report::render_value(v);
    match now {
        Some(v) if reference.is_null() => format!(
            "changed since last observed: was absent or at its default, now {}",
            show(v)
        ),
        Some(v) => format!(
            "changed since last observed: was {}, now {}",
            show(reference),
            show(v)
        ),
        None => format!(
            "changed since last observed: was {}, now gone",
            show(reference)
        ),
    }
}

/// Applies memory: `previous` references (empty after a deploy) against
/// what `obs` saw. `read_before` is the previous check's coverage under the
/// same template (`None` on a first check or after a deploy): a value new
/// on a resource it read is a change, not inventory. References outside the
/// observation's scope are kept.
pub fn recall(
    previous: &[ObservedValue],
    read_before: Option<&BTreeMap<String, ResourceCoverage>>,
    obs: &Observation,
) -> Recall {
    let mut out = Recall::default();
    let mut prev: BTreeMap<ValueKey, &ObservedValue> =
        previous.iter().map(|o| (o.key(), o)).collect();
    for f in obs.in_scope().filter(|f| is_remembered(f)) {
        let key = (f.logical_id.clone(), f.path.clone());
        let parent = obs.added_parents.get(&f.logical_id).cloned();
        let Some(actual) = f.actual.clone() else {
            continue;
        };
        match prev.remove(&key) {
            Some(r) => {
                if r.value != actual {
                    out.changes.push(changed(f, r, Some(&actual)));
                }
                out.references.push(r.clone());
            }
            None => {
                let added = f.tier == Tier::Added;
                let read = was_read(
                    read_before,
                    obs.owner(&f.logical_id, parent.as_deref()),
                    added,
                );
                let reference = ObservedValue {
                    logical_id: f.logical_id.clone(),
                    resource_type: f.resource_type.clone(),
                    path: f.path.clone(),
                    // A choice AWS made is a live-only value once it moves.
                    tier: if added { Tier::Added } else { Tier::Undeclared },
                    value: actual.clone(),
                    parent,
                };
                if read {
                    let absent = ObservedValue {
                        value: Value::Null,
                        ..reference
                    };
                    out.changes.push(changed(f, &absent, Some(&actual)));
                    out.references.push(absent);
                } else {
                    out.references.push(reference);
                }
            }
        }
    }
    for (key, r) in prev {
        let added = r.tier == Tier::Added;
        let owner = obs.owner(&r.logical_id, r.parent.as_deref());
        if !obs.covers(owner) || !obs.value_was_read(owner, added) {
            out.references.push(r.clone());
        } else if r.value.is_null() {
            // Absent again, as it was before it appeared: resolved, and the
            // previous read's coverage remembers the resource from now on.
        } else if obs.raw_values.contains(&key) || covered_elsewhere(obs, &key) {
            // A baseline entry or an ignore rule speaks for it now.
        } else {
            let now = obs
                .findings
                .iter()
                .find(|f| f.logical_id == key.0 && f.path == key.1)
                .and_then(|f| f.actual.as_ref());
            // A gone child's own physical id is not known any more.
            let physical_id = (!added)
                .then(|| obs.resources.get(owner).and_then(|s| s.physical_id.clone()))
                .flatten();
            let base = Finding {
                physical_id,
                ..Finding::new(r.tier, &r.logical_id, &r.resource_type, &r.path)
            };
            out.changes.push(changed(&base, r, now));
            out.references.push(r.clone());
        }
    }
    out
}

/// True when the previous check read `owner`'s values (`added`: listed its
/// children completely), so a value it did not see there was absent.
fn was_read(
    read_before: Option<&BTreeMap<String, ResourceCoverage>>,
    owner: &str,
    added: bool,
) -> bool {
    match read_before.and_then(|c| c.get(owner)) {
        Some(c) if added => c.children == ListStatus::Complete,
        Some(c) => c.read == ReadStatus::Read,
        None => false,
    }
}

/// Potential drift: an undeclared or added value no baseline entry covers.
fn is_potential(f: &Finding) -> bool {
    is_value_tier(f.tier) && f.unrecorded
}

/// A value memory keeps a reference of: potential drift, or a value AWS
/// chose at create that a user can change (no baseline entry has turned it
/// into drift). A create-only value changes only with a new resource.
fn is_remembered(f: &Finding) -> bool {
    is_potential(f) || (f.tier == Tier::AtDefault && !f.create_only && f.chosen_at_create)
}

/// True when a finding at `key` is confirmed drift or ignored (so a
/// baseline entry or an ignore rule covers the position).
fn covered_elsewhere(obs: &Observation, key: &ValueKey) -> bool {
    obs.findings
        .iter()
        .any(|f| f.logical_id == key.0 && f.path == key.1 && !is_remembered(f))
}

/// The drift entry of a value that moved away from its reference.
fn changed(f: &Finding, r: &ObservedValue, now: Option<&Value>) -> DriftEntry {
    let mut finding = f.clone();
    finding.tier = r.tier;
    // An absent reference has no desired value to show or to revert to.
    finding.desired = (!r.value.is_null()).then(|| r.value.clone());
    finding.actual = now.cloned();
    // Drift by memory, not by a baseline: counted as drift in alerts.
    finding.unrecorded = false;
    finding.note = Some(change_note(&r.value, now));
    DriftEntry {
        finding,
        observed_change: true,
        parent: r.parent.clone(),
    }
}
