//! The invocation's identity and deadline, and the clock.

use std::time::{SystemTime, UNIX_EPOCH};

/// What the handler needs to know about the invocation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invocation {
    /// The Lambda request id (claims in the state outbox are named after it).
    pub request_id: String,
    /// The deadline, in milliseconds since the Unix epoch.
    pub deadline_ms: u64,
}

impl Invocation {
    /// From the runtime's context.
    pub fn from_context(ctx: &lambda_runtime::Context) -> Self {
        Invocation {
            request_id: ctx.request_id.clone(),
            deadline_ms: ctx.deadline,
        }
    }
}

/// Now, in milliseconds since the Unix epoch.
pub fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

/// A CloudTrail `eventTime` (ISO 8601, UTC) in milliseconds since the Unix
/// epoch, or `None` when it does not parse.
pub fn event_time_ms(t: &str) -> Option<u64> {
    let dt = aws_smithy_types::DateTime::from_str(t, aws_smithy_types::date_time::Format::DateTime)
        .ok()?;
    u64::try_from(dt.to_millis().ok()?).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cloudtrail_times_parse_with_and_without_fractions() {
        assert_eq!(event_time_ms("1970-01-01T00:00:01Z"), Some(1000));
        assert_eq!(
            event_time_ms("2023-07-10T12:28:24Z"),
            Some(1_688_992_104_000)
        );
        assert_eq!(event_time_ms("1970-01-01T00:00:01.250Z"), Some(1250));
        assert_eq!(event_time_ms("yesterday"), None);
    }
}
