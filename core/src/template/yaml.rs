//! YAML reader: yaml-rust2 events -> JSON values with short tags in long form.
//!
//! Built on the event parser (not the DOM loader) so tags and positions are
//! available. Iterative, with limits on nesting depth and alias expansion so
//! hostile input cannot exhaust the stack or memory.

use super::error::TemplateError;
use super::short_tags::to_long_form;
use super::yaml_scalar::{decimal_number, plain_scalar};
use serde_json::{Map, Value};
use std::collections::HashMap;
use yaml_rust2::parser::{Event, Parser, Tag};
use yaml_rust2::scanner::{Marker, TScalarStyle};

/// Deepest nesting accepted; deeper documents are refused, not truncated.
const MAX_DEPTH: usize = 128;
/// Most values alias expansion may materialise (guards "billion laughs").
const MAX_ALIAS_NODES: usize = 1_000_000;
/// The standard `!!` tag prefix.
const CORE_TAG_PREFIX: &str = "tag:yaml.org,2002:";

/// Reads one YAML document into a JSON value.
pub(crate) fn read_yaml(text: &str) -> Result<Value, TemplateError> {
    let mut reader = Reader::default();
    let mut parser = Parser::new_from_str(text);
    loop {
        let (event, mark) = parser.next_token().map_err(|e| {
            let m = e.marker();
            yaml_error(*m, e.info())
        })?;
        if reader.on_event(event, mark)? {
            break;
        }
    }
    reader.root.take().ok_or(TemplateError::Empty)
}

/// A container being filled.
enum Frame {
    Seq {
        items: Vec<Value>,
        tag: Option<Tag>,
        anchor: usize,
        mark: Marker,
    },
    Map {
        map: Map<String, Value>,
        key: Option<String>,
        tag: Option<Tag>,
        anchor: usize,
        mark: Marker,
    },
}

#[derive(Default)]
struct Reader {
    stack: Vec<Frame>,
    root: Option<Value>,
    documents: usize,
    anchors: HashMap<usize, (Value, usize)>,
    alias_nodes: usize,
}

impl Reader {
    /// Handles one event; returns true at the end of the stream.
    fn on_event(&mut self, event: Event, mark: Marker) -> Result<bool, TemplateError> {
        match event {
            Event::StreamEnd => return Ok(true),
            Event::DocumentStart => {
                self.documents += 1;
                if self.documents > 1 {
                    return Err(yaml_error(
                        mark,
                        "more than one YAML document; a template is a single document",
                    ));
                }
            }
            Event::Nothing | Event::StreamStart | Event::DocumentEnd => {}
            Event::Scalar(text, style, anchor, tag) => {
                if self.expecting_key() {
                    self.set_key(text, mark)?;
                } else {
                    let value = scalar_value(text, style, tag.as_ref(), mark)?;
                    self.complete(value, anchor, mark)?;
                }
            }
            Event::Alias(id) => {
                if self.expecting_key() {
                    return Err(yaml_error(mark, "an alias cannot be used as a mapping key"));
                }
                let (value, nodes) = self
                    .anchors
                    .get(&id)
                    .cloned()
                    .ok_or_else(|| yaml_error(mark, "alias to an unknown anchor"))?;
                self.alias_nodes = self.alias_nodes.saturating_add(nodes);
                if self.alias_nodes > MAX_ALIAS_NODES {
                    return Err(yaml_error(mark, "alias expansion is too large"));
                }
                self.complete(value, 0, mark)?;
            }
            Event::SequenceStart(anchor, tag) => {
                self.open(mark)?;
                self.stack.push(Frame::Seq {
                    items: Vec::new(),
                    tag,
                    anchor,
                    mark,
                });
            }
            Event::MappingStart(anchor, tag) => {
                self.open(mark)?;
                self.stack.push(Frame::Map {
                    map: Map::new(),
                    key: None,
                    tag,
                    anchor,
                    mark,
                });
            }
            Event::SequenceEnd | Event::MappingEnd => {
                let (value, tag, anchor, start) = match self.stack.pop() {
                    Some(Frame::Seq {
                        items,
                        tag,
                        anchor,
                        mark,
                    }) => (Value::Array(items), tag, anchor, mark),
                    Some(Frame::Map {
                        map,
                        tag,
                        anchor,
                        mark,
                        ..
                    }) => (Value::Object(map), tag, anchor, mark),
                    None => return Err(yaml_error(mark, "unbalanced collection end")),
                };
                let value = apply_collection_tag(value, tag.as_ref(), start)?;
                self.complete(value, anchor, start)?;
            }
        }
        Ok(false)
    }

    fn expecting_key(&self) -> bool {
        matches!(self.stack.last(), Some(Frame::Map { key: None, .. }))
    }

