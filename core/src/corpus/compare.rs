//! Agreement between expected and produced findings.
//!
//! Findings are compared as a multiset of `(tier, path)`, plus the
//! `actual`/`desired` values of the drift tiers.

use crate::finding::{Finding, Tier};
use serde_json::Value;
use std::collections::BTreeMap;

/// The comparison key of a finding.
pub type Key = (Tier, String);

/// The outcome of comparing one case.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Agreement {
    /// Expected findings the engine did not produce.
    pub missing: Vec<Key>,
    /// Findings the engine produced that were not expected.
    pub extra: Vec<Key>,
    /// Drift findings with matching keys but different values.
    pub value_mismatch: Vec<Key>,
}

impl Agreement {
    /// True when the case reproduces exactly.
    pub fn is_exact(&self) -> bool {
        self.missing.is_empty() && self.extra.is_empty() && self.value_mismatch.is_empty()
    }

    /// Expected drift findings that were not reproduced (missed changes).
    pub fn missed_drift(&self) -> Vec<&Key> {
        self.missing
            .iter()
            .chain(self.value_mismatch.iter())
            .filter(|(t, _)| t.is_drift())
            .collect()
    }
}

fn values_of(f: &Finding) -> (Value, Value) {
    (
        f.actual.clone().unwrap_or(Value::Null),
        f.desired.clone().unwrap_or(Value::Null),
    )
}

/// Compares expected with produced findings.
pub fn compare_findings(expected: &[Finding], produced: &[Finding]) -> Agreement {
    let mut exp: BTreeMap<Key, Vec<&Finding>> = BTreeMap::new();
    for f in expected {
        exp.entry((f.tier, f.path.clone())).or_default().push(f);
    }
    let mut got: BTreeMap<Key, Vec<&Finding>> = BTreeMap::new();
    for f in produced {
        got.entry((f.tier, f.path.clone())).or_default().push(f);
    }
    let mut out = Agreement::default();
    for (k, es) in &exp {
        let gs = got.get(k).map(Vec::as_slice).unwrap_or(&[]);
        for _ in gs.len()..es.len() {
            out.missing.push(k.clone());
        }
        if k.0.is_drift() {
            // Multiset match on values: each expected value must be produced once.
            let mut pool: Vec<(Value, Value)> = gs.iter().map(|f| values_of(f)).collect();
            for e in es.iter().take(gs.len()) {
                let want = values_of(e);
                if let Some(i) = pool.iter().position(|p| *p == want) {
                    pool.swap_remove(i);
                } else {
                    out.value_mismatch.push(k.clone());
                }
            }
        }
    }
    for (k, gs) in &got {
        let n = exp.get(k).map_or(0, Vec::len);
        for _ in n..gs.len() {
            out.extra.push(k.clone());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn f(tier: Tier, path: &str, actual: Option<Value>) -> Finding {
        let mut x = Finding::new(tier, "L", "AWS::X::Y", path);
        x.actual = actual;
        x
    }

    #[test]
    fn exact_when_same_multiset() {
        let a = vec![
            f(Tier::AtDefault, "A", Some(json!(1))),
            f(Tier::Declared, "B", Some(json!(2))),
        ];
        let b = vec![
            f(Tier::Declared, "B", Some(json!(2))),
            f(Tier::AtDefault, "A", Some(json!(9))),
        ];
        assert!(compare_findings(&a, &b).is_exact());
    }

    #[test]
    fn drift_values_are_compared() {
        let a = vec![f(Tier::Declared, "B", Some(json!(2)))];
        let b = vec![f(Tier::Declared, "B", Some(json!(3)))];
        let r = compare_findings(&a, &b);
        assert_eq!(r.value_mismatch, vec![(Tier::Declared, "B".to_string())]);
        assert_eq!(r.missed_drift().len(), 1);
    }

    #[test]
    fn missing_and_extra_are_counted() {
        let a = vec![f(Tier::AtDefault, "A", None), f(Tier::AtDefault, "A", None)];
        let b = vec![
            f(Tier::AtDefault, "A", None),
            f(Tier::Undeclared, "C", None),
        ];
        let r = compare_findings(&a, &b);
        assert_eq!(r.missing.len(), 1);
        assert_eq!(r.extra, vec![(Tier::Undeclared, "C".to_string())]);
    }
}
