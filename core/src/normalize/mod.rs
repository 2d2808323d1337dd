//! Noise subtraction and canonical forms shared by classify and baselines.
//!
//! One file per mechanism family; each is a pure function over JSON values.
//! Per-type facts live in `core/data/*.json` (see [`aws_facts`]).

pub mod account_owned;
pub mod arn;
pub mod arrays;
pub mod aws_facts;
mod canonical;
pub mod empty;
pub mod generated;
pub mod managed_fields;
pub mod path;
pub mod policy;
pub mod scalars;
pub mod schema_strip;
pub mod shapes;
pub mod tags;
pub mod transform;

pub use canonical::{canonicalize_for_compare, canonicalize_in_place};
