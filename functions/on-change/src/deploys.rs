//! Calls a deployment made (CloudFormation, a StackSet's execution role;
//! `cause.through`) on a watched resource, screened by the owning stack's
//! state instead of dropped:
//!
//! - the owning stack is being deployed (an `*_IN_PROGRESS` status), or
//!   its template changed since the state was written: its own deploy.
//!   Dropped (counted `cloudFormation`); the next scan re-observes the
//!   deployed stack silently, as after any deploy.
//! - the owning stack is settled and its template is the one the state
//!   holds: the write came from elsewhere (another stack, a StackSet).
//!   Re-checked at once like any out-of-band change; the cause names the
//!   other stack when DescribeStackResources on the written child's id
//!   finds it.
//!
//! A call by a custom resource's provider function (`through.provider`) is
//! screened the same way by the state of the custom resource's stack
//! (`through.stack`), which the index names; the touched resource may be
//! in another stack.
//!
//! A stack whose state cannot be told is retried (never guessed settled
//! nor deploying).

use super::locate::{Located, StackWork};
use super::screen::Carried;
use super::watcher::Watcher;
use realdrift_core::baseline::StackIdentity;
use realdrift_core::events::{Cause, ChildSelector};
use realdrift_core::pipeline::error_chain;
use realdrift_core::template::template_hash;
use realdrift_core::watch::{state_key, StackState};
use std::collections::{BTreeMap, BTreeSet};

/// Where the owning stack stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DeployState {
    /// Its own deploy is under way or not yet scanned: why.
    Deploying(String),
    /// Settled on the template the state holds.
    Settled,
}

/// What screening the deployments' calls did.
#[derive(Debug, Default)]
pub struct DeployScreen {
    /// Calls dropped as the owning stack's own deploy.
    pub own_deploy: u64,
    /// Messages of stacks whose state could not be told: retried.
    pub failed_messages: BTreeSet<String>,
}

/// Screens every located stack that a deployment's call touched; drops
/// those calls where the stack is being deployed, names the other stack
/// where it is settled.
pub async fn screen_deploys(w: &Watcher, located: &mut Located, batch: &[Carried]) -> DeployScreen {
    let mut out = DeployScreen::default();
    let mut states: BTreeMap<String, Result<DeployState, String>> = BTreeMap::new();
    let stacks: Vec<String> = located
        .stacks
        .iter()
        .filter(|(_, work)| by_deployment(work).next().is_some())
        .map(|(s, _)| s.clone())
        .collect();
    for stack in stacks {
        let Some(work) = located.stacks.get_mut(&stack) else {
            continue;
        };
        let deciders: BTreeSet<String> = by_deployment(work).map(|c| decider(c, &stack)).collect();
        for d in deciders {
            if let std::collections::btree_map::Entry::Vacant(e) = states.entry(d) {
                let state = deploy_state(w, e.key(), &work.account_id).await;
                e.insert(state);
            }
        }
        let deploying = |c: &Cause| {
            matches!(
                states.get(&decider(c, &stack)),
                Some(Ok(DeployState::Deploying(_)))
            )
        };
        let unknown = by_deployment(work)
            .find_map(|c| states.get(&decider(c, &stack))?.as_ref().err().cloned());
        if let Some(e) = unknown {
            tracing::error!(stack = %stack, error = %e, "stack state unknown; its messages are retried");
            out.failed_messages.extend(work.messages.iter().cloned());
            located.stacks.remove(&stack);
            continue;
        }
        let dropped = drop_deployment_calls(work, deploying);
        if dropped > 0 {
            tracing::info!(stack = %stack, calls = dropped, "deployment calls dropped: the deploying stack's own deploy");
            out.own_deploy += dropped;
        }
        if work.resources.is_empty() {
            located.stacks.remove(&stack);
        } else if matches!(states.get(&stack), Some(Ok(DeployState::Settled))) {
            name_other_stacks(w, &stack, work, batch).await;
        }
    }
    out
}

/// The stack whose deploy would explain a deployment's call on a resource
/// of `stack`: the custom resource's stack for a provider's call, else
/// `stack` itself.
fn decider(c: &Cause, stack: &str) -> String {
    c.through
        .as_ref()
        .filter(|d| d.provider.is_some())
        .and_then(|d| d.stack.clone())
        .unwrap_or_else(|| stack.to_string())
}

