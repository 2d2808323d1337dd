//! The revert function: a thin adapter over core's check path and revert
//! planner and the aws crate's writers. A direct invoke with `dryRun` (the
//! default) returns the plan and its digest; applying needs that digest,
//! re-gathers, re-plans, refuses when the plan changed, applies, verifies
//! and publishes what it did to SNS. docs/revert.md has the contract.

pub mod config;
pub mod handler;
pub mod notice;
pub mod recheck;
pub mod scope;
pub mod state;

pub use config::Config;
pub use handler::{handle, Invocation, RevertRequest, RevertResponse, Status};
pub use state::{Applier, AwsApplier, State};
