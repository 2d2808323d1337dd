//! The state built once per container: the pipeline over the AWS clients,
//! the S3 baseline store, the scope, the writer side and the notifier.

use crate::config::Config;
use crate::scope::Scope;
use anyhow::Context;
use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use realdrift_aws::notify::SnsNotifier;
use realdrift_aws::{
    apply_revert, AwsClients, AwsOptions, RetryPolicy, S3BaselineStore, SqsWorkQueue,
};
use realdrift_core::baseline::BaselineStore;
use realdrift_core::notify::Notifier;
use realdrift_core::pipeline::Pipeline;
use realdrift_core::revert::{ApplySettings, Checked, RevertOutcome, RevertPlan};
use realdrift_core::watch::WorkQueue;
use std::time::Duration;

/// Applies a plan and verifies it (the AWS writers, or an in-memory one in tests).
pub trait Applier: Send + Sync {
    /// Applies `plan`, built from `checked`, retrying transient failures for at most `budget`.
    fn apply<'a>(
        &'a self,
        plan: &'a RevertPlan,
        checked: Checked<'a>,
        budget: Duration,
    ) -> BoxFuture<'a, RevertOutcome>;
}

/// Everything a handler call uses.
pub struct State {
    /// The check pipeline.
    pub pipeline: Pipeline,
    /// Baselines and ignore rules.
    pub store: Box<dyn BaselineStore>,
    /// How the store is named in messages.
    pub store_location: String,
    /// Which stacks may be reverted.
    pub scope: Scope,
    /// The region this function reverts in.
    pub region: String,
    /// The writer side.
    pub applier: Box<dyn Applier>,
    /// Where applied reverts are published.
    pub notifier: Box<dyn Notifier>,
    /// The scan work queue an applied revert's stack is queued on for an
    /// immediate re-check (`None`: left to the next scheduled scan).
    pub recheck: Option<Box<dyn WorkQueue>>,
}

/// The AWS writer side over a client bundle.
pub struct AwsApplier {
    clients: AwsClients,
}

impl Applier for AwsApplier {
    fn apply<'a>(
        &'a self,
        plan: &'a RevertPlan,
        checked: Checked<'a>,
        budget: Duration,
    ) -> BoxFuture<'a, RevertOutcome> {
        let policy = RetryPolicy {
            deadline: budget,
            ..RetryPolicy::default()
        };
        apply_revert(
            &self.clients,
            plan,
            checked,
            policy,
            ApplySettings::default(),
        )
        .boxed()
    }
}

impl State {
    /// Builds the clients (region and credentials from the Lambda
    /// environment, endpoints from `AWS_ENDPOINT_URL*` when set) and
    /// everything over them.
    pub async fn from_config(config: &Config) -> anyhow::Result<State> {
        let clients = AwsClients::load(&AwsOptions::default()).await?;
        let pipeline = clients
            .pipeline()
            .context("loading the bundled registry schemas")?;
        // An Organization member reads its baselines from the hub's bucket.
        let bucket = config.baselines_bucket.as_deref().unwrap_or(&config.bucket);
        let store = S3BaselineStore::new(clients.s3.clone(), bucket, "baselines");
        let scope = Scope::parse(&config.stacks).map_err(anyhow::Error::msg)?;
        Ok(State {
            pipeline,
            store: Box::new(store),
            store_location: format!("s3://{bucket}/baselines"),
            scope,
            region: clients.region.clone().unwrap_or_default(),
            notifier: Box::new(SnsNotifier::new(clients.sns.clone(), &config.topic_arn)),
            recheck: config.scan_queue_url.as_deref().map(|url| {
                Box::new(SqsWorkQueue::new(clients.sqs.clone(), url)) as Box<dyn WorkQueue>
            }),
            applier: Box::new(AwsApplier { clients }),
        })
    }
}
