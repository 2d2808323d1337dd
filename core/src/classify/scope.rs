//! Everything one classify call needs, gathered once: the resource, its
//! schema facts parsed into path patterns, the stack context and the
//! per-type AWS facts from `core/data/`.

use super::context::{ClassifyContext, ResourceInput};
use super::transformed::TransformCache;
use crate::declared::CORPUS_UNRESOLVED_MARKER;
use crate::normalize::aws_facts::{AwsFacts, DefaultIndex, Equivalence, TypeFacts};
use crate::normalize::canonicalize_in_place;
use crate::normalize::generated::physical_id_segments;
use crate::normalize::path::{Path, Pattern};
use crate::normalize::policy::{oai_principal_arn, rewrite_oai_principals};
use crate::normalize::scalars::type_by_schema;
use crate::schema::SchemaFacts;
use crate::template::partition_for_region;
use serde_json::{Map, Value};

/// The marker standing for an unresolved declared leaf inside the JSON view
/// of declared values. Only used to walk structure; never compared.
pub(crate) const UNRESOLVED: &str = CORPUS_UNRESOLVED_MARKER;

/// Per-call context. Schema paths are matched as written (dotted strings),
/// never parsed per call: classify runs once per resource per scan.
pub(crate) struct Scope<'a> {
    pub res: &'a ResourceInput,
    pub schema: &'a SchemaFacts,
    pub ctx: &'a ClassifyContext,
    pub facts: &'a TypeFacts,
    /// The whole fact registry in use (cross-type and doc-stated defaults,
    /// managed fields).
    pub knowledge: &'a AwsFacts,
    /// The type's description-stated defaults, looked up once per call.
    pub doc_defaults: Option<&'a DefaultIndex>,
    pub physical_id: &'a str,
    /// Name-like segments of the physical id (see `physical_id_segments`).
    pub physical_id_segments: Vec<&'a str>,
    pub read_only: Vec<&'a str>,
    pub write_only: Vec<&'a str>,
    unordered: Vec<&'a str>,
    free_form: Vec<&'a str>,
    /// The schema's `propertyTransform`s, by the paths they apply to.
    transforms: Vec<(Pattern, &'a str)>,
    /// Declared properties as canonical JSON (unresolved leaves as
    /// [`UNRESOLVED`]), built once per call.
    pub declared: Map<String, Value>,
    /// What the schema's transforms make of declared values, worked out
    /// once per call.
    pub transform_cache: TransformCache,
}

/// The declared properties as canonical JSON: typed by the schema, their
/// placeholders filled from a write-only substitutions map, principals and
/// collections in canonical form.
fn declared_json(
    res: &ResourceInput,
    schema: &SchemaFacts,
    ctx: &ClassifyContext,
) -> Map<String, Value> {
    let mut m: Map<String, Value> = res
        .declared
        .iter()
        .map(|(k, v)| {
            let mut j = v.to_corpus_json();
            if !schema.typed_scalar_paths.is_empty() {
                type_by_schema(&mut j, k, &schema.typed_scalar_paths);
            }
            (k.clone(), j)
        })
        .collect();
    let write_only = strs(&schema.write_only, &schema.write_only_paths);
    super::substitutions::fill_placeholders(&mut m, &write_only);
    for j in m.values_mut() {
        rewrite_principals(ctx, j);
        canonicalize_in_place(j);
    }
    m
}

fn strs<'a>(a: &'a [String], b: &'a [String]) -> Vec<&'a str> {
    a.iter().chain(b).map(String::as_str).collect()
}

impl<'a> Scope<'a> {
    /// Gathers the per-call context.
    pub fn new(
        res: &'a ResourceInput,
        schema: &'a SchemaFacts,
        ctx: &'a ClassifyContext,
        knowledge: &'a AwsFacts,
    ) -> Self {
        let facts = knowledge.for_type(&res.resource_type);
        let physical_id = res.physical_id.as_deref().unwrap_or("");
        Scope {
            res,
            schema,
            ctx,
            facts,
            knowledge,
            doc_defaults: knowledge.doc_defaults_for(&res.resource_type),
            physical_id,
            physical_id_segments: physical_id_segments(physical_id),
            read_only: strs(&schema.read_only, &schema.read_only_paths),
            write_only: strs(&schema.write_only, &schema.write_only_paths),
            unordered: strs(
                &schema.unordered_scalar_paths,
                &schema.unordered_object_array_paths,
            ),
            free_form: schema
                .free_form_map_paths
                .iter()
                .map(String::as_str)
                .collect(),
            transforms: schema
                .property_transforms
                .iter()
                .map(|(p, e)| (Pattern::parse(&transform_path(p)), e.as_str()))
                .collect(),
            declared: declared_json(res, schema, ctx),
            transform_cache: TransformCache::default(),
        }
    }

    /// True when any parsed pattern in `list` matches `path`.
    pub fn any(list: &[Pattern], path: &Path) -> bool {
        list.iter().any(|p| p.matches(path))
    }

