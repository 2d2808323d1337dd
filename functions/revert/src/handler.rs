//! The invoke contract: `{"stack", "region"?, "select"?, "removeUnrecorded"?,
//! "dryRun"?, "planDigest"?}`. A dry run (the default) returns the plan and
//! its digest. An apply needs `planDigest`: the stack is gathered and
//! planned again, and when the new plan's digest differs nothing is written;
//! otherwise the plan is applied, verified, published, and the per-item
//! results returned.

use crate::notice::notice;
use crate::recheck::queue_recheck;
use crate::state::State;
use realdrift_core::pipeline::{
    check_stacks, error_chain, load_ignores, load_stack_baseline, CheckOptions, CheckedStack,
    GatheredStack,
};
use realdrift_core::report::StackReport;
use realdrift_core::revert::{
    build_plan, Checked, PlanInput, PlanOptions, RevertOutcome, RevertPlan,
};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeSet;
use std::time::Duration;

/// One invoke.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RevertRequest {
    /// The stack to revert.
    pub stack: String,
    /// Its region; must be the function's own when given.
    #[serde(default)]
    pub region: Option<String>,
    /// Only these item ids (from a dry run's plan).
    #[serde(default)]
    pub select: Option<Vec<String>>,
    /// Also remove values (and delete resources) nobody recorded.
    #[serde(default)]
    pub remove_unrecorded: bool,
    /// Only plan (the default).
    #[serde(default = "yes")]
    pub dry_run: bool,
    /// The digest of the approved plan; required to apply.
    #[serde(default)]
    pub plan_digest: Option<String>,
}

fn yes() -> bool {
    true
}

/// How an invoke ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Status {
    /// A dry run: the plan and its digest.
    Planned,
    /// Applied; every item converged.
    Converged,
    /// Applied; some item failed or did not converge.
    Partial,
    /// The plan holds nothing to write.
    NothingToRevert,
    /// Refused before any write (scope, region, digest...).
    Refused,
    /// The stack could not be checked.
    Error,
}

/// The response.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RevertResponse {
    /// How the invoke ended.
    pub status: Status,
    /// The stack.
    pub stack: String,
    /// True when nothing was written because only a plan was asked for.
    pub dry_run: bool,
    /// The plan (built now); absent when no plan could be built.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plan: Option<RevertPlan>,
    /// The plan's digest, to pass back as `planDigest`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub digest: Option<String>,
    /// Per-item results of an apply.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<RevertOutcome>,
    /// Why it was refused or failed, or a remark (a notice not published).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// After an apply: `queued` when the stack was queued for an immediate
    /// scan, else why not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recheck: Option<String>,
}

/// What the invocation context says about this invoke.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Invocation {
    /// The Lambda request id.
    pub request_id: String,
    /// Who invoked, when the context carries it (Cognito identity, client context).
    pub invoked_by: Option<Value>,
    /// Time left for retries before the function's own deadline.
    pub budget: Duration,
}

impl RevertResponse {
    fn new(status: Status, req: &RevertRequest) -> Self {
        RevertResponse {
            status,
            stack: req.stack.clone(),
            dry_run: req.dry_run,
            plan: None,
            digest: None,
            outcome: None,
            message: None,
            recheck: None,
        }
    }

    fn refused(req: &RevertRequest, why: impl Into<String>) -> Self {
        let mut r = Self::new(Status::Refused, req);
        r.message = Some(why.into());
        r
    }

    fn with_plan(mut self, plan: RevertPlan) -> Self {
        self.digest = Some(plan.digest.clone());
        self.plan = Some(plan);
        self
    }
}

/// Handles one invoke.
pub async fn handle(state: &State, req: RevertRequest, inv: &Invocation) -> RevertResponse {
    if let Err(refused) = screen(state, &req).await {
        return refused;
    }
    let stack = match check_one(state, &req).await {
        Ok(s) => s,
        Err(failed) => return failed,
    };
    let (Some(g), None) = (&stack.gathered, &stack.report.error) else {
        let why = stack.report.error.clone();
        return error(&req, why.unwrap_or_else(|| "not gathered".into()));
    };
    let plan = plan_for(&req, &stack.report, g);
    if req.dry_run {
        return RevertResponse::new(Status::Planned, &req).with_plan(plan);
    }
    let wanted = req.plan_digest.clone().unwrap_or_default();
    if !plan.matches_digest(&wanted) {
        tracing::warn!(stack = %req.stack, approved = %wanted, now = %plan.digest, "plan changed; nothing written");
        return RevertResponse::refused(
            &req,
            "the plan changed since it was approved (planDigest differs): nothing was written; review the new plan and its digest",
        )
        .with_plan(plan);
    }
    if plan.items.is_empty() {
        return RevertResponse::new(Status::NothingToRevert, &req).with_plan(plan);
    }
    apply_approved(state, &req, inv, &stack.report, g, plan).await
}

