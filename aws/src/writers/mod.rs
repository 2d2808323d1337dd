//! Revert writers, one file per writer, registered in one table
//! ([`WRITERS`]): Cloud Control by default, service calls where Cloud Control
//! cannot write (core/data/revert-writers.json names which). Adding a writer
//! is one file here and one row in the table (plus its planning side in
//! core's `revert::writers`).

mod cloud_control;
mod cloudwatch_anomaly_detector;
mod codebuild_project;
mod dax_cluster;
mod declared;
mod dms_replication_instance;
mod docdb;
mod ec2_client_vpn_endpoint;
mod ec2_network_acl_entry;
mod elbv2_listener_certificate;
mod iam_access_key;
mod iam_inline_policy;
mod lakeformation_resource;
mod lambda_permission;
mod retry;
mod route53_record_set_group;
mod s3_bucket_policy;
mod sns_topic_policy;
mod sqs_queue_policy;

pub use retry::{AttemptError, RetryPolicy};

use crate::clients::AwsClients;
use crate::errors::describe;
use crate::identifiers::{cc_identifier, CcIdentifier};
use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use realdrift_core::pipeline::{GatheredStack, ReadRequest};
use realdrift_core::revert::{
    Batch, BatchAction, RevertWriter, ServiceOp, WriteError, WriteOutcome, Writer,
};
use std::collections::BTreeMap;

/// Everything one write needs.
#[derive(Clone, Copy)]
pub struct WriteCall<'a> {
    /// The clients.
    pub clients: &'a AwsClients,
    /// The batch to apply.
    pub batch: &'a Batch,
    /// The batch's idempotency token.
    pub token: &'a str,
    /// The resource's Cloud Control identifier.
    pub identifier: &'a str,
    /// Retry and polling settings.
    pub policy: &'a RetryPolicy,
}

/// A writer: applies one batch, retrying transient failures up to the deadline.
pub type WriterFn = for<'a> fn(WriteCall<'a>) -> BoxFuture<'a, WriteOutcome>;

/// One service call of a service writer.
pub type ServiceCallFn =
    for<'a> fn(&'a AwsClients, &'a ServiceOp) -> BoxFuture<'a, Result<(), AttemptError>>;

/// The writer table: one row per writer core's plans name.
pub const WRITERS: &[(Writer, WriterFn)] = &[
    (Writer::CloudControl, cloud_control::write),
    (Writer::S3BucketPolicy, s3_bucket_policy::write),
    (Writer::SnsTopicPolicy, sns_topic_policy::write),
    (Writer::SqsQueuePolicy, sqs_queue_policy::write),
    (Writer::IamInlinePolicy, iam_inline_policy::write),
    (Writer::LambdaPermission, lambda_permission::write),
    (Writer::Ec2NetworkAclEntry, ec2_network_acl_entry::write),
    (Writer::CodeBuildProject, codebuild_project::write),
    (Writer::IamAccessKey, iam_access_key::write),
    (
        Writer::Route53RecordSetGroup,
        route53_record_set_group::write,
    ),
    (
        Writer::Elbv2ListenerCertificate,
        elbv2_listener_certificate::write,
    ),
    (Writer::DaxCluster, dax_cluster::write),
    (
        Writer::DmsReplicationInstance,
        dms_replication_instance::write,
    ),
    (Writer::LakeFormationResource, lakeformation_resource::write),
    (Writer::Ec2ClientVpnEndpoint, ec2_client_vpn_endpoint::write),
    (
        Writer::CloudWatchAnomalyDetector,
        cloudwatch_anomaly_detector::write,
    ),
    (Writer::DocDbCluster, docdb::write_cluster),
    (Writer::DocDbInstance, docdb::write_instance),
];

/// The writer registered for a plan's writer name, if any.
pub fn writer_for(w: Writer) -> Option<WriterFn> {
    WRITERS.iter().find(|(k, _)| *k == w).map(|(_, f)| *f)
}

