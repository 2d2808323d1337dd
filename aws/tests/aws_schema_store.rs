//! DescribeType schema source and the S3 baseline store through the SDK (mocked).

mod aws_support;

use aws_sdk_cloudformation::operation::describe_type::DescribeTypeOutput;
use aws_sdk_cloudformation::Client as Cfn;
use aws_sdk_s3::operation::get_object::GetObjectOutput;
use aws_sdk_s3::operation::put_object::PutObjectOutput;
use aws_sdk_s3::primitives::ByteStream;
use aws_sdk_s3::Client as S3;
use aws_smithy_mocks::mock;
use aws_support::{clients, xml_error};
use realdrift_aws::{DescribeTypeSchemas, S3BaselineStore};
use realdrift_core::baseline::BaselineStore;
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
    let notes = src
        .prefetch(&["AWS::New::Thing".to_string(), "AWS::No::Such".to_string()])
        .await;
    assert_eq!(notes.len(), 1, "{notes:?}");
    let facts = src.facts("AWS::New::Thing").unwrap().unwrap();
    assert_eq!(facts.read_only, vec!["Arn".to_string()]);
    assert_eq!(src.facts("AWS::No::Such").unwrap(), None);
    // Cached: a second prefetch makes no call.
    let _ = src
        .prefetch(&["AWS::New::Thing".to_string(), "AWS::No::Such".to_string()])
        .await;
    assert_eq!(
        c.counter.snapshot().get("cloudformation:DescribeType"),
        Some(&2)
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn s3_store_loads_saves_and_treats_no_such_key_as_absent() {
    let get = mock!(S3::get_object)
        .match_requests(|r| {
            r.bucket() == Some("bkt") && r.key() == Some("team/baselines/App.1.us-east-1.json")
        })
        .then_output(|| {
            GetObjectOutput::builder()
                .body(ByteStream::from_static(b"{\"a\":1}"))
                .build()
        });
    let absent = mock!(S3::get_object)
        .match_requests(|r| r.key() == Some("team/baselines/Other.1.us-east-1.json"))
        .then_http_response(|| {
            aws_smithy_runtime_api::http::Response::new(
                aws_smithy_runtime_api::http::StatusCode::try_from(404).unwrap(),
                aws_smithy_types::body::SdkBody::from(
                    "<Error><Code>NoSuchKey</Code><Message>none</Message></Error>",
                ),
            )
        });
    let put = mock!(S3::put_object)
        .match_requests(|r| {
            r.bucket() == Some("bkt") && r.key() == Some("team/baselines/App.1.us-east-1.json")
        })
        .then_output(|| PutObjectOutput::builder().build());
    let c = clients(&[&get, &absent, &put]);
    let store = S3BaselineStore::from_url(&c, "s3://bkt/team/baselines/").unwrap();
    assert_eq!(
        store.load("App.1.us-east-1.json").unwrap().as_deref(),
        Some("{\"a\":1}")
    );
    assert_eq!(store.load("Other.1.us-east-1.json").unwrap(), None);
    store.save("App.1.us-east-1.json", "{}").unwrap();
    assert_eq!(put.num_calls(), 1);
    assert!(store.load("../escape").is_err());
}

#[test]
fn s3_urls_parse_and_work_outside_a_runtime() {
    let get = mock!(S3::get_object).then_output(|| {
        GetObjectOutput::builder()
            .body(ByteStream::from_static(b"x"))
            .build()
    });
    let c = clients(&[&get]);
    assert!(S3BaselineStore::from_url(&c, "file:///tmp").is_none());
    assert!(S3BaselineStore::from_url(&c, "s3://").is_none());
    let store = S3BaselineStore::from_url(&c, "s3://bkt").unwrap();
    assert_eq!(store.object_key("a.json"), "a.json");
    assert_eq!(store.load("a.json").unwrap().as_deref(), Some("x"));
}
