//! Slack Block Kit messages for an incoming webhook.
//!
//! A header per stack with its counts, one section per drift finding (path,
//! desired → actual, tier, construct path, and who/when/where when a cause is
//! known), kept within Slack's limits (50 blocks, 3000 characters per text,
//! 150 per header) with an "and N more" tail. All text is `plain_text` with
//! `&`, `<` and `>` escaped and control/bidi characters removed, so text from
//! AWS can neither mention, link nor format.

use super::change_diff::change_lines;
use super::model::{is_confirmed_drift, StackReport, Summary, Verdict};
use super::not_compared::{coverage_sentence, MAX_NAMED};
use super::sanitize::{render_value, sanitize_identifier};
use super::sns::SnsKind;
use super::text::cause_parts;
use crate::baseline::sort_keys;
use crate::finding::Finding;
use crate::ignore::display_id;
use serde_json::{json, Value};

/// Slack's maximum number of blocks in one message.
pub const MAX_BLOCKS: usize = 50;
/// Slack's maximum length of a section text.
pub const MAX_SECTION_TEXT: usize = 3000;
/// Slack's maximum length of a header text.
pub const MAX_HEADER_TEXT: usize = 150;
/// Our cap on the top-level notification `text`.
pub const MAX_FALLBACK_TEXT: usize = 3000;

/// Escapes the three characters Slack treats as control characters.
pub fn slack_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            c => out.push(c),
        }
    }
    out
}

/// Escapes and fits text within `limit` characters (counted after escaping), ending in `…` when cut.
pub fn fit(s: &str, limit: usize) -> String {
    let escaped = slack_escape(s);
    if escaped.chars().count() <= limit {
        return escaped;
    }
    let mut out = String::new();
    let mut used = 0;
    for c in s.chars() {
        let piece = slack_escape(&c.to_string());
        let n = piece.chars().count();
        if used + n > limit.saturating_sub(1) {
            break;
        }
        out.push_str(&piece);
        used += n;
    }
    out.push('…');
    out
}

pub(super) fn plain(text: &str, limit: usize) -> Value {
    json!({"type": "plain_text", "text": fit(text, limit), "emoji": false})
}

/// Removes control and bidi characters from free text without cutting it (Slack limits apply later).
fn clean(s: &str) -> String {
    s.chars()
        .map(|c| {
            if super::sanitize::is_unsafe_char(c) {
                ' '
            } else {
                c
            }
        })
        .collect()
}

pub(super) fn finding_text(f: &Finding, stack: &str) -> String {
    let id = sanitize_identifier(display_id(f, stack));
    let path = sanitize_identifier(&f.path);
    let target = if path.is_empty() {
        id
    } else {
        format!("{id}.{path}")
    };
    let show = |v: &Option<Value>| {
        v.as_ref()
            .map(render_value)
            .unwrap_or_else(|| "(absent)".into())
    };
    let mut lines = vec![format!("{target}  [{}]", f.tier)];
    let subject = sanitize_identifier(display_id(f, stack));
    match f.tier {
        _ if let Some(diff) = diff_of(f, &subject) => lines.extend(diff),
        crate::finding::Tier::Deleted => lines.push("resource deleted".into()),
        crate::finding::Tier::Skipped => lines.push("not compared".into()),
        _ if f.desired.is_none() => lines.push(format!("live: {}", show(&f.actual))),
        _ => lines.push(format!("{} → {}", show(&f.desired), show(&f.actual))),
    }
    let mut origin = format!(
        "{} {}",
        sanitize_identifier(&f.resource_type),
        sanitize_identifier(&f.logical_id)
    );
    if let Some(cp) = &f.construct_path {
        origin.push_str(&format!(" ({})", sanitize_identifier(cp)));
    }
    lines.push(origin);
    if let Some(note) = &f.note {
        lines.push(sanitize_identifier(note));
    }
    if let Some(c) = f.cause.as_ref().and_then(cause_parts) {
        lines.push(clean(&c));
    }
    lines.join("\n")
}

