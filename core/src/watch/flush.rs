//! The storm flush message: on-change sends it to its own change queue,
//! delayed until an open storm would close, so a held storm is announced
//! without waiting for the hourly scan (see [`super::storm`]).
//!
//! Body: `{"kind": "realdrift-storm-flush", "stack": "<name>"}`. A body
//! whose `kind` names it is a flush message and must be exactly that shape
//! with a CloudFormation stack name; anything else is left to the
//! CloudTrail parser (a body that is neither stays "malformed").

use super::work::MalformedMessage;
use futures_util::future::BoxFuture;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The `kind` of a flush message.
pub const FLUSH_KIND: &str = "realdrift-storm-flush";

/// SQS's longest per-message delay, in seconds (SendMessage DelaySeconds:
/// "Valid values: 0 to 900").
pub const MAX_DELAY_SECONDS: u32 = 900;

/// "Re-check this stack's storm".
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FlushMessage {
    /// Always [`FLUSH_KIND`].
    pub kind: String,
    /// The stack whose storm to close when it is quiet.
    pub stack: String,
}

/// A CloudFormation stack name: a letter, then letters, digits and
/// hyphens, at most 128 characters (CloudFormation's `StackName` pattern
/// `[A-Za-z][A-Za-z0-9-]{0,127}`).
fn is_stack_name(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && s.len() <= 128
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '-')
}

impl FlushMessage {
    /// The flush message of `stack`.
    pub fn for_stack(stack: &str) -> Self {
        FlushMessage {
            kind: FLUSH_KIND.to_string(),
            stack: stack.to_string(),
        }
    }

    /// `None`: the body is not a flush message (some other body); `Some`:
    /// it names itself one, and is valid or malformed.
    pub fn recognize(body: &str) -> Option<Result<Self, MalformedMessage>> {
        let v: Value = serde_json::from_str(body).ok()?;
        if v.get("kind").and_then(Value::as_str) != Some(FLUSH_KIND) {
            return None;
        }
        let parsed = serde_json::from_value::<FlushMessage>(v)
            .map_err(|e| MalformedMessage(e.to_string()))
            .and_then(|m| {
                if is_stack_name(&m.stack) {
                    Ok(m)
                } else {
                    Err(MalformedMessage("not a CloudFormation stack name".into()))
                }
            });
        Some(parsed)
    }

    /// The body text.
    pub fn body(&self) -> String {
        // A struct of strings: serializing cannot fail.
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// The delay that makes a flush arrive when a storm closing at
/// `closes_at_ms` is quiet: whole seconds, rounded up, at most
/// [`MAX_DELAY_SECONDS`] (a longer window is flushed again on arrival).
pub fn flush_delay_seconds(closes_at_ms: u64, now_ms: u64) -> u32 {
    let secs = closes_at_ms.saturating_sub(now_ms).div_ceil(1000);
    u32::try_from(secs)
        .unwrap_or(MAX_DELAY_SECONDS)
        .min(MAX_DELAY_SECONDS)
}

/// Where flush messages go (the change queue in the function, memory in tests).
pub trait FlushQueue: Send + Sync {
    /// Sends `message`, delivered after `delay_seconds` (at most [`MAX_DELAY_SECONDS`]).
    fn send_flush<'a>(
        &'a self,
        message: &'a FlushMessage,
        delay_seconds: u32,
    ) -> BoxFuture<'a, Result<(), String>>;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flush_body_round_trips_and_other_bodies_are_not_flushes() {
        let m = FlushMessage::for_stack("App-Prod");
        assert_eq!(FlushMessage::recognize(&m.body()), Some(Ok(m)));
        assert_eq!(FlushMessage::recognize("{\"source\": \"aws.s3\"}"), None);
        assert_eq!(FlushMessage::recognize("not json"), None);
        assert_eq!(FlushMessage::recognize("{\"kind\": \"other\"}"), None);
    }

    #[test]
    fn a_body_naming_itself_a_flush_must_be_exactly_one() {
        for bad in [
            r#"{"kind": "realdrift-storm-flush"}"#,
            r#"{"kind": "realdrift-storm-flush", "stack": ""}"#,
            r#"{"kind": "realdrift-storm-flush", "stack": "a b"}"#,
            r#"{"kind": "realdrift-storm-flush", "stack": "9lives"}"#,
            r#"{"kind": "realdrift-storm-flush", "stack": "App", "extra": 1}"#,
        ] {
            assert!(
                matches!(FlushMessage::recognize(bad), Some(Err(_))),
                "{bad}"
            );
        }
        let long = format!(
            r#"{{"kind": "realdrift-storm-flush", "stack": "A{}"}}"#,
            "b".repeat(128)
        );
        assert!(matches!(FlushMessage::recognize(&long), Some(Err(_))));
    }

    #[test]
    fn the_delay_rounds_up_and_is_capped() {
        assert_eq!(flush_delay_seconds(10_500, 10_000), 1);
        assert_eq!(flush_delay_seconds(70_000, 10_000), 60);
        assert_eq!(flush_delay_seconds(5_000, 10_000), 0);
        assert_eq!(flush_delay_seconds(u64::MAX, 0), MAX_DELAY_SECONDS);
    }
}
