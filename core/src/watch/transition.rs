//! From the last state and a new observation to the next state and the
//! transitions to announce.
//!
//! - New drift: a drift entry whose key (logical id, path, tier) was not in
//!   the previous drift set, or whose live value changed. On the first
//!   check (no state) confirmed drift is announced once; potential drift
//!   is inventory.
//! - Resolved: a previous entry no longer present, where the check knows
//!   the resource's state (read, gone, or removed from the template). An
//!   entry whose resource was not read this time is kept, not resolved.
//! - After a deploy (template hash changed) references are re-observed and
//!   entries that existed only through observation memory are dropped
//!   without a "resolved" notice.
//! - Coverage lost / regained: see [`super::coverage`].
//! - Flapping: a value flipped back and forth inside the suppression
//!   window is announced once and summarized: see [`super::flap`].
//! - Storms: a burst of changes to many resources is held and announced
//!   in one alert once the stack is quiet: see [`super::storm`].
//! - Order: every observation carries the time its read started, and the
//!   state the time of the read it holds per resource. A resource the state
//!   holds a newer read of is left as the state has it (a scan that read
//!   before an out-of-band change and writes after on-change alerted does
//!   not resolve the drift); an older observation of another template
//!   changes nothing at all.

use super::coverage;
use super::flap::hold_flaps;
use super::memory::recall;
use super::observe::Observation;
use super::state::{DriftEntry, DriftKey, StackState, STATE_VERSION};
use super::storm::hold_storms;
use crate::finding::{Finding, Tier};
use crate::report::Burst;
use std::collections::BTreeMap;

/// What changed between two checks, each list a transition's findings.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Transitions {
    /// New drift (or drift whose live value changed).
    pub detected: Vec<Finding>,
    /// Drift that is gone (the findings as they were last reported).
    pub resolved: Vec<Finding>,
    /// Reads and child listings newly lost (`skipped` findings with the reason).
    pub coverage_lost: Vec<Finding>,
    /// Reads and child listings that work again.
    pub coverage_regained: Vec<Finding>,
    /// The facts of a storm closed by this step (its findings are in
    /// `detected` and `resolved`; see [`super::storm`]).
    pub storm: Option<Burst>,
}

impl Transitions {
    /// True when there is nothing to announce.
    pub fn is_empty(&self) -> bool {
        self.detected.is_empty()
            && self.resolved.is_empty()
            && self.coverage_lost.is_empty()
            && self.coverage_regained.is_empty()
            && self.storm.is_none()
    }
}

/// The next state and what to announce.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// The state to store (its outbox is the previous one, untouched).
    pub state: StackState,
    /// The transitions.
    pub transitions: Transitions,
    /// There was no previous state.
    pub first: bool,
    /// The template changed since the previous state (a deploy).
    pub redeployed: bool,
}

/// Confirmed drift: a drift tier a baseline confirms (or no baseline is
/// needed for: deleted, declared).
fn is_confirmed(f: &Finding) -> bool {
    f.tier.is_drift() && !f.unrecorded
}

/// A `skipped` finding about the whole stack.
fn stack_finding(obs: &Observation, note: String) -> Finding {
    let stack = &obs.identity.stack_name;
    let mut f = Finding::new(Tier::Skipped, stack, "AWS::CloudFormation::Stack", "");
    f.note = Some(note);
    f
}

/// A stack that is not settled: announced not checked once per status,
/// everything else of the state kept (nothing was read).
fn unsettled(previous: Option<&StackState>, obs: &Observation, status: &str) -> Step {
    let mut state = previous
        .cloned()
        .unwrap_or_else(|| StackState::empty(&obs.identity, &obs.template_hash));
    let mut transitions = Transitions::default();
    let stale = previous.is_some_and(|p| obs.is_older_than(newest_read(p)));
    if !stale && state.not_checked.as_deref() != Some(status) {
        let note = format!("stack status {status}: not checked until it settles");
        transitions.coverage_lost.push(stack_finding(obs, note));
        state.not_checked = Some(status.to_string());
    }
    state.normalize();
    Step {
        state,
        transitions,
        first: previous.is_none(),
        redeployed: false,
    }
}

/// The newest read the state holds, of any resource.
fn newest_read(state: &StackState) -> Option<u64> {
    state.coverage.values().filter_map(|c| c.read_at_ms).max()
}

