//! Is an undeclared live value a known default? Sources, in order: the
//! schema's own `default` annotations (top-level and nested), then the
//! per-type known defaults in `core/data/known-defaults.json`. Every source
//! is equality-gated except the explicitly value-independent data entries.

use super::scope::Scope;
use crate::normalize::aws_facts::{Equivalence, KnownDefault, Source};
use crate::normalize::canonicalize_in_place;
use crate::normalize::empty::is_trivially_empty;
use crate::normalize::generated::is_cfn_minted_name;
use crate::normalize::path::{Path, Seg};
use crate::normalize::scalars::{
    is_case_insensitive_equal, is_same_address, is_same_instant, is_stringly_equal, parse_json_text,
};
use crate::normalize::shapes::is_shape_equal;
use crate::template::partition_for_region;
use serde_json::{Map, Value};

/// Expands `${AccountId}`, `${Region}`, `${Partition}`, `${PhysicalId}` in
/// every string.
pub(crate) fn expand<'v>(v: &'v Value, scope: &Scope<'_>) -> std::borrow::Cow<'v, Value> {
    if has_placeholder(v) {
        std::borrow::Cow::Owned(expand_owned(v, scope))
    } else {
        std::borrow::Cow::Borrowed(v)
    }
}

/// True when a value holds a placeholder to expand.
fn has_placeholder(v: &Value) -> bool {
    match v {
        Value::String(s) => {
            s.contains("${") || s == AWS_MANAGED_KMS || s.starts_with(MANAGED_ALIAS)
        }
        Value::Array(a) => a.iter().any(has_placeholder),
        Value::Object(o) => o.values().any(has_placeholder),
        _ => false,
    }
}

