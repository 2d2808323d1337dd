//! SQS senders: the scan work queue (SendMessageBatch, ten at a time) and
//! on-change's delayed storm flush (SendMessage with DelaySeconds).

use crate::errors::describe;
use futures_util::future::{BoxFuture, FutureExt};
use realdrift_core::watch::{FlushMessage, FlushQueue, WorkMessage, WorkQueue, MAX_DELAY_SECONDS};

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

/// Sends storm flush messages to on-change's own change queue, delayed.
#[derive(Debug, Clone)]
pub struct SqsFlushQueue {
    client: aws_sdk_sqs::Client,
    queue_url: String,
}

impl SqsFlushQueue {
    /// A sender to `queue_url` (the change queue).
    pub fn new(client: aws_sdk_sqs::Client, queue_url: &str) -> Self {
        SqsFlushQueue {
            client,
            queue_url: queue_url.to_string(),
        }
    }

    async fn send(&self, message: &FlushMessage, delay_seconds: u32) -> Result<(), String> {
        let delay = i32::try_from(delay_seconds.min(MAX_DELAY_SECONDS)).unwrap_or(0);
        self.client
            .send_message()
            .queue_url(&self.queue_url)
            .message_body(message.body())
            .delay_seconds(delay)
            .send()
            .await
            .map(|_| ())
            .map_err(|e| format!("sqs:SendMessage: {}", describe(&e, &[]).message))
    }
}

impl FlushQueue for SqsFlushQueue {
    fn send_flush<'a>(
        &'a self,
        message: &'a FlushMessage,
        delay_seconds: u32,
    ) -> BoxFuture<'a, Result<(), String>> {
        self.send(message, delay_seconds).boxed()
    }
}
