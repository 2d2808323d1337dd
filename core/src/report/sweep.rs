//! A check across accounts and regions (`check --accounts ... --regions ...`):
//! one section per account and region, or one error entry per account whose
//! role could not be assumed. Pure aggregation: the sections' reports are the
//! single-account ones, so the exit code and the JSON of each section mean
//! exactly what they mean for one account.

use super::exit::{exit_code, ExitCode, ExitFlags};
use super::json::json_value;
use super::model::StackReport;
use super::sanitize::{is_unsafe_char, sanitize_identifier};
use super::text::{render_text, TextOptions};
use serde_json::{json, Value};

/// The schema identifier of the sweep's JSON report.
pub const SWEEP_JSON_SCHEMA: &str = "realdrift.sweep.v1";

/// What one account (and region) of a sweep produced.
#[derive(Debug, Clone, PartialEq)]
pub enum SweepOutcome {
    /// The stacks were checked (each report may itself be an error entry).
    Checked(Vec<StackReport>),
    /// The account (or region) could not be checked at all: the role could
    /// not be assumed, or the clients could not be built.
    Error(String),
}

/// One section of a sweep.
#[derive(Debug, Clone, PartialEq)]
pub struct SweepSection {
    /// The account id the section is about.
    pub account: String,
    /// The region; `None` when the error concerns the account in every region
    /// (its role could not be assumed).
    pub region: Option<String>,
    /// The result.
    pub outcome: SweepOutcome,
}

impl SweepSection {
    /// The section's exit code: an error entry is "could not check" (2).
    pub fn exit_code(&self, flags: ExitFlags) -> ExitCode {
        match &self.outcome {
            SweepOutcome::Checked(reports) => exit_code(reports, flags),
            SweepOutcome::Error(_) => ExitCode::Error,
        }
    }

    /// `account 111111111111, region eu-west-1` (or `all regions`).
    pub fn title(&self) -> String {
        let region = match &self.region {
            Some(r) => format!("region {}", sanitize_identifier(r)),
            None => "all regions".to_string(),
        };
        format!("account {}, {region}", sanitize_identifier(&self.account))
    }
}

/// The sweep's exit code: the worst over all its sections (0 when empty).
pub fn sweep_exit_code(sections: &[SweepSection], flags: ExitFlags) -> ExitCode {
    sections
        .iter()
        .map(|s| s.exit_code(flags))
        .max()
        .unwrap_or(ExitCode::Ok)
}

/// The sweep as text: a header line per section, then its stacks as `check`
/// prints them (or the error entry).
pub fn render_sweep_text(sections: &[SweepSection], opts: TextOptions) -> String {
    let mut out = String::new();
    for (i, s) in sections.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(&format!("=== {} ===\n", s.title()));
        match &s.outcome {
            SweepOutcome::Checked(reports) if reports.is_empty() => {
                out.push_str("no stacks matched\n");
            }
            SweepOutcome::Checked(reports) => {
                let text = render_text(reports, opts);
                out.push_str(&text);
                if !text.ends_with('\n') {
                    out.push('\n');
                }
            }
            SweepOutcome::Error(reason) => {
                out.push_str(&format!(
                    "error: could not check account {}: {}\n",
                    sanitize_identifier(&s.account),
                    escape_reason(reason)
                ));
            }
        }
    }
    out
}

/// An error reason on one terminal line, whole (STS's answer names the role
/// and the cause at its end): unsafe characters as `\uXXXX`, capped at
/// 2000 characters.
fn escape_reason(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars().take(2000) {
        if is_unsafe_char(c) {
            out.push_str(&format!("\\u{:04X}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

/// The sweep's JSON document (docs/json-output.md, "Across accounts"): each
/// checked section carries the single-account document as `report`.
pub fn sweep_json_value(sections: &[SweepSection], flags: ExitFlags) -> Value {
    let mut errors = 0;
    let mut drift = 0;
    let mut stacks = 0;
    let mut out = Vec::new();
    for s in sections {
        let (error, report) = match &s.outcome {
            SweepOutcome::Checked(reports) => {
                let doc = json_value(reports, flags);
                drift += doc["summary"]["drift"].as_u64().unwrap_or(0);
                stacks += reports.len();
                (None, Some(doc))
            }
            SweepOutcome::Error(reason) => {
                errors += 1;
                (Some(reason.clone()), None)
            }
        };
        out.push(json!({
            "accountId": s.account,
            "region": s.region,
            "exitCode": s.exit_code(flags).code(),
            "error": error,
            "report": report,
        }));
    }
    json!({
        "schema": SWEEP_JSON_SCHEMA,
        "exitCode": sweep_exit_code(sections, flags).code(),
        "summary": {
            "sections": sections.len(),
            "errorSections": errors,
            "stacks": stacks,
            "drift": drift,
        },
        "sections": out,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn checked(account: &str, reports: Vec<StackReport>) -> SweepSection {
        SweepSection {
            account: account.into(),
            region: Some("us-east-1".into()),
            outcome: SweepOutcome::Checked(reports),
        }
    }

    fn unassumable(account: &str) -> SweepSection {
        SweepSection {
            account: account.into(),
            region: None,
            outcome: SweepOutcome::Error("AccessDenied: not authorized".into()),
        }
    }

    fn clean(stack: &str) -> StackReport {
        StackReport {
            stack: stack.into(),
            region: "us-east-1".into(),
            ..StackReport::default()
        }
    }

    #[test]
    fn an_unassumable_account_is_could_not_check_and_the_others_are_kept() {
        let s = vec![
            checked("111111111111", vec![clean("App")]),
            unassumable("333333333333"),
        ];
        assert_eq!(sweep_exit_code(&s, ExitFlags::default()), ExitCode::Error);
        let doc = sweep_json_value(&s, ExitFlags::default());
        assert_eq!(doc["exitCode"], 2);
        assert_eq!(doc["summary"]["errorSections"], 1);
        assert_eq!(doc["sections"][0]["exitCode"], 0);
        assert_eq!(doc["sections"][0]["report"]["stacks"][0]["stack"], "App");
        assert_eq!(doc["sections"][1]["accountId"], "333333333333");
        assert!(doc["sections"][1]["region"].is_null());
        assert!(doc["sections"][1]["report"].is_null());
    }

    #[test]
    fn the_exit_code_is_the_worst_section() {
        let ok = vec![checked("111111111111", vec![clean("A")])];
        assert_eq!(sweep_exit_code(&ok, ExitFlags::default()), ExitCode::Ok);
        assert_eq!(sweep_exit_code(&[], ExitFlags::default()), ExitCode::Ok);
        let broken = StackReport {
            error: Some("not found".into()),
            ..clean("B")
        };
        let mixed = vec![ok[0].clone(), checked("222222222222", vec![broken])];
        assert_eq!(
            sweep_exit_code(&mixed, ExitFlags::default()),
            ExitCode::Error
        );
    }

    #[test]
    fn text_names_each_section_and_escapes_the_reason() {
        let mut bad = unassumable("333333333333");
        bad.outcome = SweepOutcome::Error("denied\u{1b}[2J".into());
        let s = vec![checked("111111111111", vec![]), bad];
        let text = render_sweep_text(&s, TextOptions::default());
        assert!(
            text.contains("=== account 111111111111, region us-east-1 ===\nno stacks matched\n")
        );
        assert!(text.contains("=== account 333333333333, all regions ==="));
        assert!(text.contains("error: could not check account 333333333333: denied"));
        assert!(!text.contains('\u{1b}'), "{text:?}");
        assert!(text.contains("denied\\u001B[2J"), "{text:?}");
    }
}
