//! One stack's share of a batch: re-read only the touched resources
//! through the shared check path (baseline, ignore rules), put each call's
//! cause on the findings of the resource it touched, merge into the
//! stack's state (only those resources: the rest of the state is kept) and
//! announce the transitions.

use super::deadline::{event_time_ms, now_ms, Invocation};
use super::locate::StackWork;
use super::watcher::Watcher;
use realdrift_core::baseline::{ReadState, StackIdentity};
use realdrift_core::events::Cause;
use realdrift_core::finding::Finding;
use realdrift_core::ignore::IgnoreConfig;
use realdrift_core::pipeline::{
    check_gathered, error_chain, CheckOptions, GatherFailure, GatheredStack, PipelineError,
    SourceError, StackGather,
};
use realdrift_core::report::StackReport;
use realdrift_core::watch::{update_stack, Claimant, Observation, Update, DEFAULT_ATTEMPTS};
use realdrift_lambda::Metrics;
use std::collections::{BTreeMap, BTreeSet};

/// What re-checking one stack did.
#[derive(Debug)]
pub struct Rechecked {
    /// The state update (transitions, notices delivered).
    pub update: Update,
    /// Resources read.
    pub resources_read: u64,
    /// AWS calls made for the stack.
    pub aws_calls: u64,
    /// Event time -> alert published, per delivered notice that names a
    /// cause with a readable time (milliseconds).
    pub latencies: Vec<u64>,
}

/// Why a stack was not re-checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RecheckError {
    /// The stack no longer exists (its resources were retained): the
    /// events are dropped, not retried.
    StackGone,
    /// Anything else: the stack's messages are retried.
    Failed(String),
}

impl std::fmt::Display for RecheckError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RecheckError::StackGone => f.write_str("stack no longer exists"),
            RecheckError::Failed(e) => f.write_str(e),
        }
    }
}

/// Re-checks the touched resources of `stack`. A stack that is not
/// settled is announced not checked (once) instead.
pub async fn recheck(
    w: &Watcher,
    stack: &str,
    work: &StackWork,
    ignores: &IgnoreConfig,
    inv: &Invocation,
) -> Result<Rechecked, RecheckError> {
    let touched: BTreeSet<String> = work.resources.keys().cloned().collect();
    let read_started = now_ms();
    let gathered = match w.pipeline.gather_only(stack, &touched).await {
        Ok(g) => g,
        Err(PipelineError::Source {
            source: SourceError::StackNotFound(_),
            ..
        }) => return Err(RecheckError::StackGone),
        // Described by id, a deleted stack answers with this status.
        Err(PipelineError::NotSettled { status, .. }) if status == "DELETE_COMPLETE" => {
            return Err(RecheckError::StackGone)
        }
        Err(e @ PipelineError::NotSettled { .. }) => {
            return not_settled(w, &e, inv, read_started).await
        }
        Err(e) => {
            return Err(RecheckError::Failed(format!(
                "gathering: {}",
                error_chain(&e)
            )))
        }
    };
    let entry = StackGather {
        stack: stack.to_string(),
        result: Ok::<_, GatherFailure>(gathered),
    };
    let opts = CheckOptions {
        show_all: false,
        region: w.region.clone(),
        store_location: w.baselines_location.clone(),
    };
    let mut report = check_gathered(&entry, w.baselines.as_ref(), ignores, &opts).await;
    if let Some(e) = &report.error {
        return Err(RecheckError::Failed(format!("checking: {e}")));
    }
    let Ok(g) = &entry.result else {
        return Err(RecheckError::Failed("gathering failed".into()));
    };
    attach_causes(&mut report.findings, g, &work.resources);
    let obs = Observation::of_stack(g, &report)
        .limited_to(touched)
        .read_at(read_started)
        .losing_coverage_after(w.lost_after)
        .holding_flaps_for(w.flap_window_ms)
        .holding_storms(w.storm);
    let update = store(w, &obs, &report, inv).await?;
    let published = now_ms();
    let latencies = update
        .delivered
        .iter()
        .filter_map(|n| notice_event_time(&n.document))
        .map(|t| published.saturating_sub(t))
        .collect();
    Ok(Rechecked {
        resources_read: g
            .resources
            .iter()
            .filter(|r| r.read == ReadState::Read)
            .count() as u64,
        aws_calls: g.total_api_calls(),
        update,
        latencies,
    })
}

/// Advances the stack's state from `obs` and announces its transitions.
async fn store(
    w: &Watcher,
    obs: &Observation,
    report: &StackReport,
    inv: &Invocation,
) -> Result<Update, RecheckError> {
    let who = Claimant {
        id: inv.request_id.clone(),
        now_ms: now_ms(),
        deadline_ms: inv.deadline_ms,
        attempts: DEFAULT_ATTEMPTS,
    };
    update_stack(w.bucket.as_ref(), obs, report, &w.channels, &who)
        .await
        .map_err(|e| RecheckError::Failed(format!("state not advanced: {}", error_chain(&e))))
}

/// A stack that is not settled: announced not checked once, not retried
/// (the next scan after it settles checks it).
async fn not_settled(
    w: &Watcher,
    e: &PipelineError,
    inv: &Invocation,
    read_started: u64,
) -> Result<Rechecked, RecheckError> {
    let PipelineError::NotSettled {
        stack,
        status,
        account_id: Some(account),
        region: Some(region),
    } = e
    else {
        return Err(RecheckError::Failed(format!(
            "gathering: {}",
            error_chain(e)
        )));
    };
    let obs = Observation::of_unsettled(StackIdentity::new(stack, account, region), status)
        .read_at(read_started);
    let report = GatherFailure::Pipeline(e.clone()).report(stack, region);
    let update = store(w, &obs, &report, inv).await?;
    Ok(Rechecked {
        update,
        resources_read: 0,
        aws_calls: 0,
        latencies: Vec::new(),
    })
}

/// Puts the latest call that touched a resource on its findings (and on
/// those of the out-of-band children listed under it).
pub fn attach_causes(
    findings: &mut [Finding],
    g: &GatheredStack,
    causes: &BTreeMap<String, Vec<Cause>>,
) {
    for f in findings.iter_mut() {
        let owner = g
            .added_parents
            .get(&f.logical_id)
            .cloned()
            .unwrap_or_else(|| f.logical_id.clone());
        if let Some(latest) = causes.get(&owner).and_then(|c| c.first()) {
            f.cause = Some(latest.clone());
        }
    }
}

/// The event time of the cause an SNS document names, in milliseconds.
fn notice_event_time(document: &str) -> Option<u64> {
    let doc: serde_json::Value = serde_json::from_str(document).ok()?;
    event_time_ms(doc.get("cause")?.get("eventTime")?.as_str()?)
}

/// The per-stack EMF line.
pub fn emit_metrics(stack_ok: Option<&Rechecked>, failed: bool) {
    let mut m = Metrics::new("on-change");
    m.count("StacksRechecked", 1)
        .count("StackFailures", u64::from(failed));
    if let Some(r) = stack_ok {
        m.count("ResourcesRead", r.resources_read)
            .count("AwsCalls", r.aws_calls)
            .count("AlertsPublished", r.update.delivered.len() as u64)
            .count("SlackFailures", r.update.optional_failures.len() as u64);
    }
    m.emit();
    for ms in stack_ok.map(|r| r.latencies.as_slice()).unwrap_or_default() {
        let mut l = Metrics::new("on-change");
        l.millis("AlertLatency", *ms);
        l.emit();
    }
}
