//! The ignore file model: `ignore: [{path, stack?, account?, region?}]`,
//! plus `accept: [{type, reason, ...}]` (see [`super::accept`]).

use super::accept::{parse_accepts, AcceptRule, CompiledAccept};
use super::error::IgnoreError;
use super::glob::Pattern;
use super::scope::ScopePatterns;
use super::yaml::{parse_document, Node, Pos};

/// The conventional location of the ignore file, relative to the repository.
pub const IGNORE_FILE: &str = "baselines/ignore.yaml";

/// The largest ignore file read (1 MiB, some 20,000 typical rules): the file
/// is hand-edited policy, and a larger one is a mistake or an attack.
pub const MAX_IGNORE_FILE_BYTES: usize = 1024 * 1024;

/// The most rules an ignore file may hold.
pub const MAX_IGNORE_RULES: usize = 10_000;

/// One rule: a path pattern and optional scopes (absent = any).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct IgnoreRule {
    /// Pattern over `<logicalId>.<path>`, `<constructPath>.<path>` or `<stack>/<constructPath>.<path>`.
    pub path: String,
    /// Stack name pattern.
    pub stack: Option<String>,
    /// Account id pattern.
    pub account: Option<String>,
    /// Region pattern.
    pub region: Option<String>,
}

impl IgnoreRule {
    /// Why the rule is unusable, if it is: an empty or blank path or scope
    /// matches nothing anyone meant, so it is refused rather than kept.
    pub fn problem(&self) -> Option<String> {
        let blank = |v: &str| v.trim().is_empty();
        if blank(&self.path) {
            return Some("a rule needs a non-empty 'path'".into());
        }
        for (name, v) in [
            ("stack", &self.stack),
            ("account", &self.account),
            ("region", &self.region),
        ] {
            if v.as_deref().is_some_and(blank) {
                return Some(format!(
                    "rule key {name:?} is empty; leave it out to match any {name}"
                ));
            }
        }
        None
    }

    /// An unscoped rule.
    pub fn new(path: &str) -> Self {
        IgnoreRule {
            path: path.to_string(),
            ..IgnoreRule::default()
        }
    }
}

/// A rule with its patterns compiled.
#[derive(Debug, Clone, PartialEq)]
pub struct CompiledRule {
    /// The rule as written.
    pub rule: IgnoreRule,
    pub(crate) path: Pattern,
    pub(crate) scope: ScopePatterns,
}

impl CompiledRule {
    /// Compiles a rule.
    pub fn new(rule: IgnoreRule) -> Result<Self, IgnoreError> {
        if let Some(message) = rule.problem() {
            return Err(IgnoreError::Rule { message });
        }
        Ok(CompiledRule {
            path: Pattern::new(&rule.path)?,
            scope: ScopePatterns::compile(
                rule.stack.as_deref(),
                rule.account.as_deref(),
                rule.region.as_deref(),
            )?,
            rule,
        })
    }
}

/// A loaded ignore file.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct IgnoreConfig {
    /// The rules, in file order.
    pub rules: Vec<CompiledRule>,
    /// The accept rules (types accepted as not compared), in file order.
    pub accepts: Vec<CompiledAccept>,
}

impl IgnoreConfig {
    /// Builds a config from rules.
    pub fn from_rules(rules: Vec<IgnoreRule>) -> Result<Self, IgnoreError> {
        Ok(IgnoreConfig {
            rules: rules
                .into_iter()
                .map(CompiledRule::new)
                .collect::<Result<_, _>>()?,
            accepts: Vec::new(),
        })
    }

    /// Parses ignore-file text; `file` names it in errors.
    pub fn parse(file: &str, text: &str) -> Result<Self, IgnoreError> {
        let (rules, accepts) = parse_file(file, text)?;
        let mut config = Self::from_rules(rules)?;
        config.accepts = accepts
            .into_iter()
            .map(CompiledAccept::new)
            .collect::<Result<_, _>>()?;
        Ok(config)
    }

    /// The rules as written.
    pub fn plain_rules(&self) -> Vec<IgnoreRule> {
        self.rules.iter().map(|r| r.rule.clone()).collect()
    }
}

fn invalid(file: &str, pos: Pos, message: String) -> IgnoreError {
    IgnoreError::Invalid {
        file: file.to_string(),
        line: pos.line,
        column: pos.column,
        message,
    }
}

