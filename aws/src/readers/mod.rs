//! Per-type readers for types Cloud Control cannot read, registered in one table.
//!
//! Each reader builds the resource's model in the CloudFormation shape from
//! the service API, emitting only what the API returned (no guessed defaults).

mod cloudwatch_anomaly_detector;
mod codebuild_project;
mod dax_cluster;
mod dms_replication_instance;
mod docdb_db_cluster;
mod docdb_db_instance;
mod ec2_client_vpn_endpoint;
mod ec2_client_vpn_target_network_association;
mod ec2_launch_template;
mod ec2_network_acl_entry;
mod elasticloadbalancingv2_listener_certificate;
mod iam_access_key;
mod iam_policy;
mod lakeformation_resource;
mod lambda_code_sha;
mod lambda_permission;
mod route53_record_set_group;
mod s3_bucket_policy;
mod sns_topic_policy;
mod sqs_queue_policy;

pub(crate) use lambda_permission::{function_policy, statement_id, statement_model, statements};
pub(crate) use s3_bucket_policy::bucket_policy_document;
pub(crate) use sns_topic_policy::{
    topic_policy_document as sns_topic_policy_document, TopicReadError,
};
pub(crate) use sqs_queue_policy::{queue_policy_document, QueueReadError};

use super::clients::AwsClients;
use futures_util::future::BoxFuture;
use realdrift_core::pipeline::{LiveModel, Projection, ReadOutcome, ReadRequest};
use serde_json::Value;

/// A per-type reader: reads one resource through a service SDK.
pub type ReaderFn = for<'a> fn(&'a AwsClients, &'a ReadRequest) -> BoxFuture<'a, ReadOutcome>;

/// The reader table: one row per type Cloud Control cannot read.
pub const READERS: &[(&str, ReaderFn)] = &[
    ("AWS::S3::BucketPolicy", s3_bucket_policy::read),
    ("AWS::SNS::TopicPolicy", sns_topic_policy::read),
    ("AWS::SQS::QueuePolicy", sqs_queue_policy::read),
    ("AWS::IAM::Policy", iam_policy::read),
    ("AWS::Lambda::Permission", lambda_permission::read),
    ("AWS::EC2::NetworkAclEntry", ec2_network_acl_entry::read),
    ("AWS::CodeBuild::Project", codebuild_project::read),
    ("AWS::IAM::AccessKey", iam_access_key::read),
    ("AWS::EC2::ClientVpnEndpoint", ec2_client_vpn_endpoint::read),
    (
        "AWS::EC2::ClientVpnTargetNetworkAssociation",
        ec2_client_vpn_target_network_association::read,
    ),
    (
        "AWS::Route53::RecordSetGroup",
        route53_record_set_group::read,
    ),
    (
        "AWS::ElasticLoadBalancingV2::ListenerCertificate",
        elasticloadbalancingv2_listener_certificate::read,
    ),
    (
        "AWS::CloudWatch::AnomalyDetector",
        cloudwatch_anomaly_detector::read,
    ),
    ("AWS::DocDB::DBCluster", docdb_db_cluster::read),
    ("AWS::DocDB::DBInstance", docdb_db_instance::read),
    ("AWS::DAX::Cluster", dax_cluster::read),
    (
        "AWS::DMS::ReplicationInstance",
        dms_replication_instance::read,
    ),
    ("AWS::LakeFormation::Resource", lakeformation_resource::read),
];

/// A supplement: completes a Cloud Control model with what it never returns.
pub type SupplementFn =
    for<'a> fn(&'a AwsClients, &'a ReadRequest, &'a mut LiveModel) -> BoxFuture<'a, ()>;

/// The supplement table: one row per type whose Cloud Control model misses
/// a comparable property.
pub const SUPPLEMENTS: &[(&str, SupplementFn)] = &[
    ("AWS::Lambda::Function", lambda_code_sha::supplement),
    ("AWS::EC2::LaunchTemplate", ec2_launch_template::supplement),
];

/// The supplement registered for a type, if any.
pub fn supplement_for(resource_type: &str) -> Option<SupplementFn> {
    SUPPLEMENTS
        .iter()
        .find(|(t, _)| *t == resource_type)
        .map(|(_, f)| *f)
}

/// What each reader added for issue 46 projects: a declared path outside it
/// is a `readGap` of that read.
pub const PROJECTIONS: &[Projection] = &[
    ec2_network_acl_entry::PROJECTION,
    codebuild_project::PROJECTION,
    iam_access_key::PROJECTION,
    ec2_launch_template::PROJECTION,
    ec2_client_vpn_endpoint::PROJECTION,
    ec2_client_vpn_target_network_association::PROJECTION,
    route53_record_set_group::PROJECTION,
    elasticloadbalancingv2_listener_certificate::PROJECTION,
    cloudwatch_anomaly_detector::PROJECTION,
    docdb_db_cluster::PROJECTION,
    docdb_db_instance::PROJECTION,
    dax_cluster::PROJECTION,
    dms_replication_instance::PROJECTION,
    lakeformation_resource::PROJECTION,
];

/// The projection a reader declares for a type, if any.
pub fn projection_for(resource_type: &str) -> Option<&'static Projection> {
    PROJECTIONS
        .iter()
        .find(|p| p.resource_type == resource_type)
}

/// A projected model: the reader's properties plus a `readGap` for every
/// declared path the projection does not read.
pub(crate) struct Model(LiveModel);

