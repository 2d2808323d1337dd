//! Exit codes of `check`, as a pure function of results and flags. This is
//! the one place the semantics live (docs/cli.md and docs/json-output.md
//! describe them):
//!
//! - **2 (error)** — some stack could not be checked at all: it does not
//!   exist, its template or description could not be read or parsed, its
//!   baseline is malformed or belongs elsewhere. Always, whatever the flags.
//! - **1 (fail)** — confirmed drift under `--fail`, or lost coverage under
//!   `--strict`. Lost coverage is coverage the user expects and did not get:
//!   a stack not compared for its state (mid-change, failed), a read refused
//!   or failed, a resource of a type no reader can read (unless an `accept`
//!   rule of `ignore.yaml` accepts the type), a read model without a schema,
//!   properties that cannot be resolved, a failed child listing. Benign
//!   skips (custom resources, nothing to read) are reported but never fail
//!   `--strict`.
//! - **0** — anything else. Potential drift (unrecorded live-only values)
//!   never changes the exit code.

use super::model::{is_confirmed_drift, StackReport};

/// The flags that decide the exit code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ExitFlags {
    /// `--fail`: confirmed drift exits 1.
    pub fail: bool,
    /// `--strict`: lost coverage exits 1.
    pub strict: bool,
}

/// The process exit code of a check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ExitCode {
    /// 0: nothing that fails under the given flags.
    Ok = 0,
    /// 1: drift under `--fail`, or lost coverage under `--strict`.
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

/// What a run's reports say, as far as the exit code cares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RunFacts {
    /// Some stack could not be checked at all.
    pub error: bool,
    /// Some finding is confirmed drift.
    pub drift: bool,
    /// Some stack lost coverage (or was not compared for its state).
    pub coverage_lost: bool,
}

impl RunFacts {
    /// The facts of a multi-stack run.
    pub fn of(reports: &[StackReport]) -> Self {
        RunFacts {
            error: reports.iter().any(|r| r.error.is_some()),
            drift: reports
                .iter()
                .any(|r| r.findings.iter().any(is_confirmed_drift)),
            coverage_lost: reports.iter().any(StackReport::coverage_lost),
        }
    }

    /// The exit code under `flags`.
    pub fn exit_code(self, flags: ExitFlags) -> ExitCode {
        if self.error {
            ExitCode::Error
        } else if (self.drift && flags.fail) || (self.coverage_lost && flags.strict) {
            ExitCode::Fail
        } else {
            ExitCode::Ok
        }
    }
}

/// The exit code of a multi-stack check.
pub fn exit_code(reports: &[StackReport], flags: ExitFlags) -> ExitCode {
    RunFacts::of(reports).exit_code(flags)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::finding::{Finding, Tier};
    use crate::report::model::{Coverage, NotChecked};

    fn facts(error: bool, drift: bool, coverage_lost: bool) -> RunFacts {
        RunFacts {
            error,
            drift,
            coverage_lost,
        }
    }

    #[test]
    fn truth_table() {
        let f = |fail, strict| ExitFlags { fail, strict };
        let all = [
            f(false, false),
            f(true, false),
            f(false, true),
            f(true, true),
        ];
        for flags in all {
            assert_eq!(facts(true, false, false).exit_code(flags), ExitCode::Error);
            assert_eq!(facts(false, false, false).exit_code(flags), ExitCode::Ok);
        }
        assert_eq!(
            facts(false, true, false).exit_code(f(false, true)),
            ExitCode::Ok
        );
        assert_eq!(
            facts(false, true, false).exit_code(f(true, false)),
            ExitCode::Fail
        );
        assert_eq!(
            facts(false, false, true).exit_code(f(true, false)),
            ExitCode::Ok
        );
        assert_eq!(
            facts(false, false, true).exit_code(f(false, true)),
            ExitCode::Fail
        );
        assert_eq!(
            facts(true, true, true).exit_code(f(true, true)),
            ExitCode::Error
        );
        assert_eq!(ExitCode::Error.code(), 2);
    }

    fn checked(coverage: Coverage) -> StackReport {
        StackReport {
            stack: "S".into(),
            coverage,
            ..StackReport::default()
        }
    }

    #[test]
    fn benign_skips_pass_strict_and_lost_coverage_fails_it() {
        let strict = ExitFlags {
            fail: true,
            strict: true,
        };
        // One custom resource skipped: incomplete, but nothing lost.
        let mut custom = checked(Coverage {
            total: 2,
            checked: 1,
            skipped: 1,
            ..Coverage::default()
        });
        custom
            .findings
            .push(Finding::new(Tier::Skipped, "C", "Custom::X", ""));
        assert!(!custom.coverage_complete());
        assert_eq!(exit_code(&[custom], strict), ExitCode::Ok);
        // A refused read: lost.
        let denied = checked(Coverage {
            total: 1,
            skipped: 1,
            lost: 1,
            ..Coverage::default()
        });
        assert_eq!(exit_code(&[denied], strict), ExitCode::Fail);
    }

    #[test]
    fn unchecked_and_errored_stacks_are_never_complete_and_always_count() {
        let strict = ExitFlags {
            fail: true,
            strict: true,
        };
        let unsettled = StackReport {
            stack: "S".into(),
            not_checked: Some(NotChecked {
                status: "UPDATE_ROLLBACK_FAILED".into(),
            }),
            ..StackReport::default()
        };
        assert!(!unsettled.coverage_complete());
        assert!(unsettled.coverage_lost());
        assert_eq!(
            exit_code(std::slice::from_ref(&unsettled), strict),
            ExitCode::Fail
        );
        assert_eq!(exit_code(&[unsettled], ExitFlags::default()), ExitCode::Ok);
        let errored = StackReport {
            stack: "S".into(),
            error: Some("stack S: not found".into()),
            ..StackReport::default()
        };
        // Coverage::default() counts nothing: it must still not read as complete.
        assert!(errored.coverage.is_complete());
        assert!(!errored.coverage_complete());
        assert_eq!(exit_code(&[errored], ExitFlags::default()), ExitCode::Error);
    }
}
