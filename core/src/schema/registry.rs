//! One registry schema document -> [`SchemaFacts`].
//!
//! Works on a raw DescribeType schema and on the pruned snapshot form alike
//! (the snapshot keeps every key read here; `handlers` may be a map or a list
//! of names).

use super::error::SchemaError;
use super::facts::SchemaFacts;
use super::handlers::Handlers;
use super::pointer::pointer_to_path;
use super::walk::walk_properties;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// The registry's default tag property when `tagging` names none.
const DEFAULT_TAG_PROPERTY: &str = "Tags";

/// Derives the facts classify needs from one registry schema document.
pub fn facts_from_document(doc: &Value) -> Result<SchemaFacts, SchemaError> {
    let type_name =
        doc.get("typeName")
            .and_then(Value::as_str)
            .ok_or_else(|| SchemaError::Invalid {
                type_name: "?".to_string(),
                reason: "document has no typeName".to_string(),
            })?;
    if !doc.get("properties").is_some_and(Value::is_object) {
        return Err(SchemaError::Invalid {
            type_name: type_name.to_string(),
            reason: "document has no properties object".to_string(),
        });
    }
    let tree = walk_properties(doc).map_err(|limit| SchemaError::TooComplex {
        type_name: type_name.to_string(),
        limit: limit.to_string(),
    })?;

    let read_only_paths = pointer_set(doc, "readOnlyProperties");
    let write_only_paths = pointer_set(doc, "writeOnlyProperties");
    let create_only_paths = pointer_set(doc, "createOnlyProperties");
    let conditional = pointer_set(doc, "conditionalCreateOnlyProperties");
    let defaults: BTreeMap<String, Value> = tree
        .default_paths
        .iter()
        .filter(|(path, _)| !path.contains('.'))
        .map(|(path, value)| (path.clone(), value.clone()))
        .collect();

    Ok(SchemaFacts {
        read_only: top_level(&read_only_paths),
        write_only: top_level(&write_only_paths),
        create_only: top_level(&create_only_paths),
        read_only_paths: read_only_paths.into_iter().collect(),
        write_only_paths: write_only_paths.into_iter().collect(),
        create_only_paths: create_only_paths.into_iter().collect(),
        defaults,
        default_paths: tree.default_paths,
        unordered_scalar_paths: tree.unordered_scalar_paths.into_iter().collect(),
        unordered_object_array_paths: tree.unordered_object_array_paths.into_iter().collect(),
        free_form_map_paths: tree.free_form_map_paths.into_iter().collect(),
        primary_identifier: pointer_list(doc.get("primaryIdentifier")),
        property_transforms: property_transforms(doc),
        tag_property: tag_property(doc),
        conditional_create_only_paths: conditional.into_iter().collect(),
        typed_scalar_paths: tree.typed_scalar_paths,
        handlers: Some(handlers(doc)),
    })
}

/// A pointer list as a sorted, de-duplicated set of dotted paths.
fn pointer_set(doc: &Value, key: &str) -> BTreeSet<String> {
    pointer_list(doc.get(key)).into_iter().collect()
}

/// A pointer list as dotted paths, in document order.
fn pointer_list(value: Option<&Value>) -> Vec<String> {
    value
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .filter_map(pointer_to_path)
        .collect()
}

/// The single-segment paths of a set (the top-level property names).
fn top_level(paths: &BTreeSet<String>) -> Vec<String> {
    paths.iter().filter(|p| !p.contains('.')).cloned().collect()
}

/// `propertyTransform`: pointer -> JSONata expression, keyed by dotted path.
fn property_transforms(doc: &Value) -> BTreeMap<String, String> {
    doc.get("propertyTransform")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .filter_map(|(pointer, expr)| Some((pointer_to_path(pointer)?, expr.as_str()?.to_string())))
        .collect()
}

/// The tag property when the type is taggable; `None` when it is not or the
/// schema does not say (unknown is not guessed).
fn tag_property(doc: &Value) -> Option<String> {
    let has = |name: &str| doc.get("properties").and_then(|p| p.get(name)).is_some();
    match doc.get("tagging") {
        Some(tagging) => {
            if tagging.get("taggable") == Some(&Value::Bool(false)) {
                return None;
            }
            match tagging.get("tagProperty").and_then(Value::as_str) {
                Some(pointer) => pointer_to_path(pointer),
                None => has(DEFAULT_TAG_PROPERTY).then(|| DEFAULT_TAG_PROPERTY.to_string()),
            }
        }
        // Older schemas carry a bare top-level `taggable` flag.
        None => (doc.get("taggable") == Some(&Value::Bool(true)) && has(DEFAULT_TAG_PROPERTY))
            .then(|| DEFAULT_TAG_PROPERTY.to_string()),
    }
}

