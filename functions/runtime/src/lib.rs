//! What every realdrift Lambda function shares: its configuration from the
//! environment (`infra/` sets it; docs/deploy.md lists it), the AWS clients
//! and adapters built once per container, JSON logs, and CloudWatch
//! Embedded Metric Format lines.

mod config;
mod logging;
mod metrics;
mod services;

pub use config::{Config, ConfigError};
pub use logging::init_logging;
pub use metrics::{set_custom_metrics, Metrics, Unit, NAMESPACE};
pub use services::{Services, ServicesError, BASELINES_PREFIX};
