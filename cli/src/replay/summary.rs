//! The `summary` replay format: agreement counts, what differs per case,
//! and per-tier totals.

use super::CaseReport;
use crate::terminal::{display, escape_message};
use realdrift_core::corpus::{Agreement, Key};
use realdrift_core::{Finding, Tier};
use std::io::{self, Write};

/// Per-tier finding counts over all replayed cases.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TierCounts {
    /// Findings the cases expect.
    pub expected: usize,
    /// Findings classify produced.
    pub produced: usize,
    /// Expected findings not produced.
    pub missing: usize,
    /// Produced findings not expected.
    pub extra: usize,
    /// Drift findings whose values differ.
    pub value_mismatch: usize,
}

/// Agreement over a whole directory, accumulated case by case.
#[derive(Debug, Default)]
pub struct Tally {
    /// Case files seen.
    pub cases: usize,
    /// Cases reproduced exactly.
    pub exact: usize,
    /// Cases that replayed but disagree, with what differs.
    pub disagreeing: Vec<(String, Agreement)>,
    /// Cases that could not be replayed, with why.
    pub errors: Vec<(String, String)>,
    /// Expected drift findings not reproduced (missing or different value).
    pub missed_drift: usize,
    /// Cases with at least one missed drift finding.
    pub missed_drift_cases: usize,
    /// Counts per tier, in `Tier::ALL` order.
    pub tiers: [TierCounts; Tier::ALL.len()],
    /// Produced `declared` / `deleted` findings the cases do not expect:
    /// false alarms.
    pub false_alarms: usize,
    /// Per cause of disagreement (`expected tier -> produced tier` for one
    /// path, `-` for none): (cases showing it, cases where it is the only
    /// cause).
    pub causes: std::collections::BTreeMap<String, (usize, usize)>,
}

/// The causes of one case's disagreement: each differing path as `expected
/// tier -> produced tier` (`-` when a side has no finding at that path;
/// `values differ` for a drift finding with other values).
fn causes_of(a: &Agreement) -> std::collections::BTreeSet<String> {
    let mut out = std::collections::BTreeSet::new();
    for (t, p) in &a.extra {
        let from = a
            .missing
            .iter()
            .find(|(_, mp)| mp == p)
            .map(|(mt, _)| mt.as_str());
        out.insert(format!("{} -> {}", from.unwrap_or("-"), t.as_str()));
    }
    for (t, p) in &a.missing {
        if !a.extra.iter().any(|(_, ep)| ep == p) {
            out.insert(format!("{} -> -", t.as_str()));
        }
    }
    for (t, _) in &a.value_mismatch {
        out.insert(format!("{t} values differ", t = t.as_str()));
    }
    out
}

fn tier_index(t: Tier) -> usize {
    Tier::ALL.iter().position(|x| *x == t).unwrap_or(0)
}

impl Tally {
    /// Adds one case's outcome.
    pub fn add(&mut self, report: &CaseReport) {
        self.cases += 1;
        let r = match &report.result {
            Ok(r) => r,
            Err(e) => {
                self.errors.push((report.name.clone(), e.clone()));
                return;
            }
        };
        let count = |fs: &[Finding], tiers: &mut [TierCounts; Tier::ALL.len()], expected: bool| {
            for f in fs {
                let c = &mut tiers[tier_index(f.tier)];
                if expected {
                    c.expected += 1;
                } else {
                    c.produced += 1;
                }
            }
        };
        count(&r.expected, &mut self.tiers, true);
        count(&r.produced, &mut self.tiers, false);
        let a = &r.agreement;
        for (t, _) in &a.missing {
            self.tiers[tier_index(*t)].missing += 1;
        }
        for (t, _) in &a.extra {
            self.tiers[tier_index(*t)].extra += 1;
        }
        for (t, _) in &a.value_mismatch {
            self.tiers[tier_index(*t)].value_mismatch += 1;
        }
        self.false_alarms += a
            .extra
            .iter()
            .filter(|(t, _)| matches!(t, Tier::Declared | Tier::Deleted))
            .count();
        let causes = causes_of(a);
        let sole = causes.len() == 1;
        for c in causes {
            let e = self.causes.entry(c).or_default();
            e.0 += 1;
            e.1 += usize::from(sole);
        }
        let missed = a.missed_drift().len();
        self.missed_drift += missed;
        self.missed_drift_cases += usize::from(missed > 0);
        if a.is_exact() {
            self.exact += 1;
        } else {
            self.disagreeing.push((report.name.clone(), a.clone()));
        }
    }
}

