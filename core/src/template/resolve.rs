//! Fail-closed intrinsic resolution: raw template values -> `DeclaredValue`.
//!
//! Anything not known with certainty becomes `DeclaredValue::Unresolved`;
//! a condition that cannot be evaluated never picks a branch.

use super::context::ResolverContext;
use super::error::TemplateError;
use super::model::Template;
use crate::declared::DeclaredValue;
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};

/// Deepest value nesting resolved; anything deeper is `Unresolved`.
const MAX_DEPTH: usize = 128;

/// Marker of a CloudFormation dynamic reference (`{{resolve:ssm-secure:...}}` etc.).
const DYNAMIC_REFERENCE: &str = "{{resolve:";

/// One resource's properties after resolution.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ResolvedResource {
    /// Resource type, e.g. `AWS::S3::Bucket`.
    pub resource_type: String,
    /// Resolved top-level properties (`AWS::NoValue` keys removed).
    pub properties: BTreeMap<String, DeclaredValue>,
    /// Dotted paths (array items by index) whose value came from a NoEcho
    /// parameter or contains a `{{resolve:...}}` dynamic reference.
    pub secret_paths: BTreeSet<String>,
    /// Every unresolved leaf: dotted path (array items by index, the
    /// finding path form) -> which intrinsic failed and why.
    pub unresolved: BTreeMap<String, String>,
    /// CDK construct path (`aws:cdk:path`).
    pub construct_path: Option<String>,
    /// The resource's `Condition`: `Some(true)` when it has none, `None` when
    /// it cannot be evaluated.
    pub condition_active: Option<bool>,
}

/// Resolves every property of `logical_id`.
pub fn resolve_resource(
    template: &Template,
    logical_id: &str,
    ctx: &ResolverContext,
) -> Result<ResolvedResource, TemplateError> {
    let resource = template
        .resource(logical_id)
        .ok_or_else(|| TemplateError::UnknownResource(logical_id.to_string()))?;
    let mut r = Resolver::new(template, ctx);
    let properties = if let Some((name, arg)) = intrinsic(&resource.properties) {
        // `Properties: !If [...]` resolves as a whole and must yield an object.
        match r.resolve_intrinsic(name, arg, "") {
            Out::Removed => BTreeMap::new(),
            Out::Value(DeclaredValue::Object(o)) => o,
            Out::Value(DeclaredValue::Unresolved) => {
                let why = r.unresolved.remove("").unwrap_or_default();
                return Err(TemplateError::shape(
                    format!("Resources.{logical_id}.Properties"),
                    format!("cannot be resolved: {why}"),
                ));
            }
            Out::Value(_) => {
                return Err(TemplateError::shape(
                    format!("Resources.{logical_id}.Properties"),
                    "does not resolve to an object",
                ))
            }
        }
    } else {
        let mut out = BTreeMap::new();
        for (key, raw) in &resource.properties {
            if let Out::Value(v) = r.resolve(raw, key) {
                out.insert(key.clone(), v);
            }
        }
        out
    };
    let condition_active = match &resource.condition {
        None => Some(true),
        Some(name) => r.condition(name),
    };
    Ok(ResolvedResource {
        resource_type: resource.resource_type.clone(),
        properties,
        secret_paths: r.secrets,
        unresolved: r.unresolved,
        construct_path: resource.construct_path.clone(),
        condition_active,
    })
}

/// Resolves one raw value. `None` means `AWS::NoValue` (the value is absent).
pub fn resolve_value(
    value: &Value,
    template: &Template,
    ctx: &ResolverContext,
) -> Option<DeclaredValue> {
    match Resolver::new(template, ctx).resolve(value, "") {
        Out::Value(v) => Some(v),
        Out::Removed => None,
    }
}

/// Evaluates a named condition; `None` when it cannot be evaluated with certainty.
pub fn evaluate_condition(name: &str, template: &Template, ctx: &ResolverContext) -> Option<bool> {
    Resolver::new(template, ctx).condition(name)
}

