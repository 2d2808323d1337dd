//! baseline (in progress).
