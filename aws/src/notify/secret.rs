//! The Slack webhook URL: the value of a Secrets Manager secret (the whole
//! secret string is the URL; an empty or unset secret means "no Slack").
//! Read on first use and kept for the container's life; a failed read is
//! tried again on the next notice. The URL is never logged or put in an
//! error message: it is a bearer credential.

use crate::errors::describe;
use crate::AwsClients;
use crate::CountingInterceptor;
use aws_config::{BehaviorVersion, Region};
use futures_util::future::{BoxFuture, FutureExt};
use tokio::sync::OnceCell;

/// Service codes meaning "the secret has no value yet".
const NO_VALUE: &[&str] = &["ResourceNotFoundException"];

/// Where a webhook URL comes from (Secrets Manager, or a fixed value in tests).
pub trait WebhookUrlSource: Send + Sync {
    /// The URL, or `None` when Slack is not configured.
    fn url(&self) -> BoxFuture<'_, Result<Option<String>, String>>;
}

/// A fixed URL (or none).
impl WebhookUrlSource for Option<String> {
    fn url(&self) -> BoxFuture<'_, Result<Option<String>, String>> {
        let v = self.clone();
        async move { Ok(v) }.boxed()
    }
}

/// The URL held by a Secrets Manager secret, cached after the first read.
#[derive(Debug)]
pub struct SecretWebhookUrl {
    client: aws_sdk_secretsmanager::Client,
    secret_id: String,
    cached: OnceCell<Option<String>>,
}

impl SecretWebhookUrl {
    /// The URL in `secret_id` (a name or ARN).
    pub fn new(client: aws_sdk_secretsmanager::Client, secret_id: &str) -> Self {
        SecretWebhookUrl {
            client,
            secret_id: secret_id.to_string(),
            cached: OnceCell::new(),
        }
    }

    async fn read(&self) -> Result<Option<String>, String> {
        let out = self
            .client
            .get_secret_value()
            .secret_id(&self.secret_id)
            .send()
            .await;
        match out {
            Ok(o) => Ok(o
                .secret_string()
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_string)),
            // A secret created without a value answers "no current version".
            Err(e) if describe(&e, NO_VALUE).class == crate::errors::ErrorClass::NotFound => {
                Ok(None)
            }
            Err(e) => Err(format!(
                "secretsmanager:GetSecretValue {}: {}",
                self.secret_id,
                describe(&e, NO_VALUE).message
            )),
        }
    }
}

impl WebhookUrlSource for SecretWebhookUrl {
    fn url(&self) -> BoxFuture<'_, Result<Option<String>, String>> {
        async move { self.cached.get_or_try_init(|| self.read()).await.cloned() }.boxed()
    }
}

/// A Secrets Manager client configured like the bundle (region, endpoint
/// from the environment) and counted by its counter.
pub async fn secrets_client(clients: &AwsClients) -> aws_sdk_secretsmanager::Client {
    let mut loader = aws_config::defaults(BehaviorVersion::latest());
    if let Some(r) = &clients.region {
        loader = loader.region(Region::new(r.clone()));
    }
    let sdk = loader.load().await;
    aws_sdk_secretsmanager::Client::from_conf(
        aws_sdk_secretsmanager::config::Builder::from(&sdk)
            .interceptor(CountingInterceptor::new(clients.counter.clone()))
            .build(),
    )
}
