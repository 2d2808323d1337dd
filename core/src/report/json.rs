//! The `--json` report: one stable, documented schema (docs/json-output.md).
//!
//! Every finding is included (secrets masked), plus coverage, per-tier counts
//! and the exit-relevant summary. Values are not sanitized — a consumer wants
//! the stored value — but every control, format and separator character is
//! written as a `\uXXXX` escape, so printing the document cannot steer a terminal.

use super::exit::{exit_code, ExitFlags};
use super::model::StackReport;
use super::not_compared::coverage_sentence;
use super::sanitize::escape_json_text;
use crate::baseline::sort_keys;
use crate::finding::Tier;
use serde_json::{json, Map, Value};

/// The schema identifier of the JSON report.
pub const JSON_SCHEMA: &str = "realdrift.check.v1";

/// The JSON document as a value (keys sorted when printed).
pub fn json_value(reports: &[StackReport], flags: ExitFlags) -> Value {
    let mut drift = 0;
    let mut potential = 0;
    let mut incomplete = 0;
    let mut lost = 0;
    let mut not_checked = 0;
    let mut errors = 0;
    let mut stacks = Vec::new();
    for r in reports {
        let s = r.summary();
        drift += s.drift;
        potential += s.potential;
        let checked = r.error.is_none() && r.not_checked.is_none();
        incomplete += usize::from(checked && !r.coverage_complete());
        lost += usize::from(r.error.is_none() && r.coverage_lost());
        not_checked += usize::from(r.error.is_none() && r.not_checked.is_some());
        errors += usize::from(r.error.is_some());
        let mut counts = Map::new();
        for t in Tier::ALL {
            counts.insert(
                t.as_str().into(),
                json!(s.by_tier.get(&t).copied().unwrap_or(0)),
            );
        }
        let mut drift_by_tier = Map::new();
        for (t, n) in &s.drift_by_tier {
            drift_by_tier.insert(t.as_str().into(), json!(n));
        }
        stacks.push(json!({
            "stack": r.stack,
            "accountId": r.account_id,
            "region": r.region,
            "status": s.verdict().as_str(),
            "error": r.error,
            "notChecked": r.not_checked.as_ref().map(ToString::to_string),
            "hasBaseline": r.has_baseline,
            "coverage": coverage_json(r),
            "counts": counts,
            "drift": s.drift,
            "driftByTier": drift_by_tier,
            "potentialDrift": s.potential,
            "notes": r.notes,
            "findings": r.masked_findings(),
        }));
    }
    json!({
        "schema": JSON_SCHEMA,
        "exitCode": exit_code(reports, flags).code(),
        "summary": {
            "stacks": reports.len(),
            "drift": drift,
            "potentialDrift": potential,
            "incompleteStacks": incomplete,
            "coverageLostStacks": lost,
            "notChecked": not_checked,
            "errors": errors,
        },
        "stacks": stacks,
    })
}

/// A stack's `coverage` object (the check report and the SNS document
/// share it): the counts, whether it is complete or lost, the sentence every
/// report form prints, and each resource not compared with why.
pub(super) fn coverage_json(r: &StackReport) -> Value {
    let c = &r.coverage;
    json!({
        "total": c.total,
        "checked": c.checked,
        "skipped": c.skipped,
        "lost": c.lost,
        "accepted": c.accepted,
        "nestedNotRecursed": c.nested_not_recursed,
        "complete": r.coverage_complete(),
        "coverageLost": r.coverage_lost(),
        "summary": coverage_sentence(&r.stack, c, &r.not_compared, usize::MAX),
        "notCompared": r.not_compared,
    })
}

/// The JSON report text: sorted keys, 2-space indent, trailing newline, unsafe characters escaped.
pub fn render_json(reports: &[StackReport], flags: ExitFlags) -> String {
    let value = sort_keys(&json_value(reports, flags));
    let text = serde_json::to_string_pretty(&value).unwrap_or_else(|_| "null".into());
    let mut out = escape_json_text(&text);
    out.push('\n');
    out
}
