//! AWS::SQS::QueuePolicy: SetQueueAttributes(Policy) with the declared
//! document on each declared queue; an empty Policy removes an out-of-band one.

use super::{op_error, sdk_error, service, AttemptError, WriteCall};
use crate::clients::AwsClients;
use aws_sdk_sqs::types::QueueAttributeName;
use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use realdrift_core::revert::ServiceOp;
use realdrift_core::revert::WriteOutcome;

/// Applies a batch of these calls (the writer's table row).
pub fn write(call: WriteCall<'_>) -> BoxFuture<'_, WriteOutcome> {
    service(call, apply)
}

/// Applies one SQS queue policy call.
fn apply<'a>(c: &'a AwsClients, op: &'a ServiceOp) -> BoxFuture<'a, Result<(), AttemptError>> {
    async move {
        let (queues, policy) = match op {
            ServiceOp::SetQueuePolicy {
                queues,
                policy_document,
            } => (queues, policy_document.to_string()),
            ServiceOp::RemoveQueuePolicy { queues } => (queues, String::new()),
            other => return Err(op_error("sqsQueuePolicy", other)),
        };
        for url in queues {
            c.sqs
                .set_queue_attributes()
                .queue_url(url)
                .attributes(QueueAttributeName::Policy, &policy)
                .send()
                .await
                .map_err(|e| sdk_error("sqs:SetQueueAttributes", url, &e))?;
        }
        Ok(())
    }
    .boxed()
}
