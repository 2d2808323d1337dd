//! Leave-one-stack-out replay: each case is replayed without the observed
//! known defaults whose only evidence in the corpus is its own stack. An
//! entry fitted to one deploy then counts for nothing on that deploy, so the
//! figure estimates how the knowledge holds for a stack the corpus never
//! held (closer than `--without-observed`, which also drops what many
//! independent deploys confirm).

use super::case::CorpusCase;
use super::replay::{context_from_opts, replay_case_in};
use crate::finding::{Finding, Tier};
use crate::normalize::aws_facts::{
    facts_for, load_excluding, observed_known_defaults, AwsFacts, FactsError, Knowledge,
};
use crate::normalize::path::{Path, Pattern};
use std::collections::{BTreeMap, BTreeSet};

/// Which observed known defaults each stack alone supports.
#[derive(Debug, Default)]
pub struct HoldOut {
    held_out: BTreeMap<String, BTreeSet<usize>>,
}

impl HoldOut {
    /// Finds, for every observed known default, the stacks whose cases
    /// expect it (an `atDefault` finding at a path it covers, on its type);
    /// an entry supported by exactly one stack is held out for that stack.
    pub fn from_cases<'c>(
        cases: impl IntoIterator<Item = &'c CorpusCase>,
    ) -> Result<Self, FactsError> {
        let entries: Vec<(String, Pattern)> = observed_known_defaults()?
            .into_iter()
            .map(|e| (e.type_name, Pattern::parse(&e.path)))
            .collect();
        let mut support: Vec<BTreeSet<String>> = vec![BTreeSet::new(); entries.len()];
        for case in cases {
            let stack = stack_of(case);
            let at_default: Vec<Path> = case
                .expected
                .iter()
                .filter(|f| f.tier == Tier::AtDefault)
                .map(|f| Path::parse_rendered(&f.path))
                .collect();
            for (i, (t, pattern)) in entries.iter().enumerate() {
                let on_type = t == "*" || *t == case.resource.resource_type;
                if on_type && at_default.iter().any(|p| pattern.matches(p)) {
                    support[i].insert(stack.clone());
                }
            }
        }
        let mut held_out: BTreeMap<String, BTreeSet<usize>> = BTreeMap::new();
        for (i, stacks) in support.into_iter().enumerate() {
            if let (1, Some(only)) = (stacks.len(), stacks.into_iter().next()) {
                held_out.entry(only).or_default().insert(i);
            }
        }
        Ok(HoldOut { held_out })
    }

    /// The entries held out while replaying `stack`'s cases (positions in
    /// `known-defaults.json`).
    pub fn held_out_for(&self, stack: &str) -> Option<&BTreeSet<usize>> {
        self.held_out.get(stack)
    }

    /// How many entries some single stack alone supports.
    pub fn entries_held_out(&self) -> usize {
        self.held_out.values().map(BTreeSet::len).sum()
    }

    /// Replays `cases`, each without the entries its own stack alone
    /// supports; findings come back in input order. The facts are built
    /// once per stack.
    pub fn replay(&self, cases: &[&CorpusCase]) -> Result<Vec<Vec<Finding>>, FactsError> {
        let mut by_stack: BTreeMap<String, Vec<usize>> = BTreeMap::new();
        for (i, case) in cases.iter().enumerate() {
            by_stack.entry(stack_of(case)).or_default().push(i);
        }
        let mut produced = vec![Vec::new(); cases.len()];
        for (stack, members) in by_stack {
            let own;
            let facts: &AwsFacts = match self.held_out_for(&stack) {
                Some(excluded) => {
                    own = load_excluding(excluded)?;
                    &own
                }
                None => facts_for(Knowledge::All),
            };
            for i in members {
                produced[i] = replay_case_in(cases[i], facts);
            }
        }
        Ok(produced)
    }
}

/// The stack a case was recorded in: its stack name, else (nothing to
/// group it by) the case's own resource, which then stands alone.
pub fn stack_of(case: &CorpusCase) -> String {
    let ctx = context_from_opts(&case.opts, case.resource.construct_path.as_deref());
    ctx.stack_name
        .unwrap_or_else(|| format!("(no stack) {}", case.resource.logical_id))
}
