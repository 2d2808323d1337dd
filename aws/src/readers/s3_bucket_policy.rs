//! AWS::S3::BucketPolicy: GetBucketPolicy on the declared bucket.

use super::{parse_policy_document, AwsClients};
use crate::errors::{describe, ErrorClass};
use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use realdrift_core::pipeline::{ReadOutcome, ReadRequest};
use serde_json::{json, Value};

/// Reads the policy of the bucket named by `Bucket` (else the physical id, which
/// CloudFormation sets to the bucket name).
pub fn read<'a>(clients: &'a AwsClients, req: &'a ReadRequest) -> BoxFuture<'a, ReadOutcome> {
    async move {
        let bucket = match req.declared_str("Bucket") {
            Some(b) => b.to_string(),
            None if req.declared_unresolved("Bucket") => {
                return ReadOutcome::TargetUnresolved {
                    reason: "AWS::S3::BucketPolicy Bucket is not resolved".into(),
                }
            }
            None => req.physical_id.clone(),
        };
        match clients.s3.get_bucket_policy().bucket(&bucket).send().await {
            Ok(out) => policy_model(&bucket, out.policy()),
            Err(e) => {
                let info = describe(&e, &["NoSuchBucketPolicy", "NoSuchBucket"]);
                match info.class {
                    // No policy (or no bucket): the policy resource is gone.
                    ErrorClass::NotFound => ReadOutcome::NotFound,
                    ErrorClass::AccessDenied => ReadOutcome::denied(format!(
                        "s3:GetBucketPolicy denied on {bucket}: {}",
                        info.message
                    )),
                    _ => ReadOutcome::denied(format!(
                        "s3:GetBucketPolicy failed on {bucket}: {}",
                        info.message
                    )),
                }
            }
        }
    }
    .boxed()
}

/// The CloudFormation-shaped model from a policy string.
pub(crate) fn policy_model(bucket: &str, policy: Option<&str>) -> ReadOutcome {
    let Some(raw) = policy else {
        return ReadOutcome::NotFound;
    };
    match parse_policy_document(raw) {
        Ok(doc) => ReadOutcome::found(json!({ "Bucket": bucket, "PolicyDocument": doc })),
        Err(e) => ReadOutcome::denied(format!("bucket policy of {bucket}: {e}")),
    }
}

/// The live policy document of a bucket, for the bucket's child enumerator.
pub(crate) async fn bucket_policy_document(
    clients: &AwsClients,
    bucket: &str,
) -> Result<Option<Value>, String> {
    match clients.s3.get_bucket_policy().bucket(bucket).send().await {
        Ok(out) => match out.policy() {
            Some(raw) => parse_policy_document(raw).map(Some),
            None => Ok(None),
        },
        Err(e) => {
            let info = describe(&e, &["NoSuchBucketPolicy"]);
            match info.class {
                ErrorClass::NotFound => Ok(None),
                _ => Err(format!("s3:GetBucketPolicy on {bucket}: {}", info.message)),
            }
        }
    }
}
