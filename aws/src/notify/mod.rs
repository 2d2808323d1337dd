//! Notification channels: SNS (the documented JSON document with a
//! readable subject) and Slack (an incoming webhook whose URL is the value
//! of a Secrets Manager secret, read once per container).

mod secret;
mod slack;
mod sns;

pub use secret::{secrets_client, SecretWebhookUrl, WebhookUrlSource};
pub use slack::{Clock, RetryPolicy, SlackWebhook, TokioClock};
pub use sns::SnsNotifier;
