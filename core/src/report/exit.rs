//! Exit codes of `check`, as a pure function of results and flags.
//!
//! 0: clean, or drift without `--fail`. 1: confirmed drift with `--fail`, or
//! incomplete coverage with `--strict` (drift outranks incomplete coverage;
//! both are 1). 2: a stack could not be checked (errors always exit 2).

use super::model::{is_confirmed_drift, StackReport};

/// The flags that decide the exit code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ExitFlags {
    /// `--fail`: confirmed drift exits 1.
    pub fail: bool,
    /// `--strict`: incomplete coverage exits 1.
    pub strict: bool,
}

/// The process exit code of a check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ExitCode {
    /// 0: nothing that fails under the given flags.
    Ok = 0,
    /// 1: drift under `--fail`, or incomplete coverage under `--strict`.
    Fail = 1,
    /// 2: an error.
    Error = 2,
}

impl ExitCode {
    /// The numeric code.
    pub fn code(self) -> i32 {
        self as i32
    }
}

/// The exit code from the three facts that decide it.
pub fn exit_code_for(
    drift: bool,
    coverage_complete: bool,
    error: bool,
    flags: ExitFlags,
) -> ExitCode {
    if error {
        ExitCode::Error
    } else if (drift && flags.fail) || (!coverage_complete && flags.strict) {
        ExitCode::Fail
    } else {
        ExitCode::Ok
    }
}

/// The exit code of a multi-stack check.
pub fn exit_code(reports: &[StackReport], flags: ExitFlags) -> ExitCode {
    let error = reports.iter().any(|r| r.error.is_some());
    let drift = reports
        .iter()
        .any(|r| r.findings.iter().any(is_confirmed_drift));
    let complete = reports.iter().all(|r| r.coverage.is_complete());
    exit_code_for(drift, complete, error, flags)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn truth_table() {
        let f = |fail, strict| ExitFlags { fail, strict };
        assert_eq!(
            exit_code_for(false, true, false, f(true, true)),
            ExitCode::Ok
        );
        assert_eq!(
            exit_code_for(true, true, false, f(false, false)),
            ExitCode::Ok
        );
        assert_eq!(
            exit_code_for(true, true, false, f(true, false)),
            ExitCode::Fail
        );
        assert_eq!(
            exit_code_for(false, false, false, f(false, false)),
            ExitCode::Ok
        );
        assert_eq!(
            exit_code_for(false, false, false, f(false, true)),
            ExitCode::Fail
        );
        assert_eq!(
            exit_code_for(true, false, false, f(true, true)),
            ExitCode::Fail
        );
        assert_eq!(
            exit_code_for(true, false, true, f(true, true)),
            ExitCode::Error
        );
        assert_eq!(ExitCode::Error.code(), 2);
    }
}