fn expand_owned(v: &Value, scope: &Scope<'_>) -> Value {
    match v {
        Value::String(s) if s == AWS_MANAGED_KMS => managed_kms_pattern(scope),
        Value::String(s) if s.starts_with(MANAGED_ALIAS) => managed_alias_pattern(scope, s),
        Value::String(s) if s.contains("${") => {
            let mut t = s.clone();
            if let Some(a) = scope.ctx.account_id.as_deref() {
                t = t.replace("${AccountId}", a);
            }
            if let Some(r) = scope.ctx.region.as_deref() {
                t = t.replace("${Region}", r);
                // The region's partition (`aws`, `aws-cn`, `aws-us-gov`);
                // a region no prefix names leaves it unexpanded, so the
                // value matches nothing.
                if let Some((partition, _)) = partition_for_region(r) {
                    t = t.replace("${Partition}", partition);
                }
            }
            t = t.replace("${PhysicalId}", scope.physical_id);
            Value::String(t)
        }
        Value::Array(a) => Value::Array(a.iter().map(|x| expand_owned(x, scope)).collect()),
        Value::Object(o) => Value::Object(
            o.iter()
                .map(|(k, x)| (k.clone(), expand_owned(x, scope)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// The sentinel for "an AWS-managed (alias/aws/*) KMS key of this account".
const AWS_MANAGED_KMS: &str = "kms:aws-managed";

/// A regex default matching this account's AWS-managed keys (by alias or by
/// the key ids the managed aliases target). Without the alias map nothing
/// matches: a key that cannot be proven AWS-managed stays visible.
fn managed_kms_pattern(scope: &Scope<'_>) -> Value {
    let ids: Vec<String> = scope
        .ctx
        .kms_alias_targets
        .as_ref()
        .map(|m| {
            m.iter()
                .filter(|(alias, _)| alias.starts_with(MANAGED_ALIAS))
                .map(|(_, id)| regex::escape(id))
                .collect()
        })
        .unwrap_or_default();
    let (Some(acct), false) = (scope.ctx.account_id.as_deref(), ids.is_empty()) else {
        return Value::String(AWS_MANAGED_KMS.to_string());
    };
    key_or_alias_pattern("alias/aws/[^/]+", &ids.join("|"), acct)
}

/// A regex default for a KMS key named by an alias (`alias_re`) or by one
/// of the key ids `ids_re`, bare or as an ARN of account `acct`.
fn key_or_alias_pattern(alias_re: &str, ids_re: &str, acct: &str) -> Value {
    let acct = regex::escape(acct);
    Value::String(format!(
        "re:^(?:{alias_re}|(?:{ids_re})|arn:aws[a-z-]*:kms:[^:]*:{acct}:(?:key/(?:{ids_re})|{alias_re}))$"
    ))
}

/// The prefix of an AWS-managed KMS alias (`alias/aws/dynamodb`).
const MANAGED_ALIAS: &str = "alias/aws/";

/// A regex default matching one AWS-managed alias: by name, by its ARN in
/// this account, or by the key it targets (DynamoDB reports the key's ARN).
/// Without the account's alias map only the alias itself matches: a key
/// that cannot be proven to be that alias's stays visible.
fn managed_alias_pattern(scope: &Scope<'_>, alias: &str) -> Value {
    let target = scope
        .ctx
        .kms_alias_targets
        .as_ref()
        .and_then(|m| m.get(alias));
    let (Some(id), Some(acct)) = (target, scope.ctx.account_id.as_deref()) else {
        return Value::String(alias.to_string());
    };
    key_or_alias_pattern(&regex::escape(alias), &regex::escape(id), acct)
}

/// Non-empty members of an object (an unset sub-option and an absent one
/// are the same default).
fn members(o: &Map<String, Value>) -> impl Iterator<Item = (&String, &Value)> {
    o.iter().filter(|(_, x)| !is_trivially_empty(x))
}

/// Equality for default matching: exact structure (live extras count),
/// modulo trivially-empty members, stringly-typed scalars, JSON text, and
/// element order. Both sides are expected in canonical form.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            members(x).count() == members(y).count()
                && members(x).all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        (Value::Array(x), Value::Array(y)) => {
            if x.len() != y.len() {
                return false;
            }
            if x.iter().zip(y).all(|(p, q)| same(p, q)) {
                return true;
            }
            let mut used = vec![false; y.len()];
            x.iter().all(
                |p| match (0..y.len()).find(|&j| !used[j] && same(p, &y[j])) {
                    Some(j) => {
                        used[j] = true;
                        true
                    }
                    None => false,
                },
            )
        }
        (Value::String(s), o @ (Value::Object(_) | Value::Array(_)))
        | (o @ (Value::Object(_) | Value::Array(_)), Value::String(s)) => parse_json_text(s)
            .is_some_and(|mut p| {
                canonicalize_in_place(&mut p);
                same(&p, o)
            }),
        (Value::String(x), Value::String(y)) if x == y => true,
        // A number is its value: a weight of `1` is the documented `1.0`
        // (as the declared comparison holds it).
        (Value::Number(x), Value::Number(y)) => x.as_f64().is_some() && x.as_f64() == y.as_f64(),
        (Value::String(live), Value::String(d)) if d.starts_with("re:") => {
            regex_matches(&d[3..], live)
        }
        // A count condition (`NumNodeGroups` above one) is a pattern too.
        (Value::Number(n), Value::String(d)) if d.starts_with("re:") => {
            regex_matches(&d[3..], &n.to_string())
        }
        (Value::String(x), Value::String(y)) if is_same_instant(x, y) || is_same_address(x, y) => {
            true
        }
        (Value::String(x), Value::String(y)) => match (parse_json_text(x), parse_json_text(y)) {
            (Some(mut p), Some(mut q)) => {
                canonicalize_in_place(&mut p);
                canonicalize_in_place(&mut q);
                same(&p, &q)
            }
            _ => false,
        },
        _ => a == b || is_stringly_equal(a, b),
    }
}

/// `re:<regex>` default values match by shape (e.g. AWS-reserved
/// `default.` parameter-group names); compiled once per pattern.
fn regex_matches(pattern: &str, s: &str) -> bool {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    static CACHE: OnceLock<Mutex<HashMap<String, Option<regex::Regex>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    let Ok(mut map) = cache.lock() else {
        return false;
    };
    map.entry(pattern.to_string())
        .or_insert_with(|| regex::Regex::new(pattern).ok())
        .as_ref()
        .is_some_and(|r| r.is_match(s))
}

/// True when live value `v` and data default `d` (both canonical) match.
pub(crate) fn matches_canonical(v: &Value, d: &Value) -> bool {
    same(v, d)
}

/// True when live value `v` (canonical, as prepared) equals default `d`.
pub(crate) fn matches_default(v: &Value, d: &Value) -> bool {
    if d.is_object() || d.is_array() {
        let mut y = d.clone();
        canonicalize_in_place(&mut y);
        same(v, &y)
    } else {
        same(v, d)
    }
}

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
        let named = || condition_path(path, at);
        alternatives.iter().any(|want| match (got, want) {
            (None, Value::Null) => true,
            (Some(g), w) if !w.is_null() => {
                matches_default(g, w)
                    // A template may spell the value another way AWS reads
                    // as the same (`MySQL` for `mysql`).
                    || matches!((g, w), (Value::String(a), Value::String(b))
                        if spelled_alike(scope, &named(), a, b))
            }
            _ => false,
        })
    })
}

