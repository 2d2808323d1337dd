//! The Organization view as terminal text and as one self-contained HTML page
//! (inline style, no script, no external asset). Every name in it comes from
//! member documents, so it is untrusted: escaped for terminals in text, and
//! HTML-escaped in the page.

use super::org_status::StackStatus;
use super::org_view::{iso_time, OrgView};
use super::sanitize::escape_identifier;
use std::fmt::Write as _;

/// Text with `& < > " '` written as HTML entities, safe in element content
/// and in quoted attribute values.
pub fn html_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if c.is_control() && c != '\n' && c != '\t' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

fn coverage_text(s: &StackStatus) -> String {
    format!("{}/{} compared", s.compared, s.total)
}

/// The view's headline as terminal text: the totals, the oldest unresolved
/// drift and who changed what most (the hub's scheduled summary says this).
pub fn render_org_headline(view: &OrgView) -> String {
    let mut out = String::new();
    let stacks: Vec<&StackStatus> = view.stacks().collect();
    let drift: usize = stacks.iter().map(|s| s.drift).sum();
    let _ = writeln!(
        out,
        "{} account(s), {} stack(s), {} drifted propert(ies) in {} stack(s)",
        view.accounts.len(),
        stacks.len(),
        drift,
        stacks.iter().filter(|s| s.drift > 0).count()
    );
    if let Some(o) = view.oldest_drift() {
        let _ = writeln!(
            out,
            "oldest unresolved drift: account {}, {}, stack {}, since {}",
            escape_identifier(&o.account),
            escape_identifier(&o.region),
            escape_identifier(&o.stack),
            iso_time(o.since_ms)
        );
    }
    if !view.actors.is_empty() {
        let _ = writeln!(out, "who changed what most:");
        for (who, n) in &view.actors {
            let _ = writeln!(out, "  {n:>5}  {}", escape_identifier(who));
        }
    }
    out
}

/// The view as terminal text.
pub fn render_org_text(view: &OrgView) -> String {
    let mut out = render_org_headline(view);
    for (account, regions) in &view.accounts {
        let _ = writeln!(
            out,
            "\n=== account {}: {} drifted ===",
            escape_identifier(account),
            view.account_drift(account)
        );
        for (region, stacks) in regions {
            for s in stacks {
                let mark = if s.drift > 0 { "DRIFT" } else { "ok   " };
                let _ = write!(
                    out,
                    "  {mark} {} {}: {} drifted, {}",
                    escape_identifier(region),
                    escape_identifier(&s.stack),
                    s.drift,
                    coverage_text(s)
                );
                if let Some(t) = s.oldest_drift_ms() {
                    let _ = write!(out, ", drift since {}", iso_time(t));
                }
                let _ = writeln!(out);
                for n in &s.not_compared {
                    let _ = writeln!(
                        out,
                        "        not compared: {} ({}: {})",
                        escape_identifier(&n.logical_id),
                        escape_identifier(&n.resource_type),
                        escape_identifier(&n.reason)
                    );
                }
            }
        }
    }
    for (key, err) in &view.errors {
        let _ = writeln!(
            out,
            "error: {}: {}",
            escape_identifier(key),
            escape_identifier(err)
        );
    }
    out
}

const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:2em;color:#222}\
table{border-collapse:collapse;margin-bottom:1.5em;min-width:40em}\
th,td{border:1px solid #ccc;padding:.3em .6em;text-align:left}\
th{background:#f3f3f3}tr.drift td{background:#fde2e1}td.n{text-align:right}\
.err{color:#a00}.small{color:#666;font-size:.9em}";

/// The view as one self-contained HTML page: a summary, then a table per
/// account, drifted stacks highlighted.
pub fn render_org_html(view: &OrgView) -> String {
    let mut out = String::new();
    let stacks: Vec<&StackStatus> = view.stacks().collect();
    let drift: usize = stacks.iter().map(|s| s.drift).sum();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <title>realdrift: Organization drift</title><style>{STYLE}</style></head><body>\n\
         <h1>Drift across the Organization</h1>\n<p>{} account(s), {} stack(s), \
         <strong>{drift}</strong> drifted propert(ies) in {} stack(s).</p>\n",
        view.accounts.len(),
        stacks.len(),
        stacks.iter().filter(|s| s.drift > 0).count()
    );
    if let Some(o) = view.oldest_drift() {
        let _ = writeln!(
            out,
            "<p>Oldest unresolved drift: account {}, {}, stack {}, since {}.</p>",
            html_escape(&o.account),
            html_escape(&o.region),
            html_escape(&o.stack),
            iso_time(o.since_ms)
        );
    }
    if !view.actors.is_empty() {
        out.push_str("<h2>Who changed what most</h2>\n<table><tr><th>actor</th><th>drifted properties</th></tr>\n");
        for (who, n) in &view.actors {
            let _ = writeln!(
                out,
                "<tr><td>{}</td><td class=\"n\">{n}</td></tr>",
                html_escape(who)
            );
        }
        out.push_str("</table>\n");
    }
    for (account, regions) in &view.accounts {
        let _ = writeln!(
            out,
            "<h2>Account {} <span class=\"small\">{} drifted</span></h2>\n<table>\
             <tr><th>region</th><th>stack</th><th>drifted</th><th>coverage</th>\
             <th>drift since</th><th>not compared</th></tr>",
            html_escape(account),
            view.account_drift(account)
        );
        for (region, stacks) in regions {
            for s in stacks {
                html_row(&mut out, region, s);
            }
        }
        out.push_str("</table>\n");
    }
    if !view.errors.is_empty() {
        out.push_str("<h2>Unreadable status documents</h2>\n<ul>\n");
        for (key, err) in &view.errors {
            let _ = writeln!(
                out,
                "<li class=\"err\">{}: {}</li>",
                html_escape(key),
                html_escape(err)
            );
        }
        out.push_str("</ul>\n");
    }
    out.push_str("</body></html>\n");
    out
}

fn html_row(out: &mut String, region: &str, s: &StackStatus) {
    let class = if s.drift > 0 { " class=\"drift\"" } else { "" };
    let not_compared: Vec<String> = s
        .not_compared
        .iter()
        .map(|n| {
            format!(
                "{} ({}: {})",
                html_escape(&n.logical_id),
                html_escape(&n.resource_type),
                html_escape(&n.reason)
            )
        })
        .collect();
    let _ = writeln!(
        out,
        "<tr{class}><td>{}</td><td>{}</td><td class=\"n\">{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
        html_escape(region),
        html_escape(&s.stack),
        s.drift,
        coverage_text(s),
        s.oldest_drift_ms().map(iso_time).unwrap_or_default(),
        not_compared.join("<br>")
    );
}
