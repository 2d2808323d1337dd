//! When an entry applies to this resource: its `when` conditions, and the
//! sibling values a `sameAs` entry derives its value from.

use super::*;

/// True when every `when` condition holds for the value at `path`: the value
/// the condition names (declared, else live) equals one of the
/// alternatives, or is absent and `null` is listed.
pub(crate) fn when_holds(
    scope: &Scope<'_>,
    live: &Map<String, Value>,
    path: &Path,
    when: &std::collections::HashMap<String, Vec<Value>>,
) -> bool {
    when.iter().all(|(at, alternatives)| {
        let got = condition_value(scope, live, path, at).filter(|g| !g.is_null());
        // Parsed on first use only, then shared by the alternatives.
        let named_cell = std::cell::OnceCell::new();
        let named = || named_cell.get_or_init(|| condition_path(path, at));
        alternatives.iter().any(|want| match (got, want) {
            (None, Value::Null) => true,
            (Some(g), w) if !w.is_null() => {
                matches_default(g, w)
                    // A template may spell the value another way AWS reads
                    // as the same (`MySQL` for `mysql`).
                    || matches!((g, w), (Value::String(a), Value::String(b))
                        if spelled_alike(scope, named(), a, b))
            }
            _ => false,
        })
    })
}

/// The path of the property a condition names for the value at `path`
/// (`./Member` beside it), for the rules that say when two spellings are
/// one value.
pub(super) fn condition_path(path: &Path, at: &str) -> Path {
    match at.strip_prefix("./") {
        Some(member) => {
            let mut p = path.clone();
            p.pop();
            p.with_key(member)
        }
        None => Path::parse_rendered(at),
    }
}

/// True when a declared `declared` is the value `stated` spelled another
/// way: by the shape of the property (an enumerated keyword's case, an
/// identifier AWS lower-cases) or by a per-type case-insensitive rule.
pub(super) fn spelled_alike(scope: &Scope<'_>, at: &Path, declared: &str, stated: &str) -> bool {
    is_shape_equal(at.last_key(), declared, stated)
        || (is_case_insensitive_equal(declared, stated)
            && scope
                .equivalences_at(at)
                .any(|e| e == Equivalence::CaseInsensitive))
}

/// The value a condition names for the value at `path`: `./Member` is a
/// member of the object that holds that value (an EBS mapping's
/// `VolumeType` beside its `Iops`); anything else is read by [`when_value`].
/// Declared first, then live.
pub(super) fn condition_value<'a>(
    scope: &'a Scope<'_>,
    live: &'a Map<String, Value>,
    path: &Path,
    at: &str,
) -> Option<&'a Value> {
    let Some(member) = at.strip_prefix("./") else {
        // Parsed once for both roots (as `when_value` reads it).
        let at = Path::parse_rendered(at);
        return value_at(scope, &scope.declared, &at, true)
            .or_else(|| value_at(scope, live, &at, true));
    };
    let mut parent = path.clone();
    parent.pop();
    [&scope.declared, live]
        .into_iter()
        .find_map(|root| value_at(scope, root, &parent, false)?.get(member))
}

/// The value at a concrete path (`[id]` segments found through the keyed
/// rule that names them; with `bag_values`, an attribute bag's element
/// yields its value), or None when any step is missing.
pub(super) fn value_at<'v>(
    scope: &Scope<'_>,
    root: &'v Map<String, Value>,
    path: &Path,
    bag_values: bool,
) -> Option<&'v Value> {
    use crate::normalize::path::Seg;
    let mut walked = Path::root();
    let mut cur: Option<&'v Value> = None;
    for seg in path.segs() {
        cur = match (seg, cur) {
            (Seg::Key(k), None) => root.get(k),
            (Seg::Key(k), Some(v)) => v.get(k),
            (Seg::Index(i), Some(v)) => v.as_array()?.get(*i),
            (Seg::Id(id), Some(v)) => {
                let keyed = crate::classify::keyed::keyed_rule(scope, &walked)?;
                let elem = v
                    .as_array()?
                    .iter()
                    .find(|e| keyed.id(e).as_deref() == Some(id.as_str()))?;
                Some(if bag_values && keyed.is_bag() {
                    keyed.value(elem)
                } else {
                    elem
                })
            }
            _ => None,
        };
        cur?;
        walked.push(seg.clone());
    }
    cur
}