/// The result of resolving one node.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Out {
    /// A value (possibly `Unresolved`).
    Value(DeclaredValue),
    /// `AWS::NoValue`: drop the key or array element.
    Removed,
}

impl Out {
    pub(crate) fn unresolved() -> Out {
        Out::Value(DeclaredValue::Unresolved)
    }
}

/// The single intrinsic an object stands for, if it is one.
///
/// `{"Condition": ..}` is an intrinsic only inside condition expressions:
/// in properties it is ordinary data (e.g. an IAM statement's `Condition`).
pub(crate) fn intrinsic(obj: &Map<String, Value>) -> Option<(&str, &Value)> {
    if obj.len() != 1 {
        return None;
    }
    let (k, v) = obj.iter().next()?;
    (k == "Ref" || k.starts_with("Fn::")).then_some((k.as_str(), v))
}

/// Walk state for one resolution.
pub(crate) struct Resolver<'a> {
    pub(crate) template: &'a Template,
    pub(crate) ctx: &'a ResolverContext,
    /// Secret paths found so far.
    pub(crate) secrets: BTreeSet<String>,
    /// Condition results, memoised (also breaks cycles: in progress = `None`).
    pub(crate) conditions: BTreeMap<String, Option<bool>>,
    /// Unresolved leaves found so far: path -> why.
    pub(crate) unresolved: BTreeMap<String, String>,
    /// The innermost failure of the intrinsic being evaluated, so an
    /// enclosing `Fn::Join` reports the `Fn::GetAtt` that made it fail.
    failure: Option<String>,
    depth: usize,
}

impl<'a> Resolver<'a> {
    pub(crate) fn new(template: &'a Template, ctx: &'a ResolverContext) -> Self {
        Resolver {
            template,
            ctx,
            secrets: BTreeSet::new(),
            conditions: BTreeMap::new(),
            unresolved: BTreeMap::new(),
            failure: None,
            depth: 0,
        }
    }

    /// Resolves a node whose output lands at `path`.
    pub(crate) fn resolve(&mut self, v: &Value, path: &str) -> Out {
        if self.depth >= MAX_DEPTH {
            self.failure = Some(format!("nested deeper than {MAX_DEPTH} levels"));
            self.leaf_unresolved(path);
            return Out::unresolved();
        }
        self.depth += 1;
        let out = self.resolve_inner(v, path);
        self.depth -= 1;
        out
    }

    fn resolve_inner(&mut self, v: &Value, path: &str) -> Out {
        Out::Value(match v {
            Value::Null => DeclaredValue::Null,
            Value::Bool(b) => DeclaredValue::Bool(*b),
            Value::Number(n) => DeclaredValue::Number(n.clone()),
            Value::String(s) => {
                if s.contains(DYNAMIC_REFERENCE) {
                    self.mark_secret(path);
                }
                DeclaredValue::String(s.clone())
            }
            Value::Array(items) => {
                let mut out = Vec::with_capacity(items.len());
                for item in items {
                    let item_path = join_path(path, &out.len().to_string());
                    if let Out::Value(x) = self.resolve(item, &item_path) {
                        out.push(x);
                    }
                }
                DeclaredValue::Array(out)
            }
            Value::Object(obj) => {
                if let Some((name, arg)) = intrinsic(obj) {
                    let out = self.resolve_intrinsic(name, arg, path);
                    // A built string may form a reference no input held whole.
                    // (Fn::If already marked the precise paths of its branch.)
                    if let (Out::Value(x), false) = (&out, name == "Fn::If") {
                        if contains_dynamic_reference(x) {
                            self.mark_secret(path);
                        }
                    }
                    return out;
                }
                let mut out = BTreeMap::new();
                for (k, x) in obj {
                    if let Out::Value(x) = self.resolve(x, &join_path(path, k)) {
                        out.insert(k.clone(), x);
                    }
                }
                DeclaredValue::Object(out)
            }
        })
    }

