//! SNS: publishes a notice with its subject: per protocol when it carries a
//! readable text (MessageStructure=json, the envelope core builds), else
//! the JSON document to every protocol.

use crate::errors::describe;
use futures_util::future::{BoxFuture, FutureExt};
use realdrift_core::notify::{Notice, Notifier, NotifyError};
use realdrift_core::report::sns_envelope;

/// Publishes notices to one topic.
#[derive(Debug, Clone)]
pub struct SnsNotifier {
    client: aws_sdk_sns::Client,
    topic_arn: String,
}

impl SnsNotifier {
    /// A publisher to `topic_arn`.
    pub fn new(client: aws_sdk_sns::Client, topic_arn: &str) -> Self {
        SnsNotifier {
            client,
            topic_arn: topic_arn.to_string(),
        }
    }

    async fn publish(&self, notice: &Notice) -> Result<(), NotifyError> {
        let publish = self
            .client
            .publish()
            .topic_arn(&self.topic_arn)
            .subject(&notice.subject);
        let publish = match &notice.text {
            Some(text) => publish
                .message_structure("json")
                .message(sns_envelope(&notice.document, text)),
            None => publish.message(&notice.document),
        };
        publish.send().await.map(|_| ()).map_err(|e| {
            NotifyError::new("sns", format!("sns:Publish: {}", describe(&e, &[]).message))
        })
    }
}

impl Notifier for SnsNotifier {
    fn channel(&self) -> &'static str {
        "sns"
    }

    fn send<'a>(&'a self, notice: &'a Notice) -> BoxFuture<'a, Result<(), NotifyError>> {
        self.publish(notice).boxed()
    }
}
