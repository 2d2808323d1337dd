//! What the handler works with: the pipeline, the stores, the channels and
//! the event screener, as traits so tests can hand in memory versions.

use crate::lookup::{Lookups, DEFAULT_LOOKUP_TTL_SECONDS, MAX_NESTING};
use globset::{Glob, GlobSet, GlobSetBuilder};
use realdrift_aws::SqsFlushQueue;
use realdrift_core::baseline::BaselineStore;
use realdrift_core::events::{Catalog, FilterConfig, Screener};
use realdrift_core::pipeline::Pipeline;
use realdrift_core::watch::{
    Channels, FlushQueue, StormPolicy, DEFAULT_FLAP_WINDOW_MS, DEFAULT_LOST_AFTER,
};
use realdrift_lambda::Services;
use std::sync::Arc;

/// `REALDRIFT_REVERT_ROLE_ARN`: the revert function's role, whose own
/// writes are not drift.
pub const REVERT_ROLE_VAR: &str = "REALDRIFT_REVERT_ROLE_ARN";

/// The on-change function's working set.
pub struct Watcher {
    /// The check pipeline.
    pub pipeline: Pipeline,
    /// Baselines and `ignore.yaml`.
    pub baselines: Arc<dyn BaselineStore>,
    /// How the baseline store is named in messages.
    pub baselines_location: String,
    /// The bucket root: `state/` and `index/`.
    pub bucket: Arc<dyn BaselineStore>,
    /// Alert channels.
    pub channels: Channels,
    /// Drops what is not a change to watch, maps the rest to resources.
    pub screener: Screener<'static>,
    /// The function's account, when known (the topic ARN's).
    pub account: Option<String>,
    /// The function's region: stacks and indexes of this region only.
    pub region: String,
    /// Stacks in scope (`REALDRIFT_STACKS`; empty = every stack the index
    /// names); a nested stack is in scope when its root stack is.
    pub stacks: GlobSet,
    /// Consecutive failed reads before coverage is announced lost.
    pub lost_after: u32,
    /// The suppression window of flapping values, in milliseconds (0: off).
    pub flap_window_ms: u64,
    /// The storm knobs.
    pub storm: StormPolicy,
    /// Where the delayed flush of a held storm goes (the change queue);
    /// `None`: held storms wait for the next check of the stack (the scan).
    pub flushes: Option<Arc<dyn FlushQueue>>,
    /// Owner lookups and root stacks remembered by this container.
    pub lookups: Lookups,
}

/// The account of an ARN (`arn:partition:service:region:account:...`).
pub fn arn_account(arn: &str) -> Option<String> {
    let mut parts = arn.split(':');
    match (parts.next(), parts.nth(3)) {
        (Some("arn"), Some(a)) if !a.is_empty() => Some(a.to_string()),
        _ => None,
    }
}

/// The stack-name globs as a set.
pub fn stack_globs(globs: &[String]) -> anyhow::Result<GlobSet> {
    let mut b = GlobSetBuilder::new();
    for g in globs {
        b.add(Glob::new(g).map_err(|e| anyhow::anyhow!("REALDRIFT_STACKS: {g:?}: {e}"))?);
    }
    Ok(b.build()?)
}

impl Watcher {
    /// The working set over the SDK-built services; `revert_role` is
    /// `REALDRIFT_REVERT_ROLE_ARN` (unset: no role's writes are exempt).
    pub fn from_services(s: Services, revert_role: Option<&str>) -> anyhow::Result<Self> {
        let catalog = Catalog::bundled()?;
        let region = s.clients.region.clone().unwrap_or_default();
        let account = arn_account(&s.config.topic_arn);
        let filter = filter_config(catalog, account.as_deref(), &region, revert_role)?;
        Ok(Watcher {
            baselines_location: s.baselines_location(),
            baselines: Arc::new(s.baselines),
            bucket: Arc::new(s.bucket),
            channels: s.channels,
            screener: Screener::new(catalog, filter),
            stacks: stack_globs(&s.config.stacks)?,
            lost_after: s.config.coverage_lost_after.unwrap_or(DEFAULT_LOST_AFTER),
            flap_window_ms: s
                .config
                .flap_window_seconds
                .map_or(DEFAULT_FLAP_WINDOW_MS, |s| s * 1000),
            storm: StormPolicy::configured(s.config.storm_window_seconds, s.config.storm_threshold),
            flushes: s.config.change_queue_url.as_deref().map(|url| {
                Arc::new(SqsFlushQueue::new(s.clients.sqs.clone(), url)) as Arc<dyn FlushQueue>
            }),
            lookups: Lookups::new(
                s.config
                    .lookup_cache_seconds
                    .unwrap_or(DEFAULT_LOOKUP_TTL_SECONDS),
            ),
            account,
            region,
            pipeline: s.pipeline,
        })
    }

    /// True when `stack` is in scope by its own name.
    pub fn in_scope(&self, stack: &str) -> bool {
        self.stacks.is_empty() || self.stacks.is_match(stack)
    }

    /// True when `stack`, or the root stack that nests it, is in scope.
    /// `Err` when CloudFormation could not say (the message is retried).
    pub async fn in_scope_by_root(&self, stack: &str) -> Result<bool, String> {
        if self.in_scope(stack) {
            return Ok(true);
        }
        if let Some(root) = self.lookups.root_of(stack) {
            return Ok(self.in_scope(&root));
        }
        let source = self.pipeline.stack_source();
        let mut current = source
            .describe_stack(stack)
            .await
            .map_err(|e| format!("describing {stack}: {e}"))?;
        for _ in 0..MAX_NESTING {
            let Some(parent) = current.parent_id.clone() else {
                break;
            };
            current = source
                .describe_stack(&parent)
                .await
                .map_err(|e| format!("describing {parent}: {e}"))?;
        }
        if current.parent_id.is_some() {
            return Err(format!("{stack}: nested deeper than {MAX_NESTING} stacks"));
        }
        self.lookups.remember_root(stack, &current.name);
        Ok(self.in_scope(&current.name))
    }
}

/// The screener's configuration: this account and region, and the revert role.
pub fn filter_config(
    catalog: &Catalog,
    account: Option<&str>,
    region: &str,
    revert_role: Option<&str>,
) -> anyhow::Result<FilterConfig> {
    let mut f = FilterConfig::new()
        .with_accounts(account)
        .with_regions(Some(region).filter(|r| !r.is_empty()));
    if let Some(arn) = revert_role.map(str::trim).filter(|a| !a.is_empty()) {
        f = f
            .with_revert_role(catalog, arn)
            .map_err(|e| anyhow::anyhow!("{REVERT_ROLE_VAR}: {e}"))?;
    }
    Ok(f)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_account_comes_from_the_topic_arn() {
        assert_eq!(
            arn_account("arn:aws:sns:eu-west-1:111122223333:alerts").as_deref(),
            Some("111122223333")
        );
        assert_eq!(arn_account("alerts"), None);
    }
}
