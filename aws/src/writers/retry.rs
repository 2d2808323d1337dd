//! Retrying a write until a deadline: only failures whose code the data
//! marks transient (core/data/revert-transient.json: throttling, concurrent
//! modification, an operation in progress, not stabilized) are retried; a
//! validation or permission error fails on the first answer.

use futures_util::future::BoxFuture;
use realdrift_core::revert::{revert_facts, WriteError};
use std::time::{Duration, Instant};

/// How long writes are retried and how often Cloud Control is polled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Give up retrying (and polling) a batch this long after its first request.
    pub deadline: Duration,
    /// The first wait before a retry; doubled each time up to `max_backoff`.
    pub first_backoff: Duration,
    /// The longest wait between retries.
    pub max_backoff: Duration,
    /// The first wait before polling GetResourceRequestStatus; grows by half each poll.
    pub first_poll: Duration,
    /// The longest wait between polls.
    pub max_poll: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            deadline: Duration::from_secs(300),
            first_backoff: Duration::from_secs(2),
            max_backoff: Duration::from_secs(30),
            first_poll: Duration::from_secs(1),
            max_poll: Duration::from_secs(10),
        }
    }
}

impl RetryPolicy {
    /// A policy with no waits at all (tests against mocked answers).
    pub fn immediate(deadline: Duration) -> Self {
        RetryPolicy {
            deadline,
            first_backoff: Duration::ZERO,
            max_backoff: Duration::ZERO,
            first_poll: Duration::ZERO,
            max_poll: Duration::ZERO,
        }
    }
}

/// A failed attempt: the code the service (or handler) answered, and words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttemptError {
    /// Error code, when one was returned.
    pub code: Option<String>,
    /// Readable message naming the operation.
    pub message: String,
}

impl AttemptError {
    /// True when waiting may let the same write succeed.
    pub fn is_transient(&self) -> bool {
        self.code
            .as_deref()
            .is_some_and(|c| revert_facts().is_transient(c))
    }
}

/// When the deadline allows another wait of `wait`.
pub fn before_deadline(started: Instant, policy: &RetryPolicy, wait: Duration) -> bool {
    started.elapsed() + wait < policy.deadline
}

/// The wait before retry number `n` (1-based).
pub fn backoff(policy: &RetryPolicy, n: u32) -> Duration {
    let factor = 2u32.saturating_pow(n.saturating_sub(1).min(16));
    policy
        .first_backoff
        .saturating_mul(factor)
        .min(policy.max_backoff)
}

/// Runs `attempt(n)` (n = 1, 2, ...) until it succeeds, fails with a
/// non-transient error, or the deadline leaves no room for another wait.
/// Returns the number of attempts and the final error, if any.
pub async fn with_retry<'a, F>(policy: &RetryPolicy, mut attempt: F) -> (u32, Option<WriteError>)
where
    F: FnMut(u32) -> BoxFuture<'a, Result<(), AttemptError>>,
{
    let started = Instant::now();
    let mut n = 0;
    loop {
        n += 1;
        let err = match attempt(n).await {
            Ok(()) => return (n, None),
            Err(e) => e,
        };
        let wait = backoff(policy, n);
        let transient = err.is_transient();
        if !transient || !before_deadline(started, policy, wait) {
            return (
                n,
                Some(WriteError {
                    code: err.code,
                    message: err.message,
                    transient,
                }),
            );
        }
        tokio::time::sleep(wait).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures_util::FutureExt;

    #[test]
    fn backoff_doubles_up_to_the_cap() {
        let p = RetryPolicy::default();
        assert_eq!(backoff(&p, 1), Duration::from_secs(2));
        assert_eq!(backoff(&p, 3), Duration::from_secs(8));
        assert_eq!(backoff(&p, 40), Duration::from_secs(30));
    }

    fn err(code: &str) -> AttemptError {
        AttemptError {
            code: Some(code.into()),
            message: format!("{code}: x"),
        }
    }

    #[tokio::test]
    async fn transient_failures_are_retried_terminal_ones_are_not() {
        let p = RetryPolicy::immediate(Duration::from_secs(60));
        let (n, e) = with_retry(&p, |n| {
            async move {
                if n < 3 {
                    Err(err("Throttling"))
                } else {
                    Ok(())
                }
            }
            .boxed()
        })
        .await;
        assert_eq!((n, e), (3, None));
        let (n, e) = with_retry(&p, |_| async { Err(err("InvalidRequest")) }.boxed()).await;
        assert_eq!(n, 1);
        assert_eq!(e.map(|e| e.transient), Some(false));
    }

    #[tokio::test]
    async fn the_deadline_ends_the_retries_and_says_so() {
        let p = RetryPolicy::immediate(Duration::ZERO);
        let (n, e) = with_retry(&p, |_| async { Err(err("NotStabilized")) }.boxed()).await;
        assert_eq!(n, 1);
        let e = e.expect("failed");
        assert!(e.transient);
        assert_eq!(e.code.as_deref(), Some("NotStabilized"));
    }
}
