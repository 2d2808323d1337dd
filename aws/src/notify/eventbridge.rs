//! EventBridge: puts a notice's JSON document on the hub's findings bus as
//! one event (docs/json-output.md, "Findings bus event"), so the
//! Organization's hub delivers it and teams can add their own rules.
//!
//! PutEvents answers 200 even when an entry was refused: the entry's error
//! code is what says so, and a refused entry is a failed delivery.

use crate::errors::describe;
use aws_config::Region;
use aws_sdk_eventbridge::types::PutEventsRequestEntry;
use futures_util::future::{BoxFuture, FutureExt};
use realdrift_core::notify::{Notice, Notifier, NotifyError};

/// The `source` of a transition event.
pub const TRANSITION_SOURCE: &str = "realdrift";
/// The `detail-type` of a transition event.
pub const TRANSITION_DETAIL_TYPE: &str = "realdrift drift transition";

/// Puts notices on one event bus (by ARN: it may be in another account).
#[derive(Debug, Clone)]
pub struct EventBusNotifier {
    client: aws_sdk_eventbridge::Client,
    bus_arn: String,
}

/// The Region of an event bus ARN (`arn:aws:events:REGION:ACCOUNT:event-bus/NAME`).
pub fn bus_region(bus_arn: &str) -> Option<&str> {
    let mut parts = bus_arn.split(':');
    let (arn, _partition, service, region) =
        (parts.next()?, parts.next()?, parts.next()?, parts.next()?);
    let rest = parts.collect::<Vec<_>>().join(":");
    (arn == "arn" && service == "events" && !region.is_empty() && rest.contains(":event-bus/"))
        .then_some(region)
}

impl EventBusNotifier {
    /// A notifier for `bus_arn`, with `client` re-pointed at the bus's
    /// Region (PutEvents goes to the bus's own Region). `None` when the ARN
    /// is not an event bus ARN.
    pub fn new(client: &aws_sdk_eventbridge::Client, bus_arn: &str) -> Option<Self> {
        let region = bus_region(bus_arn)?;
        let conf = client
            .config()
            .to_builder()
            .region(Region::new(region.to_string()))
            .build();
        Some(EventBusNotifier {
            client: aws_sdk_eventbridge::Client::from_conf(conf),
            bus_arn: bus_arn.to_string(),
        })
    }

    async fn put(&self, notice: &Notice) -> Result<(), NotifyError> {
        let err = |m: String| NotifyError::new("eventbridge", m);
        let entry = PutEventsRequestEntry::builder()
            .event_bus_name(&self.bus_arn)
            .source(TRANSITION_SOURCE)
            .detail_type(TRANSITION_DETAIL_TYPE)
            .detail(&notice.document)
            .build();
        let out = self
            .client
            .put_events()
            .entries(entry)
            .send()
            .await
            .map_err(|e| err(format!("events:PutEvents: {}", describe(&e, &[]).message)))?;
        match out.entries().first() {
            Some(e) if e.error_code().is_some() => Err(err(format!(
                "events:PutEvents refused the event: {}: {}",
                e.error_code().unwrap_or_default(),
                e.error_message().unwrap_or_default()
            ))),
            _ if out.failed_entry_count() > 0 => {
                Err(err("events:PutEvents refused the event".into()))
            }
            _ => Ok(()),
        }
    }
}

impl Notifier for EventBusNotifier {
    fn channel(&self) -> &'static str {
        "eventbridge"
    }

    fn send<'a>(&'a self, notice: &'a Notice) -> BoxFuture<'a, Result<(), NotifyError>> {
        self.put(notice).boxed()
    }
}
