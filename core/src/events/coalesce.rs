//! A batch of accepted events -> one entry per touched resource with all
//! its causes, so a burst of calls on one resource gives one re-read and
//! one alert.

use super::cause::Cause;
use super::filter::Accepted;
use super::view::IndexView;
use serde::Serialize;
use std::collections::{BTreeMap, HashSet};

/// A resource of a stack, as on-change re-reads it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceRef {
    /// The account.
    pub account_id: String,
    /// The region of the stack.
    pub region: String,
    /// The stack name.
    pub stack: String,
    /// The logical id.
    pub logical_id: String,
    /// The CloudFormation type.
    pub resource_type: String,
    /// The physical id.
    pub physical_id: String,
}

/// One resource to re-read, with every call that touched it, latest first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TouchedResource {
    /// The resource.
    pub resource: ResourceRef,
    /// The calls, latest first, one per CloudTrail event id.
    pub causes: Vec<Cause>,
}

/// The outcome of a batch.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Coalesced {
    /// Resources to re-read, sorted by account, region, stack, logical id.
    pub resources: Vec<TouchedResource>,
    /// Accepted calls that touched no indexed resource (not in any stack in
    /// scope), latest first.
    pub unmatched: Vec<Cause>,
}

/// Groups a batch by touched resource. Each event is resolved against the
/// views of its account (every view when the account is unknown) and its
/// region (every region for a global service's call).
pub fn coalesce(batch: &[Accepted], views: &[IndexView<'_>]) -> Coalesced {
    let mut groups: BTreeMap<ResourceRef, Vec<Cause>> = BTreeMap::new();
    let mut unmatched = Vec::new();
    for accepted in batch {
        let touch = &accepted.touch;
        let mut matched = false;
        for view in views {
            let index = view.index();
            let account_ok = touch
                .account_id
                .as_deref()
                .is_none_or(|a| a == index.account_id);
            let region_ok =
                touch.global || touch.region.as_deref().is_none_or(|r| r == index.region);
            if !(account_ok && region_ok) {
                continue;
            }
            for hit in view.resolve(touch) {
                matched = true;
                let key = ResourceRef {
                    account_id: index.account_id.clone(),
                    region: index.region.clone(),
                    stack: hit.row.stack.clone(),
                    logical_id: hit.row.logical_id.clone(),
                    resource_type: hit.row.resource_type.clone(),
                    physical_id: hit.row.physical_id.clone(),
                };
                groups.entry(key).or_default().push(accepted.cause.clone());
            }
        }
        if !matched {
            unmatched.push(accepted.cause.clone());
        }
    }
    Coalesced {
        resources: groups
            .into_iter()
            .map(|(resource, causes)| TouchedResource {
                resource,
                causes: latest_first(causes),
            })
            .collect(),
        unmatched: latest_first(unmatched),
    }
}

/// Sorts by event time, latest first (unknown times last, ties by event
/// id), and keeps one cause per event id (SQS may deliver twice).
pub fn latest_first(mut causes: Vec<Cause>) -> Vec<Cause> {
    causes.sort_by(|a, b| {
        b.time_key()
            .cmp(&a.time_key())
            .then_with(|| b.event_id.cmp(&a.event_id))
    });
    let mut seen = HashSet::new();
    causes.retain(|c| match &c.event_id {
        Some(id) => seen.insert(id.clone()),
        None => true,
    });
    causes
}
