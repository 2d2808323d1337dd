//! One stack (and its nested stacks): gather and check through the shared
//! check path, then advance its state and announce the transitions.

use super::deadline::{now_ms, Invocation};
use super::scanner::Scanner;
use realdrift_core::baseline::ReadState;
use realdrift_core::baseline::StackIdentity;
use realdrift_core::ignore::IgnoreConfig;
use realdrift_core::pipeline::{
    check_gathered, error_chain, CheckOptions, GatherFailure, GatheredStack, PipelineError,
    SourceError, StackGather,
};
use realdrift_core::report::{forget_status, write_status, StackReport, ORG_PREFIX};
use realdrift_core::watch::{
    forget_stack, update_index, update_stack, Claimant, Observation, StackRows, Update,
    DEFAULT_ATTEMPTS,
};
use realdrift_lambda::Metrics;
use std::time::Instant;

/// What scanning one work item did.
#[derive(Debug, Default)]
pub struct StackOutcome {
    /// One report per stack checked (the stack, then its nested stacks).
    pub reports: Vec<StackReport>,
    /// The state updates, beside their reports.
    pub updates: Vec<Option<Update>>,
    /// The stack no longer exists: nothing to retry (its state and index
    /// rows are removed, once, with a notice).
    pub gone: bool,
    /// Stacks not settled (status), reported not checked rather than retried.
    pub not_settled: Vec<(String, String)>,
    /// Stacks that failed (gather, baseline, state or SNS): the work is retried.
    pub failures: Vec<String>,
}

/// True when a gather failed because the stack is gone (described by id,
/// a deleted stack answers with its `DELETE_COMPLETE` status).
fn is_gone(e: &GatherFailure) -> bool {
    match e {
        GatherFailure::NotFound { .. }
        | GatherFailure::Pipeline(PipelineError::Source {
            source: SourceError::StackNotFound(_),
            ..
        }) => true,
        GatherFailure::Pipeline(PipelineError::NotSettled { status, .. }) => {
            status == "DELETE_COMPLETE"
        }
        _ => false,
    }
}

/// Scans `stack` with the shared pipeline and advances its state.
pub async fn scan_stack(
    s: &Scanner,
    stack: &str,
    ignores: &IgnoreConfig,
    inv: &Invocation,
) -> StackOutcome {
    let started = Instant::now();
    let read_started = now_ms();
    let mut out = StackOutcome::default();
    let gathered = s.pipeline.gather_many(&[stack.to_string()]).await;
    for (i, result) in gathered.into_iter().enumerate() {
        let entry = StackGather {
            stack: match &result {
                Ok(g) => g.stack.clone(),
                Err(_) => stack.to_string(),
            },
            result: result.map_err(GatherFailure::from),
        };
        match &entry.result {
            Err(e) if i == 0 && is_gone(e) => {
                forget(s, stack, &mut out).await;
                return out;
            }
            Err(GatherFailure::Pipeline(e @ PipelineError::NotSettled { .. })) => {
                let update = not_settled(s, e, inv, read_started).await;
                if update.is_none() {
                    out.failures.push(entry.stack.clone());
                }
                out.reports
                    .push(GatherFailure::Pipeline(e.clone()).report(&entry.stack, &s.region));
                out.updates.push(update);
                continue;
            }
            Err(e) => {
                tracing::error!(stack = %entry.stack, error = %error_chain(e), "stack could not be gathered");
                out.failures.push(entry.stack.clone());
                continue;
            }
            Ok(_) => {}
        }
        let opts = CheckOptions {
            show_all: false,
            region: s.region.clone(),
            store_location: s.baselines_location.clone(),
        };
        let report = check_gathered(&entry, s.baselines.as_ref(), ignores, &opts).await;
        let update = match (&entry.result, &report.error) {
            (Ok(g), None) => advance_state(s, g, &report, inv, read_started).await,
            (_, Some(err)) => {
                tracing::error!(stack = %entry.stack, error = %err, "stack could not be checked");
                None
            }
            _ => None,
        };
        if update.is_none() {
            out.failures.push(entry.stack.clone());
        }
        if let Ok(g) = &entry.result {
            if let Some(u) = &update {
                report_status(s, g, &report, u).await;
            }
            let indexed = update.is_some() && refresh_index(s, g).await;
            emit_metrics(g, &report, update.as_ref(), indexed, started);
        }
        out.reports.push(report);
        out.updates.push(update);
    }
    out
}

/// Advances the state and announces; `None` when that failed (logged).
async fn advance_state(
    s: &Scanner,
    g: &GatheredStack,
    report: &StackReport,
    inv: &Invocation,
    read_started: u64,
) -> Option<Update> {
    let obs = Observation::of_stack(g, report)
        .read_at(read_started)
        .losing_coverage_after(s.lost_after)
        .holding_flaps_for(s.flap_window_ms)
        .holding_storms(s.storm);
    store_and_announce(s, &g.stack, &obs, report, inv).await
}

/// A stack that is not settled: announced not checked once (a coverage
/// transition in its state), not a failure to retry.
async fn not_settled(
    s: &Scanner,
    e: &PipelineError,
    inv: &Invocation,
    read_started: u64,
) -> Option<Update> {
    let PipelineError::NotSettled {
        stack,
        status,
        account_id,
        region,
    } = e
    else {
        return None;
    };
    tracing::warn!(stack = %stack, status = %status, "stack not settled: reported not checked");
    let (Some(account), Some(region)) = (account_id, region) else {
        tracing::error!(stack = %stack, "stack id names no account or region");
        return None;
    };
    let identity = StackIdentity::new(stack, account, region);
    let obs = Observation::of_unsettled(identity, status).read_at(read_started);
    let report = GatherFailure::Pipeline(e.clone()).report(stack, region);
    store_and_announce(s, stack, &obs, &report, inv).await
}

