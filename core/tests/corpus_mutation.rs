//! A changed value must not pass as a default, nor as the declared value.
//! Every value the corpus folds as `atDefault` (top-level, or an object
//! member the template leaves out) is changed (a boolean flipped, a number
//! moved, a string prefixed) and the case replayed: the change must
//! surface, unless a rule folds it on purpose. Create-only values (a change
//! replaces the resource), values AWS chose at create (they fold until
//! `record` snapshots them) and values any of which AWS may hold (`any`: an
//! id it assigns, a capacity it scales) are such rules; any other
//! deliberate fold is listed, with its reason, in
//! `corpus-mutation-allowlist.json`. Every declared scalar the read
//! returns is changed the same way, top-level, in objects and inside
//! lists: it must be `declared` drift, or `unresolved` where the
//! template's value cannot be resolved. Every declared value the read
//! echoes is also dropped from the read (unless it is false, 0 or "",
//! which a read may omit): that must surface too, as `declared` drift or,
//! for a top-level property, as a `readGap` (a read cannot tell a removed
//! property from one it does not return). Every number or boolean
//! setting the template and the read both leave out (top-level, in a block
//! the read returns, or in the first element of a list it returns) is
//! added to the read
//! (a switch turned on, a number set out of band): it must surface, unless
//! a rule folds it on purpose or `true` is its documented default. And
//! every declared list the read returns gets one more element like its
//! last, every scalar of it changed (a rule, a subnet, an override added out
//! of band): it must surface under the list. Every declared string that is
//! the user's own text (under a key chosen inside a document, or the name
//! of a name/value pair) is re-cased in the read: AWS keeps such text as
//! written, so it must surface. Every ARN the read returns for a declared
//! value is moved to another region and another account (and, where the
//! template wrote the ARN itself, renamed): it must surface. Every
//! statement of every policy document the read returns is loosened (effect
//! flipped, an action added, the resource widened to `*`, the condition
//! dropped, the principal moved) or given a member it does not declare (a
//! principal kind, a condition): it must surface as declared drift.

mod classify_support;
mod corpus_support;

use classify_support::changed_scalar;
use corpus_support::{corpus_cases, declared_lists, declared_pointers};
use realdrift_core::corpus::{replay_case, CorpusCase};
use realdrift_core::declared::CORPUS_UNRESOLVED_MARKER;
use realdrift_core::normalize::aws_facts::{is_chosen_at_create, is_value_independent};
use realdrift_core::{Finding, Tier};
use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeSet;

#[derive(Deserialize)]
struct AllowEntry {
    #[serde(rename = "type")]
    type_name: String,
    path: String,
    reason: String,
}

/// The JSON pointer of a dotted finding path (no list items).
fn pointer(path: &str) -> String {
    path.split('.')
        .map(|k| format!("/{}", k.replace('~', "~0").replace('/', "~1")))
        .collect()
}

/// The folded values of a case a mutation can change: top-level ones and
/// object members the template leaves out (not list items).
fn folded(case: &CorpusCase) -> Vec<(&Finding, &Value)> {
    case.expected
        .iter()
        .filter(|f| f.tier == Tier::AtDefault && !f.create_only && !f.path.contains('['))
        .filter(|f| {
            let declared = Value::Object(case.resource.declared.clone());
            declared.pointer(&pointer(&f.path)).is_none()
        })
        .filter_map(|f| case.live_raw.pointer(&pointer(&f.path)).map(|v| (f, v)))
        .collect()
}

/// True when a finding speaks for `path`: at it, inside it, or as the
/// object that holds it.
fn covers(x: &Finding, path: &str) -> bool {
    x.path == path
        || x.path.starts_with(&format!("{path}."))
        || path.starts_with(&format!("{}.", x.path))
}

