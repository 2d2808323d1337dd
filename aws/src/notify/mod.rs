//! Notification channels: SNS (the documented JSON document with a
//! readable subject), EventBridge (the same document on an Organization
//! hub's findings bus), Security Hub (ASFF findings) and Slack (an incoming webhook whose URL is the value
//! of a Secrets Manager secret, read once per container).

mod eventbridge;
mod secret;
mod securityhub;
mod slack;
mod sns;

pub use eventbridge::{bus_region, EventBusNotifier, TRANSITION_DETAIL_TYPE, TRANSITION_SOURCE};
pub use secret::{secrets_client, SecretWebhookUrl, WebhookUrlSource};
pub use securityhub::{SecurityHubNotifier, MAX_FINDINGS_PER_IMPORT};
pub use slack::{Clock, RetryPolicy, SlackWebhook, TokioClock};
pub use sns::SnsNotifier;
