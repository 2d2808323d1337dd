//! What the handlers work with: the pipeline, the stores, the channels and
//! the work queue, as traits so tests can hand in memory versions.

use realdrift_aws::SqsWorkQueue;
use realdrift_core::baseline::BaselineStore;
use realdrift_core::events::Catalog;
use realdrift_core::pipeline::Pipeline;
use realdrift_core::watch::{
    Channels, StormPolicy, WorkQueue, DEFAULT_FLAP_WINDOW_MS, DEFAULT_LOST_AFTER,
};
use realdrift_lambda::Services;
use std::sync::Arc;

/// The scan function's working set.
pub struct Scanner {
    /// The check pipeline.
    pub pipeline: Pipeline,
    /// Baselines and `ignore.yaml`.
    pub baselines: Arc<dyn BaselineStore>,
    /// How the baseline store is named in messages.
    pub baselines_location: String,
    /// The bucket root: `state/` and `index/`.
    pub bucket: Arc<dyn BaselineStore>,
    /// An Organization member's hub bucket: each checked stack's status
    /// document is written there (`org/<account>/<region>/<stack>.json`).
    pub hub: Option<Arc<dyn BaselineStore>>,
    /// Alert channels.
    pub channels: Channels,
    /// The work queue (dispatch only).
    pub queue: Option<Arc<dyn WorkQueue>>,
    /// Stack-name globs in scope (empty: every CDK stack).
    pub stacks: Vec<String>,
    /// The function's region.
    pub region: String,
    /// The identifier forms the resource index is built with.
    pub catalog: &'static Catalog,
    /// Consecutive failed reads before coverage is announced lost.
    pub lost_after: u32,
    /// The suppression window of flapping values, in milliseconds (0: off).
    pub flap_window_ms: u64,
    /// The storm knobs: a scan joins and closes storms, never opens one.
    pub storm: StormPolicy,
    /// How long an in-flight marker holds a queued stack back (the work
    /// queue's visibility timeout); `None`: no markers.
    pub inflight_ttl_ms: Option<u64>,
}

impl Scanner {
    /// The working set over the SDK-built services.
    pub fn from_services(s: Services) -> anyhow::Result<Self> {
        let queue: Option<Arc<dyn WorkQueue>> = s.config.scan_queue_url.as_deref().map(|url| {
            Arc::new(SqsWorkQueue::new(s.clients.sqs.clone(), url)) as Arc<dyn WorkQueue>
        });
        Ok(Scanner {
            baselines_location: s.baselines_location(),
            region: s.clients.region.clone().unwrap_or_default(),
            baselines: Arc::new(s.baselines),
            bucket: Arc::new(s.bucket),
            hub: s.hub.map(|h| Arc::new(h) as Arc<dyn BaselineStore>),
            channels: s.channels,
            queue,
            stacks: s.config.stacks,
            lost_after: s.config.coverage_lost_after.unwrap_or(DEFAULT_LOST_AFTER),
            inflight_ttl_ms: s.config.scan_visibility_seconds.map(|v| v * 1000),
            flap_window_ms: s
                .config
                .flap_window_seconds
                .map_or(DEFAULT_FLAP_WINDOW_MS, |s| s * 1000),
            storm: StormPolicy::configured(s.config.storm_window_seconds, s.config.storm_threshold),
            pipeline: s.pipeline,
            catalog: Catalog::bundled()?,
        })
    }
}
