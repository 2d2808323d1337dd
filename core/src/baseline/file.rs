//! The baseline file model (schemaVersion 2 of seed 000 §8) and its text form.
//!
//! Loading accepts schemaVersion 1 and files written by cdk-real-drift as they
//! are; fields this engine does not know are kept and written back on rewrite.
//! Writing is diff-friendly: sorted keys, sorted entries, 2-space indent and a
//! trailing newline, so a git diff shows only what changed.

use super::error::BaselineError;
use super::json::sort_keys;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// The schema version this engine writes.
pub const SCHEMA_VERSION: u64 = 2;

/// One accepted undeclared value (an empty `path` records a whole added resource).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RecordedEntry {
    /// Logical id (a synthesized id for an added child resource).
    pub logical_id: String,
    /// Resource type at record time.
    pub resource_type: String,
    /// Dotted property path; empty for a whole added resource.
    pub path: String,
    /// The live value accepted at record time.
    pub value: Value,
    /// Fields this engine does not know, kept verbatim.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl RecordedEntry {
    /// The entry's identity: logical id and path.
    pub fn key(&self) -> (String, String) {
        (self.logical_id.clone(), self.path.clone())
    }

    /// The key under which `recordedSourceFingerprints` stores this entry.
    pub fn fingerprint_key(&self) -> String {
        fingerprint_key(&self.logical_id, &self.path)
    }
}

/// The `recordedSourceFingerprints` key of a logical id and path.
pub fn fingerprint_key(logical_id: &str, path: &str) -> String {
    format!("{logical_id}::{path}")
}

/// A resource reference (`enumeratedParents`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceRef {
    /// Logical id.
    pub logical_id: String,
    /// Resource type.
    pub resource_type: String,
    /// Fields this engine does not know, kept verbatim.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A tracked path observed at its AWS default at record time (`observedDefaults`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ObservedDefault {
    /// Logical id.
    pub logical_id: String,
    /// Resource type.
    pub resource_type: String,
    /// Top-level property path.
    pub path: String,
    /// Fields this engine does not know, kept verbatim.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A baseline file: the undeclared state a team accepted for one stack.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BaselineFile {
    /// 1 or 2 when read; always [`SCHEMA_VERSION`] when written by record.
    #[serde(default = "v1")]
    pub schema_version: u64,
    /// CloudFormation stack name.
    pub stack_name: String,
    /// Region of the stack.
    pub region: String,
    /// Account the baseline was captured in (absent in pre-release files).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub account_id: Option<String>,
    /// ISO 8601 capture time.
    #[serde(default)]
    pub captured_at: String,
    /// Hash of the deployed template at capture.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub template_hash: Option<String>,
    /// The accepted values.
    #[serde(default)]
    pub recorded: Vec<RecordedEntry>,
    /// Resources the record snapshot fully covered; `None` in v1 files (nothing complete).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub complete_resources: Option<Vec<String>>,
    /// Physical id each recorded or complete resource was captured against.
    #[serde(default)]
    pub recorded_physical_ids: BTreeMap<String, String>,
    /// `<logicalId>::<path>` -> hash of the declared source of a content hash.
    #[serde(default)]
    pub recorded_source_fingerprints: BTreeMap<String, String>,
    /// Tracked paths observed at their default at record time.
    #[serde(default)]
    pub observed_defaults: Vec<ObservedDefault>,
    /// Parents whose child inventory was recorded complete.
    #[serde(default)]
    pub enumerated_parents: Vec<ResourceRef>,
    /// Written by a record that snapshots create-only values (`atDefault`
    /// with `createOnly`); a file without it holds none, so a create-only
    /// value missing from it is not judged.
    #[serde(default, skip_serializing_if = "crate::finding::is_false")]
    pub create_only_recorded: bool,
    /// Top-level fields this engine does not know, kept verbatim.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

