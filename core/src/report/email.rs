//! The readable text of an SNS alert (the `default` and `email` keys of a
//! MessageStructure=json publish): what changed, desired → actual, who and
//! when, the stack's coverage, and the command that reverts it. Every value
//! is masked and every identifier stripped of control and bidi characters.

use super::mask::mask_findings;
use super::model::StackReport;
use super::not_compared::{coverage_sentence, MAX_NAMED};
use super::sanitize::{render_value, sanitize_identifier};
use super::sns::SnsKind;
use super::text::cause_parts;
use crate::finding::{Finding, Tier};
use crate::ignore::display_id;
use serde_json::Value;

/// The most findings the text lists (the JSON document carries them all).
pub const MAX_TEXT_FINDINGS: usize = 25;

/// The most characters of one rendered value before it is cut.
const MAX_VALUE_CHARS: usize = 300;

/// The alert as plain text for a person (email, SMS and other `default`
/// subscribers), listing at most `max_findings` of `findings`.
pub fn render_email_text(
    r: &StackReport,
    kind: SnsKind,
    findings: &[Finding],
    max_findings: usize,
) -> String {
    let stack = sanitize_identifier(&r.stack);
    let mut out = format!(
        "realdrift: {} {stack} ({}{})\n\n",
        kind.phrase(),
        sanitize_identifier(&r.region),
        r.account_id
            .as_deref()
            .map(|a| format!(", account {}", sanitize_identifier(a)))
            .unwrap_or_default()
    );
    let masked = mask_findings(findings, &r.masks);
    let shown: Vec<&Finding> = masked
        .iter()
        .filter(|f| !matches!(f.tier, Tier::AtDefault | Tier::Generated))
        .collect();
    out.push_str(heading(kind));
    out.push('\n');
    for f in shown.iter().take(max_findings) {
        out.push_str(&finding_lines(f, &r.stack));
    }
    if shown.len() > max_findings {
        out.push_str(&format!(
            "… and {} more (the JSON document lists every one)\n",
            shown.len() - max_findings
        ));
    }
    let s = r.summary();
    out.push_str(&format!(
        "\nNow: {} drift, {} potential drift; {}.\n",
        s.drift,
        s.potential,
        coverage_sentence(&r.stack, &r.coverage, &r.not_compared, MAX_NAMED)
    ));
    if kind == SnsKind::DriftDetected {
        out.push_str(&revert_hint(&stack, &r.region));
    }
    out
}

pub(super) fn heading(kind: SnsKind) -> &'static str {
    match kind {
        SnsKind::DriftDetected => "What changed:",
        SnsKind::DriftResolved => "No longer drifted:",
        SnsKind::CoverageLost => "No longer compared:",
        SnsKind::CoverageRegained => "Compared again:",
    }
}

/// One finding: `- Target.Path: desired → actual`, its type and id, its cause.
pub(super) fn finding_lines(f: &Finding, stack: &str) -> String {
    let id = sanitize_identifier(display_id(f, stack));
    let target = if f.path.is_empty() {
        id
    } else {
        format!("{id}.{}", sanitize_identifier(&f.path))
    };
    let change = match f.tier {
        Tier::Deleted => "resource deleted".to_string(),
        Tier::Skipped => format!(
            "not compared: {}",
            sanitize_identifier(f.note.as_deref().unwrap_or("no reason given"))
        ),
        _ => match (&f.desired, &f.actual) {
            (None, actual) => format!("live {}", show(actual)),
            (desired, actual) => format!("{} → {}", show(desired), show(actual)),
        },
    };
    let mut lines = match super::slack::diff_of(f, &sanitize_identifier(display_id(f, stack))) {
        Some(diff) => {
            let mut out = format!("- {target}:\n");
            for d in diff {
                out.push_str(&format!("    {d}\n"));
            }
            out
        }
        None => format!("- {target}: {change}\n"),
    };
    lines.push_str(&format!(
        "    {} {} [{}]\n",
        sanitize_identifier(&f.resource_type),
        sanitize_identifier(f.physical_id.as_deref().unwrap_or(&f.logical_id)),
        f.tier
    ));
    if let Some(c) = f.cause.as_ref().and_then(cause_parts) {
        lines.push_str(&format!("    {}\n", sanitize_identifier(&c)));
    }
    lines
}

fn show(v: &Option<Value>) -> String {
    let text = v
        .as_ref()
        .map(render_value)
        .unwrap_or_else(|| "(absent)".into());
    let clean = sanitize_identifier(&text);
    if clean.chars().count() <= MAX_VALUE_CHARS {
        return clean;
    }
    let mut cut: String = clean.chars().take(MAX_VALUE_CHARS).collect();
    cut.push('…');
    cut
}

/// How to put the template's values back: plan first, then apply.
pub(super) fn revert_hint(stack: &str, region: &str) -> String {
    let region = sanitize_identifier(region);
    format!(
        "\nTo revert (review the plan, then apply):\n  \
         realdrift revert {stack} --region {region} --dry-run\n  \
         realdrift revert {stack} --region {region}\n"
    )
}
