//! Gathering one stack: desired (resolve pass 1) -> live reads (bounded
//! concurrency) -> resolve pass 2 with live attributes -> re-read readers whose
//! target became resolvable (pass 1.5) -> child enumeration (pass 1.6) -> classify.

use super::calls::{diff_counts, CallCounter};
use super::children::{ChildQuery, DeclaredResource, LiveChild};
use super::is_unreadable_type;
use super::live::{ReadOutcome, ReadRequest};
use super::report::{Coverage, ResourceRecord, StackReport};
use super::source::{
    ChildEnumerator, KmsAliasSource, LiveReader, SchemaPrefetch, SourceError, StackSource,
};
use super::stack::StackDescription;
use crate::baseline::{ChildScan, ReadState};
use crate::classify::{classify, ClassifyContext, ResourceInput};
use crate::finding::{Finding, Tier};
use crate::schema::{SchemaFacts, SchemaSource};
use crate::template::{
    resolve_resource, sibling_policy_names, template_hash, ResolvedResource, ResolverContext,
    Template,
};
use futures_util::future::{BoxFuture, FutureExt};
use futures_util::stream::{self, StreamExt};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex};

/// Default number of resources read at once.
pub const DEFAULT_CONCURRENCY: usize = 16;

/// Why a whole stack could not be gathered (per-resource problems are findings).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PipelineError {
    /// A CloudFormation call for the stack failed.
    #[error("stack {stack}: {source}")]
    Source {
        /// The stack.
        stack: String,
        /// The failure.
        source: SourceError,
    },
    /// The deployed template could not be parsed.
    #[error("stack {stack}: template: {message}")]
    Template {
        /// The stack.
        stack: String,
        /// The parse error.
        message: String,
    },
}

/// The pipeline: I/O adapters plus settings. Built once, used for many stacks.
pub struct Pipeline {
    stacks: Arc<dyn StackSource>,
    reader: Arc<dyn LiveReader>,
    children: Vec<Arc<dyn ChildEnumerator>>,
    kms: Option<Arc<dyn KmsAliasSource>>,
    schemas: Arc<dyn SchemaSource>,
    schema_prefetch: Option<Arc<dyn SchemaPrefetch>>,
    counter: Option<CallCounter>,
    concurrency: usize,
    /// Managed alias targets, fetched once per pipeline (one region).
    kms_cache: Mutex<Option<BTreeMap<String, String>>>,
}

impl std::fmt::Debug for Pipeline {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pipeline")
            .field("concurrency", &self.concurrency)
            .field("enumerators", &self.children.len())
            .finish_non_exhaustive()
    }
}

/// What one pass-1/1.5 read produced for a template resource.
struct ReadSlot {
    outcome: ReadOutcome,
}

impl Pipeline {
    /// A pipeline over a stack source, a live reader and a schema source.
    pub fn new(
        stacks: Arc<dyn StackSource>,
        reader: Arc<dyn LiveReader>,
        schemas: Arc<dyn SchemaSource>,
    ) -> Self {
        Pipeline {
            stacks,
            reader,
            children: Vec::new(),
            kms: None,
            schemas,
            schema_prefetch: None,
            counter: None,
            concurrency: DEFAULT_CONCURRENCY,
            kms_cache: Mutex::new(None),
        }
    }

    /// Adds a child enumerator (pass 1.6).
    pub fn with_children(mut self, e: Arc<dyn ChildEnumerator>) -> Self {
        self.children.push(e);
        self
    }

    /// Sets the managed KMS alias source.
    pub fn with_kms(mut self, k: Arc<dyn KmsAliasSource>) -> Self {
        self.kms = Some(k);
        self
    }

    /// Sets the schema prefetcher asked for types the schema source lacks.
    pub fn with_schema_prefetch(mut self, p: Arc<dyn SchemaPrefetch>) -> Self {
        self.schema_prefetch = Some(p);
        self
    }

    /// Reports per-stack call counts from this counter (stacks are gathered one at a time).
    pub fn with_counter(mut self, c: CallCounter) -> Self {
        self.counter = Some(c);
        self
    }

    /// Wraps the live reader, e.g. to observe reads for a progress display.
    pub fn map_reader(
        mut self,
        wrap: impl FnOnce(Arc<dyn LiveReader>) -> Arc<dyn LiveReader>,
    ) -> Self {
        self.reader = wrap(self.reader);
        self
    }

    /// Sets how many resources are read at once (at least 1).
    pub fn with_concurrency(mut self, n: usize) -> Self {
        self.concurrency = n.max(1);
        self
    }

