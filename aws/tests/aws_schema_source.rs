//! The DescribeType schema source through the SDK (mocked).

mod aws_support;

use aws_sdk_cloudformation::operation::describe_type::DescribeTypeOutput;
use aws_sdk_cloudformation::Client as Cfn;
use aws_smithy_mocks::mock;
use aws_support::{clients, xml_error};
use realdrift_aws::DescribeTypeSchemas;
use realdrift_core::pipeline::SchemaPrefetch;
use realdrift_core::schema::SchemaSource;

const SCHEMA: &str = r#"{"typeName":"AWS::New::Thing","properties":{"Name":{"type":"string"},"Arn":{"type":"string"}},
"readOnlyProperties":["/properties/Arn"],"primaryIdentifier":["/properties/Name"],"additionalProperties":false}"#;

#[tokio::test]
async fn describe_type_fills_the_cache_once() {
    let found = mock!(Cfn::describe_type)
        .match_requests(|r| r.type_name() == Some("AWS::New::Thing"))
        .then_output(|| DescribeTypeOutput::builder().schema(SCHEMA).build());
    let missing = mock!(Cfn::describe_type)
        .match_requests(|r| r.type_name() == Some("AWS::No::Such"))
        .then_http_response(|| xml_error(404, "TypeNotFoundException", "no such type"));
    let c = clients(&[&found, &missing]);
    let src = DescribeTypeSchemas::new(c.clone());
    assert_eq!(
        src.facts("AWS::New::Thing").unwrap(),
        None,
        "not fetched yet"
    );
    let failed = src
        .prefetch(&["AWS::New::Thing".to_string(), "AWS::No::Such".to_string()])
        .await;
    assert_eq!(
        failed.keys().collect::<Vec<_>>(),
        ["AWS::No::Such"],
        "{failed:?}"
    );
    let facts = src.facts("AWS::New::Thing").unwrap().unwrap();
    assert_eq!(facts.read_only, vec!["Arn".to_string()]);
    assert_eq!(src.facts("AWS::No::Such").unwrap(), None);
    // Cached: a second prefetch makes no call, and still names the absent type.
    let again = src
        .prefetch(&["AWS::New::Thing".to_string(), "AWS::No::Such".to_string()])
        .await;
    assert!(again.contains_key("AWS::No::Such"), "{again:?}");
    assert_eq!(
        c.counter.snapshot().get("cloudformation:DescribeType"),
        Some(&2)
    );
}

#[tokio::test]
async fn a_failed_fetch_is_reported_per_type_and_asked_again() {
    let denied = mock!(Cfn::describe_type)
        .then_http_response(|| xml_error(403, "AccessDenied", "not authorized"));
    let c = clients(&[&denied]);
    let src = DescribeTypeSchemas::new(c.clone());
    let failed = src.prefetch(&["AWS::New::Thing".to_string()]).await;
    assert!(
        failed
            .get("AWS::New::Thing")
            .is_some_and(|w| w.contains("AccessDenied")),
        "{failed:?}"
    );
    let _ = src.prefetch(&["AWS::New::Thing".to_string()]).await;
    assert_eq!(
        c.counter.snapshot().get("cloudformation:DescribeType"),
        Some(&2),
        "a failure is not cached"
    );
}
