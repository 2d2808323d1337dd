//! Noise subtraction and canonical forms shared by classify and baselines.

mod canonical;

pub use canonical::canonicalize_for_compare;
