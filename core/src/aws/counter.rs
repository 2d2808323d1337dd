//! Counts every AWS call by operation, through an SDK interceptor.

use aws_smithy_runtime_api::box_error::BoxError;
use aws_smithy_runtime_api::client::interceptors::context::BeforeSerializationInterceptorContextRef;
use aws_smithy_runtime_api::client::interceptors::Intercept;
use aws_smithy_runtime_api::client::orchestrator::Metadata;
use aws_smithy_runtime_api::client::runtime_components::RuntimeComponents;
use aws_smithy_types::config_bag::ConfigBag;
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

    /// The SDK interceptor that feeds this counter.
    pub fn interceptor(&self) -> CountingInterceptor {
        CountingInterceptor {
            counter: self.clone(),
        }
    }
}

/// An SDK interceptor counting each operation once per call (not per retry
/// attempt), so the figure is "reads we asked for", comparable across runs.
#[derive(Debug, Clone)]
pub struct CountingInterceptor {
    counter: CallCounter,
}

impl Intercept for CountingInterceptor {
    fn name(&self) -> &'static str {
        "RealdriftCallCounter"
    }

    // Serialization happens once per call, before the retry loop, and (unlike
    // `read_before_execution`) after the operation's metadata is in the bag.
    fn read_before_serialization(
        &self,
        _context: &BeforeSerializationInterceptorContextRef<'_>,
        _runtime_components: &RuntimeComponents,
        cfg: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        let key = match cfg.load::<Metadata>() {
            Some(m) => format!("{}:{}", m.service().to_ascii_lowercase(), m.name()),
            None => "unknown:unknown".to_string(),
        };
        self.counter.record(&key);
        Ok(())
    }
}
