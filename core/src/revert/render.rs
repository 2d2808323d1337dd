//! The plan for a human: revertable items in full (path, current -> target),
//! refused findings folded to one line per reason (listed in full with
//! `verbose`). Plain text; every identifier and value from AWS, a template or
//! a baseline is escaped as the check report escapes it.

use super::model::{ItemKind, Operation, PlanItem, RefusalReason, RevertPlan};
use crate::report::{is_unsafe_char, render_value, sanitize_identifier};
use serde_json::Value;
use std::fmt::Write as _;

/// Options of the plan renderer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PlanTextOptions {
    /// List every refused finding with its message.
    pub verbose: bool,
}

/// Renders a plan as terminal text.
pub fn render_plan(plan: &RevertPlan, opts: PlanTextOptions) -> String {
    let mut out = String::new();
    let id = sanitize_identifier;
    let place = match (&plan.account, &plan.region) {
        (Some(a), Some(r)) => format!(" ({} / {})", id(a), id(r)),
        (None, Some(r)) => format!(" ({})", id(r)),
        (Some(a), None) => format!(" ({})", id(a)),
        (None, None) => String::new(),
    };
    let _ = writeln!(out, "revert plan: {}{place}", id(&plan.stack));
    if plan.items.is_empty() {
        let _ = writeln!(out, "\nnothing to revert");
    } else {
        let _ = writeln!(out, "\nRevertable ({}):", plan.items.len());
        for item in &plan.items {
            render_item(&mut out, item);
        }
    }
    if !plan.reincluded.is_empty() {
        let _ = writeln!(
            out,
            "\nWrite-only properties re-sent with their resource's patch (the read cannot return them):"
        );
        for r in &plan.reincluded {
            let _ = writeln!(out, "  {}.{}", id(&r.logical_id), id(&r.property));
        }
    }
    render_refused(&mut out, plan, opts);
    if !plan.not_selected.is_empty() {
        let ids: Vec<String> = plan.not_selected.iter().map(|s| id(s)).collect();
        let _ = writeln!(out, "\nNot selected ({}): {}", ids.len(), ids.join(", "));
    }
    if !plan.unmatched_selection.is_empty() {
        let ids: Vec<String> = plan.unmatched_selection.iter().map(|s| id(s)).collect();
        let _ = writeln!(
            out,
            "\nSelected ids that name no revertable item ({}): {}",
            ids.len(),
            ids.join(", ")
        );
    }
    let _ = writeln!(out, "\ndigest: {}", id(&plan.digest));
    out
}

fn render_item(out: &mut String, item: &PlanItem) {
    let id = sanitize_identifier;
    let mut labels = vec![item.writer.as_str().to_string()];
    match item.kind {
        ItemKind::Remove => labels.push("REMOVE".into()),
        ItemKind::Delete => labels.push("DELETE".into()),
        ItemKind::ExplicitDefault => labels.push("REMOVE, writes the documented default".into()),
        ItemKind::Template | ItemKind::Baseline => {}
    }
    if item.unrecorded {
        labels.push("unrecorded".into());
    }
    let name = if item.path.is_empty() {
        id(&item.resource.logical_id)
    } else {
        format!("{}.{}", id(&item.resource.logical_id), id(&item.path))
    };
    let _ = writeln!(
        out,
        "  {name}  ({})  [{}]",
        id(&item.resource.resource_type),
        labels.join(", ")
    );
    if matches!(item.operation, Operation::CloudControlDelete) || item.kind == ItemKind::Delete {
        let pid = item.resource.physical_id.as_deref().unwrap_or("?");
        let _ = writeln!(out, "      delete {}", id(pid));
        return;
    }
    let _ = writeln!(
        out,
        "      {} -> {}",
        side(item.current.as_ref(), "(absent)"),
        side(item.target.as_ref(), "(removed)")
    );
    if !item.preserved_tags.is_empty() {
        let keys: Vec<String> = item.preserved_tags.iter().map(|k| id(k)).collect();
        let _ = writeln!(out, "      keeps tags: {}", keys.join(", "));
    }
}

fn side(v: Option<&Value>, absent: &str) -> String {
    v.map(render_value).unwrap_or_else(|| absent.to_string())
}

fn render_refused(out: &mut String, plan: &RevertPlan, opts: PlanTextOptions) {
    if plan.refused.is_empty() {
        return;
    }
    let _ = writeln!(out, "\nNot revertable ({}):", plan.refused.len());
    for reason in RefusalReason::ALL {
        let of: Vec<_> = plan.refused.iter().filter(|r| r.reason == reason).collect();
        if of.is_empty() {
            continue;
        }
        let _ = writeln!(out, "  {} ({})", reason.summary(), of.len());
        if opts.verbose {
            for r in of {
                let _ = writeln!(
                    out,
                    "    {}: {}",
                    sanitize_identifier(&r.id),
                    plain(&r.message)
                );
            }
        }
    }
    if !opts.verbose {
        let _ = writeln!(out, "  (verbose lists each one)");
    }
}

/// Our own message text, which may quote template names: controls become spaces.
fn plain(s: &str) -> String {
    s.chars()
        .map(|c| if is_unsafe_char(c) { ' ' } else { c })
        .collect()
}