    /// Resolves one intrinsic landing at `path`; when it yields nothing
    /// knowable, records at `path` the innermost failure (or this intrinsic).
    pub(crate) fn resolve_intrinsic(&mut self, name: &str, arg: &Value, path: &str) -> Out {
        let outer = self.failure.take();
        let out = self.intrinsic(name, arg, path);
        if matches!(out, Out::Value(DeclaredValue::Unresolved)) {
            if self.failure.is_none() {
                self.failure = Some(format!("{name} {}", brief(arg)));
            }
            self.leaf_unresolved(path);
        } else {
            self.failure = outer;
        }
        out
    }

    /// Notes why the intrinsic being evaluated yields nothing knowable
    /// (the innermost reason wins; outer intrinsics keep it).
    pub(crate) fn fail(&mut self, why: impl FnOnce() -> String) {
        if self.failure.is_none() {
            self.failure = Some(why());
        }
    }

    /// Records the current failure at an unresolved leaf; deeper leaves of
    /// the same value were recorded first and stay (the leaf is the finding).
    fn leaf_unresolved(&mut self, path: &str) {
        let why = self
            .failure
            .clone()
            .unwrap_or_else(|| "not resolvable with certainty".into());
        let below = |p: &String| {
            path.is_empty() || p.strip_prefix(path).is_some_and(|r| r.starts_with('.'))
        };
        self.unresolved.retain(|p, _| !below(p));
        self.unresolved.insert(path.to_string(), why);
    }

    /// Resolves an intrinsic's argument: secrets inside it taint `path` as a whole
    /// (the argument's own shape does not survive into the output).
    pub(crate) fn arg(&mut self, v: &Value, path: &str) -> Out {
        let saved = std::mem::take(&mut self.secrets);
        let out = self.resolve(v, path);
        let tainted = !self.secrets.is_empty();
        self.secrets = saved;
        if tainted {
            self.mark_secret(path);
        }
        out
    }

    /// Resolves an argument that must be one value; `NoValue` is unresolved here.
    pub(crate) fn arg_value(&mut self, v: &Value, path: &str) -> DeclaredValue {
        match self.arg(v, path) {
            Out::Value(x) => x,
            Out::Removed => DeclaredValue::Unresolved,
        }
    }

    /// Resolves a value whose secrets and unresolved leaves do not land in
    /// the output (condition operands).
    pub(crate) fn scratch(&mut self, v: &Value) -> DeclaredValue {
        let saved = std::mem::take(&mut self.secrets);
        let unresolved = std::mem::take(&mut self.unresolved);
        let failure = self.failure.take();
        let out = self.resolve(v, "");
        self.secrets = saved;
        self.unresolved = unresolved;
        self.failure = failure;
        match out {
            Out::Value(x) => x,
            Out::Removed => DeclaredValue::Unresolved,
        }
    }

    pub(crate) fn mark_secret(&mut self, path: &str) {
        self.secrets.insert(path.to_string());
    }
}

/// `a.b` path joining; the empty path is the root.
pub(crate) fn join_path(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

/// An intrinsic's argument in a reason: compact JSON, at most 80 characters.
pub(crate) fn brief(arg: &Value) -> String {
    let text = match arg {
        Value::String(s) => s.clone(),
        Value::Array(items) if items.iter().all(Value::is_string) => items
            .iter()
            .filter_map(Value::as_str)
            .collect::<Vec<_>>()
            .join("."),
        other => other.to_string(),
    };
    if text.chars().count() > 80 {
        let mut cut: String = text.chars().take(77).collect();
        cut.push_str("...");
        cut
    } else {
        text
    }
}

/// True when any string inside carries a dynamic reference.
fn contains_dynamic_reference(v: &DeclaredValue) -> bool {
    match v {
        DeclaredValue::String(s) => s.contains(DYNAMIC_REFERENCE),
        DeclaredValue::Array(a) => a.iter().any(contains_dynamic_reference),
        DeclaredValue::Object(o) => o.values().any(contains_dynamic_reference),
        _ => false,
    }
}
