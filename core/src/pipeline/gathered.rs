//! What gathering one stack produces: the classify inputs and outcome of
//! every resource, before baseline and ignore rules. The checked result
//! that renderers read is [`crate::report::StackReport`].

use crate::baseline::{ChildScan, ReadState, ResourceState, RunContext, StackIdentity};
use crate::classify::{ClassifyContext, SiblingPolicyNames};
use crate::declared::DeclaredValue;
use crate::finding::Finding;
use crate::report::{Coverage, NotCompared};
use crate::schema::SchemaFacts;
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::Arc;

/// One template resource as this run saw it: the classify inputs and outcome.
#[derive(Debug, Clone, PartialEq)]
pub struct ResourceRecord {
    /// Logical id.
    pub logical_id: String,
    /// Resource type.
    pub resource_type: String,
    /// Physical id from ListStackResources.
    pub physical_id: Option<String>,
    /// CDK construct path.
    pub construct_path: Option<String>,
    /// Declared properties after the final resolve pass.
    pub declared: BTreeMap<String, DeclaredValue>,
    /// Sibling IAM policy names attached to this resource.
    pub sibling_policy_names: SiblingPolicyNames,
    /// The raw live model, when read.
    pub live: Option<Value>,
    /// The schema facts used, when known.
    pub schema: Option<Arc<SchemaFacts>>,
    /// Read outcome.
    pub read: ReadState,
    /// Child enumeration outcome.
    pub children: ChildScan,
    /// Declared paths holding a secret (a NoEcho parameter or a `{{resolve:...}}`
    /// reference): reports mask them.
    pub secret_paths: std::collections::BTreeSet<String>,
}

/// Everything gathered for one stack.
#[derive(Debug, Clone, PartialEq)]
pub struct GatheredStack {
    /// Stack name.
    pub stack: String,
    /// Stack id (ARN).
    pub stack_id: String,
    /// Account id, from the stack id.
    pub account: Option<String>,
    /// Region, from the stack id.
    pub region: Option<String>,
    /// Hex SHA-256 of the deployed template body.
    pub template_hash: String,
    /// Findings from every resource, in template order, then added children.
    pub findings: Vec<Finding>,
    /// Coverage from the read outcomes (`total`, `checked`, `skipped`, `lost`).
    pub coverage: Coverage,
    /// The resources not compared, each with why (before `accept` rules).
    pub not_compared: Vec<NotCompared>,
    /// AWS calls made while gathering this stack, by `service:Operation`.
    pub api_calls: BTreeMap<String, u64>,
    /// Remarks for the user (a supplement read failed, exports unavailable...).
    pub notes: Vec<String>,
    /// Every template resource with its classify inputs, in template order.
    pub resources: Vec<ResourceRecord>,
    /// The stack context classify ran with.
    pub context: ClassifyContext,
    /// Added child logical id -> the declared parent it was enumerated under.
    pub added_parents: BTreeMap<String, String>,
    /// Nested stacks (their stack ids), to be gathered as stacks of their own.
    pub nested_stacks: Vec<String>,
}

impl GatheredStack {
    /// The baseline stage's view of this run.
    pub fn run_context(&self) -> RunContext {
        RunContext {
            identity: StackIdentity::new(
                &self.stack,
                self.account.as_deref().unwrap_or_default(),
                self.region.as_deref().unwrap_or_default(),
            ),
            template_hash: Some(self.template_hash.clone()),
            resources: self
                .resources
                .iter()
                .map(|r| {
                    (
                        r.logical_id.clone(),
                        ResourceState {
                            resource_type: r.resource_type.clone(),
                            physical_id: r.physical_id.clone(),
                            construct_path: r.construct_path.clone(),
                            read: r.read,
                            declared: r.declared.clone(),
                            children: r.children,
                        },
                    )
                })
                .collect(),
            added_parents: self.added_parents.clone(),
        }
    }

    /// Total AWS calls for this stack.
    pub fn total_api_calls(&self) -> u64 {
        self.api_calls.values().sum()
    }
}