fn keys(keys: &[Key]) -> String {
    keys.iter()
        .map(|(t, p)| format!("{t}:{}", display(p)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// One line saying what differs in a disagreeing case.
fn describe(a: &Agreement) -> String {
    let mut parts = Vec::new();
    if !a.missing.is_empty() {
        parts.push(format!("missing [{}]", keys(&a.missing)));
    }
    if !a.extra.is_empty() {
        parts.push(format!("extra [{}]", keys(&a.extra)));
    }
    if !a.value_mismatch.is_empty() {
        parts.push(format!("values differ [{}]", keys(&a.value_mismatch)));
    }
    parts.join("; ")
}

/// Writes the summary of a finished tally.
pub fn write<W: Write>(out: &mut W, t: &Tally) -> io::Result<()> {
    writeln!(out, "cases:                 {}", t.cases)?;
    writeln!(out, "exact:                 {}", t.exact)?;
    writeln!(out, "disagreeing:           {}", t.disagreeing.len())?;
    writeln!(out, "errors:                {}", t.errors.len())?;
    writeln!(
        out,
        "missed drift findings: {} (in {} cases)",
        t.missed_drift, t.missed_drift_cases
    )?;
    writeln!(
        out,
        "unexpected declared/deleted findings: {}",
        t.false_alarms
    )?;
    if !t.disagreeing.is_empty() {
        writeln!(
            out,
            "\nby cause (expected tier -> produced tier at one path):"
        )?;
        writeln!(out, "  {:<32} {:>6} {:>10}", "cause", "cases", "only cause")?;
        let mut causes: Vec<_> = t.causes.iter().collect();
        causes.sort_by(|a, b| b.1 .0.cmp(&a.1 .0).then(a.0.cmp(b.0)));
        for (c, (n, sole)) in causes {
            writeln!(out, "  {c:<32} {n:>6} {sole:>10}")?;
        }
        writeln!(out, "\ndisagreeing cases:")?;
        for (name, a) in &t.disagreeing {
            writeln!(out, "  {}: {}", display(name), describe(a))?;
        }
    }
    if !t.errors.is_empty() {
        writeln!(out, "\ncase errors:")?;
        for (name, e) in &t.errors {
            writeln!(out, "  {}: {}", display(name), escape_message(e))?;
        }
    }
    writeln!(out, "\nper tier:")?;
    writeln!(
        out,
        "  {:<12} {:>9} {:>9} {:>9} {:>9} {:>14}",
        "tier", "expected", "produced", "missing", "extra", "values differ"
    )?;
    for (tier, c) in Tier::ALL.iter().zip(&t.tiers) {
        writeln!(
            out,
            "  {:<12} {:>9} {:>9} {:>9} {:>9} {:>14}",
            tier.as_str(),
            c.expected,
            c.produced,
            c.missing,
            c.extra,
            c.value_mismatch
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::Replayed;
    use realdrift_core::corpus::compare_findings;
    use serde_json::json;

    fn f(tier: Tier, path: &str, actual: i64) -> Finding {
        let mut x = Finding::new(tier, "L", "AWS::X::Y", path);
        x.actual = Some(json!(actual));
        x
    }

    fn case(name: &str, expected: Vec<Finding>, produced: Vec<Finding>) -> CaseReport {
        let agreement = compare_findings(&expected, &produced);
        CaseReport {
            name: name.into(),
            result: Ok(Replayed {
                expected,
                produced,
                agreement,
            }),
        }
    }

    fn tally(reports: &[CaseReport]) -> Tally {
        let mut t = Tally::default();
        reports.iter().for_each(|r| t.add(r));
        t
    }

    fn render(t: &Tally) -> String {
        let mut out = Vec::new();
        write(&mut out, t).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn counts_cases_and_tiers() {
        let t = tally(&[
            case(
                "ok.json",
                vec![f(Tier::AtDefault, "A", 1)],
                vec![f(Tier::AtDefault, "A", 1)],
            ),
            case(
                "bad.json",
                vec![f(Tier::Declared, "B", 1), f(Tier::Undeclared, "C", 1)],
                vec![f(Tier::Declared, "B", 2), f(Tier::ReadGap, "D", 0)],
            ),
            CaseReport {
                name: "broken.json".into(),
                result: Err("broken.json: EOF".into()),
            },
        ]);
        assert_eq!(
            (t.cases, t.exact, t.disagreeing.len(), t.errors.len()),
            (3, 1, 1, 1)
        );
        assert_eq!((t.missed_drift, t.missed_drift_cases), (2, 1));
        let declared = t.tiers[tier_index(Tier::Declared)];
        assert_eq!(
            declared,
            TierCounts {
                expected: 1,
                produced: 1,
                missing: 0,
                extra: 0,
                value_mismatch: 1
            }
        );
        assert_eq!(t.tiers[tier_index(Tier::Undeclared)].missing, 1);
        assert_eq!(t.tiers[tier_index(Tier::ReadGap)].extra, 1);
        assert_eq!(t.tiers[tier_index(Tier::AtDefault)].expected, 1);

        let text = render(&t);
        assert!(text.contains("cases:                 3\n"), "{text}");
        assert!(
            text.contains("missed drift findings: 2 (in 1 cases)"),
            "{text}"
        );
        assert!(
            text.contains(
                "  bad.json: missing [undeclared:C]; extra [readGap:D]; values differ [declared:B]\n"
            ),
            "{text}"
        );
        assert!(text.contains("  broken.json: broken.json: EOF\n"), "{text}");
        assert!(
            text.contains("unexpected declared/deleted findings: 0\n"),
            "{text}"
        );
        assert!(
            text.contains("  declared values differ                1          0\n"),
            "{text}"
        );
        assert!(
            text.contains("  undeclared -> -                       1          0\n"),
            "{text}"
        );
        assert!(
            text.contains("  - -> readGap                          1          0\n"),
            "{text}"
        );
        assert!(
            text.contains(
                "  declared             1         1         0         0              1\n"
            ),
            "{text}"
        );
    }

    #[test]
    fn untrusted_names_and_paths_carry_no_control_characters() {
        let t = tally(&[
            case(
                "evil\u{1b}[2J.json",
                vec![f(Tier::Declared, "P\n\u{202e}x", 1)],
                vec![],
            ),
            CaseReport {
                name: "x\ry.json".into(),
                result: Err("x\u{1b}]8;;link\u{7}".into()),
            },
        ]);
        let text = render(&t);
        assert!(
            !text
                .chars()
                .any(|c| c != '\n' && (c.is_control() || c == '\u{202e}')),
            "{text:?}"
        );
        assert!(
            text.contains(r#""evil\u001b[2J.json": missing [declared:"P\n\u202ex"]"#),
            "{text}"
        );
        assert!(
            text.contains(r#""x\ry.json": x\u001b]8;;link\u0007"#),
            "{text}"
        );
    }
}
