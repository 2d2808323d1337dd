//! A change to a policy document or a list, said as what was added and
//! removed ("+ principal arn:aws:iam::193672423079:root may assume
//! WorkerRole", "- 10.0.0.0/8 ingress tcp 22") instead of two JSON blobs.
//!
//! Policy statements are compared as IAM reads them: a single value and a
//! one-element list are the same (`core/data/policy-grammar.json`, from
//! IAM's policy grammar), and each statement is split into atoms (effect,
//! principal, action, resource, condition) so a statement rewritten with
//! the same meaning shows no change. Anything else falls back to a list or
//! object diff; a value of no recognised shape gives `None` (the caller
//! prints desired → actual). Output is plain text; callers escape it.

use super::sanitize::render_value;
use serde::Deserialize;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

/// The most lines one change is said in (then "… N more").
pub const MAX_DIFF_LINES: usize = 20;

/// The most statement atoms compared (a statement is split per principal,
/// action and resource); past it the change is shown as values.
const MAX_ATOMS: usize = 5_000;

/// The most characters of a value in a line.
const MAX_VALUE_CHARS: usize = 200;

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct Grammar {
    string_or_list: Vec<Keyed>,
    principal_kinds: Vec<Keyed>,
    assume_actions: Vec<Action>,
}

#[derive(Deserialize)]
struct Keyed {
    key: String,
}

#[derive(Deserialize)]
struct Action {
    action: String,
}

/// The grammar table; a table that does not parse (a build defect caught
/// by the tests) yields no policy diff rather than a guessed one.
fn grammar() -> &'static Grammar {
    static G: OnceLock<Grammar> = OnceLock::new();
    G.get_or_init(|| {
        serde_json::from_str(include_str!("../../data/policy-grammar.json")).unwrap_or_default()
    })
}

/// The lines saying how `desired` became `actual` at `path` of the
/// resource named `subject`, or `None` when neither is a policy, a list or
/// an object (or the change cannot be said in parts).
pub fn change_lines(
    subject: &str,
    path: &str,
    desired: Option<&Value>,
    actual: Option<&Value>,
) -> Option<Vec<String>> {
    let lines = if is_policy(desired) || is_policy(actual) {
        policy_lines(subject, path, desired, actual)?
    } else if is_statements(desired) || is_statements(actual) {
        // A finding at `...PolicyDocument.Statement`: the statement list.
        let wrap = |v: Option<&Value>| v.map(|v| serde_json::json!({ "Statement": v }));
        let (d, a) = (wrap(desired), wrap(actual));
        policy_lines(subject, path, d.as_ref(), a.as_ref())?
    } else if is_list(desired) || is_list(actual) {
        list_lines(subject, path, desired, actual)?
    } else if is_object(desired) && is_object(actual) {
        object_lines(desired?, actual?)
    } else {
        return None;
    };
    Some(capped(lines))
}

fn is_policy(v: Option<&Value>) -> bool {
    v.is_some_and(|v| v.get("Statement").is_some())
}

/// A list of policy statements (objects with an `Effect`).
fn is_statements(v: Option<&Value>) -> bool {
    matches!(v, Some(Value::Array(items)) if !items.is_empty()
        && items.iter().all(|i| i.get("Effect").is_some()))
}

fn is_list(v: Option<&Value>) -> bool {
    matches!(v, Some(Value::Array(_)))
}

fn is_object(v: Option<&Value>) -> bool {
    matches!(v, Some(Value::Object(_)))
}

fn capped(mut lines: Vec<String>) -> Vec<String> {
    if lines.len() > MAX_DIFF_LINES {
        let more = lines.len() - (MAX_DIFF_LINES - 1);
        lines.truncate(MAX_DIFF_LINES - 1);
        lines.push(format!("… and {more} more"));
    }
    lines
}

/// One thing a statement allows or denies.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Atom {
    effect: String,
    principal: Option<String>,
    condition: Option<String>,
    resource: Option<String>,
    action: String,
}

