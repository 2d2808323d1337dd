//! Inputs to classify: the resource under test and its stack context.

use crate::declared::DeclaredValue;
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// Names of sibling `AWS::IAM::Policy` resources attached to a role.
#[derive(Debug, Clone, Default, PartialEq)]
pub enum SiblingPolicyNames {
    /// No sibling policy attaches to this resource.
    #[default]
    None,
    /// The sibling policy names, all resolved.
    Known(Vec<String>),
    /// At least one sibling policy name could not be resolved (fail open).
    Unresolved,
}

/// The resource being classified.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ResourceInput {
    /// CloudFormation logical id.
    pub logical_id: String,
    /// Resource type, e.g. `AWS::SQS::Queue`.
    pub resource_type: String,
    /// Physical id from ListStackResources.
    pub physical_id: Option<String>,
    /// CDK construct path (`aws:cdk:path`).
    pub construct_path: Option<String>,
    /// Template `Properties` after intrinsic resolution.
    pub declared: BTreeMap<String, DeclaredValue>,
    /// Sibling IAM policy names (roles, users, groups).
    pub sibling_policy_names: SiblingPolicyNames,
}

/// Stack-level context: account, region and facts gathered from siblings.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ClassifyContext {
    /// The stack's account id.
    pub account_id: Option<String>,
    /// The stack's region.
    pub region: Option<String>,
    /// Stack name (used to recognise CloudFormation auto-minted names).
    pub stack_name: Option<String>,
    /// Managed KMS alias -> target key id; `None` when the map is unknown.
    pub kms_alias_targets: Option<BTreeMap<String, String>>,
    /// Stack-level tags CloudFormation propagates onto every resource.
    pub stack_tags: BTreeMap<String, String>,
    /// Per-type sibling facts (corpus `opts` keys such as `clusterEchoModel`).
    pub sibling_facts: Map<String, Value>,
}
