//! A changed value must not pass as a default. Every top-level value the
//! corpus folds as `atDefault` is changed (a boolean flipped, a number
//! moved, a string prefixed) and the case replayed: the change must
//! surface, unless a rule folds it on purpose. Create-only values (a change
//! replaces the resource), values AWS chose at create (they fold until
//! `record` snapshots them) and values any of which AWS may hold (`any`: an
//! id it assigns, a capacity it scales) are such rules; any other
//! deliberate fold is listed, with its reason, in
//! `corpus-mutation-allowlist.json`.

use realdrift_core::corpus::{replay_case, CorpusCase};
use realdrift_core::normalize::aws_facts::{is_chosen_at_create, is_value_independent};
use realdrift_core::{Finding, Tier};
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::path::PathBuf;

#[derive(Deserialize)]
struct AllowEntry {
    #[serde(rename = "type")]
    type_name: String,
    path: String,
    reason: String,
}

fn corpus_dir() -> PathBuf {
    if let Ok(d) = std::env::var("REALDRIFT_CORPUS_DIR") {
        return PathBuf::from(d);
    }
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/cases")
}

/// Another value of the same kind, unlike any default spelling.
fn changed(v: &Value) -> Option<Value> {
    match v {
        Value::Bool(b) => Some(json!(!b)),
        Value::Number(n) => match n.as_i64() {
            Some(i) => Some(json!(i * 2 + 7)),
            None => n.as_f64().map(|f| json!(f * 2.0 + 7.0)),
        },
        Value::String(s) if !s.is_empty() => Some(json!(format!("changed-{s}"))),
        _ => None,
    }
}

/// The folded top-level values of a case a mutation can change.
fn folded(case: &CorpusCase) -> Vec<(&Finding, &Value)> {
    case.expected
        .iter()
        .filter(|f| f.tier == Tier::AtDefault && !f.create_only)
        .filter(|f| !f.path.contains(['.', '[']))
        .filter(|f| !case.resource.declared.contains_key(&f.path))
        .filter_map(|f| case.live_raw.get(&f.path).map(|v| (f, v)))
        .collect()
}

/// True when the replay of the changed case folds the path on purpose.
fn by_design(case: &CorpusCase, out: &[Finding], path: &str) -> bool {
    let t = &case.resource.resource_type;
    case.schema.create_only.iter().any(|p| p == path)
        || out.iter().any(|x| x.path == path && x.create_only)
        || is_chosen_at_create(t, path)
        || is_value_independent(t, path)
}

#[test]
fn a_changed_default_surfaces_unless_folded_on_purpose() {
    let allow: Vec<AllowEntry> =
        serde_json::from_str(include_str!("corpus-mutation-allowlist.json")).expect("valid");
    assert!(allow.iter().all(|a| !a.reason.trim().is_empty()));
    let listed: BTreeSet<(&str, &str)> = allow
        .iter()
        .map(|a| (a.type_name.as_str(), a.path.as_str()))
        .collect();
    let mut paths: Vec<PathBuf> = std::fs::read_dir(corpus_dir())
        .expect("corpus dir")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    paths.sort();
    let (mut tried, mut designed) = (0usize, 0usize);
    let mut hidden = BTreeSet::new();
    let mut used: BTreeSet<(String, String)> = BTreeSet::new();
    for p in &paths {
        let case = CorpusCase::load(p).expect("case loads");
        for (f, v) in folded(&case) {
            let Some(nv) = changed(v) else { continue };
            let mut m = case.clone();
            m.live_raw[&f.path] = nv.clone();
            tried += 1;
            let out = replay_case(&m);
            if out.iter().any(|x| x.path == f.path && x.tier.is_drift()) {
                continue;
            }
            let t = case.resource.resource_type.as_str();
            if by_design(&case, &out, &f.path) {
                designed += 1;
            } else if listed.contains(&(t, f.path.as_str())) {
                used.insert((t.to_string(), f.path.clone()));
            } else {
                hidden.insert(format!("{t} {}: {v} -> {nv}", f.path));
            }
        }
    }
    println!("{tried} folded values changed; {designed} fold by design");
    assert!(tried > 1000, "only {tried} values changed");
    assert!(
        hidden.is_empty(),
        "changes that pass as defaults: {hidden:#?}"
    );
    let stale: Vec<_> = listed
        .iter()
        .filter(|(t, p)| !used.contains(&(t.to_string(), p.to_string())))
        .collect();
    assert!(
        stale.is_empty(),
        "allow-list entries that no longer fold: {stale:?}"
    );
}
