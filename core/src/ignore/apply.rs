//! Applying ignore rules: re-tag matching declared / undeclared / added findings.
//!
//! A rule's path pattern is matched against three spellings of a finding, so
//! every style of rule works: `<logicalId>.<path>` (always present, any
//! stack), `<constructPath>.<path>` within the stack (what the report prints),
//! and the full `<stack>/<constructPath>.<path>`. A rule on a parent path
//! covers its children. A deleted resource is never silenced.

use super::rules::{CompiledRule, IgnoreConfig};
use crate::baseline::parent_cuts;
use crate::finding::{Finding, Tier};

/// The identity axes a rule can be scoped on.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct IgnoreScope {
    /// Stack name.
    pub stack: String,
    /// Account id.
    pub account: String,
    /// Region.
    pub region: String,
}

impl IgnoreScope {
    /// Builds a scope.
    pub fn new(stack: &str, account: &str, region: &str) -> Self {
        IgnoreScope {
            stack: stack.to_string(),
            account: account.to_string(),
            region: region.to_string(),
        }
    }
}

/// A construct path without its stack (or Stage/stack) prefix: `App/Api/Role` -> `Api/Role`.
///
/// The prefix is the shortest run of leading segments whose `-`-join is the
/// stack name (a Stage stack `my-app-Rds` has the path `my-app/Rds/...`);
/// failing that, the first segment (the stack construct).
pub fn within_stack_path<'a>(construct_path: &'a str, stack: &str) -> &'a str {
    let parts: Vec<&str> = construct_path.split('/').collect();
    if parts.len() < 2 {
        return construct_path;
    }
    let mut joined = String::new();
    for (k, part) in parts.iter().enumerate().take(parts.len() - 1) {
        if k > 0 {
            joined.push('-');
        }
        joined.push_str(part);
        if joined == stack {
            return rest_after(construct_path, k + 1);
        }
    }
    rest_after(construct_path, 1)
}

fn rest_after(path: &str, segments: usize) -> &str {
    let mut idx = 0;
    for _ in 0..segments {
        match path[idx..].find('/') {
            Some(p) => idx += p + 1,
            None => return path,
        }
    }
    &path[idx..]
}

/// The name a report prints for a finding's resource: the within-stack construct path, else the logical id.
pub fn display_id<'a>(f: &'a Finding, stack: &str) -> &'a str {
    match f.construct_path.as_deref() {
        Some(cp) if !cp.is_empty() => within_stack_path(cp, stack),
        _ => &f.logical_id,
    }
}

/// The resource prefixes a rule is matched with (logical id, within-stack and full construct path).
pub fn resource_prefixes(f: &Finding, stack: &str) -> Vec<String> {
    let mut out = vec![f.logical_id.clone()];
    if let Some(cp) = f.construct_path.as_deref().filter(|c| !c.is_empty()) {
        let within = within_stack_path(cp, stack).to_string();
        let full = cp.to_string();
        for p in [within, full] {
            if !out.contains(&p) {
                out.push(p);
            }
        }
    }
    out
}

fn join(prefix: &str, path: &str) -> String {
    if path.is_empty() {
        prefix.to_string()
    } else {
        format!("{prefix}.{path}")
    }
}

/// What rules are matched against for one finding: every spelling of its
/// resource joined with its path and each parent of the path, as characters.
/// Built once per finding, whatever the number of rules.
struct Candidates(Vec<Vec<char>>);

impl Candidates {
    fn of(f: &Finding, stack: &str) -> Self {
        let mut paths = vec![f.path.as_str()];
        paths.extend(parent_cuts(&f.path).into_iter().map(|c| &f.path[..c]));
        let mut out = Vec::new();
        for prefix in resource_prefixes(f, stack) {
            for p in &paths {
                out.push(join(&prefix, p).chars().collect());
            }
        }
        Candidates(out)
    }
}

impl CompiledRule {
    /// True when the rule's scopes admit this stack, account and region.
    pub fn in_scope(&self, scope: &IgnoreScope) -> bool {
        self.scope.admits(scope)
    }

    /// True when the rule covers the finding (its path or a parent of it).
    pub fn covers(&self, f: &Finding, scope: &IgnoreScope) -> bool {
        self.in_scope(scope) && self.covers_candidates(&Candidates::of(f, &scope.stack))
    }

    fn covers_candidates(&self, c: &Candidates) -> bool {
        c.0.iter().any(|text| self.path.matches_chars(text))
    }
}

impl IgnoreConfig {
    /// The first rule covering a finding, if any.
    pub fn rule_for(&self, f: &Finding, scope: &IgnoreScope) -> Option<&CompiledRule> {
        let in_scope: Vec<&CompiledRule> =
            self.rules.iter().filter(|r| r.in_scope(scope)).collect();
        first_covering(&in_scope, f, scope)
    }
}

fn first_covering<'a>(
    rules: &[&'a CompiledRule],
    f: &Finding,
    scope: &IgnoreScope,
) -> Option<&'a CompiledRule> {
    if rules.is_empty() {
        return None;
    }
    let candidates = Candidates::of(f, &scope.stack);
    rules
        .iter()
        .copied()
        .find(|r| r.covers_candidates(&candidates))
}

/// Re-tags declared, undeclared and added findings matched by a rule to `ignored`.
///
/// Deleted resources and the informational tiers are left alone.
pub fn apply_ignores(
    findings: Vec<Finding>,
    scope: &IgnoreScope,
    config: &IgnoreConfig,
) -> Vec<Finding> {
    // Scopes are the same for every finding of the run: filter rules once.
    let in_scope: Vec<&CompiledRule> = config.rules.iter().filter(|r| r.in_scope(scope)).collect();
    findings
        .into_iter()
        .map(|mut f| {
            if !matches!(f.tier, Tier::Declared | Tier::Undeclared | Tier::Added) {
                return f;
            }
            if let Some(rule) = first_covering(&in_scope, &f, scope) {
                let was = f.tier;
                f.tier = Tier::Ignored;
                f.unrecorded = false;
                let mut note = format!("{was} finding ignored by rule {:?}", rule.rule.path);
                if let Some(old) = f.note.take() {
                    note.push_str(" — ");
                    note.push_str(&old);
                }
                f.note = Some(note);
            }
            f
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn within_stack_strips_stack_and_stage_prefixes() {
        assert_eq!(within_stack_path("MyStack/ApiRole", "MyStack"), "ApiRole");
        assert_eq!(within_stack_path("my-app/Rds/Db", "my-app-Rds"), "Db");
        assert_eq!(within_stack_path("Construct/Role", "RenamedStack"), "Role");
        assert_eq!(within_stack_path("Role", "S"), "Role");
    }
}
