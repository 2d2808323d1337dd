//! The scan function's handlers, callable directly in tests with in-memory
//! sources, stores, notifiers and queue.
//!
//! One entry point, [`handle`], routes by the event's shape: an EventBridge
//! scheduled event dispatches, an SQS event scans its messages (reporting
//! partial batch failures), `{"stacks": [...]}` scans and returns findings.

mod deadline;
mod dispatch;
mod invoke;
mod scanner;
mod stack;
mod worker;

pub use deadline::Invocation;
pub use dispatch::dispatch;
pub use invoke::{invoke, DirectInvoke};
pub use scanner::Scanner;
pub use stack::{scan_stack, StackOutcome};
pub use worker::work;

use anyhow::{bail, Context as _};
use serde_json::Value;

/// Routes one invocation by the event's shape.
pub async fn handle(scanner: &Scanner, event: Value, inv: &Invocation) -> anyhow::Result<Value> {
    if event.get("Records").is_some() {
        let sqs = serde_json::from_value(event).context("SQS event")?;
        let response = work(scanner, sqs, inv).await;
        return Ok(serde_json::to_value(response)?);
    }
    if event.get("detail-type").is_some()
        || event.get("source").and_then(Value::as_str) == Some("aws.events")
    {
        return dispatch(scanner).await;
    }
    if event.get("stacks").is_some() {
        let req: DirectInvoke = serde_json::from_value(event)
            .context("direct invoke: expected {\"stacks\": [\"name or glob\", ...]}")?;
        return invoke(scanner, &req, inv).await;
    }
    bail!("unrecognised event: expected an EventBridge scheduled event, an SQS event or {{\"stacks\": [...]}}")
}
