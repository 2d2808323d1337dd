//! The registry schema's `propertyTransform` as a fold of a declared
//! mismatch, at any depth: a declared value the service rewrites before
//! storing it (a lower-cased name, a protocol number spelled as its name)
//! equals what live holds when the transform reproduces live exactly.
//!
//! A rewrite that discards the declared value (EC2 stores `-1` as the port
//! of an all-protocol rule, whatever port was declared) folds only where a
//! documented service-attached value says so too: the schema's own
//! condition for it can be wrong (its security-group transforms spell icmp
//! "imcp", which would turn a changed ICMP type into no change at all).

use super::scope::Scope;
use super::undeclared::is_service_attached;
use crate::normalize::path::{Path, Seg};
use crate::normalize::transform::{altered, rewrites, Context, Rewrite};
use serde_json::{Map, Value};
use std::cell::RefCell;
use std::collections::HashMap;

/// The rewrites of each declared value with a transform, worked out once
/// per resource: the same declared element is tried against many live ones.
#[derive(Default)]
pub(crate) struct TransformCache {
    by_path: RefCell<HashMap<Path, Vec<Rewrite>>>,
}

impl TransformCache {
    /// True when the schema's transform at `path` turns the declared value
    /// (held by `parent`, or by the resource root at the top level) into
    /// `live`, and the rewrite either follows the declared value or is a
    /// value the service is documented to attach there.
    pub fn explains(
        &self,
        scope: &Scope<'_>,
        path: &Path,
        parent: Option<&Map<String, Value>>,
        live: &Value,
    ) -> bool {
        let Some(expr) = scope.transform_at(path) else {
            return false;
        };
        let mut cache = self.by_path.borrow_mut();
        if !cache.contains_key(path) {
            cache.insert(path.clone(), rewrites(expr, &contexts(scope, path, parent)));
        }
        let Some(found) = cache.get(path) else {
            return false;
        };
        found.iter().any(|r| {
            r.reproduces(live)
                && (r.follows_declared(live) || is_service_attached(scope, &Map::new(), path, live))
        })
    }
}

/// The contexts a transform is written against: the declared resource root
/// (`$uppercase(Window.DayOfWeek)`) and the declared object holding the
/// value (`$lowercase(ColumnType)`), each with the value changed.
fn contexts(scope: &Scope<'_>, path: &Path, parent: Option<&Map<String, Value>>) -> Vec<Context> {
    let mut out = Vec::new();
    // From the root a transform can only name a value outside lists; inside
    // one, the element is its context (and the root, which grows with the
    // list, would be written out again for every element).
    let in_list = path
        .segs()
        .iter()
        .any(|s| matches!(s, Seg::Index(_) | Seg::Id(_)));
    if !in_list || parent.is_none() {
        let root = Value::Object(scope.declared.clone());
        let altered = altered_at(&root, path.segs());
        out.push(Context {
            declared: root,
            altered,
        });
    }
    if let (Some(parent), Some(key)) = (parent, path.last_key()) {
        let declared = Value::Object(parent.clone());
        let altered = altered_at(&declared, &[Seg::Key(key.to_string())]);
        out.push(Context { declared, altered });
    }
    out
}

/// `v` with the value at `segs` changed; `None` when the path cannot be
/// followed by key and index (an element named by identity) or the value
/// has no other value to try.
fn altered_at(v: &Value, segs: &[Seg]) -> Option<Value> {
    let mut out = v.clone();
    let mut cur = &mut out;
    for seg in segs {
        cur = match seg {
            Seg::Key(k) => cur.get_mut(k.as_str())?,
            Seg::Index(i) => cur.get_mut(*i)?,
            Seg::Id(_) => return None,
        };
    }
    *cur = altered(cur)?;
    Some(out)
}
