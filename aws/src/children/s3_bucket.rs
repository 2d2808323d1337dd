//! AWS::S3::Bucket children: a bucket policy set while the template declares none.

use super::policy_declared_for;
use crate::clients::AwsClients;
use crate::readers::bucket_policy_document;
use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use realdrift_core::pipeline::{ChildQuery, LiveChild, SourceError};
use serde_json::json;

/// Reports a live bucket policy when no declared AWS::S3::BucketPolicy targets
/// the bucket (a declared one is compared by its own reader).
pub fn enumerate<'a>(
    clients: &'a AwsClients,
    query: &'a ChildQuery,
) -> BoxFuture<'a, Result<Vec<LiveChild>, SourceError>> {
    async move {
        let bucket = query.parent_physical_id.as_str();
        if policy_declared_for(query, "AWS::S3::BucketPolicy", "Bucket", bucket) {
            return Ok(Vec::new());
        }
        let doc = bucket_policy_document(clients, bucket)
            .await
            .map_err(SourceError::Other)?;
        Ok(doc
            .map(|doc| LiveChild {
                resource_type: "AWS::S3::BucketPolicy".into(),
                // The bucket name is both the CC identifier and the CFn physical id.
                identifier: bucket.to_string(),
                model: Some(json!({ "Bucket": bucket, "PolicyDocument": doc })),
                owner_lookup_id: None,
            })
            .into_iter()
            .collect())
    }
    .boxed()
}
