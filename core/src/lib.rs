//! realdrift-core: the drift engine.
//!
//! Pure stages (template, schema, normalize, classify, baseline, ignore,
//! report) never call AWS; I/O lives behind traits (in `pipeline` and
//! `baseline`) that the `realdrift-aws` crate implements over the AWS SDK.
//! Nothing here links an AWS SDK crate or an async runtime.

pub mod baseline;
pub mod classify;
pub mod corpus;
pub mod declared;
pub mod finding;
#[doc(hidden)]
pub mod fuzzing;
pub mod ignore;
pub mod normalize;
pub mod pipeline;
pub mod report;
pub mod schema;
pub mod template;

pub use declared::DeclaredValue;
pub use finding::{Finding, Tier};