    /// The stack source (for discovery).
    pub fn stack_source(&self) -> &Arc<dyn StackSource> {
        &self.stacks
    }

    /// Gathers one stack. Per-resource failures become findings and notes;
    /// only a stack that cannot be described, fetched or parsed is an error.
    pub async fn gather(&self, stack: &str) -> Result<StackReport, PipelineError> {
        let before = self.counter.as_ref().map(CallCounter::snapshot);
        let src_err = |source| PipelineError::Source {
            stack: stack.to_string(),
            source,
        };
        let desc = self.stacks.describe_stack(stack).await.map_err(src_err)?;
        let body = self.stacks.get_template(stack).await.map_err(src_err)?;
        let template = Template::parse(&body).map_err(|e| PipelineError::Template {
            stack: stack.to_string(),
            message: e.to_string(),
        })?;
        let rows = self
            .stacks
            .list_stack_resources(stack)
            .await
            .map_err(src_err)?;
        let mut notes = Vec::new();

        let mut rctx = resolver_context(&desc);
        for row in &rows {
            if let (false, Some(p)) = (row.logical_id.is_empty(), &row.physical_id) {
                rctx.physical_ids.insert(row.logical_id.clone(), p.clone());
            }
        }
        if uses_import_value(&body) {
            match self.stacks.list_exports().await {
                Ok(e) => rctx.exports = Some(e),
                Err(e) => notes.push(format!(
                    "exports unavailable, Fn::ImportValue stays unresolved: {e}"
                )),
            }
        }
        let row_by_logical: BTreeMap<&str, &super::stack::StackResourceRow> = rows
            .iter()
            .filter(|r| !r.logical_id.is_empty())
            .map(|r| (r.logical_id.as_str(), r))
            .collect();

        // Pass 1: resolve without live attributes and decide what to read.
        let mut plan: Vec<Planned> = Vec::new();
        let mut nested_stacks = Vec::new();
        for (logical_id, res) in &template.resources {
            let resolved = match resolve_resource(&template, logical_id, &rctx) {
                Ok(r) => r,
                Err(e) => {
                    notes.push(format!("{logical_id}: cannot resolve properties: {e}"));
                    ResolvedResource {
                        resource_type: res.resource_type.clone(),
                        construct_path: res.construct_path.clone(),
                        condition_active: None,
                        ..Default::default()
                    }
                }
            };
            let row = row_by_logical.get(logical_id.as_str());
            let physical_id = row.and_then(|r| r.physical_id.clone());
            if resolved.condition_active == Some(false) && physical_id.is_none() {
                // Its condition is false: the resource is not expected to exist.
                continue;
            }
            if res.resource_type == "AWS::CDK::Metadata" {
                continue;
            }
            let status = match (row, &physical_id) {
                _ if res.resource_type == "AWS::CloudFormation::Stack" => {
                    if let Some(p) = &physical_id {
                        nested_stacks.push(p.clone());
                    }
                    continue;
                }
                (_, _) if is_unreadable_type(&res.resource_type).is_some() => Planned::skip(
                    is_unreadable_type(&res.resource_type).unwrap_or_default(),
                    false,
                ),
                (None, _) => Planned::skip(
                    "not listed by ListStackResources: CloudFormation did not create it".into(),
                    false,
                ),
                (Some(r), None) => Planned::skip(
                    format!("no physical id (resource status {})", r.status),
                    false,
                ),
                (Some(_), Some(_)) => None,
            };
            plan.push(Planned {
                logical_id: logical_id.clone(),
                resource_type: res.resource_type.clone(),
                physical_id,
                construct_path: res.construct_path.clone(),
                resolved,
                fixed: status,
            });
        }

        // Pass 1 reads.
        let reqs: Vec<(usize, ReadRequest)> = plan
            .iter()
            .enumerate()
            .filter(|(_, p)| p.fixed.is_none())
            .map(|(i, p)| (i, self.request(p, &desc)))
            .collect();
        let mut slots: BTreeMap<usize, ReadSlot> = self.read_all(reqs).await;

        // Pass 2: resolve again with live attributes (Fn::GetAtt on real values).
        for (i, slot) in &slots {
            if let ReadOutcome::Found(m) = &slot.outcome {
                rctx.live_attrs
                    .insert(plan[*i].logical_id.clone(), m.properties.clone());
            }
        }
        for p in plan.iter_mut() {
            if let Ok(r) = resolve_resource(&template, &p.logical_id, &rctx) {
                p.resolved = r;
            }
        }

        // Pass 1.5: readers that waited for a target re-read once.
        let retry: Vec<(usize, ReadRequest)> = slots
            .iter()
            .filter(|(_, s)| matches!(s.outcome, ReadOutcome::TargetUnresolved { .. }))
            .map(|(i, _)| (*i, self.request(&plan[*i], &desc)))
            .collect();
        if !retry.is_empty() {
            let reread = self.read_all(retry).await;
            for (i, slot) in reread {
                if let ReadOutcome::Found(m) = &slot.outcome {
                    rctx.live_attrs
                        .insert(plan[i].logical_id.clone(), m.properties.clone());
                }
                slots.insert(i, slot);
            }
        }

        // Schema facts for every type we will classify.
        let types: BTreeSet<String> = slots
            .iter()
            .filter(|(_, s)| matches!(s.outcome, ReadOutcome::Found(_)))
            .map(|(i, _)| plan[*i].resource_type.clone())
            .collect();
        let schemas = self.schema_facts(&types, &mut notes).await;

        // Stack context.
        let siblings = sibling_policy_names(&template, &rctx);
        let kms_alias_targets = if uses_managed_kms_alias(&body) {
            self.managed_alias_targets(&mut notes).await
        } else {
            None
        };
        let cctx = ClassifyContext {
            account_id: desc.account_id(),
            region: desc.region(),
            stack_name: Some(desc.name.clone()),
            kms_alias_targets,
            stack_tags: desc.tags.clone(),
            sibling_facts: serde_json::Map::new(),
        };

        // Classify.
        let mut findings = Vec::new();
        let mut coverage = Coverage::default();
        let mut records = Vec::with_capacity(plan.len());
        for (i, p) in plan.iter().enumerate() {
            let sibling = siblings.get(&p.logical_id).cloned().unwrap_or_default();
            let outcome = match (&p.fixed, slots.remove(&i)) {
                (Some(o), _) => o.clone(),
                (None, Some(s)) => s.outcome,
                (None, None) => ReadOutcome::skipped("not read"),
            };
            let mut record = ResourceRecord {
                logical_id: p.logical_id.clone(),
                resource_type: p.resource_type.clone(),
                physical_id: p.physical_id.clone(),
                construct_path: p.construct_path.clone(),
                declared: p.resolved.properties.clone(),
                sibling_policy_names: sibling.clone(),
                live: None,
                schema: None,
                read: ReadState::NotRead,
                children: ChildScan::None,
                secret_paths: p.resolved.secret_paths.clone(),
            };
            match outcome {
                ReadOutcome::Found(model) => match schemas.get(&p.resource_type) {
                    Some(facts) => {
                        coverage.read += 1;
                        for n in &model.notes {
                            notes.push(format!("{}: {n}", p.logical_id));
                        }
                        let input = ResourceInput {
                            logical_id: p.logical_id.clone(),
                            resource_type: p.resource_type.clone(),
                            physical_id: p.physical_id.clone(),
                            construct_path: p.construct_path.clone(),
                            declared: p.resolved.properties.clone(),
                            sibling_policy_names: sibling,
                        };
                        findings.extend(classify(&input, &model.properties, facts, &cctx));
                        record.live = Some(model.properties);
                        record.schema = Some(facts.clone());
                        record.read = ReadState::Read;
                    }
                    None => {
                        // No schema: comparing would report every read-only
                        // field as drift, so the resource is not classified.
                        coverage.skipped += 1;
                        findings.push(resource_finding(
                            p,
                            Tier::Skipped,
                            format!("no registry schema for {}", p.resource_type),
                        ));
                        record.live = Some(model.properties);
                    }
                },
                ReadOutcome::NotFound => {
                    coverage.deleted += 1;
                    record.read = ReadState::Deleted;
                    findings.push(resource_finding(
                        p,
                        Tier::Deleted,
                        "the resource no longer exists".into(),
                    ));
                }
                ReadOutcome::Skipped {
                    reason,
                    coverage_lost,
                } => {
                    coverage.skipped += 1;
                    if coverage_lost {
                        coverage.lost += 1;
                    }
                    findings.push(resource_finding(p, Tier::Skipped, reason));
                }
                ReadOutcome::TargetUnresolved { reason } => {
                    coverage.skipped += 1;
                    findings.push(resource_finding(
                        p,
                        Tier::Skipped,
                        format!("read target unresolved: {reason}"),
                    ));
                }
            }
            records.push(record);
        }

        // Pass 1.6: out-of-band children of declared parents.
        let mut added_parents = BTreeMap::new();
        let declared_view: Vec<DeclaredResource> = records
            .iter()
            .map(|r| DeclaredResource {
                logical_id: r.logical_id.clone(),
                resource_type: r.resource_type.clone(),
                physical_id: r.physical_id.clone(),
                declared: r.declared.clone(),
            })
            .collect();
        let mut queries = Vec::new();
        for (idx, record) in records.iter().enumerate() {
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
                declared: declared_view.clone(),
                account_id: desc.account_id(),
                region: desc.region(),
                partition: desc.partition(),
            };
            queries.push((idx, enumerator.clone(), query));
        }
        // Parents are listed concurrently; results are handled in template order.
        // The futures are built outside the stream so no closure is held across
        // an await (keeps the gather future `Send`).
        let listings: Vec<BoxFuture<'_, _>> = queries
            .into_iter()
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
        for (idx, query, result) in listed {
            let record = &mut records[idx];
            match result {
                Ok(children) => {
                    record.children = ChildScan::Complete;
                    for child in children {
                        if let Some(f) = self.added_finding(&query, child, &desc, &mut notes).await
                        {
                            added_parents
                                .insert(f.logical_id.clone(), query.parent_logical_id.clone());
                            findings.push(f);
                        }
                    }
                }
                Err(e) => {
                    record.children = ChildScan::Failed;
                    coverage.lost += 1;
                    let mut f = Finding::new(
                        Tier::Skipped,
                        &query.parent_logical_id,
                        &query.parent_type,
                        "",
                    );
                    f.physical_id = Some(query.parent_physical_id.clone());
                    f.construct_path = record.construct_path.clone();
                    f.note = Some(format!("child enumeration failed: {e}"));
                    findings.push(f);
                }
            }
        }

