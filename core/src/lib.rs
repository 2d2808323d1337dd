//! realdrift-core: the drift engine.
//!
//! Pure stages (template, schema, normalize, classify, baseline, ignore,
//! report) never call AWS; I/O lives behind traits implemented in `aws/`.

pub mod aws;
pub mod baseline;
pub mod classify;
pub mod corpus;
pub mod declared;
pub mod events;
pub mod finding;
pub mod ignore;
pub mod normalize;
pub mod pipeline;
pub mod report;
pub mod schema;
pub mod template;

pub use declared::DeclaredValue;
pub use finding::{Finding, Tier};
