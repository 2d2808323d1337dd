//! Reading the remote side of a sync and carrying a plan out, over any
//! [`BaselineStore`] (S3 in production, memory in tests).
//!
//! Writes are conditional on what was read: an upload only if the key is
//! still absent, an update only over the exact version compared, so a
//! concurrent writer (a deploy's BucketDeployment, another sync) is reported
//! as a conflict instead of being silently overwritten.

use super::plan::{content_digest, SyncAction, SyncItem, SyncPlan};
use crate::baseline::{BaselineStore, Precondition, StoreError, Version};
use std::collections::BTreeMap;

/// A stored object as read for comparison.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RemoteObject {
    /// [`content_digest`] of its text.
    pub digest: String,
    /// The version an update must find to overwrite it.
    pub version: Version,
}

/// The items a sync carried out.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Applied {
    /// Carried out, in order.
    pub done: Vec<SyncItem>,
}

/// A sync that stopped part-way: what was done before the failing key.
#[derive(Debug, thiserror::Error)]
#[error("{} {key}", action.plan_word())]
pub struct SyncError {
    /// Carried out before the failure.
    pub done: Vec<SyncItem>,
    /// The failing action.
    pub action: SyncAction,
    /// The failing key.
    pub key: String,
    /// The store's failure.
    #[source]
    pub source: StoreError,
}

/// Lists every key of the store and downloads each to digest it. Folder
/// markers (keys that are empty or end in `/`) are not files and are left out.
pub async fn read_remote(
    store: &dyn BaselineStore,
) -> Result<BTreeMap<String, RemoteObject>, StoreError> {
    let mut remote = BTreeMap::new();
    for key in store.list("").await? {
        if key.is_empty() || key.ends_with('/') {
            continue;
        }
        // Gone between the listing and the read: nothing to compare or delete.
        if let Some(stored) = store.load(&key).await? {
            let object = RemoteObject {
                digest: content_digest(&stored.text),
                version: stored.version,
            };
            remote.insert(key, object);
        }
    }
    Ok(remote)
}

/// Carries out the writes of `plan`: `local` holds the text of every local
/// key, `remote` what [`read_remote`] returned when the plan was made.
pub async fn apply_sync(
    store: &dyn BaselineStore,
    plan: &SyncPlan,
    local: &BTreeMap<String, String>,
    remote: &BTreeMap<String, RemoteObject>,
) -> Result<Applied, SyncError> {
    let mut done = Vec::new();
    for item in plan.changes() {
        let result = match item.action {
            SyncAction::Upload => save(store, &item.key, local, Precondition::IfAbsent).await,
            SyncAction::Update => match remote.get(&item.key) {
                Some(r) => {
                    let precondition = Precondition::IfUnchanged(r.version.clone());
                    save(store, &item.key, local, precondition).await
                }
                None => Err(inconsistent(&item.key, "no remote version read")),
            },
            SyncAction::Delete => store.delete(&item.key).await,
            SyncAction::Unchanged => Ok(()),
        };
        if let Err(source) = result {
            return Err(SyncError {
                done,
                action: item.action,
                key: item.key.clone(),
                source,
            });
        }
        done.push(item.clone());
    }
    Ok(Applied { done })
}

async fn save(
    store: &dyn BaselineStore,
    key: &str,
    local: &BTreeMap<String, String>,
    precondition: Precondition,
) -> Result<(), StoreError> {
    let text = local
        .get(key)
        .ok_or_else(|| inconsistent(key, "no local text"))?;
    store.save(key, text, precondition).await.map(|_| ())
}

/// A plan that does not fit its inputs (a caller bug), refused rather than guessed.
fn inconsistent(key: &str, what: &str) -> StoreError {
    StoreError::io(
        key,
        format!("sync plan inconsistent with its inputs: {what}"),
    )
}

#[cfg(test)]
mod tests {
    use super::super::plan::plan_sync;
    use super::*;
    use crate::baseline::MemoryStore;
    use futures_executor::block_on;

    fn texts(entries: &[(&str, &str)]) -> BTreeMap<String, String> {
        entries
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    fn seeded(entries: &[(&str, &str)]) -> MemoryStore {
        let store = MemoryStore::new();
        for (k, v) in entries {
            block_on(store.save(k, v, Precondition::None)).unwrap();
        }
        store
    }

    fn sync(store: &MemoryStore, local: &BTreeMap<String, String>) -> Result<Applied, SyncError> {
        let remote = block_on(read_remote(store)).unwrap();
        let digests = remote
            .iter()
            .map(|(k, r)| (k.clone(), r.digest.clone()))
            .collect();
        let local_digests = local
            .iter()
            .map(|(k, t)| (k.clone(), content_digest(t)))
            .collect();
        let plan = plan_sync(&local_digests, &digests);
        block_on(apply_sync(store, &plan, local, &remote))
    }

    #[test]
    fn the_store_ends_equal_to_the_checkout_and_a_rerun_writes_nothing() {
        let store = seeded(&[("A.1.r.json", "old"), ("Gone.1.r.json", "g")]);
        let local = texts(&[("A.1.r.json", "new"), ("B.1.r.json", "b")]);
        let applied = sync(&store, &local).unwrap();
        assert_eq!(applied.done.len(), 3);
        assert_eq!(store.snapshot(), local);
        assert!(sync(&store, &local).unwrap().done.is_empty());
    }

    #[test]
    fn a_concurrent_edit_is_a_conflict_not_an_overwrite() {
        let store = seeded(&[("A.1.r.json", "old")]);
        let remote = block_on(read_remote(&store)).unwrap();
        let local = texts(&[("A.1.r.json", "mine")]);
        let plan = plan_sync(
            &local
                .iter()
                .map(|(k, t)| (k.clone(), content_digest(t)))
                .collect(),
            &remote
                .iter()
                .map(|(k, r)| (k.clone(), r.digest.clone()))
                .collect(),
        );
        // Someone else writes between the read and the sync's write.
        block_on(store.save("A.1.r.json", "theirs", Precondition::None)).unwrap();
        let err = block_on(apply_sync(&store, &plan, &local, &remote)).unwrap_err();
        assert_eq!(
            (err.action, err.key.as_str()),
            (SyncAction::Update, "A.1.r.json")
        );
        assert!(
            matches!(err.source, StoreError::Conflict { .. }),
            "{:?}",
            err.source
        );
        assert_eq!(store.snapshot()["A.1.r.json"], "theirs");
    }
}
