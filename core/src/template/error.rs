//! Errors raised while reading a template or resolving one of its resources.

use thiserror::Error;

/// Why a template could not be read or a resource could not be resolved.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TemplateError {
    /// The body is empty or only whitespace.
    #[error("template is empty")]
    Empty,
    /// The body is not well-formed JSON.
    #[error("malformed JSON template at line {line}, column {column}: {message}")]
    Json {
        /// 1-based line of the error.
        line: usize,
        /// 1-based column of the error.
        column: usize,
        /// What the JSON reader rejected.
        message: String,
    },
    /// The body is not well-formed YAML (or uses a YAML feature we refuse).
    #[error("malformed YAML template at line {line}, column {column}: {message}")]
    Yaml {
        /// 1-based line of the error.
        line: usize,
        /// 1-based column of the error.
        column: usize,
        /// What the YAML reader rejected.
        message: String,
    },
    /// The document parsed but does not have the shape of a CloudFormation template.
    #[error("invalid template shape at {location}: {message}")]
    Shape {
        /// Where in the template, e.g. `Resources.MyBucket` or `Parameters.Env`.
        location: String,
        /// What is wrong there.
        message: String,
    },
    /// A logical id that the template does not declare.
    #[error("resource {0} is not declared in the template")]
    UnknownResource(String),
}

impl TemplateError {
    /// Builds a shape error for `location`.
    pub(crate) fn shape(location: impl Into<String>, message: impl Into<String>) -> Self {
        TemplateError::Shape {
            location: location.into(),
            message: message.into(),
        }
    }
}
