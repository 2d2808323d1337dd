//! Coverage transitions: a read that worked before and has now failed a
//! number of times in a row (the observation's threshold, default 2: one
//! throttled read is not a loss), or a child listing that worked before and
//! now fails, is "coverage lost" (once, until it works again); when it
//! works again that is "coverage regained". Something never read (a custom
//! resource, a read denied since the first check) is not a loss — except a
//! resource of a type no reader can read, which is lost from its first
//! check (nothing will make it readable on retry) until it is read or the
//! team accepts the type in `ignore.yaml`.

use super::observe::{Observation, SeenResource};
use super::state::{ListStatus, ReadStatus, ResourceCoverage};
use crate::finding::{Finding, Tier};
use std::collections::BTreeMap;

/// Coverage after one check, and what changed.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct CoverageStep {
    /// Coverage to store, by logical id.
    pub coverage: BTreeMap<String, ResourceCoverage>,
    /// One `skipped` finding per read or listing newly lost (with the reason).
    pub lost: Vec<Finding>,
    /// One `skipped` finding per read or listing that works again (what was lost).
    pub regained: Vec<Finding>,
}

/// The note on a lost child listing when the check gave no reason.
const LISTING_LOST: &str = "out-of-band children could not be listed";

/// Steps coverage from `previous` to what `obs` saw.
pub fn step(previous: &BTreeMap<String, ResourceCoverage>, obs: &Observation) -> CoverageStep {
    let mut out = CoverageStep::default();
    for (id, c) in previous {
        // Out of scope: kept. In a whole-stack scan, a resource not seen is
        // gone from the template and its coverage with it.
        if !obs.covers(id) || (!obs.resources.contains_key(id) && !obs.covers_all()) {
            out.coverage.insert(id.clone(), c.clone());
        }
    }
    for (id, seen) in obs.resources.iter().filter(|(id, _)| obs.covers(id)) {
        let prev = previous.get(id).cloned().unwrap_or_default();
        let mut next = ResourceCoverage {
            resource_type: seen.resource_type.clone(),
            read: seen.read,
            children: seen.children,
            read_lost: prev.read_lost,
            children_lost: prev.children_lost,
            failures: 0,
            read_at_ms: obs.read_started_ms.or(prev.read_at_ms),
            unreadable: false,
        };
        if seen.unreadable {
            unreadable(id, seen, &prev, &mut next, obs, &mut out);
        } else if prev.unreadable && prev.read_lost && seen.read == ReadStatus::NotRead {
            // Accepted since (or no longer planned for a read): not lost.
            next.read_lost = false;
            out.regained
                .push(skipped(id, seen, None, "accepted as not compared"));
        } else if seen.read == ReadStatus::NotRead {
            read_failed(id, seen, &prev, &mut next, obs, &mut out);
        } else if prev.read_lost {
            next.read_lost = false;
            out.regained.push(skipped(id, seen, None, "read again"));
        }
        match seen.children {
            ListStatus::Failed if !prev.children_lost && prev.children == ListStatus::Complete => {
                next.children_lost = true;
                out.lost.push(skipped(id, seen, None, LISTING_LOST));
            }
            ListStatus::Complete if prev.children_lost => {
                next.children_lost = false;
                out.regained
                    .push(skipped(id, seen, None, "out-of-band children listed again"));
            }
            // Not listed this time (not read): a lost listing stays lost.
            _ => {}
        }
        out.coverage.insert(id.clone(), next);
    }
    out
}

/// A type no reader reads: lost at once, announced once.
fn unreadable(
    id: &str,
    seen: &SeenResource,
    prev: &ResourceCoverage,
    next: &mut ResourceCoverage,
    obs: &Observation,
    out: &mut CoverageStep,
) {
    next.unreadable = true;
    next.read_lost = true;
    if !prev.read_lost {
        let reason = skip_reason(obs, id);
        out.lost.push(skipped(
            id,
            seen,
            reason.as_deref(),
            "no reader for the type",
        ));
    }
}

/// A failed read: counted when the resource was read before (a streak),
/// announced lost once the streak reaches the observation's threshold.
fn read_failed(
    id: &str,
    seen: &SeenResource,
    prev: &ResourceCoverage,
    next: &mut ResourceCoverage,
    obs: &Observation,
    out: &mut CoverageStep,
) {
    // Something never read (custom, denied from the start) has no streak.
    let streak = prev.read == ReadStatus::Read || prev.failures > 0 || prev.read_lost;
    if !streak {
        return;
    }
    next.failures = prev.failures.saturating_add(1);
    if !prev.read_lost && next.failures >= obs.lost_after() {
        next.read_lost = true;
        let reason = skip_reason(obs, id);
        out.lost
            .push(skipped(id, seen, reason.as_deref(), "read failed"));
    }
}

/// The reason the check gave for not reading a resource.
fn skip_reason(obs: &Observation, id: &str) -> Option<String> {
    obs.findings
        .iter()
        .find(|f| f.logical_id == id && f.tier == Tier::Skipped && f.path.is_empty())
        .and_then(|f| f.note.clone())
}

fn skipped(id: &str, seen: &SeenResource, reason: Option<&str>, fallback: &str) -> Finding {
    let mut f = Finding::new(Tier::Skipped, id, &seen.resource_type, "");
    f.physical_id = seen.physical_id.clone();
    f.note = Some(reason.unwrap_or(fallback).to_string());
    f
}
