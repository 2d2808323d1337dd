//! The sync plan: local contents vs remote contents -> one action per key.
//!
//! Pure. Contents are compared by SHA-256 of their bytes, computed on both
//! sides by realdrift itself (the remote side from the downloaded object), so
//! the comparison trusts neither S3 ETags (an MD5 only for single-part uploads
//! without SSE-KMS) nor metadata another writer may have left out.

use serde::Serialize;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;

/// What the sync does with one key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum SyncAction {
    /// In git, not in the store: written (only if still absent).
    Upload,
    /// In both, contents differ: overwritten (only if unchanged since read).
    Update,
    /// In the store, no longer in git: removed.
    Delete,
    /// In both with the same contents: left alone.
    Unchanged,
}

impl SyncAction {
    /// Every action, in the order a plan carries them out and prints them.
    pub const ALL: [SyncAction; 4] = [
        SyncAction::Upload,
        SyncAction::Update,
        SyncAction::Delete,
        SyncAction::Unchanged,
    ];

    /// True when the action writes to the store.
    pub fn writes(self) -> bool {
        self != SyncAction::Unchanged
    }

    /// The past-tense word for a report (`uploaded`, ...).
    pub fn done_word(self) -> &'static str {
        match self {
            SyncAction::Upload => "uploaded",
            SyncAction::Update => "updated",
            SyncAction::Delete => "deleted",
            SyncAction::Unchanged => "unchanged",
        }
    }

    /// The imperative word for a dry run (`upload`, ...).
    pub fn plan_word(self) -> &'static str {
        match self {
            SyncAction::Upload => "upload",
            SyncAction::Update => "update",
            SyncAction::Delete => "delete",
            SyncAction::Unchanged => "unchanged",
        }
    }
}

/// One key and what happens to it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SyncItem {
    /// The store key (relative to the baselines prefix).
    pub key: String,
    /// The action.
    pub action: SyncAction,
}

/// Every key of either side with its action: writes first (uploads, updates),
/// then deletes, so a renamed file is never missing from both names at once.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SyncPlan {
    /// The items in execution order (by action, then key).
    pub items: Vec<SyncItem>,
}

impl SyncPlan {
    /// The keys with `action`, sorted.
    pub fn keys(&self, action: SyncAction) -> Vec<&str> {
        self.items
            .iter()
            .filter(|i| i.action == action)
            .map(|i| i.key.as_str())
            .collect()
    }

    /// The items that write to the store.
    pub fn changes(&self) -> impl Iterator<Item = &SyncItem> {
        self.items.iter().filter(|i| i.action.writes())
    }

    /// True when nothing would be written.
    pub fn is_noop(&self) -> bool {
        self.changes().next().is_none()
    }
}

/// The hex SHA-256 of a text's bytes.
pub fn content_digest(text: &str) -> String {
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Compares local and remote digests (key -> [`content_digest`]).
pub fn plan_sync(local: &BTreeMap<String, String>, remote: &BTreeMap<String, String>) -> SyncPlan {
    let mut items: Vec<SyncItem> = local
        .iter()
        .map(|(key, digest)| {
            let action = match remote.get(key) {
                None => SyncAction::Upload,
                Some(r) if r == digest => SyncAction::Unchanged,
                Some(_) => SyncAction::Update,
            };
            SyncItem {
                key: key.clone(),
                action,
            }
        })
        .chain(
            remote
                .keys()
                .filter(|k| !local.contains_key(*k))
                .map(|key| SyncItem {
                    key: key.clone(),
                    action: SyncAction::Delete,
                }),
        )
        .collect();
    items.sort_by(|a, b| (a.action, &a.key).cmp(&(b.action, &b.key)));
    SyncPlan { items }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn side(entries: &[(&str, &str)]) -> BTreeMap<String, String> {
        entries
            .iter()
            .map(|(k, text)| (k.to_string(), content_digest(text)))
            .collect()
    }

    fn actions(plan: &SyncPlan) -> Vec<(SyncAction, &str)> {
        plan.items
            .iter()
            .map(|i| (i.action, i.key.as_str()))
            .collect()
    }

    #[test]
    fn first_sync_uploads_everything() {
        let local = side(&[("B.1.r.json", "{}"), ("A.1.r.json", "{}")]);
        let plan = plan_sync(&local, &BTreeMap::new());
        assert_eq!(
            actions(&plan),
            [
                (SyncAction::Upload, "A.1.r.json"),
                (SyncAction::Upload, "B.1.r.json")
            ]
        );
    }

    #[test]
    fn equal_contents_are_a_noop() {
        let both = side(&[("A.1.r.json", "{\"a\":1}"), ("ignore.yaml", "ignore: []\n")]);
        let plan = plan_sync(&both, &both);
        assert!(plan.is_noop());
        assert_eq!(
            plan.keys(SyncAction::Unchanged),
            ["A.1.r.json", "ignore.yaml"]
        );
    }

    #[test]
    fn edits_update_and_removals_delete_after_the_writes() {
        let local = side(&[
            ("A.1.r.json", "new"),
            ("C.1.r.json", "c"),
            ("K.1.r.json", "k"),
        ]);
        let remote = side(&[
            ("A.1.r.json", "old"),
            ("B.1.r.json", "b"),
            ("K.1.r.json", "k"),
        ]);
        let plan = plan_sync(&local, &remote);
        assert_eq!(
            actions(&plan),
            [
                (SyncAction::Upload, "C.1.r.json"),
                (SyncAction::Update, "A.1.r.json"),
                (SyncAction::Delete, "B.1.r.json"),
                (SyncAction::Unchanged, "K.1.r.json"),
            ]
        );
        assert_eq!(plan.changes().count(), 3);
    }

    #[test]
    fn a_whitespace_only_edit_is_still_an_update() {
        // Byte comparison: the store must hold exactly what git reviewed.
        let plan = plan_sync(
            &side(&[("A.1.r.json", "{}\n")]),
            &side(&[("A.1.r.json", "{}")]),
        );
        assert_eq!(plan.keys(SyncAction::Update), ["A.1.r.json"]);
    }

    #[test]
    fn an_empty_checkout_deletes_every_remote_key() {
        let plan = plan_sync(&BTreeMap::new(), &side(&[("A.1.r.json", "a")]));
        assert_eq!(actions(&plan), [(SyncAction::Delete, "A.1.r.json")]);
    }

    #[test]
    fn digest_is_sha256_hex() {
        assert_eq!(
            content_digest(""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }
}
