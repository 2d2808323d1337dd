//! Shared set-up for the classify test files: a resource built from a
//! declared JSON object, as a corpus case holds it.

use realdrift_core::classify::{ClassifyContext, ResourceInput, SiblingPolicyNames};
use realdrift_core::declared::DeclaredValue;
use serde_json::Value;

/// The resource `Res` of stack `Stack`, of type `t`, declaring `declared`.
pub fn resource_with_id(t: &str, physical_id: &str, declared: &Value) -> ResourceInput {
    ResourceInput {
        logical_id: "Res".into(),
        resource_type: t.into(),
        physical_id: Some(physical_id.into()),
        construct_path: Some("Stack/Res".into()),
        declared: declared
            .as_object()
            .map(|o| {
                o.iter()
                    .map(|(k, v)| (k.clone(), DeclaredValue::from_corpus_json(v)))
                    .collect()
            })
            .unwrap_or_default(),
        sibling_policy_names: SiblingPolicyNames::None,
    }
}

/// A run in account 123456789012, region eu-central-1, stack `Stack`.
#[allow(dead_code)]
pub fn context() -> ClassifyContext {
    ClassifyContext {
        account_id: Some("123456789012".into()),
        region: Some("eu-central-1".into()),
        stack_name: Some("Stack".into()),
        ..ClassifyContext::default()
    }
}
