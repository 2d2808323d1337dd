//! Cloud Control reads through the SDK (mocked): error mapping, identifier
//! adapters, retries on throttling, the Lambda CodeSha256 supplement, and the
//! per-operation call counter.

mod aws_support;

use aws_sdk_cloudcontrol::operation::get_resource::GetResourceOutput;
use aws_sdk_cloudcontrol::types::ResourceDescription;
use aws_sdk_cloudcontrol::Client as Cc;
use aws_sdk_lambda::operation::get_function::GetFunctionOutput;
use aws_sdk_lambda::types::FunctionConfiguration;
use aws_sdk_lambda::Client as Lambda;
use aws_smithy_mocks::{mock, Rule};
use aws_support::{clients, json_error};
use realdrift_aws::AwsLiveReader;
use realdrift_core::pipeline::{LiveReader, ReadOutcome, ReadRequest};
use realdrift_core::DeclaredValue;
use serde_json::json;

fn req(ty: &str, pid: &str) -> ReadRequest {
    ReadRequest {
        logical_id: "R".into(),
        resource_type: ty.into(),
        physical_id: pid.into(),
        ..Default::default()
    }
}

fn found(type_name: &'static str, id: &'static str, props: serde_json::Value) -> Rule {
    let props = props.to_string();
    mock!(Cc::get_resource)
        .match_requests(move |r| r.type_name() == Some(type_name) && r.identifier() == Some(id))
        .then_output(move || {
            GetResourceOutput::builder()
                .type_name(type_name)
                .resource_description(
                    ResourceDescription::builder()
                        .identifier(id)
                        .properties(props.clone())
                        .build(),
                )
                .build()
        })
}

fn failing(type_name: &'static str, status: u16, code: &'static str) -> Rule {
    mock!(Cc::get_resource)
        .match_requests(move |r| r.type_name() == Some(type_name))
        .then_http_response(move || json_error(status, code, "mocked failure"))
}

#[tokio::test]
async fn a_found_model_is_returned_as_json_and_counted() {
    let rule = found(
        "AWS::SQS::Queue",
        "https://q",
        json!({"QueueUrl": "https://q", "DelaySeconds": 0}),
    );
    let c = clients(&[&rule]);
    let reader = AwsLiveReader::new(c.clone());
    let out = reader.read(&req("AWS::SQS::Queue", "https://q")).await;
    assert_eq!(
        out,
        ReadOutcome::found(json!({"QueueUrl": "https://q", "DelaySeconds": 0}))
    );
    assert_eq!(
        c.counter.snapshot().get("cloudcontrol:GetResource"),
        Some(&1)
    );
    assert_eq!(
        c.counter.total(),
        1,
        "exactly one AWS call for a Cloud Control type"
    );
}

/// (resource type, HTTP status, AWS error code, expected outcome predicate).
type ErrorCase = (&'static str, u16, &'static str, fn(&ReadOutcome) -> bool);

#[tokio::test]
async fn errors_map_to_deleted_skipped_and_lost_coverage() {
    let cases: Vec<ErrorCase> = vec![
        ("AWS::A::NotFound", 400, "ResourceNotFoundException", |o| {
            *o == ReadOutcome::NotFound
        }),
        (
            "AWS::A::Unsupported",
            400,
            "UnsupportedActionException",
            |o| matches!(o, ReadOutcome::Unsupported { reason } if reason.contains("cannot read")),
        ),
        ("AWS::A::NoType", 400, "TypeNotFoundException", |o| {
            matches!(o, ReadOutcome::Unsupported { .. })
        }),
        // A handler or service failure is a read that did not happen: lost.
        (
            "AWS::A::Handler",
            400,
            "HandlerInternalFailureException",
            |o| {
                matches!(
                    o,
                    ReadOutcome::Skipped {
                        coverage_lost: true,
                        ..
                    }
                )
            },
        ),
        ("AWS::A::Internal", 500, "InternalFailure", |o| {
            matches!(
                o,
                ReadOutcome::Skipped {
                    coverage_lost: true,
                    ..
                }
            )
        }),
        ("AWS::A::Denied", 403, "AccessDeniedException", |o| {
            matches!(
                o,
                ReadOutcome::Skipped {
                    coverage_lost: true,
                    ..
                }
            )
        }),
    ];
    for (ty, status, code, check) in cases {
        let rule = failing(ty, status, code);
        let c = clients(&[&rule]);
        let out = AwsLiveReader::new(c).read(&req(ty, "id")).await;
        assert!(check(&out), "{code}: got {out:?}");
    }
}

#[tokio::test]
async fn throttling_is_retried_then_read() {
    let rule = mock!(Cc::get_resource)
        .sequence()
        .http_response(|| json_error(400, "ThrottlingException", "Rate exceeded"))
        .output(|| {
            GetResourceOutput::builder()
                .type_name("AWS::SNS::Topic")
                .resource_description(
                    ResourceDescription::builder()
                        .identifier("arn:t")
                        .properties("{\"TopicArn\":\"arn:t\"}")
                        .build(),
                )
                .build()
        })
        .build();
    let c = clients(&[&rule]);
    let out = AwsLiveReader::new(c.clone())
        .read(&req("AWS::SNS::Topic", "arn:t"))
        .await;
    assert_eq!(out, ReadOutcome::found(json!({"TopicArn": "arn:t"})));
    assert_eq!(rule.num_calls(), 2, "one throttled attempt, one success");
    assert_eq!(
        c.counter.snapshot().get("cloudcontrol:GetResource"),
        Some(&1),
        "counted once per call, not per attempt"
    );
}

