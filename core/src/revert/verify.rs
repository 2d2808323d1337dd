//! Convergence: after the writes, only the touched resources are read again
//! and classified; every other resource's findings carry forward from the
//! gather before the revert (the template cannot have changed: a revert
//! writes live state, not the stack). An out-of-band resource that was
//! deleted is looked for again among its parent's children.

use crate::classify::{classify, ResourceInput};
use crate::finding::{Finding, Tier};
use crate::pipeline::{
    ChildEnumerator, ChildQuery, DeclaredResource, GatheredStack, LiveReader, ReadOutcome,
    ReadRequest,
};
use futures_util::future::BoxFuture;
use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

/// Waits for a while (the caller's clock: core has no async runtime).
pub trait Pause: Send + Sync {
    /// Resolves after `d`.
    fn pause(&self, d: Duration) -> BoxFuture<'_, ()>;
}

/// What the re-read goes through.
#[derive(Clone, Copy)]
pub struct Rereader<'a> {
    /// The live reader (the same one the gather used).
    pub reader: &'a dyn LiveReader,
    /// The child enumerator, to look for deleted out-of-band resources.
    pub children: Option<&'a dyn ChildEnumerator>,
}

/// A stack after the re-read of some of its resources.
#[derive(Debug, Clone)]
pub struct Reread {
    /// The gathered stack with the touched resources' records and findings replaced.
    pub gathered: GatheredStack,
    /// Touched logical ids whose state could not be learned, with why.
    pub unverified: BTreeMap<String, String>,
}

/// Re-reads the `touched` logical ids of `g` (template resources, or
/// out-of-band children) and returns the stack with their records and
/// findings replaced.
pub async fn reread_touched(
    g: &GatheredStack,
    touched: &BTreeSet<String>,
    io: Rereader<'_>,
) -> Reread {
    let mut out = g.clone();
    let mut unverified = BTreeMap::new();
    let mut replaced: BTreeMap<String, Vec<Finding>> = BTreeMap::new();
    let mut gone: BTreeSet<String> = BTreeSet::new();
    for id in touched {
        if let Some(idx) = out.resources.iter().position(|r| &r.logical_id == id) {
            let (findings, problem) = reread_resource(&mut out, idx, io.reader).await;
            if let Some(p) = problem {
                unverified.insert(id.clone(), p);
            }
            replaced.insert(id.clone(), findings);
        } else if let Some(parent) = g.added_parents.get(id) {
            match child_still_there(&out, id, parent, io.children).await {
                Ok(true) => {}
                Ok(false) => {
                    gone.insert(id.clone());
                }
                Err(p) => {
                    unverified.insert(id.clone(), p);
                }
            }
        } else {
            unverified.insert(
                id.clone(),
                "not a resource of this stack's last gather".into(),
            );
        }
    }
    let mut findings: Vec<Finding> = out
        .findings
        .into_iter()
        .filter(|f| !replaced.contains_key(&f.logical_id) && !gone.contains(&f.logical_id))
        .collect();
    findings.extend(replaced.into_values().flatten());
    out.findings = findings;
    Reread {
        gathered: out,
        unverified,
    }
}

/// Reads one template resource again and classifies it; updates its record.
/// Returns its findings and, when it could not be read, why.
async fn reread_resource(
    g: &mut GatheredStack,
    idx: usize,
    reader: &dyn LiveReader,
) -> (Vec<Finding>, Option<String>) {
    let record = &g.resources[idx];
    let req = ReadRequest {
        logical_id: record.logical_id.clone(),
        resource_type: record.resource_type.clone(),
        physical_id: record.physical_id.clone().unwrap_or_default(),
        declared: record.declared.clone(),
        account_id: g.account.clone(),
        region: g.region.clone(),
        partition: partition(&g.stack_id),
    };
    let whole = |tier: Tier, note: String| {
        let mut f = Finding::new(tier, &record.logical_id, &record.resource_type, "");
        f.physical_id = record.physical_id.clone();
        f.construct_path = record.construct_path.clone();
        f.note = Some(note);
        f
    };
    match reader.read(&req).await {
        ReadOutcome::Found(model) => {
            let Some(facts) = record.schema.clone() else {
                let why = format!("no registry schema for {}", record.resource_type);
                return (vec![whole(Tier::Skipped, why.clone())], Some(why));
            };
            let input = ResourceInput {
                logical_id: record.logical_id.clone(),
                resource_type: record.resource_type.clone(),
                physical_id: record.physical_id.clone(),
                construct_path: record.construct_path.clone(),
                declared: record.declared.clone(),
                sibling_policy_names: record.sibling_policy_names.clone(),
            };
            let findings = classify(&input, &model.properties, &facts, &g.context);
            g.resources[idx].live = Some(model.properties);
            (findings, None)
        }
        ReadOutcome::NotFound => (
            vec![whole(Tier::Deleted, "the resource no longer exists".into())],
            None,
        ),
        ReadOutcome::Skipped { reason, .. }
        | ReadOutcome::Unsupported { reason }
        | ReadOutcome::TargetUnresolved { reason } => {
            let why = format!("re-read after the revert failed: {reason}");
            (vec![whole(Tier::Skipped, why.clone())], Some(why))
        }
    }
}

/// Whether an out-of-band child is still among its parent's live children.
async fn child_still_there(
    g: &GatheredStack,
    child: &str,
    parent: &str,
    children: Option<&dyn ChildEnumerator>,
) -> Result<bool, String> {
    let identifier = g
        .findings
        .iter()
        .find(|f| f.logical_id == child && f.tier == Tier::Added)
        .and_then(|f| f.physical_id.clone())
        .ok_or_else(|| "the out-of-band resource has no identifier".to_string())?;
    let record = g
        .resources
        .iter()
        .find(|r| r.logical_id == parent)
        .ok_or_else(|| format!("its parent {parent} is not in the stack"))?;
    let enumerator = children
        .filter(|e| e.parent_types().contains(&record.resource_type.as_str()))
        .ok_or_else(|| format!("no child listing for {}", record.resource_type))?;
    let query = ChildQuery {
        parent_logical_id: record.logical_id.clone(),
        parent_type: record.resource_type.clone(),
        parent_physical_id: record.physical_id.clone().unwrap_or_default(),
        parent_model: record.live.clone().unwrap_or_default(),
        declared: g
            .resources
            .iter()
            .map(|r| DeclaredResource {
                logical_id: r.logical_id.clone(),
                resource_type: r.resource_type.clone(),
                physical_id: r.physical_id.clone(),
                declared: r.declared.clone(),
                // Verification only asks whether the deleted child is still
                // listed; which declared resource a listing matches is moot.
                references: BTreeMap::new(),
            })
            .collect(),
        account_id: g.account.clone(),
        region: g.region.clone(),
        partition: partition(&g.stack_id),
    };
    let listed = enumerator
        .enumerate(&query)
        .await
        .map_err(|e| format!("listing the children of {parent} again failed: {e}"))?;
    Ok(listed.iter().any(|c| c.identifier == identifier))
}

/// The partition field of the stack id ARN.
fn partition(stack_id: &str) -> Option<String> {
    let mut parts = stack_id.split(':');
    match (parts.next(), parts.next()) {
        (Some("arn"), Some(p)) if !p.is_empty() => Some(p.to_string()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partition_comes_from_the_stack_arn() {
        assert_eq!(
            partition("arn:aws-cn:cloudformation:cn-north-1:1:stack/A/x").as_deref(),
            Some("aws-cn")
        );
        assert_eq!(partition("not-an-arn"), None);
    }
}
