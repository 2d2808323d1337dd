//! Reads the local `baselines/` directory for `baselines sync`: every entry
//! must be a regular UTF-8 file that core's sync check accepts; all refusals
//! are collected so one run names every bad file.

use anyhow::Context;
use realdrift_core::sync::{check_sync_file, SyncFileKind, SyncRefusal};
use std::collections::BTreeMap;
use std::path::Path;

/// The texts to sync by key (file name), or every file that refuses the sync.
pub type DirContents = Result<BTreeMap<String, String>, Vec<SyncRefusal>>;

/// Reads `dir`. A missing or unreadable directory is an error, never an
/// empty checkout (which would delete every remote baseline).
pub fn read_baseline_dir(dir: &Path) -> anyhow::Result<DirContents> {
    let shown_dir = dir.display().to_string();
    let entries =
        std::fs::read_dir(dir).with_context(|| format!("reading directory {shown_dir}"))?;
    let mut names = Vec::new();
    for entry in entries {
        names.push(entry.with_context(|| format!("reading directory {shown_dir}"))?);
    }
    names.sort_by_key(|e| e.file_name());
    let mut texts = BTreeMap::new();
    let mut refusals = Vec::new();
    for entry in names {
        let path = entry.path();
        let shown = path.display().to_string();
        match read_entry(&path, &shown) {
            Ok(Some((name, text))) => {
                texts.insert(name, text);
            }
            Ok(None) => {}
            Err(r) => refusals.push(r),
        }
    }
    Ok(if refusals.is_empty() {
        Ok(texts)
    } else {
        Err(refusals)
    })
}

/// One entry: `Some((key, text))` to sync, `None` to skip (the placeholder).
fn read_entry(path: &Path, shown: &str) -> Result<Option<(String, String)>, SyncRefusal> {
    let refuse = |cause: &str| SyncRefusal::new(shown, cause);
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .ok_or_else(|| refuse("the file name is not UTF-8"))?;
    // symlink_metadata: a link is refused, not followed out of the checkout.
    let meta = std::fs::symlink_metadata(path).map_err(|e| refuse(&e.to_string()))?;
    if meta.is_dir() {
        return Err(refuse(
            "a directory: baselines/ is one flat directory of baselines and ignore.yaml",
        ));
    }
    if !meta.is_file() {
        return Err(refuse(
            "not a regular file (symbolic links are not followed)",
        ));
    }
    let bytes = std::fs::read(path).map_err(|e| refuse(&e.to_string()))?;
    let text = String::from_utf8(bytes).map_err(|_| refuse("not UTF-8 text"))?;
    match check_sync_file(name, shown, &text)? {
        SyncFileKind::Placeholder => Ok(None),
        SyncFileKind::Baseline | SyncFileKind::IgnoreRules => Ok(Some((name.to_string(), text))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r#"{"schemaVersion": 2, "stackName": "App", "accountId": "111111111111", "region": "eu-west-1"}"#;

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir =
            std::env::temp_dir().join(format!("realdrift-sync-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn baselines_and_ignore_file_are_read_and_the_placeholder_skipped() {
        let dir = scratch("good");
        std::fs::write(dir.join("App.111111111111.eu-west-1.json"), GOOD).unwrap();
        std::fs::write(dir.join("ignore.yaml"), "ignore: []\n").unwrap();
        std::fs::write(dir.join(".gitkeep"), "").unwrap();
        let texts = read_baseline_dir(&dir).unwrap().unwrap();
        assert_eq!(
            texts.keys().collect::<Vec<_>>(),
            ["App.111111111111.eu-west-1.json", "ignore.yaml"]
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn every_bad_entry_is_named() {
        let dir = scratch("bad");
        std::fs::write(dir.join("App.111111111111.eu-west-1.json"), GOOD).unwrap();
        std::fs::write(dir.join("notes.txt"), "hi").unwrap();
        std::fs::write(dir.join("B.1.r.json"), [0xff, 0xfe]).unwrap();
        std::fs::create_dir(dir.join("old")).unwrap();
        let refusals = read_baseline_dir(&dir).unwrap().unwrap_err();
        let causes: Vec<(String, &str)> = refusals
            .iter()
            .map(|r| {
                let file = Path::new(&r.file)
                    .file_name()
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                (file, r.cause.split(':').next().unwrap_or_default())
            })
            .collect();
        assert_eq!(
            causes,
            [
                ("B.1.r.json".to_string(), "not UTF-8 text"),
                ("notes.txt".to_string(), "not a baseline file"),
                ("old".to_string(), "a directory"),
            ]
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_missing_directory_is_an_error_not_an_empty_checkout() {
        let err = read_baseline_dir(Path::new("/nonexistent/realdrift/baselines")).unwrap_err();
        assert!(
            format!("{err:#}").contains("/nonexistent/realdrift/baselines"),
            "{err:#}"
        );
    }
}
