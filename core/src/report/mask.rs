//! Secret masking: values behind `{{resolve:...}}` references, NoEcho
//! parameters and already-masked baseline positions render as `***`.
//!
//! Masking happens before any rendering, in every renderer, so no output path
//! can forget it. Where the desired and live shapes cannot be lined up, the
//! whole live value is masked (over-masking beats printing a secret).

use crate::baseline::below;
use crate::finding::Finding;
use serde_json::Value;
use std::collections::BTreeSet;

/// The mask shown in place of a secret.
pub const MASK: &str = "***";

/// Positions known to hold secrets, beyond what the values themselves reveal.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct MaskPolicy {
    /// (logical id, dotted path) filled by a NoEcho parameter or another secret source.
    pub positions: BTreeSet<(String, String)>,
}

impl MaskPolicy {
    /// Adds a secret position.
    pub fn with(mut self, logical_id: &str, path: &str) -> Self {
        self.positions
            .insert((logical_id.to_string(), path.to_string()));
        self
    }
}

/// True for a desired-side string that marks a secret position: a dynamic
/// reference (any `{{resolve:` kind — an ssm String cannot be told from a
/// SecureString here, so all are treated as secret) or an existing mask.
pub fn is_secret_marker(s: &str) -> bool {
    s == MASK || s.contains("{{resolve:")
}

/// A copy of the finding with every secret position masked on both sides as needed.
pub fn mask_finding(f: &Finding, policy: &MaskPolicy) -> Finding {
    let mut out = f.clone();
    for (id, pos) in &policy.positions {
        if id != &f.logical_id {
            continue;
        }
        if pos == &f.path || below(pos, &f.path).is_some() {
            mask_whole(&mut out.desired);
            mask_whole(&mut out.actual);
        } else if let Some(rel) = below(&f.path, pos) {
            mask_at(&mut out.desired, rel);
            mask_at(&mut out.actual, rel);
        }
    }
    if let (Some(desired), Some(actual)) = (out.desired.as_ref(), out.actual.as_mut()) {
        mask_by_desired(desired, actual);
    }
    out
}

/// Masks a list of findings.
pub fn mask_findings(findings: &[Finding], policy: &MaskPolicy) -> Vec<Finding> {
    findings.iter().map(|f| mask_finding(f, policy)).collect()
}

fn mask_whole(v: &mut Option<Value>) {
    if v.is_some() {
        *v = Some(Value::String(MASK.into()));
    }
}

/// Masks a sub-position; if the shape cannot be followed, masks the whole value.
fn mask_at(v: &mut Option<Value>, rel: &str) {
    let Some(root) = v.as_mut() else { return };
    let mut cur = root;
    for seg in crate::baseline::segments(rel) {
        let next = match (seg, cur) {
            (crate::baseline::Segment::Key(k), Value::Object(m)) => match m.get_mut(k) {
                Some(x) => x,
                None => return,
            },
            (crate::baseline::Segment::Key(k), Value::Array(a)) => {
                match k.parse::<usize>().ok().and_then(|i| a.get_mut(i)) {
                    Some(x) => x,
                    None => {
                        *v = Some(Value::String(MASK.into()));
                        return;
                    }
                }
            }
            _ => {
                *v = Some(Value::String(MASK.into()));
                return;
            }
        };
        cur = next;
    }
    *cur = Value::String(MASK.into());
}

/// Masks the live side wherever the desired side holds a secret marker.
fn mask_by_desired(desired: &Value, actual: &mut Value) {
    match desired {
        Value::String(s) if is_secret_marker(s) => *actual = Value::String(MASK.into()),
        Value::Object(dm) if contains_marker(desired) => match actual {
            Value::Object(am) => {
                for (k, dv) in dm {
                    if let Some(av) = am.get_mut(k) {
                        mask_by_desired(dv, av);
                    }
                }
            }
            _ => *actual = Value::String(MASK.into()),
        },
        Value::Array(da) if contains_marker(desired) => match actual {
            Value::Array(aa) if aa.len() == da.len() => {
                for (dv, av) in da.iter().zip(aa.iter_mut()) {
                    mask_by_desired(dv, av);
                }
            }
            // Reordered or resized: the secret's live position is unknown.
            _ => *actual = Value::String(MASK.into()),
        },
        _ => {}
    }
}

fn contains_marker(v: &Value) -> bool {
    match v {
        Value::String(s) => is_secret_marker(s),
        Value::Object(m) => m.values().any(contains_marker),
        Value::Array(a) => a.iter().any(contains_marker),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::finding::Tier;
    use serde_json::json;

    fn finding(path: &str, desired: Value, actual: Value) -> Finding {
        let mut f = Finding::new(Tier::Declared, "Db", "AWS::RDS::DBInstance", path);
        f.desired = Some(desired);
        f.actual = Some(actual);
        f
    }

    #[test]
    fn resolve_reference_masks_the_live_side_only() {
        let f = finding(
            "Environment",
            json!({"Variables": {"PW": "{{resolve:secretsmanager:db:SecretString:pw}}", "MODE": "a"}}),
            json!({"Variables": {"PW": "hunter2", "MODE": "b"}}),
        );
        let m = mask_finding(&f, &MaskPolicy::default());
        assert_eq!(
            m.actual,
            Some(json!({"Variables": {"PW": "***", "MODE": "b"}}))
        );
        assert_eq!(m.desired, f.desired);
    }

    #[test]
    fn unmatched_shapes_mask_everything_live() {
        let f = finding(
            "L",
            json!(["{{resolve:ssm-secure:p}}", "x"]),
            json!(["x", "s3cr3t", "y"]),
        );
        assert_eq!(
            mask_finding(&f, &MaskPolicy::default()).actual,
            Some(json!("***"))
        );
    }

    #[test]
    fn noecho_positions_mask_both_sides() {
        let f = finding("MasterUserPassword", json!("p1"), json!("p2"));
        let m = mask_finding(&f, &MaskPolicy::default().with("Db", "MasterUserPassword"));
        assert_eq!(
            (m.desired, m.actual),
            (Some(json!("***")), Some(json!("***")))
        );
        let g = finding(
            "Conf",
            json!({"Pw": "a", "X": 1}),
            json!({"Pw": "b", "X": 2}),
        );
        let m = mask_finding(&g, &MaskPolicy::default().with("Db", "Conf.Pw"));
        assert_eq!(m.actual, Some(json!({"Pw": "***", "X": 2})));
    }
}
