//! No fold hides a change (issue 47): every value the engine folds in a
//! corpus case (`atDefault`, `generated`, chosen at create; top-level, or a
//! block member the template leaves out) is changed the way a person in the
//! console changes it — a boolean flipped, an enumerated value set to
//! another value the registry schema allows, a member the schema allows
//! added to a folded block, one more element added to a folded list — and
//! the case replayed. The change must surface (drift or potential drift at
//! or around the path) unless a documented rule says the changed value is
//! equivalent: a create-only property (a change replaces the resource), a
//! value AWS chose at create (kept by `record`), a value any of which AWS
//! may hold (`any`), or an entry of `corpus-fold-mutation-allowlist.json`
//! with its reason.

mod classify_support;
mod corpus_support;

use classify_support::changed_scalar;
use corpus_support::corpus_cases;
use realdrift_core::corpus::{replay_case, CorpusCase};
use realdrift_core::normalize::aws_facts::{is_chosen_at_create, is_value_independent};
use realdrift_core::schema::BundledSchemas;
use realdrift_core::{Finding, Tier};
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::BTreeSet;

#[derive(Deserialize)]
struct AllowEntry {
    #[serde(rename = "type")]
    type_name: String,
    path: String,
    mutation: String,
    reason: String,
}

/// The JSON pointer of a dotted finding path (no list items).
fn pointer(path: &str) -> String {
    path.split('.')
        .map(|k| format!("/{}", k.replace('~', "~0").replace('/', "~1")))
        .collect()
}

/// The registry-schema node a `$ref` names, followed to its end.
fn resolve<'a>(doc: &'a Value, mut node: &'a Value) -> &'a Value {
    for _ in 0..8 {
        let Some(r) = node.get("$ref").and_then(Value::as_str) else {
            break;
        };
        let Some(name) = r.strip_prefix("#/definitions/") else {
            break;
        };
        match doc.get("definitions").and_then(|d| d.get(name)) {
            Some(n) => node = n,
            None => break,
        }
    }
    node
}

/// The schema node of the property at a dotted path.
fn node_at<'a>(doc: &'a Value, path: &str) -> Option<&'a Value> {
    let mut keys = path.split('.');
    let mut node = resolve(doc, doc.get("properties")?.get(keys.next()?)?);
    for k in keys {
        node = resolve(doc, node.get("properties")?.get(k)?);
    }
    Some(node)
}

/// Another value of the enumeration the schema allows, if it has one.
fn other_enum(node: Option<&Value>, s: &str) -> Option<Value> {
    node?
        .get("enum")?
        .as_array()?
        .iter()
        .find(|e| e.as_str().is_some_and(|x| x != s))
        .cloned()
}

/// A value a person would give a member the schema allows: a switch on, an
/// enumerated value, a count.
fn member_value(doc: &Value, node: &Value) -> Option<Value> {
    let node = resolve(doc, node);
    if let Some(e) = node
        .get("enum")
        .and_then(|e| e.as_array()?.first().cloned())
    {
        return Some(e);
    }
    match node.get("type")?.as_str()? {
        "boolean" => Some(json!(true)),
        "integer" | "number" => Some(json!(7)),
        _ => None,
    }
}

/// One console-style change of a folded value: (what was done, new value).
type Mutation = (String, Value);

/// The changes a person makes to the folded value `v` at `path`.
fn mutations(doc: Option<&Value>, path: &str, v: &Value) -> Vec<Mutation> {
    let node = doc.and_then(|d| node_at(d, path));
    match v {
        Value::Bool(b) => vec![("flip".into(), json!(!b))],
        Value::String(s) => other_enum(node, s)
            .map(|e| vec![(format!("enum {e}"), e)])
            .unwrap_or_default(),
        Value::Object(o) => {
            let mut out = Vec::new();
            for (k, x) in o {
                for (what, nx) in mutations(doc, &format!("{path}.{k}"), x) {
                    let mut m = o.clone();
                    m.insert(k.clone(), nx);
                    out.push((format!("{k}: {what}"), Value::Object(m)));
                }
            }
            if let Some(added) = added_member(doc, node, o) {
                out.push(added);
            }
            out
        }
        Value::Array(items) => added_element(node.and_then(|n| n.get("items")), doc, items)
            .into_iter()
            .collect(),
        _ => Vec::new(),
    }
}

/// The block with one member the schema allows and it does not hold.
fn added_member(
    doc: Option<&Value>,
    node: Option<&Value>,
    o: &serde_json::Map<String, Value>,
) -> Option<Mutation> {
    let doc = doc?;
    let props = node?.get("properties")?.as_object()?;
    props
        .iter()
        .filter(|(k, _)| !o.contains_key(*k))
        .find_map(|(k, n)| {
            let x = member_value(doc, n)?;
            let mut m = o.clone();
            m.insert(k.clone(), x.clone());
            Some((format!("add {k}: {x}"), Value::Object(m)))
        })
}

