//! The committed snapshot is what `scripts/gen-schema-snapshot.sh` produced
//! (checked against MANIFEST.json, no network), every bundled type derives
//! facts, and a few well-known types come out as AWS documents them.
//!
//! To regenerate: `scripts/gen-schema-snapshot.sh` (needs PyPI for the pinned
//! cfn-lint); `scripts/gen-schema-snapshot.sh --check` verifies byte equality.

use realdrift_core::schema::{BundledSchemas, SchemaSource};
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::path::PathBuf;
use std::time::Instant;

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/schemas")
}

fn manifest() -> Value {
    let text = std::fs::read_to_string(data_dir().join("MANIFEST.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[test]
fn committed_files_match_the_generator_manifest() {
    let manifest = manifest();
    let snapshot = std::fs::read(data_dir().join("registry-schemas.bin")).unwrap();
    assert_eq!(
        sha256_hex(&snapshot),
        manifest["snapshotSha256"],
        "snapshot bytes"
    );
    let defaults = std::fs::read(data_dir().join("doc-defaults.json")).unwrap();
    assert_eq!(
        sha256_hex(&defaults),
        manifest["docDefaultsSha256"],
        "doc-defaults bytes"
    );

    // The inflated documents are exactly the generator's pruned output.
    let bundled = BundledSchemas::shared().unwrap();
    let snap = realdrift_core::schema::Snapshot::parse(&snapshot).unwrap();
    let mut content = Sha256::new();
    for name in snap.type_names() {
        content.update(snap.raw_document(name).unwrap().unwrap());
        content.update(b"\n");
    }
    let content: String = content
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert_eq!(content, manifest["contentSha256"], "inflated content");
    assert_eq!(
        bundled.type_names().len() as u64,
        manifest["typeCount"].as_u64().unwrap()
    );
    assert_eq!(
        bundled.provenance().source,
        format!("cfn-lint {}", manifest["cfnLint"].as_str().unwrap())
    );
}

#[test]
fn every_bundled_type_derives_facts() {
    let bundled = BundledSchemas::load().unwrap();
    let start = Instant::now();
    let mut failures = Vec::new();
    let mut readable = 0;
    for name in bundled.type_names() {
        match bundled.facts(name) {
            Ok(Some(facts)) => readable += usize::from(facts.handlers.is_some_and(|h| h.read)),
            Ok(None) => failures.push(format!("{name}: listed but absent")),
            Err(e) => failures.push(e.to_string()),
        }
    }
    let elapsed = start.elapsed();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    println!(
        "derived facts for {} types in {:?} ({readable} with a read handler)",
        bundled.type_names().len(),
        elapsed
    );
    // A second pass is served from the cache.
    let start = Instant::now();
    for name in bundled.type_names() {
        bundled.facts(name).unwrap();
    }
    println!("cached lookups: {:?}", start.elapsed());
}

#[test]
fn well_known_types_come_out_as_documented() {
    let bundled = BundledSchemas::shared().unwrap();
    let lambda = bundled.facts("AWS::Lambda::Function").unwrap().unwrap();
    assert_eq!(lambda.primary_identifier, vec!["FunctionName"]);
    assert!(lambda.read_only.contains(&"Arn".to_string()));
    assert!(lambda
        .write_only_paths
        .contains(&"Code.ZipFile".to_string()));
    assert!(lambda
        .free_form_map_paths
        .contains(&"Environment.Variables".to_string()));
    assert_eq!(lambda.tag_property.as_deref(), Some("Tags"));
    let handlers = lambda.handlers.unwrap();
    assert!(handlers.read && handlers.update && handlers.list);

    let ecs = bundled.facts("AWS::ECS::TaskDefinition").unwrap().unwrap();
    assert!(ecs
        .unordered_scalar_paths
        .contains(&"RequiresCompatibilities".to_string()));
    assert!(ecs
        .free_form_map_paths
        .contains(&"ContainerDefinitions.*.DockerLabels".to_string()));

    let transforms = bundled.facts("AWS::EKS::Addon").unwrap().unwrap();
    assert!(transforms
        .property_transforms
        .contains_key("ConfigurationValues"));

    assert!(bundled.facts("Custom::Thing").unwrap().is_none());
    assert!(bundled.document("AWS::S3::Bucket").unwrap().is_some());
}

#[test]
fn doc_defaults_are_well_formed_and_never_shadow_schema_defaults() {
    let text = std::fs::read_to_string(data_dir().join("doc-defaults.json")).unwrap();
    let entries: Vec<Value> = serde_json::from_str(&text).unwrap();
    assert!(!entries.is_empty());
    let bundled = BundledSchemas::shared().unwrap();
    for entry in &entries {
        let type_name = entry["type"].as_str().unwrap();
        let path = entry["path"].as_str().unwrap();
        assert!(
            entry["value"].is_boolean() || entry["value"].is_number() || entry["value"].is_string()
        );
        assert!(entry["source"]
            .as_str()
            .is_some_and(|s| s.to_lowercase().contains("default")));
        let facts = bundled.facts(type_name).unwrap().unwrap();
        assert!(
            !facts.default_paths.contains_key(path),
            "{type_name} {path}: the schema already states a default"
        );
    }
}