        let api_calls = match (&self.counter, before) {
            (Some(c), Some(before)) => diff_counts(&before, &c.snapshot()),
            _ => BTreeMap::new(),
        };
        Ok(StackReport {
            stack: desc.name.clone(),
            stack_id: desc.stack_id.clone(),
            account: desc.account_id(),
            region: desc.region(),
            template_hash: template_hash(&body),
            findings,
            coverage,
            api_calls,
            notes,
            resources: records,
            context: cctx,
            added_parents,
            nested_stacks,
        })
    }

    /// Gathers stacks one after another (so per-stack call counts are exact),
    /// following nested stacks into their own reports. One stack's failure
    /// does not stop the others: each result names its stack.
    pub async fn gather_many(&self, stacks: &[String]) -> Vec<Result<StackReport, PipelineError>> {
        let mut queue: std::collections::VecDeque<String> = stacks.iter().cloned().collect();
        let mut seen = BTreeSet::new();
        let mut out = Vec::new();
        while let Some(stack) = queue.pop_front() {
            if !seen.insert(stack.clone()) {
                continue;
            }
            let result = self.gather(&stack).await;
            if let Ok(r) = &result {
                queue.extend(r.nested_stacks.iter().cloned());
            }
            out.push(result);
        }
        out
    }

    /// The read request for a planned resource.
    fn request(&self, p: &Planned, desc: &StackDescription) -> ReadRequest {
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

    /// Reads every request, at most `concurrency` at once.
    async fn read_all(&self, reqs: Vec<(usize, ReadRequest)>) -> BTreeMap<usize, ReadSlot> {
        let reads: Vec<BoxFuture<'_, (usize, ReadSlot)>> = reqs
            .into_iter()
            .map(|(i, req)| {
                let reader = self.reader.clone();
                async move {
                    let outcome = reader.read(&req).await;
                    (i, ReadSlot { outcome })
                }
                .boxed()
            })
            .collect();
        stream::iter(reads)
            .buffer_unordered(self.concurrency)
            .collect()
            .await
    }

    fn enumerator_for(&self, parent_type: &str) -> Option<&Arc<dyn ChildEnumerator>> {
        self.children
            .iter()
            .find(|e| e.parent_types().contains(&parent_type))
    }

    /// Schema facts per type; types no source knows are left out (with a note).
    async fn schema_facts(
        &self,
        types: &BTreeSet<String>,
        notes: &mut Vec<String>,
    ) -> BTreeMap<String, Arc<SchemaFacts>> {
        let mut out = BTreeMap::new();
        let mut missing = Vec::new();
        for t in types {
            match self.schemas.facts(t) {
                Ok(Some(f)) => {
                    out.insert(t.clone(), f);
                }
                Ok(None) => missing.push(t.clone()),
                Err(e) => notes.push(format!("schema for {t}: {e}")),
            }
        }
        if let (false, Some(p)) = (missing.is_empty(), &self.schema_prefetch) {
            notes.extend(p.prefetch(&missing).await);
            for t in missing {
                match self.schemas.facts(&t) {
                    Ok(Some(f)) => {
                        out.insert(t, f);
                    }
                    Ok(None) => {}
                    Err(e) => notes.push(format!("schema for {t}: {e}")),
                }
            }
        }
        out
    }

    /// Managed alias targets, fetched once; `None` (with a note) when unavailable.
    async fn managed_alias_targets(
        &self,
        notes: &mut Vec<String>,
    ) -> Option<BTreeMap<String, String>> {
        if let Some(cached) = self
            .kms_cache
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
        {
            return Some(cached);
        }
        let kms = self.kms.as_ref()?;
        match kms.managed_alias_targets().await {
            Ok(m) => {
                *self.kms_cache.lock().unwrap_or_else(|p| p.into_inner()) = Some(m.clone());
                Some(m)
            }
            Err(e) => {
                // Only a definitive answer is cached; the next stack asks again.
                notes.push(format!(
                    "managed KMS aliases unavailable, a swapped key behind alias/aws/* cannot be told apart: {e}"
                ));
                None
            }
        }
    }

    /// The `added` finding for a live child, or `None` when another stack owns it.
    async fn added_finding(
        &self,
        parent: &ChildQuery,
        child: LiveChild,
        desc: &StackDescription,
        notes: &mut Vec<String>,
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
        let model = match child.model {
            Some(m) => Some(m),
            None => {
                let req = ReadRequest {
                    logical_id: added_logical_id(parent, &child.resource_type, &child.identifier),
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
                            notes.push(format!("{}: {n}", req.logical_id));
                        }
                        Some(m.properties)
                    }
                    // Gone between listing and reading: nothing was added.
                    ReadOutcome::NotFound => return None,
                    ReadOutcome::Skipped { reason, .. }
                    | ReadOutcome::TargetUnresolved { reason } => {
                        notes.push(format!(
                            "added {} {} could not be read in full: {reason}",
                            child.resource_type, child.identifier
                        ));
                        None
                    }
                }
            }
        };
        let logical_id = added_logical_id(parent, &child.resource_type, &child.identifier);
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
}

