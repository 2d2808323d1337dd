//! The store in S3 (`s3://bucket/prefix`): baselines synced from git, and
//! the functions' `state/`, `index/` and `cache/` objects.
//!
//! Versions are ETags; a conditional save is a conditional PutObject
//! (`If-None-Match: *` for only-if-absent, `If-Match: <etag>` for
//! only-if-unchanged), so two writers racing on one key cannot both win.

use super::clients::AwsClients;
use super::errors::describe;
use aws_sdk_s3::primitives::ByteStream;
use aws_smithy_runtime_api::client::result::SdkError;
use aws_smithy_runtime_api::http::Response as HttpResponse;
use aws_smithy_types::error::metadata::ProvideErrorMetadata;
use futures_util::future::{BoxFuture, FutureExt};
use realdrift_core::baseline::{
    check_key, BaselineStore, Precondition, StoreError, Stored, Version,
};

/// The key prefix of the baselines synced from git (the S3 layout of
/// DESIGN.md); `state/`, `index/` and `cache/` sit beside it.
pub const BASELINES_PREFIX: &str = "baselines/";

/// A store over one S3 bucket and key prefix.
#[derive(Debug, Clone)]
pub struct S3BaselineStore {
    client: aws_sdk_s3::Client,
    bucket: String,
    prefix: String,
}

/// Service codes meaning "no such object".
const NOT_FOUND: &[&str] = &["NoSuchKey", "NotFound"];

impl S3BaselineStore {
    /// A store over `bucket`, with every key under `prefix` (may be empty).
    pub fn new(client: aws_sdk_s3::Client, bucket: &str, prefix: &str) -> S3BaselineStore {
        S3BaselineStore {
            client,
            bucket: bucket.to_string(),
            prefix: prefix.trim_matches('/').to_string(),
        }
    }

    /// The store of `bucket`'s git-synced baselines: every key under
    /// [`BASELINES_PREFIX`], listing included.
    pub fn baselines(client: aws_sdk_s3::Client, bucket: &str) -> S3BaselineStore {
        S3BaselineStore::new(client, bucket, BASELINES_PREFIX)
    }

    /// A store for `s3://bucket/prefix` (prefix optional; `None` for another scheme).
    pub fn from_url(clients: &AwsClients, url: &str) -> Option<S3BaselineStore> {
        let rest = url.strip_prefix("s3://")?;
        let (bucket, prefix) = rest.split_once('/').unwrap_or((rest, ""));
        if bucket.is_empty() {
            return None;
        }
        Some(S3BaselineStore::new(clients.s3.clone(), bucket, prefix))
    }

    /// The object key for a store key.
    pub fn object_key(&self, key: &str) -> String {
        if self.prefix.is_empty() {
            key.to_string()
        } else {
            format!("{}/{key}", self.prefix)
        }
    }

    /// The `s3://` URL of a store key, for messages.
    fn url(&self, key: &str) -> String {
        format!("s3://{}/{}", self.bucket, self.object_key(key))
    }

    fn error(&self, key: &str, message: String) -> StoreError {
        StoreError::io(self.url(key), message)
    }

    async fn load_object(&self, key: &str) -> Result<Option<Stored>, StoreError> {
        check_key(key)?;
        let out = match self
            .client
            .get_object()
            .bucket(&self.bucket)
            .key(self.object_key(key))
            .send()
            .await
        {
            Ok(out) => out,
            Err(e) if is_code(&e, NOT_FOUND) => return Ok(None),
            Err(e) => {
                let info = describe(&e, NOT_FOUND);
                return Err(self.error(key, format!("s3:GetObject: {}", info.message)));
            }
        };
        let Some(etag) = out.e_tag.clone() else {
            // Without an ETag no conditional save could be made safely.
            return Err(self.error(key, "s3:GetObject: the answer carries no ETag".into()));
        };
        let bytes = out
            .body
            .collect()
            .await
            .map_err(|e| self.error(key, e.to_string()))?
            .into_bytes();
        let text = String::from_utf8(bytes.to_vec())
            .map_err(|e| self.error(key, format!("not UTF-8: {e}")))?;
        Ok(Some(Stored {
            text,
            version: Version::new(etag),
        }))
    }

