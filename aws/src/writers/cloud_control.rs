//! Cloud Control writes: UpdateResource with the batch's RFC 6902 patch, or
//! DeleteResource for an out-of-band resource, each followed by polling
//! GetResourceRequestStatus (backoff, up to the deadline) until the request
//! settles. Every request carries a client token derived from the plan, so
//! a request AWS already accepted is never made twice; a new request (and
//! token) is made only after the previous one settled as failed.

use super::retry::{before_deadline, with_retry, AttemptError, RetryPolicy};
use super::WriteCall;
use crate::errors::describe;
use aws_sdk_cloudcontrol::types::{OperationStatus, ProgressEvent};
use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use realdrift_core::revert::{BatchAction, WriteOutcome};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

/// Applies a Cloud Control batch (a patch or a delete).
pub fn write<'a>(call: WriteCall<'a>) -> BoxFuture<'a, WriteOutcome> {
    async move {
        let delete = match &call.batch.action {
            BatchAction::Patch(_) => false,
            BatchAction::Delete => true,
            BatchAction::Service(_) => {
                return WriteOutcome::failed(
                    0,
                    realdrift_core::revert::WriteError {
                        code: None,
                        message: "service calls handed to the Cloud Control writer".into(),
                        transient: false,
                    },
                )
            }
        };
        // Requests made that settled as failed: the next one needs a new token.
        let settled = AtomicU32::new(0);
        let started = Instant::now();
        let (attempts, error) = with_retry(call.policy, |_| {
            let token = request_token(call.token, settled.load(Ordering::SeqCst));
            let settled = &settled;
            async move {
                let event = if delete {
                    delete_request(&call, &token).await?
                } else {
                    update_request(&call, &token).await?
                };
                match settle(&call, event, started, settled).await {
                    // Deleting what is already gone reaches the goal.
                    Err(e) if delete && e.code.as_deref() == Some("NotFound") => Ok(()),
                    r => r,
                }
            }
            .boxed()
        })
        .await;
        match error {
            None => WriteOutcome::ok(attempts),
            Some(e) => WriteOutcome::failed(attempts, e),
        }
    }
    .boxed()
}

/// The code of a request still in progress when the deadline came.
const POLL_DEADLINE: &str = "RequestStillInProgress";

/// The token of the `n`-th request (0-based) of a batch: the batch token,
/// then the batch token with `-<n>` (Cloud Control allows 128 characters).
fn request_token(base: &str, n: u32) -> String {
    if n == 0 {
        base.to_string()
    } else {
        format!("{}-{n}", &base[..base.len().min(100)])
    }
}

async fn update_request(call: &WriteCall<'_>, token: &str) -> Result<ProgressEvent, AttemptError> {
    let BatchAction::Patch(patch) = &call.batch.action else {
        return Err(AttemptError {
            code: None,
            message: "not a patch".into(),
        });
    };
    let document = serde_json::to_string(patch).map_err(|e| AttemptError {
        code: None,
        message: format!("encoding the patch: {e}"),
    })?;
    let r = &call.batch.resource;
    call.clients
        .cloudcontrol
        .update_resource()
        .type_name(&r.resource_type)
        .identifier(call.identifier)
        .patch_document(document)
        .client_token(token)
        .send()
        .await
        .map_err(|e| api_error("UpdateResource", call, &e))?
        .progress_event
        .ok_or_else(|| no_event("UpdateResource", call))
}

async fn delete_request(call: &WriteCall<'_>, token: &str) -> Result<ProgressEvent, AttemptError> {
    let r = &call.batch.resource;
    call.clients
        .cloudcontrol
        .delete_resource()
        .type_name(&r.resource_type)
        .identifier(call.identifier)
        .client_token(token)
        .send()
        .await
        .map_err(|e| api_error("DeleteResource", call, &e))?
        .progress_event
        .ok_or_else(|| no_event("DeleteResource", call))
}

/// Polls the request until it succeeds or fails, with a growing wait, up to the deadline.
/// A request that settled as failed is counted in `settled`.
async fn settle(
    call: &WriteCall<'_>,
    mut event: ProgressEvent,
    started: Instant,
    settled: &AtomicU32,
) -> Result<(), AttemptError> {
    let mut wait = call.policy.first_poll;
    loop {
        match event.operation_status() {
            Some(OperationStatus::Success) => return Ok(()),
            Some(OperationStatus::Failed) | Some(OperationStatus::CancelComplete) => {
                settled.fetch_add(1, Ordering::SeqCst);
                let code = event.error_code().map(|c| c.as_str().to_string());
                let words = event.status_message().unwrap_or("no status message");
                return Err(AttemptError {
                    message: format!(
                        "Cloud Control {} of {} {} failed: {}{words}",
                        event
                            .operation()
                            .map(|o| o.as_str().to_string())
                            .unwrap_or_default(),
                        call.batch.resource.resource_type,
                        call.identifier,
                        code.as_deref()
                            .map(|c| format!("{c}: "))
                            .unwrap_or_default(),
                    ),
                    code,
                });
            }
            _ => {}
        }
        let Some(token) = event.request_token().map(str::to_string) else {
            return Err(no_event("GetResourceRequestStatus", call));
        };
        if !before_deadline(started, call.policy, wait) {
            return Err(AttemptError {
                code: Some(POLL_DEADLINE.into()),
                message: format!(
                    "Cloud Control request {token} for {} {} was still in progress at the deadline",
                    call.batch.resource.resource_type, call.identifier
                ),
            });
        }
        tokio::time::sleep(wait).await;
        wait = grow(wait, call.policy);
        event = call
            .clients
            .cloudcontrol
            .get_resource_request_status()
            .request_token(&token)
            .send()
            .await
            .map_err(|e| api_error("GetResourceRequestStatus", call, &e))?
            .progress_event
            .ok_or_else(|| no_event("GetResourceRequestStatus", call))?;
    }
}

fn grow(wait: Duration, policy: &RetryPolicy) -> Duration {
    (wait + wait / 2).min(policy.max_poll)
}

fn api_error<E>(
    op: &str,
    call: &WriteCall<'_>,
    e: &aws_smithy_runtime_api::client::result::SdkError<E, aws_smithy_runtime_api::http::Response>,
) -> AttemptError
where
    E: aws_smithy_types::error::metadata::ProvideErrorMetadata + std::error::Error + 'static,
{
    let info = describe(e, &[]);
    AttemptError {
        code: info.code,
        message: format!(
            "cloudcontrol:{op} on {} {}: {}",
            call.batch.resource.resource_type, call.identifier, info.message
        ),
    }
}

fn no_event(op: &str, call: &WriteCall<'_>) -> AttemptError {
    AttemptError {
        code: None,
        message: format!(
            "cloudcontrol:{op} on {} {} answered without a progress event",
            call.batch.resource.resource_type, call.identifier
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_change_only_per_new_request_and_stay_short() {
        let base = "a".repeat(64);
        assert_eq!(request_token(&base, 0), base);
        assert_eq!(request_token(&base, 2), format!("{base}-2"));
        assert!(request_token(&"b".repeat(200), 9).len() <= 128);
    }

    #[test]
    fn polls_grow_by_half_up_to_the_cap() {
        let p = RetryPolicy::default();
        assert_eq!(grow(Duration::from_secs(2), &p), Duration::from_secs(3));
        assert_eq!(grow(Duration::from_secs(9), &p), Duration::from_secs(10));
    }
}
