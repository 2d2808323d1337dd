//! The S3 store: ETag versions, conditional PutObject, listing, deletes.
//!
//! Mocked tests (aws-smithy-mocks) pin the requests and the error mapping;
//! `against_the_emulator` runs the whole contract, conditional saves
//! included, against moto (which honours If-None-Match / If-Match on
//! PutObject since 5.x). It is ignored by default because it needs the
//! emulator:
//!
//! ```sh
//! eval "$(scripts/emulator.sh start)"
//! cargo test -p realdrift-aws --test aws_s3_store -- --include-ignored
//! ```

mod aws_support;

use aws_sdk_s3::operation::delete_object::DeleteObjectOutput;
use aws_sdk_s3::operation::get_object::GetObjectOutput;
use aws_sdk_s3::operation::list_objects_v2::ListObjectsV2Output;
use aws_sdk_s3::operation::put_object::PutObjectOutput;
use aws_sdk_s3::primitives::ByteStream;
use aws_sdk_s3::types::Object;
use aws_sdk_s3::Client as S3;
use aws_smithy_mocks::mock;
use aws_support::clients;
use realdrift_aws::{AwsClients, AwsOptions, S3BaselineStore};
use realdrift_core::baseline::{BaselineStore, Precondition, StoreError, Version};

fn s3_error(status: u16, code: &str) -> aws_smithy_runtime_api::http::Response {
    aws_smithy_runtime_api::http::Response::new(
        aws_smithy_runtime_api::http::StatusCode::try_from(status).unwrap(),
        aws_smithy_types::body::SdkBody::from(format!(
            "<Error><Code>{code}</Code><Message>m</Message></Error>"
        )),
    )
}

#[tokio::test]
async fn loads_carry_the_etag_and_no_such_key_is_absent() {
    let get = mock!(S3::get_object)
        .match_requests(|r| {
            r.bucket() == Some("bkt") && r.key() == Some("team/baselines/App.1.us-east-1.json")
        })
        .then_output(|| {
            GetObjectOutput::builder()
                .e_tag("\"abc\"")
                .body(ByteStream::from_static(b"{\"a\":1}"))
                .build()
        });
    let absent = mock!(S3::get_object)
        .match_requests(|r| r.key() == Some("team/baselines/Other.1.us-east-1.json"))
        .then_http_response(|| s3_error(404, "NoSuchKey"));
    let denied = mock!(S3::get_object)
        .match_requests(|r| r.key() == Some("team/baselines/Denied.json"))
        .then_http_response(|| s3_error(403, "AccessDenied"));
    let c = clients(&[&get, &absent, &denied]);
    let store = S3BaselineStore::from_url(&c, "s3://bkt/team/baselines/").unwrap();
    let got = store.load("App.1.us-east-1.json").await.unwrap().unwrap();
    assert_eq!(got.text, "{\"a\":1}");
    assert_eq!(got.version, Version::new("\"abc\""));
    assert_eq!(store.load("Other.1.us-east-1.json").await.unwrap(), None);
    let e = store.load("Denied.json").await.unwrap_err();
    assert!(
        e.to_string().starts_with(
            "baseline store s3://bkt/team/baselines/Denied.json: s3:GetObject: AccessDenied"
        ),
        "{e}"
    );
    assert!(matches!(
        store.load("../escape").await,
        Err(StoreError::BadKey { .. })
    ));
    assert_eq!(c.counter.total(), 3, "a bad key makes no call");
}

#[tokio::test]
async fn conditional_saves_send_if_none_match_and_if_match() {
    let create = mock!(S3::put_object)
        .match_requests(|r| r.if_none_match() == Some("*") && r.if_match().is_none())
        .then_output(|| PutObjectOutput::builder().e_tag("\"v1\"").build());
    let update = mock!(S3::put_object)
        .match_requests(|r| r.if_match() == Some("\"v1\"") && r.if_none_match().is_none())
        .then_output(|| PutObjectOutput::builder().e_tag("\"v2\"").build());
    let plain = mock!(S3::put_object)
        .match_requests(|r| {
            r.if_match().is_none()
                && r.if_none_match().is_none()
                && r.content_type() == Some("application/yaml")
        })
        .then_output(|| PutObjectOutput::builder().e_tag("\"v3\"").build());
    let c = clients(&[&create, &update, &plain]);
    let store = S3BaselineStore::from_url(&c, "s3://bkt").unwrap();
    let v1 = store
        .save("state/A.json", "{}", Precondition::IfAbsent)
        .await
        .unwrap();
    assert_eq!(v1, Version::new("\"v1\""));
    let v2 = store
        .save("state/A.json", "{}", Precondition::IfUnchanged(v1))
        .await
        .unwrap();
    assert_eq!(v2, Version::new("\"v2\""));
    store
        .save("ignore.yaml", "ignore: []\n", Precondition::None)
        .await
        .unwrap();
    assert_eq!(
        (create.num_calls(), update.num_calls(), plain.num_calls()),
        (1, 1, 1)
    );
}

