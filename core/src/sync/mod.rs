//! `baselines sync`: mirror the git checkout's `baselines/` into a store.
//!
//! `files` decides what may be synced (every file must be a baseline or the
//! ignore file, or the whole sync is refused), `plan` compares the local and
//! remote contents (pure), `apply` reads the remote side and carries a plan
//! out over any [`crate::baseline::BaselineStore`].

mod apply;
mod files;
mod plan;

pub use apply::{apply_sync, read_remote, Applied, RemoteObject, SyncError};
pub use files::{check_sync_file, SyncFileKind, SyncRefusal, PLACEHOLDER_FILE};
pub use plan::{content_digest, plan_sync, SyncAction, SyncItem, SyncPlan};
