//! Live values that are what the template declared, read back in another
//! form: a write-only property returned under a sibling name as JSON text,
//! or a field the service parsed out of a declared document. Shape-driven
//! (no per-type entry): each rule is equality-gated against the declared
//! value, so a value changed out of band no longer matches and surfaces.

use super::defaults::matches_default;
use super::scope::Scope;
use crate::normalize::path::{Path, Seg};
use serde_json::Value;

/// Shortest value a document match may rest on: a short token (`POST`,
/// `true`) appears in almost any document, so only a longer one (a URL, a
/// certificate) says it was read out of this one.
const MIN_PARSED_LEN: usize = 12;

/// True when a top-level live string is the JSON text of a declared
/// write-only object or array: the read cannot return the declared form and
/// returns this spelling instead (Step Functions `Definition` read back as
/// `DefinitionString`).
pub(crate) fn restates_write_only(scope: &Scope<'_>, v: &Value) -> bool {
    v.is_string()
        && scope.declared.iter().any(|(k, d)| {
            (d.is_object() || d.is_array()) && scope.is_write_only_top(k) && matches_default(v, d)
        })
}

/// True when a nested live string is a whole value of a declared sibling
/// document (XML or JSON text in the same object): the service parsed it
/// out of what the template declared (a SAML identity provider's sign-in
/// URL from its declared metadata). A new document changes the declared
/// sibling, which is compared on its own.
pub(crate) fn parsed_from_declared_document(scope: &Scope<'_>, path: &Path, v: &Value) -> bool {
    let Some(s) = v.as_str().filter(|s| s.len() >= MIN_PARSED_LEN) else {
        return false;
    };
    let segs = path.segs();
    let Some((Seg::Key(own), parent)) = segs.split_last() else {
        return false;
    };
    let Some(Value::Object(siblings)) = declared_at(scope, parent) else {
        return false;
    };
    siblings.iter().any(|(k, d)| {
        k != own
            && d.as_str()
                .is_some_and(|doc| is_document(doc) && holds_whole_value(doc, s))
    })
}

/// True when `doc` holds `s` as a whole attribute or element value (quoted,
/// or between tags), not as a piece of a longer one.
fn holds_whole_value(doc: &str, s: &str) -> bool {
    [('"', '"'), ('\'', '\''), ('>', '<')]
        .iter()
        .any(|(open, close)| doc.contains(&format!("{open}{s}{close}")))
}

/// A text that is a structured document, not a plain setting.
fn is_document(t: &str) -> bool {
    let t = t.trim_start();
    t.starts_with('<') || t.starts_with('{') || t.starts_with('[')
}

/// The declared value at a path of object keys and array positions.
fn declared_at<'a>(scope: &'a Scope<'_>, segs: &[Seg]) -> Option<&'a Value> {
    let (Seg::Key(top), rest) = segs.split_first()? else {
        return None;
    };
    rest.iter()
        .try_fold(scope.declared.get(top)?, |cur, seg| match seg {
            Seg::Key(k) => cur.get(k),
            Seg::Index(i) => cur.get(*i),
            _ => None,
        })
}
