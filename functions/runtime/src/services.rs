//! Everything a function needs, built once per container: the SDK clients
//! (one config load), the pipeline, the stores and the alert channels.

use super::config::Config;
use realdrift_aws::notify::{
    secrets_client, EventBusNotifier, RetryPolicy, SecretWebhookUrl, SecurityHubNotifier,
    SlackWebhook, SnsNotifier,
};
use realdrift_aws::{AwsClients, AwsOptions, ClientsError, S3BaselineStore};
use realdrift_core::notify::{Notifier, NotifyError};
use realdrift_core::pipeline::Pipeline;
use realdrift_core::schema::SchemaError;
use realdrift_core::watch::Channels;
use std::sync::Arc;

/// The S3 prefix baselines and the ignore file are synced to.
pub const BASELINES_PREFIX: &str = "baselines";

/// The clients, adapters and stores of one container.
pub struct Services {
    /// The configuration.
    pub config: Config,
    /// The SDK clients (they count every call).
    pub clients: AwsClients,
    /// The check pipeline over them.
    pub pipeline: Pipeline,
    /// `s3://bucket/baselines/`: baselines and `ignore.yaml`.
    pub baselines: S3BaselineStore,
    /// `s3://bucket/`: `state/`, `index/`, `cache/`.
    pub bucket: S3BaselineStore,
    /// An Organization member's hub bucket (`REALDRIFT_BASELINES_BUCKET`),
    /// where each stack's status document goes under `org/` for
    /// `realdrift report --hub-bucket`; `None` for a one-account install.
    pub hub: Option<S3BaselineStore>,
    /// SNS, the hub's bus and Security Hub (required, the last two when
    /// configured) and Slack (optional, when a secret is configured).
    pub channels: Channels,
}

/// Why the services could not be built (the function cannot start).
#[derive(Debug, thiserror::Error)]
pub enum ServicesError {
    /// The SDK configuration.
    #[error(transparent)]
    Clients(#[from] ClientsError),
    /// The bundled schema snapshot.
    #[error(transparent)]
    Schemas(#[from] SchemaError),
    /// The Slack client.
    #[error(transparent)]
    Slack(#[from] NotifyError),
}

impl Services {
    /// Builds everything from `config` and the SDK's environment.
    pub async fn build(config: Config) -> Result<Self, ServicesError> {
        let clients = AwsClients::load(&AwsOptions::default()).await?;
        let mut pipeline = clients.pipeline()?;
        if let Some(n) = config.concurrency {
            pipeline = pipeline.with_concurrency(n);
        }
        let sns: Arc<dyn Notifier> =
            Arc::new(SnsNotifier::new(clients.sns.clone(), &config.topic_arn));
        let mut required = vec![sns];
        // The hub's bus is required: a transition it missed is never sent again.
        if let Some(arn) = &config.event_bus_arn {
            let bus = EventBusNotifier::new(&clients.eventbridge, arn).ok_or_else(|| {
                NotifyError::new("eventbridge", format!("{arn} is not an event bus ARN"))
            })?;
            required.push(Arc::new(bus));
        }
        // Security Hub last among the required: SNS and the bus never wait on
        // it; a failed import keeps the transition pending (a finding missed
        // on detect or resolve would stay wrong), at the price of the retry
        // reaching SNS and the bus again.
        if let Some(partition) = &config.security_hub_partition {
            required.push(Arc::new(SecurityHubNotifier::new(
                clients.securityhub.clone(),
                partition,
            )));
        }
        let mut optional: Vec<Arc<dyn Notifier>> = Vec::new();
        if let Some(id) = &config.slack_secret_id {
            let url = SecretWebhookUrl::new(secrets_client(&clients).await, id);
            optional.push(Arc::new(SlackWebhook::new(
                Arc::new(url),
                RetryPolicy::default(),
            )?));
        }
        Ok(Services {
            baselines: S3BaselineStore::new(
                clients.s3.clone(),
                config.baselines_bucket.as_deref().unwrap_or(&config.bucket),
                BASELINES_PREFIX,
            ),
            bucket: S3BaselineStore::new(clients.s3.clone(), &config.bucket, ""),
            hub: config
                .baselines_bucket
                .as_deref()
                .map(|b| S3BaselineStore::new(clients.s3.clone(), b, "")),
            channels: Channels { required, optional },
            pipeline,
            clients,
            config,
        })
    }

    /// `s3://bucket/baselines`, as messages name the baseline store.
    pub fn baselines_location(&self) -> String {
        let bucket = self
            .config
            .baselines_bucket
            .as_deref()
            .unwrap_or(&self.config.bucket);
        format!("s3://{bucket}/{BASELINES_PREFIX}")
    }
}
