//! One AWS session of a command: the clients, the pipeline over them (with
//! the progress display), the baseline store the flags select. The check
//! path itself is core's (`realdrift_core::pipeline::check_stacks`).

use crate::deadline::{
    DeadlineChildren, DeadlineKms, DeadlineReader, DeadlineStacks, StackDeadline,
};
use crate::options::{AwsArgs, BaselineArgs};
use crate::progress::Progress;
use anyhow::{anyhow, Context};
use realdrift_aws::{AwsClients, DescribeTypeSchemas, S3BaselineStore};
use realdrift_core::baseline::{BaselineStore, LocalDirStore};
use realdrift_core::pipeline::{gather_selected, GatherRun, Pipeline};
use realdrift_core::schema::{BundledSchemas, SchemaChain, SchemaError, SchemaSource};
use std::collections::BTreeMap;
use std::future::Future;
use std::sync::Arc;

/// The tokio runtime every AWS command runs on (two workers: reads run
/// concurrently while the SDK's connection pool does its work).
pub fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("starting the async runtime")
}

/// An AWS session: clients and the pipeline over them.
pub struct Session {
    /// The client bundle (its counter counts every call of the run).
    pub clients: AwsClients,
    /// The pipeline over the clients.
    pub pipeline: Pipeline,
    /// The progress display wrapped around the pipeline's reads.
    pub progress: Progress,
    /// The profile named with `--profile`.
    pub profile: Option<String>,
}

/// The AWS pipeline (as `AwsClients::pipeline` composes it) with every
/// stack-scoped adapter under the per-stack deadline.
fn bounded_pipeline(
    clients: &AwsClients,
    deadline: Arc<StackDeadline>,
) -> Result<Pipeline, SchemaError> {
    let bundled: Arc<dyn SchemaSource> = Arc::new(BundledSchemas::shared()?);
    let describe = Arc::new(DescribeTypeSchemas::new(clients.clone()));
    let chain = SchemaChain::new().then(bundled).then(describe.clone());
    let a = clients.adapters();
    let stacks = DeadlineStacks {
        inner: Arc::new(a.stacks),
        deadline: deadline.clone(),
    };
    let reader = DeadlineReader {
        inner: Arc::new(a.reader),
        deadline: deadline.clone(),
    };
    let children = DeadlineChildren {
        inner: Arc::new(a.children),
        deadline: deadline.clone(),
    };
    let kms = DeadlineKms {
        inner: Arc::new(a.kms),
        deadline,
    };
    Ok(
        Pipeline::new(Arc::new(stacks), Arc::new(reader), Arc::new(chain))
            .with_children(Arc::new(children))
            .with_kms(Arc::new(kms))
            .with_schema_prefetch(describe)
            .with_counter(clients.counter.clone()),
    )
}

impl Session {
    /// Loads credentials and region as the AWS CLI does and builds the pipeline.
    pub async fn open(aws: &AwsArgs, progress: Progress) -> anyhow::Result<Session> {
        let clients = AwsClients::load(&aws.aws_options()).await?;
        Session::over(clients, aws, progress)
    }

    /// The pipeline over clients already built (an assumed role's).
    pub fn over(clients: AwsClients, aws: &AwsArgs, progress: Progress) -> anyhow::Result<Session> {
        let pipeline = bounded_pipeline(&clients, StackDeadline::new(aws.stack_budget()))
            .context("loading the bundled registry schemas")?
            .with_concurrency(aws.concurrency)
            .map_reader(|r| progress.wrap(r));
        Ok(Session {
            clients,
            pipeline,
            progress,
            profile: aws.profile.clone(),
        })
    }

    /// The line naming what was checked: account(s) of the stacks, region,
    /// and the profile when one was named (never the wrong account unknowingly).
    pub fn target_line(&self, accounts: &[String]) -> String {
        let accounts = if accounts.is_empty() {
            "none (no stack was read)".to_string()
        } else {
            accounts.join(", ")
        };
        let mut line = format!(
            "account {accounts}, region {}",
            self.clients.region.as_deref().unwrap_or("unknown")
        );
        if let Some(p) = &self.profile {
            line.push_str(&format!(", profile {p}"));
        }
        line
    }

    /// Discovers and gathers the selected stacks (core's
    /// `gather_selected`), then clears the progress display.
    pub async fn gather(&self, selectors: &[String]) -> anyhow::Result<GatherRun> {
        let run = gather_selected(&self.pipeline, selectors).await;
        self.progress.finish();
        Ok(run?)
    }

    /// Every AWS call so far, by `service:Operation`.
    pub fn calls(&self) -> BTreeMap<String, u64> {
        self.clients.counter.snapshot()
    }

    /// The baseline store the flags select.
    pub fn baseline_store(&self, args: &BaselineArgs) -> anyhow::Result<Box<dyn BaselineStore>> {
        baseline_store(&self.clients, args)
    }
}

/// The baseline store the flags select, read with these clients.
pub fn baseline_store(
    clients: &AwsClients,
    args: &BaselineArgs,
) -> anyhow::Result<Box<dyn BaselineStore>> {
    match &args.baseline_s3 {
        Some(url) => S3BaselineStore::from_url(clients, url)
            .map(|s| Box::new(s) as Box<dyn BaselineStore>)
            .ok_or_else(|| anyhow!("--baseline-s3 {url}: expected s3://bucket/prefix")),
        None => Ok(Box::new(LocalDirStore::new(&args.baseline_dir))),
    }
}

/// Runs a future on a fresh runtime.
pub fn block_on<T>(fut: impl Future<Output = anyhow::Result<T>>) -> anyhow::Result<T> {
    runtime()?.block_on(fut)
}

/// Human form of call counts: `34 AWS calls: cloudcontrol:GetResource 9, ...`.
pub fn calls_line(calls: &BTreeMap<String, u64>) -> String {
    let total: u64 = calls.values().sum();
    let mut by_count: Vec<(&String, &u64)> = calls.iter().collect();
    by_count.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    let parts: Vec<String> = by_count.iter().map(|(k, v)| format!("{k} {v}")).collect();
    if parts.is_empty() {
        "AWS calls: 0".to_string()
    } else {
        format!("AWS calls: {total} ({})", parts.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calls_are_listed_most_frequent_first() {
        let mut c = BTreeMap::new();
        c.insert("s3:GetBucketPolicy".to_string(), 1);
        c.insert("cloudcontrol:GetResource".to_string(), 7);
        c.insert("cloudformation:GetTemplate".to_string(), 1);
        assert_eq!(
            calls_line(&c),
            "AWS calls: 9 (cloudcontrol:GetResource 7, cloudformation:GetTemplate 1, s3:GetBucketPolicy 1)"
        );
        assert_eq!(calls_line(&BTreeMap::new()), "AWS calls: 0");
    }
}
