//! Live values the template does not declare: the decision tree of seed §6
//! ("why does a given value appear"): known default -> `atDefault`; this
//! resource's own minted identity -> `generated`; structural noise (trivially
//! empty, physical-id echo) -> dropped; otherwise `undeclared`.

use super::defaults::{
    applies, contradicted_default, expand, known_default, matches_canonical, matches_default,
    type_states_default, when_holds, Fold,
};
use super::emit::Out;
use super::keyed::{keyed_undeclared, Keyed};
use super::read_back;
use super::scope::Scope;
use super::siblings::{self, Verdict};
use crate::finding::Tier;
use crate::normalize::account_owned::{account_owned, Account};
use crate::normalize::empty::is_trivially_empty;
use crate::normalize::generated::{is_cfn_minted_name, is_stack_minted_name};
use crate::normalize::path::{Path, Seg};
use crate::normalize::shapes::{
    is_encoded_sibling, is_restated_reference, joins_declared_values, mirrors_sibling_member,
    restates_sibling_count, restates_siblings, wraps_sibling_list, LiveReferences,
};
use serde_json::{Map, Value};

/// True when an undeclared value is an identifier AWS or CloudFormation
/// generated for this very resource.
pub(crate) fn is_generated(
    scope: &Scope<'_>,
    live: &Map<String, Value>,
    path: &Path,
    v: &Value,
) -> bool {
    if scope
        .facts
        .generated
        .iter()
        .any(|g| generated_rule_matches(scope, live, path, v, g, false))
    {
        return true;
    }
    let Some(s) = v.as_str() else {
        return false;
    };
    if scope.physical_id.is_empty() {
        return is_cfn_minted_name(s, scope.stack(), &scope.res.logical_id);
    }
    (path.len() > 1 && s == scope.physical_id)
        || (s != scope.physical_id && scope.physical_id_segments.contains(&s))
        || is_cfn_minted_name(s, scope.stack(), &scope.res.logical_id)
        // A sibling's minted name where it cannot change in place (an
        // ingress rule's group): the template placed it there. Where it can
        // change (an instance's profile, a database's parameter group), a
        // sibling named there may have been put there out of band.
        || (scope.is_create_only(path) && is_stack_minted_name(s, scope.stack()))
}

/// True when a generated-value rule's template states the whole value: the
/// block AWS derives from the resource's own identity, which a default of
/// one of its members must not relabel.
fn is_generated_template(
    scope: &Scope<'_>,
    live: &Map<String, Value>,
    path: &Path,
    v: &Value,
) -> bool {
    scope
        .facts
        .generated
        .iter()
        .any(|g| generated_rule_matches(scope, live, path, v, g, true))
}

/// True when one generated-value rule (only `template` ones if asked)
/// matches the value at `path` where its conditions hold.
fn generated_rule_matches(
    scope: &Scope<'_>,
    live: &Map<String, Value>,
    path: &Path,
    v: &Value,
    g: &crate::normalize::aws_facts::Generated,
    template_only: bool,
) -> bool {
    if !g.pattern.matches(path)
        || g.rule
            .when
            .as_ref()
            .is_some_and(|w| !when_holds(scope, live, path, w))
    {
        return false;
    }
    match g.rule.match_kind.as_str() {
        "any" => !template_only,
        "physicalIdSegment" => {
            !template_only
                && v.as_str().is_some_and(|s| {
                    scope.physical_id_segments.contains(&s) || s == scope.physical_id
                })
        }
        "template" => g
            .rule
            .value
            .as_ref()
            .is_some_and(|t| matches_canonical(v, &expand(t, scope))),
        _ => false,
    }
}

/// True when a live top-level property only re-states a declared sibling
/// (a resolved form of it), per the per-type echo facts.
fn is_echo(scope: &Scope<'_>, key: &str, v: &Value) -> bool {
    scope.facts.echoes.iter().any(|e| {
        e.live == key
            && scope
                .declared
                .get(&e.declared)
                .is_some_and(|d| !e.same_value || matches_default(v, d))
    })
}

/// Why an OFF value at `path` is a change, if it is: a switch AWS turns on
/// at creation (and no sibling property explains the OFF state, per the
/// per-type rule; no note), else a value where a known default states a set
/// one (the note names it).
fn off_is_a_change(
    scope: &Scope<'_>,
    live: &Map<String, Value>,
    path: &Path,
    v: &Value,
) -> Option<Option<String>> {
    let mut rules = scope
        .facts
        .meaningful_when_off
        .iter()
        .filter(|(p, _)| p.matches(path))
        .peekable();
    if rules.peek().is_none() {
        // A null is a value the read did not return, not one turned off.
        if v.is_null() {
            return None;
        }
        if let Some(d) = contradicted_default(scope, live, path, v) {
            return Some(Some(format!("unset, where the known default is {d}")));
        }
        return is_unstated_switch(scope, live, path).then(|| {
            Some("off, where no source states how this type starts: a switch turned off out of band cannot be told from one never on".to_string())
        });
    }
    rules
        .any(|(_, r)| {
            !r.unless_present
                .iter()
                .any(|k| live.get(k).is_some_and(|x| !is_trivially_empty(x)))
        })
        .then_some(None)
}

