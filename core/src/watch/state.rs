//! The state file `state/<stack>.<accountId>.<region>.json`: what the last
//! check of a stack found, so the next one alerts on transitions only.
//!
//! It holds the drift set (after baseline and ignore rules, masked), the
//! observation memory (the reference value of every undeclared value no
//! baseline entry covers), per-resource coverage and the outbox of notices
//! claimed but not yet confirmed delivered. Written with sorted keys and
//! stable list order, so equal content is equal bytes and a write can be
//! skipped when nothing changed. A file of another `version` is refused,
//! never overwritten.

use super::flap::Flap;
use super::outbox::OutboxEntry;
use super::storm::Storm;
use crate::baseline::{sort_keys, StackIdentity};
use crate::finding::{Finding, Tier};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

/// The state file format version this code reads and writes.
pub const STATE_VERSION: u32 = 1;

/// The store prefix of state files.
pub const STATE_PREFIX: &str = "state/";

/// The identity of one drift entry: logical id, path, tier.
pub type DriftKey = (String, String, Tier);

/// The identity of one observed value: logical id, path.
pub type ValueKey = (String, String);

/// Why a state file could not be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StateError {
    /// Not a state document.
    #[error("state {key}: {message}")]
    Invalid {
        /// The store key.
        key: String,
        /// What is wrong.
        message: String,
    },
    /// Another format version (a newer realdrift wrote it): refused, kept.
    #[error("state {key}: version {found} is not {STATE_VERSION}; refusing to read or overwrite it (upgrade realdrift, or delete the file to start over)")]
    Version {
        /// The store key.
        key: String,
        /// The version found.
        found: u64,
    },
    /// The file belongs to another stack, account or region.
    #[error("state {key}: holds {found}, not {expected}")]
    Identity {
        /// The store key.
        key: String,
        /// `stack/account/region` in the file.
        found: String,
        /// `stack/account/region` expected.
        expected: String,
    },
}

/// One drift finding the last check reported.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DriftEntry {
    /// The finding (masked; `cause` kept when an event explained it).
    #[serde(flatten)]
    pub finding: Finding,
    /// Drift only because observation memory saw the value change (no
    /// baseline entry confirms it); dropped silently on a deploy.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub observed_change: bool,
    /// For an `added` child: the declared parent it was listed under.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent: Option<String>,
}

impl DriftEntry {
    /// The entry's identity.
    pub fn key(&self) -> DriftKey {
        (
            self.finding.logical_id.clone(),
            self.finding.path.clone(),
            self.finding.tier,
        )
    }
}

/// The reference observation of one undeclared value without a baseline
/// entry (or of a value AWS chose at create): the first value seen under
/// the current template hash.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ObservedValue {
    /// Logical id (an `added` child's synthetic id for a whole child).
    pub logical_id: String,
    /// Resource type.
    pub resource_type: String,
    /// Dotted property path (empty for a whole added child).
    pub path: String,
    /// The tier it was observed under (`undeclared` or `added`).
    pub tier: Tier,
    /// The value (masked).
    pub value: Value,
    /// For an `added` child: the declared parent it was listed under.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent: Option<String>,
}

impl ObservedValue {
    /// The value's identity.
    pub fn key(&self) -> ValueKey {
        (self.logical_id.clone(), self.path.clone())
    }
}

/// Whether a resource's live model was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ReadStatus {
    /// Read and compared.
    Read,
    /// Not read (custom, unsupported, failed, denied).
    #[default]
    NotRead,
    /// Gone from AWS.
    Deleted,
}

impl ReadStatus {
    /// True when the resource's state is known (read, or known gone).
    pub fn is_known(self) -> bool {
        !matches!(self, ReadStatus::NotRead)
    }
}

/// Whether a parent's out-of-band children were listed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ListStatus {
    /// The type has no child enumerator.
    #[default]
    None,
    /// Listed completely.
    Complete,
    /// The listing failed.
    Failed,
}

fn is_default<T: Default + PartialEq>(v: &T) -> bool {
    *v == T::default()
}

/// One template resource's coverage, and what of it was lost and alerted.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceCoverage {
    /// Resource type.
    pub resource_type: String,
    /// The read outcome.
    pub read: ReadStatus,
    /// The child listing outcome.
    #[serde(default, skip_serializing_if = "is_default")]
    pub children: ListStatus,
    /// The read was lost (alerted) and not regained since.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub read_lost: bool,
    /// The read was lost because no reader reads the type (not a failure
    /// streak): regained when it is read or the team accepts the type.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unreadable: bool,
    /// The child listing was lost (alerted) and not regained since.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub children_lost: bool,
    /// Consecutive failed reads since the resource was last read.
    #[serde(default, skip_serializing_if = "is_default")]
    pub failures: u32,
    /// When the read this entry holds started (milliseconds since the Unix
    /// epoch); an observation whose read started earlier does not replace it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read_at_ms: Option<u64>,
}