/// Handler presence; a document without `handlers` has none (not provisionable).
fn handlers(doc: &Value) -> Handlers {
    match doc.get("handlers") {
        Some(Value::Object(map)) => Handlers::from_names(map.keys().map(String::as_str)),
        Some(Value::Array(names)) => Handlers::from_names(names.iter().filter_map(Value::as_str)),
        _ => Handlers::default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn sample() -> Value {
        json!({
            "typeName": "AWS::Test::Thing",
            "properties": {
                "Arn": {"type": "string"},
                "Name": {"type": "string"},
                "Config": {"$ref": "#/definitions/Config"},
                "Size": {"type": "integer", "default": 10},
                "Tags": {"type": "array", "items": {"$ref": "#/definitions/Tag"}}
            },
            "definitions": {
                "Config": {"type": "object", "properties": {
                    "Secret": {"type": "string"},
                    "Mode": {"type": "string", "default": "FAST"}}},
                "Tag": {"type": "object", "properties": {"Key": {"type": "string"}, "Value": {"type": "string"}}}
            },
            "readOnlyProperties": ["/properties/Arn", "/properties/Arn"],
            "writeOnlyProperties": ["/properties/Config/Secret"],
            "createOnlyProperties": ["/properties/Name"],
            "conditionalCreateOnlyProperties": ["/properties/Config"],
            "primaryIdentifier": ["/properties/Name", "/properties/Arn"],
            "propertyTransform": {"/properties/Name": "$lowercase(Name)"},
            "tagging": {"taggable": true, "tagProperty": "/properties/Tags"},
            "handlers": {"create": {"permissions": []}, "read": {"permissions": []}}
        })
    }

    #[test]
    fn lists_split_into_top_level_names_and_dotted_paths() {
        let facts = facts_from_document(&sample()).unwrap();
        assert_eq!(facts.read_only, vec!["Arn"]);
        assert_eq!(facts.read_only_paths, vec!["Arn"]);
        assert!(facts.write_only.is_empty());
        assert_eq!(facts.write_only_paths, vec!["Config.Secret"]);
        assert_eq!(facts.create_only, vec!["Name"]);
        // Conditional create-only stays out of createOnly (it is not always immutable).
        assert_eq!(facts.conditional_create_only_paths, vec!["Config"]);
        assert_eq!(facts.primary_identifier, vec!["Name", "Arn"]);
    }

    #[test]
    fn defaults_transforms_tags_and_handlers() {
        let facts = facts_from_document(&sample()).unwrap();
        assert_eq!(
            facts.defaults,
            BTreeMap::from([("Size".to_string(), json!(10))])
        );
        assert_eq!(facts.default_paths.get("Config.Mode"), Some(&json!("FAST")));
        assert_eq!(facts.default_paths.get("Size"), Some(&json!(10)));
        assert_eq!(
            facts.property_transforms.get("Name").map(String::as_str),
            Some("$lowercase(Name)")
        );
        assert_eq!(facts.tag_property.as_deref(), Some("Tags"));
        let handlers = facts.handlers.unwrap();
        assert!(handlers.create && handlers.read && !handlers.update && !handlers.list);
    }

    #[test]
    fn typed_scalars_at_any_depth_and_in_lists() {
        let mut doc = sample();
        doc["properties"]["Ports"] = json!({"type": "array", "items": {"type": "integer"}});
        doc["properties"]["Either"] = json!({"type": ["string", "integer"]});
        doc["definitions"]["Config"]["properties"]["On"] = json!({"type": "boolean"});
        let facts = facts_from_document(&doc).unwrap();
        let kinds: Vec<(&str, &str)> = facts
            .typed_scalar_paths
            .iter()
            .map(|(p, t)| (p.as_str(), t.as_str()))
            .collect();
        // A union is no single type to convert to.
        assert_eq!(
            kinds,
            vec![
                ("Config.On", "boolean"),
                ("Ports.*", "integer"),
                ("Size", "integer")
            ]
        );
    }

    #[test]
    fn untaggable_and_handlerless_types() {
        let mut doc = sample();
        doc["tagging"] = json!({"taggable": false});
        doc.as_object_mut().unwrap().remove("handlers");
        let facts = facts_from_document(&doc).unwrap();
        assert_eq!(facts.tag_property, None);
        assert_eq!(facts.handlers, Some(Handlers::default()));
    }

    #[test]
    fn snapshot_form_handler_names_are_read() {
        let mut doc = sample();
        doc["handlers"] = json!(["list", "read"]);
        let handlers = facts_from_document(&doc).unwrap().handlers.unwrap();
        assert!(handlers.read && handlers.list && !handlers.create);
    }

    #[test]
    fn malformed_documents_are_errors() {
        assert!(matches!(
            facts_from_document(&json!({"properties": {}})),
            Err(SchemaError::Invalid { .. })
        ));
        assert!(matches!(
            facts_from_document(&json!({"typeName": "AWS::X::Y"})),
            Err(SchemaError::Invalid { .. })
        ));
    }
}
