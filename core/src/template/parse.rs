//! Reading a template body (JSON or YAML) and hashing it.

use super::error::TemplateError;
use super::model::Template;
use super::yaml::read_yaml;
use serde_json::Value;
use sha2::{Digest, Sha256};

impl Template {
    /// Parses a template body, detecting JSON or YAML.
    ///
    /// A body starting with `{` is read as JSON; if that fails it is retried
    /// as YAML (flow style), and the JSON error is reported if both fail.
    pub fn parse(text: &str) -> Result<Template, TemplateError> {
        Template::from_value(parse_document(text)?)
    }
}

/// Parses a body into a raw JSON document (short tags in long form), no shape checks.
pub fn parse_document(text: &str) -> Result<Value, TemplateError> {
    let body = text.strip_prefix('\u{feff}').unwrap_or(text);
    let trimmed = body.trim_start();
    if trimmed.is_empty() {
        return Err(TemplateError::Empty);
    }
    if trimmed.starts_with('{') {
        return match serde_json::from_str::<Value>(body) {
            Ok(v) => Ok(v),
            Err(json_err) => read_yaml(body).map_err(|_| TemplateError::Json {
                line: json_err.line(),
                column: json_err.column(),
                message: without_position(&json_err.to_string()),
            }),
        };
    }
    read_yaml(body)
}

/// serde_json appends "at line L column C"; the error carries those as fields.
fn without_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(i) => message[..i].to_string(),
        None => message.to_string(),
    }
}

/// Hex SHA-256 of the template body exactly as deployed (baselines record it).
pub fn template_hash(text: &str) -> String {
    let digest = Sha256::digest(text.as_bytes());
    let mut out = String::with_capacity(digest.len() * 2);
    for byte in digest {
        out.push(HEX[usize::from(byte >> 4)]);
        out.push(HEX[usize::from(byte & 0x0f)]);
    }
    out
}

const HEX: [char; 16] = [
    '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'a', 'b', 'c', 'd', 'e', 'f',
];
