//! Per-type readers through the SDK (mocked): bucket, topic and queue
//! policies, IAM inline policies, Lambda permissions by statement id.

mod aws_support;

use aws_sdk_iam::operation::get_role_policy::GetRolePolicyOutput;
use aws_sdk_iam::Client as Iam;
use aws_sdk_lambda::operation::get_policy::GetPolicyOutput;
use aws_sdk_lambda::Client as Lambda;
use aws_sdk_s3::operation::get_bucket_policy::GetBucketPolicyOutput;
use aws_sdk_s3::Client as S3;
use aws_sdk_sns::operation::get_topic_attributes::GetTopicAttributesOutput;
use aws_sdk_sns::Client as Sns;
use aws_sdk_sqs::operation::get_queue_attributes::GetQueueAttributesOutput;
use aws_sdk_sqs::types::QueueAttributeName;
use aws_sdk_sqs::Client as Sqs;
use aws_smithy_mocks::mock;
use aws_support::{clients, json_error, xml_error};
use realdrift_aws::AwsLiveReader;
use realdrift_core::pipeline::{LiveReader, ReadOutcome, ReadRequest};
use realdrift_core::DeclaredValue;
use serde_json::{json, Value};

fn req(ty: &str, pid: &str, declared: Value) -> ReadRequest {
    let Value::Object(m) = declared else { panic!() };
    ReadRequest {
        logical_id: "R".into(),
        resource_type: ty.into(),
        physical_id: pid.into(),
        declared: m
            .iter()
            .map(|(k, v)| (k.clone(), DeclaredValue::from_json(v)))
            .collect(),
        account_id: Some("111111111111".into()),
        region: Some("us-east-1".into()),
        partition: Some("aws".into()),
    }
}

const DOC: &str = r#"{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":"*","Action":"s3:GetObject","Resource":"arn:aws:s3:::b/*"}]}"#;

#[tokio::test]
async fn bucket_policy_is_read_from_the_declared_bucket() {
    let rule = mock!(S3::get_bucket_policy)
        .match_requests(|r| r.bucket() == Some("b"))
        .then_output(|| GetBucketPolicyOutput::builder().policy(DOC).build());
    let c = clients(&[&rule]);
    let out = AwsLiveReader::new(c.clone())
        .read(&req("AWS::S3::BucketPolicy", "b", json!({"Bucket": "b"})))
        .await;
    let doc: Value = serde_json::from_str(DOC).unwrap();
    assert_eq!(
        out,
        ReadOutcome::found(json!({"Bucket": "b", "PolicyDocument": doc}))
    );
    assert_eq!(c.counter.snapshot().get("s3:GetBucketPolicy"), Some(&1));
    assert_eq!(c.counter.total(), 1);
}

#[tokio::test]
async fn a_removed_bucket_policy_is_deleted() {
    let rule = mock!(S3::get_bucket_policy).then_http_response(|| {
        aws_smithy_runtime_api::http::Response::new(
            aws_smithy_runtime_api::http::StatusCode::try_from(404).unwrap(),
            aws_smithy_types::body::SdkBody::from(
                "<Error><Code>NoSuchBucketPolicy</Code><Message>none</Message></Error>",
            ),
        )
    });
    let c = clients(&[&rule]);
    let out = AwsLiveReader::new(c)
        .read(&req("AWS::S3::BucketPolicy", "b", json!({"Bucket": "b"})))
        .await;
    assert_eq!(out, ReadOutcome::NotFound);
}

#[tokio::test]
async fn queue_policy_lists_queues_that_carry_it() {
    let with = mock!(Sqs::get_queue_attributes)
        .match_requests(|r| r.queue_url() == Some("https://q1"))
        .then_output(|| {
            GetQueueAttributesOutput::builder()
                .attributes(QueueAttributeName::Policy, DOC)
                .build()
        });
    let without = mock!(Sqs::get_queue_attributes)
        .match_requests(|r| r.queue_url() == Some("https://q2"))
        .then_output(|| GetQueueAttributesOutput::builder().build());
    let c = clients(&[&with, &without]);
    let out = AwsLiveReader::new(c)
        .read(&req(
            "AWS::SQS::QueuePolicy",
            "gen-id",
            json!({"Queues": ["https://q1", "https://q2"]}),
        ))
        .await;
    let doc: Value = serde_json::from_str(DOC).unwrap();
    assert_eq!(
        out,
        ReadOutcome::found(json!({"Queues": ["https://q1"], "PolicyDocument": doc}))
    );
}

#[tokio::test]
async fn unresolved_targets_wait_for_the_second_pass() {
    let c = clients(&[]);
    let mut r = req("AWS::SQS::QueuePolicy", "gen-id", json!({}));
    r.declared.insert(
        "Queues".into(),
        DeclaredValue::Array(vec![DeclaredValue::Unresolved]),
    );
    let out = AwsLiveReader::new(c.clone()).read(&r).await;
    assert!(matches!(out, ReadOutcome::TargetUnresolved { .. }));
    assert_eq!(c.counter.total(), 0);
}

