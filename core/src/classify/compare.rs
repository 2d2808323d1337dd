//! Declared-vs-live equality with every representational fold, and the diff
//! that turns a mismatch into `declared` findings at the narrowest path.
//!
//! Objects compare as a declared SUBSET of live: a live-only sub-key is not a
//! mismatch here (it is collected separately as a nested finding). A policy
//! document is the exception: AWS stores it as written, so inside one a
//! live-only member (a principal, a condition) changes the declared
//! document. Arrays compare element-wise, as multisets where the schema or a
//! per-type fact says order is meaningless.

use super::keyed::{keyed_for, Keyed};
use super::scope::{is_unresolved_marker, Scope};
use crate::normalize::arn::{
    is_arn_name_match, is_execute_api_shorthand_match, is_kms_alias_match,
};
use crate::normalize::arrays::{identity_key_of, SORT_IDENTITY_KEYS};
use crate::normalize::aws_facts::Equivalence;
use crate::normalize::empty::member_may_be_left_out;
use crate::normalize::path::{Path, Seg};
use crate::normalize::policy::policy_metadata;
use crate::normalize::scalars::{
    is_access_string_equal, is_case_insensitive_equal, is_declared_stringly_equal,
    is_dns_name_equal, is_epoch_hour_floor, is_intelligent_tier_match, is_latest_sentinel_match,
    is_numeric_string_equal, is_pem_equal, is_properties_text_equal, is_rate_expression_equal,
    is_same_address, is_same_instant, is_ssh_public_key_equal, is_unit_string_equal,
    is_version_prefix_match, parse_document_text, parse_json_text, typed_like,
};
use crate::normalize::shapes::{
    identity_value, is_address_range_set, is_dns_record_set, is_header_name_equal, is_pair_name,
    is_shape_equal, shape_identity_keys,
};
use serde_json::{Map, Value};

/// One declared mismatch.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Mismatch {
    pub path: Path,
    pub desired: Value,
    pub actual: Option<Value>,
    /// Set when the path goes through an array element: revert must rewrite
    /// this whole array (its path and declared value).
    pub whole_array: Option<(Path, Value)>,
    /// For an attribute-bag entry: the attribute key.
    pub attribute_key: Option<String>,
    /// Found inside a policy document (compared closed).
    pub in_policy: bool,
}

/// The comparator for one resource.
pub(crate) struct Cmp<'s, 'a> {
    pub scope: &'s Scope<'a>,
    /// Comparing inside a JSON document held as text (a build spec, an SSM
    /// document, a dashboard body): AWS stores such text as written, so no
    /// schema transform applies to it.
    pub in_text: bool,
    /// Comparing inside a policy document: objects are closed (see
    /// [`has_member_beyond`]).
    closed: bool,
}

impl<'s, 'a> Cmp<'s, 'a> {
    /// The comparator for one resource's properties.
    pub fn new(scope: &'s Scope<'a>) -> Self {
        Cmp {
            scope,
            in_text: false,
            closed: false,
        }
    }

    /// The comparator for the inside of a JSON document held as text.
    fn for_text(&self) -> Self {
        Cmp {
            scope: self.scope,
            in_text: true,
            closed: self.closed,
        }
    }

    /// This comparator, inside a policy document or not (as a mismatch was
    /// found).
    pub fn within_policy(&self, closed: bool) -> Self {
        Cmp {
            scope: self.scope,
            in_text: self.in_text,
            closed,
        }
    }

    /// The comparator for the inside of a policy document (or a statement
    /// standing alone), when `dm` is one and this comparator is not inside
    /// one yet.
    fn entering_policy(&self, dm: &Map<String, Value>) -> Option<Self> {
        (!self.closed && policy_metadata(dm).is_some()).then_some(self.within_policy(true))
    }

