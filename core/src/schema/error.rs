//! Errors of the schema stage: a corrupt snapshot, a malformed registry document.

/// Everything that can go wrong loading or deriving schema facts.
#[derive(Debug, thiserror::Error)]
pub enum SchemaError {
    /// The bundled snapshot's framing or index is not what the loader expects.
    #[error("bundled schema snapshot is corrupt: {0}")]
    Snapshot(String),
    /// One type's compressed document could not be inflated.
    #[error("schema for {type_name}: cannot inflate: {source}")]
    Inflate {
        /// The resource type.
        type_name: String,
        /// The underlying decompression error.
        source: std::io::Error,
    },
    /// A schema document is not valid JSON.
    #[error("schema for {type_name}: {source}")]
    Parse {
        /// The resource type.
        type_name: String,
        /// The JSON error.
        source: serde_json::Error,
    },
    /// A schema document is JSON but not a registry schema.
    #[error("schema for {type_name}: {reason}")]
    Invalid {
        /// The resource type (or `?` when the document names none).
        type_name: String,
        /// What is wrong.
        reason: String,
    },
    /// The property tree is deeper or larger than the walk allows.
    #[error("schema for {type_name}: property tree exceeds the walk limit ({limit})")]
    TooComplex {
        /// The resource type.
        type_name: String,
        /// The limit that was hit.
        limit: String,
    },
    /// Another schema source (for example DescribeType) failed.
    #[error("schema source {source_name} failed for {type_name}: {message}")]
    Source {
        /// Which source failed.
        source_name: String,
        /// The resource type.
        type_name: String,
        /// What went wrong.
        message: String,
    },
}
