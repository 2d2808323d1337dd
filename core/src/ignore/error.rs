//! Errors of the ignore file: always with the file, line and column.

/// A malformed or unusable ignore file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IgnoreError {
    /// Not valid YAML.
    #[error("{file}:{line}:{column}: invalid YAML: {message}")]
    Syntax {
        /// The file.
        file: String,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What the parser said.
        message: String,
    },
    /// Valid YAML, but not the ignore-file shape.
    #[error("{file}:{line}:{column}: {message}")]
    Invalid {
        /// The file.
        file: String,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What is wrong and what is expected.
        message: String,
    },
    /// A rule pattern could not be compiled.
    #[error("ignore rule pattern {pattern:?}: {message}")]
    Pattern {
        /// The pattern.
        pattern: String,
        /// Why.
        message: String,
    },
    /// A rule is unusable as given (an empty path or scope).
    #[error("ignore rule: {message}")]
    Rule {
        /// What is wrong.
        message: String,
    },
    /// The file is over the size or rule-count limit.
    #[error("{file}: too large: {message}")]
    TooLarge {
        /// The file.
        file: String,
        /// Which limit and by how much.
        message: String,
    },
    /// Appending produced text that does not read back as intended (nothing written).
    #[error("{file}: cannot append rules without changing existing ones ({message}); edit the file by hand")]
    Append {
        /// The file.
        file: String,
        /// Why.
        message: String,
    },
}
