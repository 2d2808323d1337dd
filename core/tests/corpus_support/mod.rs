//! The golden corpus, as the tests that replay it read it.
#![allow(dead_code)]

use realdrift_core::corpus::CorpusCase;
use serde_json::Value;
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

/// Declared scalars the read returns, as JSON pointers, with whether they
/// sit inside a list (paired by position with the read's list).
pub fn declared_pointers(case: &CorpusCase) -> Vec<(String, bool)> {
    fn walk(d: &Value, l: &Value, at: String, in_list: bool, out: &mut Vec<(String, bool)>) {
        match (d, l) {
            (Value::Object(d), Value::Object(l)) => {
                for (k, dv) in d {
                    if let Some(lv) = l.get(k) {
                        let key = k.replace('~', "~0").replace('/', "~1");
                        walk(dv, lv, format!("{at}/{key}"), in_list, out);
                    }
                }
            }
            (Value::Array(d), Value::Array(l)) if d.len() == l.len() => {
                for (i, (dv, lv)) in d.iter().zip(l).enumerate() {
                    walk(dv, lv, format!("{at}/{i}"), true, out);
                }
            }
            (d, l) if !d.is_object() && !d.is_array() && !l.is_object() && !l.is_array() => {
                out.push((at, in_list))
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    let declared = Value::Object(case.resource.declared.clone());
    walk(&declared, &case.live_raw, String::new(), false, &mut out);
    out
}

/// The declared lists of a case (not inside lists) the read returns
/// non-empty, as JSON pointers.
pub fn declared_lists(case: &CorpusCase) -> Vec<String> {
    fn walk(d: &Value, l: &Value, at: String, out: &mut Vec<String>) {
        match (d, l) {
            (Value::Object(d), Value::Object(l)) => {
                for (k, dv) in d {
                    if let Some(lv) = l.get(k) {
                        let p = format!("{at}/{}", k.replace('~', "~0").replace('/', "~1"));
                        walk(dv, lv, p, out);
                    }
                }
            }
            (Value::Array(d), Value::Array(l)) if !d.is_empty() && !l.is_empty() => out.push(at),
            _ => {}
        }
    }
    let mut out = Vec::new();
    let declared = Value::Object(case.resource.declared.clone());
    walk(&declared, &case.live_raw, String::new(), &mut out);
    out
}