/// A value written as one string or a list of them, as a list (`None` for
/// anything else: the shape is not IAM's, so nothing is said in parts).
fn strings(v: &Value) -> Option<Vec<String>> {
    match v {
        Value::String(s) => Some(vec![s.clone()]),
        Value::Array(items) => items
            .iter()
            .map(|i| i.as_str().map(str::to_string))
            .collect(),
        _ => None,
    }
}

/// A statement element that may be one value or a list, as a list.
fn listed<'a>(stmt: &'a serde_json::Map<String, Value>, key: &str) -> Option<Vec<&'a Value>> {
    let spelled_either_way = grammar().string_or_list.iter().any(|k| k.key == key);
    match stmt.get(key) {
        None => Some(Vec::new()),
        Some(Value::Array(items)) if spelled_either_way => Some(items.iter().collect()),
        Some(v) => Some(vec![v]),
    }
}

/// Principals of a statement as display strings (`None` inside: none named).
fn principals(stmt: &serde_json::Map<String, Value>) -> Option<Vec<Option<String>>> {
    let (value, prefix) = match (stmt.get("Principal"), stmt.get("NotPrincipal")) {
        (Some(p), _) => (p, ""),
        (None, Some(p)) => (p, "not "),
        (None, None) => return Some(vec![None]),
    };
    if value.as_str() == Some("*") {
        return Some(vec![Some(format!("{prefix}*"))]);
    }
    let map = value.as_object()?;
    let mut out = Vec::new();
    for (kind, ids) in map {
        if !grammar().principal_kinds.iter().any(|k| k.key == *kind) {
            return None;
        }
        for id in strings(ids)? {
            // A bare 12-digit AWS principal is the account (its root).
            let label = match kind.as_str() {
                "AWS" if id.len() == 12 && id.bytes().all(|b| b.is_ascii_digit()) => "account ",
                "AWS" => "",
                _ => "",
            };
            let kind_label = if kind == "AWS" {
                String::new()
            } else {
                format!("{} ", kind.to_ascii_lowercase())
            };
            out.push(Some(format!("{prefix}{kind_label}{label}{id}")));
        }
    }
    Some(out)
}

/// A statement element's strings (`Action`/`NotAction`, ...), `negated`
/// marking the `Not` form; `absent` when neither is written.
fn either(
    stmt: &serde_json::Map<String, Value>,
    key: &str,
    absent: Option<String>,
) -> Option<Vec<Option<String>>> {
    let not_key = format!("Not{key}");
    let (values, prefix) = if stmt.contains_key(key) {
        (listed(stmt, key)?, "")
    } else if stmt.contains_key(&not_key) {
        (listed(stmt, &not_key)?, "not ")
    } else {
        return Some(vec![absent]);
    };
    let mut out = Vec::new();
    for v in values {
        out.push(Some(format!("{prefix}{}", v.as_str()?)));
    }
    Some(out)
}

/// Every atom of a policy document, or `None` when its shape is not IAM's.
fn atoms(doc: Option<&Value>) -> Option<BTreeSet<Atom>> {
    let mut out = BTreeSet::new();
    let Some(doc) = doc else { return Some(out) };
    let root = doc.as_object()?;
    for stmt in listed(root, "Statement")? {
        let stmt = stmt.as_object()?;
        let effect = stmt.get("Effect").and_then(Value::as_str).unwrap_or("?");
        let condition = stmt.get("Condition").map(|c| render_value(&sorted(c)));
        for principal in principals(stmt)? {
            for action in either(stmt, "Action", Some(String::new()))? {
                for resource in either(stmt, "Resource", None)? {
                    out.insert(Atom {
                        effect: effect.to_string(),
                        principal: principal.clone(),
                        condition: condition.clone(),
                        resource,
                        action: action.clone().unwrap_or_default(),
                    });
                    if out.len() > MAX_ATOMS {
                        return None;
                    }
                }
            }
        }
    }
    Some(out)
}

/// A value with object keys sorted (so equal conditions render equally).
fn sorted(v: &Value) -> Value {
    crate::baseline::sort_keys(v)
}