    /// True when any dotted schema path in `list` matches `path`.
    pub fn any_dotted(list: &[&str], path: &Path) -> bool {
        list.iter().any(|p| path.matches_dotted(p))
    }

    /// The free-form map paths (dotted).
    pub fn free_form_paths(&self) -> &[&'a str] {
        &self.free_form
    }

    /// The stack name (first construct-path segment).
    pub fn stack(&self) -> Option<&str> {
        self.ctx.stack_name.as_deref()
    }

    /// True when `path` is a free-form user map.
    pub fn is_free_form(&self, path: &Path) -> bool {
        Self::any_dotted(&self.free_form, path)
    }

    /// True when `path` is an unordered array (schema or per-type fact).
    pub fn is_unordered(&self, path: &Path) -> bool {
        Self::any_dotted(&self.unordered, path) || Self::any(&self.facts.unordered, path)
    }

    /// True when `path` is a top-level property the schema marks
    /// create-only (unconditionally: a conditionally create-only one can
    /// change in place).
    pub fn is_create_only_top(&self, path: &Path) -> bool {
        path.len() == 1
            && path
                .top()
                .is_some_and(|k| self.schema.create_only.iter().any(|c| c == k))
    }

    /// True when `path` is, or lies inside, a create-only property (one the
    /// service cannot change without replacing the resource).
    pub fn is_create_only(&self, path: &Path) -> bool {
        let mut p = path.clone();
        loop {
            let hit = self
                .schema
                .create_only
                .iter()
                .chain(&self.schema.create_only_paths)
                .any(|c| p.matches_dotted(c));
            if hit {
                return true;
            }
            if p.is_empty() {
                return false;
            }
            p.pop();
        }
    }

    /// True when a (nested) path is write-only: never returned, so never
    /// compared (silently: too granular to report per path).
    pub fn is_write_only(&self, path: &Path) -> bool {
        Self::any_dotted(&self.write_only, path)
    }

    /// The per-type equivalences that apply at `path`.
    pub fn equivalences_at<'p>(&'p self, path: &'p Path) -> impl Iterator<Item = Equivalence> + 'p {
        self.facts
            .equivalences
            .iter()
            .filter(move |(p, _)| p.matches(path))
            .map(|(_, e)| *e)
    }

    /// The schema's `propertyTransform` for the value at `path`, if any.
    pub fn transform_at(&self, path: &Path) -> Option<&'a str> {
        self.transforms
            .iter()
            .find(|(p, _)| p.matches(path))
            .map(|(_, e)| *e)
    }

    /// True when the schema states a transform for the value at `path`.
    pub fn has_transform(&self, path: &Path) -> bool {
        !self.transforms.is_empty() && self.transform_at(path).is_some()
    }

    /// The unit conversions that apply at `path`.
    pub fn unit_scales_at<'p>(
        &'p self,
        path: &'p Path,
    ) -> impl Iterator<Item = &'p crate::normalize::aws_facts::UnitScale> + 'p {
        self.facts
            .unit_scales
            .iter()
            .filter(move |(p, _)| p.matches(path))
            .map(|(_, s)| s)
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
        if self.facts.key_aliases.is_empty() && self.facts.equivalences.is_empty() {
            return false;
        }
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

/// Principal spellings that name the same identity, from stack facts: a
/// CloudFront origin access identity's S3 canonical user id vs its ARN.
pub(crate) fn rewrite_principals(ctx: &ClassifyContext, v: &mut Value) {
    let Some(map) = ctx
        .sibling_facts
        .get("oaiCanonicalIds")
        .and_then(Value::as_object)
        .filter(|m| !m.is_empty())
    else {
        return;
    };
    // The OAI's ARN is in the stack's partition; where that is unknown the
    // canonical id is left as written.
    let Some((partition, _)) = ctx.region.as_deref().and_then(partition_for_region) else {
        return;
    };
    let oai_of = |canonical: &str| {
        map.iter()
            .find(|(_, c)| c.as_str() == Some(canonical))
            .map(|(oai, _)| oai_principal_arn(partition, oai))
    };
    rewrite_oai_principals(v, &oai_of);
}

/// A transform path as a dotted pattern (`/properties/A/B` or `A.B`).
fn transform_path(p: &str) -> String {
    p.trim_start_matches("/properties/")
        .trim_start_matches('/')
        .replace('/', ".")
}

/// True for the JSON stand-in of an unresolved declared leaf.
pub(crate) fn is_unresolved_marker(v: &Value) -> bool {
    v.as_str() == Some(UNRESOLVED)
}

/// True when no part of `v` is the unresolved marker.
pub(crate) fn fully_known(v: &Value) -> bool {
    match v {
        Value::Object(o) => o.values().all(fully_known),
        Value::Array(a) => a.iter().all(fully_known),
        other => !is_unresolved_marker(other),
    }
}