    async fn put_object(
        &self,
        key: &str,
        text: &str,
        precondition: Precondition,
    ) -> Result<Version, StoreError> {
        check_key(key)?;
        // A single PutObject replaces the object atomically for readers.
        let mut put = self
            .client
            .put_object()
            .bucket(&self.bucket)
            .key(self.object_key(key))
            .content_type(content_type(key))
            .body(ByteStream::from(text.as_bytes().to_vec()));
        put = match &precondition {
            Precondition::None => put,
            Precondition::IfAbsent => put.if_none_match("*"),
            Precondition::IfUnchanged(v) => put.if_match(v.as_str()),
        };
        match put.send().await {
            Ok(out) => out
                .e_tag
                .map(Version::new)
                .ok_or_else(|| self.error(key, "s3:PutObject: the answer carries no ETag".into())),
            Err(e) if is_precondition_failure(&e, &precondition) => {
                Err(StoreError::conflict(self.url(key), &precondition))
            }
            Err(e) => {
                let info = describe(&e, &[]);
                Err(self.error(key, format!("s3:PutObject: {}", info.message)))
            }
        }
    }

    async fn list_keys(&self, prefix: &str) -> Result<Vec<String>, StoreError> {
        let root = self.object_key("");
        let mut pages = self
            .client
            .list_objects_v2()
            .bucket(&self.bucket)
            .prefix(format!("{root}{prefix}"))
            .into_paginator()
            .send();
        let mut keys = Vec::new();
        while let Some(page) = pages.next().await {
            let page = page.map_err(|e| {
                let info = describe(&e, &[]);
                self.error(prefix, format!("s3:ListObjectsV2: {}", info.message))
            })?;
            keys.extend(
                page.contents()
                    .iter()
                    .filter_map(|o| o.key())
                    .filter_map(|k| k.strip_prefix(root.as_str()))
                    .map(str::to_string),
            );
        }
        keys.sort();
        Ok(keys)
    }

    async fn delete_object(&self, key: &str) -> Result<(), StoreError> {
        check_key(key)?;
        // DeleteObject of a missing key succeeds, as the trait asks.
        self.client
            .delete_object()
            .bucket(&self.bucket)
            .key(self.object_key(key))
            .send()
            .await
            .map(|_| ())
            .map_err(|e| {
                let info = describe(&e, &[]);
                self.error(key, format!("s3:DeleteObject: {}", info.message))
            })
    }
}

/// The content type of a key, by extension (baselines and state are JSON,
/// the ignore file is YAML).
fn content_type(key: &str) -> &'static str {
    if key.ends_with(".yaml") || key.ends_with(".yml") {
        "application/yaml"
    } else {
        "application/json"
    }
}

/// True when the error carries one of `codes`.
fn is_code<E: ProvideErrorMetadata>(err: &SdkError<E, HttpResponse>, codes: &[&str]) -> bool {
    err.code().is_some_and(|c| codes.contains(&c))
}

/// True when a conditional PutObject was refused for its condition: 412
/// PreconditionFailed, 409 ConditionalRequestConflict (a concurrent
/// conditional write), or — for If-Match — an object that is gone.
fn is_precondition_failure<E: ProvideErrorMetadata>(
    err: &SdkError<E, HttpResponse>,
    precondition: &Precondition,
) -> bool {
    if matches!(precondition, Precondition::None) {
        return false;
    }
    let status = err.raw_response().map(|r| r.status().as_u16());
    let gone = matches!(precondition, Precondition::IfUnchanged(_)) && is_code(err, NOT_FOUND);
    gone || matches!(status, Some(412 | 409))
        || is_code(err, &["PreconditionFailed", "ConditionalRequestConflict"])
}

impl BaselineStore for S3BaselineStore {
    fn load<'a>(&'a self, key: &'a str) -> BoxFuture<'a, Result<Option<Stored>, StoreError>> {
        self.load_object(key).boxed()
    }

    fn save<'a>(
        &'a self,
        key: &'a str,
        text: &'a str,
        precondition: Precondition,
    ) -> BoxFuture<'a, Result<Version, StoreError>> {
        self.put_object(key, text, precondition).boxed()
    }

    fn list<'a>(&'a self, prefix: &'a str) -> BoxFuture<'a, Result<Vec<String>, StoreError>> {
        self.list_keys(prefix).boxed()
    }

    fn delete<'a>(&'a self, key: &'a str) -> BoxFuture<'a, Result<(), StoreError>> {
        self.delete_object(key).boxed()
    }
}
