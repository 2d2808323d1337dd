//! What a finding asks for: the change at its path, decided from its tier and
//! its baseline outcome (seed 000 §7 "Targets", §8 per-entry semantics).

use super::model::{ItemKind, RefusalReason};
use super::rules::revert_facts;
use crate::baseline::{NOTE_APPEARED, NOTE_CHANGED, NOTE_DEFAULT_DELETED, NOTE_REMOVED};
use crate::finding::{Finding, Tier};
use serde_json::Value;

/// The change a revert makes at a finding's path.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Change {
    /// Write this value at the path.
    Set(Value),
    /// Remove the value at the path.
    Remove,
    /// Delete the whole (out-of-band) resource.
    Delete,
}

/// A decided change and where its target comes from.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Decision {
    pub change: Change,
    pub kind: ItemKind,
    pub unrecorded: bool,
}

/// A refusal before any writer is considered.
pub(crate) type Refused = (RefusalReason, String);

/// The change a drift finding asks for; `Ok(None)` for a tier that is not drift.
pub(crate) fn decide(f: &Finding, remove_unrecorded: bool) -> Result<Option<Decision>, Refused> {
    match f.tier {
        Tier::AtDefault | Tier::Generated | Tier::Ignored => Ok(None),
        Tier::Deleted => Err((
            RefusalReason::Deleted,
            "the resource is gone; a patch cannot recreate it — deploy the stack to recreate it"
                .into(),
        )),
        Tier::ReadGap => Err((
            RefusalReason::ReadGap,
            "the live read cannot return this value, so it was never compared".into(),
        )),
        Tier::Unresolved => Err((
            RefusalReason::Unresolved,
            "the template value could not be resolved with certainty; no target to write".into(),
        )),
        Tier::Skipped => Err((
            RefusalReason::Skipped,
            "the resource was not read; nothing was compared".into(),
        )),
        Tier::Declared => template_target(f).map(Some),
        // A declared list in another order: the template's value is the target.
        Tier::Undeclared if f.order_only => template_target(f).map(Some),
        Tier::Undeclared => undeclared(f, remove_unrecorded).map(Some),
        Tier::Added => added(f, remove_unrecorded).map(Some),
    }
}

/// Writing the template's value back (the finding's `desired`).
fn template_target(f: &Finding) -> Result<Decision, Refused> {
    match &f.desired {
        Some(v) => Ok(Decision {
            change: Change::Set(v.clone()),
            kind: ItemKind::Template,
            unrecorded: false,
        }),
        None => Err((
            RefusalReason::NoTarget,
            "the finding carries no template value".into(),
        )),
    }
}

fn unrecorded_refusal() -> Refused {
    (
        RefusalReason::Unrecorded,
        "no baseline entry, so there is no revert target: record it if the live value is right, or ask to remove unrecorded values"
            .into(),
    )
}

/// True when the baseline stage confirmed the finding as drift (it names how).
/// A live-only finding that never went through the baseline is treated as
/// unrecorded: without a baseline outcome there is no certain target.
fn confirmed(f: &Finding) -> bool {
    !f.unrecorded
        && f.note.as_deref().is_some_and(|n| {
            [
                NOTE_CHANGED,
                NOTE_APPEARED,
                NOTE_REMOVED,
                NOTE_DEFAULT_DELETED,
            ]
            .contains(&n)
        })
}

fn undeclared(f: &Finding, remove_unrecorded: bool) -> Result<Decision, Refused> {
    if !confirmed(f) {
        if !remove_unrecorded {
            return Err(unrecorded_refusal());
        }
        return removal(f, true);
    }
    match (&f.desired, &f.actual) {
        // Changed since record, removed since record, or a tracked default deleted.
        (Some(v), _) => Ok(Decision {
            change: Change::Set(v.clone()),
            kind: ItemKind::Baseline,
            unrecorded: false,
        }),
        // Appeared since record on a snapshot-complete resource.
        (None, Some(_)) => removal(f, false),
        (None, None) => Err((
            RefusalReason::NoTarget,
            "neither a recorded nor a live value is known at this path".into(),
        )),
    }
}

/// Removal of a live-only value, or the documented default where the service
/// keeps an omitted value.
fn removal(f: &Finding, unrecorded: bool) -> Result<Decision, Refused> {
    if f.actual.is_none() {
        return Err((
            RefusalReason::NoTarget,
            "no live value at this path to remove".into(),
        ));
    }
    let (change, kind) = match revert_facts().explicit_default(&f.resource_type, &f.path) {
        Some(d) => (Change::Set(d.value.clone()), ItemKind::ExplicitDefault),
        None => (Change::Remove, ItemKind::Remove),
    };
    Ok(Decision {
        change,
        kind,
        unrecorded,
    })
}