/// Applies a batch of service calls in order, each retried on its own; the
/// first call that fails ends the batch (later calls are not made). The
/// batch's attempts are the most any one call needed (the batch's items are
/// written by its calls together, so a sum would count one try per call).
pub(crate) fn service(call: WriteCall<'_>, apply: ServiceCallFn) -> BoxFuture<'_, WriteOutcome> {
    async move {
        let BatchAction::Service(ops) = &call.batch.action else {
            return WriteOutcome::failed(
                0,
                WriteError {
                    code: None,
                    message: format!(
                        "the {} writer only makes service calls",
                        call.batch.writer.as_str()
                    ),
                    transient: false,
                },
            );
        };
        let mut most = 0;
        for op in ops {
            let (n, err) = retry::with_retry(call.policy, |_| apply(call.clients, op)).await;
            most = most.max(n);
            if let Some(e) = err {
                return WriteOutcome::failed(most, e);
            }
        }
        WriteOutcome::ok(most)
    }
    .boxed()
}

/// The SDK-backed [`RevertWriter`]: dispatches each batch on its writer.
#[derive(Debug, Clone)]
pub struct AwsRevertWriter {
    clients: AwsClients,
    policy: RetryPolicy,
    /// Cloud Control identifiers by logical id, where they differ from the physical id.
    identifiers: BTreeMap<String, String>,
}

impl AwsRevertWriter {
    /// A writer over a client bundle.
    pub fn new(clients: AwsClients, policy: RetryPolicy) -> Self {
        AwsRevertWriter {
            clients,
            policy,
            identifiers: BTreeMap::new(),
        }
    }

    /// Addresses the stack's resources by the Cloud Control identifier the
    /// read path uses (composite identifiers built from declared properties).
    pub fn for_stack(mut self, g: &GatheredStack) -> Self {
        for r in &g.resources {
            let req = ReadRequest {
                logical_id: r.logical_id.clone(),
                resource_type: r.resource_type.clone(),
                physical_id: r.physical_id.clone().unwrap_or_default(),
                declared: r.declared.clone(),
                account_id: g.account.clone(),
                region: g.region.clone(),
                partition: None,
            };
            if let CcIdentifier::Ready(id) = cc_identifier(&req) {
                self.identifiers.insert(r.logical_id.clone(), id);
            }
        }
        self
    }
}

impl RevertWriter for AwsRevertWriter {
    fn write<'a>(&'a self, batch: &'a Batch, token: &'a str) -> BoxFuture<'a, WriteOutcome> {
        async move {
            let Some(writer) = writer_for(batch.writer) else {
                return WriteOutcome::failed(
                    0,
                    WriteError {
                        code: None,
                        message: format!("no writer registered for {}", batch.writer.as_str()),
                        transient: false,
                    },
                );
            };
            let identifier = self
                .identifiers
                .get(&batch.resource.logical_id)
                .cloned()
                .or_else(|| batch.resource.physical_id.clone())
                .unwrap_or_default();
            writer(WriteCall {
                clients: &self.clients,
                batch,
                token,
                identifier: &identifier,
                policy: &self.policy,
            })
            .await
        }
        .boxed()
    }
}

/// An SDK failure as an attempt error naming the call and its target.
pub(crate) fn sdk_error<E>(
    op: &str,
    target: &str,
    e: &aws_smithy_runtime_api::client::result::SdkError<E, aws_smithy_runtime_api::http::Response>,
) -> AttemptError
where
    E: aws_smithy_types::error::metadata::ProvideErrorMetadata + std::error::Error + 'static,
{
    let info = describe(e, &[]);
    AttemptError {
        code: info.code,
        message: format!("{op} on {target}: {}", info.message),
    }
}

/// A service call handed to the wrong writer (a plan defect, never retried).
pub(crate) fn op_error(writer: &str, op: &ServiceOp) -> AttemptError {
    let name = serde_json::to_value(op)
        .ok()
        .and_then(|v| v.get("op").and_then(|o| o.as_str()).map(str::to_string))
        .unwrap_or_default();
    AttemptError {
        code: None,
        message: format!("the {writer} writer does not make {name} calls"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_plan_writer_has_a_row() {
        for w in [
            Writer::CloudControl,
            Writer::S3BucketPolicy,
            Writer::SnsTopicPolicy,
            Writer::SqsQueuePolicy,
            Writer::IamInlinePolicy,
            Writer::LambdaPermission,
            Writer::Ec2NetworkAclEntry,
            Writer::CodeBuildProject,
            Writer::IamAccessKey,
            Writer::Route53RecordSetGroup,
            Writer::Elbv2ListenerCertificate,
            Writer::DaxCluster,
            Writer::DmsReplicationInstance,
            Writer::LakeFormationResource,
            Writer::Ec2ClientVpnEndpoint,
            Writer::CloudWatchAnomalyDetector,
            Writer::DocDbCluster,
            Writer::DocDbInstance,
        ] {
            assert!(writer_for(w).is_some(), "{}", w.as_str());
        }
        assert_eq!(WRITERS.len(), 18);
    }
}
