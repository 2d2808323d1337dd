//! The schema facts classify needs, in the corpus `schema` block shape.

use super::handlers::Handlers;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

/// Facts derived from one CloudFormation registry schema.
///
/// Paths are dotted; `*` stands for any array element.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SchemaFacts {
    /// Top-level read-only property names.
    #[serde(default)]
    pub read_only: Vec<String>,
    /// Top-level write-only property names.
    #[serde(default)]
    pub write_only: Vec<String>,
    /// Top-level create-only property names.
    #[serde(default)]
    pub create_only: Vec<String>,
    /// Read-only paths at any depth.
    #[serde(default)]
    pub read_only_paths: Vec<String>,
    /// Write-only paths at any depth.
    #[serde(default)]
    pub write_only_paths: Vec<String>,
    /// Create-only paths at any depth.
    #[serde(default)]
    pub create_only_paths: Vec<String>,
    /// Top-level schema defaults.
    #[serde(default)]
    pub defaults: BTreeMap<String, Value>,
    /// Nested schema defaults keyed by dotted path.
    #[serde(default)]
    pub default_paths: BTreeMap<String, Value>,
    /// Arrays of scalars marked `insertionOrder: false`.
    #[serde(default)]
    pub unordered_scalar_paths: Vec<String>,
    /// Arrays of objects marked `insertionOrder: false`.
    #[serde(default)]
    pub unordered_object_array_paths: Vec<String>,
    /// Object nodes with no fixed properties (free-form maps).
    #[serde(default)]
    pub free_form_map_paths: Vec<String>,
    /// The primary identifier property paths.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub primary_identifier: Vec<String>,
    /// Schema `propertyTransform`: dotted path -> JSONata expression.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub property_transforms: BTreeMap<String, String>,
    /// The tag property name from the schema `tagging` block, when taggable.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tag_property: Option<String>,
    /// Paths that are create-only only under a condition
    /// (`conditionalCreateOnlyProperties`): changing them may replace the resource.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditional_create_only_paths: Vec<String>,
    /// Scalar paths of one non-string type (`integer`, `number`,
    /// `boolean`): CloudFormation passes a template string there converted.
    /// Empty when unknown (corpus cases record none).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub typed_scalar_paths: BTreeMap<String, String>,
    /// Which provisioning handlers the type has; `None` when unknown (corpus cases).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub handlers: Option<Handlers>,
}
