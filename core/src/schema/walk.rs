//! One walk over a registry schema's property tree: defaults at any depth,
//! `insertionOrder: false` arrays and free-form maps.
//!
//! `$ref`s are followed into the document (`#/definitions/...`); a ref already
//! on the current path is a cycle and ends that branch. Depth and node count
//! are bounded so a hostile or broken document cannot run away.

use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};

/// Deepest property nesting walked (the deepest published schema is ~20).
const MAX_DEPTH: usize = 64;
/// Most nodes visited per document (the largest published schema is ~30k).
const MAX_NODES: usize = 1_000_000;
/// Fields that give an object element an identity; arrays of such elements
/// are aligned by identity elsewhere, so they are not order-free sets here.
const IDENTITY_FIELDS: &[&str] = &["Key", "Id", "Name", "AttributeName", "IndexName"];
/// JSON-schema combinators whose branches contribute properties.
const COMBINATORS: &[&str] = &["oneOf", "anyOf", "allOf"];
/// Item types that make an array a scalar set.
const SCALAR_TYPES: &[&str] = &["string", "number", "integer", "boolean"];
/// Scalar types a template string is converted to (a union is not).
const TYPED_SCALARS: &[&str] = &["number", "integer", "boolean"];
/// A free-form map named like this is a tag bag, normalized as tags instead.
const TAGS: &str = "Tags";

/// What the tree walk finds, keyed by dotted path (`*` = any array element).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TreeFacts {
    /// Schema `default`s at any depth, top level included.
    pub default_paths: BTreeMap<String, Value>,
    /// Arrays marked `insertionOrder: false` whose items are scalars.
    pub unordered_scalar_paths: BTreeSet<String>,
    /// Arrays marked `insertionOrder: false` whose items are objects with no identity field.
    pub unordered_object_array_paths: BTreeSet<String>,
    /// Object nodes with no fixed properties, only pattern / additional properties.
    pub free_form_map_paths: BTreeSet<String>,
    /// Scalars of one non-string type (`integer`, `number`, `boolean`), to
    /// which CloudFormation converts a template's string.
    pub typed_scalar_paths: BTreeMap<String, String>,
}

/// Which bound a walk hit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WalkLimit {
    /// Nesting deeper than the depth bound.
    Depth,
    /// More nodes than the node bound.
    Nodes,
}

impl std::fmt::Display for WalkLimit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WalkLimit::Depth => write!(f, "depth {MAX_DEPTH}"),
            WalkLimit::Nodes => write!(f, "{MAX_NODES} nodes"),
        }
    }
}

/// Walks `doc.properties` and collects the tree facts.
pub fn walk_properties(doc: &Value) -> Result<TreeFacts, WalkLimit> {
    let mut walker = Walker {
        doc,
        facts: TreeFacts::default(),
        nodes: 0,
    };
    if let Some(props) = doc.get("properties").and_then(Value::as_object) {
        let mut refs = Vec::new();
        for (name, node) in props {
            walker.walk(node, name, &mut refs, 1)?;
        }
    }
    Ok(walker.facts)
}

struct Walker<'a> {
    doc: &'a Value,
    facts: TreeFacts,
    nodes: usize,
}

impl<'a> Walker<'a> {
    /// Visits one node; `refs` holds the `$ref`s on the current path.
    fn walk(
        &mut self,
        node: &'a Value,
        path: &str,
        refs: &mut Vec<&'a str>,
        depth: usize,
    ) -> Result<(), WalkLimit> {
        self.nodes += 1;
        if self.nodes > MAX_NODES {
            return Err(WalkLimit::Nodes);
        }
        if depth > MAX_DEPTH {
            return Err(WalkLimit::Depth);
        }
        let mark = refs.len();
        let result = self.visit(node, path, refs, depth);
        refs.truncate(mark);
        result
    }

    fn visit(
        &mut self,
        node: &'a Value,
        path: &str,
        refs: &mut Vec<&'a str>,
        depth: usize,
    ) -> Result<(), WalkLimit> {
        let Some(obj) = self.resolve(node, refs).and_then(Value::as_object) else {
            return Ok(());
        };
        // Only the resolved node's own default counts: keywords beside a
        // `$ref` are ignored, as JSON Schema draft 7 specifies.
        if let Some(default) = obj.get("default") {
            self.facts
                .default_paths
                .entry(path.to_string())
                .or_insert_with(|| default.clone());
        }
        if let Some(kind) = obj
            .get("type")
            .and_then(Value::as_str)
            .filter(|t| TYPED_SCALARS.contains(t))
        {
            self.facts
                .typed_scalar_paths
                .entry(path.to_string())
                .or_insert_with(|| kind.to_string());
            return Ok(());
        }
        if type_is(obj, "array") || obj.contains_key("items") {
            if let Some(items) = obj.get("items").filter(|i| i.is_object()) {
                // Order-free sets are recorded only outside arrays: a set nested
                // in an element is aligned with its element, not on its own.
                if obj.get("insertionOrder") == Some(&Value::Bool(false)) && !path.contains('*') {
                    self.record_unordered(items, path, refs);
                }
                self.walk(items, &format!("{path}.*"), refs, depth + 1)?;
            }
            return Ok(());
        }
        if path.rsplit('.').next() != Some(TAGS) && self.is_free_form_or_branch(obj, refs) {
            self.facts.free_form_map_paths.insert(path.to_string());
        }
        for (name, child) in self.branch_properties(obj, refs, 0) {
            self.walk(child, &format!("{path}.{name}"), refs, depth + 1)?;
        }
        Ok(())
    }

