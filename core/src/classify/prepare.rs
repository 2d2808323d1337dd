//! Prepares the live model for comparison: removes what is never
//! configuration (schema read-only outputs, write-only echoes, managed
//! timestamps, `aws:*` tags, propagated stack tags) and what a sibling
//! resource owns (IAM policies attached by a sibling `AWS::IAM::Policy`).
//!
//! The copy is built in ONE pass that leaves stripped values out (they are
//! never cloned); the normalize modules hold the same rules as in-place
//! functions for other callers.

use super::context::SiblingPolicyNames;
use super::scope::Scope;
use super::siblings;
use crate::normalize::canonicalize_in_place;
use crate::normalize::tags::{
    declared_tag_keys, drop_emptied_tag_holders, is_aws_key, is_tag_key, is_tag_list,
    strip_stack_tags,
};
use serde_json::{Map, Value};

/// The prepared live model.
pub(crate) fn prepare_live(scope: &Scope<'_>, live: &Map<String, Value>) -> Map<String, Value> {
    let tag_prop = scope.schema.tag_property.as_deref().unwrap_or("Tags");
    let strip: Vec<&str> = scope
        .read_only
        .iter()
        .chain(scope.write_only.iter())
        .copied()
        .collect();
    let copier = Copier {
        strip,
        free_form: scope.free_form_paths(),
        managed: &scope.knowledge.managed_names,
        tag_keys: ["Tags", tag_prop],
    };
    let all_strip: Active = (0..copier.strip.len()).map(|i| (i, 0)).collect();
    let all_free: Active = (0..copier.free_form.len()).map(|i| (i, 0)).collect();
    let mut members = Vec::with_capacity(live.len());
    for (k, v) in live {
        let s = Copier::step(&copier.strip, &all_strip, Some(k));
        // A declared read-only property is compared, not stripped (a
        // write-only one is never returned, so it goes either way).
        let declared_read_only =
            || scope.declared.contains_key(k) && !scope.write_only.iter().any(|w| w == k);
        if (s.done && !declared_read_only()) || copier.managed.iter().any(|n| n == k) {
            continue;
        }
        let f = Copier::step(copier.free_form, &all_free, Some(k));
        let tags = copier.is_tag_key(k) && v.is_object();
        members.push((k.clone(), copier.copy(v, &s.active, &f, tags)));
    }
    let mut m: Map<String, Value> = members.into_iter().collect();
    let declared_keys = declared_tag_keys(&scope.declared, tag_prop);
    strip_stack_tags(&mut m, tag_prop, &scope.ctx.stack_tags, &declared_keys);
    drop_emptied_tag_holders(&mut m, tag_prop);
    drop_sibling_policies(scope, &mut m);
    siblings::drop_sibling_sg_rules(scope, &mut m);
    // One canonical form for every finding value (policy statements, keyed
    // and id arrays in a stable order), taken property by property as the
    // declared side is: the resource's own properties are never a policy
    // document, even where one is named `Statement` (an EventBridge bus
    // policy's).
    for v in m.values_mut() {
        super::scope::rewrite_principals(scope.ctx, v);
        canonicalize_in_place(v);
    }
    m
}

/// Partial matches of dotted patterns: (pattern index, byte offset of the
/// next segment).
type Active = Vec<(usize, usize)>;

/// The outcome of stepping partial matches over one path segment.
#[derive(Default)]
struct Step {
    /// Some pattern matched the whole path.
    done: bool,
    /// Patterns still matching a prefix.
    active: Active,
}

/// The single-pass copier.
struct Copier<'m> {
    strip: Vec<&'m str>,
    free_form: &'m [&'m str],
    managed: &'m [String],
    tag_keys: [&'m str; 2],
}