    /// Scalar equivalences (both sides are scalars or JSON text).
    fn scalar_eq(&self, path: &mut Path, d: &Value, l: &Value) -> bool {
        if is_declared_stringly_equal(d, l) {
            return true;
        }
        // A template string for a typed property compares as the typed
        // value CloudFormation passed (an hour-floored expiry included).
        if let Some(typed) = typed_like(d, l) {
            return self.scalar_eq(path, &typed, l);
        }
        if let (Value::Number(x), Value::Number(y)) = (d, l) {
            return (x.as_f64().is_some() && x.as_f64() == y.as_f64())
                || (self
                    .scope
                    .equivalences_at(path)
                    .any(|e| e == Equivalence::EpochHourFloor)
                    && is_epoch_hour_floor(d, l));
        }
        let (Some(ds), Some(ls)) = (d.as_str(), l.as_str()) else {
            return false;
        };
        if let (Some(mut x), Some(mut y)) = (parse_json_text(ds), parse_json_text(ls)) {
            crate::normalize::canonicalize_in_place(&mut x);
            crate::normalize::canonicalize_in_place(&mut y);
            // Declared-subset semantics, as for structured values: live
            // default-filled members are not a declared change.
            return self.for_text().eq(path, &x, &y);
        }
        let ctx = self.scope.ctx;
        self.rule_eq(path, ds, ls)
            || is_execute_api_shorthand_match(
                ds,
                ls,
                ctx.account_id.as_deref(),
                ctx.region.as_deref(),
                self.scope.physical_id,
            )
            || is_arn_name_match(ds, ls, ctx.account_id.as_deref(), ctx.region.as_deref())
            || is_kms_alias_match(
                ds,
                ls,
                ctx.kms_alias_targets.as_ref(),
                ctx.account_id.as_deref(),
                ctx.region.as_deref(),
            )
            || is_pem_equal(ds, ls)
            || is_same_instant(ds, ls)
            || is_same_address(ds, ls)
            || is_shape_equal(path.holder_key(), ds, ls)
    }

    /// The per-type equivalences at `path` (sourced rules: a documented
    /// case-insensitive keyword, a version track, ...).
    fn rule_eq(&self, path: &Path, ds: &str, ls: &str) -> bool {
        self.scope.equivalences_at(path).any(|e| match e {
            Equivalence::CaseInsensitive => is_case_insensitive_equal(ds, ls),
            Equivalence::LatestSentinel => is_latest_sentinel_match(ds, ls),
            Equivalence::VersionPrefix => is_version_prefix_match(ds, ls),
            Equivalence::AccessString => is_access_string_equal(ds, ls),
            Equivalence::DnsName => is_dns_name_equal(ds, ls),
            Equivalence::RateExpression => is_rate_expression_equal(ds, ls),
            Equivalence::NumericString => is_numeric_string_equal(ds, ls),
            Equivalence::IntelligentTiering => is_intelligent_tier_match(ds, ls),
            Equivalence::PropertiesText => is_properties_text_equal(ds, ls),
            Equivalence::SshPublicKey => is_ssh_public_key_equal(ds, ls),
            Equivalence::UnitString => self
                .scope
                .unit_scales_at(path)
                .any(|u| is_unit_string_equal(ds, ls, &u.unit, u.factor)),
            Equivalence::EpochHourFloor | Equivalence::CaseInsensitiveKeys => false,
        })
    }

    /// A user's own name (the name of a name/value pair: an environment
    /// variable's, a dimension's): as written, by a per-type rule, or as an
    /// HTTP header name; never by the shape rules for names AWS lower-cases.
    fn user_name_eq(&self, path: &Path, d: &Value, l: &Value) -> bool {
        is_same_as_written(d, l)
            || match (d.as_str(), l.as_str()) {
                (Some(ds), Some(ls)) => {
                    is_header_name_equal(path.holder_key(), ds, ls) || self.rule_eq(path, ds, ls)
                }
                _ => false,
            }
    }

