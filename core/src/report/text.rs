//! The terminal report: tiered blocks, an info footer, coverage and a verdict.
//!
//! Layout (seed 000 §9): a heading per stack; the drift sections in full with
//! the count inside the brackets; potential drift in its own section; the
//! informational tiers folded into an `info:` footer (listed in full with
//! `verbose`); a coverage line that never shows a reassuring mark when nothing
//! was compared; and a `result:` line at column 0, framed by rules when any
//! section was printed. Colour only when `color` is set (the caller decides
//! from the TTY and NO_COLOR); everything else is byte-identical plain text.

use super::model::{is_confirmed_drift, is_potential_drift, StackReport, Summary, Verdict};
use super::not_compared::{coverage_sentence, MAX_NAMED};
use super::sanitize::{escape_identifier, render_value, sanitize_identifier};
use crate::events::Deployer;
use crate::finding::{Cause, Finding, Tier};
use crate::ignore::display_id;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Options of the text renderer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TextOptions {
    /// Emit ANSI colour (only on a TTY without NO_COLOR; decided by the caller).
    pub color: bool,
    /// List the informational tiers in full.
    pub verbose: bool,
}

/// Whether to colour terminal output: only on a TTY, and never when
/// `NO_COLOR` is set to a non-empty value (no-color.org). `FORCE_COLOR` is
/// deliberately not honoured, so piped output stays byte-identical.
pub fn use_color(stdout_is_tty: bool, no_color: Option<&str>) -> bool {
    stdout_is_tty && no_color.is_none_or(str::is_empty)
}

#[derive(Clone, Copy)]
enum Style {
    Red,
    Green,
    Yellow,
    Cyan,
    Bold,
}

fn paint(opts: TextOptions, style: Style, text: &str) -> String {
    if !opts.color {
        return text.to_string();
    }
    let code = match style {
        Style::Red => "1;31",
        Style::Green => "1;32",
        Style::Yellow => "33",
        Style::Cyan => "36",
        Style::Bold => "1",
    };
    format!("\u{1b}[{code}m{text}\u{1b}[0m")
}

/// Renders several stacks, one blank line between them.
pub fn render_text(reports: &[StackReport], opts: TextOptions) -> String {
    reports
        .iter()
        .map(|r| render_stack(r, opts))
        .collect::<Vec<_>>()
        .join("\n")
}

struct Section {
    title: &'static str,
    explain: &'static str,
    style: Style,
    pick: fn(&Finding) -> bool,
}

const DRIFT_SECTIONS: [Section; 5] = [
    Section {
        title: "Deleted",
        explain: "declared in the template, gone from AWS — recreate it with a deploy",
        style: Style::Red,
        pick: |f| f.tier == Tier::Deleted && !f.unrecorded,
    },
    Section {
        title: "CFn-Declared Drift",
        explain: "live value differs from the template",
        style: Style::Red,
        pick: |f| f.tier == Tier::Declared && !f.unrecorded,
    },
    Section {
        title: "CFn-Undeclared Drift",
        explain: "live-only value that differs from your baseline",
        style: Style::Yellow,
        pick: |f| f.tier == Tier::Undeclared && !f.unrecorded,
    },
    Section {
        title: "Out-of-band Resources",
        explain: "live resources the template does not declare",
        style: Style::Yellow,
        pick: |f| f.tier == Tier::Added && !f.unrecorded,
    },
    Section {
        title: "Potential Drift",
        explain: "live-only and not yet in your baseline, so realdrift can't tell whether it's intended or an out-of-band change — record it to accept it, or revert it to remove it",
        style: Style::Cyan,
        pick: is_potential_drift,
    },
];

const INFO_TIERS: [(Tier, &str); 4] = [
    (Tier::Ignored, "Ignored"),
    (Tier::ReadGap, "Read Gap"),
    (Tier::Unresolved, "Unresolved"),
    (Tier::Skipped, "Skipped"),
];

