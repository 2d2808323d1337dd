//! Child enumeration (pass 1.6): live children of a declared parent that the
//! template does not declare become `added` findings.

use crate::declared::DeclaredValue;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// A declared resource of the stack, as enumerators see it when matching.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DeclaredResource {
    /// Logical id.
    pub logical_id: String,
    /// Resource type.
    pub resource_type: String,
    /// Physical id, when created.
    pub physical_id: Option<String>,
    /// Resolved declared properties.
    pub declared: BTreeMap<String, DeclaredValue>,
    /// Per property, the stack resources its template value refers to
    /// (`Ref`, `Fn::GetAtt`, `Fn::Sub`): what an unresolved target can mean.
    pub references: BTreeMap<String, BTreeSet<String>>,
}

impl DeclaredResource {
    /// A declared property as a resolved string.
    pub fn declared_str(&self, prop: &str) -> Option<&str> {
        match self.declared.get(prop) {
            Some(DeclaredValue::String(s)) => Some(s.as_str()),
            _ => None,
        }
    }

    /// A declared property as a list of resolved strings (a lone string counts
    /// as a one-element list); `None` when absent or not fully resolved.
    pub fn declared_strings(&self, prop: &str) -> Option<Vec<&str>> {
        match self.declared.get(prop)? {
            DeclaredValue::String(s) => Some(vec![s.as_str()]),
            DeclaredValue::Array(items) => items
                .iter()
                .map(|i| match i {
                    DeclaredValue::String(s) => Some(s.as_str()),
                    _ => None,
                })
                .collect(),
            _ => None,
        }
    }

    /// True when the property is declared but not fully resolved.
    pub fn declared_unresolved(&self, prop: &str) -> bool {
        self.declared
            .get(prop)
            .is_some_and(|v| !v.is_fully_resolved())
    }

    /// The resolved strings of a property that is a string or a list (the
    /// unresolved members left out).
    pub fn resolved_strings(&self, prop: &str) -> Vec<&str> {
        match self.declared.get(prop) {
            Some(DeclaredValue::String(s)) => vec![s.as_str()],
            Some(DeclaredValue::Array(items)) => items
                .iter()
                .filter_map(|i| match i {
                    DeclaredValue::String(s) => Some(s.as_str()),
                    _ => None,
                })
                .collect(),
            _ => Vec::new(),
        }
    }

    /// True when the property's template value refers to `logical_id`.
    pub fn refers_to(&self, prop: &str, logical_id: &str) -> bool {
        self.references
            .get(prop)
            .is_some_and(|r| r.contains(logical_id))
    }
}

/// What an enumerator is asked: one parent plus the stack's declared resources.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ChildQuery {
    /// The parent's logical id.
    pub parent_logical_id: String,
    /// The parent's type.
    pub parent_type: String,
    /// The parent's physical id.
    pub parent_physical_id: String,
    /// The parent's live model (already read in pass 1).
    pub parent_model: Value,
    /// Every declared resource of the stack (condition-true, created),
    /// shared by every parent's query (a copy each would grow as n²).
    pub declared: Arc<[DeclaredResource]>,
    /// The stack's account id.
    pub account_id: Option<String>,
    /// The stack's region.
    pub region: Option<String>,
    /// The stack's partition.
    pub partition: Option<String>,
}

impl ChildQuery {
    /// Declared resources of one type.
    pub fn declared_of_type<'a>(
        &'a self,
        resource_type: &'a str,
    ) -> impl Iterator<Item = &'a DeclaredResource> + 'a {
        self.declared
            .iter()
            .filter(move |d| d.resource_type == resource_type)
    }

    /// True when some declared resource of `resource_type` has this physical id.
    pub fn is_declared_physical_id(&self, resource_type: &str, id: &str) -> bool {
        self.declared_of_type(resource_type)
            .any(|d| d.physical_id.as_deref() == Some(id))
    }
}

/// A live child the template does not declare.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LiveChild {
    /// The child's resource type, e.g. `AWS::SNS::Subscription`.
    pub resource_type: String,
    /// Its identifier (the Cloud Control primary identifier where one exists).
    pub identifier: String,
    /// The full model when the enumerator already holds it; `None` asks the
    /// pipeline to read it in full through the live reader.
    pub model: Option<Value>,
    /// The physical id CloudFormation would record if some stack declared this
    /// child; the pipeline asks which stack owns it, so children managed by
    /// another stack are not reported. `None` for policies found on a parent,
    /// which have no separate physical id to look up.
    pub owner_lookup_id: Option<String>,
}
