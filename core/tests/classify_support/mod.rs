//! Shared set-up for the classify test files: a resource built from a
//! declared JSON object, as a corpus case holds it.

use realdrift_core::classify::{ClassifyContext, ResourceInput, SiblingPolicyNames};
use realdrift_core::declared::DeclaredValue;
use serde_json::{json, Value};

/// The resource `Res` of stack `Stack`, of type `t`, declaring `declared`.
#[allow(dead_code)]
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

/// Another scalar of the same kind, unlike any default spelling: a boolean
/// flipped, a number doubled plus 7, a string prefixed `changed-`.
#[allow(dead_code)]
pub fn changed_scalar(v: &Value) -> Option<Value> {
    match v {
        Value::Bool(b) => Some(json!(!b)),
        Value::Number(n) => match n.as_i64() {
            Some(i) => Some(json!(i * 2 + 7)),
            None => n.as_f64().map(|f| json!(f * 2.0 + 7.0)),
        },
        Value::String(s) if !s.is_empty() => Some(json!(format!("changed-{s}"))),
        _ => None,
    }
}
