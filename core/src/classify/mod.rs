//! Classify: one resource's declared properties + live model -> findings.

mod context;

pub use context::{ClassifyContext, ResourceInput, SiblingPolicyNames};

use crate::finding::Finding;
use crate::schema::SchemaFacts;
use serde_json::Value;

/// Classifies one resource. Pure: no I/O, deterministic.
pub fn classify(
    resource: &ResourceInput,
    live: &Value,
    schema: &SchemaFacts,
    ctx: &ClassifyContext,
) -> Vec<Finding> {
    let _ = (resource, live, schema, ctx);
    Vec::new()
}