/// A policy or list change said as members added and removed (plain text,
/// control characters stripped; `plain` escapes the rest for Slack).
pub(super) fn diff_of(f: &Finding, subject: &str) -> Option<Vec<String>> {
    if !matches!(
        f.tier,
        crate::finding::Tier::Declared
            | crate::finding::Tier::Undeclared
            | crate::finding::Tier::Added
    ) {
        return None;
    }
    let lines = change_lines(subject, &f.path, f.desired.as_ref(), f.actual.as_ref())?;
    (!lines.is_empty()).then(|| lines.iter().map(|l| sanitize_identifier(l)).collect())
}

struct Planned {
    block: Value,
    findings: usize,
}

/// The Block Kit payload for a set of stack results (only confirmed drift gets a block each).
pub fn render_slack(reports: &[StackReport]) -> Value {
    let mut planned = Vec::new();
    let mut total_drift = 0;
    let mut drifted_stacks = 0;
    for r in reports {
        let s = r.summary();
        total_drift += s.drift;
        drifted_stacks += usize::from(s.drift > 0);
        plan_stack(r, &s, &mut planned);
    }
    let blocks = fit_blocks(planned);
    let fallback = if total_drift == 0 {
        format!("realdrift: no drift in {} stacks", reports.len())
    } else {
        format!(
            "realdrift: {total_drift} drift findings in {drifted_stacks} of {} stacks",
            reports.len()
        )
    };
    // Sorted keys: the same bytes whatever serde_json's map feature set.
    sort_keys(&json!({"text": fit(&fallback, MAX_FALLBACK_TEXT), "blocks": blocks}))
}

/// One stack's blocks: its header, its facts when there are any, a section per confirmed drift.
fn plan_stack(r: &StackReport, s: &Summary, planned: &mut Vec<Planned>) {
    let account = r.account_id.as_deref().unwrap_or("?");
    let head = format!(
        "{} ({} / {}): {}",
        sanitize_identifier(&r.stack),
        sanitize_identifier(account),
        sanitize_identifier(&r.region),
        verdict_phrase(s)
    );
    planned.push(Planned {
        block: json!({"type": "header", "text": plain(&head, MAX_HEADER_TEXT)}),
        findings: 0,
    });
    let facts = stack_facts(r, s);
    if !facts.is_empty() {
        planned.push(Planned {
            block: json!({"type": "context", "elements": [plain(&facts.join(" · "), MAX_SECTION_TEXT)]}),
            findings: 0,
        });
    }
    for f in r.masked_findings().iter().filter(|f| is_confirmed_drift(f)) {
        planned.push(Planned {
            block: json!({"type": "section", "text": plain(&finding_text(f, &r.stack), MAX_SECTION_TEXT)}),
            findings: 1,
        });
    }
}

/// The verdict as a stack header states it.
fn verdict_phrase(s: &Summary) -> String {
    match s.verdict() {
        Verdict::Error => "could not be checked".to_string(),
        Verdict::NotChecked => "not checked".to_string(),
        Verdict::Drift => format!("{} drift", s.drift),
        Verdict::PotentialOnly => "no confirmed drift".to_string(),
        Verdict::NothingCompared => "nothing compared".to_string(),
        Verdict::CleanIncomplete => "no drift (coverage incomplete)".to_string(),
        Verdict::Clean => "no drift".to_string(),
    }
}

/// The stack's context line parts: why it was not checked, or its counts and coverage gap.
fn stack_facts(r: &StackReport, s: &Summary) -> Vec<String> {
    let mut facts = Vec::new();
    if let Some(err) = &r.error {
        facts.push(format!("error: {}", clean(err)));
    } else if let Some(nc) = &r.not_checked {
        facts.push(format!("not checked: {}", clean(&nc.to_string())));
    } else {
        if s.drift > 0 {
            facts.push(s.drift_breakdown());
        }
        if s.potential > 0 {
            facts.push(format!(
                "{} potential drift (not yet recorded)",
                s.potential
            ));
        }
        let sentence = coverage_sentence(&r.stack, &r.coverage, &r.not_compared, MAX_NAMED);
        if r.coverage_complete() {
            facts.push(sentence);
        } else {
            facts.push(format!("coverage incomplete: {sentence}"));
        }
    }
    facts
}

