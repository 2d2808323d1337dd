//! Publishing a notice (an SNS message today): one JSON document with a
//! readable subject. The AWS implementation is `realdrift-aws`'s
//! `SnsNotifier`; [`MemoryNotifier`] keeps what was published, for tests.

use futures_util::future::{BoxFuture, FutureExt};
use serde_json::Value;
use std::sync::Mutex;

/// Why a notice could not be published.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("publishing the notice failed: {0}")]
pub struct NotifyError(pub String);

/// Publishes notices.
pub trait Notifier: Send + Sync {
    /// Publishes `document` (JSON) with `subject` (one line, plain text).
    fn publish<'a>(
        &'a self,
        subject: &'a str,
        document: &'a Value,
    ) -> BoxFuture<'a, Result<(), NotifyError>>;
}

/// Keeps every published notice in memory.
#[derive(Debug, Default)]
pub struct MemoryNotifier {
    /// `(subject, document)` in publish order.
    pub published: Mutex<Vec<(String, Value)>>,
}

impl Notifier for MemoryNotifier {
    fn publish<'a>(
        &'a self,
        subject: &'a str,
        document: &'a Value,
    ) -> BoxFuture<'a, Result<(), NotifyError>> {
        if let Ok(mut p) = self.published.lock() {
            p.push((subject.to_string(), document.clone()));
        }
        async { Ok(()) }.boxed()
    }
}