/// True when the replay of the changed case folds the path on purpose.
fn by_design(case: &CorpusCase, out: &[Finding], path: &str) -> bool {
    let t = &case.resource.resource_type;
    let top = path.split('.').next().unwrap_or_default();
    case.schema.create_only.iter().any(|p| p == top)
        || out.iter().any(|x| covers(x, path) && x.create_only)
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
    let (mut tried, mut designed) = (0usize, 0usize);
    let mut hidden = BTreeSet::new();
    let mut used: BTreeSet<(String, String)> = BTreeSet::new();
    for case in corpus_cases() {
        for (f, v) in folded(&case) {
            let Some(nv) = changed_scalar(v) else {
                continue;
            };
            let mut m = case.clone();
            if let Some(slot) = m.live_raw.pointer_mut(&pointer(&f.path)) {
                *slot = nv.clone();
            }
            tried += 1;
            let out = replay_case(&m);
            if out.iter().any(|x| covers(x, &f.path) && x.tier.is_drift()) {
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

/// The declared scalars of a case the read returns, as dotted paths (not
/// inside lists).
fn declared_scalars(case: &CorpusCase) -> Vec<String> {
    fn walk(d: &Value, l: &Value, at: &str, out: &mut Vec<String>) {
        match (d, l) {
            (Value::Object(d), Value::Object(l)) => {
                for (k, dv) in d {
                    if let Some(lv) = l.get(k) {
                        let p = if at.is_empty() {
                            k.clone()
                        } else {
                            format!("{at}.{k}")
                        };
                        walk(dv, lv, &p, out);
                    }
                }
            }
            (d, l) if !d.is_object() && !d.is_array() && !l.is_object() && !l.is_array() => {
                out.push(at.to_string())
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    let declared = Value::Object(case.resource.declared.clone());
    walk(&declared, &case.live_raw, "", &mut out);
    out
}

#[test]
fn a_changed_declared_value_is_declared_drift() {
    let (mut tried, mut unresolved) = (0usize, 0usize);
    let mut hidden = BTreeSet::new();
    for case in corpus_cases() {
        for path in declared_scalars(&case) {
            let ptr = pointer(&path);
            let Some(nv) = case.live_raw.pointer(&ptr).and_then(changed_scalar) else {
                continue;
            };
            let mut m = case.clone();
            if let Some(slot) = m.live_raw.pointer_mut(&ptr) {
                *slot = nv;
            }
            tried += 1;
            let out = replay_case(&m);
            let at: Vec<&Finding> = out.iter().filter(|x| covers(x, &path)).collect();
            if at.iter().any(|x| x.tier == Tier::Declared) {
                continue;
            }
            // Unknown only where the template's own value is: a value
            // the template resolves compares, whatever sits beside it.
            let declared = Value::Object(case.resource.declared.clone());
            let own_unresolved =
                declared.pointer(&ptr).and_then(Value::as_str) == Some(CORPUS_UNRESOLVED_MARKER);
            if own_unresolved && at.iter().any(|x| x.tier == Tier::Unresolved) {
                unresolved += 1;
                continue;
            }
            let t = &case.resource.resource_type;
            hidden.insert(format!(
                "{t} {path}: {:?}",
                at.iter().map(|x| x.tier).collect::<Vec<_>>()
            ));
        }
    }
    println!("{tried} declared values changed; {unresolved} unresolved in the template");
    assert!(tried > 2000, "only {tried} values changed");
    assert!(
        hidden.is_empty(),
        "changes that pass as the declared value: {hidden:#?}"
    );
}

/// The top-level property a JSON pointer starts in.
fn top_of(ptr: &str) -> String {
    let seg = ptr.split('/').nth(1).unwrap_or_default();
    seg.replace("~1", "/").replace("~0", "~")
}

/// True when finding path `path` lies in top-level property `top`.
fn in_property(path: &str, top: &str) -> bool {
    path == top || path.starts_with(&format!("{top}.")) || path.starts_with(&format!("{top}["))
}

/// True when `after` holds a finding in property `top`, of a tier `tier`
/// admits, that `before` did not hold at that path and tier.
fn new_in_property(
    top: &str,
    before: &[Finding],
    after: &[Finding],
    tier: impl Fn(Tier) -> bool,
) -> bool {
    after.iter().any(|x| {
        tier(x.tier)
            && in_property(&x.path, top)
            && !before.iter().any(|b| b.tier == x.tier && b.path == x.path)
    })
}

/// True when the mutated replay surfaces something new under `top` that
/// the unchanged case did not report: a `declared` finding, `unresolved`
/// where the template's value cannot be resolved, or a `readGap` where a
/// declared property is missing from the read (reported as unknown: a read
/// cannot tell a removed property from one it does not return).
fn surfaces_under(top: &str, known: bool, before: &[Finding], after: &[Finding]) -> bool {
    let under = |x: &Finding| in_property(&x.path, top);
    // A value the template could not resolve is already reported as
    // unknown: there is nothing to compare it with.
    let unknown = !known
        && before
            .iter()
            .any(|b| under(b) && b.tier == Tier::Unresolved);
    unknown
        || after.iter().any(|x| {
            under(x)
                && matches!(x.tier, Tier::Declared | Tier::Unresolved | Tier::ReadGap)
                && !before
                    .iter()
                    .any(|b| b.tier == x.tier && b.path == x.path && b.actual == x.actual)
        })
}

/// True when the template resolves the value at `ptr`: it is not the
/// unresolved marker, nor inside a list that holds one anywhere (an
/// unresolved element may stand for none or several, so the list's
/// positions are unknown).
fn resolved_at(declared: &Value, ptr: &str) -> bool {
    fn holds_marker(v: &Value) -> bool {
        match v {
            Value::Object(o) => o.values().any(holds_marker),
            Value::Array(a) => a.iter().any(holds_marker),
            other => other.as_str() == Some(CORPUS_UNRESOLVED_MARKER),
        }
    }
    let mut cur = declared;
    for seg in ptr.split('/').skip(1) {
        let key = seg.replace("~1", "/").replace("~0", "~");
        if cur.is_array() && holds_marker(cur) {
            return false;
        }
        let next = match cur {
            Value::Object(o) => o.get(&key),
            Value::Array(a) => key.parse::<usize>().ok().and_then(|i| a.get(i)),
            _ => None,
        };
        match next {
            Some(v) => cur = v,
            None => return false,
        }
    }
    !holds_marker(cur)
}

#[test]
fn a_changed_declared_value_inside_a_list_is_declared_drift() {
    let mut tried = 0usize;
    let mut hidden = BTreeSet::new();
    for case in corpus_cases() {
        let before = replay_case(&case);
        let declared = Value::Object(case.resource.declared.clone());
        for (ptr, _) in declared_pointers(&case).into_iter().filter(|(_, l)| *l) {
            let Some(nv) = case.live_raw.pointer(&ptr).and_then(changed_scalar) else {
                continue;
            };
            let mut m = case.clone();
            if let Some(slot) = m.live_raw.pointer_mut(&ptr) {
                *slot = nv;
            }
            tried += 1;
            let known = resolved_at(&declared, &ptr);
            if !surfaces_under(&top_of(&ptr), known, &before, &replay_case(&m)) {
                hidden.insert(format!("{} {ptr}", case.resource.resource_type));
            }
        }
    }
    assert!(tried > 1500, "only {tried} values changed");
    assert!(
        hidden.is_empty(),
        "changes inside a declared list that pass: {hidden:#?}"
    );
}

#[test]
fn a_declared_value_the_read_drops_surfaces() {
    let mut tried = 0usize;
    let mut hidden = BTreeSet::new();
    for case in corpus_cases() {
        let before = replay_case(&case);
        let declared = Value::Object(case.resource.declared.clone());
        for (ptr, _) in declared_pointers(&case) {
            // A read omitting a declared false, 0, "" or null says the same.
            let unset = declared
                .pointer(&ptr)
                .is_none_or(|v| matches!(v, Value::Null | Value::Bool(false)) || v == 0 || v == "");
            // Only a value the read echoes: a list the read orders otherwise
            // pairs this position with another element.
            let text = |v: &Value| v.as_str().map_or_else(|| v.to_string(), str::to_string);
            let echoed = declared.pointer(&ptr).map(text) == case.live_raw.pointer(&ptr).map(text);
            let Some((parent, key)) = ptr.rsplit_once('/').filter(|_| echoed) else {
                continue;
            };
            let mut m = case.clone();
            let Some(Value::Object(holder)) = m.live_raw.pointer_mut(parent) else {
                continue;
            };
            if unset
                || holder
                    .remove(&key.replace("~1", "/").replace("~0", "~"))
                    .is_none()
            {
                continue;
            }
            tried += 1;
            let known = resolved_at(&declared, &ptr);
            if !surfaces_under(&top_of(&ptr), known, &before, &replay_case(&m)) {
                hidden.insert(format!("{} {ptr}", case.resource.resource_type));
            }
        }
    }
    assert!(tried > 3000, "only {tried} values dropped");
    assert!(
        hidden.is_empty(),
        "declared values the read dropped that pass: {hidden:#?}"
    );
}

/// The number and boolean properties of a case's type, top-level, in a
/// block the read returns or in the first element of a list, that are
/// configuration (not read-only,
/// write-only or create-only) and that neither the template nor the read
/// holds: where a setting made out of band would appear.
fn unset_settings(case: &CorpusCase) -> Vec<(String, String)> {
    use realdrift_core::schema::{BundledSchemas, SchemaSource};
    let t = &case.resource.resource_type;
    let Some(facts) = BundledSchemas::shared()
        .ok()
        .and_then(|b| b.facts(t).ok().flatten())
    else {
        return Vec::new();
    };
    let not_settable: BTreeSet<&String> = [&case.schema, facts.as_ref()]
        .iter()
        .flat_map(|s| {
            s.read_only
                .iter()
                .chain(&s.write_only)
                .chain(&s.create_only)
                .chain(&s.read_only_paths)
                .chain(&s.write_only_paths)
                .chain(&s.create_only_paths)
        })
        .collect();
    facts
        .typed_scalar_paths
        .iter()
        .filter(|(p, _)| !not_settable.contains(p))
        .filter(|(p, _)| !not_settable.iter().any(|n| p.starts_with(&format!("{n}."))))
        // In a list, the member of its first element.
        .map(|(p, kind)| (p.replace('*', "0"), kind.clone()))
        .filter(|(p, _)| {
            let declared = Value::Object(case.resource.declared.clone());
            declared.pointer(&pointer(p)).is_none()
                && case.live_raw.pointer(&pointer(p)).is_none()
                && parent_in_live(&case.live_raw, p)
        })
        .collect()
}

/// True when the object that would hold `path` is in the read (the top
/// level always is): a member is added to a block AWS returns.
fn parent_in_live(live: &Value, path: &str) -> bool {
    match path.rsplit_once('.') {
        None => true,
        Some((parent, _)) => live.pointer(&pointer(parent)).is_some_and(Value::is_object),
    }
}

#[test]
fn a_setting_added_out_of_band_surfaces() {
    // A switch turned on or a number set where the template and the read
    // said nothing: the read now holds it, and it must surface, unless a
    // rule folds it on purpose (AWS chose it at create, any value may
    // stand, or it is the documented default `true`).
    let (mut tried, mut designed) = (0usize, 0usize);
    let mut hidden = BTreeSet::new();
    for case in corpus_cases() {
        let before = replay_case(&case);
        for (path, kind) in unset_settings(&case) {
            let value = if kind == "boolean" {
                Value::Bool(true)
            } else {
                Value::from(987_654)
            };
            let mut m = case.clone();
            let (parent, key) = path.rsplit_once('.').unwrap_or(("", path.as_str()));
            let holder = if parent.is_empty() {
                Some(&mut m.live_raw)
            } else {
                m.live_raw.pointer_mut(&pointer(parent))
            };
            if let Some(Value::Object(o)) = holder {
                o.insert(key.to_string(), value.clone());
            }
            tried += 1;
            let out = replay_case(&m);
            let at: Vec<&Finding> = out.iter().filter(|x| covers(x, &path)).collect();
            if at.iter().any(|x| x.tier.is_drift()) {
                continue;
            }
            // Inside a list the finding names the element by identity.
            let top = path.split('.').next().unwrap_or_default();
            if path.contains(".0.") && new_in_property(top, &before, &out, |t| t.is_drift()) {
                continue;
            }
            let documented_on =
                value == Value::Bool(true) && at.iter().any(|x| x.tier == Tier::AtDefault);
            if by_design(&case, &out, &path) || documented_on {
                designed += 1;
            } else {
                let t = &case.resource.resource_type;
                hidden.insert(format!("{t} {path}: {value} -> {at:?}"));
            }
        }
    }
    println!("{tried} settings added; {designed} fold by design");
    assert!(tried > 300, "only {tried} settings added");
    assert!(hidden.is_empty(), "settings that pass unseen: {hidden:#?}");
}

/// Another element like `e`: every scalar of it changed (so it names
/// another member too), or `None` when nothing in it can change.
fn another_element(e: &Value) -> Option<Value> {
    match e {
        Value::Object(o) => {
            let mut changed = false;
            let out: serde_json::Map<String, Value> = o
                .iter()
                .map(|(k, v)| match changed_scalar(v) {
                    Some(c) => {
                        changed = true;
                        (k.clone(), c)
                    }
                    None => (k.clone(), v.clone()),
                })
                .collect();
            changed.then_some(Value::Object(out))
        }
        other => changed_scalar(other),
    }
}

/// Lists whose added element folds on purpose in this test, with why.
const ADDED_ELEMENT_FOLDS: &[(&str, &str, &str)] = &[(
    "AWS::Cognito::UserPool",
    "/Schema",
    "an element named without `custom:` is one of Cognito's fixed standard attributes, so the \
     made-up standard name folds; a custom attribute added out of band surfaces \
     (classify_generalization: a_custom_attribute_added_out_of_band_surfaces)",
)];

#[test]
fn an_element_added_to_a_declared_list_surfaces() {
    // A rule, a statement, a subnet or an override added out of band to a
    // list the template declares: it must surface under the list.
    let mut tried = 0usize;
    let (mut hidden, mut used) = (BTreeSet::new(), BTreeSet::new());
    for case in corpus_cases() {
        let before = replay_case(&case);
        let declared = Value::Object(case.resource.declared.clone());
        for ptr in declared_lists(&case) {
            let mut m = case.clone();
            let Some(Value::Array(items)) = m.live_raw.pointer_mut(&ptr) else {
                continue;
            };
            let Some(extra) = items.last().and_then(another_element) else {
                continue;
            };
            if items.contains(&extra) {
                continue;
            }
            items.push(extra);
            tried += 1;
            let top = top_of(&ptr);
            let known = resolved_at(&declared, &ptr);
            let after = replay_case(&m);
            let reported_before = before.iter().any(|b| {
                b.path == ptr_path(&ptr) && matches!(b.tier, Tier::Declared | Tier::Undeclared)
            });
            let t = case.resource.resource_type.as_str();
            // Elastic Beanstalk returns its whole resolved option set: a
            // live-only option is AWS's choice until `record` snapshots it.
            let chosen = is_chosen_at_create(t, &format!("{}.*", ptr_path(&ptr)));
            let listed = ADDED_ELEMENT_FOLDS
                .iter()
                .any(|(lt, lp, _)| *lt == t && *lp == ptr);
            if reported_before || chosen || surfaces_or_inventory(&top, known, &before, &after) {
                continue;
            }
            if listed {
                used.insert((t.to_string(), ptr));
            } else {
                hidden.insert(format!("{t} {ptr}"));
            }
        }
    }
    println!("{tried} elements added");
    assert!(tried > 500, "only {tried} elements added");
    assert!(hidden.is_empty(), "elements added that pass: {hidden:#?}");
    let stale: Vec<_> = ADDED_ELEMENT_FOLDS
        .iter()
        .filter(|(t, p, _)| !used.contains(&(t.to_string(), p.to_string())))
        .collect();
    assert!(
        stale.is_empty(),
        "listed folds that no longer fold: {stale:?}"
    );
}

/// The dotted finding path of a JSON pointer (no list items).
fn ptr_path(ptr: &str) -> String {
    ptr.split('/')
        .skip(1)
        .map(|s| s.replace("~1", "/").replace("~0", "~"))
        .collect::<Vec<_>>()
        .join(".")
}

/// [`surfaces_under`], also counting a new live-only member reported as
/// potential drift (an element added to a keyed set is inventory).
fn surfaces_or_inventory(top: &str, known: bool, before: &[Finding], after: &[Finding]) -> bool {
    surfaces_under(top, known, before, after)
        || new_in_property(top, before, after, |t| t == Tier::Undeclared)
}

/// True when the declared string at `ptr` is the user's own text whose case
/// AWS keeps: held under a key the user chose inside a document (not
/// spelled as a CloudFormation property), or the name of a name/value pair
/// that is not an HTTP header's.
fn users_own_text(declared: &Value, ptr: &str) -> bool {
    let segs: Vec<String> = ptr
        .split('/')
        .skip(1)
        .map(|s| s.replace("~1", "/").replace("~0", "~"))
        .collect();
    let Some(holder) = segs.iter().rev().find(|s| s.parse::<usize>().is_err()) else {
        return false;
    };
    let user_key = !holder.starts_with(|c: char| c.is_ascii_uppercase())
        || !holder.chars().all(|c| c.is_ascii_alphanumeric());
    let parent_ptr = ptr.rsplit_once('/').map_or("", |(p, _)| p);
    let pair = segs.last() == Some(holder)
        && !holder.contains("Header")
        && declared.pointer(parent_ptr).is_some_and(|p| {
            ["Name", "Key"].iter().any(|s| {
                holder
                    .strip_suffix(s)
                    .is_some_and(|stem| p.get(format!("{stem}Value")).is_some())
            })
        });
    user_key || pair
}

/// Replaces each resolved declared string the read echoes (at any depth)
/// by every string `variants` gives for it, replays, and returns how many
/// were tried and which did not surface under their property.
fn string_mutations(
    variants: impl Fn(&Value, &str, &str) -> Vec<String>,
) -> (usize, BTreeSet<String>) {
    let (mut tried, mut hidden) = (0usize, BTreeSet::new());
    for case in corpus_cases() {
        let before = replay_case(&case);
        let declared = Value::Object(case.resource.declared.clone());
        for (ptr, _) in declared_pointers(&case) {
            let Some(s) = case.live_raw.pointer(&ptr).and_then(Value::as_str) else {
                continue;
            };
            if !resolved_at(&declared, &ptr) {
                continue;
            }
            for v in variants(&declared, &ptr, s) {
                let mut m = case.clone();
                if let Some(slot) = m.live_raw.pointer_mut(&ptr) {
                    *slot = Value::String(v.clone());
                }
                tried += 1;
                if !surfaces_under(&top_of(&ptr), true, &before, &replay_case(&m)) {
                    hidden.insert(format!("{} {ptr}: {v}", case.resource.resource_type));
                }
            }
        }
    }
    (tried, hidden)
}

#[test]
fn a_recased_user_value_surfaces() {
    let (tried, hidden) = string_mutations(|declared, ptr, s| {
        let recased: String = s
            .chars()
            .map(|c| match c.is_ascii_uppercase() {
                true => c.to_ascii_lowercase(),
                false => c.to_ascii_uppercase(),
            })
            .collect();
        match recased != s && users_own_text(declared, ptr) {
            true => vec![recased],
            false => vec![],
        }
    });
    assert!(tried > 150, "only {tried} values re-cased");
    assert!(
        hidden.is_empty(),
        "re-cased user values that pass: {hidden:#?}"
    );
}

/// The ARN with field `i` (3: region, 4: account, 5: resource) changed, when
/// the ARN holds one.
fn moved_arn(arn: &str, i: usize) -> Option<String> {
    let mut parts: Vec<String> = arn.splitn(6, ':').map(str::to_string).collect();
    let field = parts.get_mut(i).filter(|f| !f.is_empty())?;
    *field = match i {
        3 if field == "eu-central-1" => "us-west-2".to_string(),
        3 => "eu-central-1".to_string(),
        4 => "999999999999".to_string(),
        _ => format!("{field}x"),
    };
    Some(parts.join(":"))
}

#[test]
fn a_resource_read_back_in_another_account_region_or_name_surfaces() {
    let (tried, hidden) = string_mutations(|declared, ptr, arn| {
        if !arn.starts_with("arn:") || arn.ends_with('*') {
            return vec![];
        }
        // A declared alias names whichever key it targets: only where and
        // whose it is can be checked.
        let echoed = declared.pointer(ptr).and_then(Value::as_str) == Some(arn);
        let fields: &[usize] = if echoed { &[3, 4, 5] } else { &[3, 4] };
        fields.iter().filter_map(|&i| moved_arn(arn, i)).collect()
    });
    assert!(tried > 500, "only {tried} ARNs moved");
    assert!(hidden.is_empty(), "moved resources that pass: {hidden:#?}");
}

/// Pointers of the policy documents the read echoes for a declared value
/// (an object with `Statement`, or JSON text holding one), and whether the
/// read holds it as text.
fn policy_pointers(case: &CorpusCase) -> Vec<(String, bool)> {
    fn walk(d: &Value, l: &Value, at: String, out: &mut Vec<(String, bool)>) {
        let text = l
            .as_str()
            .and_then(|s| serde_json::from_str::<Value>(s).ok());
        if let Some(doc) = text.filter(|v| v.get("Statement").is_some()) {
            if doc.is_object() {
                out.push((at, true));
            }
            return;
        }
        match (d, l) {
            (Value::Object(dm), Value::Object(lm))
                if lm.contains_key("Statement") && dm.contains_key("Statement") =>
            {
                out.push((at, false));
            }
            (Value::Object(dm), Value::Object(lm)) => {
                for (k, dv) in dm {
                    if let Some(lv) = lm.get(k) {
                        let key = k.replace('~', "~0").replace('/', "~1");
                        walk(dv, lv, format!("{at}/{key}"), out);
                    }
                }
            }
            (Value::Array(da), Value::Array(la)) if da.len() == la.len() => {
                for (i, (dv, lv)) in da.iter().zip(la).enumerate() {
                    walk(dv, lv, format!("{at}/{i}"), out);
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    let declared = Value::Object(case.resource.declared.clone());
    walk(&declared, &case.live_raw, String::new(), &mut out);
    out
}

/// Every edit of statement `i` of `doc` the test tries: the effect
/// flipped, an action added, the resource widened to `*`, the condition
/// dropped, the principal moved to another account, a principal kind or a
/// condition added.
fn loosened(doc: &Value, i: usize) -> Vec<(&'static str, Value)> {
    let mut out = Vec::new();
    let mut edit = |what: &'static str, f: &dyn Fn(&mut serde_json::Map<String, Value>) -> bool| {
        let mut d = doc.clone();
        let st = match d.get_mut("Statement") {
            Some(Value::Array(a)) => a.get_mut(i),
            Some(s) if i == 0 => Some(s),
            _ => None,
        };
        if let Some(Value::Object(s)) = st {
            if f(s) {
                out.push((what, d));
            }
        }
    };
    edit(
        "effect flipped",
        &|s| match s.get("Effect").and_then(Value::as_str) {
            Some(e) => {
                let flipped = if e == "Deny" { "Allow" } else { "Deny" };
                s.insert("Effect".into(), Value::from(flipped));
                true
            }
            None => false,
        },
    );
    edit("action added", &|s| match s.get_mut("Action") {
        Some(Value::Array(a)) => {
            a.push(Value::from("zz:Extra"));
            true
        }
        Some(one) => {
            *one = Value::Array(vec![one.clone(), Value::from("zz:Extra")]);
            true
        }
        None => false,
    });
    edit("resource widened", &|s| match s.get("Resource") {
        Some(r) if r != "*" => {
            s.insert("Resource".into(), Value::from("*"));
            true
        }
        _ => false,
    });
    edit("condition dropped", &|s| s.remove("Condition").is_some());
    edit("principal moved", &|s| {
        s.contains_key("Principal") && {
            let p = serde_json::json!({"AWS": "arn:aws:iam::999999999999:root"});
            s.insert("Principal".into(), p);
            true
        }
    });
    // Members the declared statement does not hold: AWS stores a policy as
    // written, so an added member is a change to the declared document.
    // Only in IAM statements (a WAF rule's or a data protection policy's
    // `Statement` holds no `Effect`, and takes other members).
    edit(
        "principal added beside",
        &|s| match s.get_mut("Principal") {
            Some(Value::Object(p)) if !p.contains_key("Federated") => {
                p.insert(
                    "Federated".into(),
                    Value::from("cognito-identity.amazonaws.com"),
                );
                true
            }
            _ => false,
        },
    );
    edit("condition added", &|s| {
        s.contains_key("Effect") && !s.contains_key("Condition") && {
            let c = serde_json::json!({"StringEquals": {"aws:PrincipalAccount": "999999999999"}});
            s.insert("Condition".into(), c);
            true
        }
    });
    out
}

#[test]
fn a_loosened_policy_surfaces() {
    let (mut tried, mut hidden) = (0usize, BTreeSet::new());
    for case in corpus_cases() {
        let before = replay_case(&case);
        for (ptr, text) in policy_pointers(&case) {
            let Some(held) = case.live_raw.pointer(&ptr) else {
                continue;
            };
            let doc = match held.as_str() {
                Some(s) => serde_json::from_str(s).unwrap_or(Value::Null),
                None => held.clone(),
            };
            let n = match doc.get("Statement") {
                Some(Value::Array(a)) => a.len(),
                Some(_) => 1,
                None => 0,
            };
            for (what, d) in (0..n).flat_map(|i| loosened(&doc, i)) {
                let mut m = case.clone();
                if let Some(slot) = m.live_raw.pointer_mut(&ptr) {
                    *slot = if text { Value::from(d.to_string()) } else { d };
                }
                tried += 1;
                if !surfaces_under(&top_of(&ptr), true, &before, &replay_case(&m)) {
                    hidden.insert(format!("{} {ptr}: {what}", case.resource.resource_type));
                }
            }
        }
    }
    println!("{tried} policies loosened");
    assert!(tried > 200, "only {tried} policies loosened");
    assert!(
        hidden.is_empty(),
        "loosened policies that pass: {hidden:#?}"
    );
}