impl Copier<'_> {
    fn is_tag_key(&self, k: &str) -> bool {
        is_tag_key(k, &self.tag_keys)
    }

    /// Steps partial matches over one segment (`None` = an array element,
    /// matched by `*`).
    fn step(pats: &[&str], active: &Active, seg: Option<&str>) -> Step {
        let mut out = Step::default();
        for &(i, pos) in active {
            let rest = &pats[i][pos..];
            // The segment boundary first: it rejects most patterns without
            // comparing any bytes.
            let head_len = |h: &str| {
                let bounded = rest.len() == h.len() || rest.as_bytes().get(h.len()) == Some(&b'.');
                (bounded && rest.starts_with(h)).then_some(h.len())
            };
            let Some(n) = head_len("*").or_else(|| seg.and_then(head_len)) else {
                continue;
            };
            if n == rest.len() {
                out.done = true;
            } else {
                out.active.push((i, pos + n + 1));
            }
        }
        out
    }

    /// Copies `v`, leaving out stripped paths, managed fields (outside
    /// free-form and tag maps) and `aws:*` tags.
    fn copy(&self, v: &Value, strip: &Active, free: &Step, in_tags: bool) -> Value {
        // Where no pattern reaches below and nothing inside is left out,
        // the copy is the value itself: cloned whole, without collecting
        // and re-sorting each object's members.
        if strip.is_empty()
            && free.active.is_empty()
            && self.untouched(v, free.done || in_tags, in_tags)
        {
            return v.clone();
        }
        match v {
            Value::Object(o) => {
                // Inside a free-form user map (or a tag map) every key is data.
                let user_map = free.done || in_tags;
                // Collected, not inserted one by one: the members come in
                // key order, so the map is built in one pass.
                let mut out = Vec::with_capacity(o.len());
                for (k, x) in o {
                    if in_tags && is_aws_key(k) {
                        continue;
                    }
                    let s = if strip.is_empty() {
                        Step::default()
                    } else {
                        Self::step(&self.strip, strip, Some(k))
                    };
                    if s.done || (!user_map && self.managed.iter().any(|n| n == k)) {
                        continue;
                    }
                    let f = if free.active.is_empty() {
                        Step::default()
                    } else {
                        Self::step(self.free_form, &free.active, Some(k))
                    };
                    let child_tags = !user_map && self.is_tag_key(k) && x.is_object();
                    out.push((k.clone(), self.copy(x, &s.active, &f, child_tags)));
                }
                Value::Object(out.into_iter().collect())
            }
            Value::Array(a) => {
                // Only a list holding an `aws:` key can lose an element, so
                // the tag-list test runs only then.
                let aws_key =
                    |e: &Value| e.get("Key").and_then(Value::as_str).is_some_and(is_aws_key);
                let tag_list = a.iter().any(aws_key) && is_tag_list(a);
                let s = if strip.is_empty() {
                    Step::default()
                } else {
                    Self::step(&self.strip, strip, None)
                };
                if s.done {
                    return Value::Array(Vec::new());
                }
                let f = if free.active.is_empty() {
                    Step::default()
                } else {
                    Self::step(self.free_form, &free.active, None)
                };
                Value::Array(
                    a.iter()
                        .filter(|e| !(tag_list && aws_key(e)))
                        .map(|e| self.copy(e, &s.active, &f, false))
                        .collect(),
                )
            }
            other => other.clone(),
        }
    }

    /// True when [`Self::copy`] leaves nothing out of `v` where no stripped
    /// or free-form pattern reaches below it: no `aws:*` tag (in a tag map
    /// or a tag list) and, outside a user map, no managed field, at any
    /// depth. The same tests as the copy, without copying.
    fn untouched(&self, v: &Value, user_map: bool, in_tags: bool) -> bool {
        match v {
            Value::Object(o) => o.iter().all(|(k, x)| {
                let child_tags = !user_map && self.is_tag_key(k) && x.is_object();
                !(in_tags && is_aws_key(k))
                    && (user_map || !self.managed.iter().any(|n| n == k))
                    && self.untouched(x, child_tags, child_tags)
            }),
            Value::Array(a) => {
                let aws_key =
                    |e: &Value| e.get("Key").and_then(Value::as_str).is_some_and(is_aws_key);
                !(a.iter().any(aws_key) && is_tag_list(a))
                    && a.iter().all(|e| self.untouched(e, false, false))
            }
            _ => true,
        }
    }
}

/// Drops live inline policies a sibling `AWS::IAM::Policy` owns (matched by
/// name). An unresolvable sibling name keeps everything (fail open: an
/// out-of-band policy must never be hidden).
fn drop_sibling_policies(scope: &Scope<'_>, m: &mut Map<String, Value>) {
    let SiblingPolicyNames::Known(names) = &scope.res.sibling_policy_names else {
        return;
    };
    if let Some(Value::Array(pols)) = m.get_mut("Policies") {
        pols.retain(|p| {
            !p.get("PolicyName")
                .and_then(Value::as_str)
                .is_some_and(|n| names.iter().any(|x| x == n))
        });
    }
}
