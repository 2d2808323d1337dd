//! The I/O traits the pipeline reads through, and their error type.

use super::children::{ChildQuery, LiveChild};
use super::live::{ReadOutcome, ReadRequest};
use super::stack::{StackDescription, StackResourceRow, StackSummary};
use futures_util::future::BoxFuture;
use std::collections::BTreeMap;

/// Why an I/O call failed (after the SDK's own retries).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SourceError {
    /// The stack does not exist (or is not visible to these credentials).
    #[error("stack {0} does not exist")]
    StackNotFound(String),
    /// The caller lacks permission for the named operation.
    #[error("access denied: {0}")]
    AccessDenied(String),
    /// Any other failure, with the operation and the service's message.
    #[error("{0}")]
    Other(String),
}

/// The desired side of a stack: CloudFormation's view of it.
pub trait StackSource: Send + Sync {
    /// DescribeStacks for one stack (parameters, tags, status, account from the id).
    fn describe_stack<'a>(
        &'a self,
        stack: &'a str,
    ) -> BoxFuture<'a, Result<StackDescription, SourceError>>;

    /// GetTemplate, processed stage (transforms such as SAM expanded).
    fn get_template<'a>(&'a self, stack: &'a str) -> BoxFuture<'a, Result<String, SourceError>>;

    /// ListStackResources, all pages.
    fn list_stack_resources<'a>(
        &'a self,
        stack: &'a str,
    ) -> BoxFuture<'a, Result<Vec<StackResourceRow>, SourceError>>;

    /// ListExports, all pages: export name -> value.
    fn list_exports(&self) -> BoxFuture<'_, Result<BTreeMap<String, String>, SourceError>>;

    /// ListStacks, all pages, excluding deleted stacks.
    fn list_stacks(&self) -> BoxFuture<'_, Result<Vec<StackSummary>, SourceError>>;

    /// The stack that owns a physical id, if any (DescribeStackResources by physical id).
    fn stack_owning<'a>(
        &'a self,
        physical_id: &'a str,
    ) -> BoxFuture<'a, Result<Option<String>, SourceError>>;
}

/// The live side: one resource's current model.
pub trait LiveReader: Send + Sync {
    /// Reads one resource. Never fails: errors are mapped into the outcome.
    fn read<'a>(&'a self, req: &'a ReadRequest) -> BoxFuture<'a, ReadOutcome>;
}

/// Lists live children of a declared parent that the template does not declare.
pub trait ChildEnumerator: Send + Sync {
    /// The parent resource types this enumerator scans.
    fn parent_types(&self) -> &[&'static str];

    /// The out-of-band children of one parent (declared ones already filtered out).
    fn enumerate<'a>(
        &'a self,
        query: &'a ChildQuery,
    ) -> BoxFuture<'a, Result<Vec<LiveChild>, SourceError>>;
}

/// KMS alias targets (`alias/<name>` -> key id) for the stack's region.
pub trait KmsAliasSource: Send + Sync {
    /// ListAliases, all pages: every alias with a target (an AWS-managed
    /// `alias/aws/*` gets one once a service used it).
    fn alias_targets(&self) -> BoxFuture<'_, Result<BTreeMap<String, String>, SourceError>>;
}

/// Fetches schemas a synchronous [`crate::schema::SchemaSource`] will then
/// answer from cache (DescribeType is async; classify asks synchronously).
pub trait SchemaPrefetch: Send + Sync {
    /// Fetches the given types; returns, per type that could not be
    /// fetched, why (the registry has no such type, the call failed or was
    /// refused). The pipeline reports the type's resources as lost coverage.
    fn prefetch<'a>(&'a self, types: &'a [String]) -> BoxFuture<'a, BTreeMap<String, String>>;
}
