//! A batch's SQS messages -> the API calls to act on: each body is parsed
//! as an EventBridge CloudTrail event and screened (read-only, failed,
//! CloudFormation's and the revert role's calls, other accounts and
//! regions are dropped, each counted by reason). A storm flush message
//! (see `realdrift_core::watch::FlushMessage`) is recognized first and
//! carried as its stack.

use aws_lambda_events::event::sqs::SqsMessage;
use realdrift_core::events::{parse_event, Accepted, DropReason, Screener, Verdict};
use realdrift_core::watch::FlushMessage;
use std::collections::BTreeMap;

/// One accepted call and the message that carried it.
#[derive(Debug, Clone)]
pub struct Carried {
    /// The SQS message id (reported back when its stack fails).
    pub message_id: Option<String>,
    /// The call.
    pub accepted: Accepted,
}

/// What screening a batch gave.
#[derive(Debug, Default)]
pub struct Screened {
    /// The calls to act on, in message order.
    pub accepted: Vec<Carried>,
    /// Dropped calls by reason.
    pub dropped: BTreeMap<DropReason, u64>,
    /// Bodies that are not CloudTrail events (dropped: a retry cannot fix them).
    pub malformed: u64,
    /// Storm flush messages: the stack and the message that carried it.
    pub flushes: Vec<(Option<String>, String)>,
}

/// Screens every message of a batch.
pub fn screen(screener: &Screener<'_>, records: &[SqsMessage]) -> Screened {
    let mut out = Screened::default();
    for m in records {
        let body = m.body.as_deref().unwrap_or_default();
        match FlushMessage::recognize(body) {
            Some(Ok(f)) => {
                out.flushes.push((m.message_id.clone(), f.stack));
                continue;
            }
            Some(Err(e)) => {
                tracing::error!(message_id = ?m.message_id, error = %e, "flush message dropped: malformed");
                out.malformed += 1;
                continue;
            }
            None => {}
        }
        let event = match parse_event(body.as_bytes()) {
            Ok(e) => e,
            Err(e) => {
                tracing::error!(message_id = ?m.message_id, error = %e, "event dropped: not a CloudTrail event");
                out.malformed += 1;
                continue;
            }
        };
        let event_id = event.record.event_id.as_deref().unwrap_or_default();
        match screener.assess(&event) {
            Verdict::Accept(a) => out.accepted.push(Carried {
                message_id: m.message_id.clone(),
                accepted: *a,
            }),
            Verdict::Drop(reason) => {
                tracing::debug!(eventId = %event_id, eventName = %event.record.name(), reason = reason.as_str(), "event dropped");
                *out.dropped.entry(reason).or_default() += 1;
            }
        }
    }
    out
}
