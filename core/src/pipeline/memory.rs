//! In-memory implementations of the pipeline traits, for tests and replays.

use super::calls::CallCounter;
use super::children::{ChildQuery, LiveChild};
use super::live::{ReadOutcome, ReadRequest};
use super::source::{ChildEnumerator, KmsAliasSource, LiveReader, SourceError, StackSource};
use super::stack::{StackDescription, StackResourceRow, StackSummary};
use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use std::collections::BTreeMap;

/// One stack held in memory.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MemoryStack {
    /// DescribeStacks answer.
    pub description: StackDescription,
    /// The template body.
    pub template: String,
    /// ListStackResources rows.
    pub resources: Vec<StackResourceRow>,
}

/// A [`StackSource`] over stacks in memory. Counts calls like the SDK bundle.
#[derive(Debug, Clone, Default)]
pub struct MemoryStacks {
    /// Stacks by name.
    pub stacks: BTreeMap<String, MemoryStack>,
    /// Exports (name -> value).
    pub exports: BTreeMap<String, String>,
    /// Physical id -> owning stack name.
    pub owners: BTreeMap<String, String>,
    /// GetTemplate fails for these stack names with this error.
    pub template_failures: BTreeMap<String, SourceError>,
    /// Call counter (`cloudformation:<Operation>`).
    pub counter: CallCounter,
}

impl MemoryStacks {
    /// Adds a stack.
    pub fn with_stack(mut self, s: MemoryStack) -> Self {
        self.stacks.insert(s.description.name.clone(), s);
        self
    }

    fn get(&self, op: &str, stack: &str) -> Result<&MemoryStack, SourceError> {
        self.counter.record(&format!("cloudformation:{op}"));
        self.stacks
            .get(stack)
            .or_else(|| {
                self.stacks
                    .values()
                    .find(|s| s.description.stack_id == stack)
            })
            .ok_or_else(|| SourceError::StackNotFound(stack.to_string()))
    }
}

impl StackSource for MemoryStacks {
    fn describe_stack<'a>(
        &'a self,
        stack: &'a str,
    ) -> BoxFuture<'a, Result<StackDescription, SourceError>> {
        let r = self
            .get("DescribeStacks", stack)
            .map(|s| s.description.clone());
        async move { r }.boxed()
    }

    fn get_template<'a>(&'a self, stack: &'a str) -> BoxFuture<'a, Result<String, SourceError>> {
        let r = self.get("GetTemplate", stack).and_then(|s| {
            match self.template_failures.get(&s.description.name) {
                Some(e) => Err(e.clone()),
                None => Ok(s.template.clone()),
            }
        });
        async move { r }.boxed()
    }

    fn list_stack_resources<'a>(
        &'a self,
        stack: &'a str,
    ) -> BoxFuture<'a, Result<Vec<StackResourceRow>, SourceError>> {
        let r = self
            .get("ListStackResources", stack)
            .map(|s| s.resources.clone());
        async move { r }.boxed()
    }

    fn list_exports(&self) -> BoxFuture<'_, Result<BTreeMap<String, String>, SourceError>> {
        self.counter.record("cloudformation:ListExports");
        let r = Ok(self.exports.clone());
        async move { r }.boxed()
    }

    fn list_stacks(&self) -> BoxFuture<'_, Result<Vec<StackSummary>, SourceError>> {
        self.counter.record("cloudformation:ListStacks");
        let r = Ok(self
            .stacks
            .values()
            .map(|s| StackSummary {
                name: s.description.name.clone(),
                stack_id: s.description.stack_id.clone(),
                status: s.description.status.clone(),
                parent_id: s.description.parent_id.clone(),
            })
            .collect());
        async move { r }.boxed()
    }

    fn stack_owning<'a>(
        &'a self,
        physical_id: &'a str,
    ) -> BoxFuture<'a, Result<Option<String>, SourceError>> {
        self.counter.record("cloudformation:DescribeStackResources");
        let r = Ok(self.owners.get(physical_id).cloned());
        async move { r }.boxed()
    }
}

/// A [`LiveReader`] answering from a table keyed by (type, physical id).
/// Unknown resources read as not found. Counts one call per read.
#[derive(Debug, Clone, Default)]
pub struct MemoryReader {
    /// Outcomes by (type, physical id).
    pub outcomes: BTreeMap<(String, String), ReadOutcome>,
    /// Readers that need a resolved declared property first: type -> property.
    pub needs_declared: BTreeMap<String, String>,
    /// Call counter (`memory:Read<Type>`).
    pub counter: CallCounter,
}

impl MemoryReader {
    /// Sets the outcome for one resource.
    pub fn with(mut self, resource_type: &str, physical_id: &str, outcome: ReadOutcome) -> Self {
        self.outcomes.insert(
            (resource_type.to_string(), physical_id.to_string()),
            outcome,
        );
        self
    }
}

impl LiveReader for MemoryReader {
    fn read<'a>(&'a self, req: &'a ReadRequest) -> BoxFuture<'a, ReadOutcome> {
        let outcome = if let Some(reason) = super::is_unreadable_type(&req.resource_type) {
            ReadOutcome::skipped(reason)
        } else if let Some(prop) = self
            .needs_declared
            .get(&req.resource_type)
            .filter(|p| req.declared_str(p).is_none())
        {
            ReadOutcome::TargetUnresolved {
                reason: format!("{prop} is not resolved"),
            }
        } else {
            self.counter
                .record(&format!("memory:Read{}", req.resource_type));
            self.outcomes
                .get(&(req.resource_type.clone(), req.physical_id.clone()))
                .cloned()
                .unwrap_or(ReadOutcome::NotFound)
        };
        async move { outcome }.boxed()
    }
}

/// A [`ChildEnumerator`] answering from a table keyed by parent physical id.
#[derive(Debug, Clone, Default)]
pub struct MemoryChildren {
    /// Parent types handled.
    pub parent_types: Vec<&'static str>,
    /// Children by parent physical id; an `Err` simulates a failed listing.
    pub children: BTreeMap<String, Result<Vec<LiveChild>, SourceError>>,
}

impl ChildEnumerator for MemoryChildren {
    fn parent_types(&self) -> &[&'static str] {
        &self.parent_types
    }

    fn enumerate<'a>(
        &'a self,
        query: &'a ChildQuery,
    ) -> BoxFuture<'a, Result<Vec<LiveChild>, SourceError>> {
        let r = self
            .children
            .get(&query.parent_physical_id)
            .cloned()
            .unwrap_or_else(|| Ok(Vec::new()));
        async move { r }.boxed()
    }
}

/// A [`KmsAliasSource`] with a fixed answer.
#[derive(Debug, Clone, Default)]
pub struct MemoryKms {
    /// Alias -> key id.
    pub targets: BTreeMap<String, String>,
    /// When set, the listing fails with this error.
    pub failure: Option<SourceError>,
}

impl KmsAliasSource for MemoryKms {
    fn alias_targets(&self) -> BoxFuture<'_, Result<BTreeMap<String, String>, SourceError>> {
        let r = match &self.failure {
            Some(e) => Err(e.clone()),
            None => Ok(self.targets.clone()),
        };
        async move { r }.boxed()
    }
}
