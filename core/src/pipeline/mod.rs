//! The per-stack pipeline: desired + live -> findings, behind I/O traits.
//!
//! [`StackSource`], [`LiveReader`], [`ChildEnumerator`] and [`KmsAliasSource`]
//! are implemented over the AWS SDK in the `realdrift-aws` crate and in memory in
//! [`memory`] for tests.

mod calls;
mod check;
mod children;
mod discovery;
mod gather;
mod gathered;
mod live;
pub mod memory;
mod projection;
mod source;
mod stack;

pub use crate::baseline::{ChildScan, ReadState};
pub use crate::report::Coverage;
pub use calls::{diff_counts, CallCounter};
pub use check::{
    baseline_key, check_gathered, check_stack, check_stacks, error_chain, error_report,
    gather_selected, join_causes, load_ignores, load_stack_baseline, recordable_findings, scope_of,
    secret_positions, CheckError, CheckOptions, CheckRun, CheckedStack, GatherFailure, GatherRun,
    StackGather, IGNORE_KEY,
};
pub use children::{ChildQuery, DeclaredResource, LiveChild};
pub use discovery::{
    discover_stacks, is_cdk_template, Discovery, DiscoveryError, Unavailable, UnavailableReason,
};
pub use gather::{added_logical_id, Pipeline, PipelineError, DEFAULT_CONCURRENCY};
pub use gathered::{GatheredStack, ResourceRecord};
pub use live::{LiveModel, ReadOutcome, ReadRequest};
pub use projection::Projection;
pub use source::{
    ChildEnumerator, KmsAliasSource, LiveReader, SchemaPrefetch, SourceError, StackSource,
};
pub use stack::{status_is_checkable, StackDescription, StackResourceRow, StackSummary};

/// Why a type is never read, or `None` when it is readable.
///
/// Custom resources have no model to read (their provider is user code), and
/// nested stacks are followed into their own stacks rather than read.
pub fn is_unreadable_type(resource_type: &str) -> Option<String> {
    if resource_type.starts_with("Custom::")
        || resource_type == "AWS::CloudFormation::CustomResource"
    {
        return Some(
            "custom resource: its provider is user code, there is no model to read".into(),
        );
    }
    if resource_type == "AWS::CloudFormation::Stack" {
        return Some("nested stack: checked as its own stack".into());
    }
    if resource_type == "AWS::CDK::Metadata" {
        return Some("CDK metadata: not a real resource".into());
    }
    None
}
