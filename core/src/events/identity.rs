//! Identifier forms per resource type (`core/data/resource-identifiers.json`):
//! templates that turn a name, an ARN, a queue URL ... into one canonical
//! key, so every form of one resource finds the same index row.

use regex::Regex;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// The canonical key of one resource, from any of its identifier forms.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceKey {
    /// The key parts (`name`, and e.g. `topic` for a subscription), case-folded
    /// for case-insensitive types.
    pub parts: BTreeMap<String, String>,
    /// The account the identifier names, when it names one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub account: Option<String>,
    /// The region the identifier names, when it names one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub region: Option<String>,
}

impl ResourceKey {
    /// The parts as one string, for hashing (`name=x` joined by U+001F).
    pub fn canonical(&self) -> String {
        let mut out = String::new();
        for (k, v) in &self.parts {
            if !out.is_empty() {
                out.push('\u{1f}');
            }
            out.push_str(k);
            out.push('=');
            out.push_str(v);
        }
        out
    }

    /// True when the identifier's account and region (where it names them)
    /// are the given ones.
    pub fn is_in(&self, account: &str, region: &str) -> bool {
        self.account.as_deref().is_none_or(|a| a == account)
            && self.region.as_deref().is_none_or(|r| r == region)
    }
}

/// A matched identifier: its form, key and every captured placeholder.
#[derive(Debug, Clone, PartialEq)]
pub struct Matched {
    /// The form of the template that matched (`name`, `arn`, `url` ...).
    pub form: String,
    /// The canonical key.
    pub key: ResourceKey,
    /// Every placeholder's captured text (location and ignored ones too).
    pub captures: BTreeMap<String, String>,
}

/// What a placeholder contributes.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Role {
    Account,
    Region,
    /// Partition, URL suffix: matched, never compared.
    Location,
    /// `_`-prefixed: matched, ignored.
    Ignored,
    /// Part of the key.
    Key,
}

#[derive(Debug, Clone)]
struct Placeholder {
    name: String,
    role: Role,
}

/// One compiled template.
#[derive(Debug, Clone)]
pub struct Template {
    form: String,
    pieces: Vec<Piece>,
    regex: Regex,
    placeholders: Vec<Placeholder>,
    render: bool,
}

#[derive(Debug, Clone)]
enum Piece {
    Literal(String),
    Slot(String),
}

/// The rules of one resource type.
#[derive(Debug, Clone, Default)]
pub struct TypeRules {
    /// Key parts compare without case.
    pub case_insensitive: bool,
    templates: Vec<Template>,
    /// Where a child's parents are declared.
    pub parents: Vec<ParentRule>,
    /// The declared property (or `physicalId`) naming a child within its parent.
    pub child_name: Option<String>,
    /// A parent has at most one of this type (per child name).
    pub singleton: bool,
}

/// A child type's parent: its type and the declared property holding it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct ParentRule {
    /// The parent's type.
    #[serde(rename = "type")]
    pub resource_type: String,
    /// The declared property (a string or a list of strings).
    pub property: String,
}

/// The value [`TypeRules::child_name`] takes to mean the physical id.
pub const CHILD_NAME_PHYSICAL_ID: &str = "physicalId";

impl TypeRules {
    /// True when the type has identifier templates (can be looked up by key).
    pub fn has_forms(&self) -> bool {
        !self.templates.is_empty()
    }

    /// The forms the type knows.
    pub fn forms(&self) -> BTreeSet<&str> {
        self.templates.iter().map(|t| t.form.as_str()).collect()
    }

    /// The first template of an allowed form (`None`: any) matching `text`.
    pub fn match_identifier(&self, text: &str, forms: Option<&[String]>) -> Option<Matched> {
        self.templates
            .iter()
            .filter(|t| forms.is_none_or(|f| f.contains(&t.form)))
            .find_map(|t| t.matches(text, self.case_insensitive))
    }

    /// Compares two child names under the type's case rule.
    pub fn same_name(&self, a: &str, b: &str) -> bool {
        if self.case_insensitive {
            a.eq_ignore_ascii_case(b)
        } else {
            a == b
        }
    }

    /// Prints every form it can from known placeholder values: the first
    /// renderable template per form.
    pub fn render_forms(&self, values: &BTreeMap<String, String>) -> BTreeMap<String, String> {
        let mut out = BTreeMap::new();
        for t in &self.templates {
            if out.contains_key(&t.form) {
                continue;
            }
            if let Some(s) = t.render_with(values) {
                out.insert(t.form.clone(), s);
            }
        }
        out
    }
}

