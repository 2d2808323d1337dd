//! Revert facts as data: which writer applies what Cloud Control cannot
//! (`core/data/revert-writers.json`), explicit default writes, preserved tag
//! keys and write-only properties never re-sent (`core/data/revert-rules.json`).

use super::model::Writer;
use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// A resource type a service writer applies whole.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TypeWriter {
    /// Resource type.
    #[serde(rename = "type")]
    pub resource_type: String,
    /// The writer.
    pub writer: Writer,
    /// The declared property naming what the policy is written on, if any.
    #[serde(default)]
    pub targets: Option<String>,
    /// Top-level properties whose drift the writer converges.
    pub writes: Vec<String>,
    /// Whether the writer can remove an out-of-band instance of the type.
    pub delete: bool,
    /// Declared properties the writer does not write, with why (named in the refusal).
    #[serde(default)]
    pub refuses: BTreeMap<String, String>,
    /// Where the fact comes from.
    pub source: String,
    /// Why the writer is needed.
    pub reason: String,
}

/// One top-level property of a Cloud Control type that a service writer applies.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PropertyWriter {
    /// Resource type.
    #[serde(rename = "type")]
    pub resource_type: String,
    /// Top-level property.
    pub property: String,
    /// The writer.
    pub writer: Writer,
    /// The element field entries are addressed by.
    pub identity: String,
    /// Where the fact comes from.
    pub source: String,
    /// Why the writer is needed.
    pub reason: String,
}

#[derive(Debug, Clone, Deserialize)]
struct WriterTable {
    types: Vec<TypeWriter>,
    properties: Vec<PropertyWriter>,
}

/// A removal that must write a documented default.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExplicitDefault {
    /// Resource type.
    #[serde(rename = "type")]
    pub resource_type: String,
    /// Dotted path.
    pub path: String,
    /// The documented default.
    pub value: Value,
    /// Where the value comes from.
    pub source: String,
    /// Why a remove does not converge.
    pub reason: String,
}

/// A tag key a tag revert keeps.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PreservedTag {
    /// Keys with this prefix.
    #[serde(default)]
    pub prefix: Option<String>,
    /// This exact key.
    #[serde(default)]
    pub key: Option<String>,
    /// Where the fact comes from.
    pub source: String,
    /// Why the key survives.
    pub reason: String,
}

/// A write-only property a patch must not re-send.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct KeepOmitted {
    /// Resource type.
    #[serde(rename = "type")]
    pub resource_type: String,
    /// Top-level property.
    pub property: String,
    /// Where the fact comes from.
    pub source: String,
    /// Why it is not re-sent.
    pub reason: String,
}

/// An error code a revert write retries until its deadline.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TransientCode {
    /// The service error code or Cloud Control handler error code.
    pub code: String,
    /// Where the fact comes from.
    pub source: String,
    /// Why waiting helps.
    pub reason: String,
}

#[derive(Debug, Clone, Deserialize)]
struct TransientTable {
    codes: Vec<TransientCode>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
struct RuleTable {
    explicit_defaults: Vec<ExplicitDefault>,
    preserved_tag_keys: Vec<PreservedTag>,
    keep_omitted_write_only: Vec<KeepOmitted>,
}

/// All revert facts.
#[derive(Debug, Clone)]
pub struct RevertFacts {
    /// Types written whole by a service writer.
    pub type_writers: Vec<TypeWriter>,
    /// Properties written by a service writer.
    pub property_writers: Vec<PropertyWriter>,
    /// Removals written as a documented default.
    pub explicit_defaults: Vec<ExplicitDefault>,
    /// Tag keys a tag revert keeps.
    pub preserved_tags: Vec<PreservedTag>,
    /// Write-only properties never re-sent.
    pub keep_omitted: Vec<KeepOmitted>,
    /// Error codes a write retries until its deadline.
    pub transient: Vec<TransientCode>,
}

const WRITERS: &str = include_str!("../../data/revert-writers.json");
const RULES: &str = include_str!("../../data/revert-rules.json");
const TRANSIENT: &str = include_str!("../../data/revert-transient.json");

/// The bundled facts (parsed once).
pub fn revert_facts() -> &'static RevertFacts {
    static FACTS: OnceLock<RevertFacts> = OnceLock::new();
    FACTS.get_or_init(|| {
        // Bundled at compile time and checked by a unit test: a parse failure
        // is a build defect, not bad input.
        let w: WriterTable =
            serde_json::from_str(WRITERS).expect("core/data/revert-writers.json is valid");
        let r: RuleTable =
            serde_json::from_str(RULES).expect("core/data/revert-rules.json is valid");
        let t: TransientTable =
            serde_json::from_str(TRANSIENT).expect("core/data/revert-transient.json is valid");
        RevertFacts {
            type_writers: w.types,
            property_writers: w.properties,
            explicit_defaults: r.explicit_defaults,
            preserved_tags: r.preserved_tag_keys,
            keep_omitted: r.keep_omitted_write_only,
            transient: t.codes,
        }
    })
}

