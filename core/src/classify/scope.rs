//! Everything one classify call needs, gathered once: the resource, its
//! schema facts parsed into path patterns, the stack context and the
//! per-type AWS facts from `core/data/`.

use super::context::{ClassifyContext, ResourceInput};
use crate::declared::CORPUS_UNRESOLVED_MARKER;
use crate::normalize::aws_facts::{facts, Equivalence, TypeFacts};
use crate::normalize::path::{Path, Pattern};
use crate::schema::SchemaFacts;
use serde_json::{Map, Value};

/// The marker standing for an unresolved declared leaf inside the JSON view
/// of declared values. Only used to walk structure; never compared.
pub(crate) const UNRESOLVED: &str = CORPUS_UNRESOLVED_MARKER;

/// Per-call context.
pub(crate) struct Scope<'a> {
    pub res: &'a ResourceInput,
    pub schema: &'a SchemaFacts,
    pub ctx: &'a ClassifyContext,
    pub facts: &'static TypeFacts,
    pub physical_id: &'a str,
    pub read_only: Vec<Pattern>,
    pub write_only: Vec<Pattern>,
    pub unordered: Vec<Pattern>,
    pub free_form: Vec<Pattern>,
    pub default_paths: Vec<(Pattern, &'a Value)>,
    pub transforms: Vec<(Pattern, &'a str)>,
    /// Declared properties as JSON (unresolved leaves as [`UNRESOLVED`]).
    pub declared: Map<String, Value>,
}

fn patterns(a: &[String], b: &[String]) -> Vec<Pattern> {
    let mut out: Vec<Pattern> = Vec::with_capacity(a.len() + b.len());
    for p in a.iter().chain(b) {
        let pat = Pattern::parse(p);
        if !out.contains(&pat) {
            out.push(pat);
        }
    }
    out
}

impl<'a> Scope<'a> {
    /// Gathers the per-call context.
    pub fn new(res: &'a ResourceInput, schema: &'a SchemaFacts, ctx: &'a ClassifyContext) -> Self {
        let facts = facts().for_type(&res.resource_type);
        let mut unordered = patterns(
            &schema.unordered_scalar_paths,
            &schema.unordered_object_array_paths,
        );
        unordered.extend(facts.unordered.iter().cloned());
        Scope {
            res,
            schema,
            ctx,
            facts,
            physical_id: res.physical_id.as_deref().unwrap_or(""),
            read_only: patterns(&schema.read_only, &schema.read_only_paths),
            write_only: patterns(&schema.write_only, &schema.write_only_paths),
            unordered,
            free_form: schema
                .free_form_map_paths
                .iter()
                .map(|p| Pattern::parse(p))
                .collect(),
            default_paths: schema
                .default_paths
                .iter()
                .map(|(p, v)| (Pattern::parse(p), v))
                .collect(),
            transforms: schema
                .property_transforms
                .iter()
                .map(|(p, e)| (Pattern::parse(p.trim_start_matches('/')), e.as_str()))
                .collect(),
            declared: res
                .declared
                .iter()
                .map(|(k, v)| (k.clone(), v.to_corpus_json()))
                .collect(),
        }
    }

    /// True when any pattern in `list` matches `path`.
    pub fn any(list: &[Pattern], path: &Path) -> bool {
        list.iter().any(|p| p.matches(path))
    }

    /// The stack name (first construct-path segment).
    pub fn stack(&self) -> Option<&str> {
        self.ctx.stack_name.as_deref()
    }

    /// True when `path` is a free-form user map.
    pub fn is_free_form(&self, path: &Path) -> bool {
        Self::any(&self.free_form, path)
    }

    /// True when `path` is an unordered array (schema or per-type fact).
    pub fn is_unordered(&self, path: &Path) -> bool {
        Self::any(&self.unordered, path)
    }

    /// True when a (nested) path is write-only: never returned, so never
    /// compared (silently: too granular to report per path).
    pub fn is_write_only(&self, path: &Path) -> bool {
        Self::any(&self.write_only, path)
    }

    /// The per-type equivalences that apply at `path`.
    pub fn equivalences_at<'p>(&'p self, path: &'p Path) -> impl Iterator<Item = Equivalence> + 'p {
        self.facts
            .equivalences
            .iter()
            .filter(move |(p, _)| p.matches(path))
            .map(|(_, e)| *e)
    }

    /// The live value a declared key is read back as inside the object at
    /// `parent`: the key itself, the service's renamed alias, or (where the
    /// read handler re-cases map keys) the same key in another case.
    pub fn live_get<'l>(
        &self,
        parent: &Path,
        key: &str,
        live: &'l Map<String, Value>,
    ) -> Option<&'l Value> {
        if let Some(v) = live.get(key) {
            return Some(v);
        }
        let alias = self
            .facts
            .key_aliases
            .iter()
            .find(|(p, a)| a.declared == key && p.matches(parent))
            .and_then(|(_, a)| live.get(&a.live));
        if alias.is_some() {
            return alias;
        }
        if self
            .equivalences_at(parent)
            .any(|e| e == Equivalence::CaseInsensitiveKeys)
        {
            return live
                .iter()
                .find(|(k, _)| k.eq_ignore_ascii_case(key))
                .map(|(_, v)| v);
        }
        None
    }

    /// True when live key `key` at `parent` is the renamed (or re-cased)
    /// form of a key the declared object sets.
    pub fn is_alias_of_declared(
        &self,
        parent: &Path,
        key: &str,
        declared: &Map<String, Value>,
    ) -> bool {
        self.facts
            .key_aliases
            .iter()
            .any(|(p, a)| a.live == key && p.matches(parent) && declared.contains_key(&a.declared))
            || (self
                .equivalences_at(parent)
                .any(|e| e == Equivalence::CaseInsensitiveKeys)
                && declared.keys().any(|d| d.eq_ignore_ascii_case(key)))
    }

    /// True when a top-level declared property is write-only.
    pub fn is_write_only_top(&self, key: &str) -> bool {
        self.schema.write_only.iter().any(|k| k == key)
            || self.schema.write_only_paths.iter().any(|k| k == key)
    }
}

/// True for the JSON stand-in of an unresolved declared leaf.
pub(crate) fn is_unresolved_marker(v: &Value) -> bool {
    v.as_str() == Some(UNRESOLVED)
}
