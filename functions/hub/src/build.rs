//! What the hub function needs, built once per container: the topic, the
//! Slack webhook (when a secret is configured), the account names (the
//! operator's map over Organizations DescribeAccount) and the hub bucket.

use crate::names::{account_names, ACCOUNT_NAMES_VAR};
use realdrift_aws::notify::{
    secrets_client, RetryPolicy, SecretWebhookUrl, SlackWebhook, SnsNotifier,
};
use realdrift_aws::{
    load_sdk_config, AwsClients, AwsOptions, CallCounter, OrganizationsDirectory, S3BaselineStore,
};
use realdrift_core::hub::{AccountNames, HubChannels};
use realdrift_core::notify::Notifier;
use realdrift_lambda::Config;
use std::sync::Arc;

/// The hub's channels, names and bucket.
pub struct Hub {
    /// The topic and Slack.
    pub channels: HubChannels,
    /// Account names, cached for the container's life.
    pub names: AccountNames,
    /// The hub bucket (`org/` status documents, the summary page).
    pub bucket: S3BaselineStore,
    /// Its name, for the summary's link.
    pub bucket_name: String,
}

impl Hub {
    /// Builds everything from `config`, `REALDRIFT_ACCOUNT_NAMES` and the SDK's environment.
    pub async fn build(config: Config) -> anyhow::Result<Hub> {
        let overrides = account_names(std::env::var(ACCOUNT_NAMES_VAR).ok().as_deref())?;
        let sdk = load_sdk_config(&AwsOptions::default(), None).await?;
        let clients = AwsClients::from_sdk_config(&sdk, None, CallCounter::new());
        let directory = OrganizationsDirectory::new(aws_sdk_organizations::Client::new(&sdk));
        let topic: Arc<dyn Notifier> =
            Arc::new(SnsNotifier::new(clients.sns.clone(), &config.topic_arn));
        let slack: Option<Arc<dyn Notifier>> = match &config.slack_secret_id {
            Some(id) => {
                let url = SecretWebhookUrl::new(secrets_client(&clients).await, id);
                Some(Arc::new(SlackWebhook::new(
                    Arc::new(url),
                    RetryPolicy::default(),
                )?))
            }
            None => None,
        };
        Ok(Hub {
            channels: HubChannels { topic, slack },
            names: AccountNames::new(overrides, Some(Arc::new(directory))),
            bucket: S3BaselineStore::new(clients.s3.clone(), &config.bucket, ""),
            bucket_name: config.bucket,
        })
    }
}
