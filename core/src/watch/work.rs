//! The scan work queue: one message per stack, `{"stack": "<name>"}`
//! (optionally `"region"`), sent in batches by the dispatcher.

use futures_util::future::BoxFuture;
use serde::{Deserialize, Serialize};

/// SQS's largest batch.
pub const MAX_BATCH: usize = 10;

/// One unit of scan work.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WorkMessage {
    /// The stack name.
    pub stack: String,
    /// The region, when not the function's own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub region: Option<String>,
}

/// Why a message body is not work (it is dropped, not retried).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("malformed work message: {0}")]
pub struct MalformedMessage(pub String);

impl WorkMessage {
    /// Work for `stack` in the function's region.
    pub fn stack(stack: &str) -> Self {
        WorkMessage {
            stack: stack.to_string(),
            region: None,
        }
    }

    /// Parses a message body; anything but `{"stack": non-empty, "region"?}` is malformed.
    pub fn parse(body: &str) -> Result<Self, MalformedMessage> {
        let m: WorkMessage =
            serde_json::from_str(body).map_err(|e| MalformedMessage(e.to_string()))?;
        if m.stack.trim().is_empty() {
            return Err(MalformedMessage("empty stack name".into()));
        }
        Ok(m)
    }

    /// The body text.
    pub fn body(&self) -> String {
        // A struct of strings: serializing cannot fail.
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// Where scan work is sent (SQS in the function, memory in tests).
pub trait WorkQueue: Send + Sync {
    /// Sends up to [`MAX_BATCH`] messages; returns the bodies that were not
    /// accepted, with the reason.
    fn send_batch<'a>(
        &'a self,
        messages: &'a [WorkMessage],
    ) -> BoxFuture<'a, Result<Vec<(WorkMessage, String)>, String>>;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bodies_round_trip_and_anything_else_is_malformed() {
        let m = WorkMessage::stack("App");
        assert_eq!(m.body(), r#"{"stack":"App"}"#);
        assert_eq!(WorkMessage::parse(&m.body()).unwrap(), m);
        let r = WorkMessage::parse(r#"{"stack":"App","region":"eu-west-1"}"#).unwrap();
        assert_eq!(r.region.as_deref(), Some("eu-west-1"));
        for bad in [
            "",
            "[]",
            r#"{"stacks":["App"]}"#,
            r#"{"stack":" "}"#,
            r#"{"stack":1}"#,
        ] {
            assert!(WorkMessage::parse(bad).is_err(), "{bad}");
        }
    }
}
