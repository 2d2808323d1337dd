//! AWS::SQS::Queue children: a queue policy set while the template declares none.

use super::policy_declared_for;
use crate::clients::AwsClients;
use crate::readers::{queue_policy_document, QueueReadError};
use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use realdrift_core::pipeline::{ChildQuery, LiveChild, SourceError};
use serde_json::json;

/// Reports a live queue policy when no declared AWS::SQS::QueuePolicy (or
/// QueueInlinePolicy) targets the queue. A fresh queue has no policy, so a
/// present one was always set by someone.
pub fn enumerate<'a>(
    clients: &'a AwsClients,
    query: &'a ChildQuery,
) -> BoxFuture<'a, Result<Vec<LiveChild>, SourceError>> {
    async move {
        let url = query.parent_physical_id.as_str();
        if policy_declared_for(query, "AWS::SQS::QueuePolicy", "Queues", url)
            || policy_declared_for(query, "AWS::SQS::QueueInlinePolicy", "Queue", url)
        {
            return Ok(Vec::new());
        }
        let doc = match queue_policy_document(clients, url).await {
            Ok(d) => d,
            // The queue itself is gone: its own read reports that.
            Err(QueueReadError::Gone) => None,
            Err(QueueReadError::Failed(message)) => return Err(SourceError::Other(message)),
        };
        Ok(doc
            .map(|doc| LiveChild {
                // The QueuePolicy's CC identifier is a generated id an
                // out-of-band policy never has, so the queue URL names it.
                resource_type: "AWS::SQS::QueuePolicy".into(),
                identifier: url.to_string(),
                model: Some(json!({ "Queues": [url], "PolicyDocument": doc })),
                owner_lookup_id: None,
            })
            .into_iter()
            .collect())
    }
    .boxed()
}
