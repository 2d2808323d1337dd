//! Storms: a burst of out-of-band changes to one stack (a person editing
//! many resources in the console) is announced as one alert listing them,
//! not one alert per change.
//!
//! A storm is many different resources changed, not "any two changes": the
//! state keeps the recent re-checks of the stack (`StackState::storm`, so
//! it survives invocations) and the resources each one found changed
//! (detected or resolved). While the distinct resources inside the last
//! window stay below the threshold, every transition is announced as it
//! comes: one resource changed again and again is the flap watch's
//! business, not a storm. A re-check that takes the distinct count to the
//! threshold (one check that finds that many at once included) opens a
//! storm:
//!
//! - its drift transitions, and those of every check after it, are held in
//!   the state (nothing is lost) and the storm stays open while changes
//!   keep coming;
//! - the first check after the stack was quiet for a whole window (the
//!   delayed flush message on-change sends itself, or the scan) closes it
//!   with one drift-detected notice listing what still drifts, its latest
//!   value each, with the count of changes and the time span; a drift
//!   announced before the storm and resolved inside it gets its resolved
//!   notice; a drift that came and went inside the storm is only counted
//!   ("N back as desired").
//!
//! Only scoped re-checks (on-change) count toward opening a storm: a
//! whole-stack check already announces one notice per kind for the stack.
//! Coverage transitions are never held.

use super::state::DriftKey;
use super::transition::Transitions;
use crate::finding::Finding;
use crate::report::Burst;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// The default storm window: 5 minutes, so a person editing one resource
/// every half minute in the console reaches the threshold inside it.
pub const DEFAULT_STORM_WINDOW_MS: u64 = 300_000;

/// The default threshold: 10 different changed resources inside one window.
pub const DEFAULT_STORM_THRESHOLD: u32 = 10;

/// The storm knobs of one check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StormPolicy {
    /// The window in milliseconds (0: storms off).
    pub window_ms: u64,
    /// Different changed resources inside a window that open a storm (0: off).
    pub threshold: u32,
}

impl Default for StormPolicy {
    fn default() -> Self {
        StormPolicy {
            window_ms: DEFAULT_STORM_WINDOW_MS,
            threshold: DEFAULT_STORM_THRESHOLD,
        }
    }
}

impl StormPolicy {
    /// The knobs as configured in seconds and changed resources (`None`: the default).
    pub fn configured(window_seconds: Option<u64>, threshold: Option<u32>) -> Self {
        StormPolicy {
            window_ms: window_seconds.map_or(DEFAULT_STORM_WINDOW_MS, |s| s.saturating_mul(1000)),
            threshold: threshold.unwrap_or(DEFAULT_STORM_THRESHOLD),
        }
    }

    fn is_off(&self) -> bool {
        self.window_ms == 0 || self.threshold == 0
    }
}

/// One re-check that found changes, as the rate counter keeps it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Tick {
    /// When its read started.
    pub at_ms: u64,
    /// Resources it found changed.
    pub changes: u32,
    /// Their logical ids (empty in a state written before ids were kept:
    /// then `changes` counts as that many different resources).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resources: Vec<String>,
}

impl Tick {
    /// Resources of this tick no id stands for (an older state's count).
    fn anonymous(&self) -> u32 {
        if self.resources.is_empty() {
            self.changes
        } else {
            0
        }
    }
}

/// One held transition, in the order it was seen.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HeldChange {
    /// The finding as the transition had it.
    #[serde(flatten)]
    pub finding: Finding,
    /// A resolution (else a detection).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub resolved: bool,
}

/// An open storm: what is held until the stack is quiet for a window.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OpenStorm {
    /// When its first held check read.
    pub since_ms: u64,
    /// When its latest held check read (the storm closes a window after).
    pub last_ms: u64,
    /// Changed resources counted over its checks.
    pub changes: u32,
    /// The held transitions.
    pub held: Vec<HeldChange>,
}

/// A stack's storm watch, kept in its state.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Storm {
    /// Recent re-checks that found changes, oldest first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub recent: Vec<Tick>,
    /// The open storm, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open: Option<OpenStorm>,
}

impl Storm {
    /// When an open storm closes if nothing more comes (`None`: none open).
    pub fn closes_at_ms(&self, window_ms: u64) -> Option<u64> {
        self.open
            .as_ref()
            .map(|o| o.last_ms.saturating_add(window_ms))
    }
}

fn key_of(f: &Finding) -> DriftKey {
    (f.logical_id.clone(), f.path.clone(), f.tier)
}

/// Resources a step's drift transitions touch.
fn changed_ids(t: &Transitions) -> BTreeSet<&str> {
    t.detected
        .iter()
        .chain(&t.resolved)
        .map(|f| f.logical_id.as_str())
        .collect()
}

