//! Findings -> plan: each drift finding becomes an item (with the writer and
//! operation that applies it) or a refusal with a typed reason — never a
//! silent skip. Pure: reads only the input.

use super::address::{self, Address};
use super::conflicts::refuse_conflicts;
use super::digest::plan_digest;
use super::guards;
use super::input::{PlanInput, PlanOptions, RevertResource};
use super::model::{
    Operation, PlanItem, Refusal, RefusalReason, ResourceIdentity, RevertPlan, Writer, PLAN_VERSION,
};
use super::reinclude::reinclude;
use super::rules::revert_facts;
use super::tags;
use super::target::{decide, Change, Decision, Refused};
use super::writers;
use crate::baseline::{segments, Segment};
use crate::finding::{Finding, Tier};
use json_patch::Patch;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// Builds the revert plan of one stack.
pub fn build_plan(input: &PlanInput, opts: &PlanOptions) -> RevertPlan {
    let resources: BTreeMap<&str, &RevertResource> = input
        .resources
        .iter()
        .map(|r| (r.logical_id.as_str(), r))
        .collect();
    let planner = Planner {
        input,
        resources: &resources,
        remove_unrecorded: opts.remove_unrecorded,
    };
    let mut items = Vec::new();
    let mut refused = Vec::new();
    let mut seen = BTreeSet::new();
    for f in &input.findings {
        let id = unique_id(item_id(f), &mut seen);
        match planner.plan(f, id) {
            None => {}
            Some(Ok(item)) => items.push(item),
            Some(Err(r)) => refused.push(r),
        }
    }
    refuse_conflicts(&mut items, &mut refused);
    let reincluded = reinclude(&mut items, &mut refused, &resources);

    let (items, not_selected, unmatched_selection) = select(items, opts);
    let with_patch: BTreeSet<&str> = items
        .iter()
        .filter(|i| matches!(i.operation, Operation::CloudControlPatch { .. }))
        .map(|i| i.resource.logical_id.as_str())
        .collect();
    let reincluded = reincluded
        .into_iter()
        .filter(|r| with_patch.contains(r.logical_id.as_str()))
        .collect();
    let mut plan = RevertPlan {
        version: PLAN_VERSION,
        stack: input.stack.clone(),
        account: input.account.clone(),
        region: input.region.clone(),
        items,
        reincluded,
        refused,
        not_selected,
        unmatched_selection,
        digest: String::new(),
    };
    plan.digest = plan_digest(&plan);
    plan
}

/// The stable id of a finding's item: `<logicalId>:<path>`, `<logicalId>:delete`
/// for an out-of-band resource, the bare logical id for another whole-resource
/// finding (deleted, skipped).
pub fn item_id(f: &Finding) -> String {
    let mut id = match (f.path.is_empty(), f.tier) {
        (true, Tier::Added) => format!("{}:delete", f.logical_id),
        (true, _) => f.logical_id.clone(),
        (false, _) => format!("{}:{}", f.logical_id, f.path),
    };
    if let Some(k) = &f.attribute_key {
        id.push_str(&format!("[{k}]"));
    }
    id
}

fn unique_id(id: String, seen: &mut BTreeSet<String>) -> String {
    let mut candidate = id.clone();
    let mut n = 2;
    while !seen.insert(candidate.clone()) {
        candidate = format!("{id}#{n}");
        n += 1;
    }
    candidate
}

/// Keeps the selected items; reports the rest and selections that name no item.
fn select(items: Vec<PlanItem>, opts: &PlanOptions) -> (Vec<PlanItem>, Vec<String>, Vec<String>) {
    let Some(wanted) = &opts.select else {
        return (items, Vec::new(), Vec::new());
    };
    let (kept, dropped): (Vec<PlanItem>, Vec<PlanItem>) =
        items.into_iter().partition(|i| wanted.contains(&i.id));
    let known: BTreeSet<&str> = kept.iter().map(|i| i.id.as_str()).collect();
    let unmatched = wanted
        .iter()
        .filter(|w| !known.contains(w.as_str()))
        .cloned()
        .collect();
    // A selected id that was refused stays in `refused` and is unmatched here.
    (kept, dropped.into_iter().map(|i| i.id).collect(), unmatched)
}

