//! `accept` rules: types a team agrees are not compared.
//!
//! A resource of a type no reader can read is lost coverage (`--strict`
//! fails, the scan announces it) until the team says, in
//! `baselines/ignore.yaml`, that it knows and accepts it:
//!
//! ```yaml
//! accept:
//!   - type: AWS::CodeBuild::Project
//!     reason: build projects are recreated by the pipeline on every deploy
//! ```
//!
//! `reason` is required: the report shows it, so the acceptance is explained
//! where it is seen.

use super::error::IgnoreError;
use super::glob::Pattern;
use super::scope::ScopePatterns;
use super::yaml::{Node, Pos};
use super::IgnoreScope;
use crate::report::NotCompared;

/// One accept rule as written.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct AcceptRule {
    /// Resource type pattern (`AWS::CodeBuild::Project`, `AWS::DAX::*`).
    pub resource_type: String,
    /// Why the team accepts it (shown in reports).
    pub reason: String,
    /// Stack name pattern.
    pub stack: Option<String>,
    /// Account id pattern.
    pub account: Option<String>,
    /// Region pattern.
    pub region: Option<String>,
}

/// An accept rule with its patterns compiled.
#[derive(Debug, Clone, PartialEq)]
pub struct CompiledAccept {
    /// The rule as written.
    pub rule: AcceptRule,
    resource_type: Pattern,
    scope: ScopePatterns,
}

impl CompiledAccept {
    /// Compiles a rule.
    pub fn new(rule: AcceptRule) -> Result<Self, IgnoreError> {
        Ok(CompiledAccept {
            resource_type: Pattern::new(&rule.resource_type)?,
            scope: ScopePatterns::compile(
                rule.stack.as_deref(),
                rule.account.as_deref(),
                rule.region.as_deref(),
            )?,
            rule,
        })
    }

    /// True when the rule accepts `resource_type` in this stack, account and region.
    pub fn accepts(&self, resource_type: &str, scope: &IgnoreScope) -> bool {
        self.resource_type.matches(resource_type) && self.scope.admits(scope)
    }
}

/// Marks every unreadable (no reader) entry an accept rule covers as
/// accepted, with the rule's reason; returns how many were accepted. Only
/// "no reader for the type" can be accepted: a refused or failed read is a
/// condition to fix, not a choice.
pub fn apply_accepts(
    not_compared: &mut [NotCompared],
    scope: &IgnoreScope,
    rules: &[CompiledAccept],
) -> usize {
    let mut n = 0;
    for entry in not_compared
        .iter_mut()
        .filter(|e| e.is_unaccepted_unreadable())
    {
        if let Some(rule) = rules
            .iter()
            .find(|r| r.accepts(&entry.resource_type, scope))
        {
            entry.accepted = Some(rule.rule.reason.clone());
            n += 1;
        }
    }
    n
}

fn invalid(file: &str, pos: Pos, message: String) -> IgnoreError {
    IgnoreError::Invalid {
        file: file.to_string(),
        line: pos.line,
        column: pos.column,
        message,
    }
}

/// Parses the `accept` list (`None`/null: no rules).
pub(super) fn parse_accepts(file: &str, list: &Node) -> Result<Vec<AcceptRule>, IgnoreError> {
    if list.is_null() {
        return Ok(Vec::new());
    }
    let Node::Seq { items, .. } = list else {
        return Err(invalid(
            file,
            list.pos(),
            format!("'accept' must be a list of rules, found {}", list.kind()),
        ));
    };
    items.iter().map(|i| parse_accept(file, i)).collect()
}

fn parse_accept(file: &str, item: &Node) -> Result<AcceptRule, IgnoreError> {
    let Node::Map { entries, .. } = item else {
        return Err(invalid(
            file,
            item.pos(),
            format!(
                "an accept rule is a mapping {{type, reason, stack?, account?, region?}}, found {}",
                item.kind()
            ),
        ));
    };
    let mut slots: [(&str, Option<String>); 5] = [
        ("type", None),
        ("reason", None),
        ("stack", None),
        ("account", None),
        ("region", None),
    ];
    for (k, v) in entries {
        let name = match k {
            Node::Scalar { text, .. } => text.as_str(),
            _ => "",
        };
        let Some(slot) = slots.iter_mut().find(|(n, _)| *n == name) else {
            return Err(invalid(
                file,
                k.pos(),
                format!(
                    "unknown accept key {name:?} (expected type, reason, stack, account, region)"
                ),
            ));
        };
        let value = match v {
            Node::Scalar { text, .. } if !v.is_null() && !text.trim().is_empty() => text.clone(),
            _ => {
                return Err(invalid(
                    file,
                    v.pos(),
                    format!("accept key {name:?} must be a non-empty text value"),
                ))
            }
        };
        if slot.1.replace(value).is_some() {
            return Err(invalid(
                file,
                k.pos(),
                format!("duplicate accept key {name:?}"),
            ));
        }
    }
    let [(_, t), (_, reason), (_, stack), (_, account), (_, region)] = slots;
    let (Some(resource_type), Some(reason)) = (t, reason) else {
        return Err(invalid(
            file,
            item.pos(),
            "an accept rule needs a 'type' and a 'reason' (the report shows the reason)".into(),
        ));
    };
    Ok(AcceptRule {
        resource_type,
        reason,
        stack,
        account,
        region,
    })
}
