//! Errors of the baseline stage: bad files, identity guards, store I/O.

use super::store::StoreError;

/// Everything that can go wrong loading, applying or saving a baseline.
#[derive(Debug, thiserror::Error)]
pub enum BaselineError {
    /// The file is not valid JSON or not in the baseline shape.
    #[error("baseline {name}: {source}")]
    Parse {
        /// The file (or store key) being read.
        name: String,
        /// The JSON error, carrying line and column.
        source: serde_json::Error,
    },
    /// The file declares a schema version this engine does not understand.
    #[error("baseline {name}: unsupported schemaVersion {version} (this realdrift reads 1 and 2)")]
    UnsupportedVersion {
        /// The file (or store key).
        name: String,
        /// The version found.
        version: u64,
    },
    /// The file's identity (account, stack or region) is not the run's.
    #[error(
        "baseline {name}: recorded for {field} {found:?} but this run is {expected:?} \
         (was the file copied or renamed?)"
    )]
    IdentityMismatch {
        /// The file (or store key).
        name: String,
        /// `accountId`, `stackName` or `region`.
        field: &'static str,
        /// The value in the file.
        found: String,
        /// The value of this run.
        expected: String,
    },
    /// A stack, account or region cannot form a safe file name.
    #[error("cannot name a baseline file after {what} {value:?}: {reason}")]
    BadName {
        /// Which identity part was rejected.
        what: &'static str,
        /// The rejected value.
        value: String,
        /// Why it was rejected.
        reason: &'static str,
    },
    /// The store could not load or save (or a save's precondition failed).
    #[error(transparent)]
    Store(#[from] StoreError),
}
