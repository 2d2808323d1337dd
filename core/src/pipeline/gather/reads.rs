//! Live reads (stages 2 to 4): every planned resource read at bounded
//! concurrency, a second resolve pass with the live attributes (so
//! `Fn::GetAtt` compares against real values), and one re-read of the
//! readers that were waiting for a target only the second pass resolved.

use super::super::live::{ReadOutcome, ReadRequest};
use super::super::stack::StackDescription;
use super::desired::{Desired, Planned};
use super::Pipeline;
use crate::template::{resolve_resource, ResolverContext};
use futures_util::future::{BoxFuture, FutureExt};
use futures_util::stream::{self, StreamExt};
use std::collections::BTreeMap;

/// Read outcomes by index into the plan (resources with a fixed outcome are absent).
pub(super) type Reads = BTreeMap<usize, ReadOutcome>;

impl Pipeline {
    /// Reads the plan, resolves again with live attributes, and re-reads
    /// what waited for a target. Updates `plan` and `rctx` in place.
    pub(super) async fn read_live(
        &self,
        d: &Desired,
        plan: &mut [Planned],
        rctx: &mut ResolverContext,
    ) -> Reads {
        let first: Vec<(usize, ReadRequest)> = plan
            .iter()
            .enumerate()
            .filter(|(_, p)| p.fixed.is_none())
            .map(|(i, p)| (i, request(p, &d.desc)))
            .collect();
        let mut reads = self.read_all(first).await;
        add_live_attrs(rctx, plan, &reads);
        resolve_again(d, plan, rctx);
        self.reread_waiting(d, plan, rctx, &mut reads).await;
        reads
    }

    /// Re-reads once every resource whose read target was unresolved.
    async fn reread_waiting(
        &self,
        d: &Desired,
        plan: &[Planned],
        rctx: &mut ResolverContext,
        reads: &mut Reads,
    ) {
        let retry: Vec<(usize, ReadRequest)> = reads
            .iter()
            .filter(|(_, o)| matches!(o, ReadOutcome::TargetUnresolved { .. }))
            .map(|(i, _)| (*i, request(&plan[*i], &d.desc)))
            .collect();
        if retry.is_empty() {
            return;
        }
        let reread = self.read_all(retry).await;
        add_live_attrs(rctx, plan, &reread);
        reads.extend(reread);
    }

    /// Reads every request, at most `concurrency` at once.
    async fn read_all(&self, reqs: Vec<(usize, ReadRequest)>) -> Reads {
        let reads: Vec<BoxFuture<'_, (usize, ReadOutcome)>> = reqs
            .into_iter()
            .map(|(i, req)| {
                let reader = self.reader.clone();
                async move { (i, reader.read(&req).await) }.boxed()
            })
            .collect();
        stream::iter(reads)
            .buffer_unordered(self.concurrency)
            .collect()
            .await
    }
}

/// Makes the live properties of every found resource available to `Fn::GetAtt`.
fn add_live_attrs(rctx: &mut ResolverContext, plan: &[Planned], reads: &Reads) {
    for (i, outcome) in reads {
        if let ReadOutcome::Found(m) = outcome {
            rctx.live_attrs
                .insert(plan[*i].logical_id.clone(), m.properties.clone());
        }
    }
}

/// The second resolve pass. A resource whose properties no longer resolve
/// is marked so (reported `unresolved`, never silently left at its first
/// pass); one that resolves now is cleared.
fn resolve_again(d: &Desired, plan: &mut [Planned], rctx: &ResolverContext) {
    for p in plan.iter_mut() {
        match resolve_resource(&d.template, &p.logical_id, rctx) {
            Ok(r) => {
                p.resolved = r;
                p.unresolvable = None;
            }
            Err(e) => p.unresolvable = Some(e.to_string()),
        }
    }
}

/// The read request for a planned resource.
fn request(p: &Planned, desc: &StackDescription) -> ReadRequest {
    ReadRequest {
        logical_id: p.logical_id.clone(),
        resource_type: p.resource_type.clone(),
        physical_id: p.physical_id.clone().unwrap_or_default(),
        declared: p.resolved.properties.clone(),
        account_id: desc.account_id(),
        region: desc.region(),
        partition: desc.partition(),
    }
}