fn v1() -> u64 {
    1
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct VersionProbe {
    #[serde(default = "v1")]
    schema_version: u64,
}

impl BaselineFile {
    /// An empty baseline for a stack (nothing recorded, nothing complete).
    pub fn empty(stack_name: &str, account_id: &str, region: &str) -> Self {
        BaselineFile {
            schema_version: SCHEMA_VERSION,
            stack_name: stack_name.to_string(),
            region: region.to_string(),
            account_id: Some(account_id.to_string()),
            captured_at: String::new(),
            template_hash: None,
            recorded: Vec::new(),
            complete_resources: Some(Vec::new()),
            recorded_physical_ids: BTreeMap::new(),
            recorded_source_fingerprints: BTreeMap::new(),
            observed_defaults: Vec::new(),
            enumerated_parents: Vec::new(),
            create_only_recorded: true,
            extra: Map::new(),
        }
    }

    /// Parses baseline text; `name` (file or key) is used in errors.
    pub fn parse(name: &str, text: &str) -> Result<Self, BaselineError> {
        let parse_err = |source| BaselineError::Parse {
            name: name.to_string(),
            source,
        };
        let probe: VersionProbe = serde_json::from_str(text).map_err(parse_err)?;
        if !(1..=SCHEMA_VERSION).contains(&probe.schema_version) {
            return Err(BaselineError::UnsupportedVersion {
                name: name.to_string(),
                version: probe.schema_version,
            });
        }
        serde_json::from_str(text).map_err(parse_err)
    }

    /// True when the file predates `completeResources` (nothing is complete).
    pub fn is_legacy(&self) -> bool {
        self.complete_resources.is_none()
    }

    /// True when the record snapshot fully covered `logical_id`.
    pub fn is_complete(&self, logical_id: &str) -> bool {
        self.complete_resources
            .as_ref()
            .is_some_and(|c| c.iter().any(|id| id == logical_id))
    }

    /// The diff-friendly text form: sorted keys and entries, 2-space indent,
    /// trailing newline, unsafe characters escaped.
    pub fn to_text(&self) -> String {
        let mut canonical = self.clone();
        canonical.normalize_order();
        // Serializing plain data (string keys, JSON values) cannot fail.
        let value = serde_json::to_value(&canonical).unwrap_or(Value::Null);
        let text =
            serde_json::to_string_pretty(&sort_keys(&value)).unwrap_or_else(|_| "null".into());
        // Controls, bidi and zero-width characters as `\uXXXX`: the file is
        // reviewed as a diff, where raw ones could show misleading text.
        let mut text = crate::report::escape_json_text(&text);
        text.push('\n');
        text
    }

    /// Sorts and dedupes every list, so equal content always writes equal bytes.
    pub fn normalize_order(&mut self) {
        let mut seen = std::collections::BTreeSet::new();
        self.recorded.retain(|e| seen.insert(e.key()));
        self.recorded.sort_by(|a, b| {
            (&a.logical_id, &a.path, &a.resource_type).cmp(&(
                &b.logical_id,
                &b.path,
                &b.resource_type,
            ))
        });
        if let Some(c) = self.complete_resources.as_mut() {
            c.sort();
            c.dedup();
        }
        let mut seen = std::collections::BTreeSet::new();
        self.observed_defaults
            .retain(|o| seen.insert((o.logical_id.clone(), o.path.clone())));
        self.observed_defaults
            .sort_by(|a, b| (&a.logical_id, &a.path).cmp(&(&b.logical_id, &b.path)));
        let mut seen = std::collections::BTreeSet::new();
        self.enumerated_parents
            .retain(|p| seen.insert(p.logical_id.clone()));
        self.enumerated_parents
            .sort_by(|a, b| a.logical_id.cmp(&b.logical_id));
    }
}

/// The file name of a stack's baseline: `<stack>.<accountId>.<region>.json`.
pub fn file_name(stack: &str, account_id: &str, region: &str) -> Result<String, BaselineError> {
    check_name_part("stack", stack)?;
    check_name_part("account", account_id)?;
    check_name_part("region", region)?;
    Ok(format!("{stack}.{account_id}.{region}.json"))
}

fn check_name_part(what: &'static str, value: &str) -> Result<(), BaselineError> {
    let bad = |reason| {
        Err(BaselineError::BadName {
            what,
            value: value.to_string(),
            reason,
        })
    };
    if value.is_empty() {
        return bad("empty");
    }
    if value.starts_with('.') {
        return bad("starts with a dot");
    }
    // The name becomes a path component and an S3 key: only the characters
    // CloudFormation allows in stack names, account ids and regions.
    if !value
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.')
    {
        return bad("only letters, digits, '-', '_' and '.' are allowed");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn unknown_version_is_refused() {
        let err = BaselineFile::parse(
            "x.json",
            r#"{"schemaVersion": 3, "stackName": "S", "region": "r"}"#,
        )
        .unwrap_err();
        assert!(matches!(
            err,
            BaselineError::UnsupportedVersion { version: 3, .. }
        ));
    }

    #[test]
    fn parse_error_names_line_and_column() {
        let err = BaselineFile::parse(
            "S.1.r.json",
            "{\n  \"schemaVersion\": 2,\n  \"stackName\": 5\n}",
        )
        .unwrap_err();
        let msg = err.to_string();
        assert!(
            msg.contains("S.1.r.json") && msg.contains("line 3"),
            "{msg}"
        );
    }

    #[test]
    fn file_name_rejects_path_tricks() {
        assert_eq!(
            file_name("Prod-App", "111111111111", "eu-west-1").unwrap(),
            "Prod-App.111111111111.eu-west-1.json"
        );
        assert!(file_name("../etc", "1", "r").is_err());
        assert!(file_name("a/b", "1", "r").is_err());
        assert!(file_name("S", "", "r").is_err());
    }

    #[test]
    fn text_is_sorted_and_ends_with_newline() {
        let mut b = BaselineFile::empty("S", "1", "r");
        b.recorded.push(RecordedEntry {
            logical_id: "B".into(),
            resource_type: "T".into(),
            path: "P".into(),
            value: json!({"z": 1, "a": 2}),
            extra: Map::new(),
        });
        b.recorded.push(RecordedEntry {
            logical_id: "A".into(),
            resource_type: "T".into(),
            path: "P".into(),
            value: json!(1),
            extra: Map::new(),
        });
        let text = b.to_text();
        assert!(text.ends_with("}\n"));
        assert!(text.find("\"A\"").unwrap() < text.find("\"B\"").unwrap());
        assert!(text.find("\"a\": 2").unwrap() < text.find("\"z\": 1").unwrap());
        assert!(text.contains("\n  \"recorded\": ["), "2-space indent");
    }

    #[test]
    fn unsafe_characters_are_written_as_escapes() {
        let hostile = "a\u{202e}b\u{2066}c\u{200b}d\u{feff}e\u{2028}f\u{85}g\u{7f}h\u{1b}i";
        let mut b = BaselineFile::empty("S", "1", "r");
        b.recorded.push(RecordedEntry {
            logical_id: "L".into(),
            resource_type: "T".into(),
            path: format!("Tags.{hostile}"),
            value: json!({ hostile: hostile }),
            extra: Map::new(),
        });
        let text = b.to_text();
        assert!(
            !text
                .chars()
                .any(|c| c != '\n' && crate::report::is_unsafe_char(c)),
            "raw unsafe character in {text:?}"
        );
        assert!(text.contains("a\\u202eb\\u2066c"), "{text}");
        assert_eq!(BaselineFile::parse("S.1.r.json", &text).unwrap(), b);
    }
}
