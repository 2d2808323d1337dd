//! Registry-schema facts per resource type.

mod facts;

pub use facts::SchemaFacts;
