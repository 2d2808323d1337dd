//! What may be synced: every file in `baselines/` must be a baseline that
//! parses and is named after its own stack, account and region, or the ignore
//! file that parses; the git placeholder is skipped. Anything else refuses
//! the whole sync, so a stray or broken file never reaches the functions.

use crate::baseline::{file_name, BaselineError, BaselineFile, SCHEMA_VERSION};
use crate::ignore::IgnoreConfig;
use crate::pipeline::IGNORE_KEY;

/// The empty file that keeps an empty `baselines/` in git; never synced.
pub const PLACEHOLDER_FILE: &str = ".gitkeep";

/// What a synced file is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SyncFileKind {
    /// `<stack>.<accountId>.<region>.json`.
    Baseline,
    /// `ignore.yaml`.
    IgnoreRules,
    /// [`PLACEHOLDER_FILE`]: skipped, neither uploaded nor refused.
    Placeholder,
}

/// A file the sync refuses, and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}: {cause}")]
pub struct SyncRefusal {
    /// The file as shown to the user.
    pub file: String,
    /// Why it cannot be synced.
    pub cause: String,
}

impl SyncRefusal {
    /// A refusal of `file` for `cause`.
    pub fn new(file: impl Into<String>, cause: impl Into<String>) -> Self {
        SyncRefusal {
            file: file.into(),
            cause: cause.into(),
        }
    }
}

/// Checks one file of the baselines directory: `name` is its file name,
/// `shown` how to name it in a refusal.
pub fn check_sync_file(name: &str, shown: &str, text: &str) -> Result<SyncFileKind, SyncRefusal> {
    if name == PLACEHOLDER_FILE {
        return Ok(SyncFileKind::Placeholder);
    }
    if name == IGNORE_KEY {
        // The same parse the functions apply when they load the file.
        return IgnoreConfig::parse(shown, text)
            .map(|_| SyncFileKind::IgnoreRules)
            .map_err(|e| SyncRefusal::new(shown, format!("not a valid ignore file: {e}")));
    }
    if !name.ends_with(".json") {
        return Err(SyncRefusal::new(
            shown,
            format!(
                "not a baseline file: only <stack>.<accountId>.<region>.json baselines and \
                 {IGNORE_KEY} are synced"
            ),
        ));
    }
    let baseline =
        BaselineFile::parse(shown, text).map_err(|e| SyncRefusal::new(shown, parse_cause(e)))?;
    check_name(name, &baseline).map_err(|cause| SyncRefusal::new(shown, cause))?;
    Ok(SyncFileKind::Baseline)
}

/// The cause of a parse failure without the file name the refusal already shows.
fn parse_cause(e: BaselineError) -> String {
    match e {
        BaselineError::Parse { source, .. } => format!("does not parse as a baseline: {source}"),
        BaselineError::UnsupportedVersion { version, .. } => format!(
            "unsupported schemaVersion {version} (this realdrift reads 1 and {SCHEMA_VERSION})"
        ),
        other => other.to_string(),
    }
}

/// The functions find a baseline by the name its identity gives; a file named
/// otherwise would silently never apply.
fn check_name(name: &str, b: &BaselineFile) -> Result<(), String> {
    let identity = format!(
        "stack {:?}, account {}, region {:?}",
        b.stack_name,
        b.account_id
            .as_deref()
            .map_or("(none)".into(), |a| format!("{a:?}")),
        b.region
    );
    let matches = match &b.account_id {
        Some(account) => {
            let expected = file_name(&b.stack_name, account, &b.region)
                .map_err(|e| format!("its {identity} cannot name a file: {e}"))?;
            name == expected
        }
        // Files from before accountId: the account part of the name is unchecked.
        None => name
            .strip_prefix(&format!("{}.", b.stack_name))
            .and_then(|rest| rest.strip_suffix(&format!(".{}.json", b.region)))
            .is_some_and(|account| !account.is_empty() && !account.contains('.')),
    };
    if matches {
        Ok(())
    } else {
        Err(format!(
            "its name does not match its content ({identity}): the functions look a \
             baseline up as <stackName>.<accountId>.<region>.json"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r#"{"schemaVersion": 2, "stackName": "App", "accountId": "111111111111", "region": "eu-west-1", "recorded": []}"#;

    fn check(name: &str, text: &str) -> Result<SyncFileKind, SyncRefusal> {
        check_sync_file(name, &format!("baselines/{name}"), text)
    }

    #[test]
    fn a_baseline_named_after_its_identity_is_accepted() {
        assert_eq!(
            check("App.111111111111.eu-west-1.json", GOOD),
            Ok(SyncFileKind::Baseline)
        );
    }

    #[test]
    fn a_misnamed_baseline_is_refused_with_its_identity() {
        let err = check("App.222222222222.eu-west-1.json", GOOD).unwrap_err();
        assert_eq!(err.file, "baselines/App.222222222222.eu-west-1.json");
        assert!(err.cause.contains("does not match its content"), "{err}");
        assert!(err.cause.contains("\"111111111111\""), "{err}");
    }

    #[test]
    fn a_broken_baseline_is_refused_naming_line_and_file() {
        let err = check(
            "App.111111111111.eu-west-1.json",
            "{\n  \"stackName\": 5\n}",
        )
        .unwrap_err();
        let text = err.to_string();
        assert!(
            text.starts_with("baselines/App.111111111111.eu-west-1.json: does not parse"),
            "{text}"
        );
        assert!(text.contains("line 2"), "{text}");
    }

    #[test]
    fn an_unsupported_schema_version_is_refused() {
        let text = GOOD.replace("\"schemaVersion\": 2", "\"schemaVersion\": 9");
        let err = check("App.111111111111.eu-west-1.json", &text).unwrap_err();
        assert!(err.cause.contains("unsupported schemaVersion 9"), "{err}");
    }

    #[test]
    fn a_legacy_baseline_without_account_is_checked_by_stack_and_region() {
        let legacy = r#"{"stackName": "App", "region": "eu-west-1"}"#;
        assert!(check("App.111111111111.eu-west-1.json", legacy).is_ok());
        assert!(check("Other.111111111111.eu-west-1.json", legacy).is_err());
        assert!(check("App.eu-west-1.json", legacy).is_err());
    }

    #[test]
    fn the_ignore_file_must_parse() {
        assert_eq!(
            check("ignore.yaml", "ignore:\n  - path: 'X.Y'\n"),
            Ok(SyncFileKind::IgnoreRules)
        );
        let err = check("ignore.yaml", "ignroe: []\n").unwrap_err();
        assert!(err.cause.contains("unknown top-level key"), "{err}");
    }

    #[test]
    fn stray_files_are_refused_and_the_placeholder_skipped() {
        assert_eq!(check(".gitkeep", ""), Ok(SyncFileKind::Placeholder));
        for name in ["notes.txt", "App.json.bak", "ignore.yml", ".DS_Store"] {
            let err = check(name, "x").unwrap_err();
            assert!(
                err.cause.starts_with("not a baseline file"),
                "{name}: {err}"
            );
        }
    }
}
