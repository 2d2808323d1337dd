//! Feeds core's [`CallCounter`] from every SDK call, through an interceptor.

use aws_smithy_runtime_api::box_error::BoxError;
use aws_smithy_runtime_api::client::interceptors::context::BeforeSerializationInterceptorContextRef;
use aws_smithy_runtime_api::client::interceptors::Intercept;
use aws_smithy_runtime_api::client::orchestrator::Metadata;
use aws_smithy_runtime_api::client::runtime_components::RuntimeComponents;
use aws_smithy_types::config_bag::ConfigBag;
use realdrift_core::pipeline::CallCounter;

/// An SDK interceptor counting each operation once per call (not per retry
/// attempt), so the figure is "reads we asked for", comparable across runs.
#[derive(Debug, Clone)]
pub struct CountingInterceptor {
    counter: CallCounter,
}

impl CountingInterceptor {
    /// An interceptor recording into `counter` (shared, not copied).
    pub fn new(counter: CallCounter) -> Self {
        CountingInterceptor { counter }
    }
}

impl Intercept for CountingInterceptor {
    fn name(&self) -> &'static str {
        "RealdriftCallCounter"
    }

    // Serialization happens once per call, before the retry loop, and (unlike
    // `read_before_execution`) after the operation's metadata is in the bag.
    fn read_before_serialization(
        &self,
        _context: &BeforeSerializationInterceptorContextRef<'_>,
        _runtime_components: &RuntimeComponents,
        cfg: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        let key = match cfg.load::<Metadata>() {
            Some(m) => format!("{}:{}", m.service().to_ascii_lowercase(), m.name()),
            None => "unknown:unknown".to_string(),
        };
        self.counter.record(&key);
        Ok(())
    }
}
