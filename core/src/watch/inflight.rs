//! In-flight markers: dispatch does not queue a stack whose previous scan
//! message is still in flight.
//!
//! Dispatch writes `cache/inflight/<region>/<stack>.json` when it queues a
//! stack; the worker removes it when it is done with the stack (scanned,
//! or dropped for good). A marker is honoured only until its expiry, set
//! from the work queue's visibility timeout when it was written: after
//! that the message has surely been received and either finished or
//! failed back to the queue, so a stale marker (a crashed worker, a lost
//! delete) skips at most the dispatches before it expires, never scanning
//! forever. Fail safe: a marker that cannot be read or parsed, or a store
//! error, counts as no marker (the stack is queued; a stack queued twice is
//! scanned twice, which the state's conditional write makes harmless).

use crate::baseline::BaselineStore;
use serde::{Deserialize, Serialize};

/// The store prefix of in-flight markers (under `cache/`, which the scan
/// may write).
pub const INFLIGHT_PREFIX: &str = "cache/inflight/";

/// One marker.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InFlight {
    /// When dispatch queued the stack (milliseconds since the Unix epoch).
    pub queued_at_ms: u64,
    /// After this the marker is ignored.
    pub expires_at_ms: u64,
}

impl InFlight {
    /// True while the marker holds the stack back at `now_ms`.
    pub fn holds(&self, now_ms: u64) -> bool {
        now_ms <= self.expires_at_ms
    }
}

/// The marker key of `stack` in `region`; `None` when the name cannot be
/// a key segment (then no marker is used and the stack is always queued).
pub fn inflight_key(region: &str, stack: &str) -> Option<String> {
    let ok = |s: &str| {
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    };
    (ok(region) && ok(stack)).then(|| format!("{INFLIGHT_PREFIX}{region}/{stack}.json"))
}

/// True when a marker holds `stack` back at `now_ms`.
pub async fn is_in_flight(
    store: &dyn BaselineStore,
    region: &str,
    stack: &str,
    now_ms: u64,
) -> bool {
    let Some(key) = inflight_key(region, stack) else {
        return false;
    };
    match store.load(&key).await {
        Ok(Some(s)) => serde_json::from_str::<InFlight>(&s.text).is_ok_and(|m| m.holds(now_ms)),
        _ => false,
    }
}

/// Writes the marker of a stack just queued; an error is returned for the
/// caller to log (the stack stays queued either way).
pub async fn mark_in_flight(
    store: &dyn BaselineStore,
    region: &str,
    stack: &str,
    now_ms: u64,
    ttl_ms: u64,
) -> Result<(), String> {
    let Some(key) = inflight_key(region, stack) else {
        return Ok(());
    };
    let m = InFlight {
        queued_at_ms: now_ms,
        expires_at_ms: now_ms.saturating_add(ttl_ms),
    };
    let text = serde_json::to_string(&m).unwrap_or_default();
    store
        .save(&key, &text, crate::baseline::Precondition::None)
        .await
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// Removes the marker of a stack the worker is done with.
pub async fn clear_in_flight(
    store: &dyn BaselineStore,
    region: &str,
    stack: &str,
) -> Result<(), String> {
    let Some(key) = inflight_key(region, stack) else {
        return Ok(());
    };
    store.delete(&key).await.map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::baseline::MemoryStore;
    use futures_executor::block_on;

    #[test]
    fn a_marker_holds_until_it_expires_and_garbage_holds_nothing() {
        let store = MemoryStore::new();
        block_on(mark_in_flight(&store, "eu-west-1", "App", 1_000, 500)).unwrap();
        assert!(block_on(is_in_flight(&store, "eu-west-1", "App", 1_500)));
        assert!(!block_on(is_in_flight(&store, "eu-west-1", "App", 1_501)));
        assert!(!block_on(is_in_flight(&store, "eu-west-1", "Other", 1_000)));
        block_on(clear_in_flight(&store, "eu-west-1", "App")).unwrap();
        assert!(!block_on(is_in_flight(&store, "eu-west-1", "App", 1_000)));
        let key = inflight_key("eu-west-1", "App").unwrap();
        block_on(store.save(&key, "not json", crate::baseline::Precondition::None)).unwrap();
        assert!(!block_on(is_in_flight(&store, "eu-west-1", "App", 0)));
        assert_eq!(inflight_key("eu-west-1", "a/../b"), None);
    }
}