/// True when a cross-type rule says off is a setting at `path` (a
/// resource's own `Enabled` switch) and the type states nothing there: off
/// is then reported, not taken for unset.
fn is_unstated_switch(scope: &Scope<'_>, live: &Map<String, Value>, path: &Path) -> bool {
    scope
        .knowledge
        .cross_type()
        .meaningful_when_off
        .iter()
        .any(|(p, _)| p.matches(path))
        && !type_states_default(scope, live, path)
}

/// True when a member of an all-off block, at any depth, is off where a
/// known default says on (Cognito's `UsernameConfiguration
/// {CaseSensitive: false}`, documented true).
fn holds_off_change(
    scope: &Scope<'_>,
    live: &Map<String, Value>,
    path: &Path,
    o: &Map<String, Value>,
) -> bool {
    o.iter().any(|(k, x)| {
        let p = path.with_key(k);
        off_is_a_change(scope, live, &p, x).is_some()
            || x.as_object()
                .is_some_and(|inner| holds_off_change(scope, live, &p, inner))
    })
}

/// True when the value is one a service attaches on its own (an AWS log
/// delivery's resource policy), equal to its known shape, where the entry's
/// `when` holds (EC2's all-ports spelling only on an all-protocol rule).
pub(crate) fn is_service_attached(
    scope: &Scope<'_>,
    live: &Map<String, Value>,
    path: &Path,
    v: &Value,
) -> bool {
    scope.facts.service_attached.iter().any(|kd| {
        applies(scope, live, path, kd)
            && kd
                .entry
                .values
                .iter()
                .any(|d| matches_canonical(v, &expand(d, scope)))
    })
}

/// True when a top-level value is the stack's own account or region, or the
/// service-linked role a service falls back to: see [`account_owned`].
/// Below the top level the own account is a grant (a policy condition, a
/// principal), not a default.
fn is_account_owned(scope: &Scope<'_>, path: &Path, v: &Value) -> bool {
    let acct = Account {
        id: scope.ctx.account_id.as_deref(),
        region: scope.ctx.region.as_deref(),
    };
    path.len() == 1 && account_owned(v, acct).is_some()
}

/// True when a value carries nothing once echoes of this resource's own
/// physical id are removed: `{Name: <physical id>, Policy: {}}` is the
/// resource describing itself, not configuration.
fn is_structural_noise(v: &Value, physical_id: &str) -> bool {
    match v {
        Value::String(s) => s.is_empty() || (!physical_id.is_empty() && s == physical_id),
        // CloudFront's empty list `{Quantity: 0, Items: []}` counts as empty.
        Value::Object(o) => o
            .iter()
            .all(|(k, x)| is_structural_noise(x, physical_id) || restates_sibling_count(k, x, o)),
        other => is_trivially_empty(other),
    }
}

const NOTE_COUNT: &str = "the length of the list beside it, which is judged on its own";

const NOTE_JOINED: &str = "joins declared values: this resource's own composite id";

const NOTE_CREATE_ONLY: &str =
    "create-only: set when the resource was created; changing it replaces the resource";

/// What the rules decide for one undeclared value.
enum Decision<'v> {
    /// No finding.
    Drop,
    /// One finding of this tier, with its note if any.
    Emit(Tier, Option<String>),
    /// An `atDefault` finding flagged create-only.
    CreateOnly,
    /// An `atDefault` finding of a value AWS chose at create that a user
    /// can change.
    Chosen,
    /// Each member of the object judged on its own.
    Members(&'v Map<String, Value>),
    /// Each element of a keyed array judged on its own.
    Elements(&'v [Value], Keyed<'v>),
}