    /// Declared-vs-live equality under every fold. Both sides are expected
    /// in canonical form (see `canonicalize_in_place`). `path` is a walk
    /// stack: pushed and popped, never cloned.
    pub fn eq(&self, path: &mut Path, d: &Value, l: &Value) -> bool {
        if is_unresolved_marker(d) {
            return true;
        }
        if let (Value::Object(dm), Value::Object(_)) = (d, l) {
            if let Some(closed) = self.entering_policy(dm) {
                return closed.eq(path, d, l);
            }
        }
        match (d, l) {
            (Value::Object(dm), Value::Object(lm)) if self.closed && has_member_beyond(dm, lm) => {
                false
            }
            (Value::Object(dm), Value::Object(lm)) => dm.iter().all(|(k, dv)| {
                let lv = self.scope.live_get(path, k, lm);
                path.push_key(k);
                let ok = self.scope.is_write_only(path)
                    || match lv {
                        Some(lv) if is_pair_name(k, dm) => self.user_name_eq(path, dv, lv),
                        Some(lv) => self.eq(path, dv, lv) || self.rewritten(path, dm, lv),
                        None => member_may_be_left_out(dv) || is_unresolved_marker(dv),
                    };
                path.pop();
                ok
            }),
            (Value::Array(da), Value::Array(la)) => {
                if let Some(k) = keyed_for(self.scope, path, da, la) {
                    return self.keyed_eq(k, path, da, la);
                }
                if da.len() != la.len() {
                    // Elements keyed by a name: a declared subset of live
                    // (the live-only ones are reported as nested inventory).
                    return la.len() > da.len() && self.shape_keyed_eq(path, da, la);
                }
                if self.scope.is_unordered(path) {
                    return self.multiset_eq(path, da, la);
                }
                let positional = da.iter().zip(la).enumerate().all(|(i, (x, y))| {
                    path.push(Seg::Index(i));
                    let ok = self.eq(path, x, y);
                    path.pop();
                    ok
                });
                positional
                    || self.shape_keyed_eq(path, da, la)
                    || (self.is_set_by_shape(path, da, la) && self.multiset_eq(path, da, la))
            }
            (Value::String(s), other @ (Value::Object(_) | Value::Array(_)))
            | (other @ (Value::Object(_) | Value::Array(_)), Value::String(s)) => {
                let Some(mut parsed) = parse_document_text(s) else {
                    return false;
                };
                crate::normalize::canonicalize_in_place(&mut parsed);
                let text = self.for_text();
                if d.is_string() {
                    text.eq(path, &parsed, other)
                } else {
                    text.eq(path, other, &parsed)
                }
            }
            _ => d == l || self.scalar_eq(path, d, l),
        }
    }

    /// True when the schema's transform at `path` turns the declared member
    /// of `dm` into live `l` (not inside JSON text, which AWS keeps as
    /// written).
    fn rewritten(&self, path: &Path, dm: &Map<String, Value>, l: &Value) -> bool {
        !self.in_text
            && self
                .scope
                .transform_cache
                .explains(self.scope, path, Some(dm), l)
    }

    /// [`Self::rewritten`] for a member that differs from its declared value.
    fn rewritten_member(
        &self,
        path: &mut Path,
        dm: &Map<String, Value>,
        d: &Value,
        l: &Value,
    ) -> bool {
        self.scope.has_transform(path) && !self.eq(path, d, l) && self.rewritten(path, dm, l)
    }

    /// True when `d` and `l` differ only in the order of arrays: with every
    /// array on both sides sorted (innermost first, by canonical text) they
    /// compare equal. The members are the same; only their order is not.
    pub fn eq_ignoring_order(&self, path: &mut Path, d: &Value, l: &Value) -> bool {
        let (mut ds, mut ls) = (d.clone(), l.clone());
        sort_arrays(&mut ds);
        sort_arrays(&mut ls);
        self.eq(path, &ds, &ls)
    }

    /// True when the arrays at `path` are sets by what they hold or where
    /// they sit: address ranges, a DNS record set's values, or a value of a
    /// create-only property (it cannot be changed in place, so a different
    /// order was the service's own).
    fn is_set_by_shape(&self, path: &Path, da: &[Value], la: &[Value]) -> bool {
        is_address_range_set(da, la)
            || is_dns_record_set(path.holder_key(), da, la)
            || self.scope.is_create_only(path)
    }