/// The path of the property a condition names for the value at `path`
/// (`./Member` beside it), for the rules that say when two spellings are
/// one value.
fn condition_path(path: &Path, at: &str) -> Path {
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
fn spelled_alike(scope: &Scope<'_>, at: &Path, declared: &str, stated: &str) -> bool {
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
fn condition_value<'a>(
    scope: &'a Scope<'_>,
    live: &'a Map<String, Value>,
    path: &Path,
    at: &str,
) -> Option<&'a Value> {
    let Some(member) = at.strip_prefix("./") else {
        return when_value(scope, &scope.declared, at).or_else(|| when_value(scope, live, at));
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
fn value_at<'v>(
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
                let keyed = super::keyed::keyed_rule(scope, &walked)?;
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
fn when_value<'v>(scope: &Scope<'_>, root: &'v Map<String, Value>, at: &str) -> Option<&'v Value> {
    value_at(scope, root, &Path::parse_rendered(at), true)
}

/// The value a `sameAs` default names: `./Member` is the member beside the
/// value in the object read back with it (ECS fills a port mapping's
/// `HostPort` from the `ContainerPort` in the same mapping); anything else
/// is read as a condition is, declared first.
fn same_as_value<'a>(
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
fn same_as_matches(scope: &Scope<'_>, v: &Value, d: &Value) -> bool {
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
fn parent_of<'v>(root: &'v Map<String, Value>, path: &Path) -> Option<&'v Map<String, Value>> {
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
fn same_as_fields_match(
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
            .filter(|x| !x.is_null() && !super::scope::is_unresolved_marker(x));
        match found {
            Some(x) => {
                want.insert(member.clone(), x.clone());
            }
            None => return false,
        }
    }
    matches_default(v, &Value::Object(want))
}

/// True when the undeclared live value at `path` is a known default.
pub(crate) fn is_known_default(
    scope: &Scope<'_>,
    live: &Map<String, Value>,
    path: &Path,
    v: &Value,
) -> bool {
    is_known_default_here(scope, live, path, v) || is_default_member_wise(scope, live, path, v)
}

/// How deep a block is judged member by member.
const MEMBER_WISE_DEPTH: usize = 16;

/// An object whose every set member is itself at a known default is at its
/// default as a whole (AWS filled a configuration block with defaults): each
/// member is equality-gated, so one changed member keeps the whole visible.
fn is_default_member_wise(
    scope: &Scope<'_>,
    live: &Map<String, Value>,
    path: &Path,
    v: &Value,
) -> bool {
    let o = match v {
        Value::Object(o) => o,
        // A one-element list of a block at its defaults (S3's one ownership
        // rule): the element is judged member by member.
        Value::Array(items) => {
            return matches!(items.as_slice(), [one @ Value::Object(_)]
                if is_default_member_wise(scope, live, &path.child(Seg::Index(0)), one));
        }
        _ => return false,
    };
    let mut set = o.iter().filter(|(_, x)| !is_trivially_empty(x)).peekable();
    // An object walked leaf by leaf reports its members itself. The depth
    // bound only guards against a pathological document: AWS nests
    // configuration blocks six deep (a Firehose serializer's options).
    if set.peek().is_none()
        || path.len() > MEMBER_WISE_DEPTH
        || Scope::any(&scope.facts.descend, path)
    {
        return false;
    }
    // An unset member where AWS's known default is set (a switch AWS turns
    // on, found off) is a change, not the block at its defaults.
    let contradicted = o.iter().any(|(k, x)| {
        is_trivially_empty(x) && contradicted_default(scope, live, &path.with_key(k), x).is_some()
    });
    !contradicted
        && set.all(|(k, x)| {
            let p = path.with_key(k);
            is_known_default_here(scope, live, &p, x) || is_default_member_wise(scope, live, &p, x)
        })
}

/// The registry schema's own defaults at `path`: a top-level `default`
/// annotation, then the nested ones.
fn schema_defaults_at<'s: 'p, 'p>(
    scope: &'s Scope<'_>,
    path: &'p Path,
) -> impl Iterator<Item = &'s Value> + 'p {
    let top = path
        .top()
        .filter(|_| path.len() == 1)
        .and_then(|k| scope.schema.defaults.get(k));
    top.into_iter().chain(
        scope
            .schema
            .default_paths
            .iter()
            .filter(|(p, _)| path.matches_dotted(p))
            .map(|(_, d)| d),
    )
}