    /// Checks that a collection may start here (depth, and not as a mapping key).
    fn open(&self, mark: Marker) -> Result<(), TemplateError> {
        if self.expecting_key() {
            return Err(yaml_error(
                mark,
                "complex mapping keys are not supported in a template",
            ));
        }
        if self.stack.len() >= MAX_DEPTH {
            return Err(yaml_error(mark, "nesting is too deep"));
        }
        Ok(())
    }

    fn set_key(&mut self, text: String, mark: Marker) -> Result<(), TemplateError> {
        if let Some(Frame::Map { map, key, .. }) = self.stack.last_mut() {
            if map.contains_key(&text) {
                return Err(yaml_error(mark, &format!("duplicate mapping key {text:?}")));
            }
            *key = Some(text);
        }
        Ok(())
    }

    /// Places a finished value into its parent (or as the root).
    fn complete(&mut self, value: Value, anchor: usize, mark: Marker) -> Result<(), TemplateError> {
        if anchor > 0 {
            let nodes = count_nodes(&value);
            self.anchors.insert(anchor, (value.clone(), nodes));
        }
        match self.stack.last_mut() {
            None => {
                if self.root.is_some() {
                    return Err(yaml_error(mark, "unexpected second root value"));
                }
                self.root = Some(value);
            }
            Some(Frame::Seq { items, .. }) => items.push(value),
            Some(Frame::Map { map, key, .. }) => match key.take() {
                Some(k) => {
                    map.insert(k, value);
                }
                None => return Err(yaml_error(mark, "a mapping value without a key")),
            },
        }
        Ok(())
    }
}

/// Builds a scalar's value from its text, style and tag.
fn scalar_value(
    text: String,
    style: TScalarStyle,
    tag: Option<&Tag>,
    mark: Marker,
) -> Result<Value, TemplateError> {
    let Some(tag) = tag else {
        return Ok(match style {
            TScalarStyle::Plain => plain_scalar(&text),
            _ => Value::String(text),
        });
    };
    if tag.handle == CORE_TAG_PREFIX {
        return core_tagged_scalar(text, &tag.suffix, mark);
    }
    if tag.handle == "!" {
        // A short-form intrinsic's scalar argument is always text: `!Ref 123` names "123".
        return Ok(to_long_form(&tag.suffix, Value::String(text)));
    }
    if tag.handle.is_empty() && tag.suffix == "!" {
        // The non-specific tag `! x` forces a string.
        return Ok(Value::String(text));
    }
    Err(unsupported_tag(tag, mark))
}

/// Scalars with an explicit `!!type` tag.
fn core_tagged_scalar(text: String, kind: &str, mark: Marker) -> Result<Value, TemplateError> {
    match kind {
        "str" | "binary" | "timestamp" => Ok(Value::String(text)),
        "null" => Ok(Value::Null),
        "bool" => match plain_scalar(&text) {
            Value::Bool(b) => Ok(Value::Bool(b)),
            _ => Err(yaml_error(mark, "!!bool value is not true or false")),
        },
        "int" | "float" => {
            decimal_number(&text).ok_or_else(|| yaml_error(mark, "number value is not a decimal"))
        }
        other => Err(yaml_error(mark, &format!("unsupported tag !!{other}"))),
    }
}

/// Applies a tag found on a sequence or mapping.
fn apply_collection_tag(
    value: Value,
    tag: Option<&Tag>,
    mark: Marker,
) -> Result<Value, TemplateError> {
    let Some(tag) = tag else {
        return Ok(value);
    };
    if tag.handle == "!" {
        return Ok(to_long_form(&tag.suffix, value));
    }
    if tag.handle == CORE_TAG_PREFIX && matches!(tag.suffix.as_str(), "seq" | "map") {
        return Ok(value);
    }
    Err(unsupported_tag(tag, mark))
}

fn unsupported_tag(tag: &Tag, mark: Marker) -> TemplateError {
    yaml_error(
        mark,
        &format!("unsupported tag {}{}", tag.handle, tag.suffix),
    )
}

/// How many values a tree holds (for the alias-expansion budget).
fn count_nodes(v: &Value) -> usize {
    let mut count = 0usize;
    let mut todo = vec![v];
    while let Some(n) = todo.pop() {
        count += 1;
        match n {
            Value::Array(a) => todo.extend(a.iter()),
            Value::Object(o) => todo.extend(o.values()),
            _ => {}
        }
    }
    count
}

fn yaml_error(mark: Marker, message: &str) -> TemplateError {
    TemplateError::Yaml {
        line: mark.line(),
        column: mark.col() + 1,
        message: message.to_string(),
    }
}
