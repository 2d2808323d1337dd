//! Apply-time grouping: one resource's items become one call set per writer
//! — one Cloud Control patch (items' operations merged, identical ones once,
//! plus the re-sent write-only properties), one delete, or one list of
//! service calls — while the items stay individually selectable in the plan.

use super::model::{Operation, ResourceIdentity, RevertPlan, ServiceOp, Writer};
use super::reinclude::reinclusion_op;
use json_patch::{Patch, PatchOperation};

/// The calls that apply a group of items.
#[derive(Debug, Clone, PartialEq)]
pub enum BatchAction {
    /// One Cloud Control UpdateResource with this patch.
    Patch(Patch),
    /// One Cloud Control DeleteResource.
    Delete,
    /// Service writer calls, in order.
    Service(Vec<ServiceOp>),
}

/// One resource's items for one writer.
#[derive(Debug, Clone, PartialEq)]
pub struct Batch {
    /// The resource.
    pub resource: ResourceIdentity,
    /// The writer.
    pub writer: Writer,
    /// The items applied together.
    pub item_ids: Vec<String>,
    /// What to call.
    pub action: BatchAction,
}

impl RevertPlan {
    /// The plan's items grouped per resource and writer, in plan order.
    pub fn batches(&self) -> Vec<Batch> {
        let mut out: Vec<Batch> = Vec::new();
        for item in &self.items {
            let delete = matches!(item.operation, Operation::CloudControlDelete);
            let pos = out.iter().position(|b| {
                b.resource.logical_id == item.resource.logical_id
                    && b.writer == item.writer
                    && (b.action == BatchAction::Delete) == delete
            });
            let b = match pos {
                Some(p) => &mut out[p],
                None => {
                    out.push(Batch {
                        resource: item.resource.clone(),
                        writer: item.writer,
                        item_ids: Vec::new(),
                        action: match &item.operation {
                            Operation::CloudControlPatch { .. } => {
                                BatchAction::Patch(Patch(Vec::new()))
                            }
                            Operation::CloudControlDelete => BatchAction::Delete,
                            Operation::Service { .. } => BatchAction::Service(Vec::new()),
                        },
                    });
                    let last = out.len() - 1;
                    &mut out[last]
                }
            };
            b.item_ids.push(item.id.clone());
            match (&mut b.action, &item.operation) {
                (BatchAction::Patch(p), Operation::CloudControlPatch { patch }) => {
                    push_unique(&mut p.0, patch.iter().cloned());
                }
                (BatchAction::Service(calls), Operation::Service { ops }) => {
                    push_unique(calls, ops.iter().cloned());
                }
                _ => {}
            }
        }
        for b in &mut out {
            if let BatchAction::Patch(p) = &mut b.action {
                let extra: Vec<PatchOperation> = self
                    .reincluded
                    .iter()
                    .filter(|r| r.logical_id == b.resource.logical_id)
                    .map(reinclusion_op)
                    .collect();
                push_unique(&mut p.0, extra);
            }
        }
        out
    }
}

fn push_unique<T: PartialEq>(into: &mut Vec<T>, new: impl IntoIterator<Item = T>) {
    for x in new {
        if !into.contains(&x) {
            into.push(x);
        }
    }
}
