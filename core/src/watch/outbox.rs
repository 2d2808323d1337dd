//! The outbox: notices a run has claimed for delivery, stored in the state
//! file by the same conditional write that advances the state.
//!
//! Claiming in the state write is what makes delivery exactly-once in the
//! normal case and never lost: the transition and its notices land
//! together or not at all, so two runs racing on one stack cannot both
//! claim the same transition (the loser re-computes against the winner's
//! state, where the transition is no longer new). The claimer delivers and
//! then removes its entry. An entry left behind (the run crashed, or SNS
//! failed and the message will be retried) is taken over by any later run
//! once its deadline has passed: the claimer's Lambda deadline, after which
//! it cannot still be delivering. Only a crash between a successful
//! delivery and the removal delivers twice.
//!
//! Notices the optional channels (Slack) refused after their retries stay
//! too, as an `optional_only` entry: the next run of the stack re-sends
//! them to the optional channels only (SNS already has them).

use crate::notify::Notice;
use serde::{Deserialize, Serialize};

/// Notices one run claimed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OutboxEntry {
    /// Unique claim id (the run's request id and a counter).
    pub id: String,
    /// Milliseconds since the Unix epoch after which the claimer is surely
    /// gone and another run may deliver the notices.
    pub deadline_ms: u64,
    /// The notices, in delivery order.
    pub notices: Vec<Notice>,
    /// Every required channel took these notices; only the optional ones
    /// (Slack) still owe them, and a later run re-sends them there.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub optional_only: bool,
}

/// At most this many notices are kept for the optional channels: a webhook
/// that stays broken must not grow the state file without bound (the
/// oldest are dropped first; SNS had them all).
pub const MAX_OPTIONAL_OWED: usize = 50;

impl OutboxEntry {
    /// True when another run may take the entry over at `now_ms`.
    pub fn expired(&self, now_ms: u64) -> bool {
        now_ms > self.deadline_ms
    }
}

/// Splits an outbox into entries another run still holds and entries that
/// are free to take over at `now_ms`.
pub fn split_expired(outbox: &[OutboxEntry], now_ms: u64) -> (Vec<OutboxEntry>, Vec<OutboxEntry>) {
    outbox.iter().cloned().partition(|e| !e.expired(now_ms))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(id: &str, deadline_ms: u64) -> OutboxEntry {
        OutboxEntry {
            id: id.into(),
            deadline_ms,
            notices: Vec::new(),
            optional_only: false,
        }
    }

    #[test]
    fn only_entries_past_their_deadline_are_free() {
        let (held, free) = split_expired(&[entry("a", 100), entry("b", 300)], 200);
        assert_eq!(held, vec![entry("b", 300)]);
        assert_eq!(free, vec![entry("a", 100)]);
        assert!(
            !entry("c", 200).expired(200),
            "the deadline itself is still held"
        );
    }
}
