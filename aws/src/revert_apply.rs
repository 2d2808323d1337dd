//! Applying a revert plan against AWS: the SDK writers, the same live
//! reader and child enumerators the check used for the re-read, and tokio's
//! clock for the pause before a second re-read.

use crate::children::AwsChildEnumerator;
use crate::clients::AwsClients;
use crate::live_reader::AwsLiveReader;
use crate::writers::{AwsRevertWriter, RetryPolicy};
use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use realdrift_core::revert::{
    apply_and_verify, ApplySettings, Checked, Pause, Rereader, RevertIo, RevertOutcome, RevertPlan,
};
use std::time::Duration;

/// Waits on tokio's clock.
#[derive(Debug, Clone, Copy, Default)]
pub struct TokioPause;

impl Pause for TokioPause {
    fn pause(&self, d: Duration) -> BoxFuture<'_, ()> {
        tokio::time::sleep(d).boxed()
    }
}

/// Applies `plan` (built from `checked`) and verifies every item.
pub async fn apply_revert(
    clients: &AwsClients,
    plan: &RevertPlan,
    checked: Checked<'_>,
    policy: RetryPolicy,
    settings: ApplySettings,
) -> RevertOutcome {
    let writer = AwsRevertWriter::new(clients.clone(), policy).for_stack(checked.gathered);
    let reader = AwsLiveReader::new(clients.clone());
    let children = AwsChildEnumerator::new(clients.clone());
    let io = RevertIo {
        writer: &writer,
        reread: Rereader {
            reader: &reader,
            children: Some(&children),
        },
        pause: &TokioPause,
    };
    apply_and_verify(plan, checked, io, settings).await
}
