//! An Organization hub's own work (the `realdrift-hub` function): delivering
//! members' transitions from the findings bus to the hub's topic and Slack
//! with each account's name, and the scheduled summary of the Organization
//! view. AWS stays behind traits (names, notifiers, the bucket store).

mod deliver;
mod names;
mod summary;

pub use deliver::{
    deliver, post_batch_to_slack, post_to_slack, publish, Delivered, DeliveryError, HubChannels,
    Published,
};
pub use names::{AccountDirectory, AccountNames, FAILED_LOOKUP_TTL_MS};
pub use summary::{summarize, summary_notice, Summary, SUMMARY_KEY};
