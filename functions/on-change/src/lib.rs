//! The on-change function's handler, callable directly in tests with
//! in-memory sources, stores and notifiers.
//!
//! ```text
//! SQS batch --screen--> accepted calls (drops counted by reason)
//!   --locate (index, else DescribeStackResources)--> stack -> touched resources + causes
//!   --screen_deploys (a deployment's calls: the owning stack's own deploy is dropped)
//!   --recheck (gather_only, check, causes, scoped state update)--> alerts
//! ```
//!
//! A batch's calls on one resource give one re-read and at most one alert
//! per transition kind. A stack whose state holds an open storm gets a
//! delayed flush message on the change queue; a flush message re-checks
//! its stack with nothing to read, which announces the storm once the
//! stack was quiet for the storm window (see [`storms`]). A stack that fails fails only the messages whose
//! calls touched it (partial batch failure); a body that is not a
//! CloudTrail event is logged, counted and dropped.

mod deadline;
mod deploys;
mod locate;
mod lookup;
mod recheck;
mod screen;
mod storms;
mod watcher;

pub use deadline::{event_time_ms, now_ms, Invocation};
pub use deploys::{deploy_state, screen_deploys, DeployScreen, DeployState};
pub use locate::{locate, Located, StackWork};
pub use lookup::{Lookups, DEFAULT_LOOKUP_TTL_SECONDS};
pub use recheck::{attach_causes, recheck, RecheckError, Rechecked};
pub use screen::{screen, Carried, Screened};
pub use watcher::{arn_account, filter_config, stack_globs, Watcher, REVERT_ROLE_VAR};

use aws_lambda_events::event::sqs::{SqsBatchResponse, SqsEvent};
use realdrift_core::events::DropReason;
use realdrift_core::pipeline::{error_chain, load_ignores};
use realdrift_lambda::Metrics;
use std::collections::BTreeSet;

/// Handles one SQS batch; returns the messages to retry.
pub async fn handle(w: &Watcher, event: SqsEvent, inv: &Invocation) -> SqsBatchResponse {
    let screened = screen(&w.screener, &event.records);
    emit_screening(&screened);
    let mut failed: BTreeSet<String> = BTreeSet::new();
    let mut located = Located::default();
    if !screened.accepted.is_empty() {
        located = locate(w, &screened.accepted).await;
        failed.extend(located.failed_messages.iter().cloned());
        let deploys = screen_deploys(w, &mut located, &screened.accepted).await;
        failed.extend(deploys.failed_messages.iter().cloned());
        let mut m = Metrics::new("on-change");
        m.count("UntrackedEvents", located.untracked)
            .count("IndexFallbacks", located.by_fallback)
            .count("LookupCacheHits", located.cached_unowned);
        m.emit();
        emit_dropped(DropReason::CloudFormation, deploys.own_deploy);
    }
    failed.extend(storms::add_flushes(w, &screened.flushes, &mut located).await);
    if !located.stacks.is_empty() {
        failed.extend(recheck_all(w, &located, inv).await);
    }
    let mut response = SqsBatchResponse::default();
    for id in failed {
        response.add_failure(id);
    }
    response
}

/// Re-checks every located stack; returns the messages of those that failed.
async fn recheck_all(w: &Watcher, located: &Located, inv: &Invocation) -> BTreeSet<String> {
    let mut failed = BTreeSet::new();
    let ignores = match load_ignores(w.baselines.as_ref(), &w.baselines_location).await {
        Ok(i) => i,
        Err(e) => {
            tracing::error!(error = %error_chain(&e), "ignore rules unreadable; the batch is retried");
            for work in located.stacks.values() {
                failed.extend(work.messages.iter().cloned());
            }
            return failed;
        }
    };
    for (stack, work) in &located.stacks {
        let resources: Vec<&String> = work.resources.keys().collect();
        match recheck(w, stack, work, &ignores, inv).await {
            Ok(r) => {
                for n in &r.update.delivered {
                    tracing::info!(stack = %stack, resources = ?resources, kind = %n.kind, subject = %n.subject, "alert published");
                }
                for e in &r.update.optional_failures {
                    tracing::warn!(stack = %stack, channel = e.channel, error = %e.message, "alert not delivered to an optional channel");
                }
                recheck::emit_metrics(Some(&r), false);
                if let Err(e) = storms::schedule_flush(w, stack, &r.update).await {
                    // Retried: the re-check finds the storm still open and sends again.
                    tracing::error!(stack = %stack, error = %e, "storm flush not sent; the stack's messages are retried");
                    failed.extend(work.messages.iter().cloned());
                }
            }
            Err(RecheckError::StackGone) => {
                // Retained resources outlive their stack: retrying cannot
                // bring it back, and the scan forgets the stack.
                tracing::warn!(stack = %stack, resources = ?resources, reason = "stack no longer exists", "events dropped");
                let mut m = Metrics::new("on-change").dimension("Reason", "stack-gone");
                m.count("EventsDropped", work.messages.len() as u64);
                m.emit();
            }
            Err(RecheckError::Failed(e)) => {
                tracing::error!(stack = %stack, resources = ?resources, error = %e, "stack not re-checked; its messages are retried");
                failed.extend(work.messages.iter().cloned());
                recheck::emit_metrics(None, true);
            }
        }
    }
    failed
}

/// One EMF line per drop reason, and the totals.
fn emit_screening(s: &Screened) {
    let mut m = Metrics::new("on-change");
    m.count("EventsAccepted", s.accepted.len() as u64)
        .count("MalformedMessages", s.malformed);
    m.emit();
    for (reason, n) in &s.dropped {
        emit_dropped(*reason, *n);
    }
}

/// One EMF line for calls dropped for `reason` (none: no line).
fn emit_dropped(reason: DropReason, n: u64) {
    if n == 0 {
        return;
    }
    let mut d = Metrics::new("on-change").dimension("Reason", reason.as_str());
    d.count("EventsDropped", n);
    d.emit();
}
