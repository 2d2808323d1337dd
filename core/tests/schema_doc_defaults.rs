//! Measures the doc-stated defaults table (`core/data/schemas/doc-defaults.json`)
//! against the corpus: how many expected `atDefault` findings it explains, and
//! whether any entry would fold an expected drift finding (`undeclared` /
//! `declared`) — that count must stay zero.
//!
//! The table is data for the classify stage to consume (or not); this test
//! only measures it and guards the zero-false-fold property.

mod corpus_support;

use corpus_support::case_paths;
use serde_json::Value;
use std::collections::HashMap;
use std::path::PathBuf;

/// A finding path in the table's form: identity-keyed (`Prop[id]`) and
/// numeric array elements become `*`.
fn schema_path(finding_path: &str) -> String {
    let mut out = Vec::new();
    for segment in finding_path.split('.') {
        match segment.find('[') {
            Some(open) => {
                out.push(&segment[..open]);
                out.push("*");
            }
            None if !segment.is_empty() && segment.bytes().all(|b| b.is_ascii_digit()) => {
                out.push("*")
            }
            None => out.push(segment),
        }
    }
    out.join(".")
}

#[test]
fn schema_path_normalizes_element_segments() {
    assert_eq!(schema_path("A.B"), "A.B");
    assert_eq!(schema_path("Rules[r1].Priority"), "Rules.*.Priority");
    assert_eq!(schema_path("List.0.X"), "List.*.X");
}

#[test]
fn doc_defaults_explain_at_default_findings_and_fold_no_drift() {
    let table_text = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/schemas/doc-defaults.json"),
    )
    .unwrap();
    let entries: Vec<Value> = serde_json::from_str(&table_text).unwrap();
    let table: HashMap<(String, String), Value> = entries
        .iter()
        .map(|e| {
            (
                (
                    e["type"].as_str().unwrap().to_string(),
                    e["path"].as_str().unwrap().to_string(),
                ),
                e["value"].clone(),
            )
        })
        .collect();

    let paths = case_paths();

    let (mut at_default, mut explained, mut same_path_other_value) = (0, 0, 0);
    let mut drift_checked = 0;
    let mut false_folds = Vec::new();
    for path in &paths {
        let case: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let type_name = case["resource"]["resourceType"]
            .as_str()
            .unwrap()
            .to_string();
        for finding in case["expected"].as_array().into_iter().flatten() {
            let tier = finding["tier"].as_str().unwrap_or_default();
            let key = (
                type_name.clone(),
                schema_path(finding["path"].as_str().unwrap_or_default()),
            );
            let stated = table.get(&key);
            match tier {
                "atDefault" => {
                    at_default += 1;
                    match stated {
                        Some(v) if Some(v) == finding.get("actual") => explained += 1,
                        Some(_) => same_path_other_value += 1,
                        None => {}
                    }
                }
                "undeclared" | "declared" => {
                    drift_checked += 1;
                    if stated.is_some() && stated == finding.get("actual") {
                        false_folds.push(format!(
                            "{} {tier} {} = {}",
                            path.file_name().unwrap().to_string_lossy(),
                            key.1,
                            finding["actual"]
                        ));
                    }
                }
                _ => {}
            }
        }
    }
    println!(
        "doc-defaults: {} entries; explain {explained}/{at_default} corpus atDefault findings \
         ({same_path_other_value} more hit a table path with another value); \
         would fold {}/{drift_checked} expected undeclared/declared findings",
        entries.len(),
        false_folds.len()
    );
    assert!(
        false_folds.is_empty(),
        "doc-stated defaults would hide expected drift:\n{}",
        false_folds.join("\n")
    );
}
