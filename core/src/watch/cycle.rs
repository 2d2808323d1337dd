//! One state update of one stack: load the state, compute the transitions,
//! claim their notices in the same conditional write that advances the
//! state, deliver, then release the claim (see [`super::outbox`] for why).
//!
//! A write that loses a race (someone else wrote the state since it was
//! loaded) reloads and recomputes against the fresh state, a bounded number
//! of times: the transition the other writer already claimed is then no
//! longer new, so it is announced once.
//!
//! Delivery: every required channel (SNS) must take a notice before the
//! optional ones (Slack) are tried. A required failure keeps the
//! undelivered notices claimed and fails the update (the caller's message
//! is retried; the retry takes the notices over once the claim's deadline
//! has passed). An optional failure is reported, never fatal, and the
//! notice is kept for the optional channels only: the next run of the
//! stack re-sends it there before its own notices.

use super::alert::notices;
use super::observe::Observation;
use super::outbox::{split_expired, OutboxEntry, MAX_OPTIONAL_OWED};
use super::state::{state_key, StackState, StateError};
use super::transition::{advance, Step};
use crate::baseline::{BaselineError, BaselineStore, Precondition, StoreError, Version};
use crate::notify::{Notice, Notifier, NotifyError};
use crate::report::StackReport;
use std::sync::Arc;

/// Default number of load-compute-write attempts under write conflicts.
pub const DEFAULT_ATTEMPTS: usize = 5;

/// Where notices go.
#[derive(Clone, Default)]
pub struct Channels {
    /// Channels that must take every notice (SNS).
    pub required: Vec<Arc<dyn Notifier>>,
    /// Channels tried after the required ones; failures are reported only (Slack).
    pub optional: Vec<Arc<dyn Notifier>>,
}

/// Who is updating, and when.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claimant {
    /// Unique id of this run (a Lambda request id).
    pub id: String,
    /// Now, in milliseconds since the Unix epoch.
    pub now_ms: u64,
    /// When this run is surely over (its Lambda deadline), in the same unit.
    pub deadline_ms: u64,
    /// Attempts under write conflicts (at least 1).
    pub attempts: usize,
}

/// What an update did.
#[derive(Debug, Clone, PartialEq)]
pub struct Update {
    /// The step that was stored (transitions against the state written over).
    pub step: Step,
    /// Notices delivered to every required channel (taken-over ones first).
    pub delivered: Vec<Notice>,
    /// Optional-channel failures (the notices still went to the required channels).
    pub optional_failures: Vec<NotifyError>,
    /// Notices an optional channel refused, kept in the outbox so the next
    /// run re-sends them there (at most [`MAX_OPTIONAL_OWED`] are kept).
    pub optional_owed: Vec<Notice>,
    /// The state text changed and was written.
    pub written: bool,
    /// Write conflicts met before the write went through.
    pub conflicts: usize,
    /// The claim could not be released (its notices may be delivered again
    /// by a later run after the deadline).
    pub release_error: Option<String>,
}

