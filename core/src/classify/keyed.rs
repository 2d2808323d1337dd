//! Keyed superset arrays: attribute bags (ELB `LoadBalancerAttributes`, …)
//! and identity-keyed arrays AWS fills with extra elements (Cognito standard
//! attributes, EC2 block devices, managed-policy attachments). Declared
//! elements are aligned with live ones by identity and compared; each
//! live-only element is its own nested finding (so an out-of-band addition
//! surfaces, and a default-filled one folds by its own default).

use super::scope::Scope;
use crate::normalize::aws_facts::KeyedSetRule;
use crate::normalize::path::Path;
use serde_json::Value;
use std::borrow::Cow;

/// The keyed-set rule that applies at a path.
#[derive(Clone, Copy)]
pub(crate) struct Keyed<'r> {
    rule: &'r KeyedSetRule,
}

/// The keyed-set rule for the array at `path`, if any.
pub(crate) fn keyed_rule<'r>(scope: &Scope<'r>, path: &Path) -> Option<Keyed<'r>> {
    scope
        .facts
        .keyed
        .iter()
        .find(|(p, _)| p.matches(path))
        .map(|(_, rule)| Keyed { rule })
}

/// An attribute bag recognised by its shape (see `is_attribute_bag`):
/// declared keys compared by key, live-only keys reported one by one.
static SHAPE_BAG: std::sync::LazyLock<KeyedSetRule> = std::sync::LazyLock::new(|| KeyedSetRule {
    type_name: "*".into(),
    path: "*".into(),
    keys: vec!["Key".into()],
    value_field: Some("Value".into()),
    id_prefix: None,
    split_undeclared: false,
    fold_husks: false,
    user_prefixes: Vec::new(),
    reason: "a {Key, Value} list is an attribute bag".into(),
    source: None,
});

/// The keyed-set rule for the declared / live arrays at `path`: a per-type
/// rule, else an attribute bag recognised by shape.
pub(crate) fn keyed_for<'r>(
    scope: &Scope<'r>,
    path: &Path,
    declared: &[Value],
    live: &[Value],
) -> Option<Keyed<'r>> {
    keyed_rule(scope, path)
        .or_else(|| {
            crate::normalize::shapes::is_attribute_bag(path.last_key(), declared, live)
                .then(|| Keyed { rule: &SHAPE_BAG })
        })
        .or_else(|| {
            (scope.is_unordered(path) && is_scalar_superset(declared, live))
                .then(|| Keyed { rule: &SHAPE_SET })
        })
}

/// A set of scalars (an unordered array) whose live side holds every
/// declared element and more: the declared elements are in place, and each
/// live-only one is reported on its own (`Roles[other]`), not as a change
/// of the declared value.
static SHAPE_SET: std::sync::LazyLock<KeyedSetRule> = std::sync::LazyLock::new(|| KeyedSetRule {
    type_name: "*".into(),
    path: "*".into(),
    keys: Vec::new(),
    value_field: None,
    id_prefix: None,
    split_undeclared: false,
    fold_husks: false,
    user_prefixes: Vec::new(),
    reason: "an unordered array of scalars is a set".into(),
    source: None,
});

/// True when both arrays hold distinct strings and live is a strict
/// superset of declared.
fn is_scalar_superset(declared: &[Value], live: &[Value]) -> bool {
    fn set(a: &[Value]) -> Option<std::collections::BTreeSet<&str>> {
        let s: Option<std::collections::BTreeSet<&str>> = a.iter().map(Value::as_str).collect();
        s.filter(|s| s.len() == a.len())
    }
    match (set(declared), set(live)) {
        (Some(d), Some(l)) => !d.is_empty() && d.len() < l.len() && d.is_subset(&l),
        _ => false,
    }
}

/// The keyed-set rule for an undeclared live array at `path`: a per-type
/// rule, else an attribute bag recognised by its shape, so each attribute
/// is judged (and reported) on its own.
pub(crate) fn keyed_undeclared<'r>(
    scope: &Scope<'r>,
    path: &Path,
    items: &[Value],
) -> Option<Keyed<'r>> {
    keyed_rule(scope, path).or_else(|| {
        crate::normalize::shapes::is_attribute_bag(path.last_key(), items, items)
            .then(|| Keyed { rule: &SHAPE_BAG })
    })
}

impl<'r> Keyed<'r> {
    /// True for a key/value attribute bag.
    pub fn is_bag(&self) -> bool {
        self.rule.value_field.is_some()
    }

    /// True when an undeclared array is reported element by element.
    pub fn splits_undeclared(&self) -> bool {
        self.is_bag() || self.rule.split_undeclared
    }

    /// The identity of an element.
    pub fn id(&self, e: &Value) -> Option<String> {
        match self.rule.keys.as_slice() {
            [] => scalar_text(e),
            // One key: its text is the identity, with nothing to join.
            [k] => scalar_text(e.get(k)?),
            keys => {
                let parts: Option<Vec<String>> =
                    keys.iter().map(|k| scalar_text(e.get(k)?)).collect();
                Some(parts?.join("|"))
            }
        }
    }