    /// Keyed superset equality: every declared element has a live element
    /// with the same identity, and they are equal.
    fn keyed_eq(&self, k: Keyed<'_>, path: &mut Path, da: &[Value], la: &[Value]) -> bool {
        da.iter().all(|de| {
            let Some(id) = k.id(de) else { return false };
            match k.find(la, &id) {
                Some((lid, le)) => {
                    path.push(Seg::Id(lid));
                    let ok = self.eq(path, &k.comparable(de), k.value(le));
                    path.pop();
                    ok
                }
                None => false,
            }
        })
    }

    /// Keyed-set equality by shape: both arrays are keyed by a name or key
    /// field (see `shape_identity`) and every declared element has a live
    /// element with its identity that it equals. Order never matters.
    fn shape_keyed_eq(&self, path: &mut Path, da: &[Value], la: &[Value]) -> bool {
        let Some(keys) = shape_identity_keys(da, la) else {
            return false;
        };
        da.iter().all(|de| {
            let id = identity_value(de, &keys);
            match self.find_by_identity(path, &keys, de, la) {
                Some(le) => {
                    path.push(Seg::Id(id.unwrap_or_default()));
                    let ok = self.eq(path, de, le);
                    path.pop();
                    ok
                }
                None => false,
            }
        })
    }