impl Template {
    /// Compiles `{...}` placeholders into an anchored regex.
    fn compile(form: &str, text: &str, render: bool) -> Result<Self, String> {
        let pieces = split_template(text)?;
        let mut pattern = String::from("^");
        let mut placeholders = Vec::new();
        for piece in &pieces {
            match piece {
                Piece::Literal(l) => pattern.push_str(&regex::escape(l)),
                Piece::Slot(raw) => {
                    let (name, class) = slot_class(raw);
                    if placeholders.iter().any(|p: &Placeholder| p.name == name) {
                        return Err(format!("placeholder {{{name}}} twice in {text}"));
                    }
                    pattern.push('(');
                    pattern.push_str(class);
                    pattern.push(')');
                    placeholders.push(Placeholder {
                        role: role_of(&name),
                        name,
                    });
                }
            }
        }
        pattern.push('$');
        if !placeholders.iter().any(|p| p.role == Role::Key) {
            return Err(format!("template {text} has no key placeholder"));
        }
        let regex = Regex::new(&pattern).map_err(|e| format!("template {text}: {e}"))?;
        Ok(Self {
            form: form.to_string(),
            pieces,
            regex,
            placeholders,
            render,
        })
    }

    fn key_names(&self) -> BTreeSet<&str> {
        self.placeholders
            .iter()
            .filter(|p| p.role == Role::Key)
            .map(|p| p.name.as_str())
            .collect()
    }

    fn matches(&self, text: &str, fold: bool) -> Option<Matched> {
        let caps = self.regex.captures(text)?;
        let mut key = ResourceKey::default();
        let mut captures = BTreeMap::new();
        for (i, p) in self.placeholders.iter().enumerate() {
            let value = caps.get(i + 1).map_or("", |m| m.as_str());
            captures.insert(p.name.clone(), value.to_string());
            let non_empty = (!value.is_empty()).then(|| value.to_string());
            match p.role {
                Role::Account => key.account = non_empty,
                Role::Region => key.region = non_empty,
                Role::Key if fold => {
                    key.parts.insert(p.name.clone(), value.to_ascii_lowercase());
                }
                Role::Key => {
                    key.parts.insert(p.name.clone(), value.to_string());
                }
                Role::Location | Role::Ignored => {}
            }
        }
        Some(Matched {
            form: self.form.clone(),
            key,
            captures,
        })
    }

    fn render_with(&self, values: &BTreeMap<String, String>) -> Option<String> {
        if !self.render {
            return None;
        }
        let mut out = String::new();
        for piece in &self.pieces {
            match piece {
                Piece::Literal(l) => out.push_str(l),
                Piece::Slot(raw) => {
                    let (name, _) = slot_class(raw);
                    out.push_str(values.get(&name).filter(|v| !v.is_empty())?);
                }
            }
        }
        // Only print what the template itself would read back.
        self.regex.is_match(&out).then_some(out)
    }
}

fn split_template(text: &str) -> Result<Vec<Piece>, String> {
    let mut pieces = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        if open > 0 {
            pieces.push(Piece::Literal(rest[..open].to_string()));
        }
        let after = &rest[open + 1..];
        let close = after
            .find('}')
            .ok_or_else(|| format!("unclosed placeholder in {text}"))?;
        let name = &after[..close];
        if name.is_empty() || name.contains('{') {
            return Err(format!("bad placeholder in {text}"));
        }
        pieces.push(Piece::Slot(name.to_string()));
        rest = &after[close + 1..];
    }
    if !rest.is_empty() {
        pieces.push(Piece::Literal(rest.to_string()));
    }
    Ok(pieces)
}

/// The placeholder's name (without a trailing `+`) and its regex class.
fn slot_class(raw: &str) -> (String, &'static str) {
    // '|' never occurs in these names; excluding it splits CloudFormation's
    // composite physical ids (<bus>|<rule>).
    if let Some(name) = raw.strip_suffix('+') {
        return (name.to_string(), "[^:|]+");
    }
    let class = match raw {
        // No '.', so a region never swallows part of a host name.
        "partition" | "region" => "[a-z0-9-]*",
        "account" => "[^:/.]*",
        "urlSuffix" => "[^:/]+",
        "_path" => "(?:[^:]*/)?",
        "_host" => "[^/]+",
        "_scheme" => "[A-Za-z][A-Za-z0-9+.-]*",
        _ => "[^:/|]+",
    };
    (raw.to_string(), class)
}

fn role_of(name: &str) -> Role {
    match name {
        "account" => Role::Account,
        "region" => Role::Region,
        "partition" | "urlSuffix" => Role::Location,
        n if n.starts_with('_') => Role::Ignored,
        _ => Role::Key,
    }
}