/// The request's own checks, then the digest an apply needs: a refusal
/// response when either fails.
async fn screen(state: &State, req: &RevertRequest) -> Result<(), RevertResponse> {
    if let Err(why) = admit(state, req).await {
        tracing::warn!(stack = %req.stack, reason = %why, "revert refused");
        return Err(RevertResponse::refused(req, why));
    }
    if !req.dry_run && req.plan_digest.as_deref().is_none_or(str::is_empty) {
        return Err(RevertResponse::refused(
            req,
            "applying needs planDigest: run a dry run first and pass its digest",
        ));
    }
    Ok(())
}

/// Checks the one stack the request names, as the scan would.
async fn check_one(state: &State, req: &RevertRequest) -> Result<CheckedStack, RevertResponse> {
    let opts = CheckOptions {
        show_all: false,
        region: state.region.clone(),
        store_location: state.store_location.clone(),
    };
    let run = check_stacks(
        &state.pipeline,
        state.store.as_ref(),
        std::slice::from_ref(&req.stack),
        &opts,
    )
    .await
    .map_err(|e| error(req, error_chain(&e)))?;
    run.stacks
        .into_iter()
        .find(|s| s.report.stack == req.stack)
        .ok_or_else(|| error(req, format!("stack {} was not found", req.stack)))
}

/// The revert plan of the checked stack, limited to the request's selection.
fn plan_for(req: &RevertRequest, report: &StackReport, g: &GatheredStack) -> RevertPlan {
    let select = req
        .select
        .clone()
        .map(|s| s.into_iter().collect::<BTreeSet<_>>());
    build_plan(
        &PlanInput::from_checked(report, g),
        &PlanOptions {
            remove_unrecorded: req.remove_unrecorded,
            select,
        },
    )
}

/// Applies an approved, non-empty plan and publishes what it did.
async fn apply_approved(
    state: &State,
    req: &RevertRequest,
    inv: &Invocation,
    report: &StackReport,
    g: &GatheredStack,
    plan: RevertPlan,
) -> RevertResponse {
    let ignores = match load_ignores(state.store.as_ref(), &state.store_location).await {
        Ok(i) => i,
        Err(e) => return error(req, error_chain(&e)),
    };
    let baseline = match load_stack_baseline(state.store.as_ref(), &g.run_context()).await {
        Ok(b) => b,
        Err(e) => return error(req, error_chain(&e)),
    };
    let checked = Checked {
        gathered: g,
        report,
        baseline: baseline.as_ref(),
        ignores: &ignores,
    };
    tracing::info!(stack = %req.stack, digest = %plan.digest, items = plan.items.len(), "applying revert");
    let outcome = state.applier.apply(&plan, checked, inv.budget).await;
    let status = if outcome.converged() {
        Status::Converged
    } else {
        Status::Partial
    };
    let (subject, doc) = notice(&outcome, inv.invoked_by.as_ref(), &inv.request_id);
    let mut r = RevertResponse::new(status, req).with_plan(plan);
    if let Err(e) = state.notifier.publish(&subject, &doc).await {
        tracing::error!(stack = %req.stack, error = %e, "revert applied but not published");
        r.message = Some(format!("applied, but {e}"));
    }
    // Queued after every apply, converged or not: the scan settles what
    // was written either way.
    r.recheck = Some(queue_recheck(state, &req.stack).await);
    tracing::info!(stack = %req.stack, status = ?status, recheck = ?r.recheck, "revert done");
    r.outcome = Some(outcome);
    r
}

/// The request's own checks: a stack name, the function's region, the scope.
async fn admit(state: &State, req: &RevertRequest) -> Result<(), String> {
    if req.stack.trim().is_empty() {
        return Err("stack is required".into());
    }
    if let Some(r) = req.region.as_deref().filter(|r| *r != state.region) {
        return Err(format!(
            "this function reverts stacks in {}, not {r}",
            state.region
        ));
    }
    state
        .scope
        .admits(&req.stack, state.pipeline.stack_source().as_ref())
        .await
}

fn error(req: &RevertRequest, why: String) -> RevertResponse {
    tracing::error!(stack = %req.stack, error = %why, "revert failed before any write");
    let mut r = RevertResponse::new(Status::Error, req);
    r.message = Some(why);
    r
}
