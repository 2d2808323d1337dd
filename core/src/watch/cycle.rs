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
//! has passed). An optional failure is reported, never fatal.

use super::alert::notices;
use super::observe::Observation;
use super::outbox::{split_expired, OutboxEntry};
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
        let mine = OutboxEntry {
            id: format!("{}#{attempt}", who.id),
            deadline_ms: who.deadline_ms,
            notices: free
                .into_iter()
                .flat_map(|e| e.notices)
                .chain(notices(&step.transitions, report))
                .collect(),
        };
        next.outbox = held;
        if !mine.notices.is_empty() {
            next.outbox.push(mine.clone());
        }
        let text = next.to_text();
        let mut update = Update {
            step,
            delivered: Vec::new(),
            optional_failures: Vec::new(),
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
        if mine.notices.is_empty() {
            return Ok(update);
        }
        deliver(store, &key, obs, channels, &mine, &mut update).await?;
        return Ok(update);
    }
    Err(UpdateError::Contended { key, attempts })
}

/// Delivers a claimed entry, then releases it.
async fn deliver(
    store: &dyn BaselineStore,
    key: &str,
    obs: &Observation,
    channels: &Channels,
    mine: &OutboxEntry,
    update: &mut Update,
) -> Result<(), UpdateError> {
    for (i, notice) in mine.notices.iter().enumerate() {
        for ch in &channels.required {
            if let Err(source) = ch.send(notice).await {
                let rest = mine.notices[i..].to_vec();
                let pending = rest.len();
                // Keep only what was not delivered, so a takeover does not
                // repeat what the required channels already took.
                if let Err(e) = rewrite_entry(store, key, obs, &mine.id, Some(rest)).await {
                    update.release_error = Some(e);
                }
                return Err(UpdateError::Deliver {
                    kind: notice.kind.clone(),
                    pending,
                    source,
                });
            }
        }
        for ch in &channels.optional {
            if let Err(e) = ch.send(notice).await {
                update.optional_failures.push(e);
            }
        }
        update.delivered.push(notice.clone());
    }
    if let Err(e) = rewrite_entry(store, key, obs, &mine.id, None).await {
        update.release_error = Some(e);
    }
    Ok(())
}

/// Replaces (or removes, with `None`) the outbox entry `id`, retrying
/// write conflicts: other writers keep the entry, so it is still there.
async fn rewrite_entry(
    store: &dyn BaselineStore,
    key: &str,
    obs: &Observation,
    id: &str,
    notices: Option<Vec<Notice>>,
) -> Result<(), String> {
    for _ in 0..DEFAULT_ATTEMPTS {
        let loaded = load(store, key, obs).await.map_err(|e| e.to_string())?;
        let (Some(mut state), Some(version)) = (loaded.state, loaded.version) else {
            return Ok(());
        };
        let Some(pos) = state.outbox.iter().position(|e| e.id == id) else {
            return Ok(());
        };
        match &notices {
            Some(n) => state.outbox[pos].notices = n.clone(),
            None => {
                state.outbox.remove(pos);
            }
        }
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
        "{key}: outbox entry {id}: every attempt lost a concurrent write"
    ))
}
