//! Resource policies written whole on their targets: an S3 bucket policy
//! (PutBucketPolicy), an SNS topic policy (SetTopicAttributes) and an SQS
//! queue policy (SetQueueAttributes), each from the declared document.

use super::{declared_strings, missing, required_canonical};
use crate::revert::input::RevertResource;
use crate::revert::model::{RefusalReason, ServiceOp, Writer};
use crate::revert::rules::TypeWriter;
use crate::revert::target::Refused;

/// The call putting the declared document on every declared target.
pub(super) fn put(entry: &TypeWriter, res: &RevertResource) -> Result<ServiceOp, Refused> {
    let document = required_canonical(res, "PolicyDocument")?;
    let target_prop = entry.targets.as_deref().unwrap_or_default();
    let targets = declared_strings(res, target_prop)?;
    if targets.is_empty() {
        return Err(missing(target_prop));
    }
    match entry.writer {
        Writer::S3BucketPolicy => match targets.as_slice() {
            [bucket] => Ok(ServiceOp::PutBucketPolicy {
                bucket: bucket.clone(),
                policy_document: document,
            }),
            _ => Err((
                RefusalReason::NoTarget,
                "a bucket policy names exactly one bucket".into(),
            )),
        },
        Writer::SnsTopicPolicy => Ok(ServiceOp::SetTopicPolicy {
            topics: targets,
            policy_document: document,
        }),
        _ => Ok(ServiceOp::SetQueuePolicy {
            queues: targets,
            policy_document: document,
        }),
    }
}
