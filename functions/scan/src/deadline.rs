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

/// Lambda's deadline header is milliseconds since the Unix epoch; a value
/// below this (September 2001) cannot be one. The local runtime (`cargo
/// lambda watch` 1.9) sends a fixed 600000: read such a value as the time
/// budget from now, so a local run sees the budget it was given.
const EPOCH_FLOOR_MS: u64 = 1_000_000_000_000;

/// The absolute deadline for a runtime-given `deadline` received at `now_ms`.
pub fn absolute_deadline(deadline: u64, now_ms: u64) -> u64 {
    if deadline < EPOCH_FLOOR_MS {
        now_ms.saturating_add(deadline)
    } else {
        deadline
    }
}

impl Invocation {
    /// From the runtime's context.
    pub fn from_context(ctx: &lambda_runtime::Context) -> Self {
        Invocation {
            request_id: ctx.request_id.clone(),
            deadline_ms: absolute_deadline(ctx.deadline, now_ms()),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_epoch_deadline_is_kept_and_a_budget_is_counted_from_now() {
        let now = 1_796_076_828_070;
        assert_eq!(absolute_deadline(now + 900_000, now), now + 900_000);
        assert_eq!(absolute_deadline(600_000, now), now + 600_000);
        assert_eq!(
            absolute_deadline(0, now),
            now,
            "no budget: nothing is started"
        );
    }

    #[test]
    fn work_is_taken_only_with_the_reserve_and_twice_the_longest_stack_left() {
        let inv = |left_ms: u64| Invocation {
            request_id: "r".into(),
            deadline_ms: now_ms() + left_ms,
        };
        assert!(inv(120_000).has_time_for(Duration::from_secs(10)));
        assert!(
            !inv(50_000).has_time_for(Duration::ZERO),
            "under the reserve"
        );
        assert!(
            !inv(120_000).has_time_for(Duration::from_secs(70)),
            "a stack that took 70 s may take that again"
        );
    }
}