    /// Splits an `insertionOrder: false` array by its item shape.
    fn record_unordered(&mut self, items: &'a Value, path: &str, refs: &mut Vec<&'a str>) {
        let mark = refs.len();
        if let Some(item) = self.resolve(items, refs).and_then(Value::as_object) {
            if item.contains_key("properties") {
                let props = self.branch_properties(item, refs, 0);
                if !IDENTITY_FIELDS.iter().any(|f| props.contains_key(f)) {
                    self.facts
                        .unordered_object_array_paths
                        .insert(path.to_string());
                }
            } else if item
                .get("type")
                .and_then(Value::as_str)
                .is_some_and(|t| SCALAR_TYPES.contains(&t))
            {
                self.facts.unordered_scalar_paths.insert(path.to_string());
            }
        }
        refs.truncate(mark);
    }

    /// A node is a free-form map itself or offers one as a `oneOf`/`anyOf` branch.
    fn is_free_form_or_branch(&self, obj: &'a Map<String, Value>, refs: &mut Vec<&'a str>) -> bool {
        if is_free_form(obj) {
            return true;
        }
        for combinator in ["oneOf", "anyOf"] {
            for branch in obj
                .get(combinator)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                let mark = refs.len();
                let hit = self
                    .resolve(branch, refs)
                    .and_then(Value::as_object)
                    .is_some_and(is_free_form);
                refs.truncate(mark);
                if hit {
                    return true;
                }
            }
        }
        false
    }

    /// The node's fixed properties merged with those of its combinator
    /// branches; the node's own definition of a name wins.
    fn branch_properties(
        &self,
        obj: &'a Map<String, Value>,
        refs: &mut Vec<&'a str>,
        depth: usize,
    ) -> BTreeMap<&'a str, &'a Value> {
        let mut props = BTreeMap::new();
        if depth <= MAX_DEPTH {
            for combinator in COMBINATORS {
                for branch in obj
                    .get(*combinator)
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                {
                    let mark = refs.len();
                    if let Some(branch) = self.resolve(branch, refs).and_then(Value::as_object) {
                        for (name, node) in self.branch_properties(branch, refs, depth + 1) {
                            props.entry(name).or_insert(node);
                        }
                    }
                    refs.truncate(mark);
                }
            }
        }
        if let Some(own) = obj.get("properties").and_then(Value::as_object) {
            for (name, node) in own {
                props.insert(name.as_str(), node);
            }
        }
        props
    }

    /// Follows `$ref`s to the node they name; `None` on a cycle or a dangling ref.
    fn resolve(&self, mut node: &'a Value, refs: &mut Vec<&'a str>) -> Option<&'a Value> {
        while let Some(reference) = node.get("$ref").and_then(Value::as_str) {
            if refs.contains(&reference) {
                return None;
            }
            refs.push(reference);
            let pointer = reference.strip_prefix('#').filter(|p| p.starts_with('/'))?;
            node = self.doc.pointer(pointer)?;
        }
        Some(node)
    }
}

/// `type: object` with no fixed properties and only pattern / object-valued
/// additional properties: a map whose keys are the user's data.
fn is_free_form(obj: &Map<String, Value>) -> bool {
    let no_fixed = obj
        .get("properties")
        .and_then(Value::as_object)
        .is_none_or(Map::is_empty);
    let open = obj.contains_key("patternProperties")
        || obj
            .get("additionalProperties")
            .is_some_and(Value::is_object);
    no_fixed && obj.get("type").and_then(Value::as_str) == Some("object") && open
}