    /// The live element with the declared element's identity under `keys`
    /// (see [`Self::position_by_identity`]).
    pub fn find_by_identity<'l>(
        &self,
        path: &mut Path,
        keys: &[&str],
        de: &Value,
        la: &'l [Value],
    ) -> Option<&'l Value> {
        self.position_by_identity(path, keys, de, la)
            .map(|j| &la[j])
    }

    /// The position of the live element with the declared element's
    /// identity under `keys`: spelled the same, else spelled another way
    /// AWS reads as the same value (a record name lower-cased, with the
    /// root dot).
    pub fn position_by_identity(
        &self,
        path: &mut Path,
        keys: &[&str],
        de: &Value,
        la: &[Value],
    ) -> Option<usize> {
        let id = identity_value(de, keys)?;
        if let Some(j) = la
            .iter()
            .position(|le| identity_value(le, keys).as_ref() == Some(&id))
        {
            return Some(j);
        }
        let pair = |k: &str| de.as_object().is_some_and(|o| is_pair_name(k, o));
        la.iter().position(|le| {
            let Some(live_id) = identity_value(le, keys) else {
                return false;
            };
            path.push(Seg::Id(live_id));
            let same = keys.iter().all(|k| match (de.get(*k), le.get(*k)) {
                (Some(d), Some(l)) => {
                    path.push_key(k);
                    // A user's name (an environment variable's) is kept
                    // as written.
                    let ok = if pair(k) {
                        self.user_name_eq(path, d, l)
                    } else {
                        self.scalar_eq(path, d, l)
                    };
                    path.pop();
                    ok
                }
                _ => false,
            });
            path.pop();
            same
        })
    }

    /// Multiset equality: every declared element pairs with a distinct live
    /// element it equals. Pairing is a full matching, not first-fit: a
    /// declared element that also equals another live element (an empty
    /// `{ParseJSON: {}}` is a subset of any step) must not take the one
    /// live element a later declared element needs.
    fn multiset_eq(&self, path: &mut Path, da: &[Value], la: &[Value]) -> bool {
        let mut fits = |i: usize, j: usize| {
            path.push(Seg::Index(i));
            let ok = self.eq(path, &da[i], &la[j]);
            path.pop();
            ok
        };
        super::matching::pairs_all(da, la, &mut fits)
    }

    /// Collects the mismatches between declared `d` and live `l` at `path`.
    pub fn diff(
        &self,
        path: &mut Path,
        d: &Value,
        l: &Value,
        whole: Option<&(Path, Value)>,
        out: &mut Vec<Mismatch>,
    ) {
        if let (Value::Object(dm), Value::Object(_)) = (d, l) {
            if let Some(closed) = self.entering_policy(dm) {
                return closed.diff(path, d, l, whole, out);
            }
        }
        match (d, l) {
            (Value::Array(da), Value::Array(la))
                if keyed_for(self.scope, path, da, la).is_some() =>
            {
                if let Some(k) = keyed_for(self.scope, path, da, la) {
                    self.keyed_diff(k, path, d, da, la, whole, out);
                }
            }
            (Value::Object(dm), Value::Object(lm)) if !self.reported_whole(path, dm, lm) => {
                self.diff_members(path, dm, lm, whole, out)
            }
            _ if self.eq(path, d, l) => {}
            (Value::Array(da), Value::Array(la))
                if da.len() == la.len() && identity_key_of(da, &SORT_IDENTITY_KEYS).is_some() =>
            {
                let w = whole.cloned().unwrap_or_else(|| (path.clone(), d.clone()));
                for (i, (x, y)) in da.iter().zip(la).enumerate() {
                    path.push(Seg::Index(i));
                    self.diff(path, x, y, Some(&w), out);
                    path.pop();
                }
            }
            (Value::Array(da), Value::Array(la)) if shape_identity_keys(da, la).is_some() => {
                self.shape_keyed_diff(path, d, da, la, whole, out);
            }
            _ => out.push(Mismatch {
                path: path.clone(),
                desired: d.clone(),
                actual: Some(l.clone()),
                whole_array: whole.cloned(),
                attribute_key: None,
                in_policy: self.closed,
            }),
        }
    }

    /// True when a differing object is reported whole rather than member by
    /// member: a union's choice was replaced, or a member AWS never adds
    /// appeared inside a policy document (the finding shows what was added).
    fn reported_whole(
        &self,
        path: &Path,
        dm: &Map<String, Value>,
        lm: &Map<String, Value>,
    ) -> bool {
        self.choice_gone(path, dm, lm) || (self.closed && has_member_beyond(dm, lm))
    }

    /// True when a declared member spelled `{}` (a union's choice, such as
    /// a WAF rule's `{Block: {}}`) is missing from live: the object is then
    /// reported whole, so the finding shows the choice that replaced it.
    fn choice_gone(&self, path: &Path, dm: &Map<String, Value>, lm: &Map<String, Value>) -> bool {
        dm.iter().any(|(k, dv)| {
            matches!(dv, Value::Object(o) if o.is_empty())
                && self.scope.live_get(path, k, lm).is_none()
        })
    }

    /// Diff of two objects, member by member (no up-front equality: each
    /// level is compared exactly once).
    fn diff_members(
        &self,
        path: &mut Path,
        dm: &Map<String, Value>,
        lm: &Map<String, Value>,
        whole: Option<&(Path, Value)>,
        out: &mut Vec<Mismatch>,
    ) {
        for (k, dv) in dm {
            let lv = self.scope.live_get(path, k, lm);
            path.push_key(k);
            if !self.scope.is_write_only(path) {
                let differs = match lv {
                    Some(lv) if is_pair_name(k, dm) => !self.user_name_eq(path, dv, lv),
                    Some(lv) if self.rewritten_member(path, dm, dv, lv) => false,
                    Some(lv) => {
                        self.diff(path, dv, lv, whole, out);
                        false
                    }
                    None => !(member_may_be_left_out(dv) || is_unresolved_marker(dv)),
                };
                if differs {
                    out.push(Mismatch {
                        path: path.clone(),
                        desired: dv.clone(),
                        actual: lv.cloned(),
                        whole_array: whole.cloned(),
                        attribute_key: None,
                        in_policy: self.closed,
                    });
                }
            }
            path.pop();
        }
    }

    /// Diff of an array keyed by shape: each declared element against the
    /// live element with its identity (absent = the element is missing).
    fn shape_keyed_diff(
        &self,
        path: &mut Path,
        d: &Value,
        da: &[Value],
        la: &[Value],
        whole: Option<&(Path, Value)>,
        out: &mut Vec<Mismatch>,
    ) {
        let Some(keys) = shape_identity_keys(da, la) else {
            return;
        };
        let w = whole.cloned().unwrap_or_else(|| (path.clone(), d.clone()));
        for (i, de) in da.iter().enumerate() {
            let id = identity_value(de, &keys);
            let le = self.find_by_identity(path, &keys, de, la);
            // Addressed by identity, as keyed sets are (`Policies[name]`), so a
            // writer can find the element whatever order AWS returns.
            path.push(id.clone().map_or(Seg::Index(i), Seg::Id));
            match le {
                Some(le) => self.diff(path, de, le, Some(&w), out),
                None => out.push(Mismatch {
                    path: path.clone(),
                    desired: de.clone(),
                    actual: None,
                    whole_array: Some(w.clone()),
                    attribute_key: None,
                    in_policy: self.closed,
                }),
            }
            path.pop();
        }
    }

    /// Diff of a keyed superset array: per declared element; a bag entry is
    /// reported on the bag path with its attribute key.
    #[allow(clippy::too_many_arguments)]
    fn keyed_diff(
        &self,
        k: Keyed<'_>,
        path: &mut Path,
        d: &Value,
        da: &[Value],
        la: &[Value],
        whole: Option<&(Path, Value)>,
        out: &mut Vec<Mismatch>,
    ) {
        for de in da {
            let Some(id) = k.id(de) else {
                out.push(Mismatch {
                    path: path.clone(),
                    desired: d.clone(),
                    actual: Some(Value::Array(la.to_vec())),
                    whole_array: whole.cloned(),
                    attribute_key: None,
                    in_policy: self.closed,
                });
                return;
            };
            let (lid, le) = match k.find(la, &id) {
                Some((lid, le)) => (lid, Some(le)),
                None => (id.clone(), None),
            };
            let de_cmp = k.comparable(de);
            path.push(Seg::Id(lid));
            let same = le.is_some_and(|le| self.eq(path, &de_cmp, k.value(le)));
            if !same {
                if k.is_bag() {
                    path.pop();
                    out.push(Mismatch {
                        path: path.clone(),
                        desired: k.value(de).clone(),
                        actual: le.map(|le| k.value(le).clone()),
                        whole_array: whole.cloned(),
                        attribute_key: Some(id),
                        in_policy: self.closed,
                    });
                    continue;
                } else if let Some(le) = le {
                    self.diff(path, &de_cmp, le, whole, out);
                } else {
                    out.push(Mismatch {
                        path: path.clone(),
                        desired: de.clone(),
                        actual: None,
                        whole_array: whole.cloned(),
                        attribute_key: None,
                        in_policy: self.closed,
                    });
                }
            }
            path.pop();
        }
    }
}