/// Renders one stack.
pub fn render_stack(r: &StackReport, opts: TextOptions) -> String {
    let mut out = String::new();
    write_heading(&mut out, r, opts);
    if write_unchecked(&mut out, r, opts) {
        return out;
    }

    let findings = r.masked_findings();
    let summary = r.summary();
    let printed = write_drift_sections(&mut out, &findings, &r.stack, opts);
    if summary.potential > 0 && !r.has_baseline {
        let _ = writeln!(
            out,
            "No baseline yet — every live-only value is potential drift. Record the ones you accept (realdrift record) to start watching them."
        );
    }
    if opts.verbose {
        write_info_sections(&mut out, &findings, &r.stack, printed);
    }
    for note in &r.notes {
        let _ = writeln!(out, "note: {}", sanitize_identifier(note));
    }
    if !opts.verbose {
        write_info(&mut out, &findings);
    }
    let _ = writeln!(out, "{}", coverage_line(r, &summary, opts));
    write_result(&mut out, &findings, &summary, opts);
    out
}

/// "stack (account / region)", or "stack (region)" when the account is unknown.
fn write_heading(out: &mut String, r: &StackReport, opts: TextOptions) {
    let stack = sanitize_identifier(&r.stack);
    let account = r.account_id.as_deref().map(sanitize_identifier);
    let region = sanitize_identifier(&r.region);
    let heading = match account {
        Some(a) => format!("{stack} ({a} / {region})"),
        None => format!("{stack} ({region})"),
    };
    let _ = writeln!(out, "{}", paint(opts, Style::Bold, &heading));
}

/// The reason and result of a stack that errored or was not checked; false
/// (nothing written) when it was checked.
fn write_unchecked(out: &mut String, r: &StackReport, opts: TextOptions) -> bool {
    if let Some(err) = &r.error {
        let _ = writeln!(
            out,
            "{} {}",
            paint(opts, Style::Red, "✗"),
            sanitize_identifier(&format!("could not be checked: {err}"))
        );
        let _ = writeln!(out, "result: {}", paint(opts, Style::Red, "ERROR"));
        return true;
    }
    if let Some(nc) = &r.not_checked {
        let _ = writeln!(
            out,
            "{} {}",
            paint(opts, Style::Yellow, "⚠"),
            sanitize_identifier(&format!("not checked: {nc}"))
        );
        let _ = writeln!(out, "result: {}", paint(opts, Style::Yellow, "NOT CHECKED"));
        return true;
    }
    false
}

/// The non-empty drift sections; returns how many were printed.
fn write_drift_sections(
    out: &mut String,
    findings: &[Finding],
    stack: &str,
    opts: TextOptions,
) -> usize {
    let mut printed = 0usize;
    for section in &DRIFT_SECTIONS {
        let picked: Vec<&Finding> = findings.iter().filter(|f| (section.pick)(f)).collect();
        if picked.is_empty() {
            continue;
        }
        let header = format!("[{}: {}]", section.title, picked.len());
        let header = format!(
            "{} {}",
            paint(opts, section.style, &header),
            section.explain
        );
        write_block(out, &mut printed, &header, &picked, stack);
    }
    printed
}

/// The informational tiers in full (verbose), after `printed` earlier sections.
fn write_info_sections(out: &mut String, findings: &[Finding], stack: &str, mut printed: usize) {
    for (tier, title) in INFO_TIERS {
        let picked: Vec<&Finding> = findings.iter().filter(|f| f.tier == tier).collect();
        if picked.is_empty() {
            continue;
        }
        let header = format!("[{title}: {}] informational, never drift", picked.len());
        write_block(out, &mut printed, &header, &picked, stack);
    }
}

/// One section: a blank line unless it is the first, its header, its findings.
fn write_block(
    out: &mut String,
    printed: &mut usize,
    header: &str,
    picked: &[&Finding],
    stack: &str,
) {
    if *printed > 0 {
        out.push('\n');
    }
    *printed += 1;
    let _ = writeln!(out, "{header}");
    for f in picked {
        write_finding(out, f, stack);
    }
}

/// The `result:` line, framed by rules when any drift section was printed.
fn write_result(out: &mut String, findings: &[Finding], summary: &Summary, opts: TextOptions) {
    let verdict = verdict_text(summary);
    let styled = match summary.verdict() {
        Verdict::Clean => paint(opts, Style::Green, &verdict),
        Verdict::Drift | Verdict::Error => paint(opts, Style::Red, &verdict),
        _ => paint(opts, Style::Yellow, &verdict),
    };
    let any_drift_section = findings
        .iter()
        .any(|f| is_confirmed_drift(f) || is_potential_drift(f));
    if any_drift_section {
        let rule = "─".repeat(verdict.chars().count() + "result: ".len());
        let _ = writeln!(
            out,
            "\n{rule}\n{}{styled}\n{rule}",
            paint(opts, Style::Bold, "result: ")
        );
    } else {
        let _ = writeln!(out, "{}{styled}", paint(opts, Style::Bold, "result: "));
    }
}

