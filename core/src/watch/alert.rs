//! Transitions rendered as notices: one per transition kind that has
//! findings, in a fixed order (detected, resolved, coverage lost, coverage
//! regained), each with the SNS document and the Slack message. A closed
//! storm's facts go on its first drift notice; a storm whose every change
//! was back as desired before it ended is still announced, as a resolved
//! notice with nothing to list but the facts.

use super::transition::Transitions;
use crate::finding::Finding;
use crate::notify::Notice;
use crate::report::{render_slack_storm, render_storm, Burst, SnsKind, StackReport};
use std::collections::BTreeSet;

/// The transition lists with their kinds, in announcement order.
pub fn kinds(t: &Transitions) -> [(SnsKind, &[Finding]); 4] {
    [
        (SnsKind::DriftDetected, &t.detected),
        (SnsKind::DriftResolved, &t.resolved),
        (SnsKind::CoverageLost, &t.coverage_lost),
        (SnsKind::CoverageRegained, &t.coverage_regained),
    ]
}

/// The kind that carries the storm's facts: the first drift kind with findings.
fn storm_kind(t: &Transitions) -> SnsKind {
    if t.detected.is_empty() {
        SnsKind::DriftResolved
    } else {
        SnsKind::DriftDetected
    }
}

/// One notice per non-empty transition. `report` is the stack as checked
/// now: its summary, coverage and mask policy go into every notice.
pub fn notices(t: &Transitions, report: &StackReport) -> Vec<Notice> {
    let storm = t.storm.as_ref().map(|b| (storm_kind(t), b));
    let with_storm;
    let report = if storm.is_some() {
        with_storm = storm_report(report, &t.detected);
        &with_storm
    } else {
        report
    };
    kinds(t)
        .into_iter()
        .filter(|(kind, findings)| !findings.is_empty() || storm.is_some_and(|(k, _)| k == *kind))
        .map(|(kind, findings)| {
            let burst = storm.filter(|(k, _)| *k == kind).map(|(_, b)| b);
            notice(report, kind, findings, burst)
        })
        .collect()
}

/// The report a storm's notices are rendered with: the check that closed
/// it may have read nothing (a flush), so the drift it announces is added
/// to the findings the summary counts ("Now: N drift").
fn storm_report(report: &StackReport, detected: &[Finding]) -> StackReport {
    let key = |f: &Finding| (f.logical_id.clone(), f.path.clone(), f.tier);
    let known: BTreeSet<_> = report.findings.iter().map(key).collect();
    let mut r = report.clone();
    r.findings.extend(
        detected
            .iter()
            .filter(|f| !known.contains(&key(f)))
            .cloned(),
    );
    r
}

fn notice(
    report: &StackReport,
    kind: SnsKind,
    findings: &[Finding],
    burst: Option<&Burst>,
) -> Notice {
    let sns = render_storm(report, kind, findings, burst);
    Notice {
        kind: kind.as_str().to_string(),
        subject: sns.subject,
        document: sns.message,
        text: sns.text,
        slack: render_slack_storm(report, kind, findings, burst),
    }
}
