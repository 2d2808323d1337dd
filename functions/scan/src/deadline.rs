//! The invocation's identity and time budget.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Stop taking new work when less than this is left (a stack scan plus
/// its state write and notices must fit).
pub const MIN_RESERVE: Duration = Duration::from_secs(60);

/// What the handlers need to know about the invocation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invocation {
    /// The Lambda request id.
    pub request_id: String,
    /// The deadline, in milliseconds since the Unix epoch.
    pub deadline_ms: u64,
}

/// Now, in milliseconds since the Unix epoch.
pub fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

impl Invocation {
    /// From the runtime's context.
    pub fn from_context(ctx: &lambda_runtime::Context) -> Self {
        Invocation {
            request_id: ctx.request_id.clone(),
            deadline_ms: ctx.deadline,
        }
    }

    /// Time left before the deadline.
    pub fn remaining(&self) -> Duration {
        Duration::from_millis(self.deadline_ms.saturating_sub(now_ms()))
    }

    /// True when there is time for one more stack, given the longest one so far.
    pub fn has_time_for(&self, longest: Duration) -> bool {
        self.remaining() > MIN_RESERVE.max(longest * 2)
    }
}