fn count_of(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// Moves the drift transitions of `t` into `open`.
fn hold(open: &mut OpenStorm, t: &mut Transitions, changes: u32, now_ms: u64) {
    let detected = t.detected.drain(..).map(|finding| HeldChange {
        finding,
        resolved: false,
    });
    let resolved = t.resolved.drain(..).map(|finding| HeldChange {
        finding,
        resolved: true,
    });
    open.held.extend(detected.chain(resolved));
    open.changes = open.changes.saturating_add(changes);
    open.last_ms = open.last_ms.max(now_ms);
}

/// Applies the storm watch at `now_ms` to a step's transitions (after the
/// flapping suppression), given the watch the state holds (`previous`),
/// the drift set after the step (`drift_now`, by key) and whether this
/// check counts toward opening a storm (`counts`: a scoped re-check).
/// Returns the transitions to announce and the watch to keep.
pub fn hold_storms(
    previous: Option<&Storm>,
    mut t: Transitions,
    drift_now: &BTreeMap<DriftKey, Finding>,
    now_ms: u64,
    policy: StormPolicy,
    counts: bool,
) -> (Transitions, Option<Storm>) {
    let mut storm = previous.cloned().unwrap_or_default();
    if policy.is_off() {
        // Turned off with a storm open: announce what it held now.
        if let Some(open) = storm.open.take() {
            release(open, drift_now, &mut t);
        }
        return (t, None);
    }
    let quiet = storm
        .closes_at_ms(policy.window_ms)
        .is_some_and(|at| now_ms >= at);
    let closed = if quiet { storm.open.take() } else { None };
    if closed.is_some() {
        storm.recent.clear();
    }
    let ids: Vec<String> = changed_ids(&t).into_iter().map(str::to_owned).collect();
    if !ids.is_empty() {
        if let Some(open) = storm.open.as_mut() {
            hold(open, &mut t, count_of(ids.len()), now_ms);
        } else if counts {
            count(&mut storm, &mut t, ids, now_ms, policy);
        }
    }
    if let Some(open) = closed {
        release(open, drift_now, &mut t);
    }
    let keep = (storm != Storm::default()).then_some(storm);
    (t, keep)
}

/// Counts a re-check's changed resources (`ids`); opens a storm (holding
/// them) when the window's different resources reach the threshold.
fn count(storm: &mut Storm, t: &mut Transitions, ids: Vec<String>, now_ms: u64, p: StormPolicy) {
    storm
        .recent
        .retain(|k| k.at_ms.saturating_add(p.window_ms) > now_ms);
    let changes = count_of(ids.len());
    let mut distinct: BTreeSet<&str> = ids.iter().map(String::as_str).collect();
    let mut anonymous = 0u32;
    for tick in &storm.recent {
        distinct.extend(tick.resources.iter().map(String::as_str));
        anonymous = anonymous.saturating_add(tick.anonymous());
    }
    if count_of(distinct.len()).saturating_add(anonymous) < p.threshold {
        storm.recent.push(Tick {
            at_ms: now_ms,
            changes,
            resources: ids,
        });
        return;
    }
    let mut open = OpenStorm {
        since_ms: now_ms,
        last_ms: now_ms,
        changes: 0,
        held: Vec::new(),
    };
    hold(&mut open, t, changes, now_ms);
    storm.recent.clear();
    storm.open = Some(open);
}

/// Adds what a closed storm held to `out`: each key still drifting as
/// detected (its latest held finding), each drift announced before the
/// storm and now gone as resolved, and the burst facts. A key this step
/// announces anyway keeps this step's (newer) finding.
fn release(open: OpenStorm, drift_now: &BTreeMap<DriftKey, Finding>, out: &mut Transitions) {
    let mut first_resolved: BTreeMap<DriftKey, bool> = BTreeMap::new();
    let mut detected: BTreeMap<DriftKey, Finding> = BTreeMap::new();
    let mut resolved: BTreeMap<DriftKey, Finding> = BTreeMap::new();
    let resources: BTreeSet<&str> = open
        .held
        .iter()
        .map(|h| h.finding.logical_id.as_str())
        .collect();
    let resources = u32::try_from(resources.len()).unwrap_or(u32::MAX);
    for h in &open.held {
        let key = key_of(&h.finding);
        first_resolved.entry(key.clone()).or_insert(h.resolved);
        let into = if h.resolved {
            &mut resolved
        } else {
            &mut detected
        };
        into.insert(key, h.finding.clone());
    }
    let fresh: BTreeSet<DriftKey> = out
        .detected
        .iter()
        .chain(&out.resolved)
        .map(key_of)
        .collect();
    let mut back = 0u32;
    let mut listed_detected = Vec::new();
    let mut listed_resolved = Vec::new();
    for (key, was_resolution) in first_resolved {
        if fresh.contains(&key) {
            continue;
        }
        if drift_now.contains_key(&key) {
            if let Some(f) = detected.remove(&key) {
                listed_detected.push(f);
            }
        } else if was_resolution {
            if let Some(f) = resolved.remove(&key) {
                listed_resolved.push(f);
            }
        } else {
            back += 1;
        }
    }
    listed_detected.append(&mut out.detected);
    listed_resolved.append(&mut out.resolved);
    out.detected = listed_detected;
    out.resolved = listed_resolved;
    out.storm = Some(Burst {
        changes: open.changes,
        resources,
        back_as_desired: back,
        first_ms: open.since_ms,
        last_ms: open.last_ms,
    });
}

#[cfg(test)]
mod tests;
