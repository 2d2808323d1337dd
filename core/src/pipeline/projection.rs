//! What a per-type reader reads: the declared paths it projects from the
//! service API and the ones it leaves out, so an unread declared value is a
//! `readGap` (lost coverage), never a silent equal.

use crate::declared::DeclaredValue;
use std::collections::BTreeMap;

/// The paths one reader projects, and why it leaves others out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Projection {
    /// The resource type read.
    pub resource_type: &'static str,
    /// Dotted paths the reader fills from the API; a path covers its subtree.
    pub reads: &'static [&'static str],
    /// Why anything else is left out (the API does not return it, or the
    /// reader does not map it yet).
    pub leaves_out: &'static str,
}

impl Projection {
    /// True when the reader fills `path` (or an ancestor of it).
    pub fn covers(&self, path: &str) -> bool {
        self.reads.iter().any(|r| {
            path == *r
                || path
                    .strip_prefix(r)
                    .is_some_and(|rest| rest.starts_with('.'))
        })
    }

    /// True when the reader fills something strictly below `path`.
    fn reads_below(&self, path: &str) -> bool {
        self.reads.iter().any(|r| {
            r.strip_prefix(path)
                .is_some_and(|rest| rest.starts_with('.'))
        })
    }

    /// The declared paths this reader does not fill, each with why: one
    /// `readGap` per unread declared subtree (deepest declared object key).
    pub fn gaps(&self, declared: &BTreeMap<String, DeclaredValue>) -> BTreeMap<String, String> {
        let mut out = BTreeMap::new();
        for (key, value) in declared {
            self.walk(key.clone(), value, &mut out);
        }
        out
    }

    fn walk(&self, path: String, value: &DeclaredValue, out: &mut BTreeMap<String, String>) {
        if self.covers(&path) {
            return;
        }
        match value {
            DeclaredValue::Object(m) if self.reads_below(&path) => {
                for (k, v) in m {
                    self.walk(format!("{path}.{k}"), v, out);
                }
            }
            _ => {
                let why = format!(
                    "the {} reader does not read {path}: {}",
                    self.resource_type, self.leaves_out
                );
                out.insert(path, why);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const P: Projection = Projection {
        resource_type: "AWS::X::Y",
        reads: &["Name", "Source.Type", "Source.Location"],
        leaves_out: "not mapped",
    };

    fn declared(v: serde_json::Value) -> BTreeMap<String, DeclaredValue> {
        match DeclaredValue::from_json(&v) {
            DeclaredValue::Object(m) => m,
            _ => BTreeMap::new(),
        }
    }

    #[test]
    fn unread_declared_paths_are_gaps_at_their_deepest_declared_key() {
        let d = declared(json!({
            "Name": "n",
            "Source": {"Type": "S3", "Auth": {"Type": "OAUTH"}},
            "LogsConfig": {"S3Logs": {"Status": "ENABLED"}}
        }));
        let gaps = P.gaps(&d);
        assert_eq!(
            gaps.keys().cloned().collect::<Vec<_>>(),
            vec!["LogsConfig".to_string(), "Source.Auth".to_string()]
        );
        assert!(gaps["Source.Auth"].contains("AWS::X::Y reader does not read Source.Auth"));
    }

    #[test]
    fn fully_projected_declarations_have_no_gap() {
        let d = declared(json!({"Name": "n", "Source": {"Type": "S3"}}));
        assert!(P.gaps(&d).is_empty());
        assert!(P.covers("Source.Location"));
        assert!(!P.covers("SourceVersion"));
    }
}
