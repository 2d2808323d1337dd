//! Gathering one stack, in named stages:
//!
//! 1. `desired`: describe the stack, fetch and parse its template, list its
//!    resources, resolve intrinsics without live values, plan the reads;
//! 2. `reads`: read every planned resource (bounded concurrency), resolve
//!    again with live attributes, re-read readers whose target became known;
//! 3. `context`: schema facts for the types read, the stack's classify context
//!    with the facts `siblings` gathers from the stack's other resources;
//! 4. `compare`: classify each resource into findings, coverage, records;
//! 5. `added`: enumerate out-of-band children of declared parents.
//!
//! [`Pipeline::gather_only`] runs the same stages for some resources of a
//! stack (on-change: the resources an API call touched): the desired side
//! is complete (every declared resource is known, so declared children are
//! never mistaken for out-of-band ones), only the selected resources are
//! read, classified and have their children listed.
//!
//! Only a stack that cannot be described, fetched or parsed is an error;
//! every per-resource problem is a finding or a note.

mod added;
mod compare;
mod context;
mod desired;
mod reads;
mod siblings;

pub use added::added_logical_id;

use super::calls::{diff_counts, CallCounter};
use super::gathered::GatheredStack;
use super::source::{
    ChildEnumerator, KmsAliasSource, LiveReader, SchemaPrefetch, SourceError, StackSource,
};
use crate::schema::SchemaSource;
use crate::template::{sibling_policy_names, template_hash};
use std::collections::{BTreeMap, BTreeSet, VecDeque};
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
    /// The stack is mid-change or failed: it has no settled template to
    /// compare against (reported as not checked, never as clean).
    #[error("stack {stack}: status {status}, not settled")]
    NotSettled {
        /// The stack.
        stack: String,
        /// Its DescribeStacks status.
        status: String,
        /// Its account, from the stack id.
        account_id: Option<String>,
        /// Its region, from the stack id.
        region: Option<String>,
    },
}

impl PipelineError {
    /// The stack the error is about.
    pub fn stack(&self) -> &str {
        match self {
            PipelineError::Source { stack, .. }
            | PipelineError::Template { stack, .. }
            | PipelineError::NotSettled { stack, .. } => stack,
        }
    }
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

    /// Gathers one stack through the stages above.
    pub async fn gather(&self, stack: &str) -> Result<GatheredStack, PipelineError> {
        self.gather_scoped(stack, None).await
    }

    /// Gathers `stack` reading only the resources `logical_ids` names (and
    /// those whose attributes they reference with `Fn::GetAtt` or
    /// `Fn::Sub`): the others keep their records (declared values, physical
    /// ids) but are not read; only the named resources have findings and
    /// coverage. Nested stacks are not followed.
    pub async fn gather_only(
        &self,
        stack: &str,
        logical_ids: &BTreeSet<String>,
    ) -> Result<GatheredStack, PipelineError> {
        self.gather_scoped(stack, Some(logical_ids)).await
    }

    async fn gather_scoped(
        &self,
        stack: &str,
        only: Option<&BTreeSet<String>>,
    ) -> Result<GatheredStack, PipelineError> {
        let before = self.counter.as_ref().map(CallCounter::snapshot);
        let desired = self.read_desired(stack).await?;
        let mut notes = Vec::new();
        let mut rctx = self.resolver_context(&desired, &mut notes).await;
        let desired::Plan {
            resources: mut plan,
            mut nested_stacks,
        } = desired::plan(&desired, &rctx);
        if let Some(only) = only {
            // Attribute sources are read too (their values resolve as in a
            // full gather), then left out of the findings with the rest.
            let mut read = desired::getatt_sources(&desired.template, only);
            read.extend(only.iter().cloned());
            desired::leave_unread(&mut plan, &read);
            nested_stacks.clear();
        }
        let reads = self.read_live(&desired, &mut plan, &mut rctx).await;
        let schemas = self.schemas_for(&plan, &reads).await;
        let siblings = sibling_policy_names(&desired.template, &rctx);
        let mut cctx = self.classify_context(&desired, &mut notes).await;
        cctx.sibling_facts = siblings::stack_facts(&desired, &plan, &reads);
        let mut compared = compare::compare_all(plan, reads, &schemas, &siblings, &cctx);
        if let Some(only) = only {
            compared.keep_only(only);
        }
        let added_parents = self
            .enumerate_children(&desired.desc, &desired.template, &mut compared, only)
            .await;
        notes.append(&mut compared.notes);
        let api_calls = match (&self.counter, before) {
            (Some(c), Some(before)) => diff_counts(&before, &c.snapshot()),
            _ => BTreeMap::new(),
        };
        let d = desired.desc;
        Ok(GatheredStack {
            account: d.account_id(),
            region: d.region(),
            stack: d.name,
            stack_id: d.stack_id,
            template_hash: template_hash(&desired.body),
            findings: compared.findings,
            coverage: compared.coverage,
            not_compared: compared.not_compared,
            api_calls,
            notes,
            resources: compared.records,
            context: cctx,
            added_parents,
            nested_stacks,
        })
    }

    /// Gathers stacks one after another (so per-stack call counts are exact),
    /// following nested stacks into their own reports. One stack's failure
    /// does not stop the others: each result names its stack.
    pub async fn gather_many(
        &self,
        stacks: &[String],
    ) -> Vec<Result<GatheredStack, PipelineError>> {
        let mut queue: VecDeque<String> = stacks.iter().cloned().collect();
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
}