/// A template resource and what pass 1 decided for it.
struct Planned {
    logical_id: String,
    resource_type: String,
    physical_id: Option<String>,
    construct_path: Option<String>,
    resolved: ResolvedResource,
    /// An outcome decided without reading (custom, not created...).
    fixed: Option<ReadOutcome>,
}

impl Planned {
    fn skip(reason: String, coverage_lost: bool) -> Option<ReadOutcome> {
        Some(ReadOutcome::Skipped {
            reason,
            coverage_lost,
        })
    }
}

/// A stable synthesized logical id for an added child: `Parent+Type[identifier]`.
pub fn added_logical_id(parent: &ChildQuery, child_type: &str, identifier: &str) -> String {
    let short = child_type.rsplit("::").next().unwrap_or(child_type);
    format!("{}+{short}[{identifier}]", parent.parent_logical_id)
}

/// A whole-resource finding (deleted / skipped) for a planned resource.
fn resource_finding(p: &Planned, tier: Tier, note: String) -> Finding {
    let mut f = Finding::new(tier, &p.logical_id, &p.resource_type, "");
    f.physical_id = p.physical_id.clone();
    f.construct_path = p.construct_path.clone();
    f.note = Some(note);
    f
}

/// The resolver context for a described stack.
fn resolver_context(desc: &StackDescription) -> ResolverContext {
    let mut ctx = match (desc.account_id(), desc.region()) {
        (Some(a), Some(r)) => ResolverContext::new(&a, &r, &desc.name),
        (a, r) => ResolverContext {
            account_id: a,
            region: r,
            stack_name: Some(desc.name.clone()),
            ..Default::default()
        },
    };
    ctx.stack_id = Some(desc.stack_id.clone()).filter(|s| !s.is_empty());
    ctx.parameter_values = desc.parameters.clone();
    ctx
}

/// True when the template imports exports (long form or YAML short tag).
fn uses_import_value(body: &str) -> bool {
    body.contains("Fn::ImportValue") || body.contains("!ImportValue")
}

/// True when the template names an AWS-managed KMS alias.
fn uses_managed_kms_alias(body: &str) -> bool {
    body.contains("alias/aws/")
}
