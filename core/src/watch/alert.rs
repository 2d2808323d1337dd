//! Transitions rendered as notices: one per transition kind that has
//! findings, in a fixed order (detected, resolved, coverage lost, coverage
//! regained), each with the SNS document and the Slack message.

use super::transition::Transitions;
use crate::finding::Finding;
use crate::notify::Notice;
use crate::report::{render_slack_transition, render_transition, SnsKind, StackReport};

/// The transition lists with their kinds, in announcement order.
pub fn kinds(t: &Transitions) -> [(SnsKind, &[Finding]); 4] {
    [
        (SnsKind::DriftDetected, &t.detected),
        (SnsKind::DriftResolved, &t.resolved),
        (SnsKind::CoverageLost, &t.coverage_lost),
        (SnsKind::CoverageRegained, &t.coverage_regained),
    ]
}

/// One notice per non-empty transition. `report` is the stack as checked
/// now: its summary, coverage and mask policy go into every notice.
pub fn notices(t: &Transitions, report: &StackReport) -> Vec<Notice> {
    kinds(t)
        .into_iter()
        .filter(|(_, findings)| !findings.is_empty())
        .map(|(kind, findings)| {
            let sns = render_transition(report, kind, findings);
            Notice {
                kind: kind.as_str().to_string(),
                subject: sns.subject,
                document: sns.message,
                text: sns.text,
                slack: render_slack_transition(report, kind, findings),
            }
        })
        .collect()
}