    /// True when the element's identity is `want`: [`Self::id`] compared
    /// part by part, without building it (alignment tests every pair).
    fn id_is(&self, e: &Value, want: &str) -> bool {
        let keys = self.rule.keys.as_slice();
        if keys.is_empty() {
            return scalar_is(e, want);
        }
        let mut rest = want;
        for (i, k) in keys.iter().enumerate() {
            if i > 0 {
                let Some(r) = rest.strip_prefix('|') else {
                    return false;
                };
                rest = r;
            }
            let Some(part) = e.get(k) else {
                return false;
            };
            let Some(n) = scalar_prefix_len(part, rest) else {
                return false;
            };
            rest = &rest[n..];
        }
        rest.is_empty()
    }

    /// The live element a declared identity aligns with (allowing the
    /// AWS-added identity prefix, or another documented prefix of a user's
    /// elements: Cognito's `dev:` for a developer-only attribute).
    pub fn find<'v>(&self, live: &'v [Value], declared_id: &str) -> Option<(String, &'v Value)> {
        if let Some(e) = live.iter().find(|e| self.id_is(e, declared_id)) {
            return Some((declared_id.to_string(), e));
        }
        // The prefixed forms only when no element holds the identity as is.
        self.rule
            .id_prefix
            .iter()
            .chain(&self.rule.user_prefixes)
            .find_map(|p| {
                let want = format!("{p}{declared_id}");
                let e = live.iter().find(|e| self.id_is(e, &want))?;
                Some((want, e))
            })
    }

    /// True when declared element `de` aligns with the live element whose
    /// identity is `live_id`, as [`Self::find`] would find that element for
    /// `de`'s identity (without building it).
    pub fn aligns(&self, de: &Value, live_id: &str) -> bool {
        self.id_is(de, live_id)
            || self
                .rule
                .id_prefix
                .iter()
                .chain(&self.rule.user_prefixes)
                .any(|p| {
                    live_id
                        .strip_prefix(p.as_str())
                        .is_some_and(|rest| self.id_is(de, rest))
                })
    }

    /// A declared element as compared: its identity fields are left out
    /// (alignment already matched them, possibly through the id prefix).
    /// Borrowed where nothing is left out (most rules): it is only read.
    pub fn comparable<'v>(&self, de: &'v Value) -> Cow<'v, Value> {
        match (self.rule.id_prefix.as_ref(), de) {
            (Some(_), Value::Object(o)) => Cow::Owned(Value::Object(
                o.iter()
                    .filter(|(k, _)| !self.rule.keys.iter().any(|x| x == *k))
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect(),
            )),
            _ => Cow::Borrowed(self.value(de)),
        }
    }

    /// True when a live-only element is an AWS-materialized husk the rule
    /// folds: an object whose every non-identity member is trivially empty.
    pub fn is_husk(&self, e: &Value) -> bool {
        self.rule.fold_husks
            && e.as_object().is_some_and(|o| {
                o.iter().all(|(k, v)| {
                    self.rule.keys.iter().any(|x| x == k)
                        || crate::normalize::empty::is_trivially_empty(v)
                })
            })
    }

    /// True when a live-only element is a standard one the service keeps
    /// itself: the rule names the prefixes of a user's own elements, and
    /// its identity carries none of them.
    pub fn is_default_item(&self, id: &str) -> bool {
        !self.rule.user_prefixes.is_empty()
            && !self
                .rule
                .user_prefixes
                .iter()
                .any(|p| id.starts_with(p.as_str()))
    }

    /// The reported value of an element: a bag's value field, else itself.
    pub fn value<'v>(&self, e: &'v Value) -> &'v Value {
        match &self.rule.value_field {
            Some(f) => e.get(f).unwrap_or(&Value::Null),
            None => e,
        }
    }
}

/// A string or number element's identity text.
fn scalar_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// True when a string or number element's identity text is `want`.
fn scalar_is(v: &Value, want: &str) -> bool {
    scalar_prefix_len(v, want) == Some(want.len())
}

/// The length of `v`'s identity text when `want` starts with it.
fn scalar_prefix_len(v: &Value, want: &str) -> Option<usize> {
    let text = match v {
        Value::String(s) => Cow::Borrowed(s.as_str()),
        Value::Number(n) => Cow::Owned(n.to_string()),
        _ => return None,
    };
    want.starts_with(text.as_ref()).then_some(text.len())
}

#[cfg(test)]
mod tests {
    use super::is_scalar_superset;
    use serde_json::json;

    #[test]
    fn only_a_strict_superset_of_distinct_strings_is_keyed() {
        let d = [json!("RoleA")];
        assert!(is_scalar_superset(&d, &[json!("RoleA"), json!("RoleB")]));
        // A replaced element is a change of the declared value, not inventory.
        assert!(!is_scalar_superset(
            &[json!("RoleA"), json!("RoleC")],
            &[json!("RoleA"), json!("RoleB"), json!("RoleD")]
        ));
        assert!(!is_scalar_superset(&d, &d));
        assert!(!is_scalar_superset(&[json!(1)], &[json!(1), json!(2)]));
    }
}