/// The per-type known defaults that may hold at `path`: the hand-written
/// and mined entries, then the description-stated ones.
fn type_defaults_for<'s: 'p, 'p>(
    scope: &'s Scope<'_>,
    path: &'p Path,
) -> impl Iterator<Item = &'s KnownDefault> + 'p {
    let docs = scope
        .knowledge
        .doc_defaults_for(&scope.res.resource_type)
        .into_iter()
        .flat_map(|d| d.candidates(path.top()));
    scope.facts.defaults.candidates(path.top()).chain(docs)
}

/// True when an entry's path matches and its `when` conditions hold.
pub(crate) fn applies(
    scope: &Scope<'_>,
    live: &Map<String, Value>,
    path: &Path,
    kd: &KnownDefault,
) -> bool {
    kd.pattern.matches(path)
        && kd
            .entry
            .when
            .as_ref()
            .is_none_or(|w| when_holds(scope, live, path, w))
}

/// The known default an unset (trivially empty) value contradicts: every
/// known default that applies (of any source) states a set value, so a
/// switch AWS turns on, found off, is a change, not noise. Value-dependent
/// entries (`any`, chosen at create, `sameAs`) cannot tell, so they never
/// contradict.
pub(crate) fn contradicted_default<'s>(
    scope: &'s Scope<'_>,
    live: &Map<String, Value>,
    path: &Path,
    v: &Value,
) -> Option<&'s Value> {
    // As in `is_known_default_here`, a default seen under a condition that
    // holds here outranks the general statements: a cluster-mode group's
    // automatic failover is on, whatever the schema says of groups at large.
    let conditioned = observed_under_condition(scope, live, path);
    let mut stated: Vec<&'s Value> = if conditioned {
        Vec::new()
    } else {
        schema_defaults_at(scope, path).collect()
    };
    let typed: Vec<&KnownDefault> = type_defaults_for(scope, path)
        .filter(|kd| applies(scope, live, path, kd))
        .filter(|kd| !conditioned || kd.entry.source == Some(Source::Observed))
        .collect();
    let cross = if stated.is_empty() && typed.is_empty() {
        cross_type_fallback(scope, live, path)
    } else {
        Vec::new()
    };
    let n_typed = typed.len();
    for (i, kd) in typed.into_iter().chain(cross).enumerate() {
        let e = &kd.entry;
        if e.any
            || e.chosen_at_create
            || e.same_as.is_some()
            || e.same_as_fields.is_some()
            || e.stack_minted_key.is_some()
        {
            return None;
        }
        // A cross-type value of another kind (`"DISABLED"` beside a
        // boolean) says nothing about this property.
        let own_kind = |d: &&Value| i < n_typed || same_kind(d, v);
        stated.extend(e.values.iter().filter(own_kind));
    }
    // A value a service attaches on its own is what AWS sets there too.
    stated.extend(
        scope
            .facts
            .service_attached
            .iter()
            .filter(|kd| applies(scope, live, path, kd))
            .flat_map(|kd| kd.entry.values.iter()),
    );
    let contradicted = stated
        .iter()
        .all(|d| !is_trivially_empty(d) && !matches_canonical(v, &expand(d, scope)));
    stated.first().copied().filter(|_| contradicted)
}

