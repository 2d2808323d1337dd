//! AWS::SQS::QueuePolicy: the `Policy` attribute of each declared queue.

use super::{declared_targets, parse_policy_document, AwsClients};
use crate::errors::{describe, ErrorClass};
use aws_sdk_sqs::types::QueueAttributeName;
use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use realdrift_core::pipeline::{ReadOutcome, ReadRequest};
use serde_json::{json, Value};

const QUEUE_GONE: &[&str] = &[
    "AWS.SimpleQueueService.NonExistentQueue",
    "QueueDoesNotExist",
];

/// Reads the policy on the declared `Queues` (URLs). The model lists the queues
/// that still carry a policy; none left means the policy resource is gone.
pub fn read<'a>(clients: &'a AwsClients, req: &'a ReadRequest) -> BoxFuture<'a, ReadOutcome> {
    async move {
        let queues = match declared_targets(req, "Queues") {
            Ok(q) if !q.is_empty() => q,
            Ok(_) => return ReadOutcome::skipped("AWS::SQS::QueuePolicy declares no Queues"),
            Err(o) => return *o,
        };
        let mut with_policy = Vec::new();
        let mut document: Option<Value> = None;
        let mut notes = Vec::new();
        for url in &queues {
            match queue_policy_document(clients, url).await {
                Ok(Some(doc)) => {
                    if let Some(first) = &document {
                        if *first != doc {
                            let first_url = with_policy.first().map(String::as_str).unwrap_or("");
                            notes.push(format!(
                                "queue {url} carries a different policy document than {first_url}"
                            ));
                        }
                    } else {
                        document = Some(doc);
                    }
                    with_policy.push(url.clone());
                }
                Ok(None) => {}
                Err(QueueReadError::Gone) => {}
                // Any failed read is lost coverage (denied or not).
                Err(QueueReadError::Failed(message)) => return ReadOutcome::denied(message),
            }
        }
        match document {
            None => ReadOutcome::NotFound,
            Some(doc) => {
                let mut m = realdrift_core::pipeline::LiveModel::new(
                    json!({ "Queues": with_policy, "PolicyDocument": doc }),
                );
                m.notes = notes;
                ReadOutcome::Found(m)
            }
        }
    }
    .boxed()
}

/// Why a queue's policy could not be read.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum QueueReadError {
    /// The queue does not exist.
    Gone,
    /// The call failed (message names the call and queue).
    Failed(String),
}

/// The parsed `Policy` attribute of a queue (`None` when it has none).
pub(crate) async fn queue_policy_document(
    clients: &AwsClients,
    url: &str,
) -> Result<Option<Value>, QueueReadError> {
    match clients
        .sqs
        .get_queue_attributes()
        .queue_url(url)
        .attribute_names(QueueAttributeName::Policy)
        .send()
        .await
    {
        Ok(out) => match out
            .attributes()
            .and_then(|a| a.get(&QueueAttributeName::Policy))
        {
            Some(raw) if !raw.is_empty() => parse_policy_document(raw)
                .map(Some)
                .map_err(|e| QueueReadError::Failed(format!("policy of queue {url}: {e}"))),
            _ => Ok(None),
        },
        Err(e) => {
            let info = describe(&e, QUEUE_GONE);
            match info.class {
                ErrorClass::NotFound => Err(QueueReadError::Gone),
                _ => Err(QueueReadError::Failed(format!(
                    "sqs:GetQueueAttributes on {url}: {}",
                    info.message
                ))),
            }
        }
    }
}
