//! Is an undeclared live value a known default? Sources, in order: the
//! schema's own `default` annotations (top-level and nested), then the
//! per-type known defaults in `core/data/known-defaults.json`. Every source
//! is equality-gated except the explicitly value-independent data entries.

use super::scope::Scope;
use crate::normalize::aws_facts::{Equivalence, KnownDefault, Source};
use crate::normalize::canonicalize_in_place;
use crate::normalize::empty::is_trivially_empty;
use crate::normalize::generated::is_stack_minted_name;
use crate::normalize::path::{Path, Pattern, Seg};
use crate::normalize::scalars::{
    is_case_insensitive_equal, is_same_address, is_same_instant, is_stringly_equal, parse_json_text,
};
use crate::normalize::shapes::is_shape_equal;
use crate::template::partition_for_region;
use serde_json::{Map, Value};

mod conditions;
mod placeholders;
mod values;

pub(crate) use conditions::when_holds;
use conditions::*;
pub(crate) use placeholders::expand;
pub(crate) use values::{matches_canonical, matches_default};

/// Why an undeclared live value is at its default. A block folds as the
/// greatest of its members: one chosen member makes the block a choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Fold {
    /// A known default states it (or holds whatever value, for a value
    /// AWS alone sets).
    Stated,
    /// AWS chose it at create and a user can change it (itself, or a
    /// member of the block): kept by record and memory so a later change
    /// surfaces.
    Chosen,
}

/// Why the undeclared live value at `path` is a known default, if it is.
pub(crate) fn known_default(
    scope: &Scope<'_>,
    live: &Map<String, Value>,
    path: &Path,
    v: &Value,
) -> Option<Fold> {
    known_default_here(scope, live, path, v).or_else(|| default_member_wise(scope, live, path, v))
}

/// How deep a block is judged member by member.
const MEMBER_WISE_DEPTH: usize = 16;

/// An object whose every set member is itself at a known default is at its
/// default as a whole (AWS filled a configuration block with defaults): each
/// member is equality-gated, so one changed member keeps the whole visible.
/// A member's default says what AWS does inside a block someone declared,
/// so a live-only block folds only where it is known present on a fresh
/// resource; elsewhere it was added out of band (S3's
/// `EventBridgeConfiguration {EventBridgeEnabled: true}`, or
/// `VersioningConfiguration {Status: Suspended}` on a bucket whose
/// versioning someone turned on, then suspended).
fn default_member_wise(
    scope: &Scope<'_>,
    live: &Map<String, Value>,
    path: &Path,
    v: &Value,
) -> Option<Fold> {
    let o = match v {
        Value::Object(o) => o,
        // A one-element list of a block at its defaults (S3's one ownership
        // rule): the element is judged member by member.
        Value::Array(items) => {
            return match items.as_slice() {
                [one @ Value::Object(_)] => {
                    default_member_wise(scope, live, &path.child(Seg::Index(0)), one)
                }
                _ => None,
            };
        }
        _ => return None,
    };
    let mut set = o.iter().filter(|(_, x)| !is_trivially_empty(x)).peekable();
    // An object walked leaf by leaf reports its members itself. The depth
    // bound only guards against a pathological document: AWS nests
    // configuration blocks six deep (a Firehose serializer's options).
    if set.peek().is_none()
        || path.len() > MEMBER_WISE_DEPTH
        || Scope::any(&scope.facts.descend, path)
    {
        return None;
    }
    // A member's default explains a block nobody declared only where AWS
    // itself creates the block.
    if !present_on_fresh(scope, live, path) {
        return None;
    }
    // An unset member where AWS's known default is set (a switch AWS turns
    // on, found off) is a change, not the block at its defaults.
    let contradicted = o.iter().any(|(k, x)| {
        is_trivially_empty(x) && contradicted_default(scope, live, &path.with_key(k), x).is_some()
    });
    if contradicted {
        return None;
    }
    set.try_fold(Fold::Stated, |fold, (k, x)| {
        let p = path.with_key(k);
        let member = known_default_here(scope, live, &p, x)
            .or_else(|| default_member_wise(scope, live, &p, x))?;
        Some(fold.max(member))
    })
}

/// True when the live-only block at `path` is known present on a fresh
/// resource: only there do its members' defaults explain it, whatever they
/// hold. A member's default says what AWS does inside a block someone
/// declared, not that the block exists (an S3 `EventBridgeConfiguration`
/// holding its default `EventBridgeEnabled: true` is notifications turned
/// on out of band). The evidence: a set default stated for the block
/// itself, an observed default at or below it (seen on a deploy that left
/// it out), or a block the documentation says AWS fills where its `when`
/// holds (`present-on-create.json`).
fn present_on_fresh(scope: &Scope<'_>, live: &Map<String, Value>, path: &Path) -> bool {
    let at_or_below = |p: &Pattern| p.matches(path) || p.extends(path);
    let set = |d: &Value| !is_trivially_empty(d);
    let present = scope.facts.present_on_create.iter().any(|(p, when)| {
        at_or_below(p)
            && when
                .as_ref()
                .is_none_or(|w| when_holds(scope, live, path, w))
    });
    present
        || schema_defaults_at(scope, path).any(set)
        || type_defaults_for(scope, path).any(|kd| {
            if kd.entry.source == Some(Source::Observed)
                && (kd.pattern.extends(path) || observed_holds(kd, path))
            {
                return true;
            }
            kd.pattern.matches(path)
                && (kd.entry.source == Some(Source::Observed) || kd.entry.values.iter().any(set))
                && kd
                    .entry
                    .when
                    .as_ref()
                    .is_none_or(|w| when_holds(scope, live, path, w))
        })
}