/// Why an update failed. Nothing was announced that the stored state does
/// not hold as claimed or delivered.
#[derive(Debug, thiserror::Error)]
pub enum UpdateError {
    /// The stack identity cannot name a state file.
    #[error("state key")]
    Key(#[source] BaselineError),
    /// The state file could not be read or written.
    #[error("state store")]
    Store(#[source] StoreError),
    /// The state file is malformed, of another version or another stack.
    #[error(transparent)]
    State(#[from] StateError),
    /// Every attempt lost a write race.
    #[error("state {key}: {attempts} attempts lost a concurrent write")]
    Contended {
        /// The state key.
        key: String,
        /// Attempts made.
        attempts: usize,
    },
    /// A required channel refused a notice; the undelivered notices stay claimed.
    #[error("delivering {kind} ({pending} notices left claimed)")]
    Deliver {
        /// The notice kind that failed.
        kind: String,
        /// Notices left in the outbox.
        pending: usize,
        /// The channel's error.
        #[source]
        source: NotifyError,
    },
}

struct Loaded {
    state: Option<StackState>,
    text: Option<String>,
    version: Option<Version>,
}

async fn load(
    store: &dyn BaselineStore,
    key: &str,
    obs: &Observation,
) -> Result<Loaded, UpdateError> {
    let stored = store.load(key).await.map_err(UpdateError::Store)?;
    Ok(match stored {
        Some(s) => Loaded {
            state: Some(StackState::parse_for(key, &s.text, &obs.identity)?),
            text: Some(s.text),
            version: Some(s.version),
        },
        None => Loaded {
            state: None,
            text: None,
            version: None,
        },
    })
}

/// Updates the stack's state from `obs` and announces its transitions.
/// `report` is the stack as checked now (summary, coverage, masks).
pub async fn update_stack(
    store: &dyn BaselineStore,
    obs: &Observation,
    report: &StackReport,
    channels: &Channels,
    who: &Claimant,
) -> Result<Update, UpdateError> {
    let key = state_key(&obs.identity).map_err(UpdateError::Key)?;
    let attempts = who.attempts.max(1);
    for attempt in 0..attempts {
        let loaded = load(store, &key, obs).await?;
        let step = advance(loaded.state.as_ref(), obs);
        let mut next = step.state.clone();
        let (held, free) = split_expired(&next.outbox, who.now_ms);
        let (owed, free): (Vec<_>, Vec<_>) = free.into_iter().partition(|e| e.optional_only);
        let mine = OutboxEntry {
            id: format!("{}#{attempt}", who.id),
            deadline_ms: who.deadline_ms,
            notices: free
                .into_iter()
                .flat_map(|e| e.notices)
                .chain(notices(&step.transitions, report))
                .collect(),
            optional_only: false,
        };
        let owed = OutboxEntry {
            id: format!("{}#{attempt}-optional", who.id),
            deadline_ms: who.deadline_ms,
            notices: owed.into_iter().flat_map(|e| e.notices).collect(),
            optional_only: true,
        };
        next.outbox = held;
        for entry in [&owed, &mine] {
            if !entry.notices.is_empty() {
                next.outbox.push(entry.clone());
            }
        }
        let text = next.to_text();
        let mut update = Update {
            step,
            delivered: Vec::new(),
            optional_failures: Vec::new(),
            optional_owed: Vec::new(),
            written: false,
            conflicts: attempt,
            release_error: None,
        };
        if loaded.text.as_deref() == Some(text.as_str()) {
            return Ok(update);
        }
        let precondition = match loaded.version {
            Some(v) => Precondition::IfUnchanged(v),
            None => Precondition::IfAbsent,
        };
        match store.save(&key, &text, precondition).await {
            Ok(_) => update.written = true,
            Err(StoreError::Conflict { .. }) => continue,
            Err(e) => return Err(UpdateError::Store(e)),
        }
        if mine.notices.is_empty() && owed.notices.is_empty() {
            return Ok(update);
        }
        deliver(store, &key, obs, channels, [&owed, &mine], &mut update).await?;
        return Ok(update);
    }
    Err(UpdateError::Contended { key, attempts })
}

/// Delivers the claimed entries (what the optional channels are owed
/// first, then `mine`), then releases them, keeping what an optional
/// channel refused for the next run.
async fn deliver(
    store: &dyn BaselineStore,
    key: &str,
    obs: &Observation,
    channels: &Channels,
    [owed, mine]: [&OutboxEntry; 2],
    update: &mut Update,
) -> Result<(), UpdateError> {
    let mut refused = send_optional(channels, &owed.notices, update).await;
    for (i, notice) in mine.notices.iter().enumerate() {
        for ch in &channels.required {
            if let Err(source) = ch.send(notice).await {
                let rest = mine.notices[i..].to_vec();
                let pending = rest.len();
                // Keep only what was not delivered, so a takeover does not
                // repeat what the required channels already took.
                let mut keep = vec![entry_like(mine, rest, false)];
                if !refused.is_empty() {
                    keep.push(entry_like(owed, refused, true));
                }
                if let Err(e) = settle(store, key, obs, &[&owed.id, &mine.id], keep).await {
                    update.release_error = Some(e);
                }
                return Err(UpdateError::Deliver {
                    kind: notice.kind.clone(),
                    pending,
                    source,
                });
            }
        }
        refused.extend(send_optional(channels, std::slice::from_ref(notice), update).await);
        update.delivered.push(notice.clone());
    }
    let skip = refused.len().saturating_sub(MAX_OPTIONAL_OWED);
    let keep: Vec<OutboxEntry> = (!refused.is_empty())
        .then(|| entry_like(mine, refused.split_off(skip), true))
        .into_iter()
        .collect();
    if let Err(e) = settle(store, key, obs, &[&owed.id, &mine.id], keep).await {
        update.release_error = Some(e);
    }
    Ok(())
}

/// Sends each notice to every optional channel; returns the notices some
/// optional channel refused (their errors go to `update`).
async fn send_optional(
    channels: &Channels,
    notices: &[Notice],
    update: &mut Update,
) -> Vec<Notice> {
    let mut refused = Vec::new();
    for notice in notices {
        let mut failed = false;
        for ch in &channels.optional {
            if let Err(e) = ch.send(notice).await {
                update.optional_failures.push(e);
                failed = true;
            }
        }
        if failed {
            update.optional_owed.push(notice.clone());
            refused.push(notice.clone());
        }
    }
    refused
}

/// `entry`'s claim holding `notices`. Notices kept for the optional
/// channels are free to take over at once: this run is done sending them.
fn entry_like(entry: &OutboxEntry, notices: Vec<Notice>, optional_only: bool) -> OutboxEntry {
    OutboxEntry {
        id: entry.id.clone(),
        deadline_ms: if optional_only { 0 } else { entry.deadline_ms },
        notices,
        optional_only,
    }
}

/// Replaces the outbox entries `ids` (those still there: another run may
/// have taken one over) with `keep`, retrying write conflicts.
async fn settle(
    store: &dyn BaselineStore,
    key: &str,
    obs: &Observation,
    ids: &[&str],
    keep: Vec<OutboxEntry>,
) -> Result<(), String> {
    for _ in 0..DEFAULT_ATTEMPTS {
        let loaded = load(store, key, obs).await.map_err(|e| e.to_string())?;
        let (Some(mut state), Some(version)) = (loaded.state, loaded.version) else {
            return Ok(());
        };
        let before = state.outbox.len();
        state.outbox.retain(|e| !ids.contains(&e.id.as_str()));
        if state.outbox.len() == before {
            return Ok(());
        }
        state
            .outbox
            .extend(keep.iter().filter(|e| !e.notices.is_empty()).cloned());
        match store
            .save(key, &state.to_text(), Precondition::IfUnchanged(version))
            .await
        {
            Ok(_) => return Ok(()),
            Err(StoreError::Conflict { .. }) => continue,
            Err(e) => return Err(e.to_string()),
        }
    }
    Err(format!(
        "{key}: outbox entries {ids:?}: every attempt lost a concurrent write"
    ))
}