/// Parses the rules of ignore-file text, validating its shape strictly: an
/// unknown key (a typo such as `ignroe`) would otherwise silently disable rules.
pub fn parse_rules(file: &str, text: &str) -> Result<Vec<IgnoreRule>, IgnoreError> {
    Ok(parse_file(file, text)?.0)
}

/// Parses the ignore rules and the accept rules of ignore-file text.
pub fn parse_file(
    file: &str,
    text: &str,
) -> Result<(Vec<IgnoreRule>, Vec<AcceptRule>), IgnoreError> {
    if text.len() > MAX_IGNORE_FILE_BYTES {
        return Err(IgnoreError::TooLarge {
            file: file.to_string(),
            message: format!(
                "{} bytes, over the {MAX_IGNORE_FILE_BYTES}-byte limit",
                text.len()
            ),
        });
    }
    let Some(doc) = parse_document(file, text)? else {
        return Ok(Default::default());
    };
    let mut accepts = Vec::new();
    let list = match &doc {
        n if n.is_null() => return Ok(Default::default()),
        Node::Map { entries, .. } => {
            let mut list = None;
            let mut accept_seen = false;
            for (k, v) in entries {
                match key_text(k) {
                    Some("ignore") if list.is_none() => list = Some(v),
                    Some("accept") if !accept_seen => {
                        accept_seen = true;
                        accepts = parse_accepts(file, v)?;
                    }
                    Some(dup @ ("ignore" | "accept")) => {
                        return Err(invalid(file, k.pos(), format!("duplicate key '{dup}'")))
                    }
                    Some(other) => {
                        return Err(invalid(
                            file,
                            k.pos(),
                            format!(
                            "unknown top-level key {other:?} (the keys are 'ignore' and 'accept')"
                        ),
                        ))
                    }
                    None => {
                        return Err(invalid(
                            file,
                            k.pos(),
                            "top-level keys must be plain text".into(),
                        ))
                    }
                }
            }
            list
        }
        other => {
            return Err(invalid(
                file,
                other.pos(),
                format!(
                    "expected a mapping with an 'ignore' list, found {}",
                    other.kind()
                ),
            ))
        }
    };
    let items = match list {
        None => return Ok((Vec::new(), accepts)),
        Some(n) if n.is_null() => return Ok((Vec::new(), accepts)),
        Some(Node::Seq { items, .. }) => items,
        Some(other) => {
            return Err(invalid(
                file,
                other.pos(),
                format!("'ignore' must be a list of rules, found {}", other.kind()),
            ))
        }
    };
    if items.len() > MAX_IGNORE_RULES {
        return Err(IgnoreError::TooLarge {
            file: file.to_string(),
            message: format!(
                "{} rules, over the limit of {MAX_IGNORE_RULES}",
                items.len()
            ),
        });
    }
    let rules = items
        .iter()
        .map(|item| parse_rule(file, item))
        .collect::<Result<_, _>>()?;
    Ok((rules, accepts))
}

fn key_text(n: &Node) -> Option<&str> {
    match n {
        Node::Scalar { text, .. } => Some(text.as_str()),
        _ => None,
    }
}

fn parse_rule(file: &str, item: &Node) -> Result<IgnoreRule, IgnoreError> {
    let Node::Map { entries, .. } = item else {
        return Err(invalid(
            file,
            item.pos(),
            format!(
                "a rule is a mapping {{path, stack?, account?, region?}}, found {}",
                item.kind()
            ),
        ));
    };
    let mut rule = IgnoreRule::default();
    let mut path = None;
    for (k, v) in entries {
        let name = key_text(k).unwrap_or("");
        let value = match v {
            Node::Scalar { text, .. } if !v.is_null() => text.clone(),
            _ => {
                return Err(invalid(
                    file,
                    v.pos(),
                    format!("rule key {name:?} must be a text value, found {}", v.kind()),
                ))
            }
        };
        let slot = match name {
            "path" => &mut path,
            "stack" => &mut rule.stack,
            "account" => &mut rule.account,
            "region" => &mut rule.region,
            other => {
                return Err(invalid(
                    file,
                    k.pos(),
                    format!("unknown rule key {other:?} (expected path, stack, account, region)"),
                ))
            }
        };
        if slot.is_some() {
            return Err(invalid(
                file,
                k.pos(),
                format!("duplicate rule key {name:?}"),
            ));
        }
        *slot = Some(value);
    }
    rule.path = path.unwrap_or_default();
    match rule.problem() {
        Some(message) => Err(invalid(file, item.pos(), message)),
        None => Ok(rule),
    }
}
