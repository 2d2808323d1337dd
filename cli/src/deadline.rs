//! The per-stack deadline: every call gathering one stack shares one time
//! budget, so a slow or silent endpoint costs a stack at most that long.
//!
//! The SDK's own timeouts bound each call; this bounds their sum. Gathering
//! is one stack at a time and starts with DescribeStacks, so that call starts
//! the stack's clock. Past the deadline a read is skipped with lost coverage,
//! a child listing fails (lost coverage) and a desired-side call fails (the
//! stack becomes an error entry): the run reports, it never hangs.

use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use realdrift_core::pipeline::{
    ChildEnumerator, ChildQuery, KmsAliasSource, LiveChild, LiveReader, ReadOutcome, ReadRequest,
    SourceError, StackDescription, StackResourceRow, StackSource, StackSummary,
};
use std::collections::BTreeMap;
use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The clock of the stack being gathered.
#[derive(Debug)]
pub struct StackDeadline {
    budget: Duration,
    until: Mutex<Option<Instant>>,
}

impl StackDeadline {
    /// A deadline of `budget` per stack (not running until a stack starts).
    pub fn new(budget: Duration) -> Arc<Self> {
        Arc::new(StackDeadline {
            budget,
            until: Mutex::new(None),
        })
    }

    /// Starts the clock for the next stack.
    fn start(&self) {
        let mut until = self.until.lock().unwrap_or_else(|p| p.into_inner());
        *until = Instant::now().checked_add(self.budget);
    }

    /// Time left for the current stack (`None`: no stack started, unbounded).
    fn remaining(&self) -> Option<Duration> {
        let until = *self.until.lock().unwrap_or_else(|p| p.into_inner());
        until.map(|u| u.saturating_duration_since(Instant::now()))
    }

    /// Runs `fut` within the time left; `Err` when the deadline passed first.
    async fn bound<T>(&self, fut: impl Future<Output = T>) -> Result<T, String> {
        match self.remaining() {
            None => Ok(fut.await),
            Some(left) => tokio::time::timeout(left, fut).await.map_err(|_| {
                format!(
                    "the stack's time budget of {} s ran out (--stack-timeout)",
                    self.budget.as_secs_f64()
                )
            }),
        }
    }
}

/// Bounds a stack source: DescribeStacks starts a stack's clock.
pub struct DeadlineStacks {
    /// The wrapped source.
    pub inner: Arc<dyn StackSource>,
    /// The shared clock.
    pub deadline: Arc<StackDeadline>,
}

impl DeadlineStacks {
    fn bounded<'a, T: Send + 'a>(
        &'a self,
        fut: BoxFuture<'a, Result<T, SourceError>>,
    ) -> BoxFuture<'a, Result<T, SourceError>> {
        async move {
            self.deadline
                .bound(fut)
                .await
                .unwrap_or_else(|e| Err(SourceError::Other(e)))
        }
        .boxed()
    }
}

impl StackSource for DeadlineStacks {
    fn describe_stack<'a>(
        &'a self,
        stack: &'a str,
    ) -> BoxFuture<'a, Result<StackDescription, SourceError>> {
        self.deadline.start();
        self.bounded(self.inner.describe_stack(stack))
    }

    fn get_template<'a>(&'a self, stack: &'a str) -> BoxFuture<'a, Result<String, SourceError>> {
        self.bounded(self.inner.get_template(stack))
    }

    fn list_stack_resources<'a>(
        &'a self,
        stack: &'a str,
    ) -> BoxFuture<'a, Result<Vec<StackResourceRow>, SourceError>> {
        self.bounded(self.inner.list_stack_resources(stack))
    }

    fn list_exports(&self) -> BoxFuture<'_, Result<BTreeMap<String, String>, SourceError>> {
        self.bounded(self.inner.list_exports())
    }

    fn list_stacks(&self) -> BoxFuture<'_, Result<Vec<StackSummary>, SourceError>> {
        // Discovery, before any stack's clock: bounded by the call timeouts.
        self.inner.list_stacks()
    }

    fn stack_owning<'a>(
        &'a self,
        physical_id: &'a str,
    ) -> BoxFuture<'a, Result<Option<String>, SourceError>> {
        self.bounded(self.inner.stack_owning(physical_id))
    }
}