/// The planned blocks within Slack's limit, the overflow folded into an "and N more" tail.
fn fit_blocks(mut planned: Vec<Planned>) -> Vec<Value> {
    let mut blocks: Vec<Value> = Vec::new();
    if planned.len() > MAX_BLOCKS {
        let rest = planned.split_off(MAX_BLOCKS - 1);
        let more: usize = rest.iter().map(|p| p.findings).sum();
        blocks.extend(planned.into_iter().map(|p| p.block));
        let tail = if more > 0 {
            format!("…and {more} more drift findings — run realdrift check for the full list")
        } else {
            "…and more stacks — run realdrift check for the full list".to_string()
        };
        blocks.push(json!({"type": "context", "elements": [plain(&tail, MAX_SECTION_TEXT)]}));
    } else {
        blocks.extend(planned.into_iter().map(|p| p.block));
    }
    blocks
}

/// The Block Kit payload of one stack's transition: a header naming the
/// transition, the stack's current counts, then one section per finding of
/// the transition (`findings`, masked with the report's policy), within
/// Slack's block limit.
pub fn render_slack_transition(r: &StackReport, kind: SnsKind, findings: &[Finding]) -> Value {
    render_slack_storm(r, kind, findings, None)
}

/// [`render_slack_transition`] of a storm's findings: the burst's count
/// and span go into the facts line.
pub fn render_slack_storm(
    r: &StackReport,
    kind: SnsKind,
    findings: &[Finding],
    burst: Option<&super::Burst>,
) -> Value {
    let account = r.account_id.as_deref().unwrap_or("?");
    let head = format!(
        "realdrift: {} {} ({} / {})",
        kind.phrase(),
        sanitize_identifier(&r.stack),
        sanitize_identifier(account),
        sanitize_identifier(&r.region)
    );
    let s = r.summary();
    let mut facts = vec![format!(
        "now: {} drift, {} potential drift; {}",
        s.drift,
        s.potential,
        coverage_sentence(&r.stack, &r.coverage, &r.not_compared, MAX_NAMED)
    )];
    if s.drift > 0 {
        facts.push(s.drift_breakdown());
    }
    if let Some(line) = super::group::resources_line(findings, &r.stack) {
        facts.push(sanitize_identifier(&line));
    }
    if let Some(b) = burst {
        facts.insert(0, b.sentence());
    }
    let mut blocks = vec![
        json!({"type": "header", "text": plain(&head, MAX_HEADER_TEXT)}),
        json!({"type": "context", "elements": [plain(&facts.join(" · "), MAX_SECTION_TEXT)]}),
    ];
    let masked = super::mask::mask_findings(findings, &r.masks);
    let room = MAX_BLOCKS - blocks.len() - 1;
    for f in masked.iter().take(if masked.len() > room + 1 {
        room
    } else {
        room + 1
    }) {
        blocks.push(
            json!({"type": "section", "text": plain(&finding_text(f, &r.stack), MAX_SECTION_TEXT)}),
        );
    }
    let shown = blocks.len() - 2;
    if shown < masked.len() {
        let tail = format!(
            "…and {} more — run realdrift check for the full list",
            masked.len() - shown
        );
        blocks.push(json!({"type": "context", "elements": [plain(&tail, MAX_SECTION_TEXT)]}));
    }
    let fallback = format!(
        "realdrift: {} {} ({} findings)",
        kind.phrase(),
        sanitize_identifier(&r.stack),
        masked.len()
    );
    sort_keys(&json!({"text": fit(&fallback, MAX_FALLBACK_TEXT), "blocks": blocks}))
}
