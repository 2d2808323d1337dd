//! AWS::SNS::TopicPolicy: SetTopicAttributes(Policy) with the declared
//! document on each declared topic.

use super::{op_error, sdk_error, service, AttemptError, WriteCall};
use crate::clients::AwsClients;
use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use realdrift_core::revert::ServiceOp;
use realdrift_core::revert::WriteOutcome;

/// Applies a batch of these calls (the writer's table row).
pub fn write(call: WriteCall<'_>) -> BoxFuture<'_, WriteOutcome> {
    service(call, apply)
}

/// Applies one SNS topic policy call.
fn apply<'a>(c: &'a AwsClients, op: &'a ServiceOp) -> BoxFuture<'a, Result<(), AttemptError>> {
    async move {
        let ServiceOp::SetTopicPolicy {
            topics,
            policy_document,
        } = op
        else {
            return Err(op_error("snsTopicPolicy", op));
        };
        let policy = policy_document.to_string();
        for topic in topics {
            c.sns
                .set_topic_attributes()
                .topic_arn(topic)
                .attribute_name("Policy")
                .attribute_value(&policy)
                .send()
                .await
                .map_err(|e| sdk_error("sns:SetTopicAttributes", topic, &e))?;
        }
        Ok(())
    }
    .boxed()
}
