//! Accepted calls -> the stacks and resources to re-read: each call is
//! looked up in `index/<account>.<region>.json` (the scan keeps it
//! current); a call the index does not know is looked up through
//! CloudFormation by physical id (a stack created since the last scan).
//! A resource no stack in scope owns is logged and dropped.

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
            hits = fallback(w, carried, account.as_deref()).await;
            out.by_fallback += u64::from(!hits.is_empty());
        }
        hits.retain(|(stack, _, _)| w.in_scope(stack));
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
                .push(carried.accepted.cause.clone());
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

/// DescribeStackResources by physical id, for each identifier the call
/// names; the stack's rows then give the logical id. Failures are logged:
/// the call is then untracked, as it would be with no stack at all.
async fn fallback(
    w: &Watcher,
    c: &Carried,
    account: Option<&str>,
) -> Vec<(String, String, String)> {
    let source = w.pipeline.stack_source();
    let mut hits = Vec::new();
    for id in identifiers(c) {
        let stack = match source.stack_owning(id).await {
            Ok(Some(s)) => s,
            Ok(None) => continue,
            Err(e) => {
                tracing::warn!(identifier = %id, error = %e, "owning stack lookup failed");
                continue;
            }
        };
        let rows = match source.list_stack_resources(&stack).await {
            Ok(r) => r,
            Err(e) => {
                tracing::warn!(stack = %stack, error = %e, "stack resources unreadable");
                continue;
            }
        };
        for row in rows.iter().filter(|r| r.physical_id.as_deref() == Some(id)) {
            hits.push((
                stack.clone(),
                account.unwrap_or_default().to_string(),
                row.logical_id.clone(),
            ));
        }
    }
    hits
}
