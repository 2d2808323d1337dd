//! Baselines: the git-reviewed record of accepted undeclared state.
//!
//! `file` is the on-disk model, `store` where it lives, `apply` what it means
//! for a run's findings, `record` how a new one is written.

mod apply;
mod context;
mod error;
mod facts;
mod file;
mod json;
mod path;
mod record;
mod store;

pub use apply::{
    apply_baseline, ApplyOutcome, BaselineNote, NOTE_APPEARED, NOTE_CHANGED, NOTE_DEFAULT_DELETED,
    NOTE_REDEPLOYED, NOTE_REMOVED,
};
pub use context::{ChildScan, ReadState, ResourceState, RunContext, StackIdentity};
pub use error::BaselineError;
pub use facts::{facts, source_fingerprint, BaselineFacts};
pub use file::{
    file_name, fingerprint_key, BaselineFile, ObservedDefault, RecordedEntry, ResourceRef,
    SCHEMA_VERSION,
};
pub use json::{deep_hash, sort_keys, template_hash};
pub use path::{below, parent_cuts, segments, Segment};
pub use record::{
    candidates, check_record_target, is_recordable, preview, record, EntryKey, RecordDelta,
    RecordInput, RecordOutcome, Selection,
};
pub use store::{
    check_key, load_baseline, read_text_file, save_baseline, BaselineStore, LocalDirStore,
    MemoryStore, Precondition, StoreError, Stored, Version, MAX_STORED_BYTES,
};
