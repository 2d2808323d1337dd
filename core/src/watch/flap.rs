//! Flapping: a value flipped back and forth inside a suppression window is
//! announced once, then summarized, instead of a detected / resolved pair
//! per check.
//!
//! Per drift key (logical id, path, tier) the state keeps the window that
//! its first transition opened (`StackState::flaps`, so it survives
//! invocations). Inside the window:
//!
//! - a detected value not yet announced in the window is announced (new
//!   information is never held back);
//! - the first resolution is announced (a revert or a fix is seen at once);
//! - a return to a value, or to the resolution, already announced in the
//!   window is held back and counted.
//!
//! The first check after the window closed announces, when something was
//! held back, one summary: the key's current state with the note
//! "changed N times in M minutes; now X" (a detected notice while it
//! drifts, a resolved one when it is as desired). Nothing is lost: a held
//! transition only waits for that summary.

use super::state::DriftKey;
use super::transition::Transitions;
use crate::finding::{Finding, Tier};
use crate::report::render_value;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

/// The default suppression window: 10 minutes.
pub const DEFAULT_FLAP_WINDOW_MS: u64 = 600_000;

/// One drift key's open suppression window.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Flap {
    /// Logical id of the key.
    pub logical_id: String,
    /// Path of the key.
    pub path: String,
    /// Tier of the key.
    pub tier: Tier,
    /// When the window opened (the read time of its first transition).
    pub since_ms: u64,
    /// When the latest transition was seen.
    pub last_ms: u64,
    /// The live values announced as detected in the window.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub announced: Vec<Value>,
    /// A resolution was announced in the window.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub resolved: bool,
    /// Transitions seen in the window (announced and held).
    pub changes: u32,
    /// Transitions held back.
    pub held: u32,
    /// The latest finding resolved, for a summary that says "as desired".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_resolved: Option<Finding>,
}

impl Flap {
    /// The key the window is about.
    pub fn key(&self) -> DriftKey {
        (self.logical_id.clone(), self.path.clone(), self.tier)
    }

    fn open(f: &Finding, now_ms: u64) -> Self {
        Flap {
            logical_id: f.logical_id.clone(),
            path: f.path.clone(),
            tier: f.tier,
            since_ms: now_ms,
            last_ms: now_ms,
            announced: Vec::new(),
            resolved: false,
            changes: 0,
            held: 0,
            last_resolved: None,
        }
    }
}

fn key_of(f: &Finding) -> DriftKey {
    (f.logical_id.clone(), f.path.clone(), f.tier)
}

/// What the suppression made of one step's transitions.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Held {
    /// The transitions to announce (summaries added, held ones removed).
    pub transitions: Transitions,
    /// The windows to keep in the state.
    pub flaps: Vec<Flap>,
}

/// Applies the suppression at `now_ms` with a window of `window_ms` (0: off)
/// to `transitions`, given the windows the state holds (`previous`) and the
/// drift set after the step (`drift_now`, by key).
pub fn hold_flaps(
    previous: &[Flap],
    transitions: Transitions,
    drift_now: &BTreeMap<DriftKey, Finding>,
    now_ms: u64,
    window_ms: u64,
) -> Held {
    if window_ms == 0 {
        return Held {
            transitions,
            flaps: Vec::new(),
        };
    }
    let mut open: BTreeMap<DriftKey, Flap> = BTreeMap::new();
    let mut summaries: BTreeMap<DriftKey, Flap> = BTreeMap::new();
    for f in previous {
        if now_ms > f.since_ms.saturating_add(window_ms) {
            if f.held > 0 {
                summaries.insert(f.key(), f.clone());
            }
        } else {
            open.insert(f.key(), f.clone());
        }
    }
    let Transitions {
        detected,
        resolved,
        coverage_lost,
        coverage_regained,
        storm,
    } = transitions;
    let mut out = Transitions {
        coverage_lost,
        coverage_regained,
        storm,
        ..Transitions::default()
    };
    for f in detected {
        let flap = open
            .entry(key_of(&f))
            .or_insert_with(|| Flap::open(&f, now_ms));
        let value = f.actual.clone().unwrap_or(Value::Null);
        flap.changes += 1;
        flap.last_ms = now_ms;
        if flap.announced.contains(&value) {
            flap.held += 1;
        } else {
            flap.announced.push(value);
            out.detected.push(f);
        }
    }
    for f in resolved {
        let flap = open
            .entry(key_of(&f))
            .or_insert_with(|| Flap::open(&f, now_ms));
        flap.changes += 1;
        flap.last_ms = now_ms;
        flap.last_resolved = Some(f.clone());
        if flap.resolved {
            flap.held += 1;
        } else {
            flap.resolved = true;
            out.resolved.push(f);
        }
    }
    for (key, flap) in summaries {
        summarize(&flap, drift_now.get(&key), &mut out);
    }
    Held {
        transitions: out,
        flaps: open.into_values().collect(),
    }
}