impl RevertFacts {
    /// The service writer that applies a whole type, if any.
    pub fn type_writer(&self, resource_type: &str) -> Option<&TypeWriter> {
        self.type_writers
            .iter()
            .find(|w| w.resource_type == resource_type)
    }

    /// The service writer of one top-level property, if any.
    pub fn property_writer(&self, resource_type: &str, property: &str) -> Option<&PropertyWriter> {
        self.property_writers
            .iter()
            .find(|w| w.resource_type == resource_type && w.property == property)
    }

    /// The documented default a removal at `path` must write, if the service ignores omission.
    pub fn explicit_default(&self, resource_type: &str, path: &str) -> Option<&ExplicitDefault> {
        self.explicit_defaults
            .iter()
            .find(|d| d.resource_type == resource_type && d.path == path)
    }

    /// True when a tag revert keeps this key.
    pub fn is_preserved_tag(&self, key: &str) -> bool {
        self.preserved_tags.iter().any(|p| {
            p.prefix.as_deref().is_some_and(|pre| key.starts_with(pre))
                || p.key.as_deref() == Some(key)
        })
    }

    /// True when a write failing with this error code is retried until its deadline.
    pub fn is_transient(&self, code: &str) -> bool {
        self.transient.iter().any(|t| t.code == code)
    }

    /// True when a write-only property must not be re-sent.
    pub fn keeps_omitted(&self, resource_type: &str, property: &str) -> bool {
        self.keep_omitted
            .iter()
            .any(|k| k.resource_type == resource_type && k.property == property)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bundled_tables_parse_and_every_entry_is_sourced() {
        let f = revert_facts();
        assert!(!f.type_writers.is_empty() && !f.explicit_defaults.is_empty());
        let sourced = |s: &str, r: &str| !s.trim().is_empty() && !r.trim().is_empty();
        assert!(f.type_writers.iter().all(|w| sourced(&w.source, &w.reason)));
        assert!(f
            .property_writers
            .iter()
            .all(|w| sourced(&w.source, &w.reason)));
        assert!(f
            .explicit_defaults
            .iter()
            .all(|d| sourced(&d.source, &d.reason)));
        assert!(f
            .preserved_tags
            .iter()
            .all(|t| sourced(&t.source, &t.reason) && (t.prefix.is_some() != t.key.is_some())));
        assert!(f.keep_omitted.iter().all(|k| sourced(&k.source, &k.reason)));
        assert!(f.transient.iter().all(|t| sourced(&t.source, &t.reason)));
        // A property is either written or refused with a reason, never both.
        assert!(f.type_writers.iter().all(|w| w
            .refuses
            .iter()
            .all(|(p, why)| !why.trim().is_empty() && !w.writes.contains(p))));
        // Cloud Control is never a service writer.
        assert!(f
            .type_writers
            .iter()
            .all(|w| w.writer != Writer::CloudControl));
    }

    #[test]
    fn lookups_find_the_curated_entries() {
        let f = revert_facts();
        assert_eq!(
            f.type_writer("AWS::S3::BucketPolicy").map(|w| w.writer),
            Some(Writer::S3BucketPolicy)
        );
        assert!(f.property_writer("AWS::IAM::Role", "Policies").is_some());
        assert!(f.property_writer("AWS::IAM::Role", "Tags").is_none());
        assert_eq!(
            f.explicit_default("AWS::IAM::Role", "MaxSessionDuration")
                .map(|d| &d.value),
            Some(&serde_json::json!(3600))
        );
        assert!(f.is_preserved_tag("aws:cloudformation:stack-name"));
        assert!(f.is_preserved_tag("AmazonECSManaged"));
        assert!(!f.is_preserved_tag("team"));
        assert!(f.keeps_omitted("AWS::Lambda::Function", "Code"));
        assert!(f.is_transient("NotStabilized") && f.is_transient("ThrottlingException"));
        assert!(!f.is_transient("ValidationException") && !f.is_transient("AccessDenied"));
    }
}