fn policy_lines(
    subject: &str,
    path: &str,
    desired: Option<&Value>,
    actual: Option<&Value>,
) -> Option<Vec<String>> {
    let before = atoms(desired)?;
    let after = atoms(actual)?;
    let trust = path.contains("AssumeRolePolicyDocument");
    let mut lines = atom_lines('+', after.difference(&before), subject, trust);
    lines.extend(atom_lines('-', before.difference(&after), subject, trust));
    Some(lines)
}

/// Atoms grouped by everything but the action, one line per group.
fn atom_lines<'a>(
    sign: char,
    atoms: impl Iterator<Item = &'a Atom>,
    subject: &str,
    trust: bool,
) -> Vec<String> {
    type Key = (String, Option<String>, Option<String>, Option<String>);
    let mut groups: BTreeMap<Key, Vec<String>> = BTreeMap::new();
    for a in atoms {
        let key = (
            a.effect.clone(),
            a.principal.clone(),
            a.resource.clone(),
            a.condition.clone(),
        );
        groups.entry(key).or_default().push(a.action.clone());
    }
    let assume: BTreeSet<&str> = grammar()
        .assume_actions
        .iter()
        .map(|a| a.action.as_str())
        .collect();
    groups
        .into_iter()
        .map(|((effect, principal, resource, condition), actions)| {
            let when = condition
                .map(|c| format!(" when {}", cut(&c)))
                .unwrap_or_default();
            let assumes = actions.iter().all(|a| assume.contains(a.as_str()));
            match principal {
                Some(p) if trust && assumes && effect == "Allow" => {
                    format!("{sign} principal {p} may assume {subject}{when}")
                }
                _ => {
                    let on = resource.map(|r| format!(" on {r}")).unwrap_or_default();
                    let by = principal.map(|p| format!(" for {p}")).unwrap_or_default();
                    format!("{sign} {effect} {}{on}{by}{when}", actions.join(", "))
                }
            }
        })
        .collect()
}

/// Inline policies (`Policies: [{PolicyName, PolicyDocument}]`) by name:
/// a policy added or removed whole, or changed inside.
fn named_policies(v: Option<&Value>) -> Option<BTreeMap<String, &Value>> {
    let Some(v) = v else {
        return Some(BTreeMap::new());
    };
    v.as_array()?
        .iter()
        .map(|p| {
            let name = p.get("PolicyName")?.as_str()?;
            Some((name.to_string(), p.get("PolicyDocument")?))
        })
        .collect()
}

fn list_lines(
    subject: &str,
    path: &str,
    desired: Option<&Value>,
    actual: Option<&Value>,
) -> Option<Vec<String>> {
    if let (Some(before), Some(after)) = (named_policies(desired), named_policies(actual)) {
        let mut lines = Vec::new();
        for name in before.keys().chain(after.keys()).collect::<BTreeSet<_>>() {
            let inner = policy_lines(
                subject,
                path,
                before.get(name).copied(),
                after.get(name).copied(),
            )?;
            lines.extend(inner.into_iter().map(|l| {
                let (sign, rest) = l.split_at(1);
                format!("{sign} policy {name}:{rest}")
            }));
        }
        return Some(lines);
    }
    let direction = ["Ingress", "Egress"]
        .into_iter()
        .find(|d| path.rsplit('.').next().unwrap_or(path).contains(d))
        .map(str::to_ascii_lowercase);
    let members = |v: Option<&Value>| -> Option<BTreeMap<String, String>> {
        let Some(v) = v else {
            return Some(BTreeMap::new());
        };
        Some(
            v.as_array()?
                .iter()
                .map(|m| {
                    (
                        render_value(&sorted(m)),
                        member_text(m, direction.as_deref()),
                    )
                })
                .collect(),
        )
    };
    let before = members(desired)?;
    let after = members(actual)?;
    let mut lines: Vec<String> = after
        .iter()
        .filter(|(k, _)| !before.contains_key(*k))
        .map(|(_, t)| format!("+ {t}"))
        .collect();
    lines.extend(
        before
            .iter()
            .filter(|(k, _)| !after.contains_key(*k))
            .map(|(_, t)| format!("- {t}")),
    );
    Some(lines)
}