/// True when an observed default of an ancestor of `path` holds a value
/// there: the block was seen inside the ancestor AWS filled.
fn observed_holds(kd: &KnownDefault, path: &Path) -> bool {
    let n = kd.pattern.len();
    if n >= path.len() || !kd.pattern.prefix_of(path) {
        return false;
    }
    let rest: Option<Vec<&str>> = path.segs()[n..]
        .iter()
        .map(|s| match s {
            Seg::Key(k) => Some(k.as_str()),
            _ => None,
        })
        .collect();
    let Some(rest) = rest else {
        return false;
    };
    kd.entry.values.iter().any(|v| {
        rest.iter()
            .try_fold(v, |at, k| at.get(*k))
            .is_some_and(|x| !is_trivially_empty(x))
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
        .doc_defaults
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

/// True when the type itself states a default at `path` (its schema, or an
/// entry of its own that applies here): the cross-type rules then say
/// nothing.
pub(crate) fn type_states_default(
    scope: &Scope<'_>,
    live: &Map<String, Value>,
    path: &Path,
) -> bool {
    schema_defaults_at(scope, path).next().is_some()
        || type_defaults_for(scope, path).any(|kd| applies(scope, live, path, kd))
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
                    .is_some_and(|n| is_stack_minted_name(n, Some(stack)))
            })
    })
}

/// Why one known default (of any source) explains the value at `path`, if
/// one does.
fn known_default_here(
    scope: &Scope<'_>,
    live: &Map<String, Value>,
    path: &Path,
    v: &Value,
) -> Option<Fold> {
    // A default seen under a condition that holds here outranks a general
    // statement that ignores the condition: a Glue 5 job's 480-minute
    // timeout, not the documented 2880; a read replica's 0 backup days.
    // Computed once, and only when a general statement would decide.
    let superseded_cell = std::cell::OnceCell::new();
    let superseded =
        || *superseded_cell.get_or_init(|| observed_under_condition(scope, live, path));
    if schema_defaults_at(scope, path).any(|d| matches_default(v, d)) && !superseded() {
        return Some(Fold::Stated);
    }
    let create_only = scope.is_create_only_top(path);
    // Only worth computing where a cross-type entry could apply at all.
    let cross_here = scope
        .knowledge
        .cross_type_defaults
        .candidates(path.top())
        .next()
        .is_some();
    let type_states = cross_here && type_states_value(scope, live, path);
    let cross = || {
        scope
            .knowledge
            .cross_type_defaults
            .candidates(path.top())
            .filter(move |kd| !kd.entry.create_only || create_only)
            .filter(move |kd| falls_back(kd, type_states))
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
    // One pass over the entries that apply: a value stated for the path
    // decides at once (the common case); the entries of a value AWS chose
    // wait for the end, where a constant stated for this very element
    // outranks them (an Elastic Beanstalk option off its recorded platform
    // default still surfaces).
    let mut chosen: Vec<&KnownDefault> = Vec::new();
    let mut pinned: Option<usize> = None;
    for kd in candidates() {
        if !kd.entry.values.is_empty() {
            pinned = pinned.max(Some(kd.pattern.fixed_segments()));
        }
        if kd.entry.chosen_at_create {
            chosen.push(kd);
        } else if states_value(scope, live, path, v, kd, empty) {
            return Some(Fold::Stated);
        }
    }
    let found = !empty
        && chosen.into_iter().any(|kd| {
            in_chosen_shape(scope, v, kd)
                && pinned.is_none_or(|p| p <= kd.pattern.fixed_segments())
                // A mined chosen value that another rule calls this
                // resource's own identity stays generated.
                && (kd.entry.source == Some(Source::Observed)
                    || !super::undeclared::is_generated(scope, live, path, v))
        });
    found.then_some(Fold::Chosen)
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

/// True when this type's own knowledge (schema, mined or observed) states a
/// value at `path` where it applies.
fn type_states_value(scope: &Scope<'_>, live: &Map<String, Value>, path: &Path) -> bool {
    schema_defaults_at(scope, path).next().is_some()
        || type_defaults_for(scope, path)
            .any(|kd| !kd.entry.values.is_empty() && applies(scope, live, path, kd))
}

/// A cross-type default is a fallback: where the type states values of its
/// own, a cross-type value does not apply (an API key's `Enabled` defaults
/// to false, whatever most types start with), even one the type's value is
/// an instance of: the type's own value is the narrower statement (its own
/// service's managed key, not any managed key). An entry that states no
/// value (chosen at create) always stays.
fn falls_back(kd: &KnownDefault, type_states: bool) -> bool {
    !type_states || kd.entry.values.is_empty()
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