/// Bounds live reads: past the deadline a read is skipped with lost coverage.
pub struct DeadlineReader {
    /// The wrapped reader.
    pub inner: Arc<dyn LiveReader>,
    /// The shared clock.
    pub deadline: Arc<StackDeadline>,
}

impl LiveReader for DeadlineReader {
    fn read<'a>(&'a self, req: &'a ReadRequest) -> BoxFuture<'a, ReadOutcome> {
        async move {
            self.deadline
                .bound(self.inner.read(req))
                .await
                .unwrap_or_else(|reason| ReadOutcome::Skipped {
                    reason,
                    coverage_lost: true,
                })
        }
        .boxed()
    }
}

/// Bounds child listings: past the deadline a listing fails (lost coverage).
pub struct DeadlineChildren {
    /// The wrapped enumerator.
    pub inner: Arc<dyn ChildEnumerator>,
    /// The shared clock.
    pub deadline: Arc<StackDeadline>,
}

impl ChildEnumerator for DeadlineChildren {
    fn parent_types(&self) -> &[&'static str] {
        self.inner.parent_types()
    }

    fn enumerate<'a>(
        &'a self,
        query: &'a ChildQuery,
    ) -> BoxFuture<'a, Result<Vec<LiveChild>, SourceError>> {
        async move {
            self.deadline
                .bound(self.inner.enumerate(query))
                .await
                .unwrap_or_else(|e| Err(SourceError::Other(e)))
        }
        .boxed()
    }
}

/// Bounds the managed KMS alias listing.
pub struct DeadlineKms {
    /// The wrapped source.
    pub inner: Arc<dyn KmsAliasSource>,
    /// The shared clock.
    pub deadline: Arc<StackDeadline>,
}

impl KmsAliasSource for DeadlineKms {
    fn alias_targets(&self) -> BoxFuture<'_, Result<BTreeMap<String, String>, SourceError>> {
        async move {
            self.deadline
                .bound(self.inner.alias_targets())
                .await
                .unwrap_or_else(|e| Err(SourceError::Other(e)))
        }
        .boxed()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use realdrift_core::pipeline::memory::MemoryReader;

    /// A reader that never answers.
    struct Silent;
    impl LiveReader for Silent {
        fn read<'a>(&'a self, _: &'a ReadRequest) -> BoxFuture<'a, ReadOutcome> {
            futures_util::future::pending().boxed()
        }
    }

    fn block<T>(fut: impl Future<Output = T>) -> T {
        tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .expect("runtime")
            .block_on(fut)
    }

    #[test]
    fn a_silent_read_past_the_deadline_is_lost_coverage() {
        let deadline = StackDeadline::new(Duration::from_millis(20));
        deadline.start();
        let reader = DeadlineReader {
            inner: Arc::new(Silent),
            deadline,
        };
        match block(reader.read(&ReadRequest::default())) {
            ReadOutcome::Skipped {
                reason,
                coverage_lost,
            } => {
                assert!(coverage_lost);
                assert!(reason.contains("--stack-timeout"), "{reason}");
            }
            other => panic!("expected a lost read, got {other:?}"),
        }
    }

    #[test]
    fn before_any_stack_nothing_is_bounded() {
        let deadline = StackDeadline::new(Duration::ZERO);
        assert_eq!(deadline.remaining(), None);
        let reader = DeadlineReader {
            inner: Arc::new(MemoryReader::default()),
            deadline,
        };
        let out = block(reader.read(&ReadRequest::default()));
        assert!(!matches!(
            out,
            ReadOutcome::Skipped {
                coverage_lost: true,
                ..
            }
        ));
    }
}
