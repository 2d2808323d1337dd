//! Counts I/O calls by operation (`service:Operation`), whatever makes them.
//!
//! The AWS crate feeds it from an SDK interceptor; in-memory sources record
//! into it directly, so tests see the same figures a real run reports.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

/// Call counts keyed by `service:Operation` (e.g. `cloudcontrol:GetResource`).
///
/// Cloning shares the counts, so one counter can be attached to every client
/// of a bundle and read once at the end of a run.
#[derive(Debug, Clone, Default)]
pub struct CallCounter {
    counts: Arc<Mutex<BTreeMap<String, u64>>>,
}

impl CallCounter {
    /// A fresh counter with no calls.
    pub fn new() -> Self {
        Self::default()
    }

    /// Records one call of `operation` (already in `service:Operation` form).
    pub fn record(&self, operation: &str) {
        // A poisoned lock only means another thread panicked mid-increment;
        // the map itself is still a valid count, so keep counting.
        let mut counts = self.counts.lock().unwrap_or_else(|p| p.into_inner());
        *counts.entry(operation.to_string()).or_insert(0) += 1;
    }

    /// A copy of the counts so far.
    pub fn snapshot(&self) -> BTreeMap<String, u64> {
        self.counts
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    /// The total number of calls so far.
    pub fn total(&self) -> u64 {
        self.snapshot().values().sum()
    }
}

/// `after - before`, per key, dropping zeros (the calls of one stretch of a run).
pub fn diff_counts(
    before: &BTreeMap<String, u64>,
    after: &BTreeMap<String, u64>,
) -> BTreeMap<String, u64> {
    after
        .iter()
        .filter_map(|(k, v)| {
            let d = v.saturating_sub(before.get(k).copied().unwrap_or(0));
            (d > 0).then(|| (k.clone(), d))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clones_share_counts_and_diffs_drop_zeros() {
        let c = CallCounter::new();
        c.clone().record("s3:GetObject");
        let before = c.snapshot();
        c.record("s3:GetObject");
        c.record("sns:Publish");
        assert_eq!(c.total(), 3);
        let d = diff_counts(&before, &c.snapshot());
        assert_eq!(d.get("s3:GetObject"), Some(&1));
        assert_eq!(d.get("sns:Publish"), Some(&1));
        assert_eq!(d.len(), 2);
    }
}