struct Planner<'a> {
    input: &'a PlanInput,
    resources: &'a BTreeMap<&'a str, &'a RevertResource>,
    remove_unrecorded: bool,
}

/// What a writer decided for one finding.
struct Built {
    writer: Writer,
    operation: Operation,
    target: Option<Value>,
    preserved: Vec<String>,
}

impl Planner<'_> {
    fn plan(&self, f: &Finding, id: String) -> Option<Result<PlanItem, Refusal>> {
        let res = self.resources.get(f.logical_id.as_str()).copied();
        let identity = ResourceIdentity {
            logical_id: f.logical_id.clone(),
            resource_type: f.resource_type.clone(),
            physical_id: f
                .physical_id
                .clone()
                .or_else(|| res.and_then(|r| r.physical_id.clone())),
        };
        let refuse = |(reason, message): Refused| Refusal {
            id: id.clone(),
            resource: identity.clone(),
            path: f.path.clone(),
            tier: f.tier,
            reason,
            message,
        };
        let decision = match decide(f, self.remove_unrecorded) {
            Ok(None) => return None,
            Ok(Some(d)) => d,
            Err(e) => return Some(Err(refuse(e))),
        };
        let built = match decision.change {
            Change::Delete => delete(f, res),
            _ => self.write(f, res, &decision),
        };
        Some(built.map_err(refuse).map(|b| PlanItem {
            id: id.clone(),
            resource: identity.clone(),
            path: f.path.clone(),
            tier: f.tier,
            kind: decision.kind,
            unrecorded: decision.unrecorded,
            current: f.actual.clone(),
            target: b.target,
            preserved_tags: b.preserved,
            writer: b.writer,
            operation: b.operation,
        }))
    }

    /// A property write: guards, then the writer the data names, else Cloud Control.
    fn write(
        &self,
        f: &Finding,
        res: Option<&RevertResource>,
        decision: &Decision,
    ) -> Result<Built, Refused> {
        let (res, live) = match res.and_then(|r| r.live.as_ref().map(|l| (r, l))) {
            Some(x) => x,
            None => {
                return Err((
                    RefusalReason::PatchInvalid,
                    "the resource's live model was not read; nothing to patch".into(),
                ))
            }
        };
        let segs = segments(&f.path);
        let Some(Segment::Key(top)) = segs.first().cloned() else {
            return Err((
                RefusalReason::ArrayElement,
                "the path does not start at a property".into(),
            ));
        };
        let schema = res.schema.as_deref();
        guards::writable(&f.resource_type, &f.path, top, schema)?;
        guards::not_secret(&res.secret_paths, &[&f.path])?;
        let facts = revert_facts();
        if let Some(entry) = facts.type_writer(&f.resource_type) {
            let ops = writers::type_ops(entry, res, top, decision)?;
            return service(entry.writer, ops, &decision.change);
        }
        if let Some(entry) = facts.property_writer(&f.resource_type, top) {
            let ops = writers::iam_property_ops(entry, res, f, &decision.change, &segs[1..])?;
            return service(entry.writer, ops, &decision.change);
        }
        if schema.and_then(|s| s.handlers).is_some_and(|h| !h.update) {
            return Err((
                RefusalReason::NoWriter,
                format!(
                    "{} has no Cloud Control update handler and no service writer",
                    f.resource_type
                ),
            ));
        }
        if f.attribute_key.is_some() {
            return Err((
                RefusalReason::NoWriter,
                "an attribute-bag entry: a Cloud Control patch would rewrite the whole bag, and no per-attribute writer exists"
                    .into(),
            ));
        }
        let cc = CcWrite {
            f,
            res,
            live,
            change: &decision.change,
            stack_tags: &self.input.stack_tags,
        };
        cc.build(top, &segs[1..])
    }
}

/// A service writer's item; its target is the finding's value after the write.
fn service(
    writer: Writer,
    ops: Vec<super::model::ServiceOp>,
    change: &Change,
) -> Result<Built, Refused> {
    if ops.is_empty() {
        return Err((
            RefusalReason::NoTarget,
            "the live entries already hold the target; nothing to write".into(),
        ));
    }
    guards::certain(&serde_json::to_value(&ops).unwrap_or(Value::Null))?;
    Ok(Built {
        writer,
        operation: Operation::Service { ops },
        target: match change {
            Change::Set(v) => Some(v.clone()),
            _ => None,
        },
        preserved: Vec::new(),
    })
}