/// The cross-type entries that speak for a type that states nothing at
/// `path`: minor-version upgrades are on, so one found off is a change.
fn cross_type_fallback<'s>(
    scope: &'s Scope<'_>,
    live: &Map<String, Value>,
    path: &Path,
) -> Vec<&'s KnownDefault> {
    let create_only = scope.is_create_only_top(path);
    scope
        .knowledge
        .cross_type_defaults
        .candidates(path.top())
        .filter(|kd| !kd.entry.create_only || create_only)
        .filter(|kd| applies(scope, live, path, kd))
        .collect()
}

/// True when two values are of one JSON kind (a number and a number).
fn same_kind(a: &Value, b: &Value) -> bool {
    std::mem::discriminant(a) == std::mem::discriminant(b)
}

/// True when `v` is a non-empty list whose every element names itself
/// (member `key`) by a CloudFormation-minted name of this stack: sibling
/// resources echoed into this one. Without the stack name nothing matches.
fn all_stack_minted(scope: &Scope<'_>, v: &Value, key: &str) -> bool {
    let Some(stack) = scope.stack() else {
        return false;
    };
    v.as_array().is_some_and(|items| {
        !items.is_empty()
            && items.iter().all(|e| {
                e.get(key)
                    .and_then(Value::as_str)
                    .is_some_and(|n| is_cfn_minted_name(n, Some(stack), ""))
            })
    })
}

/// True when one known default (of any source) states the value at `path`.
fn is_known_default_here(
    scope: &Scope<'_>,
    live: &Map<String, Value>,
    path: &Path,
    v: &Value,
) -> bool {
    // A default seen under a condition that holds here outranks a general
    // statement that ignores the condition: a Glue 5 job's 480-minute
    // timeout, not the documented 2880; a read replica's 0 backup days.
    // Computed once, and only when a general statement would decide.
    let superseded_cell = std::cell::OnceCell::new();
    let superseded =
        || *superseded_cell.get_or_init(|| observed_under_condition(scope, live, path));
    if schema_defaults_at(scope, path).any(|d| matches_default(v, d)) && !superseded() {
        return true;
    }
    let create_only = scope.is_create_only_top(path);
    // Only worth computing where a cross-type entry could apply at all.
    let cross_here = scope
        .knowledge
        .cross_type_defaults
        .candidates(path.top())
        .next()
        .is_some();
    let typed = if cross_here {
        typed_values(scope, live, path)
    } else {
        Vec::new()
    };
    let cross = || {
        scope
            .knowledge
            .cross_type_defaults
            .candidates(path.top())
            .filter(move |kd| !kd.entry.create_only || create_only)
            .filter(|kd| agrees_with_type(scope, kd, &typed))
    };
    let empty = is_trivially_empty(v);
    let candidates = || {
        type_defaults_for(scope, path)
            .chain(cross())
            // Mined (general) defaults only decide values that would
            // otherwise surface: an unset value is dropped as noise anyway.
            .filter(move |kd| !empty || kd.entry.source == Some(Source::Observed))
            .filter(move |kd| kd.entry.source == Some(Source::Observed) || !superseded())
            .filter(|kd| applies(scope, live, path, kd))
    };
    // A constant stated for this very element outranks a value AWS chose
    // for every element: an Elastic Beanstalk option off its recorded
    // platform default still surfaces.
    let pinned = || {
        candidates()
            .filter(|kd| !kd.entry.values.is_empty())
            .map(|kd| kd.pattern.fixed_segments())
            .max()
    };
    // A value stated for the path first (the common case, and it needs no
    // second pass); then a value AWS chose, unless a constant stated for
    // this very element outranks it.
    if candidates()
        .filter(|kd| !kd.entry.chosen_at_create)
        .any(|kd| states_value(scope, live, path, v, kd, empty))
    {
        return true;
    }
    let mut chosen = candidates().filter(|kd| kd.entry.chosen_at_create && !empty);
    chosen.any(|kd| {
        in_chosen_shape(scope, v, kd)
            && pinned().is_none_or(|p| p <= kd.pattern.fixed_segments())
            // A mined chosen value that another rule calls this resource's
            // own identity stays generated.
            && (kd.entry.source == Some(Source::Observed)
                || !super::undeclared::is_generated(scope, live, path, v))
    })
}

