//! Where alerts go: a rendered [`Notice`] and the [`Notifier`] trait that
//! delivers it (SNS and a Slack webhook in the `realdrift-aws` crate, an
//! in-memory recorder here for tests).
//!
//! A notice is rendered once, in core, with every value masked and escaped;
//! a notifier only delivers the form it speaks (the SNS subject and JSON
//! document, or the Slack Block Kit payload), so no channel can forget to
//! mask or escape.

use futures_util::future::{BoxFuture, FutureExt};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::sync::Mutex;

/// One alert, rendered for every channel.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Notice {
    /// What the notice announces, as a wire name (`drift-detected`, ...).
    pub kind: String,
    /// A readable subject (printable ASCII, under 100 characters: SNS's rule).
    pub subject: String,
    /// The JSON document (text) published to SNS.
    pub document: String,
    /// The readable text for people: when set, SNS publishes per protocol
    /// (MessageStructure=json: the text to `default` and `email`, the
    /// document to the others); unset, the document to every protocol.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// The Slack Block Kit payload for an incoming webhook.
    pub slack: Value,
}

/// Why a delivery failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{channel}: {message}")]
pub struct NotifyError {
    /// The channel (`sns`, `slack`).
    pub channel: &'static str,
    /// What went wrong (never a secret: notifiers keep URLs and keys out).
    pub message: String,
}

impl NotifyError {
    /// An error of `channel`.
    pub fn new(channel: &'static str, message: impl Into<String>) -> Self {
        NotifyError {
            channel,
            message: message.into(),
        }
    }
}

/// Delivers notices to one channel.
pub trait Notifier: Send + Sync {
    /// The channel's name, for logs and metrics (`sns`, `slack`).
    fn channel(&self) -> &'static str;

    /// Delivers one notice.
    fn send<'a>(&'a self, notice: &'a Notice) -> BoxFuture<'a, Result<(), NotifyError>>;

    /// Delivers a plain JSON document with a subject (a notice with no
    /// Slack form), for callers that publish one document, such as revert.
    fn publish<'a>(
        &'a self,
        subject: &'a str,
        document: &'a Value,
    ) -> BoxFuture<'a, Result<(), NotifyError>> {
        let notice = Notice {
            kind: document
                .get("kind")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string(),
            subject: crate::report::sns_subject(subject),
            document: crate::report::escape_json_text(&document.to_string()),
            text: None,
            slack: Value::Null,
        };
        async move { self.send(&notice).await }.boxed()
    }
}

/// Records notices in memory; optionally fails every send (tests).
#[derive(Debug, Default)]
pub struct MemoryNotifier {
    channel: &'static str,
    fail: Option<String>,
    sent: Mutex<Vec<Notice>>,
}

impl MemoryNotifier {
    /// A recorder for `channel` that accepts everything.
    pub fn new(channel: &'static str) -> Self {
        MemoryNotifier {
            channel,
            ..MemoryNotifier::default()
        }
    }

    /// A recorder for `channel` whose every send fails with `message`.
    pub fn failing(channel: &'static str, message: &str) -> Self {
        MemoryNotifier {
            channel,
            fail: Some(message.to_string()),
            ..MemoryNotifier::default()
        }
    }

    /// The notices delivered so far, in order.
    pub fn sent(&self) -> Vec<Notice> {
        self.sent.lock().map(|s| s.clone()).unwrap_or_default()
    }
}

impl Notifier for MemoryNotifier {
    fn channel(&self) -> &'static str {
        self.channel
    }

    fn send<'a>(&'a self, notice: &'a Notice) -> BoxFuture<'a, Result<(), NotifyError>> {
        let r = match &self.fail {
            Some(m) => Err(NotifyError::new(self.channel, m.clone())),
            None => {
                self.sent
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .push(notice.clone());
                Ok(())
            }
        };
        async move { r }.boxed()
    }
}