/// Every type's rules.
#[derive(Debug, Clone, Default)]
pub struct Identities {
    types: HashMap<String, TypeRules>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct IdentitiesFile {
    #[serde(rename = "_doc")]
    _doc: String,
    types: BTreeMap<String, TypeEntry>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct TypeEntry {
    #[serde(default)]
    forms: Vec<FormEntry>,
    #[serde(default)]
    case_insensitive: bool,
    #[serde(default)]
    parents: Vec<ParentRule>,
    #[serde(default)]
    child_name: Option<String>,
    #[serde(default)]
    singleton: bool,
    source: String,
    reason: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FormEntry {
    form: String,
    template: String,
    #[serde(default = "yes")]
    render: bool,
}

fn yes() -> bool {
    true
}

impl Identities {
    /// Parses and checks `resource-identifiers.json`.
    pub fn from_json(text: &str) -> Result<Self, String> {
        let file: IdentitiesFile =
            serde_json::from_str(text).map_err(|e| format!("resource-identifiers: {e}"))?;
        let mut types = HashMap::new();
        for (name, entry) in &file.types {
            types.insert(name.clone(), compile_type(name, entry)?);
        }
        for (name, rules) in &types {
            for p in &rules.parents {
                if !types
                    .get(&p.resource_type)
                    .is_some_and(TypeRules::has_forms)
                {
                    return Err(format!(
                        "{name}: parent type {} has no identifier forms",
                        p.resource_type
                    ));
                }
            }
        }
        Ok(Self { types })
    }

    /// The rules of a type, when known.
    pub fn get(&self, resource_type: &str) -> Option<&TypeRules> {
        self.types.get(resource_type)
    }

    /// Every type with rules.
    pub fn types(&self) -> impl Iterator<Item = (&str, &TypeRules)> {
        self.types.iter().map(|(k, v)| (k.as_str(), v))
    }
}

fn compile_type(name: &str, entry: &TypeEntry) -> Result<TypeRules, String> {
    if !entry.source.starts_with("https://") || entry.reason.trim().is_empty() {
        return Err(format!(
            "{name}: every type needs a source URL and a reason"
        ));
    }
    let templates = entry
        .forms
        .iter()
        .map(|f| Template::compile(&f.form, &f.template, f.render))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| format!("{name}: {e}"))?;
    if let Some(first) = templates.first() {
        let keys = first.key_names();
        if templates.iter().any(|t| t.key_names() != keys) {
            return Err(format!(
                "{name}: every template must have the same key placeholders"
            ));
        }
    }
    if templates.is_empty() && entry.parents.is_empty() {
        return Err(format!("{name}: neither forms nor parents"));
    }
    Ok(TypeRules {
        case_insensitive: entry.case_insensitive,
        templates,
        parents: entry.parents.clone(),
        child_name: entry.child_name.clone(),
        singleton: entry.singleton,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(forms: &[(&str, &str)], fold: bool) -> TypeRules {
        TypeRules {
            case_insensitive: fold,
            templates: forms
                .iter()
                .map(|(f, t)| Template::compile(f, t, true).unwrap())
                .collect(),
            ..TypeRules::default()
        }
    }

    #[test]
    fn path_and_name_split_at_the_last_slash() {
        let r = rules(
            &[("arn", "arn:{partition}:iam::{account}:role/{_path}{name}")],
            true,
        );
        let m = r
            .match_identifier("arn:aws:iam::111:role/a/b/MyRole", None)
            .unwrap();
        assert_eq!(m.key.parts["name"], "myrole");
        assert_eq!(m.captures["_path"], "a/b/");
        assert_eq!(m.key.account.as_deref(), Some("111"));
        let m = r
            .match_identifier("arn:aws:iam::111:role/MyRole", None)
            .unwrap();
        assert_eq!(m.key.parts["name"], "myrole");
    }

    #[test]
    fn render_prints_only_what_reads_back() {
        let r = rules(
            &[
                ("url", "https://sqs.{region}.{urlSuffix}/{account}/{name}"),
                ("arn", "arn:{partition}:sqs:{region}:{account}:{name}"),
            ],
            false,
        );
        let mut v = BTreeMap::new();
        v.insert("name".to_string(), "q".to_string());
        v.insert("region".to_string(), "eu-west-1".to_string());
        v.insert("account".to_string(), "111".to_string());
        v.insert("partition".to_string(), "aws".to_string());
        let forms = r.render_forms(&v);
        assert_eq!(forms["arn"], "arn:aws:sqs:eu-west-1:111:q");
        assert!(!forms.contains_key("url"), "no URL suffix known");
    }

    #[test]
    fn bad_templates_are_refused() {
        assert!(Template::compile("x", "{name", true).is_err());
        assert!(Template::compile("x", "arn:{partition}", true).is_err());
        assert!(Template::compile("x", "{name}:{name}", true).is_err());
    }
}
