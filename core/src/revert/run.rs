//! One stack's revert after the plan is approved: apply the batches, re-read
//! what was written, re-check it through the same baseline and ignore stages
//! as the check that built the plan, and give the verdict per item. When a
//! written resource still reads as drifted, it is read once more after a
//! short pause (some service writes are eventually consistent).

use super::apply::{apply_plan, RevertWriter};
use super::converge::convergence;
use super::model::RevertPlan;
use super::outcome::{ItemStatus, RevertOutcome};
use super::verify::{reread_touched, Pause, Reread, Rereader};
use crate::baseline::BaselineFile;
use crate::ignore::IgnoreConfig;
use crate::pipeline::{check_stack, error_chain, GatheredStack};
use crate::report::StackReport;
use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

/// The I/O a revert goes through.
#[derive(Clone, Copy)]
pub struct RevertIo<'a> {
    /// Applies the writes.
    pub writer: &'a dyn RevertWriter,
    /// Re-reads what was written.
    pub reread: Rereader<'a>,
    /// Waits before the second re-read.
    pub pause: &'a dyn Pause,
}

/// Settings of an apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ApplySettings {
    /// Resources written at once.
    pub concurrency: usize,
    /// The pause before re-reading a resource that still reads as drifted.
    pub settle: Duration,
}

impl Default for ApplySettings {
    fn default() -> Self {
        ApplySettings {
            concurrency: super::apply::DEFAULT_WRITE_CONCURRENCY,
            settle: Duration::from_secs(2),
        }
    }
}

/// What the plan was built from: the gathered stack, its check report, and
/// the baseline and ignore rules that check applied.
#[derive(Clone, Copy)]
pub struct Checked<'a> {
    /// The gather the plan was built from.
    pub gathered: &'a GatheredStack,
    /// The check report of that gather.
    pub report: &'a StackReport,
    /// The stack's baseline file, if any.
    pub baseline: Option<&'a BaselineFile>,
    /// The ignore rules.
    pub ignores: &'a IgnoreConfig,
}

/// Applies `plan`, then verifies every item by re-reading what was written.
pub async fn apply_and_verify(
    plan: &RevertPlan,
    checked: Checked<'_>,
    io: RevertIo<'_>,
    settings: ApplySettings,
) -> RevertOutcome {
    let written = apply_plan(plan, io.writer, settings.concurrency).await;
    let touched: BTreeSet<String> = written
        .iter()
        .filter(|(_, o)| o.error.is_none())
        .map(|(b, _)| b.resource.logical_id.clone())
        .collect();
    let first = reread_touched(checked.gathered, &touched, io.reread).await;
    let mut outcome = verdicts(plan, &written, checked, &first);
    let lagging: BTreeSet<String> = outcome
        .items
        .iter()
        .filter(|i| i.status == ItemStatus::NotConverged)
        .map(|i| i.resource.logical_id.clone())
        .collect();
    if !lagging.is_empty() && !settings.settle.is_zero() {
        io.pause.pause(settings.settle).await;
        let mut second = reread_touched(&first.gathered, &lagging, io.reread).await;
        second.unverified.extend(
            first
                .unverified
                .iter()
                .filter(|(k, _)| !lagging.contains(*k))
                .map(|(k, v)| (k.clone(), v.clone())),
        );
        outcome = verdicts(plan, &written, checked, &second);
    }
    outcome
}

/// The verdicts of one re-read: re-check the stack, then compare per item.
fn verdicts(
    plan: &RevertPlan,
    written: &[(super::batch::Batch, super::outcome::WriteOutcome)],
    checked: Checked<'_>,
    reread: &Reread,
) -> RevertOutcome {
    match check_stack(&reread.gathered, checked.baseline, checked.ignores, false) {
        Ok(after) => convergence(plan, written, checked.report, &after, &reread.unverified),
        Err(e) => {
            // The re-check itself failed: nothing written can be confirmed.
            let why = format!("re-checking after the revert failed: {}", error_chain(&e));
            let all: BTreeMap<String, String> = plan
                .items
                .iter()
                .map(|i| (i.resource.logical_id.clone(), why.clone()))
                .collect();
            convergence(plan, written, checked.report, checked.report, &all)
        }
    }
}
