//! Replaying a directory of corpus cases, one case at a time.
//!
//! Uses the same file selection as `realdrift_core::corpus::replay_dir`
//! (`*.json`, sorted by file name) but yields each case as it is replayed, so
//! output streams, and isolates a panic in classify to the case that caused
//! it: a bug report about one case must not hide the others.

pub mod jsonl;
pub mod summary;

use anyhow::{bail, Context};
use realdrift_core::baseline::read_text_file;
use realdrift_core::classify::Knowledge;
use realdrift_core::corpus::{compare_findings, replay_case_with, Agreement, CorpusCase, HoldOut};
use realdrift_core::Finding;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use crate::terminal;

/// A case that loaded and went through classify.
#[derive(Debug)]
pub struct Replayed {
    /// The findings the case expects.
    pub expected: Vec<Finding>,
    /// The findings classify produced.
    pub produced: Vec<Finding>,
    /// How the two differ.
    pub agreement: Agreement,
}

/// The outcome of one case file.
#[derive(Debug)]
pub struct CaseReport {
    /// The case file name (no directory).
    pub name: String,
    /// The replay, or why the case could not be replayed.
    pub result: Result<Replayed, String>,
}

/// Lists the `*.json` case files in `dir`, sorted by file name.
///
/// Fails when `dir` is missing, not a directory, or cannot be listed.
pub fn case_files(dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let shown = terminal::display(&dir.to_string_lossy()).into_owned();
    let meta = std::fs::metadata(dir).with_context(|| format!("corpus directory {shown}"))?;
    if !meta.is_dir() {
        bail!("corpus directory {shown}: not a directory");
    }
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).with_context(|| format!("corpus directory {shown}"))? {
        let path = entry
            .with_context(|| format!("corpus directory {shown}: listing entries"))?
            .path();
        if path.extension().is_some_and(|x| x == "json") {
            files.push(path);
        }
    }
    files.sort();
    Ok(files)
}

/// Loads one case file and replays it through classify.
pub fn replay_file(path: &Path, knowledge: Knowledge) -> CaseReport {
    let name = file_name(path);
    let result = load_case(path).and_then(|case| replay_loaded(case, knowledge));
    CaseReport { name, result }
}

/// Loads every case file and replays each without the observed known
/// defaults its own stack alone supports (see [`HoldOut`]); reports come
/// back in file order. A case that cannot be read is reported as such and
/// supports nothing.
pub fn replay_files_held_out(files: &[PathBuf]) -> anyhow::Result<Vec<CaseReport>> {
    let loaded: Vec<(String, Result<CorpusCase, String>)> =
        files.iter().map(|p| (file_name(p), load_case(p))).collect();
    let cases: Vec<&CorpusCase> = loaded.iter().filter_map(|(_, c)| c.as_ref().ok()).collect();
    let holdout =
        HoldOut::from_cases(cases.iter().copied()).context("loading the bundled knowledge")?;
    let produced = catch_unwind(AssertUnwindSafe(|| holdout.replay(&cases)))
        .map_err(|payload| anyhow::anyhow!("classify panicked: {}", panic_message(&*payload)))?
        .context("loading the bundled knowledge")?;
    let mut produced = produced.into_iter();
    Ok(loaded
        .into_iter()
        .map(|(name, case)| CaseReport {
            name,
            result: case.map(|case| {
                let produced = produced.next().unwrap_or_default();
                let agreement = compare_findings(&case.expected, &produced);
                Replayed {
                    expected: case.expected,
                    produced,
                    agreement,
                }
            }),
        })
        .collect())
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// The largest case file read (a case carries a whole registry schema, some
/// hundreds of KiB at most).
pub const MAX_CASE_BYTES: u64 = 64 * 1024 * 1024;

/// Reads and parses one case: only a regular file within [`MAX_CASE_BYTES`]
/// (a FIFO or a device never blocks or fills memory).
fn load_case(path: &Path) -> Result<CorpusCase, String> {
    let text =
        read_text_file(path, MAX_CASE_BYTES).map_err(|e| format!("{}: {e}", path.display()))?;
    CorpusCase::parse(path, &text).map_err(|e| e.to_string())
}

fn replay_loaded(case: CorpusCase, knowledge: Knowledge) -> Result<Replayed, String> {
    let produced = catch_unwind(AssertUnwindSafe(|| replay_case_with(&case, knowledge)))
        .map_err(|payload| format!("classify panicked: {}", panic_message(&*payload)))?;
    let agreement = compare_findings(&case.expected, &produced);
    Ok(Replayed {
        expected: case.expected,
        produced,
        agreement,
    })
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> &str {
    payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("(no message)")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fifo_or_device_case_is_an_error_not_a_hang() {
        let dir =
            std::env::temp_dir().join(format!("realdrift-replay-fifo-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let fifo = dir.join("a.json");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.map(|s| s.success()).unwrap_or(false), "mkfifo");
        std::os::unix::fs::symlink("/dev/zero", dir.join("b.json")).unwrap();
        let files = case_files(&dir).unwrap();
        assert_eq!(files.len(), 2);
        for f in &files {
            let err = replay_file(f, Knowledge::All).result.unwrap_err();
            assert!(err.contains("not a regular file"), "{err}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn panic_messages_are_recovered() {
        let p = catch_unwind(|| panic!("boom {}", 1)).unwrap_err();
        assert_eq!(panic_message(&*p), "boom 1");
        let p = catch_unwind(|| std::panic::panic_any(7u8)).unwrap_err();
        assert_eq!(panic_message(&*p), "(no message)");
    }
}