/// Whether `type` is `kind` or a type list containing it.
fn type_is(obj: &Map<String, Value>, kind: &str) -> bool {
    match obj.get("type") {
        Some(Value::String(t)) => t == kind,
        Some(Value::Array(ts)) => ts.iter().any(|t| t.as_str() == Some(kind)),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn walk(doc: Value) -> TreeFacts {
        walk_properties(&doc).unwrap()
    }

    #[test]
    fn defaults_are_collected_at_any_depth_through_refs_and_arrays() {
        let facts = walk(json!({
            "properties": {
                "Top": {"type": "integer", "default": 3},
                "Obj": {"$ref": "#/definitions/Obj"},
                "List": {"type": "array", "items": {"$ref": "#/definitions/Obj"}}
            },
            "definitions": {"Obj": {"type": "object", "properties": {"Mode": {"type": "string", "default": "A"}}}}
        }));
        assert_eq!(facts.default_paths.get("Top"), Some(&json!(3)));
        assert_eq!(facts.default_paths.get("Obj.Mode"), Some(&json!("A")));
        assert_eq!(facts.default_paths.get("List.*.Mode"), Some(&json!("A")));
    }

    #[test]
    fn a_default_beside_a_ref_is_ignored() {
        let facts = walk(json!({
            "properties": {"Mode": {"$ref": "#/definitions/Mode", "default": {"M": "X"}}},
            "definitions": {"Mode": {"type": "object", "properties": {"M": {"type": "string"}}}}
        }));
        assert!(facts.default_paths.is_empty());
    }

    #[test]
    fn unordered_arrays_split_by_item_shape_and_identity() {
        let facts = walk(json!({
            "properties": {
                "Ids": {"type": "array", "insertionOrder": false, "items": {"type": "string"}},
                "Rules": {"type": "array", "insertionOrder": false, "items": {"$ref": "#/definitions/Rule"}},
                "Named": {"type": "array", "insertionOrder": false,
                          "items": {"type": "object", "properties": {"Name": {"type": "string"}}}},
                "Maps": {"type": "array", "insertionOrder": false,
                         "items": {"type": "object", "patternProperties": {".+": {"type": "string"}}}},
                "Ordered": {"type": "array", "items": {"type": "string"}},
                "Outer": {"type": "array", "items": {"type": "object", "properties": {
                    "Inner": {"type": "array", "insertionOrder": false, "items": {"type": "string"}}}}}
            },
            "definitions": {"Rule": {"type": "object", "properties": {"Action": {"type": "string"}}}}
        }));
        assert_eq!(
            facts.unordered_scalar_paths,
            BTreeSet::from(["Ids".to_string()])
        );
        assert_eq!(
            facts.unordered_object_array_paths,
            BTreeSet::from(["Rules".to_string()])
        );
    }

    #[test]
    fn free_form_maps_need_type_object_and_exclude_tags() {
        let facts = walk(json!({
            "properties": {
                "Vars": {"type": "object", "patternProperties": {".+": {"type": "string"}}},
                "Untyped": {"patternProperties": {".+": {"type": "string"}}},
                "Tags": {"type": "object", "patternProperties": {".+": {"type": "string"}}},
                "Fixed": {"type": "object", "properties": {"A": {"type": "string"}}},
                "Either": {"anyOf": [{"$ref": "#/definitions/Fixed"}, {"$ref": "#/definitions/Map"}]},
                "List": {"type": "array", "items": {"type": "object", "properties": {
                    "Labels": {"type": "object", "additionalProperties": {"type": "string"}}}}}
            },
            "definitions": {
                "Fixed": {"type": "object", "properties": {"B": {"type": "string", "default": "b"}}},
                "Map": {"type": "object", "patternProperties": {".+": {"type": "string"}}}
            }
        }));
        let expected: BTreeSet<String> = ["Either", "List.*.Labels", "Vars"]
            .into_iter()
            .map(String::from)
            .collect();
        assert_eq!(facts.free_form_map_paths, expected);
        // The fixed branch of the anyOf is still walked.
        assert_eq!(facts.default_paths.get("Either.B"), Some(&json!("b")));
    }

    #[test]
    fn ref_cycles_end_the_branch() {
        let facts = walk(json!({
            "properties": {"Stmt": {"$ref": "#/definitions/Stmt"}},
            "definitions": {"Stmt": {"type": "object", "properties": {
                "Not": {"$ref": "#/definitions/Stmt"},
                "Limit": {"type": "integer", "default": 1}}}}
        }));
        assert_eq!(facts.default_paths.len(), 1);
        assert!(facts.default_paths.contains_key("Stmt.Limit"));
    }

    #[test]
    fn depth_bound_is_enforced() {
        let mut node = json!({"type": "string"});
        for _ in 0..(MAX_DEPTH + 2) {
            node = json!({"type": "object", "properties": {"N": node}});
        }
        let doc = json!({"properties": {"Root": node}});
        assert_eq!(walk_properties(&doc), Err(WalkLimit::Depth));
    }
}
