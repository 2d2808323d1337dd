//! Applying a plan: its batches go to a [`RevertWriter`] (implemented over
//! the AWS SDK in `realdrift-aws`). A resource's batches run one after the
//! other; different resources run concurrently; one resource's failure never
//! stops the others.

use super::batch::{Batch, BatchAction};
use super::model::RevertPlan;
use super::outcome::WriteOutcome;
use crate::baseline::deep_hash;
use futures_util::future::{BoxFuture, FutureExt};
use futures_util::stream::{self, StreamExt};
use serde_json::json;

/// Default number of resources written at once.
pub const DEFAULT_WRITE_CONCURRENCY: usize = 4;

/// Writes one batch (one resource, one writer). Never fails: every error,
/// after the writer's own retries, is in the outcome.
pub trait RevertWriter: Send + Sync {
    /// Applies `batch`. `token` identifies this write of this plan: the same
    /// plan re-applied sends the same token, so a write AWS already accepted
    /// is not made twice.
    fn write<'a>(&'a self, batch: &'a Batch, token: &'a str) -> BoxFuture<'a, WriteOutcome>;
}

/// The idempotency token of a batch within a plan: hex SHA-256 of the plan
/// digest, the resource, the writer and what is written (64 characters,
/// within Cloud Control's ClientToken limits).
pub fn batch_token(digest: &str, batch: &Batch) -> String {
    let action = match &batch.action {
        BatchAction::Patch(p) => json!({"patch": p}),
        BatchAction::Delete => json!("delete"),
        BatchAction::Service(ops) => json!({"service": ops}),
    };
    deep_hash(&json!({
        "digest": digest,
        "logicalId": batch.resource.logical_id,
        "physicalId": batch.resource.physical_id,
        "writer": batch.writer,
        "action": action,
    }))
}

/// Applies every batch of `plan`; returns each batch with its outcome, in
/// plan order.
pub async fn apply_plan(
    plan: &RevertPlan,
    writer: &dyn RevertWriter,
    concurrency: usize,
) -> Vec<(Batch, WriteOutcome)> {
    let mut groups: Vec<Vec<Batch>> = Vec::new();
    for b in plan.batches() {
        match groups
            .iter_mut()
            .find(|g| g[0].resource.logical_id == b.resource.logical_id)
        {
            Some(g) => g.push(b),
            None => groups.push(vec![b]),
        }
    }
    let digest = plan.digest.as_str();
    let runs: Vec<BoxFuture<'_, Vec<(Batch, WriteOutcome)>>> = groups
        .into_iter()
        .map(|group| {
            async move {
                let mut out = Vec::with_capacity(group.len());
                for b in group {
                    let token = batch_token(digest, &b);
                    let outcome = writer.write(&b, &token).await;
                    out.push((b, outcome));
                }
                out
            }
            .boxed()
        })
        .collect();
    stream::iter(runs)
        .buffered(concurrency.max(1))
        .collect::<Vec<_>>()
        .await
        .into_iter()
        .flatten()
        .collect()
}