/// A value chosen at create fits its entry's `values` when it states any:
/// there they are the form AWS's choice takes (one security group id), not
/// the choice itself, so a second group added out of band still surfaces.
fn in_chosen_shape(scope: &Scope<'_>, v: &Value, kd: &KnownDefault) -> bool {
    kd.entry.values.is_empty()
        || kd
            .entry
            .values
            .iter()
            .any(|d| matches_canonical(v, &expand(d, scope)))
}

/// The values this type's own knowledge (schema, mined or observed) states
/// at `path` where it applies.
fn typed_values<'s>(
    scope: &'s Scope<'_>,
    live: &Map<String, Value>,
    path: &Path,
) -> Vec<std::borrow::Cow<'s, Value>> {
    let entries = type_defaults_for(scope, path)
        .filter(|kd| applies(scope, live, path, kd))
        .flat_map(|kd| kd.entry.values.iter());
    schema_defaults_at(scope, path)
        .chain(entries)
        .map(|d| expand(d, scope))
        .collect()
}

/// A cross-type default is a fallback: where the type states values of its
/// own, one that none of them is an instance of does not apply (an API
/// key's `Enabled` defaults to false, whatever most types start with). An
/// entry that states no value (chosen at create) always stays.
fn agrees_with_type(
    scope: &Scope<'_>,
    kd: &KnownDefault,
    typed: &[std::borrow::Cow<'_, Value>],
) -> bool {
    typed.is_empty()
        || kd.entry.values.is_empty()
        || kd.entry.values.iter().any(|c| {
            let c = expand(c, scope);
            typed.iter().any(|t| matches_canonical(t, &c))
        })
}

/// True when an observed entry of this type, limited by a `when` condition
/// that holds here, states the value at `path`: it was seen on resources
/// like this one, so a mined statement made for every resource of the type
/// no longer decides.
fn observed_under_condition(scope: &Scope<'_>, live: &Map<String, Value>, path: &Path) -> bool {
    scope.facts.defaults.candidates(path.top()).any(|kd| {
        kd.entry.source == Some(Source::Observed)
            && kd.entry.when.is_some()
            && applies(scope, live, path, kd)
    })
}

/// True when one entry (not chosen at create) explains the value: any
/// value, a stack-minted name, a sibling's value, or a stated one.
fn states_value(
    scope: &Scope<'_>,
    live: &Map<String, Value>,
    path: &Path,
    v: &Value,
    kd: &KnownDefault,
    empty: bool,
) -> bool {
    (kd.entry.any && !empty)
        || kd
            .entry
            .stack_minted_key
            .as_deref()
            .is_some_and(|k| all_stack_minted(scope, v, k))
        || kd
            .entry
            .same_as_fields
            .as_ref()
            .is_some_and(|f| same_as_fields_match(scope, live, path, v, f))
        || kd.entry.same_as.as_deref().is_some_and(|at| {
            same_as_value(scope, live, path, at).is_some_and(|d| same_as_matches(scope, v, d))
        })
        || kd
            .entry
            .values
            .iter()
            .any(|d| matches_canonical(v, &expand(d, scope)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn json_text_defaults_match_modulo_formatting() {
        let live = json!("{\n  \"A\" : {\n    \"K\" : \"x\",\n    \"V\" : [ \"5.0\" ]\n  }\n}");
        let d = json!("{\"A\":{\"K\":\"x\",\"V\":[\"5.0\"]}}");
        assert!(matches_default(&live, &d));
        assert!(!matches_default(
            &live,
            &json!("{\"A\":{\"K\":\"y\",\"V\":[\"5.0\"]}}")
        ));
    }

    #[test]
    fn object_defaults_ignore_unset_members_but_not_set_ones() {
        let d = json!({"IncludeExecutionData": false, "Level": "OFF"});
        assert!(matches_default(&json!({"Level": "OFF"}), &d));
        assert!(!matches_default(&json!({"Level": "ALL"}), &d));
        assert!(!matches_default(
            &json!({"Level": "OFF", "Destinations": ["x"]}),
            &d
        ));
    }

    #[test]
    fn regex_defaults_match_by_shape() {
        assert!(matches_default(
            &json!("default.mysql8.0"),
            &json!("re:^default\\.")
        ));
        assert!(!matches_default(
            &json!("custom-pg"),
            &json!("re:^default\\.")
        ));
    }
}
