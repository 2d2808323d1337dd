//! A client bundle whose every client answers from aws-smithy-mocks rules.

#![allow(dead_code)]

use aws_smithy_mocks::{mock_client, Rule, RuleMode};
use realdrift_aws::{AwsClients, CallCounter, CountingInterceptor};

/// Every client gets every rule; a rule only ever matches its own operation.
pub fn clients(rules: &[&Rule]) -> AwsClients {
    let counter = CallCounter::new();
    let i = CountingInterceptor::new(counter.clone());
    macro_rules! c {
        ($k:ident) => {{
            let i = i.clone();
            mock_client!($k, RuleMode::MatchAny, rules.iter().copied(), move |b| b
                .interceptor(i.clone()))
        }};
    }
    AwsClients {
        cloudformation: c!(aws_sdk_cloudformation),
        cloudcontrol: c!(aws_sdk_cloudcontrol),
        s3: c!(aws_sdk_s3),
        sns: c!(aws_sdk_sns),
        sqs: c!(aws_sdk_sqs),
        iam: c!(aws_sdk_iam),
        lambda: c!(aws_sdk_lambda),
        eventbridge: c!(aws_sdk_eventbridge),
        securityhub: c!(aws_sdk_securityhub),
        kms: c!(aws_sdk_kms),
        ec2: c!(aws_sdk_ec2),
        codebuild: c!(aws_sdk_codebuild),
        route53: c!(aws_sdk_route53),
        elbv2: c!(aws_sdk_elasticloadbalancingv2),
        cloudwatch: c!(aws_sdk_cloudwatch),
        docdb: c!(aws_sdk_docdb),
        dax: c!(aws_sdk_dax),
        dms: c!(aws_sdk_databasemigration),
        lakeformation: c!(aws_sdk_lakeformation),
        secretsmanager: c!(aws_sdk_secretsmanager),
        region: Some("us-east-1".into()),
        counter,
    }
}

/// An HTTP error response with an AWS JSON error body (`__type` + message).
pub fn json_error(
    status: u16,
    code: &str,
    message: &str,
) -> aws_smithy_runtime_api::http::Response {
    let body = format!("{{\"__type\":\"{code}\",\"message\":\"{message}\"}}");
    aws_smithy_runtime_api::http::Response::new(
        aws_smithy_runtime_api::http::StatusCode::try_from(status).unwrap(),
        aws_smithy_types::body::SdkBody::from(body),
    )
}

/// An HTTP error response in the AWS query/XML error shape (IAM, SNS, CloudFormation).
pub fn xml_error(status: u16, code: &str, message: &str) -> aws_smithy_runtime_api::http::Response {
    let body = format!(
        "<ErrorResponse><Error><Type>Sender</Type><Code>{code}</Code><Message>{message}</Message></Error><RequestId>r</RequestId></ErrorResponse>"
    );
    aws_smithy_runtime_api::http::Response::new(
        aws_smithy_runtime_api::http::StatusCode::try_from(status).unwrap(),
        aws_smithy_types::body::SdkBody::from(body),
    )
}
