//! Child enumeration (stage 7): live children of a declared parent that the
//! template does not declare become `added` findings, read in full.

use super::super::children::{ChildQuery, DeclaredResource, LiveChild};
use super::super::live::{ReadOutcome, ReadRequest};
use super::super::stack::StackDescription;
use super::compare::Compared;
use super::Pipeline;
use crate::baseline::{ChildScan, ReadState};
use crate::finding::{Finding, Tier};
use crate::pipeline::ChildEnumerator;
use crate::template::{property_references, Template};
use futures_util::future::{BoxFuture, FutureExt};
use futures_util::stream::{self, StreamExt};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

impl Pipeline {
    /// Lists the children of every read parent (of `only`, when given)
    /// that has an enumerator (concurrently) and adds what it finds, in
    /// template order. Returns added child logical id -> parent logical id.
    pub(super) async fn enumerate_children(
        &self,
        desc: &StackDescription,
        template: &Template,
        out: &mut Compared,
        only: Option<&BTreeSet<String>>,
    ) -> BTreeMap<String, String> {
        // The futures are built outside the stream so no closure is held
        // across an await (keeps the gather future `Send`).
        let listings: Vec<BoxFuture<'_, _>> = self
            .child_queries(desc, template, out)
            .into_iter()
            .filter(|(_, _, q)| only.is_none_or(|o| o.contains(&q.parent_logical_id)))
            .map(|(idx, enumerator, query)| {
                async move {
                    let result = enumerator.enumerate(&query).await;
                    (idx, query, result)
                }
                .boxed()
            })
            .collect();
        let listed: Vec<_> = stream::iter(listings)
            .buffered(self.concurrency)
            .collect()
            .await;
        let mut added_parents = BTreeMap::new();
        for (idx, query, result) in listed {
            match result {
                Ok(children) => {
                    out.records[idx].children = ChildScan::Complete;
                    for child in children {
                        if let Some(f) = self.added_finding(&query, child, desc, out).await {
                            added_parents
                                .insert(f.logical_id.clone(), query.parent_logical_id.clone());
                            out.findings.push(f);
                        }
                    }
                }
                Err(e) => {
                    // The parent itself was compared; only its out-of-band
                    // children are unknown: lost coverage, not a skip.
                    out.records[idx].children = ChildScan::Failed;
                    out.coverage.lost += 1;
                    out.notes.push(format!(
                        "{} ({}): out-of-band children not checked, child listing failed: {e}",
                        query.parent_logical_id, query.parent_type
                    ));
                }
            }
        }
        added_parents
    }

    /// One query per read parent that some enumerator scans, with its record index.
    fn child_queries(
        &self,
        desc: &StackDescription,
        template: &Template,
        out: &Compared,
    ) -> Vec<(usize, Arc<dyn ChildEnumerator>, ChildQuery)> {
        let declared: Arc<[DeclaredResource]> = out
            .records
            .iter()
            .map(|r| DeclaredResource {
                logical_id: r.logical_id.clone(),
                resource_type: r.resource_type.clone(),
                physical_id: r.physical_id.clone(),
                declared: r.declared.clone(),
                references: property_references(template, &r.logical_id),
            })
            .collect();
        let mut queries = Vec::new();
        for (idx, record) in out.records.iter().enumerate() {
            let Some(enumerator) = self.enumerator_for(&record.resource_type) else {
                continue;
            };
            let (Some(parent_model), Some(parent_pid), ReadState::Read) =
                (record.live.clone(), record.physical_id.clone(), record.read)
            else {
                continue;
            };
            let query = ChildQuery {
                parent_logical_id: record.logical_id.clone(),
                parent_type: record.resource_type.clone(),
                parent_physical_id: parent_pid,
                parent_model,
                declared: declared.clone(),
                account_id: desc.account_id(),
                region: desc.region(),
                partition: desc.partition(),
            };
            queries.push((idx, enumerator.clone(), query));
        }
        queries
    }

    fn enumerator_for(&self, parent_type: &str) -> Option<&Arc<dyn ChildEnumerator>> {
        self.children
            .iter()
            .find(|e| e.parent_types().contains(&parent_type))
    }

    /// The `added` finding for a live child, or `None` when another stack
    /// owns it or it is gone by the time it is read.
    async fn added_finding(
        &self,
        parent: &ChildQuery,
        child: LiveChild,
        desc: &StackDescription,
        out: &mut Compared,
    ) -> Option<Finding> {
        let mut ownership_note = None;
        if let Some(id) = &child.owner_lookup_id {
            match self.stacks.stack_owning(id).await {
                Ok(Some(_owner)) => return None,
                Ok(None) => {}
                Err(e) => {
                    ownership_note = Some(format!("could not check which stack owns it: {e}"))
                }
            }
        }
        let logical_id = added_logical_id(parent, &child.resource_type, &child.identifier);
        let model = match child.model {
            Some(m) => Some(m),
            None => self.read_child(&child, &logical_id, desc, out).await?,
        };
        let mut f = Finding::new(Tier::Added, logical_id, &child.resource_type, "");
        f.physical_id = Some(child.identifier.clone());
        f.actual = model;
        let mut note = format!(
            "{} on {} ({}) is not declared in the template",
            child.resource_type, parent.parent_logical_id, parent.parent_type
        );
        if let Some(o) = ownership_note {
            note.push_str("; ");
            note.push_str(&o);
        }
        f.note = Some(note);
        Some(f)
    }

    /// Reads an added child in full: `None` when it is gone (nothing was
    /// added), `Some(None)` when it could not be read (noted).
    async fn read_child(
        &self,
        child: &LiveChild,
        logical_id: &str,
        desc: &StackDescription,
        out: &mut Compared,
    ) -> Option<Option<Value>> {
        let req = ReadRequest {
            logical_id: logical_id.to_string(),
            resource_type: child.resource_type.clone(),
            physical_id: child.identifier.clone(),
            declared: BTreeMap::new(),
            account_id: desc.account_id(),
            region: desc.region(),
            partition: desc.partition(),
        };
        match self.reader.read(&req).await {
            ReadOutcome::Found(m) => {
                for n in m.notes {
                    out.notes.push(format!("{}: {n}", req.logical_id));
                }
                Some(Some(m.properties))
            }
            // Gone between listing and reading: nothing was added.
            ReadOutcome::NotFound => None,
            ReadOutcome::Skipped { reason, .. }
            | ReadOutcome::Unsupported { reason }
            | ReadOutcome::TargetUnresolved { reason } => {
                out.notes.push(format!(
                    "added {} {} could not be read in full: {reason}",
                    child.resource_type, child.identifier
                ));
                Some(None)
            }
        }
    }
}

/// A stable synthesized logical id for an added child: `Parent+Type[identifier]`.
pub fn added_logical_id(parent: &ChildQuery, child_type: &str, identifier: &str) -> String {
    let short = child_type.rsplit("::").next().unwrap_or(child_type);
    format!("{}+{short}[{identifier}]", parent.parent_logical_id)
}
