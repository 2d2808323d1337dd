//! The resource index, `index/<accountId>.<region>.json`: every resource of
//! the stacks in scope, with the identifier forms it is known by and, for
//! child types, the parent it hangs under. Plain data; [`super::view`]
//! builds the lookup maps from it.

use super::catalog::Catalog;
use super::identity::CHILD_NAME_PHYSICAL_ID;
use super::providers::ProviderRow;
use crate::declared::DeclaredValue;
use crate::template::partition_for_region;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The index file format version this code reads and writes.
pub const INDEX_SCHEMA_VERSION: u32 = 1;

/// The index of one account and region.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceIndex {
    /// [`INDEX_SCHEMA_VERSION`].
    pub schema_version: u32,
    /// The account.
    pub account_id: String,
    /// The region.
    pub region: String,
    /// Rows, sorted by stack then logical id.
    pub resources: Vec<IndexRow>,
    /// Custom resources' provider functions and their roles, sorted.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub providers: Vec<ProviderRow>,
}

/// One resource of one stack.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct IndexRow {
    /// The stack name.
    pub stack: String,
    /// The logical id.
    pub logical_id: String,
    /// The CloudFormation type.
    pub resource_type: String,
    /// The physical id.
    pub physical_id: String,
    /// The identifier forms derivable from the physical id (`name`, `arn`,
    /// `url` ...), for readers; lookups re-derive keys from the physical id.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub forms: BTreeMap<String, String>,
    /// For child types: the parents declared (one per declared value).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub parents: Vec<ParentRef>,
    /// For child types: the child's name within its parent, when declared.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub child_name: Option<String>,
    /// The child name is declared but not resolvable: matches any name.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub child_name_unresolved: bool,
}

/// A child's declared parent.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ParentRef {
    /// The parent's type.
    pub resource_type: String,
    /// The declared identifier; `None` when not resolvable (matches any
    /// parent of the type: an extra read, never a missed change).
    pub identifier: Option<String>,
}

/// One resource to index: what a gathered stack knows about it.
#[derive(Debug, Clone, Copy)]
pub struct IndexInput<'a> {
    /// The stack name.
    pub stack: &'a str,
    /// The logical id.
    pub logical_id: &'a str,
    /// The CloudFormation type.
    pub resource_type: &'a str,
    /// The physical id.
    pub physical_id: &'a str,
    /// The resolved declared properties.
    pub declared: &'a BTreeMap<String, DeclaredValue>,
}

/// The index file could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IndexError {
    /// Not an index document.
    #[error("index {key}: {message}")]
    Invalid {
        /// The S3 key or file name.
        key: String,
        /// What is wrong.
        message: String,
    },
    /// Written by a newer realdrift.
    #[error("index {key}: schemaVersion {found} is not {INDEX_SCHEMA_VERSION}")]
    Version {
        /// The S3 key or file name.
        key: String,
        /// The version found.
        found: u32,
    },
}

impl ResourceIndex {
    /// An empty index of one account and region.
    pub fn new(account_id: &str, region: &str) -> Self {
        Self {
            schema_version: INDEX_SCHEMA_VERSION,
            account_id: account_id.to_string(),
            region: region.to_string(),
            resources: Vec::new(),
            providers: Vec::new(),
        }
    }

    /// The S3 key of this index: `index/<accountId>.<region>.json`.
    pub fn object_key(&self) -> String {
        object_key(&self.account_id, &self.region)
    }

    /// Adds one resource.
    pub fn add(&mut self, catalog: &Catalog, input: IndexInput<'_>) {
        let rules = catalog.identities.get(input.resource_type);
        let mut row = IndexRow {
            stack: input.stack.to_string(),
            logical_id: input.logical_id.to_string(),
            resource_type: input.resource_type.to_string(),
            physical_id: input.physical_id.to_string(),
            ..IndexRow::default()
        };
        if let Some(rules) = rules {
            if let Some(m) = rules.match_identifier(input.physical_id, None) {
                row.forms = rules.render_forms(&self.render_values(m.captures));
                // The physical id is its own form's truest spelling (an
                // emulator's queue URL, a role ARN with its path).
                row.forms.insert(m.form, input.physical_id.to_string());
            }
            for p in &rules.parents {
                row.parents.extend(parent_refs(
                    &p.resource_type,
                    input.declared.get(&p.property),
                ));
            }
            match rules.child_name.as_deref() {
                Some(CHILD_NAME_PHYSICAL_ID) => {
                    row.child_name = Some(input.physical_id.to_string())
                }
                Some(prop) => match input.declared.get(prop) {
                    Some(DeclaredValue::String(s)) => row.child_name = Some(s.clone()),
                    None | Some(DeclaredValue::Null) => {}
                    Some(_) => row.child_name_unresolved = true,
                },
                None => {}
            }
        }
        self.resources.push(row);
    }

    /// Builds a whole index, rows sorted so the file diffs cleanly.
    pub fn build<'a>(
        catalog: &Catalog,
        account_id: &str,
        region: &str,
        inputs: impl IntoIterator<Item = IndexInput<'a>>,
    ) -> Self {
        let mut index = Self::new(account_id, region);
        for input in inputs {
            index.add(catalog, input);
        }
        index.sort();
        index
    }

    /// Sorts rows by stack, logical id.
    pub fn sort(&mut self) {
        self.resources
            .sort_by(|a, b| (&a.stack, &a.logical_id).cmp(&(&b.stack, &b.logical_id)));
        self.providers.sort();
    }

    /// Pretty JSON with stable order.
    pub fn to_json(&self) -> String {
        // Plain strings, maps and vectors: serialising cannot fail.
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// Reads an index document; `key` names it in errors.
    pub fn from_json(key: &str, bytes: &[u8]) -> Result<Self, IndexError> {
        let index: Self = serde_json::from_slice(bytes).map_err(|e| IndexError::Invalid {
            key: key.to_string(),
            message: e.to_string(),
        })?;
        if index.schema_version != INDEX_SCHEMA_VERSION {
            return Err(IndexError::Version {
                key: key.to_string(),
                found: index.schema_version,
            });
        }
        Ok(index)
    }

    /// The values a form can be printed from: what the physical id showed,
    /// completed with this index's location.
    fn render_values(&self, mut values: BTreeMap<String, String>) -> BTreeMap<String, String> {
        let fill = |values: &mut BTreeMap<String, String>, k: &str, v: &str| {
            if values.get(k).is_none_or(String::is_empty) {
                values.insert(k.to_string(), v.to_string());
            }
        };
        fill(&mut values, "account", &self.account_id);
        fill(&mut values, "region", &self.region);
        if let Some((partition, suffix)) = partition_for_region(&self.region) {
            fill(&mut values, "partition", partition);
            fill(&mut values, "urlSuffix", suffix);
        }
        values
    }
}

/// The S3 key of an account's and region's index.
pub fn object_key(account_id: &str, region: &str) -> String {
    format!("index/{account_id}.{region}.json")
}

fn parent_refs(parent_type: &str, value: Option<&DeclaredValue>) -> Vec<ParentRef> {
    let one = |identifier: Option<String>| ParentRef {
        resource_type: parent_type.to_string(),
        identifier,
    };
    match value {
        None | Some(DeclaredValue::Null) => Vec::new(),
        Some(DeclaredValue::String(s)) => vec![one(Some(s.clone()))],
        Some(DeclaredValue::Array(items)) => items
            .iter()
            .map(|i| match i {
                DeclaredValue::String(s) => one(Some(s.clone())),
                _ => one(None),
            })
            .collect(),
        Some(_) => vec![one(None)],
    }
}