fn added(f: &Finding, remove_unrecorded: bool) -> Result<Decision, Refused> {
    let unrecorded = !confirmed(f);
    if unrecorded && !remove_unrecorded {
        return Err(unrecorded_refusal());
    }
    if !unrecorded && f.desired.is_some() {
        return Err((
            RefusalReason::NoWriter,
            "a recorded out-of-band resource changed since record; reverting it to the recorded model is not supported — re-record it, or remove it out of band"
                .into(),
        ));
    }
    Ok(Decision {
        change: Change::Delete,
        kind: ItemKind::Delete,
        unrecorded,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn finding(tier: Tier, path: &str) -> Finding {
        Finding::new(tier, "R", "AWS::IAM::Role", path)
    }

    #[test]
    fn informational_tiers_are_not_planned_and_gaps_are_refused() {
        for t in [Tier::AtDefault, Tier::Generated, Tier::Ignored] {
            assert_eq!(decide(&finding(t, "P"), true), Ok(None));
        }
        for (t, r) in [
            (Tier::Deleted, RefusalReason::Deleted),
            (Tier::ReadGap, RefusalReason::ReadGap),
            (Tier::Unresolved, RefusalReason::Unresolved),
            (Tier::Skipped, RefusalReason::Skipped),
        ] {
            assert_eq!(decide(&finding(t, "P"), true).map_err(|e| e.0), Err(r));
        }
    }

    #[test]
    fn a_declared_list_in_another_order_reverts_to_the_template_never_removed() {
        let mut f = finding(Tier::Undeclared, "Layers");
        f.order_only = true;
        f.desired = Some(json!(["a", "b"]));
        f.actual = Some(json!(["b", "a"]));
        // Unrecorded, or confirmed by the baseline as appeared since record:
        // the target is the template's order, whatever the removal flag says.
        for (unrecorded, note) in [(true, None), (false, Some(NOTE_APPEARED))] {
            f.unrecorded = unrecorded;
            f.note = note.map(str::to_string);
            for remove in [false, true] {
                let d = decide(&f, remove).unwrap().unwrap();
                assert_eq!(
                    (d.change, d.kind),
                    (Change::Set(json!(["a", "b"])), ItemKind::Template)
                );
            }
        }
        f.desired = None;
        assert_eq!(
            decide(&f, true).map_err(|e| e.0),
            Err(RefusalReason::NoTarget)
        );
    }

    #[test]
    fn undeclared_targets_follow_the_baseline_outcome() {
        let mut changed = finding(Tier::Undeclared, "Description");
        changed.note = Some(NOTE_CHANGED.into());
        changed.desired = Some(json!("recorded"));
        changed.actual = Some(json!("live"));
        let d = decide(&changed, false).unwrap().unwrap();
        assert_eq!(
            (d.change, d.kind),
            (Change::Set(json!("recorded")), ItemKind::Baseline)
        );

        let mut appeared = finding(Tier::Undeclared, "PermissionsBoundary");
        appeared.note = Some(NOTE_APPEARED.into());
        appeared.actual = Some(json!("arn:aws:iam::aws:policy/ReadOnlyAccess"));
        let d = decide(&appeared, false).unwrap().unwrap();
        assert_eq!((d.change, d.kind), (Change::Remove, ItemKind::Remove));

        let mut unrecorded = appeared.clone();
        unrecorded.unrecorded = true;
        assert_eq!(
            decide(&unrecorded, false).map_err(|e| e.0),
            Err(RefusalReason::Unrecorded)
        );
        let d = decide(&unrecorded, true).unwrap().unwrap();
        assert!(d.unrecorded && d.change == Change::Remove);

        // A live-only value that never went through the baseline has no target.
        let mut raw = appeared.clone();
        raw.note = None;
        assert_eq!(
            decide(&raw, false).map_err(|e| e.0),
            Err(RefusalReason::Unrecorded)
        );
    }

    #[test]
    fn a_removal_the_service_ignores_writes_the_documented_default() {
        let mut f = finding(Tier::Undeclared, "MaxSessionDuration");
        f.note = Some(NOTE_APPEARED.into());
        f.actual = Some(json!(7200));
        let d = decide(&f, false).unwrap().unwrap();
        assert_eq!(
            (d.change, d.kind),
            (Change::Set(json!(3600)), ItemKind::ExplicitDefault)
        );
    }

    #[test]
    fn added_resources_are_deleted_only_when_confirmed_or_asked() {
        let mut f = Finding::new(
            Tier::Added,
            "T+Subscription[x]",
            "AWS::SNS::Subscription",
            "",
        );
        f.note = Some(NOTE_APPEARED.into());
        f.actual = Some(json!({"Protocol": "email"}));
        let d = decide(&f, false).unwrap().unwrap();
        assert_eq!(d.change, Change::Delete);
        f.unrecorded = true;
        assert_eq!(
            decide(&f, false).map_err(|e| e.0),
            Err(RefusalReason::Unrecorded)
        );
        assert!(decide(&f, true).unwrap().unwrap().unrecorded);
        f.unrecorded = false;
        f.note = Some(NOTE_CHANGED.into());
        f.desired = Some(json!({"Protocol": "sqs"}));
        assert_eq!(
            decide(&f, false).map_err(|e| e.0),
            Err(RefusalReason::NoWriter)
        );
    }
}
