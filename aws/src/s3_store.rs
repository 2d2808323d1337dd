//! Baselines in S3 (`s3://bucket/prefix`), behind the baseline stage's
//! synchronous [`BaselineStore`] trait.

use super::clients::AwsClients;
use super::errors::{describe, ErrorClass};
use aws_sdk_s3::primitives::ByteStream;
use realdrift_core::baseline::{BaselineError, BaselineStore};
use std::future::Future;
use std::path::PathBuf;

/// A baseline store over one S3 bucket and key prefix.
#[derive(Debug, Clone)]
pub struct S3BaselineStore {
    client: aws_sdk_s3::Client,
    bucket: String,
    prefix: String,
}

impl S3BaselineStore {
    /// A store for `s3://bucket/prefix` (prefix optional; `None` for another scheme).
    pub fn from_url(clients: &AwsClients, url: &str) -> Option<S3BaselineStore> {
        let rest = url.strip_prefix("s3://")?;
        let (bucket, prefix) = rest.split_once('/').unwrap_or((rest, ""));
        if bucket.is_empty() {
            return None;
        }
        Some(S3BaselineStore {
            client: clients.s3.clone(),
            bucket: bucket.to_string(),
            prefix: prefix.trim_matches('/').to_string(),
        })
    }

    /// The object key for a baseline file name.
    pub fn object_key(&self, key: &str) -> String {
        if self.prefix.is_empty() {
            key.to_string()
        } else {
            format!("{}/{key}", self.prefix)
        }
    }

    fn error(&self, key: &str, message: String) -> BaselineError {
        BaselineError::Io {
            location: PathBuf::from(format!("s3://{}/{}", self.bucket, self.object_key(key))),
            source: std::io::Error::other(message),
        }
    }

    async fn load_async(&self, key: &str) -> Result<Option<String>, BaselineError> {
        if key.is_empty() || key.contains('/') {
            return Err(self.error(key, "a key is a plain file name".into()));
        }
        match self
            .client
            .get_object()
            .bucket(&self.bucket)
            .key(self.object_key(key))
            .send()
            .await
        {
            Ok(out) => {
                let bytes = out
                    .body
                    .collect()
                    .await
                    .map_err(|e| self.error(key, e.to_string()))?
                    .into_bytes();
                String::from_utf8(bytes.to_vec())
                    .map(Some)
                    .map_err(|e| self.error(key, format!("not UTF-8: {e}")))
            }
            Err(e) => {
                let info = describe(&e, &["NoSuchKey", "NotFound"]);
                match info.class {
                    ErrorClass::NotFound => Ok(None),
                    _ => Err(self.error(key, format!("s3:GetObject: {}", info.message))),
                }
            }
        }
    }

    async fn save_async(&self, key: &str, text: &str) -> Result<(), BaselineError> {
        if key.is_empty() || key.contains('/') {
            return Err(self.error(key, "a key is a plain file name".into()));
        }
        // A single PutObject replaces the object atomically for readers.
        self.client
            .put_object()
            .bucket(&self.bucket)
            .key(self.object_key(key))
            .content_type("application/json")
            .body(ByteStream::from(text.as_bytes().to_vec()))
            .send()
            .await
            .map(|_| ())
            .map_err(|e| {
                let info = describe(&e, &[]);
                self.error(key, format!("s3:PutObject: {}", info.message))
            })
    }
}

/// Runs a future to completion from synchronous code.
///
/// Inside a multi-threaded tokio runtime the worker is handed off while it
/// blocks; outside any runtime a small one is built. A current-thread runtime
/// cannot block without deadlocking, so that case is refused.
fn block_on<F: Future>(fut: F) -> Result<F::Output, String> {
    use tokio::runtime::{Handle, RuntimeFlavor};
    match Handle::try_current() {
        Ok(h) if h.runtime_flavor() == RuntimeFlavor::MultiThread => {
            Ok(tokio::task::block_in_place(|| h.block_on(fut)))
        }
        Ok(_) => Err("the S3 baseline store needs a multi-threaded tokio runtime".into()),
        Err(_) => tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map(|rt| rt.block_on(fut))
            .map_err(|e| format!("cannot start a runtime: {e}")),
    }
}

impl BaselineStore for S3BaselineStore {
    fn load(&self, key: &str) -> Result<Option<String>, BaselineError> {
        block_on(self.load_async(key)).map_err(|m| self.error(key, m))?
    }

    fn save(&self, key: &str, text: &str) -> Result<(), BaselineError> {
        block_on(self.save_async(key, text)).map_err(|m| self.error(key, m))?
    }
}
