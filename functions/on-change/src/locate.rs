//! Accepted calls -> the stacks and resources to re-read: each call is
//! looked up in `index/<account>.<region>.json` (the scan keeps it
//! current); a call the index does not know is looked up through
//! CloudFormation by physical id (a stack created since the last scan).
//! A resource no stack in scope owns is logged and dropped; "no stack owns
//! it" is remembered for a while (see [`super::lookup`]). A lookup that
//! fails (throttling that outlasted the SDK's retries) retries the message:
//! dropping it would lose the change. A nested stack is in scope when its
//! root stack is.

use super::deadline::now_ms;
use super::screen::Carried;
use super::watcher::Watcher;
use realdrift_core::events::{coalesce, latest_first, object_key, Cause, IndexView, ResourceIndex};
use realdrift_core::pipeline::error_chain;
use std::collections::{BTreeMap, BTreeSet};

/// One stack's share of a batch.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct StackWork {
    /// The stack's account (the index's).
    pub account_id: String,
    /// Logical id -> the calls that touched it, latest first.
    pub resources: BTreeMap<String, Vec<Cause>>,
    /// The messages whose calls touched the stack.
    pub messages: BTreeSet<String>,
}

/// What locating a batch gave.
#[derive(Debug, Default)]
pub struct Located {
    /// Stack name -> its work.
    pub stacks: BTreeMap<String, StackWork>,
    /// Calls no stack in scope owns.
    pub untracked: u64,
    /// Messages whose index could not be read: retried.
    pub failed_messages: BTreeSet<String>,
    /// Calls found through CloudFormation rather than the index.
    pub by_fallback: u64,
    /// Lookups answered by the negative cache.
    pub cached_unowned: u64,
}

/// Loads the indexes the batch needs: one per account, this region.
async fn load_indexes(
    w: &Watcher,
    batch: &[Carried],
) -> BTreeMap<String, Result<Option<ResourceIndex>, String>> {
    let accounts: BTreeSet<String> = batch
        .iter()
        .filter_map(|c| c.accepted.touch.account_id.clone().or(w.account.clone()))
        .collect();
    let mut out = BTreeMap::new();
    for account in accounts {
        let key = object_key(&account, &w.region);
        let loaded = match w.bucket.load(&key).await {
            Ok(Some(s)) => ResourceIndex::from_json(&key, s.text.as_bytes())
                .map(Some)
                .map_err(|e| e.to_string()),
            Ok(None) => Ok(None),
            Err(e) => Err(format!("{key}: {}", error_chain(&e))),
        };
        out.insert(account, loaded);
    }
    out
}

/// Finds the stacks and resources every accepted call touched.
pub async fn locate(w: &Watcher, batch: &[Carried]) -> Located {
    let indexes = load_indexes(w, batch).await;
    let mut out = Located::default();
    for carried in batch {
        let account = carried
            .accepted
            .touch
            .account_id
            .clone()
            .or(w.account.clone());
        let index = match account.as_ref().and_then(|a| indexes.get(a)) {
            Some(Err(e)) => {
                tracing::error!(error = %e, "resource index unreadable; the message is retried");
                out.failed_messages
                    .extend(carried.message_id.iter().cloned());
                continue;
            }
            Some(Ok(i)) => i.as_ref(),
            None => None,
        };
        // A custom resource's provider function of a watched stack made the
        // call: a deployment's, screened by that stack's state (deploys).
        let mut cause = carried.accepted.cause.clone();
        if let Some(d) = index.and_then(|i| i.provider_of(w.screener.catalog(), &cause)) {
            cause.through = Some(d);
        }
        let views: Vec<IndexView<'_>> =
            index.iter().map(|i| i.view(w.screener.catalog())).collect();
        let found = coalesce(std::slice::from_ref(&carried.accepted), &views);
        let mut hits: Vec<(String, String, String)> = found
            .resources
            .into_iter()
            .map(|t| {
                let r = t.resource;
                (r.stack, r.account_id, r.logical_id)
            })
            .collect();
        if hits.is_empty() {
            match fallback(w, carried, account.as_deref(), &mut out.cached_unowned).await {
                Ok(found) => hits = found,
                Err(e) => {
                    tracing::warn!(error = %e, "owning stack lookup failed; the message is retried");
                    out.failed_messages
                        .extend(carried.message_id.iter().cloned());
                    continue;
                }
            }
            out.by_fallback += u64::from(!hits.is_empty());
        }
        match in_scope(w, hits).await {
            Ok(kept) => hits = kept,
            Err(e) => {
                tracing::warn!(error = %e, "stack scope not known; the message is retried");
                out.failed_messages
                    .extend(carried.message_id.iter().cloned());
                continue;
            }
        }
        if hits.is_empty() {
            let c = &carried.accepted.cause;
            tracing::info!(eventId = ?c.event_id, eventName = %c.event_name, targets = ?identifiers(carried), "untracked resource: no stack in scope owns it");
            out.untracked += 1;
            continue;
        }
        for (stack, account_id, logical_id) in hits {
            let work = out.stacks.entry(stack).or_default();
            work.account_id = account_id;
            work.resources
                .entry(logical_id)
                .or_default()
                .push(cause.clone());
            work.messages.extend(carried.message_id.iter().cloned());
        }
    }
    for work in out.stacks.values_mut() {
        for causes in work.resources.values_mut() {
            *causes = latest_first(std::mem::take(causes));
        }
    }
    out
}

fn identifiers(c: &Carried) -> Vec<&str> {
    c.accepted
        .touch
        .targets
        .iter()
        .map(|t| t.identifier.as_str())
        .collect()
}

/// The hits whose stack (or its root stack) is in scope.
async fn in_scope(
    w: &Watcher,
    hits: Vec<(String, String, String)>,
) -> Result<Vec<(String, String, String)>, String> {
    let mut kept = Vec::new();
    for hit in hits {
        if w.in_scope_by_root(&hit.0).await? {
            kept.push(hit);
        }
    }
    Ok(kept)
}

/// DescribeStackResources by physical id, for each identifier the call
/// names; the stack's rows then give the logical id. An identifier no
/// stack owns is remembered for the cache's TTL; a failed lookup is an
/// error (the message is retried).
async fn fallback(
    w: &Watcher,
    c: &Carried,
    account: Option<&str>,
    cached: &mut u64,
) -> Result<Vec<(String, String, String)>, String> {
    let source = w.pipeline.stack_source();
    let mut hits = Vec::new();
    for id in identifiers(c) {
        if w.lookups.known_unowned(id, now_ms()) {
            *cached += 1;
            continue;
        }
        let stack = match source.stack_owning(id).await {
            Ok(Some(s)) => s,
            Ok(None) => {
                w.lookups.remember_unowned(id, now_ms());
                continue;
            }
            Err(e) => return Err(format!("{id}: {e}")),
        };
        let rows = source
            .list_stack_resources(&stack)
            .await
            .map_err(|e| format!("{stack}: {e}"))?;
        for row in rows.iter().filter(|r| r.physical_id.as_deref() == Some(id)) {
            hits.push((
                stack.clone(),
                account.unwrap_or_default().to_string(),
                row.logical_id.clone(),
            ));
        }
    }
    Ok(hits)
}
