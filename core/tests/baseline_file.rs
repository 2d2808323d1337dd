//! Baseline files: loading cdk-real-drift and v1 files, diff-friendly and
//! atomic writes, unknown fields kept, file naming.

#[path = "fixtures/baselines/support.rs"]
mod support;

use futures_executor::block_on;
use realdrift_core::baseline::{
    file_name, load_baseline, save_baseline, BaselineFile, BaselineStore, LocalDirStore,
    MemoryStore, Precondition, SCHEMA_VERSION,
};
use serde_json::json;
use support::fixture;

const CDKRD: &str = "CdkRealDriftIntegS3NotifRich.111111111111.us-east-1.json";

fn cdkrd_text() -> String {
    std::fs::read_to_string(fixture(CDKRD)).unwrap()
}

#[test]
fn a_cdk_real_drift_file_loads_as_is() {
    let b = BaselineFile::parse(CDKRD, &cdkrd_text()).unwrap();
    assert_eq!(b.schema_version, 2);
    assert_eq!(b.stack_name, "CdkRealDriftIntegS3NotifRich");
    assert_eq!(b.account_id.as_deref(), Some("111111111111"));
    assert_eq!(b.recorded.len(), 2);
    assert!(b.is_complete("Handler") && b.is_complete("Bucket83908E77"));
    assert_eq!(b.recorded_physical_ids["Handler"], "corpus-handler");
    assert_eq!(
        b.observed_defaults[0].path,
        "PublicAccessBlockConfiguration"
    );
    assert_eq!(b.extra["cdkrdVersion"], json!("0.9.3"));
    let bucket = b
        .recorded
        .iter()
        .find(|e| e.logical_id == "Bucket83908E77")
        .unwrap();
    assert_eq!(bucket.extra["recordedBy"], json!("cdkrd record --all"));
}

#[test]
fn a_schema_v1_file_loads_with_nothing_complete() {
    let text = std::fs::read_to_string(fixture("legacy-v1.json")).unwrap();
    let b = BaselineFile::parse("legacy-v1.json", &text).unwrap();
    assert_eq!(b.schema_version, 1);
    assert!(b.is_legacy());
    assert!(!b.is_complete("Handler"));
    assert_eq!(b.account_id, None);
    assert!(b.recorded_physical_ids.is_empty() && b.observed_defaults.is_empty());
}

#[test]
fn rewrite_keeps_unknown_fields_and_is_sorted_and_stable() {
    let b = BaselineFile::parse(CDKRD, &cdkrd_text()).unwrap();
    let text = b.to_text();
    assert!(text.contains("\"cdkrdVersion\": \"0.9.3\""));
    assert!(text.contains("\"recordedBy\": \"cdkrd record --all\""));
    assert!(text.ends_with("}\n") && !text.ends_with("\n\n"));
    assert!(text.starts_with("{\n  \""), "2-space indent");
    // Keys sorted: accountId first, templateHash last among the known ones.
    let pos = |k: &str| text.find(&format!("\n  \"{k}\"")).unwrap();
    assert!(pos("accountId") < pos("capturedAt") && pos("capturedAt") < pos("recorded"));
    // Entries sorted by logical id, then path.
    assert!(text.find("\"Bucket83908E77\",\n").unwrap() < text.find("\"Handler\",\n").unwrap());
    // Round trip is byte-stable.
    let again = BaselineFile::parse("x", &text).unwrap();
    assert_eq!(again.to_text(), text);
    assert_eq!(again, {
        let mut n = b.clone();
        n.normalize_order();
        n
    });
}

#[test]
fn future_schema_versions_are_refused_not_misread() {
    let text = cdkrd_text().replace("\"schemaVersion\": 2", "\"schemaVersion\": 7");
    let err = BaselineFile::parse(CDKRD, &text).unwrap_err();
    assert!(
        err.to_string().contains("unsupported schemaVersion 7"),
        "{err}"
    );
}

#[test]
fn malformed_file_names_line_and_column() {
    let err = BaselineFile::parse(CDKRD, "{\n  \"schemaVersion\": 2,\n  \"recorded\": {}\n}")
        .unwrap_err();
    let msg = err.to_string();
    assert!(msg.contains(CDKRD) && msg.contains("line"), "{msg}");
}

#[test]
fn file_names_embed_stack_account_region() {
    assert_eq!(
        file_name("Prod", "111111111111", "us-east-1").unwrap(),
        "Prod.111111111111.us-east-1.json"
    );
    assert!(file_name("../../etc/passwd", "111111111111", "us-east-1").is_err());
    assert!(file_name("Prod", "111111111111", "us-east-1/..").is_err());
}

#[test]
fn local_store_saves_atomically_and_leaves_no_temp_files() {
    let dir = std::env::temp_dir().join(format!("realdrift-baseline-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let store = LocalDirStore::new(&dir);
    assert_eq!(
        block_on(store.load(CDKRD)).unwrap(),
        None,
        "absent file is None, not an error"
    );
    let b = BaselineFile::parse(CDKRD, &cdkrd_text()).unwrap();
    block_on(save_baseline(&store, CDKRD, &b, Precondition::None)).unwrap();
    let back = block_on(load_baseline(&store, CDKRD)).unwrap().unwrap();
    assert_eq!(back.to_text(), b.to_text());
    // Overwrite with new content: the reader sees the whole new file.
    let mut b2 = back.clone();
    b2.captured_at = "2026-06-01T00:00:00Z".into();
    block_on(save_baseline(&store, CDKRD, &b2, Precondition::None)).unwrap();
    assert_eq!(
        std::fs::read_to_string(dir.join(CDKRD)).unwrap(),
        b2.to_text()
    );
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != CDKRD)
        .collect();
    assert!(leftovers.is_empty(), "temp files left: {leftovers:?}");
    // Keys are relative names: no escaping the directory.
    assert!(block_on(store.save("../escape.json", "{}", Precondition::None)).is_err());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_failed_save_keeps_the_previous_file() {
    let dir = std::env::temp_dir().join(format!("realdrift-baseline-fail-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let store = LocalDirStore::new(&dir);
    block_on(store.save("S.1.r.json", "old\n", Precondition::None)).unwrap();
    // A directory where the file should go makes the final rename fail.
    std::fs::create_dir_all(dir.join("T.1.r.json")).unwrap();
    std::fs::write(dir.join("T.1.r.json/keep"), "x").unwrap();
    assert!(block_on(store.save("T.1.r.json", "new\n", Precondition::None)).is_err());
    assert_eq!(
        std::fs::read_to_string(dir.join("S.1.r.json")).unwrap(),
        "old\n"
    );
    let names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| !n.ends_with(".tmp")), "{names:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn memory_store_round_trips() {
    let store = MemoryStore::new();
    let b = BaselineFile::empty("S", "111111111111", "eu-west-1");
    block_on(save_baseline(
        &store,
        "S.111111111111.eu-west-1.json",
        &b,
        Precondition::None,
    ))
    .unwrap();
    let back = block_on(load_baseline(&store, "S.111111111111.eu-west-1.json"))
        .unwrap()
        .unwrap();
    assert_eq!(back.schema_version, SCHEMA_VERSION);
    assert_eq!(store.snapshot().len(), 1);
    assert!(block_on(load_baseline(&store, "missing.json"))
        .unwrap()
        .is_none());
}
