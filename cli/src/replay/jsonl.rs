//! The `jsonl` replay format: one JSON object per case file.

use super::CaseReport;
use crate::terminal::write_json_line;
use realdrift_core::Finding;
use serde::Serialize;
use std::io::{self, Write};

/// A case that replayed: the findings classify produced.
#[derive(Serialize)]
struct FindingsLine<'a> {
    case: &'a str,
    findings: &'a [Finding],
}

/// A case that could not be replayed.
#[derive(Serialize)]
struct ErrorLine<'a> {
    case: &'a str,
    error: &'a str,
}

/// Writes one line for one case.
pub fn write_case<W: Write>(out: &mut W, report: &CaseReport) -> io::Result<()> {
    match &report.result {
        Ok(r) => write_json_line(
            out,
            &FindingsLine {
                case: &report.name,
                findings: &r.produced,
            },
        ),
        Err(error) => write_json_line(
            out,
            &ErrorLine {
                case: &report.name,
                error,
            },
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::Replayed;
    use realdrift_core::corpus::Agreement;
    use realdrift_core::Tier;
    use serde_json::{json, Value};

    fn line(report: &CaseReport) -> Value {
        let mut out = Vec::new();
        write_case(&mut out, report).unwrap();
        assert_eq!(out.iter().filter(|b| **b == b'\n').count(), 1);
        serde_json::from_slice(&out).unwrap()
    }

    #[test]
    fn findings_use_the_corpus_finding_format() {
        let mut f = Finding::new(Tier::Declared, "Bucket", "AWS::S3::Bucket", "Versioning");
        f.actual = Some(json!("Suspended"));
        let report = CaseReport {
            name: "a.json".into(),
            result: Ok(Replayed {
                expected: vec![],
                produced: vec![f],
                agreement: Agreement::default(),
            }),
        };
        assert_eq!(
            line(&report),
            json!({"case": "a.json", "findings": [{
                "tier": "declared", "logicalId": "Bucket", "resourceType": "AWS::S3::Bucket",
                "path": "Versioning", "actual": "Suspended"
            }]})
        );
    }

    #[test]
    fn errors_carry_the_message() {
        let report = CaseReport {
            name: "bad\n.json".into(),
            result: Err("bad.json: expected value at line 1 column 1".into()),
        };
        assert_eq!(
            line(&report),
            json!({"case": "bad\n.json", "error": "bad.json: expected value at line 1 column 1"})
        );
    }
}