/// A list member in words: a security group rule as `<peer> <direction>
/// <protocol> <ports>`, anything else as its value.
fn member_text(m: &Value, direction: Option<&str>) -> String {
    let (Some(direction), Some(protocol)) = (direction, m.get("IpProtocol")) else {
        return cut(&render_value(m));
    };
    const PEERS: [&str; 7] = [
        "CidrIp",
        "CidrIpv6",
        "SourceSecurityGroupId",
        "DestinationSecurityGroupId",
        "SourcePrefixListId",
        "DestinationPrefixListId",
        "SourceSecurityGroupName",
    ];
    let peer = PEERS
        .iter()
        .find_map(|k| m.get(*k))
        .map(render_value)
        .unwrap_or_else(|| "?".into());
    let ports = match (m.get("FromPort"), m.get("ToPort")) {
        (Some(f), Some(t)) if f == t => format!(" {}", render_value(f)),
        (Some(f), Some(t)) => format!(" {}-{}", render_value(f), render_value(t)),
        _ => String::new(),
    };
    cut(&format!(
        "{peer} {direction} {}{ports}",
        render_value(protocol)
    ))
}

fn object_lines(desired: &Value, actual: &Value) -> Vec<String> {
    let mut out = Vec::new();
    object_walk("", desired, actual, 0, &mut out);
    out
}

/// Keys added, removed and changed, nested objects by dotted key (a few
/// levels deep, then as values).
fn object_walk(prefix: &str, desired: &Value, actual: &Value, depth: usize, out: &mut Vec<String>) {
    let empty = serde_json::Map::new();
    let before = desired.as_object().unwrap_or(&empty);
    let after = actual.as_object().unwrap_or(&empty);
    let keys: BTreeSet<&String> = before.keys().chain(after.keys()).collect();
    for k in keys {
        let key = format!("{prefix}{k}");
        match (before.get(k), after.get(k)) {
            (None, Some(a)) => out.push(format!("+ {key}: {}", cut(&render_value(a)))),
            (Some(b), None) => out.push(format!("- {key}: {}", cut(&render_value(b)))),
            (Some(b @ Value::Object(_)), Some(a @ Value::Object(_))) if b != a && depth < 4 => {
                object_walk(&format!("{key}."), b, a, depth + 1, out)
            }
            (Some(b), Some(a)) if b != a => out.push(format!(
                "~ {key}: {} → {}",
                cut(&render_value(b)),
                cut(&render_value(a))
            )),
            _ => {}
        }
    }
}

fn cut(s: &str) -> String {
    if s.chars().count() <= MAX_VALUE_CHARS {
        return s.to_string();
    }
    let mut t: String = s.chars().take(MAX_VALUE_CHARS).collect();
    t.push('…');
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_grammar_table_parses_and_names_its_sources() {
        let raw: Value =
            serde_json::from_str(include_str!("../../data/policy-grammar.json")).unwrap();
        for table in ["stringOrList", "principalKinds", "assumeActions"] {
            for e in raw[table].as_array().unwrap() {
                assert!(e["source"].as_str().is_some_and(|s| !s.is_empty()), "{e}");
                assert!(e["reason"].as_str().is_some_and(|s| !s.is_empty()), "{e}");
            }
        }
        assert!(!grammar().string_or_list.is_empty());
    }

    #[test]
    fn a_string_and_a_one_element_list_are_the_same_statement() {
        let a =
            json!({"Statement": {"Effect": "Allow", "Action": "s3:GetObject", "Resource": "*"}});
        let b = json!({"Statement": [{"Effect": "Allow", "Action": ["s3:GetObject"], "Resource": ["*"]}]});
        assert_eq!(
            change_lines("R", "PolicyDocument", Some(&a), Some(&b)),
            Some(vec![])
        );
    }
}
