//! One AWS session of a command: clients, pipeline, discovery and gathering.
//!
//! Stages after gathering (baseline, ignore, report) are pure and live in
//! `stages`; this module is the only place the CLI waits on AWS.

use crate::options::{AwsArgs, BaselineArgs};
use crate::progress::Progress;
use anyhow::{anyhow, Context};
use realdrift_aws::{AwsClients, S3BaselineStore};
use realdrift_core::baseline::{BaselineStore, LocalDirStore};
use realdrift_core::pipeline::{discover_stacks, Pipeline, PipelineError, StackReport};
use std::collections::BTreeMap;
use std::future::Future;

/// The tokio runtime every AWS command runs on (two workers: reads run
/// concurrently while the SDK's connection pool does its work).
pub fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("starting the async runtime")
}

/// One stack's gather result: the report, or why the stack could not be read.
#[derive(Debug)]
pub struct Gathered {
    /// The stack name (as selected, or as reported).
    pub stack: String,
    /// The report or the error text (which names the stack).
    pub result: Result<StackReport, String>,
}

/// What a command gathered, plus discovery remarks.
#[derive(Debug, Default)]
pub struct Run {
    /// One entry per stack, nested stacks after their parents.
    pub stacks: Vec<Gathered>,
    /// Discovery remarks (stacks skipped for their state).
    pub notes: Vec<String>,
}

/// An AWS session: clients and the pipeline over them.
pub struct Session {
    /// The client bundle (its counter counts every call of the run).
    pub clients: AwsClients,
    pipeline: Pipeline,
    progress: Progress,
}

impl Session {
    /// Loads credentials and region as the AWS CLI does and builds the pipeline.
    pub async fn open(aws: &AwsArgs, progress: Progress) -> anyhow::Result<Session> {
        let clients = AwsClients::load(&aws.aws_options()).await?;
        let pipeline = clients
            .pipeline()
            .context("loading the bundled registry schemas")?
            .with_concurrency(aws.concurrency)
            .map_reader(|r| progress.wrap(r));
        Ok(Session {
            clients,
            pipeline,
            progress,
        })
    }

    /// Discovers the selected stacks and gathers each one. An explicitly
    /// named stack that does not exist is an error entry; other stacks go on.
    pub async fn gather(&self, selectors: &[String]) -> anyhow::Result<Run> {
        let found = discover_stacks(self.pipeline.stack_source().as_ref(), selectors)
            .await
            .context("discovering stacks")?;
        let mut run = Run::default();
        for note in found.notes {
            if let Some(name) = missing_stack(&note, selectors) {
                run.stacks.push(Gathered {
                    stack: name.to_string(),
                    result: Err(format!(
                        "stack {name}: not found in this account and region"
                    )),
                });
            } else {
                run.notes.push(note);
            }
        }
        let results = self.pipeline.gather_many(&found.stacks).await;
        self.progress.finish();
        for r in results {
            run.stacks.push(match r {
                Ok(report) => Gathered {
                    stack: report.stack.clone(),
                    result: Ok(report),
                },
                Err(e) => Gathered {
                    stack: error_stack(&e).to_string(),
                    result: Err(e.to_string()),
                },
            });
        }
        Ok(run)
    }

    /// Every AWS call so far, by `service:Operation`.
    pub fn calls(&self) -> BTreeMap<String, u64> {
        self.clients.counter.snapshot()
    }

    /// The baseline store the flags select.
    pub fn baseline_store(&self, args: &BaselineArgs) -> anyhow::Result<Box<dyn BaselineStore>> {
        match &args.baseline_s3 {
            Some(url) => S3BaselineStore::from_url(&self.clients, url)
                .map(|s| Box::new(s) as Box<dyn BaselineStore>)
                .ok_or_else(|| anyhow!("--baseline-s3 {url}: expected s3://bucket/prefix")),
            None => Ok(Box::new(LocalDirStore::new(&args.baseline_dir))),
        }
    }
}

/// The stack name of a discovery "not found" note for an exact selector.
fn missing_stack<'a>(note: &str, selectors: &'a [String]) -> Option<&'a str> {
    selectors
        .iter()
        .find(|s| note == format!("stack {s} not found"))
        .map(String::as_str)
}

/// The stack a pipeline error is about.
fn error_stack(e: &PipelineError) -> &str {
    match e {
        PipelineError::Source { stack, .. } | PipelineError::Template { stack, .. } => stack,
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
    fn missing_stack_matches_only_exact_selectors() {
        let sel = vec!["App".to_string(), "Dev*".to_string()];
        assert_eq!(missing_stack("stack App not found", &sel), Some("App"));
        assert_eq!(missing_stack("skipped stack App: status X", &sel), None);
        assert_eq!(missing_stack("stack Other not found", &sel), None);
    }

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