fn write_finding(out: &mut String, f: &Finding, stack: &str) {
    // Escaped, not stripped: the printed path is what an ignore rule takes.
    let id = escape_identifier(display_id(f, stack));
    let path = escape_identifier(&f.path);
    let target = if path.is_empty() {
        id
    } else {
        format!("{id}.{path}")
    };
    let shown = |v: &Option<serde_json::Value>| {
        v.as_ref()
            .map(render_value)
            .unwrap_or_else(|| "(absent)".to_string())
    };
    let line = match f.tier {
        Tier::Deleted => format!("{target}: resource deleted"),
        Tier::Undeclared | Tier::Added if f.desired.is_none() => {
            format!("{target}: {}", shown(&f.actual))
        }
        Tier::Declared | Tier::Undeclared | Tier::Added | Tier::Ignored => {
            format!("{target}: {} → {}", shown(&f.desired), shown(&f.actual))
        }
        _ => target,
    };
    let _ = writeln!(out, "  {line}");
    let mut origin = format!(
        "{} {}",
        sanitize_identifier(&f.resource_type),
        sanitize_identifier(&f.logical_id)
    );
    if let Some(note) = &f.note {
        let _ = write!(origin, " · {}", sanitize_identifier(note));
    }
    let _ = writeln!(out, "    ↳ {origin}");
    if let Some(cause) = &f.cause {
        if let Some(c) = cause_text(cause) {
            let _ = writeln!(out, "    ↳ {c}");
        }
    }
}

/// "by <actor> at <time> from <ip> via <event>" (each part only when known).
pub(crate) fn cause_parts(c: &Cause) -> Option<String> {
    let mut parts = Vec::new();
    let who = c
        .actor
        .arn
        .as_ref()
        .or(c.actor.user_name.as_ref())
        .or(c.actor.invoked_by.as_ref());
    let by = match &c.through {
        // A custom resource's provider function, named with its stack.
        Some(d) if d.provider.is_some() => format!("by {} as", provider_text(d)),
        // Not a console edit: a deployment made the call for the actor.
        Some(d) => format!("by {} for", d.kind.label()),
        None => "by".to_string(),
    };
    if let Some(a) = who {
        match &c.actor.identity_type {
            Some(t) => parts.push(format!("{by} {a} ({t})")),
            None => parts.push(format!("{by} {a}")),
        }
    } else if let Some(d) = &c.through {
        match d.provider {
            Some(_) => parts.push(format!("by {}", provider_text(d))),
            None => parts.push(format!("by {}", d.kind.label())),
        }
    }
    let other_stack = c.through.as_ref().filter(|d| d.provider.is_none());
    if let Some(stack) = other_stack.and_then(|d| d.stack.as_ref()) {
        parts.push(format!("deploying stack {stack}"));
    }
    if let Some(t) = &c.event_time {
        parts.push(format!("at {t}"));
    }
    if let Some(ip) = &c.source_ip {
        parts.push(format!("from {ip}"));
    }
    if c.console {
        parts.push("in the console".into());
    }
    if !c.event_name.is_empty() {
        if c.event_source.is_empty() {
            parts.push(format!("via {}", c.event_name));
        } else {
            parts.push(format!("via {} ({})", c.event_name, c.event_source));
        }
    }
    if let Some(ua) = &c.user_agent {
        parts.push(format!("using {ua}"));
    }
    (!parts.is_empty()).then(|| parts.join(" "))
}

/// "custom resource <Logical> of stack <S> (function F)".
fn provider_text(d: &Deployer) -> String {
    let Some(p) = &d.provider else {
        return d.kind.label().to_string();
    };
    let mut out = format!("custom resource {}", p.custom_resources.join(", "));
    if let Some(stack) = &d.stack {
        let _ = write!(out, " of stack {stack}");
    }
    if !p.functions.is_empty() {
        let _ = write!(out, " (function {})", p.functions.join(", "));
    }
    out
}

