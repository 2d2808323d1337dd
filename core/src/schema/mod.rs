//! Registry-schema facts per resource type: derived from CloudFormation
//! registry schemas (bundled snapshot, or another [`SchemaSource`]).

mod error;
mod facts;
mod handlers;
mod pointer;
mod registry;
mod snapshot;
mod source;
mod walk;

pub use error::SchemaError;
pub use facts::SchemaFacts;
pub use handlers::Handlers;
pub use pointer::pointer_to_path;
pub use registry::facts_from_document;
pub use snapshot::{Provenance, Snapshot};
pub use source::{BundledSchemas, InMemorySchemas, SchemaChain, SchemaSource};
