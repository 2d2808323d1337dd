//! Classify: one resource's declared properties + live model -> findings.
//!
//! Orchestration only: the live model is prepared (schema read-only /
//! write-only strip, managed fields, `aws:*` and propagated stack tags,
//! sibling-owned entries), then the declared loop compares every declared
//! property and the undeclared loop sorts every other live value into
//! `atDefault` / `generated` / dropped / `undeclared`.

mod compare;
mod context;
mod declared;
mod defaults;
mod emit;
mod keyed;
mod matching;
mod nested;
mod order;
mod prepare;
mod read_back;
mod scope;
mod sibling_rules;
mod siblings;
mod substitutions;
mod transformed;
mod undeclared;

use crate::normalize::aws_facts::facts_for;
pub use crate::normalize::aws_facts::{AwsFacts, Knowledge};
pub use context::{ClassifyContext, ResourceInput, SiblingPolicyNames};

use crate::finding::Finding;
use crate::schema::SchemaFacts;
use serde_json::Value;

/// Classifies one resource with every fact. Pure: no I/O, deterministic.
pub fn classify(
    resource: &ResourceInput,
    live: &Value,
    schema: &SchemaFacts,
    ctx: &ClassifyContext,
) -> Vec<Finding> {
    classify_with(resource, live, schema, ctx, Knowledge::All)
}

/// Classifies one resource using the facts `knowledge` admits (the corpus
/// replay measures general knowledge alone with `WithoutObserved`).
pub fn classify_with(
    resource: &ResourceInput,
    live: &Value,
    schema: &SchemaFacts,
    ctx: &ClassifyContext,
    knowledge: Knowledge,
) -> Vec<Finding> {
    classify_in(resource, live, schema, ctx, facts_for(knowledge))
}

/// Classifies one resource against an explicit fact registry (the corpus
/// hold-out replay builds one without the facts a case's own stack
/// supplied).
pub fn classify_in(
    resource: &ResourceInput,
    live: &Value,
    schema: &SchemaFacts,
    ctx: &ClassifyContext,
    facts: &AwsFacts,
) -> Vec<Finding> {
    let scope = scope::Scope::new(resource, schema, ctx, facts);
    let mut out = emit::Out::new(&scope);
    let empty = serde_json::Map::new();
    let raw_live = live.as_object().unwrap_or(&empty);
    let live = prepare::prepare_live(&scope, raw_live);
    let consumed = declared::run(&scope, &live, &mut out);
    undeclared::run(&scope, &live, &consumed, &mut out);
    order::run(&scope, raw_live, &mut out);
    order::run_keyed(&scope, raw_live, &mut out);
    out.findings
}