#[tokio::test]
async fn refused_conditions_are_conflicts_other_failures_are_not() {
    let cases: [(u16, &str, Precondition, bool); 5] = [
        (412, "PreconditionFailed", Precondition::IfAbsent, true),
        (
            409,
            "ConditionalRequestConflict",
            Precondition::IfAbsent,
            true,
        ),
        // If-Match on an object deleted since it was read.
        (
            404,
            "NoSuchKey",
            Precondition::IfUnchanged(Version::new("\"v\"")),
            true,
        ),
        (403, "AccessDenied", Precondition::IfAbsent, false),
        // Without a condition a 409 is just a failure.
        (409, "OperationAborted", Precondition::None, false),
    ];
    for (status, code, precondition, conflict) in cases {
        let put = mock!(S3::put_object).then_http_response(move || s3_error(status, code));
        let c = clients(&[&put]);
        let store = S3BaselineStore::from_url(&c, "s3://bkt/p").unwrap();
        let e = store
            .save("k.json", "x", precondition.clone())
            .await
            .unwrap_err();
        assert_eq!(
            matches!(e, StoreError::Conflict { .. }),
            conflict,
            "{status} {code} {precondition:?}: {e}"
        );
        assert!(e.to_string().contains("s3://bkt/p/k.json"), "{e}");
    }
}

#[tokio::test]
async fn listing_follows_pages_and_strips_the_prefix_and_deletes_are_plain() {
    let page1 = mock!(S3::list_objects_v2)
        .match_requests(|r| r.prefix() == Some("root/state/") && r.continuation_token().is_none())
        .then_output(|| {
            ListObjectsV2Output::builder()
                .contents(Object::builder().key("root/state/B.json").build())
                .is_truncated(true)
                .next_continuation_token("t")
                .build()
        });
    let page2 = mock!(S3::list_objects_v2)
        .match_requests(|r| r.continuation_token() == Some("t"))
        .then_output(|| {
            ListObjectsV2Output::builder()
                .contents(Object::builder().key("root/state/A.json").build())
                .is_truncated(false)
                .build()
        });
    let delete = mock!(S3::delete_object)
        .match_requests(|r| r.bucket() == Some("bkt") && r.key() == Some("root/state/A.json"))
        .then_output(|| DeleteObjectOutput::builder().build());
    let c = clients(&[&page1, &page2, &delete]);
    let store = S3BaselineStore::from_url(&c, "s3://bkt/root").unwrap();
    assert_eq!(
        store.list("state/").await.unwrap(),
        vec!["state/A.json".to_string(), "state/B.json".to_string()]
    );
    store.delete("state/A.json").await.unwrap();
    assert_eq!(delete.num_calls(), 1);
}

#[test]
fn s3_urls_parse() {
    let c = clients(&[]);
    assert!(S3BaselineStore::from_url(&c, "file:///tmp").is_none());
    assert!(S3BaselineStore::from_url(&c, "s3://").is_none());
    let store = S3BaselineStore::from_url(&c, "s3://bkt").unwrap();
    assert_eq!(store.object_key("a.json"), "a.json");
    let store = S3BaselineStore::from_url(&c, "s3://bkt/team/").unwrap();
    assert_eq!(store.object_key("a.json"), "team/a.json");
}

#[tokio::test]
#[ignore = "needs the local emulator: tests/emulator/run.sh runs it"]
async fn against_the_emulator() {
    let clients = AwsClients::load(&AwsOptions::default()).await.unwrap();
    let bucket = format!("realdrift-store-test-{}", std::process::id());
    clients
        .s3
        .create_bucket()
        .bucket(&bucket)
        .send()
        .await
        .unwrap();
    let store = S3BaselineStore::new(clients.s3.clone(), &bucket, "root");
    let key = "state/App.111111111111.us-east-1.json";
    assert_eq!(store.load(key).await.unwrap(), None);
    let v1 = store
        .save(key, "one", Precondition::IfAbsent)
        .await
        .unwrap();
    assert_eq!(store.load(key).await.unwrap().unwrap().version, v1);
    let again = store.save(key, "two", Precondition::IfAbsent).await;
    assert!(
        matches!(again, Err(StoreError::Conflict { .. })),
        "{again:?}"
    );
    let v2 = store
        .save(key, "two", Precondition::IfUnchanged(v1.clone()))
        .await
        .unwrap();
    let stale = store
        .save(key, "three", Precondition::IfUnchanged(v1))
        .await;
    assert!(
        matches!(stale, Err(StoreError::Conflict { .. })),
        "{stale:?}"
    );
    let loaded = store.load(key).await.unwrap().unwrap();
    assert_eq!((loaded.text.as_str(), &loaded.version), ("two", &v2));
    store
        .save("baselines/ignore.yaml", "ignore: []\n", Precondition::None)
        .await
        .unwrap();
    assert_eq!(
        store.list("").await.unwrap(),
        vec!["baselines/ignore.yaml".to_string(), key.to_string()]
    );
    store.delete(key).await.unwrap();
    store.delete(key).await.unwrap();
    let gone = store.save(key, "x", Precondition::IfUnchanged(v2)).await;
    assert!(matches!(gone, Err(StoreError::Conflict { .. })), "{gone:?}");
    assert_eq!(store.list("state/").await.unwrap(), Vec::<String>::new());
}
