//! The event mapping table (`core/data/cloudtrail-events.json`): which write
//! API touches which resource, and where its identifiers are in the record.

use super::identity::Identities;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeSet, HashMap};

/// Where an identifier is read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Origin {
    /// `requestParameters`, at a JSON pointer.
    RequestParameters,
    /// `responseElements`, at a JSON pointer.
    ResponseElements,
    /// `resources[]`: the ARN of every entry of one type.
    Resources,
}

/// One place an identifier comes from.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct IdentifierSpec {
    /// The part of the record.
    pub from: Origin,
    /// JSON pointer (`*` = every array element); for request / response.
    #[serde(default)]
    pub pointer: Option<String>,
    /// The `resources[].type` to take ARNs of; for `resources`.
    #[serde(default)]
    pub resource_type: Option<String>,
    /// The identifier forms accepted (templates of `resource-identifiers.json`).
    pub forms: Vec<String>,
    /// The types the identifier names (default: the entry's `resourceType`).
    #[serde(default)]
    pub resource_types: Option<Vec<String>>,
}

/// A single value read from the record (a child's name).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ValueSpec {
    /// The part of the record (`requestParameters` or `responseElements`).
    pub from: Origin,
    /// JSON pointer.
    pub pointer: String,
}

/// How the children and the parent of a child API are resolved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum ResolveMode {
    /// The matching children the stack declares, else the parent.
    ChildElseParent,
    /// The matching children and the parent.
    ChildAndParent,
}

/// One `(eventSource, eventName)` entry.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct EventEntry {
    /// e.g. `s3.amazonaws.com`.
    pub event_source: String,
    /// The bare API name (no version suffix).
    pub event_name: String,
    /// The CloudFormation type the call changes.
    pub resource_type: String,
    /// Where the resource's identifiers come from.
    pub identifiers: Vec<IdentifierSpec>,
    /// Child types the call may really be about.
    #[serde(default)]
    pub children: Vec<String>,
    /// How children and parent are resolved (required with children).
    #[serde(default)]
    pub resolve: Option<ResolveMode>,
    /// The child's name within its parent.
    #[serde(default)]
    pub child_name: Option<ValueSpec>,
    /// The child's own identifiers.
    #[serde(default)]
    pub child_identifiers: Vec<IdentifierSpec>,
    /// The API reference the parameter names come from.
    pub source: String,
    /// What the call changes.
    pub reason: String,
}

impl IdentifierSpec {
    /// The types this identifier names.
    pub fn types<'a>(&'a self, entry_type: &'a str) -> Vec<&'a str> {
        match &self.resource_types {
            Some(t) => t.iter().map(String::as_str).collect(),
            None => vec![entry_type],
        }
    }
}

/// The whole table, indexed by `(eventSource, eventName)`.
#[derive(Debug, Clone, Default)]
pub struct EventTable {
    entries: Vec<EventEntry>,
    /// eventSource -> eventName -> entry, so a lookup borrows both names.
    by_key: HashMap<String, HashMap<String, usize>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TableFile {
    #[serde(rename = "_doc")]
    _doc: String,
    events: Vec<EventEntry>,
}

impl EventTable {
    /// Parses and checks the table against the identifier forms.
    pub fn from_json(text: &str, ids: &Identities) -> Result<Self, String> {
        let file: TableFile =
            serde_json::from_str(text).map_err(|e| format!("cloudtrail-events: {e}"))?;
        let mut by_key: HashMap<String, HashMap<String, usize>> = HashMap::new();
        for (i, e) in file.events.iter().enumerate() {
            check_entry(e, ids).map_err(|m| format!("{} {}: {m}", e.event_source, e.event_name))?;
            let names = by_key.entry(e.event_source.clone()).or_default();
            if names.insert(e.event_name.clone(), i).is_some() {
                return Err(format!("{} {} listed twice", e.event_source, e.event_name));
            }
        }
        Ok(Self {
            entries: file.events,
            by_key,
        })
    }

    /// The entry of a source and bare event name.
    pub fn get(&self, event_source: &str, event_name: &str) -> Option<&EventEntry> {
        let i = self.by_key.get(event_source)?.get(event_name)?;
        self.entries.get(*i)
    }

    /// Every entry, in file order.
    pub fn entries(&self) -> &[EventEntry] {
        &self.entries
    }

    /// The distinct event sources (for the EventBridge rule), sorted.
    pub fn event_sources(&self) -> BTreeSet<&str> {
        self.entries
            .iter()
            .map(|e| e.event_source.as_str())
            .collect()
    }
}

fn check_entry(e: &EventEntry, ids: &Identities) -> Result<(), String> {
    if !e.source.starts_with("https://") || e.reason.trim().is_empty() {
        return Err("needs a source URL and a reason".into());
    }
    if e.identifiers.is_empty() {
        return Err("no identifiers".into());
    }
    for spec in &e.identifiers {
        check_spec(spec, &e.resource_type, ids)?;
    }
    if e.children.is_empty() != e.resolve.is_none() {
        return Err("children and resolve go together".into());
    }
    let parent_types: BTreeSet<&str> = e
        .identifiers
        .iter()
        .flat_map(|s| s.types(&e.resource_type))
        .collect();
    for child in &e.children {
        let rules = ids
            .get(child)
            .ok_or_else(|| format!("child type {child} unknown"))?;
        if !rules
            .parents
            .iter()
            .any(|p| parent_types.contains(p.resource_type.as_str()))
        {
            return Err(format!(
                "child {child} has no parent among {parent_types:?}"
            ));
        }
        if e.child_name.is_some() && rules.child_name.is_none() {
            return Err(format!("childName given but {child} has no childName rule"));
        }
    }
    if let Some(name) = &e.child_name {
        if name.from == Origin::Resources || !name.pointer.starts_with('/') {
            return Err("childName needs a request/response pointer".into());
        }
    }
    for spec in &e.child_identifiers {
        let first = e.children.first().map(String::as_str).unwrap_or_default();
        check_spec(spec, first, ids)?;
        if spec
            .types(first)
            .iter()
            .any(|t| !e.children.iter().any(|c| c == t))
        {
            return Err("childIdentifiers must name child types".into());
        }
    }
    Ok(())
}

fn check_spec(spec: &IdentifierSpec, entry_type: &str, ids: &Identities) -> Result<(), String> {
    match (spec.from, &spec.pointer, &spec.resource_type) {
        (Origin::Resources, None, Some(_)) => {}
        (Origin::RequestParameters | Origin::ResponseElements, Some(p), None)
            if p.starts_with('/') => {}
        _ => {
            return Err(
                "an identifier needs a pointer (request/response) or a resourceType (resources)"
                    .into(),
            )
        }
    }
    if spec.forms.is_empty() {
        return Err("an identifier needs forms".into());
    }
    for t in spec.types(entry_type) {
        let rules = ids
            .get(t)
            .filter(|r| r.has_forms())
            .ok_or_else(|| format!("type {t} has no identifier forms"))?;
        let known = rules.forms();
        if let Some(f) = spec.forms.iter().find(|f| !known.contains(f.as_str())) {
            return Err(format!("form {f} unknown for {t}"));
        }
    }
    Ok(())
}