#[tokio::test]
async fn topic_policy_and_a_missing_topic() {
    let ok = mock!(Sns::get_topic_attributes)
        .match_requests(|r| r.topic_arn() == Some("arn:t1"))
        .then_output(|| {
            GetTopicAttributesOutput::builder()
                .attributes("Policy", DOC)
                .build()
        });
    let gone = mock!(Sns::get_topic_attributes)
        .match_requests(|r| r.topic_arn() == Some("arn:gone"))
        .then_http_response(|| xml_error(404, "NotFound", "Topic does not exist"));
    let c = clients(&[&ok, &gone]);
    let reader = AwsLiveReader::new(c);
    let doc: Value = serde_json::from_str(DOC).unwrap();
    assert_eq!(
        reader
            .read(&req(
                "AWS::SNS::TopicPolicy",
                "id",
                json!({"Topics": ["arn:t1", "arn:gone"]})
            ))
            .await,
        ReadOutcome::found(json!({"Topics": ["arn:t1"], "PolicyDocument": doc}))
    );
    assert_eq!(
        reader
            .read(&req(
                "AWS::SNS::TopicPolicy",
                "id",
                json!({"Topics": ["arn:gone"]})
            ))
            .await,
        ReadOutcome::NotFound
    );
}

#[tokio::test]
async fn iam_inline_policy_is_url_decoded_per_role() {
    let encoded = "%7B%22Version%22%3A%222012-10-17%22%2C%22Statement%22%3A%5B%5D%7D";
    let present = mock!(Iam::get_role_policy)
        .match_requests(|r| r.role_name() == Some("role-a") && r.policy_name() == Some("P"))
        .then_output(move || {
            GetRolePolicyOutput::builder()
                .role_name("role-a")
                .policy_name("P")
                .policy_document(encoded)
                .build()
                .unwrap()
        });
    let missing = mock!(Iam::get_role_policy)
        .match_requests(|r| r.role_name() == Some("role-b"))
        .then_http_response(|| xml_error(404, "NoSuchEntity", "not attached"));
    let c = clients(&[&present, &missing]);
    let out = AwsLiveReader::new(c.clone())
        .read(&req(
            "AWS::IAM::Policy",
            "Stack-P-abc",
            json!({"PolicyName": "P", "Roles": ["role-a", "role-b"]}),
        ))
        .await;
    assert_eq!(
        out,
        ReadOutcome::found(json!({"PolicyName": "P", "Roles": ["role-a"],
            "PolicyDocument": {"Version": "2012-10-17", "Statement": []}}))
    );
    assert_eq!(c.counter.snapshot().get("iam:GetRolePolicy"), Some(&2));
}

#[tokio::test]
async fn iam_policy_removed_everywhere_is_deleted() {
    let missing =
        mock!(Iam::get_role_policy).then_http_response(|| xml_error(404, "NoSuchEntity", "gone"));
    let c = clients(&[&missing]);
    let out = AwsLiveReader::new(c)
        .read(&req(
            "AWS::IAM::Policy",
            "x",
            json!({"PolicyName": "P", "Roles": ["r"]}),
        ))
        .await;
    assert_eq!(out, ReadOutcome::NotFound);
}

#[tokio::test]
async fn lambda_permission_is_matched_by_statement_id() {
    let policy = json!({"Version": "2012-10-17", "Statement": [
        {"Sid": "other", "Effect": "Allow", "Principal": {"Service": "s3.amazonaws.com"}, "Action": "lambda:InvokeFunction"},
        {"Sid": "App-Perm-1", "Effect": "Allow", "Principal": {"Service": "apigateway.amazonaws.com"},
         "Action": "lambda:InvokeFunction", "Resource": "arn:aws:lambda:us-east-1:111111111111:function:fn",
         "Condition": {"ArnLike": {"AWS:SourceArn": "arn:aws:execute-api:us-east-1:111111111111:abc/*"}}}
    ]})
    .to_string();
    let rule = mock!(Lambda::get_policy)
        .match_requests(|r| r.function_name() == Some("fn"))
        .then_output(move || GetPolicyOutput::builder().policy(policy.clone()).build());
    let c = clients(&[&rule]);
    let reader = AwsLiveReader::new(c);
    let out = reader
        .read(&req(
            "AWS::Lambda::Permission",
            "App-Perm-1",
            json!({"FunctionName": "fn"}),
        ))
        .await;
    assert_eq!(
        out,
        ReadOutcome::found(
            json!({"FunctionName": "fn", "Action": "lambda:InvokeFunction",
            "Principal": "apigateway.amazonaws.com",
            "SourceArn": "arn:aws:execute-api:us-east-1:111111111111:abc/*"})
        )
    );
    let gone = reader
        .read(&req(
            "AWS::Lambda::Permission",
            "App-Perm-2",
            json!({"FunctionName": "fn"}),
        ))
        .await;
    assert_eq!(
        gone,
        ReadOutcome::NotFound,
        "a statement removed out of band is a deleted permission"
    );
}

#[tokio::test]
async fn lambda_policy_read_denied_is_lost_coverage() {
    let rule = mock!(Lambda::get_policy)
        .then_http_response(|| json_error(403, "AccessDeniedException", "no"));
    let c = clients(&[&rule]);
    let out = AwsLiveReader::new(c)
        .read(&req(
            "AWS::Lambda::Permission",
            "p",
            json!({"FunctionName": "fn"}),
        ))
        .await;
    assert!(
        matches!(
            out,
            ReadOutcome::Skipped {
                coverage_lost: true,
                ..
            }
        ),
        "{out:?}"
    );
}
