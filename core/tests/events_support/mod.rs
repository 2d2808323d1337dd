//! Shared helpers for the `events_*` tests: the real CloudTrail records of
//! `shared/cloudtrail/` and compact renderings of what the mapping yields.

#![allow(dead_code)]

use realdrift_core::events::{
    parse_event, parse_record, ChildSelector, CloudTrailEvent, ParseError, Touch,
};
use serde_json::Value;
use std::path::PathBuf;

/// The real records' directory (`REALDRIFT_CLOUDTRAIL_DIR`, else
/// `../shared/cloudtrail` beside the repository).
pub fn cloudtrail_dir() -> PathBuf {
    if let Ok(d) = std::env::var("REALDRIFT_CLOUDTRAIL_DIR") {
        return PathBuf::from(d);
    }
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/cloudtrail")
}

/// The file of whole EventBridge events; every other file holds bare records.
pub const WRAPPED: &str = "eventbridge-wrapped_examples.json";

/// One real record (or wrapped event) as bytes, with where it came from.
pub struct RealItem {
    pub file: String,
    pub index: usize,
    /// The record's eventID, or `#<index>` when the file repeats the id.
    pub selector: String,
    pub wrapped: bool,
    pub bytes: Vec<u8>,
}

impl RealItem {
    pub fn parse(&self) -> Result<CloudTrailEvent, ParseError> {
        if self.wrapped {
            parse_event(&self.bytes)
        } else {
            parse_record(&self.bytes)
        }
    }
}

/// Every item of every `*.json` file, sorted by file then position.
pub fn real_items() -> Vec<RealItem> {
    let dir = cloudtrail_dir();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for path in files {
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        let wrapped = file == WRAPPED;
        let items: Vec<Value> = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        let ids: Vec<String> = items
            .iter()
            .map(|i| {
                let r = if wrapped { &i["detail"] } else { i };
                r["eventID"].as_str().unwrap_or("").to_string()
            })
            .collect();
        for (index, item) in items.iter().enumerate() {
            let id = &ids[index];
            let unique = !id.is_empty() && ids.iter().filter(|x| *x == id).count() == 1;
            out.push(RealItem {
                file: file.clone(),
                index,
                selector: if unique {
                    id.clone()
                } else {
                    format!("#{index}")
                },
                wrapped,
                bytes: serde_json::to_vec(item).unwrap(),
            });
        }
    }
    out
}

/// The item of a file by eventID (or `#index`).
pub fn real_item<'a>(items: &'a [RealItem], file: &str, selector: &str) -> &'a RealItem {
    items
        .iter()
        .find(|i| i.file == file && i.selector == selector)
        .unwrap_or_else(|| panic!("no record {selector} in {file}"))
}

/// `type identifier (form)` per target.
pub fn targets(touch: &Touch) -> Vec<String> {
    touch
        .targets
        .iter()
        .map(|t| format!("{} {} ({})", t.resource_type, t.identifier, t.form))
        .collect()
}

/// `all`, `singleton`, `name:<n>` / `name:-`, `ids:<id>,<id>`.
pub fn selector(touch: &Touch) -> String {
    match &touch.child_selector {
        ChildSelector::All => "all".into(),
        ChildSelector::Singleton => "singleton".into(),
        ChildSelector::Name(n) => format!("name:{}", n.as_deref().unwrap_or("-")),
        ChildSelector::Identifiers(ids) => format!(
            "ids:{}",
            ids.iter()
                .map(|t| t.identifier.as_str())
                .collect::<Vec<_>>()
                .join(",")
        ),
    }
}