/// True when `obs` read another template before the state's newest read:
/// the state already holds what came after it.
fn is_stale(prev: &StackState, obs: &Observation) -> bool {
    prev.template_hash != obs.template_hash && obs.is_older_than(newest_read(prev))
}

/// `obs` with the resources the state holds a newer read of set aside.
fn held_back(previous: Option<&StackState>, obs: &Observation) -> Observation {
    let mut out = obs.clone();
    let Some(prev) = previous else {
        return out;
    };
    out.superseded = obs
        .resources
        .keys()
        .filter(|id| obs.covers(id))
        .filter(|id| obs.is_older_than(prev.coverage.get(*id).and_then(|c| c.read_at_ms)))
        .cloned()
        .collect();
    out
}

/// Computes the next state of a stack from its `previous` state (`None`:
/// no state file yet) and what a check saw.
pub fn advance(previous: Option<&StackState>, obs: &Observation) -> Step {
    if let Some(prev) = previous.filter(|p| is_stale(p, obs)) {
        let mut state = prev.clone();
        state.normalize();
        return Step {
            state,
            transitions: Transitions::default(),
            first: false,
            redeployed: false,
        };
    }
    if let Some(status) = &obs.not_settled {
        return unsettled(previous, obs, status);
    }
    let held = held_back(previous, obs);
    let obs = &held;
    let first = previous.is_none();
    let prev = previous
        .cloned()
        .unwrap_or_else(|| StackState::empty(&obs.identity, &obs.template_hash));
    let redeployed = !first && prev.template_hash != obs.template_hash;
    let memory = if redeployed {
        recall(&[], None, obs)
    } else {
        recall(&prev.observations, (!first).then_some(&prev.coverage), obs)
    };

    let mut now: BTreeMap<DriftKey, DriftEntry> =
        memory.changes.into_iter().map(|e| (e.key(), e)).collect();
    for f in obs.in_scope().filter(|f| is_confirmed(f)) {
        let entry = DriftEntry {
            finding: f.clone(),
            observed_change: false,
            parent: obs.added_parents.get(&f.logical_id).cloned(),
        };
        now.insert(entry.key(), entry);
    }

    let mut transitions = Transitions::default();
    for e in &prev.drift {
        if now.contains_key(&e.key()) || (e.observed_change && redeployed) {
            continue;
        }
        let added = e.finding.tier == Tier::Added;
        let owner = obs.owner(&e.finding.logical_id, e.parent.as_deref());
        if obs.settles(owner, added) {
            transitions.resolved.push(e.finding.clone());
        } else {
            now.insert(e.key(), e.clone());
        }
    }
    let before = prev.drift_by_key();
    for (k, e) in &now {
        let same = before
            .get(k)
            .is_some_and(|p| p.finding.actual == e.finding.actual);
        if !same {
            transitions.detected.push(e.finding.clone());
        }
    }

    let cov = coverage::step(&prev.coverage, obs);
    transitions.coverage_lost = cov.lost;
    transitions.coverage_regained = cov.regained;
    if let Some(status) = &prev.not_checked {
        let note = format!("stack settled after {status}: checked again");
        transitions.coverage_regained.push(stack_finding(obs, note));
    }
    let drift_now: BTreeMap<DriftKey, Finding> = now
        .iter()
        .map(|(k, e)| (k.clone(), e.finding.clone()))
        .collect();
    let (transitions, flaps) = match obs.read_started_ms {
        Some(at) => {
            let h = hold_flaps(&prev.flaps, transitions, &drift_now, at, obs.flap_window());
            (h.transitions, h.flaps)
        }
        // No read time: no window can be placed; every transition is announced.
        None => (transitions, prev.flaps.clone()),
    };
    let (transitions, storm) = match obs.read_started_ms {
        Some(at) => hold_storms(
            prev.storm.as_ref(),
            transitions,
            &drift_now,
            at,
            obs.storm_policy(),
            !obs.covers_all(),
        ),
        None => (transitions, prev.storm.clone()),
    };
    let mut state = StackState {
        version: STATE_VERSION,
        template_hash: obs.template_hash.clone(),
        drift: now.into_values().collect(),
        observations: memory.references,
        coverage: cov.coverage,
        not_checked: None,
        flaps,
        storm,
        ..prev
    };
    state.normalize();
    Step {
        state,
        transitions,
        first,
        redeployed,
    }
}
