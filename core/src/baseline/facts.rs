//! Baseline facts about AWS, loaded from `core/data/baseline-tracking.json`.
//!
//! Which generated values may be recorded, which content hashes are voided by
//! a redeployed declared source, and which defaults are watched for deletion.

use crate::declared::DeclaredValue;
use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// A generated-tier path that record may snapshot.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RecordableGenerated {
    /// Resource type.
    pub resource_type: String,
    /// Top-level property path.
    pub path: String,
    /// Why it is recordable.
    pub reason: String,
}

/// A content hash derived from declared source properties.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SourceFingerprint {
    /// Resource type.
    pub resource_type: String,
    /// The hash property path.
    pub path: String,
    /// Dotted declared paths the hash is derived from, in order.
    pub sources: Vec<String>,
    /// Why a source change voids the recorded hash.
    pub reason: String,
}

/// A path tracked for out-of-band deletion while at its default.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TrackedDefault {
    /// Resource type.
    pub resource_type: String,
    /// Top-level property path.
    pub path: String,
    /// The default value (what revert re-adds).
    pub default: Value,
    /// Why it is tracked.
    pub reason: String,
}

/// All baseline facts.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BaselineFacts {
    /// Recordable generated paths.
    pub recordable_generated: Vec<RecordableGenerated>,
    /// Fingerprinted content hashes.
    pub source_fingerprints: Vec<SourceFingerprint>,
    /// Defaults watched for deletion.
    pub observed_defaults: Vec<TrackedDefault>,
}

const DATA: &str = include_str!("../../data/baseline-tracking.json");

/// The bundled facts (parsed once).
pub fn facts() -> &'static BaselineFacts {
    static FACTS: OnceLock<BaselineFacts> = OnceLock::new();
    FACTS.get_or_init(|| {
        // Bundled at compile time and checked by a unit test: a parse failure
        // is a build defect, not bad input.
        serde_json::from_str(DATA).expect("core/data/baseline-tracking.json is valid")
    })
}

impl BaselineFacts {
    /// True when record may snapshot this generated path.
    pub fn is_recordable_generated(&self, resource_type: &str, path: &str) -> bool {
        self.recordable_generated
            .iter()
            .any(|r| r.resource_type == resource_type && r.path == path)
    }

    /// The fingerprint fact for a hash path, if any.
    pub fn fingerprint_for(&self, resource_type: &str, path: &str) -> Option<&SourceFingerprint> {
        self.source_fingerprints
            .iter()
            .find(|r| r.resource_type == resource_type && r.path == path)
    }

    /// The tracked default of a path, if it is tracked.
    pub fn tracked_default(&self, resource_type: &str, path: &str) -> Option<&TrackedDefault> {
        self.observed_defaults
            .iter()
            .find(|r| r.resource_type == resource_type && r.path == path)
    }
}

/// The declared value at a dotted path (object keys only).
pub fn declared_at<'a>(
    declared: &'a BTreeMap<String, DeclaredValue>,
    path: &str,
) -> Option<&'a DeclaredValue> {
    let mut parts = path.split('.');
    let mut cur = declared.get(parts.next()?)?;
    for part in parts {
        cur = match cur {
            DeclaredValue::Object(m) => m.get(part)?,
            DeclaredValue::Array(a) => a.get(part.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(cur)
}

/// The fingerprint of a hash's declared source, or `None` when it cannot be
/// established (absent or unresolvable: a missing fingerprint never voids).
pub fn source_fingerprint(
    declared: &BTreeMap<String, DeclaredValue>,
    fact: &SourceFingerprint,
) -> Option<String> {
    let mut members = Vec::with_capacity(fact.sources.len());
    let mut any_present = false;
    for source in &fact.sources {
        match declared_at(declared, source) {
            // Fail safe: a partly unresolved source could differ only by
            // resolution, which must not void a recorded hash.
            Some(v) => {
                members.push(v.to_json()?);
                any_present = true;
            }
            // An absent optional member keeps its position.
            None => members.push(Value::Null),
        }
    }
    if !any_present {
        return None;
    }
    let value = if members.len() == 1 {
        members.remove(0)
    } else {
        Value::Array(members)
    };
    Some(super::json::deep_hash(&value))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn decl(v: Value) -> BTreeMap<String, DeclaredValue> {
        match DeclaredValue::from_corpus_json(&v) {
            DeclaredValue::Object(m) => m,
            _ => BTreeMap::new(),
        }
    }

    #[test]
    fn bundled_facts_parse_and_have_reasons() {
        let f = facts();
        assert!(f.is_recordable_generated("AWS::Lambda::Function", "CodeSha256"));
        assert!(!f.is_recordable_generated("AWS::Lambda::Version", "CodeSha256"));
        for r in &f.source_fingerprints {
            assert!(!r.reason.trim().is_empty() && !r.sources.is_empty());
        }
        assert!(f
            .tracked_default("AWS::S3::Bucket", "PublicAccessBlockConfiguration")
            .is_some());
    }

    #[test]
    fn fingerprint_follows_source_and_fails_safe() {
        let f = facts();
        let lambda = f
            .fingerprint_for("AWS::Lambda::Function", "CodeSha256")
            .unwrap();
        let a = decl(json!({"Code": {"S3Bucket": "b", "S3Key": "1.zip"}}));
        let b = decl(json!({"Code": {"S3Bucket": "b", "S3Key": "2.zip"}}));
        assert_ne!(
            source_fingerprint(&a, lambda),
            source_fingerprint(&b, lambda)
        );
        assert!(source_fingerprint(&a, lambda).is_some());
        let unresolved = decl(json!({"Code": {"S3Bucket": "__cdkrd_corpus_unresolved__"}}));
        assert_eq!(source_fingerprint(&unresolved, lambda), None);
        assert_eq!(source_fingerprint(&decl(json!({})), lambda), None);
    }

    #[test]
    fn tuple_fingerprint_keeps_absent_members_positional() {
        let f = facts();
        let ts = f
            .fingerprint_for(
                "AWS::ElasticLoadBalancingV2::TrustStore",
                "CaCertificatesBundleSha256",
            )
            .unwrap();
        let a =
            decl(json!({"CaCertificatesBundleS3Bucket": "b", "CaCertificatesBundleS3Key": "k"}));
        let b = decl(
            json!({"CaCertificatesBundleS3Bucket": "b", "CaCertificatesBundleS3ObjectVersion": "k"}),
        );
        assert!(source_fingerprint(&a, ts).is_some());
        assert_ne!(source_fingerprint(&a, ts), source_fingerprint(&b, ts));
    }
}
