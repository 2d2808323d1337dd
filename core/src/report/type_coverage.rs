//! Coverage per resource type: how each type of the checked stacks is read
//! (Cloud Control, a per-type reader, not at all), how many of its
//! resources were compared, which were not and why, and which declared
//! paths the read could not verify (`readGap`). `realdrift coverage` prints
//! it; `check --json` carries it as its `coverage` section.

use super::model::StackReport;
use super::not_compared::NotComparedReason;
use super::sanitize::sanitize_identifier;
use crate::finding::Tier;
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;

/// How a type is read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "by", rename_all = "camelCase")]
pub enum ReadRoute {
    /// Cloud Control GetResource.
    CloudControl,
    /// A per-type reader over the service's API.
    Reader {
        /// The reader's name (its file, e.g. `s3_bucket_policy`).
        name: String,
    },
    /// Not read at all.
    NotRead {
        /// Why (custom resource, no read handler and no reader).
        reason: String,
    },
}

impl ReadRoute {
    /// `Cloud Control`, `reader s3_bucket_policy`, `not read (...)`.
    pub fn phrase(&self) -> String {
        match self {
            ReadRoute::CloudControl => "Cloud Control".into(),
            ReadRoute::Reader { name } => format!("reader {name}"),
            ReadRoute::NotRead { reason } => format!("not read ({reason})"),
        }
    }
}

/// A resource of the type that was not compared.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TypeResource {
    /// Stack name.
    pub stack: String,
    /// Logical id.
    pub logical_id: String,
    /// Why it was not compared (a `readGap` names its path).
    pub reason: String,
    /// The declared path the read could not verify (read gaps only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
}

/// One type's coverage across the checked stacks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TypeCoverage {
    /// Resource type.
    pub resource_type: String,
    /// How it is read.
    pub read_by: ReadRoute,
    /// Resources of the type in the checked stacks.
    pub resources: usize,
    /// Of those, compared.
    pub compared: usize,
    /// Those not compared, with why (an accepted one says so).
    pub not_compared: Vec<TypeResource>,
    /// Declared paths the read could not verify.
    pub read_gaps: Vec<TypeResource>,
}

/// The per-type table of checked stacks. `route` says how the product reads
/// a type (the aws crate's reader table); a type every read of which was
/// answered "no reader" is `not read` whatever the table says.
pub fn type_coverage(
    reports: &[StackReport],
    route: &dyn Fn(&str) -> ReadRoute,
) -> Vec<TypeCoverage> {
    let mut by_type: BTreeMap<String, TypeCoverage> = BTreeMap::new();
    for r in reports.iter().filter(|r| r.error.is_none()) {
        let mut seen = r.resource_types.clone();
        for n in &r.not_compared {
            seen.entry(n.logical_id.clone())
                .or_insert_with(|| n.resource_type.clone());
        }
        for (logical_id, t) in seen {
            let entry = by_type.entry(t.clone()).or_insert_with(|| TypeCoverage {
                read_by: route(&t),
                resource_type: t,
                resources: 0,
                compared: 0,
                not_compared: Vec::new(),
                read_gaps: Vec::new(),
            });
            entry.resources += 1;
            match r.not_compared.iter().find(|n| n.logical_id == logical_id) {
                Some(n) => {
                    let mut reason = n.reason.phrase().to_string();
                    if let Some(why) = &n.accepted {
                        reason.push_str(&format!(", accepted: {why}"));
                    }
                    entry.not_compared.push(TypeResource {
                        stack: r.stack.clone(),
                        logical_id,
                        reason,
                        path: None,
                    });
                }
                None => entry.compared += 1,
            }
        }
        for f in r.findings.iter().filter(|f| f.tier == Tier::ReadGap) {
            if let Some(entry) = by_type.get_mut(&f.resource_type) {
                entry.read_gaps.push(TypeResource {
                    stack: r.stack.clone(),
                    logical_id: f.logical_id.clone(),
                    reason: f.note.clone().unwrap_or_default(),
                    path: Some(f.path.clone()),
                });
            }
        }
    }
    for (t, entry) in by_type.iter_mut() {
        let all_unreadable = entry.compared == 0
            && !entry.not_compared.is_empty()
            && reports
                .iter()
                .flat_map(|r| &r.not_compared)
                .filter(|n| &n.resource_type == t)
                .all(|n| n.reason == NotComparedReason::NoReader);
        if all_unreadable {
            entry.read_by = ReadRoute::NotRead {
                reason: "no Cloud Control read handler and no per-type reader".into(),
            };
        }
    }
    by_type.into_values().collect()
}

/// The table as JSON (`check --json`'s `coverage` section).
pub fn type_coverage_json(table: &[TypeCoverage]) -> Value {
    serde_json::json!({ "types": table })
}

/// The table for a terminal: one line per type, then the resources not
/// compared and the read gaps, indented. Identifiers are made terminal-safe.
pub fn render_type_coverage(table: &[TypeCoverage]) -> String {
    let mut out = String::new();
    for t in table {
        out.push_str(&format!(
            "{} — {}: {} of {} compared\n",
            sanitize_identifier(&t.resource_type),
            t.read_by.phrase(),
            t.compared,
            t.resources
        ));
        for n in &t.not_compared {
            out.push_str(&format!(
                "  not compared: {}/{} ({})\n",
                sanitize_identifier(&n.stack),
                sanitize_identifier(&n.logical_id),
                sanitize_identifier(&n.reason)
            ));
        }
        for g in &t.read_gaps {
            out.push_str(&format!(
                "  read gap: {}/{}.{} ({})\n",
                sanitize_identifier(&g.stack),
                sanitize_identifier(&g.logical_id),
                sanitize_identifier(g.path.as_deref().unwrap_or_default()),
                sanitize_identifier(&g.reason)
            ));
        }
    }
    out
}