/// True when live object `lm`, inside a policy document, holds a member
/// declared `dm` does not. AWS stores a policy as written (no member was
/// ever seen added to one of the corpus's declared policies), so such a
/// member was written out of band: a principal, a condition, a `NotAction`
/// changes what the declared document grants. A document's own metadata
/// (`Id`, `Version`) is left to the nested walk, which reports it.
fn has_member_beyond(dm: &Map<String, Value>, lm: &Map<String, Value>) -> bool {
    let metadata: &[&str] = policy_metadata(dm).unwrap_or(&[]);
    lm.keys()
        .any(|k| !dm.contains_key(k) && !metadata.contains(&k.as_str()))
}

/// Sorts every array in `v` by the canonical text of its elements, inner
/// arrays first, so two values that differ only in array order become equal.
fn sort_arrays(v: &mut Value) {
    match v {
        Value::Array(a) => {
            a.iter_mut().for_each(sort_arrays);
            a.sort_by_cached_key(crate::normalize::arrays::canonical_text);
        }
        Value::Object(o) => o.values_mut().for_each(sort_arrays),
        _ => {}
    }
}

/// True when a user-chosen name reads back as written: the same text, or
/// the same scalar typed another way (`"8080"` / `8080`).
fn is_same_as_written(d: &Value, l: &Value) -> bool {
    is_unresolved_marker(d) || d == l || is_declared_stringly_equal(d, l)
}
