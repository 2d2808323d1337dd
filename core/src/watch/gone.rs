//! A stack that no longer exists: its state files and index rows are
//! removed, and one notice says so. Retrying cannot bring a deleted stack
//! back, so this is never a failure to retry; the notice is sent only
//! while a state file remains, so a repeat (at-least-once delivery, a
//! second dispatch) finds nothing and stays silent.

use super::alert::notices;
use super::cycle::{Channels, UpdateError};
use super::index::{replace_stack, IndexUpdateError, StackRows};
use super::state::{state_key, StackState, STATE_PREFIX};
use super::transition::Transitions;
use crate::baseline::{BaselineStore, Precondition, StoreError};
use crate::events::{object_key, Catalog, ResourceIndex};
use crate::finding::{Finding, Tier};
use crate::notify::Notice;
use crate::report::StackReport;

/// The store prefix of resource indexes.
const INDEX_PREFIX: &str = "index/";

/// The note on a gone stack's notice.
pub const GONE_NOTE: &str =
    "stack no longer exists: its state and resource index rows were removed";

/// Why a gone stack could not be forgotten (the work is retried).
#[derive(Debug, thiserror::Error)]
pub enum GoneError {
    /// The state could not be read, delivered or removed.
    #[error(transparent)]
    Update(#[from] UpdateError),
    /// The index could not be pruned.
    #[error(transparent)]
    Index(#[from] IndexUpdateError),
}

/// The state files of `stack` in `region` (one per account).
pub async fn state_files_of(
    store: &dyn BaselineStore,
    stack: &str,
    region: &str,
) -> Result<Vec<StackState>, UpdateError> {
    // Stack names hold no '.', so the prefix names exactly one stack.
    let prefix = format!("{STATE_PREFIX}{stack}.");
    let keys = store.list(&prefix).await.map_err(UpdateError::Store)?;
    let mut out = Vec::new();
    for key in keys {
        let Some(stored) = store.load(&key).await.map_err(UpdateError::Store)? else {
            continue;
        };
        let state = StackState::parse(&key, &stored.text)?;
        if state.stack_name == stack && state.region == region {
            out.push(state);
        }
    }
    Ok(out)
}

/// Forgets a stack that no longer exists: for each state file of it in
/// `region`, announces once (required channels first), then removes the
/// stack's index rows and the state file. Returns the notices delivered.
pub async fn forget_stack(
    store: &dyn BaselineStore,
    catalog: &Catalog,
    stack: &str,
    region: &str,
    channels: &Channels,
) -> Result<Vec<Notice>, GoneError> {
    let mut delivered = Vec::new();
    for state in state_files_of(store, stack, region).await? {
        let report = StackReport {
            stack: state.stack_name.clone(),
            account_id: Some(state.account_id.clone()),
            region: state.region.clone(),
            ..StackReport::default()
        };
        let mut f = Finding::new(Tier::Skipped, stack, "AWS::CloudFormation::Stack", "");
        f.note = Some(GONE_NOTE.to_string());
        let t = Transitions {
            coverage_lost: vec![f],
            ..Transitions::default()
        };
        for notice in notices(&t, &report) {
            for ch in &channels.required {
                ch.send(&notice)
                    .await
                    .map_err(|source| UpdateError::Deliver {
                        kind: notice.kind.clone(),
                        pending: 1,
                        source,
                    })?;
            }
            for ch in &channels.optional {
                if let Err(e) = ch.send(&notice).await {
                    tracing::warn!(channel = e.channel, error = %e.message, "notice not delivered to an optional channel");
                }
            }
            delivered.push(notice);
        }
        prune_index(store, catalog, (&state.account_id, region), &|s| s != stack).await?;
        let key = state_key(&state.identity()).map_err(UpdateError::Key)?;
        store.delete(&key).await.map_err(UpdateError::Store)?;
    }
    Ok(delivered)
}

/// Keeps only the index rows of `account`/`region` whose stack `keep`
/// accepts, in a conditional write retried on conflicts. Returns the
/// stacks whose rows were removed.
pub async fn prune_index(
    store: &dyn BaselineStore,
    catalog: &Catalog,
    (account_id, region): (&str, &str),
    keep: &(dyn Fn(&str) -> bool + Sync),
) -> Result<Vec<String>, IndexUpdateError> {
    let key = object_key(account_id, region);
    for _ in 0..super::cycle::DEFAULT_ATTEMPTS {
        let Some(stored) = store.load(&key).await.map_err(IndexUpdateError::Store)? else {
            return Ok(Vec::new());
        };
        let mut index = ResourceIndex::from_json(&key, stored.text.as_bytes())?;
        let mut gone: Vec<String> = index
            .resources
            .iter()
            .map(|r| r.stack.clone())
            .filter(|s| !keep(s))
            .collect();
        gone.sort();
        gone.dedup();
        if gone.is_empty() {
            return Ok(gone);
        }
        for stack in &gone {
            replace_stack(&mut index, catalog, stack, &StackRows::default());
        }
        let mut text = index.to_json();
        text.push('\n');
        match store
            .save(&key, &text, Precondition::IfUnchanged(stored.version))
            .await
        {
            Ok(_) => return Ok(gone),
            Err(StoreError::Conflict { .. }) => continue,
            Err(e) => return Err(IndexUpdateError::Store(e)),
        }
    }
    Err(IndexUpdateError::Contended {
        key,
        attempts: super::cycle::DEFAULT_ATTEMPTS,
    })
}

/// Prunes every index of `region` in the store (one per account) down to
/// the stacks `keep` accepts. Returns the stacks whose rows were removed.
pub async fn prune_indexes(
    store: &dyn BaselineStore,
    catalog: &Catalog,
    region: &str,
    keep: &(dyn Fn(&str) -> bool + Sync),
) -> Result<Vec<String>, IndexUpdateError> {
    let keys = store
        .list(INDEX_PREFIX)
        .await
        .map_err(IndexUpdateError::Store)?;
    let mut removed = Vec::new();
    for key in keys {
        let Some(account) = key
            .strip_prefix(INDEX_PREFIX)
            .and_then(|k| k.strip_suffix(&format!(".{region}.json")))
        else {
            continue;
        };
        removed.extend(prune_index(store, catalog, (account, region), keep).await?);
    }
    Ok(removed)
}

/// The stacks of `region` that have a state file (from the key names
/// `state/<stack>.<account>.<region>.json`).
pub async fn stacks_with_state(
    store: &dyn BaselineStore,
    region: &str,
) -> Result<Vec<String>, StoreError> {
    let suffix = format!(".{region}.json");
    let mut out: Vec<String> = store
        .list(STATE_PREFIX)
        .await?
        .iter()
        .filter_map(|k| k.strip_prefix(STATE_PREFIX)?.strip_suffix(&suffix))
        .filter_map(|k| k.split_once('.').map(|(stack, _account)| stack.to_string()))
        .collect();
    out.sort();
    out.dedup();
    Ok(out)
}
