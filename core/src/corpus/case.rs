//! The corpus case file format (corpusVersion 1).

use crate::finding::Finding;
use crate::schema::SchemaFacts;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};

/// Errors loading corpus cases.
#[derive(Debug, thiserror::Error)]
pub enum CorpusError {
    /// A file or directory could not be read.
    #[error("{path}: {source}")]
    Io {
        /// The path that failed.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// A case file is not valid JSON or not in the case format.
    #[error("{path}: {source}")]
    Parse {
        /// The case file.
        path: PathBuf,
        /// The underlying error (with line and column).
        source: serde_json::Error,
    },
    /// The case declares a corpus version this engine does not read.
    #[error("{path}: unsupported corpusVersion {version}")]
    Version {
        /// The case file.
        path: PathBuf,
        /// The version found.
        version: u64,
    },
}

/// The resource block of a case.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CorpusResource {
    /// CloudFormation logical id.
    pub logical_id: String,
    /// Resource type.
    pub resource_type: String,
    /// Physical id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub physical_id: Option<String>,
    /// CDK construct path.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub construct_path: Option<String>,
    /// Resolved template properties (unresolved parts as the corpus marker).
    #[serde(default)]
    pub declared: Map<String, Value>,
    /// Sibling IAM policy names, or the string "unresolved".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sibling_policy_names: Option<Value>,
}

/// One corpus case: classify inputs plus the expected findings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CorpusCase {
    /// Format version (1).
    pub corpus_version: u64,
    /// What the case locks in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The resource.
    pub resource: CorpusResource,
    /// The raw Cloud Control properties.
    pub live_raw: Value,
    /// Schema facts for the type.
    pub schema: SchemaFacts,
    /// Stack context and sibling facts.
    #[serde(default)]
    pub opts: Map<String, Value>,
    /// Expected findings.
    #[serde(default)]
    pub expected: Vec<Finding>,
}

impl CorpusCase {
    /// Loads and validates one case file.
    pub fn load(path: &Path) -> Result<Self, CorpusError> {
        let text = std::fs::read_to_string(path).map_err(|source| CorpusError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Self::parse(path, &text)
    }

    /// Parses case text; `path` is used only in errors.
    pub fn parse(path: &Path, text: &str) -> Result<Self, CorpusError> {
        let case: CorpusCase = serde_json::from_str(text).map_err(|source| CorpusError::Parse {
            path: path.to_path_buf(),
            source,
        })?;
        if case.corpus_version != 1 {
            return Err(CorpusError::Version {
                path: path.to_path_buf(),
                version: case.corpus_version,
            });
        }
        Ok(case)
    }
}