fn cause_text(c: &Cause) -> Option<String> {
    cause_parts(c).map(|s| sanitize_identifier(&s))
}

fn write_info(out: &mut String, findings: &[Finding]) {
    let mut lines = Vec::new();
    for (tier, _) in INFO_TIERS {
        let picked: Vec<&Finding> = findings.iter().filter(|f| f.tier == tier).collect();
        if picked.is_empty() {
            continue;
        }
        let mut reasons: BTreeMap<String, usize> = BTreeMap::new();
        for f in &picked {
            let reason = f
                .note
                .as_deref()
                .map(short_reason)
                .unwrap_or_else(|| "no reason given".into());
            *reasons.entry(reason).or_default() += 1;
        }
        let breakdown = reasons
            .iter()
            .map(|(r, n)| format!("{r} {n}"))
            .collect::<Vec<_>>()
            .join(", ");
        lines.push(format!("{tier}={} ({breakdown})", picked.len()));
    }
    match lines.len() {
        0 => {}
        1 => {
            let _ = writeln!(out, "info: {}", lines[0]);
        }
        _ => {
            let _ = writeln!(out, "info: (--verbose lists them)");
            for l in lines {
                let _ = writeln!(out, "  • {l}");
            }
        }
    }
}

fn short_reason(note: &str) -> String {
    let clean = sanitize_identifier(note);
    let mut s: String = clean.chars().take(60).collect();
    if clean.chars().count() > 60 {
        s.push_str("...");
    }
    s
}

fn coverage_line(r: &StackReport, summary: &Summary, opts: TextOptions) -> String {
    let c = &r.coverage;
    let mut gaps = Vec::new();
    // Skips the sentence does not name (hand-built reports) are still counted.
    if c.skipped > r.not_compared.len() {
        gaps.push(format!("{} skipped", c.skipped));
    }
    if c.lost > 0 {
        gaps.push(format!("coverage lost on {}", c.lost));
    }
    if c.accepted > 0 {
        gaps.push(format!("{} accepted in ignore.yaml", c.accepted));
    }
    if c.nested_not_recursed > 0 {
        gaps.push(format!(
            "{} nested stacks not checked",
            c.nested_not_recursed
        ));
    }
    let gaps = if gaps.is_empty() {
        String::new()
    } else {
        format!(" ({})", gaps.join(", "))
    };
    let sentence = coverage_sentence(&r.stack, c, &r.not_compared, MAX_NAMED);
    if c.nothing_compared() && c.total > 0 {
        return format!(
            "{} NOTHING was compared — {sentence}{gaps}",
            paint(opts, Style::Yellow, "⚠"),
        );
    }
    if !r.coverage_complete() {
        return format!(
            "{} coverage incomplete — {sentence}{gaps}",
            paint(opts, Style::Yellow, "⚠"),
        );
    }
    if summary.verdict() == Verdict::Clean {
        format!("{} {sentence}", paint(opts, Style::Green, "✓"))
    } else {
        format!("coverage: {sentence}")
    }
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The verdict after `result: `.
pub fn verdict_text(s: &Summary) -> String {
    let drift = || {
        format!(
            "{} ({})",
            plural(s.drift, "drift", "drifts"),
            s.drift_breakdown()
        )
    };
    match s.verdict() {
        Verdict::Error => "ERROR".into(),
        Verdict::NotChecked => "NOT CHECKED".into(),
        Verdict::Drift if s.potential > 0 => format!(
            "{} — {} + {} potential drift",
            plural(s.drift + s.potential, "finding", "findings"),
            drift(),
            s.potential
        ),
        Verdict::Drift => drift(),
        Verdict::PotentialOnly => format!("no confirmed drift — {} potential drift", s.potential),
        Verdict::NothingCompared => "nothing compared".into(),
        Verdict::CleanIncomplete => "no drift in what was checked (coverage incomplete)".into(),
        Verdict::Clean => "CLEAN".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colour_needs_a_tty_and_no_no_color() {
        assert!(use_color(true, None));
        assert!(use_color(true, Some("")));
        assert!(!use_color(true, Some("1")));
        assert!(!use_color(false, None));
    }
}
