//! Declared-side values: JSON plus a distinct UNRESOLVED marker.

use serde_json::{Map, Number, Value};
use std::collections::BTreeMap;

/// The string the golden corpus uses to store an unresolved declared value.
pub const CORPUS_UNRESOLVED_MARKER: &str = "__cdkrd_corpus_unresolved__";

/// A template value after intrinsic resolution.
///
/// `Unresolved` is its own variant, so no template string can ever be
/// mistaken for it (fail-closed: an unresolved value is never compared).
#[derive(Debug, Clone, PartialEq)]
pub enum DeclaredValue {
    /// JSON null.
    Null,
    /// JSON boolean.
    Bool(bool),
    /// JSON number.
    Number(Number),
    /// JSON string.
    String(String),
    /// JSON array.
    Array(Vec<DeclaredValue>),
    /// JSON object.
    Object(BTreeMap<String, DeclaredValue>),
    /// A value the resolver could not determine with certainty.
    Unresolved,
}

impl DeclaredValue {
    /// Converts plain JSON (no unresolved parts).
    pub fn from_json(v: &Value) -> Self {
        Self::convert(v, false)
    }

    /// Converts corpus JSON, mapping the corpus marker string to `Unresolved`.
    pub fn from_corpus_json(v: &Value) -> Self {
        Self::convert(v, true)
    }

    fn convert(v: &Value, corpus: bool) -> Self {
        match v {
            Value::Null => DeclaredValue::Null,
            Value::Bool(b) => DeclaredValue::Bool(*b),
            Value::Number(n) => DeclaredValue::Number(n.clone()),
            Value::String(s) if corpus && s == CORPUS_UNRESOLVED_MARKER => {
                DeclaredValue::Unresolved
            }
            Value::String(s) => DeclaredValue::String(s.clone()),
            Value::Array(a) => {
                DeclaredValue::Array(a.iter().map(|x| Self::convert(x, corpus)).collect())
            }
            Value::Object(o) => DeclaredValue::Object(
                o.iter()
                    .map(|(k, x)| (k.clone(), Self::convert(x, corpus)))
                    .collect(),
            ),
        }
    }

    /// True when no part of the value is `Unresolved`.
    pub fn is_fully_resolved(&self) -> bool {
        match self {
            DeclaredValue::Unresolved => false,
            DeclaredValue::Array(a) => a.iter().all(Self::is_fully_resolved),
            DeclaredValue::Object(o) => o.values().all(Self::is_fully_resolved),
            _ => true,
        }
    }

    /// The JSON form, or `None` when any part is unresolved.
    pub fn to_json(&self) -> Option<Value> {
        Some(match self {
            DeclaredValue::Null => Value::Null,
            DeclaredValue::Bool(b) => Value::Bool(*b),
            DeclaredValue::Number(n) => Value::Number(n.clone()),
            DeclaredValue::String(s) => Value::String(s.clone()),
            DeclaredValue::Array(a) => {
                Value::Array(a.iter().map(Self::to_json).collect::<Option<Vec<_>>>()?)
            }
            DeclaredValue::Object(o) => {
                let mut m = Map::new();
                for (k, x) in o {
                    m.insert(k.clone(), x.to_json()?);
                }
                Value::Object(m)
            }
            DeclaredValue::Unresolved => return None,
        })
    }

    /// The JSON form with unresolved parts written as the corpus marker.
    pub fn to_corpus_json(&self) -> Value {
        match self {
            DeclaredValue::Unresolved => Value::String(CORPUS_UNRESOLVED_MARKER.to_string()),
            DeclaredValue::Array(a) => Value::Array(a.iter().map(Self::to_corpus_json).collect()),
            DeclaredValue::Object(o) => Value::Object(
                o.iter()
                    .map(|(k, x)| (k.clone(), x.to_corpus_json()))
                    .collect(),
            ),
            other => other.to_json().unwrap_or(Value::Null),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn corpus_marker_becomes_unresolved_and_blocks_json() {
        let v = DeclaredValue::from_corpus_json(&json!({"a": [1, CORPUS_UNRESOLVED_MARKER]}));
        assert!(!v.is_fully_resolved());
        assert_eq!(v.to_json(), None);
        assert_eq!(
            v.to_corpus_json(),
            json!({"a": [1, CORPUS_UNRESOLVED_MARKER]})
        );
    }

    #[test]
    fn plain_json_marker_string_stays_a_string() {
        let v = DeclaredValue::from_json(&json!(CORPUS_UNRESOLVED_MARKER));
        assert!(v.is_fully_resolved());
    }
}