/// The last check of one stack, as stored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StackState {
    /// [`STATE_VERSION`].
    pub version: u32,
    /// Stack name.
    pub stack_name: String,
    /// Account id.
    pub account_id: String,
    /// Region.
    pub region: String,
    /// Hex SHA-256 of the template the observations were made under.
    pub template_hash: String,
    /// The drift set, sorted by key.
    #[serde(default)]
    pub drift: Vec<DriftEntry>,
    /// Reference observations, sorted by key.
    #[serde(default)]
    pub observations: Vec<ObservedValue>,
    /// Coverage per logical id.
    #[serde(default)]
    pub coverage: BTreeMap<String, ResourceCoverage>,
    /// Notices claimed for delivery and not yet confirmed sent.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub outbox: Vec<OutboxEntry>,
    /// The status of a stack that was not settled at its last check (it
    /// was announced not checked, once; cleared when it is checked again).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_checked: Option<String>,
    /// Open suppression windows of flapping drift keys (see
    /// [`super::flap`]); an optional field, so the format version stays.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub flaps: Vec<Flap>,
    /// The storm watch: recent re-checks and the transitions an open storm
    /// holds (see [`super::storm`]); optional, so the format version stays.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub storm: Option<Storm>,
}

/// The store key of a stack's state file.
pub fn state_key(identity: &StackIdentity) -> Result<String, crate::baseline::BaselineError> {
    Ok(format!("{STATE_PREFIX}{}", identity.file_name()?))
}

impl StackState {
    /// An empty state for a stack (the "no state file yet" starting point).
    pub fn empty(identity: &StackIdentity, template_hash: &str) -> Self {
        StackState {
            version: STATE_VERSION,
            stack_name: identity.stack_name.clone(),
            account_id: identity.account_id.clone(),
            region: identity.region.clone(),
            template_hash: template_hash.to_string(),
            drift: Vec::new(),
            observations: Vec::new(),
            coverage: BTreeMap::new(),
            outbox: Vec::new(),
            not_checked: None,
            flaps: Vec::new(),
            storm: None,
        }
    }

    /// The identity the file is about.
    pub fn identity(&self) -> StackIdentity {
        StackIdentity::new(&self.stack_name, &self.account_id, &self.region)
    }

    /// Parses a state file: the version is checked before anything else,
    /// so a newer format is refused by name rather than half-read.
    pub fn parse(key: &str, text: &str) -> Result<Self, StateError> {
        let invalid = |message: String| StateError::Invalid {
            key: key.to_string(),
            message,
        };
        let raw: Value = serde_json::from_str(text).map_err(|e| invalid(e.to_string()))?;
        let version = raw
            .get("version")
            .and_then(Value::as_u64)
            .ok_or_else(|| invalid("no numeric `version` field".into()))?;
        if version != u64::from(STATE_VERSION) {
            return Err(StateError::Version {
                key: key.to_string(),
                found: version,
            });
        }
        serde_json::from_value(raw).map_err(|e| invalid(e.to_string()))
    }

    /// Parses and checks the file is about `identity`.
    pub fn parse_for(key: &str, text: &str, identity: &StackIdentity) -> Result<Self, StateError> {
        let state = Self::parse(key, text)?;
        let found = state.identity();
        if &found != identity {
            let show =
                |i: &StackIdentity| format!("{}/{}/{}", i.stack_name, i.account_id, i.region);
            return Err(StateError::Identity {
                key: key.to_string(),
                found: show(&found),
                expected: show(identity),
            });
        }
        Ok(state)
    }

    /// Sorts every list, so equal content always writes equal bytes.
    pub fn normalize(&mut self) {
        self.drift.sort_by_key(DriftEntry::key);
        self.drift.dedup_by(|a, b| a.key() == b.key());
        self.observations.sort_by_key(ObservedValue::key);
        self.observations.dedup_by(|a, b| a.key() == b.key());
        self.outbox.sort_by(|a, b| a.id.cmp(&b.id));
        self.flaps.sort_by_key(Flap::key);
    }

    /// The diff-friendly text: sorted keys, 2-space indent, final newline.
    pub fn to_text(&self) -> String {
        let mut canonical = self.clone();
        canonical.normalize();
        // Plain data (string keys, JSON values): serializing cannot fail.
        let value = serde_json::to_value(&canonical).unwrap_or(Value::Null);
        let mut text =
            serde_json::to_string_pretty(&sort_keys(&value)).unwrap_or_else(|_| "null".into());
        text.push('\n');
        text
    }

    /// The drift entries by key.
    pub fn drift_by_key(&self) -> BTreeMap<DriftKey, &DriftEntry> {
        self.drift.iter().map(|e| (e.key(), e)).collect()
    }

    /// The reference observations by key.
    pub fn observations_by_key(&self) -> BTreeMap<ValueKey, &ObservedValue> {
        self.observations.iter().map(|o| (o.key(), o)).collect()
    }
}
