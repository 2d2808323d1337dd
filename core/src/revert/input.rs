//! What the planner reads: one stack's checked findings (after baseline and
//! ignore rules) plus, per resource, what the pipeline already gathered.

use crate::declared::DeclaredValue;
use crate::finding::Finding;
use crate::pipeline::{GatheredStack, ResourceRecord};
use crate::report::StackReport;
use crate::schema::SchemaFacts;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// One resource as the planner sees it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RevertResource {
    /// Logical id.
    pub logical_id: String,
    /// Resource type.
    pub resource_type: String,
    /// Physical id, when known.
    pub physical_id: Option<String>,
    /// Declared properties after the final resolve pass.
    pub declared: BTreeMap<String, DeclaredValue>,
    /// The raw live model (what Cloud Control reads and patches), when read.
    pub live: Option<Value>,
    /// Schema facts, when known.
    pub schema: Option<Arc<SchemaFacts>>,
    /// Declared paths holding a secret (NoEcho parameter, `{{resolve:...}}`).
    pub secret_paths: BTreeSet<String>,
}

impl From<&ResourceRecord> for RevertResource {
    fn from(r: &ResourceRecord) -> Self {
        RevertResource {
            logical_id: r.logical_id.clone(),
            resource_type: r.resource_type.clone(),
            physical_id: r.physical_id.clone(),
            declared: r.declared.clone(),
            live: r.live.clone(),
            schema: r.schema.clone(),
            secret_paths: r.secret_paths.clone(),
        }
    }
}

/// Everything one plan is built from.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PlanInput {
    /// Stack name.
    pub stack: String,
    /// Account id, when known.
    pub account: Option<String>,
    /// Region, when known.
    pub region: Option<String>,
    /// The stack's checked findings.
    pub findings: Vec<Finding>,
    /// The stack's resources (template resources, and out-of-band children when known).
    pub resources: Vec<RevertResource>,
    /// Stack-level tags CloudFormation propagates onto resources (kept by tag reverts).
    pub stack_tags: BTreeMap<String, String>,
}

/// What the caller asks for.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PlanOptions {
    /// Remove live-only values (and delete out-of-band resources) nobody recorded.
    pub remove_unrecorded: bool,
    /// Only these item ids; `None` selects every revertable item.
    pub select: Option<BTreeSet<String>>,
}

impl PlanInput {
    /// The input of one checked stack: the report's findings (after the
    /// baseline and the ignore rules) and what the gather read.
    pub fn from_checked(report: &StackReport, g: &GatheredStack) -> PlanInput {
        PlanInput {
            stack: g.stack.clone(),
            account: g.account.clone(),
            region: g.region.clone(),
            findings: report.findings.clone(),
            resources: g.resources.iter().map(RevertResource::from).collect(),
            stack_tags: g.context.stack_tags.clone(),
        }
    }
}
