//! Each per-type reader, fed the service answer behind a real corpus case,
//! must produce exactly that case's recorded live model (`liveRaw`).

mod aws_support;

use aws_sdk_iam::operation::get_role_policy::GetRolePolicyOutput;
use aws_sdk_iam::Client as Iam;
use aws_sdk_lambda::operation::get_policy::GetPolicyOutput;
use aws_sdk_lambda::Client as Lambda;
use aws_sdk_s3::operation::get_bucket_policy::GetBucketPolicyOutput;
use aws_sdk_s3::Client as S3;
use aws_sdk_sqs::operation::get_queue_attributes::GetQueueAttributesOutput;
use aws_sdk_sqs::types::QueueAttributeName;
use aws_sdk_sqs::Client as Sqs;
use aws_smithy_mocks::mock;
use aws_support::clients;
use realdrift_aws::AwsLiveReader;
use realdrift_core::corpus::CorpusCase;
use realdrift_core::pipeline::{LiveReader, ReadOutcome, ReadRequest};
use realdrift_core::DeclaredValue;
use serde_json::{json, Value};
use std::path::PathBuf;

fn case(name: &str) -> CorpusCase {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/cases");
    CorpusCase::load(&dir.join(name)).unwrap()
}

fn request(c: &CorpusCase) -> ReadRequest {
    ReadRequest {
        logical_id: c.resource.logical_id.clone(),
        resource_type: c.resource.resource_type.clone(),
        physical_id: c.resource.physical_id.clone().unwrap_or_default(),
        declared: c
            .resource
            .declared
            .iter()
            .map(|(k, v)| (k.clone(), DeclaredValue::from_corpus_json(v)))
            .collect(),
        account_id: Some("111111111111".into()),
        region: Some("us-east-1".into()),
        partition: Some("aws".into()),
    }
}

/// Percent-encodes a document the way IAM returns policy documents.
fn url_encode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[tokio::test]
async fn bucket_policy_reader_reproduces_the_corpus_model() {
    let c = case("AWS__S3__BucketPolicy.BPolicy3F02723E.json");
    let doc = c.live_raw["PolicyDocument"].to_string();
    let rule = mock!(S3::get_bucket_policy)
        .then_output(move || GetBucketPolicyOutput::builder().policy(doc.clone()).build());
    let out = AwsLiveReader::new(clients(&[&rule]))
        .read(&request(&c))
        .await;
    assert_eq!(out, ReadOutcome::found(c.live_raw.clone()));
}

#[tokio::test]
async fn queue_policy_reader_reproduces_the_corpus_model() {
    let c = case("AWS__SQS__QueuePolicy.InboxPolicy63A7501F.json");
    let doc = c.live_raw["PolicyDocument"].to_string();
    let rule = mock!(Sqs::get_queue_attributes).then_output(move || {
        GetQueueAttributesOutput::builder()
            .attributes(QueueAttributeName::Policy, doc.clone())
            .build()
    });
    let out = AwsLiveReader::new(clients(&[&rule]))
        .read(&request(&c))
        .await;
    assert_eq!(out, ReadOutcome::found(c.live_raw.clone()));
}

#[tokio::test]
async fn iam_policy_reader_reproduces_the_corpus_model() {
    let c = case("AWS__IAM__Policy.BuildRoleDefaultPolicyEAC4E6D6.json");
    let encoded = url_encode(&c.live_raw["PolicyDocument"].to_string());
    let rule = mock!(Iam::get_role_policy).then_output(move || {
        GetRolePolicyOutput::builder()
            .role_name("r")
            .policy_name("p")
            .policy_document(encoded.clone())
            .build()
            .unwrap()
    });
    let out = AwsLiveReader::new(clients(&[&rule]))
        .read(&request(&c))
        .await;
    assert_eq!(out, ReadOutcome::found(c.live_raw.clone()));
}

#[tokio::test]
async fn lambda_permission_reader_reproduces_the_corpus_model() {
    let c = case("AWS__Lambda__Permission.ApiANYpingPingPermission3EC4806D.json");
    let live = &c.live_raw;
    let policy = json!({"Version": "2012-10-17", "Id": "default", "Statement": [
        {"Sid": c.resource.physical_id.clone().unwrap(), "Effect": "Allow",
         "Principal": {"Service": live["Principal"]}, "Action": live["Action"],
         "Resource": live["FunctionName"],
         "Condition": {"ArnLike": {"AWS:SourceArn": live["SourceArn"]}}}
    ]})
    .to_string();
    let rule = mock!(Lambda::get_policy)
        .then_output(move || GetPolicyOutput::builder().policy(policy.clone()).build());
    let out = AwsLiveReader::new(clients(&[&rule]))
        .read(&request(&c))
        .await;
    assert_eq!(out, ReadOutcome::found(c.live_raw.clone()));
}

#[test]
fn the_cases_used_are_policy_shaped() {
    for name in [
        "AWS__S3__BucketPolicy.BPolicy3F02723E.json",
        "AWS__SQS__QueuePolicy.InboxPolicy63A7501F.json",
        "AWS__IAM__Policy.BuildRoleDefaultPolicyEAC4E6D6.json",
    ] {
        assert!(matches!(
            case(name).live_raw.get("PolicyDocument"),
            Some(Value::Object(_))
        ));
    }
}
