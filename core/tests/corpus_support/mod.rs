//! The golden corpus, as the tests that replay it read it.
#![allow(dead_code)]

use realdrift_core::corpus::CorpusCase;
use std::path::PathBuf;

/// The corpus case directory (`REALDRIFT_CORPUS_DIR`, else the shared
/// corpus beside the repository).
pub fn corpus_dir() -> PathBuf {
    match std::env::var_os("REALDRIFT_CORPUS_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/cases"),
    }
}

/// The case files, sorted by name.
pub fn case_paths() -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(corpus_dir())
        .expect("corpus dir")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    paths.sort();
    paths
}

/// Every case, loaded.
pub fn corpus_cases() -> Vec<CorpusCase> {
    case_paths()
        .iter()
        .map(|p| CorpusCase::load(p).unwrap_or_else(|e| panic!("{}: {e}", p.display())))
        .collect()
}