/// Classifies one undeclared live value at `path` and emits its finding.
pub(crate) fn classify_value(
    scope: &Scope<'_>,
    live: &Map<String, Value>,
    parent: &Map<String, Value>,
    path: &Path,
    v: &Value,
    nested: bool,
    out: &mut Out<'_, '_>,
) {
    // The first rule that decides wins: the order of the steps is behaviour.
    let decision = off_switch_decision(scope, live, path, v, nested)
        .or_else(|| restates_something_else(scope, live, parent, path, v).then_some(Decision::Drop))
        .or_else(|| sibling_decision(scope, live, path, v))
        .or_else(|| default_decision(scope, live, parent, path, v))
        .or_else(|| own_value_decision(scope, live, path, v))
        .unwrap_or_else(|| split_or_undeclared(scope, path, v));
    match decision {
        Decision::Drop => {}
        Decision::Emit(tier, note) => out.push_actual(tier, path, v, nested).note = note,
        Decision::CreateOnly => {
            let f = out.push_actual(Tier::AtDefault, path, v, nested);
            f.create_only = true;
            f.note = Some(NOTE_CREATE_ONLY.into());
        }
        Decision::Chosen => {
            out.push_actual(Tier::AtDefault, path, v, nested)
                .chosen_at_create = true
        }
        Decision::Members(o) => {
            for (k, x) in o {
                classify_value(scope, live, o, &path.with_key(k), x, true, out);
            }
        }
        Decision::Elements(items, k) => {
            classify_elements(scope, live, parent, path, items, k, out);
        }
    }
}

/// The checks on an unset value: a switch found off where that is a change,
/// a block of switches holding one, else noise when nested.
fn off_switch_decision<'v>(
    scope: &Scope<'_>,
    live: &Map<String, Value>,
    path: &Path,
    v: &'v Value,
    nested: bool,
) -> Option<Decision<'v>> {
    if !is_trivially_empty(v) {
        return None;
    }
    // A switch AWS turns on at creation, found off: a real divergence.
    if let Some(note) = off_is_a_change(scope, live, path, v) {
        return Some(Decision::Emit(Tier::Undeclared, note));
    }
    // A block of off switches holding one that should be on: each
    // member on its own, so that one surfaces and the rest stay unset.
    if let Value::Object(o) = v {
        if holds_off_change(scope, live, path, o) {
            return Some(Decision::Members(o));
        }
    }
    // Inside a declared or descended object, an unset sub-option is noise.
    nested.then_some(Decision::Drop)
}

/// True when the value only says again what something else says: a
/// sibling (which is compared on its own), a service attaching it, or at
/// the top level a declared property or another mechanism.
fn restates_something_else(
    scope: &Scope<'_>,
    live: &Map<String, Value>,
    parent: &Map<String, Value>,
    path: &Path,
    v: &Value,
) -> bool {
    // Another spelling of what a sibling states (an encoded copy, a
    // restated reference): the sibling is compared on its own.
    if path.last_key().is_some_and(|k| {
        is_encoded_sibling(k, v, parent)
            || restates_siblings(k, v, parent)
            || mirrors_sibling_member(k, v, parent)
            || wraps_sibling_list(k, v, parent)
    }) || is_service_attached(scope, live, path, v)
    {
        return true;
    }
    let [Seg::Key(k)] = path.segs() else {
        return false;
    };
    // The live side of a restatement is the same against every declared
    // property: worked out once.
    let refs = LiveReferences::new(k, v);
    is_echo(scope, k, v)
        || Scope::any(&scope.facts.owned_elsewhere, path)
        || scope.declared.iter().any(|(dk, d)| {
            refs.as_ref().is_some_and(|r| r.restated_by(dk, d))
                || is_restated_reference(k, v, dk, d)
        })
}

/// What a sibling resource's facts make of the value (see [`siblings`]).
fn sibling_decision<'v>(
    scope: &Scope<'_>,
    live: &Map<String, Value>,
    path: &Path,
    v: &Value,
) -> Option<Decision<'v>> {
    let verdict = match path.segs() {
        [Seg::Key(k)] => siblings::top_level_verdict(scope, k, path, v),
        _ => siblings::nested_verdict(scope, live, path, v),
    };
    match verdict {
        Some(Verdict::Drop) => return Some(Decision::Drop),
        Some(Verdict::AtDefault) => return Some(Decision::Emit(Tier::AtDefault, None)),
        Some(Verdict::Generated) => return Some(Decision::Emit(Tier::Generated, None)),
        None => {}
    }
    let [Seg::Key(k)] = path.segs() else {
        return None;
    };
    if is_trivially_empty(v) {
        return None;
    }
    match siblings::echo_verdict(scope, k, v) {
        Some(Verdict::Drop) => Some(Decision::Drop),
        Some(Verdict::AtDefault) => Some(Decision::Emit(Tier::AtDefault, None)),
        _ => None,
    }
}

