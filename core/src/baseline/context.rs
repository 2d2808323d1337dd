//! What the baseline stage needs to know about this run, besides the findings.

use crate::declared::DeclaredValue;
use std::collections::BTreeMap;

/// The identity axes of a baseline: stack, account and region.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct StackIdentity {
    /// CloudFormation stack name.
    pub stack_name: String,
    /// Account id (from the StackId ARN).
    pub account_id: String,
    /// Region.
    pub region: String,
}

impl StackIdentity {
    /// Builds an identity.
    pub fn new(stack_name: &str, account_id: &str, region: &str) -> Self {
        StackIdentity {
            stack_name: stack_name.to_string(),
            account_id: account_id.to_string(),
            region: region.to_string(),
        }
    }

    /// The baseline file name of this identity.
    pub fn file_name(&self) -> Result<String, super::BaselineError> {
        super::file::file_name(&self.stack_name, &self.account_id, &self.region)
    }
}

/// Whether a template resource was read this run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ReadState {
    /// The live model was read (findings, if any, are complete for it).
    Read,
    /// Not read: skipped, custom, read failed or denied.
    #[default]
    NotRead,
    /// The resource is gone from AWS.
    Deleted,
}

/// Whether a parent's out-of-band children were enumerated this run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ChildScan {
    /// The type has no child enumerator.
    #[default]
    None,
    /// The enumerator completed.
    Complete,
    /// The enumerator ran and failed.
    Failed,
}

/// One template resource as this run saw it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ResourceState {
    /// Resource type in the current template.
    pub resource_type: String,
    /// Live physical id, when known.
    pub physical_id: Option<String>,
    /// CDK construct path, when known.
    pub construct_path: Option<String>,
    /// Whether it was read.
    pub read: ReadState,
    /// Declared properties after intrinsic resolution.
    pub declared: BTreeMap<String, DeclaredValue>,
    /// Child enumeration outcome (for `enumeratedParents`).
    pub children: ChildScan,
}

/// Everything about a run the baseline stage needs next to the findings.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RunContext {
    /// Stack, account and region of the run.
    pub identity: StackIdentity,
    /// Hash of the deployed template (`None` under pre-deploy, which skips the check).
    pub template_hash: Option<String>,
    /// Every resource in the current template, by logical id.
    pub resources: BTreeMap<String, ResourceState>,
    /// Added child logical id -> the declared parent it was enumerated under.
    pub added_parents: BTreeMap<String, String>,
}

impl RunContext {
    /// True when the resource was positively read this run.
    pub fn was_read(&self, logical_id: &str) -> bool {
        self.resources
            .get(logical_id)
            .is_some_and(|r| r.read == ReadState::Read)
    }
}
