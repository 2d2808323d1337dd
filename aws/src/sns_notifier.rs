//! Publishing notices to an SNS topic.

use crate::errors::describe;
use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use realdrift_core::notify::{Notifier, NotifyError};
use serde_json::Value;

/// SNS allows subjects of at most 100 printable ASCII characters.
const MAX_SUBJECT: usize = 100;

/// Publishes notices to one topic.
#[derive(Debug, Clone)]
pub struct SnsNotifier {
    client: aws_sdk_sns::Client,
    topic_arn: String,
}

impl SnsNotifier {
    /// A notifier publishing to `topic_arn`.
    pub fn new(client: aws_sdk_sns::Client, topic_arn: &str) -> Self {
        SnsNotifier {
            client,
            topic_arn: topic_arn.to_string(),
        }
    }
}

/// A subject SNS accepts: printable ASCII, one line, at most 100 characters.
pub fn sns_subject(s: &str) -> String {
    let clean: String = s
        .chars()
        .map(|c| {
            if c.is_ascii_graphic() || c == ' ' {
                c
            } else {
                '?'
            }
        })
        .collect();
    if clean.chars().count() <= MAX_SUBJECT {
        clean
    } else {
        let mut cut: String = clean.chars().take(MAX_SUBJECT - 3).collect();
        cut.push_str("...");
        cut
    }
}

impl Notifier for SnsNotifier {
    fn publish<'a>(
        &'a self,
        subject: &'a str,
        document: &'a Value,
    ) -> BoxFuture<'a, Result<(), NotifyError>> {
        async move {
            self.client
                .publish()
                .topic_arn(&self.topic_arn)
                .subject(sns_subject(subject))
                .message(document.to_string())
                .send()
                .await
                .map(|_| ())
                .map_err(|e| {
                    NotifyError(format!(
                        "sns:Publish to {}: {}",
                        self.topic_arn,
                        describe(&e, &[]).message
                    ))
                })
        }
        .boxed()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subjects_are_printable_ascii_and_short() {
        assert_eq!(
            sns_subject("realdrift revert: App"),
            "realdrift revert: App"
        );
        assert_eq!(sns_subject("a\nb\u{1b}c é"), "a?b?c ?");
        assert_eq!(sns_subject(&"x".repeat(300)).len(), 100);
    }
}