impl Model {
    /// The model of `properties`, read under `projection` for `req`.
    pub(crate) fn new(projection: Projection, req: &ReadRequest, properties: Value) -> Self {
        let mut m = LiveModel::new(properties);
        m.gaps = projection.gaps(&req.declared);
        Model(m)
    }

    /// Marks top-level properties the service never returns (a password) as
    /// write-only: a declared one is a write-only `readGap`, not lost coverage.
    pub(crate) fn write_only(mut self, props: &[&str]) -> Self {
        for p in props {
            self.0.gaps.remove(*p);
            self.0.write_only.push((*p).to_string());
        }
        self
    }

    /// Adds a declared path this read could not verify, with why.
    pub(crate) fn gap(&mut self, path: String, why: String) {
        self.0.gaps.insert(path, why);
    }

    /// The found outcome.
    pub(crate) fn found(self) -> ReadOutcome {
        ReadOutcome::Found(self.0)
    }
}

/// The reader registered for a type, if any.
pub fn reader_for(resource_type: &str) -> Option<ReaderFn> {
    READERS
        .iter()
        .find(|(t, _)| *t == resource_type)
        .map(|(_, f)| *f)
}

/// Inserts `key` when the API returned a value (absent stays absent).
pub(crate) fn put<T: Into<Value>>(m: &mut serde_json::Map<String, Value>, key: &str, v: Option<T>) {
    if let Some(v) = v {
        m.insert(key.to_string(), v.into());
    }
}

/// Parses a policy document string (JSON, possibly URL-encoded as IAM returns it).
pub(crate) fn parse_policy_document(raw: &str) -> Result<Value, String> {
    let trimmed = raw.trim_start();
    let text = if trimmed.starts_with('{') {
        raw.to_string()
    } else {
        percent_decode(raw)
            .ok_or_else(|| "policy document is not valid percent-encoding".to_string())?
    };
    serde_json::from_str(&text).map_err(|e| format!("policy document is not JSON: {e}"))
}

/// Decodes `%XX` escapes (and `+` as space is NOT applied: IAM encodes spaces as %20).
pub(crate) fn percent_decode(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = s.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// A required declared target: a resolved string, or the outcome to return
/// instead (a declared resource whose target cannot be used is lost coverage).
/// Boxed: a reader's answer is large, and this is its rare early return.
pub(crate) fn declared_target<'a>(
    req: &'a ReadRequest,
    prop: &str,
) -> Result<&'a str, Box<ReadOutcome>> {
    if let Some(s) = req.declared_str(prop) {
        return Ok(s);
    }
    if req.declared_unresolved(prop) {
        return Err(Box::new(ReadOutcome::TargetUnresolved {
            reason: format!("{} {prop} is not resolved", req.resource_type),
        }));
    }
    Err(Box::new(ReadOutcome::denied(format!(
        "{} {prop} is not declared as a string",
        req.resource_type
    ))))
}

/// A declared list of string targets (`Queues`, `Topics`, `Roles`...); absent -> empty.
pub(crate) fn declared_targets(
    req: &ReadRequest,
    prop: &str,
) -> Result<Vec<String>, Box<ReadOutcome>> {
    use realdrift_core::declared::DeclaredValue;
    let refused = |why: &str| {
        Box::new(ReadOutcome::denied(format!(
            "{} {prop} {why}",
            req.resource_type
        )))
    };
    match req.declared.get(prop) {
        None => Ok(Vec::new()),
        Some(v) if !v.is_fully_resolved() => Err(Box::new(ReadOutcome::TargetUnresolved {
            reason: format!("{} {prop} is not resolved", req.resource_type),
        })),
        Some(DeclaredValue::String(s)) => Ok(vec![s.clone()]),
        Some(DeclaredValue::Array(items)) => items
            .iter()
            .map(|i| match i {
                DeclaredValue::String(s) => Ok(s.clone()),
                _ => Err(refused("holds a non-string entry")),
            })
            .collect(),
        Some(_) => Err(refused("is not a list of strings")),
    }
}

/// The outcome of a read call that failed: gone when the error is one of
/// `not_found_codes`, otherwise lost coverage naming the call (`what`).
pub(crate) fn failed_read<E>(
    err: &aws_smithy_runtime_api::client::result::SdkError<
        E,
        aws_smithy_runtime_api::http::Response,
    >,
    not_found_codes: &[&str],
    what: &str,
) -> ReadOutcome
where
    E: aws_smithy_types::error::metadata::ProvideErrorMetadata + std::error::Error + 'static,
{
    let info = crate::errors::describe(err, not_found_codes);
    match info.class {
        crate::errors::ErrorClass::NotFound => ReadOutcome::NotFound,
        _ => ReadOutcome::denied(format!("{what}: {}", info.message)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_projection_has_a_reader_row() {
        for p in PROJECTIONS {
            let t = p.resource_type;
            assert!(
                reader_for(t).is_some() || supplement_for(t).is_some(),
                "{t}"
            );
        }
    }

    #[test]
    fn url_encoded_iam_documents_decode() {
        let raw = "%7B%22Version%22%3A%222012-10-17%22%2C%22Statement%22%3A%5B%5D%7D";
        assert_eq!(
            parse_policy_document(raw).unwrap(),
            json!({"Version": "2012-10-17", "Statement": []})
        );
        assert!(parse_policy_document("%7").is_err());
        assert_eq!(parse_policy_document("{\"a\":1}").unwrap(), json!({"a": 1}));
    }
}