/// A stack that no longer exists: its state and index rows are removed
/// with one notice; only a failure doing that is retried.
async fn forget(s: &Scanner, stack: &str, out: &mut StackOutcome) {
    out.gone = true;
    match forget_stack(s.bucket.as_ref(), s.catalog, stack, &s.region, &s.channels).await {
        Ok(sent) => {
            tracing::warn!(stack = %stack, notices = sent.len(), "stack no longer exists; its state and index rows are removed");
            forget_hub_status(s, stack).await;
            let mut m = Metrics::new("scan");
            m.count("StacksGone", 1);
            m.emit();
        }
        Err(e) => {
            tracing::error!(stack = %stack, error = %error_chain(&e), "gone stack not forgotten; retried");
            out.failures.push(stack.to_string());
        }
    }
}

/// Removes a gone stack's status documents from the hub bucket (any account:
/// the function reads only its own account's stacks, and the bucket policy
/// lets it write only its own account's prefix). Logged, not retried.
async fn forget_hub_status(s: &Scanner, stack: &str) {
    let Some(hub) = &s.hub else { return };
    let keys = match hub.list(ORG_PREFIX).await {
        Ok(keys) => keys,
        Err(e) => {
            tracing::warn!(stack = %stack, error = %error_chain(&e), "status documents not listed");
            return;
        }
    };
    let suffix = format!("/{}/{stack}.json", s.region);
    for key in keys.iter().filter(|k| k.ends_with(&suffix)) {
        let account = key
            .trim_start_matches(ORG_PREFIX)
            .split('/')
            .next()
            .unwrap_or_default();
        if let Err(e) = forget_status(hub.as_ref(), account, &s.region, stack).await {
            tracing::warn!(stack = %stack, error = %error_chain(&e), "status document not removed");
        }
    }
}

/// Advances the state from `obs` and announces; `None` when that failed (logged).
async fn store_and_announce(
    s: &Scanner,
    stack: &str,
    obs: &Observation,
    report: &StackReport,
    inv: &Invocation,
) -> Option<Update> {
    let who = Claimant {
        id: inv.request_id.clone(),
        now_ms: now_ms(),
        deadline_ms: inv.deadline_ms,
        attempts: DEFAULT_ATTEMPTS,
    };
    match update_stack(s.bucket.as_ref(), obs, report, &s.channels, &who).await {
        Ok(u) => {
            for n in &u.delivered {
                tracing::info!(stack = %stack, kind = %n.kind, subject = %n.subject, "alert published");
            }
            for e in &u.optional_failures {
                tracing::warn!(stack = %stack, channel = e.channel, error = %e.message, "alert not delivered to an optional channel");
            }
            if let Some(e) = &u.release_error {
                tracing::warn!(stack = %stack, error = %e, "alert claim not released; a later run may repeat it");
            }
            Some(u)
        }
        Err(e) => {
            tracing::error!(stack = %stack, error = %error_chain(&e), "state not advanced");
            None
        }
    }
}

/// Writes the stack's status document to the hub bucket (Organization
/// members only). A failure is logged, not retried: the alerts and state
/// are done, and the next scan writes the document again.
async fn report_status(s: &Scanner, g: &GatheredStack, report: &StackReport, u: &Update) {
    let (Some(hub), Some(account)) = (&s.hub, g.account.as_deref()) else {
        return;
    };
    let drift = &u.step.state.drift;
    if let Err(e) = write_status(hub.as_ref(), report, account, drift, now_ms()).await {
        tracing::warn!(stack = %g.stack, error = %error_chain(&e), "status document not written to the hub");
    }
}

/// Replaces the stack's rows of the resource index on-change reads. A
/// failure is logged and counted, not retried: the alerts and state are
/// done, and the next scan refreshes the index.
async fn refresh_index(s: &Scanner, g: &GatheredStack) -> bool {
    let (Some(account), Some(region)) = (g.account.as_deref(), g.region.as_deref()) else {
        return false;
    };
    let rows = StackRows::of(s.catalog, g);
    let r = update_index(
        s.bucket.as_ref(),
        s.catalog,
        (account, region),
        &g.stack,
        &rows,
        DEFAULT_ATTEMPTS,
    )
    .await;
    match r {
        Ok(_) => true,
        Err(e) => {
            tracing::error!(stack = %g.stack, error = %error_chain(&e), "resource index not updated");
            false
        }
    }
}

/// The per-stack EMF line.
fn emit_metrics(
    g: &GatheredStack,
    report: &StackReport,
    update: Option<&Update>,
    indexed: bool,
    started: Instant,
) {
    let mut m = Metrics::new("scan");
    m.count("StacksScanned", 1)
        .count(
            "ResourcesRead",
            g.resources
                .iter()
                .filter(|r| r.read == ReadState::Read)
                .count() as u64,
        )
        .count("AwsCalls", g.total_api_calls())
        .count("ReadFailures", g.coverage.lost as u64)
        .count("IndexFailures", u64::from(update.is_some() && !indexed))
        .millis("ScanDuration", started.elapsed().as_millis() as u64);
    if let Some(u) = update {
        m.count("AlertsPublished", u.delivered.len() as u64)
            .count("SlackFailures", u.optional_failures.len() as u64);
    }
    m.emit();
    let summary = report.summary();
    for (tier, n) in &summary.by_tier {
        let mut t = Metrics::new("scan").dimension("Tier", tier.as_str());
        t.count("Findings", *n as u64);
        t.emit();
    }
}