/// The list with one more element like its last, every scalar changed.
fn added_element(
    items_node: Option<&Value>,
    doc: Option<&Value>,
    items: &[Value],
) -> Option<Mutation> {
    fn change(v: &Value) -> Value {
        match v {
            Value::Object(o) => {
                Value::Object(o.iter().map(|(k, x)| (k.clone(), change(x))).collect())
            }
            Value::Array(a) => Value::Array(a.iter().map(change).collect()),
            other => changed_scalar(other).unwrap_or_else(|| other.clone()),
        }
    }
    let last = items.last()?;
    let new = match (last, doc.zip(items_node)) {
        (Value::String(s), Some((d, n))) => {
            other_enum(Some(resolve(d, n)), s).unwrap_or_else(|| change(last))
        }
        _ => change(last),
    };
    let mut out = items.to_vec();
    out.push(new.clone());
    Some((format!("add element {new}"), Value::Array(out)))
}

/// True when a finding speaks for `path`: at it, inside it, or as the
/// object that holds it.
fn covers(x: &Finding, path: &str) -> bool {
    x.path == path
        || x.path.starts_with(&format!("{path}."))
        || x.path.starts_with(&format!("{path}["))
        || path.starts_with(&format!("{}.", x.path))
}

/// The folded findings of a replay a change can reach: top-level values
/// and block members the template leaves out, not list items.
fn folded<'c>(case: &'c CorpusCase, out: &'c [Finding]) -> Vec<(&'c Finding, &'c Value)> {
    let declared = Value::Object(case.resource.declared.clone());
    out.iter()
        .filter(|f| matches!(f.tier, Tier::AtDefault | Tier::Generated))
        .filter(|f| !f.path.contains('[') && declared.pointer(&pointer(&f.path)).is_none())
        .filter_map(|f| case.live_raw.pointer(&pointer(&f.path)).map(|v| (f, v)))
        .collect()
}

/// True when a documented rule folds any value there on purpose.
fn by_design(case: &CorpusCase, f: &Finding, out: &[Finding]) -> bool {
    let t = &case.resource.resource_type;
    let top = f.path.split('.').next().unwrap_or_default();
    f.chosen_at_create
        || f.create_only
        || case.schema.create_only.iter().any(|p| p == top)
        || out
            .iter()
            .any(|x| covers(x, &f.path) && (x.create_only || x.chosen_at_create))
        || is_chosen_at_create(t, &f.path)
        || is_value_independent(t, &f.path)
}

/// What the property run over every case counted.
#[derive(Default)]
struct Tally {
    tried: usize,
    surfaced: usize,
    designed: usize,
    allowed: usize,
    hidden: BTreeSet<String>,
    used: BTreeSet<(String, String, String)>,
}

#[test]
fn a_folded_value_changed_in_the_console_surfaces() {
    let allow: Vec<AllowEntry> =
        serde_json::from_str(include_str!("corpus-fold-mutation-allowlist.json")).expect("valid");
    assert!(allow.iter().all(|a| !a.reason.trim().is_empty()));
    let schemas = BundledSchemas::shared().expect("bundled schemas");
    let mut tally = Tally::default();
    for case in corpus_cases() {
        let t = case.resource.resource_type.clone();
        let doc = schemas.document(&t).ok().flatten();
        let out = replay_case(&case);
        for (f, v) in folded(&case, &out) {
            for (what, nv) in mutations(doc.as_ref(), &f.path, v) {
                let mut m = case.clone();
                if let Some(slot) = m.live_raw.pointer_mut(&pointer(&f.path)) {
                    *slot = nv.clone();
                }
                tally.tried += 1;
                let after = replay_case(&m);
                if after
                    .iter()
                    .any(|x| covers(x, &f.path) && x.tier.is_drift())
                {
                    tally.surfaced += 1;
                } else if by_design(&case, f, &after) {
                    tally.designed += 1;
                } else if let Some(a) = allow
                    .iter()
                    .find(|a| a.type_name == t && a.path == f.path && what.starts_with(&a.mutation))
                {
                    tally.allowed += 1;
                    tally
                        .used
                        .insert((a.type_name.clone(), a.path.clone(), a.mutation.clone()));
                } else {
                    tally
                        .hidden
                        .insert(format!("{t} {} [{what}]: {v} -> {nv}", f.path));
                }
            }
        }
    }
    println!(
        "{} changes tried: {} surfaced, {} fold by a documented rule, {} documented equivalences",
        tally.tried, tally.surfaced, tally.designed, tally.allowed
    );
    assert!(tally.tried > 500, "only {} changes tried", tally.tried);
    assert!(
        tally.hidden.is_empty(),
        "{} changes that pass as folded: {:#?}",
        tally.hidden.len(),
        tally.hidden
    );
    let stale: Vec<_> = allow
        .iter()
        .filter(|a| {
            !tally
                .used
                .contains(&(a.type_name.clone(), a.path.clone(), a.mutation.clone()))
        })
        .map(|a| format!("{} {} [{}]", a.type_name, a.path, a.mutation))
        .collect();
    assert!(
        stale.is_empty(),
        "allow-list entries no longer needed: {stale:?}"
    );
}
