//! The scan work queue over SQS: SendMessageBatch, ten at a time.

use crate::errors::describe;
use futures_util::future::{BoxFuture, FutureExt};
use realdrift_core::watch::{WorkMessage, WorkQueue};

/// Sends work messages to one queue.
#[derive(Debug, Clone)]
pub struct SqsWorkQueue {
    client: aws_sdk_sqs::Client,
    queue_url: String,
}

impl SqsWorkQueue {
    /// A sender to `queue_url`.
    pub fn new(client: aws_sdk_sqs::Client, queue_url: &str) -> Self {
        SqsWorkQueue {
            client,
            queue_url: queue_url.to_string(),
        }
    }

    async fn send(&self, messages: &[WorkMessage]) -> Result<Vec<(WorkMessage, String)>, String> {
        let mut batch = self.client.send_message_batch().queue_url(&self.queue_url);
        for (i, m) in messages.iter().enumerate() {
            let entry = aws_sdk_sqs::types::SendMessageBatchRequestEntry::builder()
                .id(i.to_string())
                .message_body(m.body())
                .build()
                .map_err(|e| e.to_string())?;
            batch = batch.entries(entry);
        }
        let out = batch
            .send()
            .await
            .map_err(|e| format!("sqs:SendMessageBatch: {}", describe(&e, &[]).message))?;
        Ok(out
            .failed()
            .iter()
            .filter_map(|f| {
                let m = messages.get(f.id().parse::<usize>().ok()?)?;
                Some((
                    m.clone(),
                    format!("{}: {}", f.code(), f.message().unwrap_or_default()),
                ))
            })
            .collect())
    }
}

impl WorkQueue for SqsWorkQueue {
    fn send_batch<'a>(
        &'a self,
        messages: &'a [WorkMessage],
    ) -> BoxFuture<'a, Result<Vec<(WorkMessage, String)>, String>> {
        self.send(messages).boxed()
    }
}
