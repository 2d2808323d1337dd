//! One live read: what the reader is asked and what it answers.

use crate::declared::DeclaredValue;
use serde_json::Value;
use std::collections::BTreeMap;

/// What a reader needs to read one resource.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ReadRequest {
    /// Logical id (for messages).
    pub logical_id: String,
    /// Resource type.
    pub resource_type: String,
    /// Physical id from ListStackResources (or a child's identifier).
    pub physical_id: String,
    /// The resolved declared properties (readers keyed on a declared target use them).
    pub declared: BTreeMap<String, DeclaredValue>,
    /// The stack's account id.
    pub account_id: Option<String>,
    /// The stack's region.
    pub region: Option<String>,
    /// The stack's partition (`aws`, `aws-cn`, ...).
    pub partition: Option<String>,
}

impl ReadRequest {
    /// A declared property as a fully resolved string, if it is one.
    pub fn declared_str(&self, prop: &str) -> Option<&str> {
        match self.declared.get(prop) {
            Some(DeclaredValue::String(s)) => Some(s.as_str()),
            _ => None,
        }
    }

    /// True when the property is declared but (partly) unresolved.
    pub fn declared_unresolved(&self, prop: &str) -> bool {
        self.declared
            .get(prop)
            .is_some_and(|v| !v.is_fully_resolved())
    }
}

/// A live model plus anything the reader wants the report to say about it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LiveModel {
    /// The resource's live properties, in the Cloud Control (CloudFormation) shape.
    pub properties: Value,
    /// Non-fatal remarks.
    pub notes: Vec<String>,
    /// Declared paths this read could not verify, with why (a supplement
    /// read that failed): each becomes a `readGap` finding and lost coverage.
    pub gaps: BTreeMap<String, String>,
    /// Top-level properties the schema marks write-only that this reader
    /// read back from the service (a launch template's data): compared like
    /// any other property instead of reported as a `readGap`.
    pub read_back: Vec<String>,
    /// Top-level properties the service never returns (a password) that the
    /// schema does not mark write-only: classified as write-only (a
    /// `readGap` noting it), not lost coverage.
    pub write_only: Vec<String>,
}

impl LiveModel {
    /// A model with no remarks.
    pub fn new(properties: Value) -> Self {
        LiveModel {
            properties,
            notes: Vec::new(),
            gaps: BTreeMap::new(),
            read_back: Vec::new(),
            write_only: Vec::new(),
        }
    }
}

/// The result of reading one resource.
#[derive(Debug, Clone, PartialEq)]
pub enum ReadOutcome {
    /// The resource exists; here is its model.
    Found(LiveModel),
    /// The resource no longer exists.
    NotFound,
    /// The resource could not be read.
    Skipped {
        /// Why (e.g. "Cloud Control cannot read this type", the service's message).
        reason: String,
        /// True when the read was refused or failed (access denied, a
        /// service error, a malformed answer): coverage the user expects is
        /// lost. False only for benign skips (a custom resource, nothing to
        /// read); a type no reader reads is [`ReadOutcome::Unsupported`].
        coverage_lost: bool,
    },
    /// No reader can read the type: Cloud Control has no read handler for
    /// it (UnsupportedActionException, TypeNotFoundException) and no
    /// per-type reader is registered. Lost coverage unless the team accepts
    /// the type in `ignore.yaml`.
    Unsupported {
        /// What Cloud Control said.
        reason: String,
    },
    /// The reader needs a declared target that is not resolved yet; retried after
    /// live attributes are known (pass 1.5), then skipped if still unresolved.
    TargetUnresolved {
        /// Which declared property was missing.
        reason: String,
    },
}

impl ReadOutcome {
    /// A benign skip (a custom resource, nothing to read): not lost coverage.
    pub fn skipped(reason: impl Into<String>) -> Self {
        ReadOutcome::Skipped {
            reason: reason.into(),
            coverage_lost: false,
        }
    }

    /// A type no reader can read.
    pub fn unsupported(reason: impl Into<String>) -> Self {
        ReadOutcome::Unsupported {
            reason: reason.into(),
        }
    }

    /// A skip that loses coverage: the read was refused or failed.
    pub fn denied(reason: impl Into<String>) -> Self {
        ReadOutcome::Skipped {
            reason: reason.into(),
            coverage_lost: true,
        }
    }

    /// A found model with no remarks.
    pub fn found(properties: Value) -> Self {
        ReadOutcome::Found(LiveModel::new(properties))
    }
}