#[tokio::test]
async fn identifier_adapters_build_composite_ids() {
    let rule = found(
        "AWS::Cognito::UserPoolClient",
        "us-east-1_pool|client123",
        json!({"ClientId": "client123"}),
    );
    let c = clients(&[&rule]);
    let reader = AwsLiveReader::new(c);
    let mut r = req("AWS::Cognito::UserPoolClient", "client123");
    // Not resolved yet: the read waits for live attributes (pass 1.5).
    r.declared
        .insert("UserPoolId".into(), DeclaredValue::Unresolved);
    assert!(matches!(
        reader.read(&r).await,
        ReadOutcome::TargetUnresolved { .. }
    ));
    r.declared.insert(
        "UserPoolId".into(),
        DeclaredValue::String("us-east-1_pool".into()),
    );
    assert_eq!(
        reader.read(&r).await,
        ReadOutcome::found(json!({"ClientId": "client123"}))
    );
    // Absent part: cannot be built, so no call; the read we expected is lost.
    r.declared.clear();
    assert!(matches!(
        reader.read(&r).await,
        ReadOutcome::Skipped {
            coverage_lost: true,
            ..
        }
    ));
    assert_eq!(rule.num_calls(), 1);
}

#[tokio::test]
async fn custom_resources_are_skipped_without_a_call() {
    let c = clients(&[]);
    let out = AwsLiveReader::new(c.clone())
        .read(&req("Custom::Thing", "x"))
        .await;
    assert!(matches!(
        out,
        ReadOutcome::Skipped {
            coverage_lost: false,
            ..
        }
    ));
    assert_eq!(c.counter.total(), 0);
}

#[tokio::test]
async fn lambda_functions_get_their_code_digest() {
    let cc = found(
        "AWS::Lambda::Function",
        "fn-1",
        json!({"FunctionName": "fn-1", "Code": {}}),
    );
    let gf = mock!(Lambda::get_function)
        .match_requests(|r| r.function_name() == Some("fn-1"))
        .then_output(|| {
            GetFunctionOutput::builder()
                .configuration(FunctionConfiguration::builder().code_sha256("abc=").build())
                .build()
        });
    let c = clients(&[&cc, &gf]);
    let out = AwsLiveReader::new(c.clone())
        .read(&req("AWS::Lambda::Function", "fn-1"))
        .await;
    assert_eq!(
        out,
        ReadOutcome::found(json!({"FunctionName": "fn-1", "Code": {}, "CodeSha256": "abc="}))
    );
    let calls = c.counter.snapshot();
    assert_eq!(calls.get("cloudcontrol:GetResource"), Some(&1));
    assert_eq!(calls.get("lambda:GetFunction"), Some(&1));
}

#[tokio::test]
async fn a_failed_code_digest_keeps_the_model_with_a_read_gap_on_code() {
    let cc = found(
        "AWS::Lambda::Function",
        "fn-2",
        json!({"FunctionName": "fn-2"}),
    );
    let gf = mock!(Lambda::get_function)
        .then_http_response(|| json_error(403, "AccessDeniedException", "no"));
    let c = clients(&[&cc, &gf]);
    match AwsLiveReader::new(c)
        .read(&req("AWS::Lambda::Function", "fn-2"))
        .await
    {
        ReadOutcome::Found(m) => {
            assert_eq!(m.properties, json!({"FunctionName": "fn-2"}));
            assert!(m.notes.is_empty(), "{:?}", m.notes);
            let gap = m.gaps.get("Code").expect("a read gap on Code");
            assert!(
                gap.contains("lambda:GetFunction") && gap.contains("AccessDeniedException"),
                "{gap}"
            );
        }
        other => panic!("unexpected {other:?}"),
    }
}

fn raw(status: u16, body: &'static str) -> aws_smithy_runtime_api::http::Response {
    aws_smithy_runtime_api::http::Response::new(
        aws_smithy_runtime_api::http::StatusCode::try_from(status).unwrap(),
        aws_smithy_types::body::SdkBody::from(body),
    )
}

#[tokio::test]
async fn a_response_that_does_not_parse_is_never_called_unsupported() {
    let cases: [(&str, u16, &str, &str); 3] = [
        ("AWS::A::Garbled", 200, "{not json", "could not be parsed"),
        ("AWS::A::Down", 500, "<html>oops</html>", "server error"),
        (
            "AWS::A::Missing",
            404,
            "<html>no</html>",
            "operation not supported",
        ),
    ];
    for (ty, status, body, expected) in cases {
        let rule = mock!(Cc::get_resource)
            .match_requests(move |r| r.type_name() == Some(ty))
            .then_http_response(move || raw(status, body));
        let out = AwsLiveReader::new(clients(&[&rule]))
            .read(&req(ty, "id"))
            .await;
        let ReadOutcome::Skipped {
            reason,
            coverage_lost,
        } = out
        else {
            panic!("{ty}: {out:?}");
        };
        assert!(coverage_lost, "{ty}: a failed read is lost coverage");
        assert!(reason.contains(expected), "{ty}: {reason}");
        if status != 404 {
            assert!(!reason.contains("not supported"), "{ty}: {reason}");
        }
    }
}