/// Adds the summary of a closed window with held transitions: the key's
/// current drift as detected, else its last resolution as resolved. When
/// this step announces the key anyway, the note goes on that finding.
fn summarize(flap: &Flap, now: Option<&Finding>, out: &mut Transitions) {
    let minutes = (flap.last_ms.saturating_sub(flap.since_ms))
        .div_ceil(60_000)
        .max(1);
    let state = match now {
        Some(f) => f
            .actual
            .as_ref()
            .map(render_value)
            .unwrap_or_else(|| "absent".into()),
        None => "as desired".into(),
    };
    let note = format!(
        "changed {} times in {minutes} minutes; now {state}",
        flap.changes
    );
    let key = flap.key();
    let list = if now.is_some() {
        &mut out.detected
    } else {
        &mut out.resolved
    };
    if let Some(f) = list.iter_mut().find(|f| key_of(f) == key) {
        f.note = Some(note);
        return;
    }
    let Some(mut f) = now.cloned().or_else(|| flap.last_resolved.clone()) else {
        return;
    };
    f.note = Some(note);
    list.push(f);
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const MIN: u64 = 60_000;
    const WINDOW: u64 = 10 * MIN;

    fn finding(actual: &str) -> Finding {
        let mut f = Finding::new(Tier::Declared, "Queue", "AWS::SQS::Queue", "DelaySeconds");
        f.desired = Some(json!("0"));
        f.actual = Some(json!(actual));
        f
    }

    fn drifting(actual: &str) -> BTreeMap<DriftKey, Finding> {
        let f = finding(actual);
        [(key_of(&f), f)].into_iter().collect()
    }

    /// One check at `now`: detected `Some(v)` or resolved `None`.
    fn check(flaps: &[Flap], change: Option<&str>, now: u64) -> Held {
        let mut t = Transitions::default();
        let drift = match change {
            Some(v) => {
                t.detected.push(finding(v));
                drifting(v)
            }
            None => {
                t.resolved.push(finding("5"));
                BTreeMap::new()
            }
        };
        hold_flaps(flaps, t, &drift, now, WINDOW)
    }

    #[test]
    fn a_value_flipped_four_times_gives_its_alert_its_resolution_and_one_summary() {
        let mut flaps = Vec::new();
        let mut announced = Vec::new();
        for (i, change) in [Some("5"), None, Some("5"), None, Some("5")]
            .into_iter()
            .enumerate()
        {
            let h = check(&flaps, change, i as u64 * MIN);
            announced.push((h.transitions.detected.len(), h.transitions.resolved.len()));
            flaps = h.flaps;
        }
        assert_eq!(announced, [(1, 0), (0, 1), (0, 0), (0, 0), (0, 0)]);
        // The next check after the window: one summary of the current state.
        let h = hold_flaps(
            &flaps,
            Transitions::default(),
            &drifting("5"),
            11 * MIN,
            WINDOW,
        );
        assert_eq!(h.transitions.detected.len(), 1);
        assert_eq!(
            h.transitions.detected[0].note.as_deref(),
            Some("changed 5 times in 4 minutes; now 5")
        );
        assert!(h.flaps.is_empty());
        // And nothing more after that.
        let h = hold_flaps(
            &h.flaps,
            Transitions::default(),
            &drifting("5"),
            12 * MIN,
            WINDOW,
        );
        assert!(h.transitions.is_empty());
    }

    #[test]
    fn a_summary_ending_as_desired_is_a_resolution() {
        let mut flaps = Vec::new();
        for (i, change) in [Some("5"), None, Some("5"), None].into_iter().enumerate() {
            flaps = check(&flaps, change, i as u64 * MIN).flaps;
        }
        let h = hold_flaps(
            &flaps,
            Transitions::default(),
            &BTreeMap::new(),
            20 * MIN,
            WINDOW,
        );
        assert!(h.transitions.detected.is_empty());
        assert_eq!(
            h.transitions.resolved[0].note.as_deref(),
            Some("changed 4 times in 3 minutes; now as desired")
        );
    }

    #[test]
    fn a_new_value_inside_the_window_is_announced_and_nothing_is_held_after_it_closes() {
        let h = check(&[], Some("5"), 0);
        let h = check(&h.flaps, Some("9"), MIN);
        assert_eq!(h.transitions.detected.len(), 1, "a new value is news");
        let h = check(&h.flaps, None, 11 * MIN);
        assert_eq!(h.transitions.resolved.len(), 1, "a new window: announced");
        let h = hold_flaps(
            &h.flaps,
            Transitions::default(),
            &BTreeMap::new(),
            30 * MIN,
            WINDOW,
        );
        assert!(h.transitions.is_empty(), "nothing was held: no summary");
        assert!(h.flaps.is_empty());
    }

    #[test]
    fn a_window_of_zero_turns_it_off() {
        let t = Transitions {
            detected: vec![finding("5")],
            ..Transitions::default()
        };
        let h = hold_flaps(&[], t.clone(), &drifting("5"), 0, 0);
        assert_eq!(h.transitions, t);
        assert!(h.flaps.is_empty());
    }
}
