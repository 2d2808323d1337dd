//! The verdict per item (pure): its write failed, or the re-check after the
//! revert still shows drift at its path, or it converged.

use super::batch::Batch;
use super::model::{ItemKind, RevertPlan};
use super::outcome::{ItemResult, ItemStatus, RevertOutcome, WriteOutcome};
use super::plan::item_id;
use crate::finding::{Finding, Tier};
use crate::report::StackReport;
use std::collections::{BTreeMap, BTreeSet};

/// The outcome of a plan from its batches' writes and the re-check of the
/// touched resources. `before` is the check the plan was built from;
/// `unverified` names touched resources that could not be re-read.
pub fn convergence(
    plan: &RevertPlan,
    written: &[(Batch, WriteOutcome)],
    before: &StackReport,
    after: &StackReport,
    unverified: &BTreeMap<String, String>,
) -> RevertOutcome {
    let remaining: BTreeSet<String> = drift_ids(after);
    let items = plan
        .items
        .iter()
        .map(|item| {
            let write = written
                .iter()
                .find(|(b, _)| b.item_ids.contains(&item.id))
                .map(|(_, o)| o.clone());
            let (status, error, note) = match write {
                None => (
                    ItemStatus::Failed,
                    None,
                    Some("no write was made for this item".to_string()),
                ),
                Some(WriteOutcome { error: Some(e), .. }) => (ItemStatus::Failed, Some(e), None),
                Some(_) => verdict(
                    &item.resource.logical_id,
                    base_id(&item.id),
                    item.kind,
                    &remaining,
                    unverified,
                ),
            };
            ItemResult {
                id: item.id.clone(),
                resource: item.resource.clone(),
                path: item.path.clone(),
                writer: item.writer,
                status,
                attempts: written
                    .iter()
                    .find(|(b, _)| b.item_ids.contains(&item.id))
                    .map_or(0, |(_, o)| o.attempts),
                error,
                note,
            }
        })
        .collect();
    RevertOutcome {
        stack: plan.stack.clone(),
        account: plan.account.clone(),
        region: plan.region.clone(),
        digest: plan.digest.clone(),
        items,
        other_drift: other_drift(plan, written, before, after),
    }
}

fn verdict(
    logical_id: &str,
    id: &str,
    kind: ItemKind,
    remaining: &BTreeSet<String>,
    unverified: &BTreeMap<String, String>,
) -> (
    ItemStatus,
    Option<super::outcome::WriteError>,
    Option<String>,
) {
    if let Some(why) = unverified.get(logical_id) {
        return (ItemStatus::Unverified, None, Some(why.clone()));
    }
    let still = if kind == ItemKind::Delete {
        remaining.contains(id)
    } else {
        // A property whose resource is now gone did not converge either.
        remaining.contains(id) || remaining.contains(logical_id)
    };
    if still {
        let note = if kind == ItemKind::Delete {
            "the resource is still there after the delete"
        } else {
            "the re-read still shows drift at this path"
        };
        (ItemStatus::NotConverged, None, Some(note.into()))
    } else {
        (ItemStatus::Converged, None, None)
    }
}

/// The item ids of every drift finding of a report (potential drift included).
fn drift_ids(report: &StackReport) -> BTreeSet<String> {
    report
        .findings
        .iter()
        .filter(|f| f.tier.is_drift())
        .map(item_id)
        .collect()
}

/// An item id without the `#n` suffix that told repeated ids apart.
fn base_id(id: &str) -> &str {
    match id.rsplit_once('#') {
        Some((base, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => base,
        _ => id,
    }
}

/// Drift on a written resource that was not drift before and no item is
/// about: something the write moved besides its target.
fn other_drift(
    plan: &RevertPlan,
    written: &[(Batch, WriteOutcome)],
    before: &StackReport,
    after: &StackReport,
) -> Vec<String> {
    let touched: BTreeSet<&str> = written
        .iter()
        .filter(|(_, o)| o.error.is_none())
        .map(|(b, _)| b.resource.logical_id.as_str())
        .collect();
    let known: BTreeSet<String> = drift_ids(before);
    let items: BTreeSet<&str> = plan.items.iter().map(|i| base_id(&i.id)).collect();
    let new = |f: &&Finding| {
        let id = item_id(f);
        f.tier.is_drift()
            && f.tier != Tier::Deleted
            && touched.contains(f.logical_id.as_str())
            && !known.contains(&id)
            && !items.contains(id.as_str())
    };
    after
        .findings
        .iter()
        .filter(new)
        .map(|f| format!("{}.{}", f.logical_id, f.path))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeat_suffixes_are_stripped_only_when_numeric() {
        assert_eq!(base_id("Q:Tags#2"), "Q:Tags");
        assert_eq!(base_id("Q:Policies[a#b]"), "Q:Policies[a#b]");
        assert_eq!(base_id("Q:Path#"), "Q:Path#");
    }
}