/// `atDefault` when the value is what AWS holds with nothing declared: a
/// declared value read back in another form, a known default, or the count
/// of a sibling list.
fn default_decision<'v>(
    scope: &Scope<'_>,
    live: &Map<String, Value>,
    parent: &Map<String, Value>,
    path: &Path,
    v: &Value,
) -> Option<Decision<'v>> {
    let named = siblings::eb_named_value(scope, v);
    let read_back = match path.segs() {
        [Seg::Key(_)] => read_back::restates_write_only(scope, v),
        _ => read_back::parsed_from_declared_document(scope, path, v),
    };
    if read_back {
        return Some(Decision::Emit(Tier::AtDefault, None));
    }
    if is_generated_template(scope, live, path, v) {
        return None;
    }
    let fold = known_default(scope, live, path, v)
        .or_else(|| named.and_then(|n| known_default(scope, live, path, &n)));
    match fold {
        Some(Fold::Stated) => return Some(Decision::Emit(Tier::AtDefault, None)),
        Some(Fold::Chosen) => return Some(Decision::Chosen),
        None => {}
    }
    // A count of a sibling list (`Ipv4PrefixCount` of `Ipv4Prefixes`): the
    // list says it already, and is judged on its own.
    path.last_key()
        .is_some_and(|k| restates_sibling_count(k, v, parent))
        .then(|| Decision::Emit(Tier::AtDefault, Some(NOTE_COUNT.into())))
}

/// What the value is when it belongs to the resource itself: its identity
/// (physical id, a generated or joined id, the stack's account), noise made
/// of that identity, or what AWS fixed at creation.
fn own_value_decision<'v>(
    scope: &Scope<'_>,
    live: &Map<String, Value>,
    path: &Path,
    v: &Value,
) -> Option<Decision<'v>> {
    // A top-level echo of the physical id is the resource's own identity.
    if path.len() == 1 && !scope.physical_id.is_empty() && v.as_str() == Some(scope.physical_id) {
        return Some(Decision::Drop);
    }
    if is_generated(scope, live, path, v) {
        return Some(Decision::Emit(Tier::Generated, None));
    }
    // The resource's own composite id, joined from declared values.
    if path.len() == 1 && joins_declared_values(v, &scope.declared) {
        return Some(Decision::Emit(Tier::AtDefault, Some(NOTE_JOINED.into())));
    }
    if is_account_owned(scope, path, v) {
        return Some(Decision::Emit(Tier::AtDefault, None));
    }
    if is_structural_noise(v, scope.physical_id) {
        return Some(Decision::Drop);
    }
    // A create-only property the template leaves out holds what AWS set at
    // creation (registry schema `createOnlyProperties`): nothing can change
    // it in place, so it is not potential drift. Flagged so record keeps it
    // and a resource re-created out of band with another value surfaces (a
    // value another rule explains is no such choice).
    scope
        .is_create_only_top(path)
        .then_some(Decision::CreateOnly)
}

/// What no rule explains: a keyed array split element by element, an
/// object the facts say to descend into, else one `undeclared` finding.
fn split_or_undeclared<'v>(scope: &Scope<'v>, path: &Path, v: &'v Value) -> Decision<'v> {
    if let Value::Array(items) = v {
        if let Some(k) = keyed_undeclared(scope, path, items).filter(|k| k.splits_undeclared()) {
            return Decision::Elements(items, k);
        }
    }
    if let Value::Object(o) = v {
        if Scope::any(&scope.facts.descend, path) {
            return Decision::Members(o);
        }
    }
    Decision::Emit(Tier::Undeclared, None)
}

/// Classifies each element of an undeclared keyed array under its identity.
fn classify_elements(
    scope: &Scope<'_>,
    live: &Map<String, Value>,
    parent: &Map<String, Value>,
    path: &Path,
    items: &[Value],
    k: Keyed<'_>,
    out: &mut Out<'_, '_>,
) {
    for (i, e) in items.iter().enumerate() {
        let Some(id) = k.id(e) else {
            // An element without its identity is no item the rules
            // know: reported as it is, never skipped.
            out.push_actual(Tier::Undeclared, &path.child(Seg::Index(i)), e, true);
            continue;
        };
        if k.is_default_item(&id) {
            out.push_actual(Tier::AtDefault, &path.child(Seg::Id(id)), e, true);
            continue;
        }
        classify_value(
            scope,
            live,
            parent,
            &path.child(Seg::Id(id)),
            k.value(e),
            true,
            out,
        );
    }
}

/// Walks the live top-level properties the template does not declare.
pub(crate) fn run(
    scope: &Scope<'_>,
    live: &Map<String, Value>,
    consumed: &[String],
    out: &mut Out<'_, '_>,
) {
    // One path buffer for every property (pushed and popped).
    let mut path = Path::root();
    for (k, v) in live {
        if scope.declared.contains_key(k) || consumed.iter().any(|c| c == k) {
            continue;
        }
        path.push_key(k);
        classify_value(scope, live, live, &path, v, false, out);
        path.pop();
    }
}
