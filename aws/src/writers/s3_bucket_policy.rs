//! AWS::S3::BucketPolicy: PutBucketPolicy with the declared document (it
//! replaces the bucket's policy whole), DeleteBucketPolicy for an
//! out-of-band policy.

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

/// Applies one S3 bucket policy call.
fn apply<'a>(c: &'a AwsClients, op: &'a ServiceOp) -> BoxFuture<'a, Result<(), AttemptError>> {
    async move {
        match op {
            ServiceOp::PutBucketPolicy {
                bucket,
                policy_document,
            } => {
                c.s3.put_bucket_policy()
                    .bucket(bucket)
                    .policy(policy_document.to_string())
                    .send()
                    .await
                    .map(|_| ())
                    .map_err(|e| sdk_error("s3:PutBucketPolicy", bucket, &e))
            }
            ServiceOp::DeleteBucketPolicy { bucket } => {
                c.s3.delete_bucket_policy()
                    .bucket(bucket)
                    .send()
                    .await
                    .map(|_| ())
                    .map_err(|e| sdk_error("s3:DeleteBucketPolicy", bucket, &e))
            }
            other => Err(op_error("s3BucketPolicy", other)),
        }
    }
    .boxed()
}
