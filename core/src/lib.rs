//! realdrift-core: the drift engine.
//!
//! Pure stages (template, schema, normalize, classify, baseline, ignore,
//! report, revert planning) never call AWS; I/O lives behind traits (in `pipeline` and
//! `baseline`) that the `realdrift-aws` crate implements over the AWS SDK.
//! Nothing here links an AWS SDK crate or an async runtime.

pub mod baseline;
pub mod classify;
pub mod corpus;
pub mod declared;
pub mod events;
pub mod finding;
#[doc(hidden)]
pub mod fuzzing;
pub mod hub;
pub mod ignore;
pub mod normalize;
pub mod notify;
pub mod pipeline;
pub mod report;
pub mod revert;
pub mod schema;
pub mod sync;
pub mod template;
pub mod watch;

pub use declared::DeclaredValue;
pub use finding::{Finding, Tier};
