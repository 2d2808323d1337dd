//! Write-only re-inclusion: Cloud Control applies a patch read-modify-write,
//! and a read handler cannot return write-only properties, so a patch would
//! drop them. Every declared write-only top-level property a resource's
//! patch does not touch is re-sent with its declared value — except those the
//! data says the handler keeps when omitted (re-sending has a side effect)
//! and create-only ones (they cannot change in place). One that cannot be
//! carried (unresolved, or secret) refuses the resource's patch items.

use super::address::{apply, op_keys};
use super::guards::holds_marker;
use super::input::RevertResource;
use super::model::{Operation, PlanItem, Refusal, RefusalReason, Reinclusion};
use super::rules::revert_facts;
use super::target::Refused;
use crate::baseline::below;
use json_patch::jsonptr::PointerBuf;
use json_patch::{AddOperation, PatchOperation};
use std::collections::{BTreeMap, BTreeSet};

/// Computes the re-inclusions of every resource with patch items; refuses
/// the patch items of a resource whose write-only properties cannot be carried.
pub(crate) fn reinclude(
    items: &mut Vec<PlanItem>,
    refused: &mut Vec<Refusal>,
    resources: &BTreeMap<&str, &RevertResource>,
) -> Vec<Reinclusion> {
    let mut patched: Vec<&str> = Vec::new();
    for i in items.iter().filter(|i| is_patch(i)) {
        if !patched.contains(&i.resource.logical_id.as_str()) {
            patched.push(i.resource.logical_id.as_str());
        }
    }
    let mut out = Vec::new();
    let mut failed: BTreeMap<String, Refused> = BTreeMap::new();
    for lid in patched {
        let Some(res) = resources.get(lid) else {
            continue;
        };
        let own: Vec<&PlanItem> = items
            .iter()
            .filter(|i| is_patch(i) && i.resource.logical_id == lid)
            .collect();
        match for_resource(res, &own) {
            Ok(r) => out.extend(r),
            Err(e) => {
                failed.insert(lid.to_string(), e);
            }
        }
    }
    items.retain(|i| {
        let Some((reason, message)) = failed.get(&i.resource.logical_id).filter(|_| is_patch(i))
        else {
            return true;
        };
        refused.push(Refusal {
            id: i.id.clone(),
            resource: i.resource.clone(),
            path: i.path.clone(),
            tier: i.tier,
            reason: *reason,
            message: message.clone(),
        });
        false
    });
    out
}

fn is_patch(i: &PlanItem) -> bool {
    matches!(i.operation, Operation::CloudControlPatch { .. })
}

/// The re-inclusion add operation of one property.
pub(crate) fn reinclusion_op(r: &Reinclusion) -> PatchOperation {
    PatchOperation::Add(AddOperation {
        path: PointerBuf::from_tokens([r.property.as_str()]),
        value: r.value.clone(),
    })
}

fn for_resource(res: &RevertResource, own: &[&PlanItem]) -> Result<Vec<Reinclusion>, Refused> {
    let Some(schema) = res.schema.as_deref() else {
        return Ok(Vec::new());
    };
    let mut ops: Vec<PatchOperation> = Vec::new();
    for i in own {
        if let Operation::CloudControlPatch { patch } = &i.operation {
            ops.extend(patch.iter().cloned());
        }
    }
    let touched: BTreeSet<String> = ops
        .iter()
        .filter_map(|op| op_keys(op).into_iter().next())
        .collect();
    let mut out = Vec::new();
    for prop in &schema.write_only {
        let Some(declared) = res.declared.get(prop) else {
            continue;
        };
        if touched.contains(prop)
            || schema.create_only.contains(prop)
            || revert_facts().keeps_omitted(&res.resource_type, prop)
        {
            continue;
        }
        let secret = res
            .secret_paths
            .iter()
            .any(|s| s == prop || below(prop, s).is_some());
        let value = declared.to_json();
        if secret || value.as_ref().is_some_and(holds_marker) {
            return Err((
                RefusalReason::Secret,
                format!(
                    "write-only property {prop} holds a secret the plan cannot carry, and a Cloud Control patch would drop it"
                ),
            ));
        }
        let Some(value) = value else {
            return Err((
                RefusalReason::WriteOnlyDropped,
                format!(
                    "write-only property {prop} is not resolved, and a Cloud Control patch would drop it"
                ),
            ));
        };
        out.push(Reinclusion {
            logical_id: res.logical_id.clone(),
            property: prop.clone(),
            value,
        });
    }
    ops.extend(out.iter().map(reinclusion_op));
    if let Some(live) = &res.live {
        if apply(live, &ops).is_none() {
            return Err((
                RefusalReason::PatchInvalid,
                "the resource's items do not apply together to the live model".into(),
            ));
        }
    }
    Ok(out)
}
