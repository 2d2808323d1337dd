//! JSON logs: one object per event, fields flattened (`stack`, `resource`,
//! `eventId` ... as the call sites name them), level from `RUST_LOG`.

use tracing_subscriber::EnvFilter;

/// Installs the JSON subscriber (`RUST_LOG`, default `info`). Lambda adds
/// the timestamp and request id of each line itself.
pub fn init_logging() {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    // Fails only when a subscriber is already set (tests): keep that one.
    let _ = tracing_subscriber::fmt()
        .json()
        .flatten_event(true)
        .with_current_span(false)
        .with_span_list(false)
        .with_target(false)
        .without_time()
        .with_env_filter(filter)
        .try_init();
}