/// Deleting an out-of-band resource: a service writer's delete, else Cloud Control.
fn delete(f: &Finding, res: Option<&RevertResource>) -> Result<Built, Refused> {
    let Some(identifier) = f.physical_id.as_deref().filter(|p| !p.is_empty()) else {
        return Err((
            RefusalReason::NoTarget,
            "the out-of-band resource has no identifier to delete it by".into(),
        ));
    };
    if let Some(entry) = revert_facts().type_writer(&f.resource_type) {
        let ops = writers::delete_ops(entry, identifier)?;
        return Ok(Built {
            writer: entry.writer,
            operation: Operation::Service { ops },
            target: None,
            preserved: Vec::new(),
        });
    }
    let handlers = res
        .and_then(|r| r.schema.as_deref())
        .and_then(|s| s.handlers);
    if handlers.is_some_and(|h| !h.delete) {
        return Err((
            RefusalReason::NoWriter,
            format!("{} has no Cloud Control delete handler", f.resource_type),
        ));
    }
    Ok(Built {
        writer: Writer::CloudControl,
        operation: Operation::CloudControlDelete,
        target: None,
        preserved: Vec::new(),
    })
}

/// One Cloud Control patch for one finding.
struct CcWrite<'a> {
    f: &'a Finding,
    res: &'a RevertResource,
    live: &'a Value,
    change: &'a Change,
    stack_tags: &'a BTreeMap<String, String>,
}

impl CcWrite<'_> {
    fn build(&self, top: &str, rest: &[Segment<'_>]) -> Result<Built, Refused> {
        let schema = self.res.schema.as_deref();
        tags::nested_tag_holder(top, schema.and_then(|s| s.tag_property.as_deref()))?;
        // The member chain written, the value it gets (`None`: removed), and kept tags.
        let (keys, value, preserved) = if let Some(w) = &self.f.whole_array_revert {
            guards::not_secret(&self.res.secret_paths, &[&w.path])?;
            (self.members(&w.path)?, Some(w.value.clone()), Vec::new())
        } else if tags::is_tag_property(top, schema.and_then(|s| s.tag_property.as_deref()))
            && tags::handles(self.live.get(top), rest, self.change)
        {
            let tw = tags::tag_write(self.live.get(top), rest, self.change, self.stack_tags)?;
            (vec![top.to_string()], tw.value, tw.preserved)
        } else {
            let value = match self.change {
                Change::Set(v) => Some(v.clone()),
                _ => None,
            };
            (self.members(&self.f.path)?, value, Vec::new())
        };
        guards::not_create_only(
            schema,
            &keys,
            value.as_ref(),
            address::get(self.live, &keys),
        )?;
        if let Some(v) = &value {
            guards::certain(v)?;
        }
        let op = match value {
            Some(v) => address::set_op(self.live, &keys, v).ok_or_else(patch_invalid)?,
            None => address::remove_op(self.live, &keys).ok_or_else(|| {
                (
                    RefusalReason::PatchInvalid,
                    "the live model holds no value at this path to remove".into(),
                )
            })?,
        };
        let Some(patched) = address::apply(self.live, std::slice::from_ref(&op)) else {
            return Err(patch_invalid());
        };
        Ok(Built {
            writer: Writer::CloudControl,
            target: address::lookup_path(&patched, &self.f.path).cloned(),
            operation: Operation::CloudControlPatch {
                patch: Patch(vec![op]),
            },
            preserved,
        })
    }

    /// The member chain of a path, or the array-element refusal.
    fn members(&self, path: &str) -> Result<Vec<String>, Refused> {
        match address::address(self.live, path) {
            Address::Members(keys) => Ok(keys),
            Address::Element => Err((
                RefusalReason::ArrayElement,
                "an array element path: a patch cannot address the element, and rewriting the whole array is done only where classify marks the array's desired value certain"
                    .into(),
            )),
        }
    }
}

fn patch_invalid() -> Refused {
    (
        RefusalReason::PatchInvalid,
        "the patch does not apply to the live model (the path's parent is not an object)".into(),
    )
}
