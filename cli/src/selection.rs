//! What a run selected but did not check: a CI gate must not pass on
//! nothing. A stack named exactly that is mid-change or failed could not be
//! checked (an error, like a missing one); a glob that matched no stack, a
//! glob-matched stack skipped for its state, or a run with no stack at all
//! checked less than was asked (non-zero under `--strict`, and for record).
//!
//! Discovery reports skipped stacks as notes (`skipped stack NAME: REASON`);
//! this reads them until core reports skipped stacks as typed entries.

use globset::Glob;

/// The part of a selection that was not checked.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Unchecked {
    /// Exactly named stacks that were skipped: (stack, why).
    pub named: Vec<(String, String)>,
    /// Stacks matched by a glob (or by "every CDK stack") that were skipped: the note.
    pub skipped: Vec<String>,
    /// Globs that matched no stack at all.
    pub unmatched_globs: Vec<String>,
    /// No stack at all was checked or even found.
    pub nothing: bool,
}

impl Unchecked {
    /// The reasons a strict gate fails (one line each); empty when everything selected was checked.
    pub fn strict_reasons(&self) -> Vec<String> {
        let mut out: Vec<String> = self.skipped.clone();
        out.extend(
            self.unmatched_globs
                .iter()
                .map(|g| format!("stack pattern {g} matched no stack")),
        );
        if self.nothing && self.unmatched_globs.is_empty() && self.named.is_empty() {
            out.push("no stack was checked".into());
        }
        out
    }
}

/// True when a selector is a glob (as discovery decides).
fn is_glob(s: &str) -> bool {
    s.contains(['*', '?', '[', '{'])
}

/// The name and reason of a discovery "skipped stack" note.
fn skipped_note(note: &str) -> Option<(&str, &str)> {
    note.strip_prefix("skipped stack ")?.split_once(": ")
}

/// Compares what was selected with what was gathered (`gathered`: stack
/// names that produced a report, errors included) and discovery's notes.
pub fn audit(selectors: &[String], gathered: &[String], notes: &[String]) -> Unchecked {
    let skipped: Vec<(&str, &str)> = notes.iter().filter_map(|n| skipped_note(n)).collect();
    let mut out = Unchecked {
        nothing: gathered.is_empty(),
        ..Unchecked::default()
    };
    for (name, reason) in &skipped {
        if selectors.iter().any(|s| !is_glob(s) && s == name) {
            out.named.push((
                name.to_string(),
                format!("stack {name}: not checked: {reason} (only settled stacks are checked)"),
            ));
        } else {
            out.skipped.push(format!("skipped stack {name}: {reason}"));
        }
    }
    for g in selectors.iter().filter(|s| is_glob(s)) {
        let Ok(m) = Glob::new(g).map(|g| g.compile_matcher()) else {
            continue;
        };
        let hit =
            gathered.iter().any(|n| m.is_match(n)) || skipped.iter().any(|(n, _)| m.is_match(n));
        if !hit {
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
    fn a_named_stack_mid_change_is_an_error() {
        let a = audit(
            &v(&["App"]),
            &[],
            &v(&["skipped stack App: status CREATE_IN_PROGRESS"]),
        );
        assert_eq!(a.named.len(), 1);
        assert!(a.named[0].1.contains("CREATE_IN_PROGRESS"), "{:?}", a.named);
        assert!(a.skipped.is_empty());
    }

    #[test]
    fn globs_matching_nothing_and_skipped_matches_fail_strict() {
        let a = audit(
            &v(&["Dev*", "Prod*"]),
            &v(&["Prod-Api"]),
            &v(&["skipped stack Prod-Db: status UPDATE_IN_PROGRESS"]),
        );
        assert_eq!(a.unmatched_globs, v(&["Dev*"]));
        assert_eq!(a.skipped.len(), 1);
        assert_eq!(a.strict_reasons().len(), 2);
        let clean = audit(&v(&["Prod*"]), &v(&["Prod-Api"]), &[]);
        assert!(clean.strict_reasons().is_empty());
    }

    #[test]
    fn nothing_checked_fails_strict() {
        let a = audit(&[], &[], &[]);
        assert_eq!(a.strict_reasons(), v(&["no stack was checked"]));
    }
}