/// The value a `when` condition names: a top-level property, or a path
/// into it where `.Key` steps into an object and `[id]` picks the element
/// of a keyed-set array with that identity (a bag yields its value).
pub(super) fn when_value<'v>(
    scope: &Scope<'_>,
    root: &'v Map<String, Value>,
    at: &str,
) -> Option<&'v Value> {
    value_at(scope, root, &Path::parse_rendered(at), true)
}

/// The value a `sameAs` default names: `./Member` is the member beside the
/// value in the object read back with it (ECS fills a port mapping's
/// `HostPort` from the `ContainerPort` in the same mapping); anything else
/// is read as a condition is, declared first.
pub(super) fn same_as_value<'a>(
    scope: &'a Scope<'_>,
    live: &'a Map<String, Value>,
    path: &Path,
    at: &str,
) -> Option<&'a Value> {
    match at.strip_prefix("./") {
        Some(member) => parent_of(live, path)?.get(member),
        None => condition_value(scope, live, path, at),
    }
}

/// A `sameAs` default: the value equals the one at the other path, or is
/// the name of the ARN held there (AWS echoes the name of the resource it
/// was given by ARN), in this account and region.
pub(super) fn same_as_matches(scope: &Scope<'_>, v: &Value, d: &Value) -> bool {
    matches_default(v, d)
        || matches!((v, d), (Value::String(a), Value::String(b))
        if crate::normalize::arn::is_arn_name_match(
            a,
            b,
            scope.ctx.account_id.as_deref(),
            scope.ctx.region.as_deref(),
        ))
}

/// The object holding the value at `path` inside `root` (the root itself
/// for a top-level value); `[id]` steps pick the array element whose name or
/// key field holds `id`.
pub(super) fn parent_of<'v>(
    root: &'v Map<String, Value>,
    path: &Path,
) -> Option<&'v Map<String, Value>> {
    let segs = path.segs();
    let mut obj: &'v Map<String, Value> = root;
    let mut arr: Option<&'v Vec<Value>> = None;
    for seg in &segs[..segs.len().saturating_sub(1)] {
        let next = match (seg, arr) {
            (Seg::Key(k), None) => obj.get(k)?,
            (Seg::Index(i), Some(a)) => a.get(*i)?,
            (Seg::Id(id), Some(a)) => a.iter().find(|e| {
                e.as_object().is_some_and(|o| {
                    o.iter().any(|(k, x)| {
                        crate::normalize::arrays::ALIGN_IDENTITY_KEYS.contains(&k.as_str())
                            && x.as_str() == Some(id.as_str())
                    })
                })
            })?,
            _ => return None,
        };
        match next {
            Value::Object(o) => {
                obj = o;
                arr = None;
            }
            Value::Array(a) => arr = Some(a),
            _ => return None,
        }
    }
    arr.is_none().then_some(obj)
}

/// A `sameAsFields` default: an object whose every member equals the value
/// at a path relative to the object holding it (declared, else live):
/// warm throughput follows the provisioned capacity beside it.
pub(super) fn same_as_fields_match(
    scope: &Scope<'_>,
    live: &Map<String, Value>,
    path: &Path,
    v: &Value,
    fields: &std::collections::BTreeMap<String, String>,
) -> bool {
    let parents = [parent_of(&scope.declared, path), parent_of(live, path)];
    let mut want = Map::new();
    for (member, at) in fields {
        let found = parents
            .iter()
            .flatten()
            .find_map(|p| when_value(scope, p, at))
            .filter(|x| !x.is_null() && !crate::classify::scope::is_unresolved_marker(x));
        match found {
            Some(x) => {
                want.insert(member.clone(), x.clone());
            }
            None => return false,
        }
    }
    matches_default(v, &Value::Object(want))
}