/// The causes of `work` a deployment made.
fn by_deployment(work: &StackWork) -> impl Iterator<Item = &Cause> {
    work.resources
        .values()
        .flatten()
        .filter(|c| c.through.is_some())
}

/// Removes the deployment's calls whose deploying stack is being deployed;
/// a resource left with no call is not re-read. Returns how many calls
/// were removed.
fn drop_deployment_calls(work: &mut StackWork, deploying: impl Fn(&Cause) -> bool) -> u64 {
    let mut dropped = 0;
    for causes in work.resources.values_mut() {
        let before = causes.len();
        causes.retain(|c| c.through.is_none() || !deploying(c));
        dropped += (before - causes.len()) as u64;
    }
    work.resources.retain(|_, causes| !causes.is_empty());
    dropped
}

/// The owning stack's deploy state: its status, then its template against
/// the state's.
pub async fn deploy_state(w: &Watcher, stack: &str, account: &str) -> Result<DeployState, String> {
    let source = w.pipeline.stack_source();
    let desc = source
        .describe_stack(stack)
        .await
        .map_err(|e| format!("DescribeStacks: {e}"))?;
    if desc.status.ends_with("_IN_PROGRESS") {
        return Ok(DeployState::Deploying(format!("status {}", desc.status)));
    }
    let body = source
        .get_template(stack)
        .await
        .map_err(|e| format!("GetTemplate: {e}"))?;
    let key = state_key(&StackIdentity::new(stack, account, &w.region))
        .map_err(|e| format!("state key: {e}"))?;
    let stored = w
        .bucket
        .load(&key)
        .await
        .map_err(|e| format!("{key}: {}", error_chain(&e)))?;
    let Some(stored) = stored else {
        // Never scanned: no deploy to tell apart; the first observation is
        // inventory either way.
        return Ok(DeployState::Settled);
    };
    let state = StackState::parse(&key, &stored.text).map_err(|e| e.to_string())?;
    if state.template_hash != template_hash(&body) {
        return Ok(DeployState::Deploying(
            "template changed since the last scan".into(),
        ));
    }
    Ok(DeployState::Settled)
}

/// Puts the stack that made each deployment call on its cause, where a
/// lookup of the written child's id finds another stack than `stack`.
async fn name_other_stacks(w: &Watcher, stack: &str, work: &mut StackWork, batch: &[Carried]) {
    let ids = child_ids(batch);
    let mut found: BTreeMap<String, Option<String>> = BTreeMap::new();
    for causes in work.resources.values_mut() {
        let by_cloudformation =
            |c: &&mut Cause| c.through.as_ref().is_some_and(|d| d.provider.is_none());
        for c in causes.iter_mut().filter(by_cloudformation) {
            let Some(event_id) = c.event_id.clone() else {
                continue;
            };
            let Some(child) = ids.get(&event_id) else {
                continue;
            };
            if !found.contains_key(child) {
                found.insert(child.clone(), owner_of(w, child, stack).await);
            }
            if let (Some(other), Some(d)) = (found.get(child).cloned().flatten(), &mut c.through) {
                d.stack = Some(other);
            }
        }
    }
}

/// Event id -> the id of the child the call wrote (a policy name, a
/// statement id, a child ARN), when the record names one.
fn child_ids(batch: &[Carried]) -> BTreeMap<String, String> {
    batch
        .iter()
        .filter(|c| c.accepted.cause.through.is_some())
        .filter_map(|c| {
            let id = c.accepted.cause.event_id.clone()?;
            let child = match &c.accepted.touch.child_selector {
                ChildSelector::Name(Some(n)) => n.clone(),
                ChildSelector::Identifiers(t) => t.first()?.identifier.clone(),
                _ => return None,
            };
            Some((id, child))
        })
        .collect()
}

/// The stack owning `physical_id`, when it is another than `stack`. A
/// failed lookup only loses the name (logged).
async fn owner_of(w: &Watcher, physical_id: &str, stack: &str) -> Option<String> {
    match w.pipeline.stack_source().stack_owning(physical_id).await {
        Ok(Some(s)) if s != stack => Some(s),
        Ok(_) => None,
        Err(e) => {
            tracing::warn!(identifier = %physical_id, error = %e, "owning stack lookup failed; the cause names no stack");
            None
        }
    }
}
