//! What a run selected but did not check: a CI gate must not pass on
//! nothing. A glob that matched no stack, or a run with no stack at all,
//! checked less than was asked (non-zero under `--strict`, and for record).
//! Stacks skipped for their state are typed entries of the report (core's
//! `NotChecked`), counted by the report's own exit code.

use globset::Glob;

/// The part of a selection that was not checked.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Unchecked {
    /// Globs that matched no stack at all.
    pub unmatched_globs: Vec<String>,
    /// No stack at all was checked or even found.
    pub nothing: bool,
}

impl Unchecked {
    /// The reasons a strict gate fails (one line each); empty when everything selected was checked.
    pub fn strict_reasons(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .unmatched_globs
            .iter()
            .map(|g| format!("stack pattern {g} matched no stack"))
            .collect();
        if self.nothing && out.is_empty() {
            out.push("no stack was checked".into());
        }
        out
    }
}

/// True when a selector is a glob (as discovery decides).
fn is_glob(s: &str) -> bool {
    s.contains(['*', '?', '[', '{'])
}

/// Compares what was selected with what was gathered (`gathered`: stack
/// names that have a report entry, errors and not-checked stacks included).
pub fn audit(selectors: &[String], gathered: &[String]) -> Unchecked {
    let mut out = Unchecked {
        nothing: gathered.is_empty(),
        ..Unchecked::default()
    };
    for g in selectors.iter().filter(|s| is_glob(s)) {
        let Ok(m) = Glob::new(g).map(|g| g.compile_matcher()) else {
            continue;
        };
        if !gathered.iter().any(|n| m.is_match(n)) {
            out.unmatched_globs.push(g.clone());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &[&str]) -> Vec<String> {
        s.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn globs_matching_nothing_fail_strict() {
        let a = audit(&v(&["Dev*", "Prod*"]), &v(&["Prod-Api"]));
        assert_eq!(a.unmatched_globs, v(&["Dev*"]));
        assert_eq!(
            a.strict_reasons(),
            v(&["stack pattern Dev* matched no stack"])
        );
        let clean = audit(&v(&["Prod*"]), &v(&["Prod-Api"]));
        assert!(clean.strict_reasons().is_empty());
    }

    #[test]
    fn nothing_checked_fails_strict() {
        let a = audit(&[], &[]);
        assert_eq!(a.strict_reasons(), v(&["no stack was checked"]));
    }
}
