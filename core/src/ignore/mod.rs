//! ignore (in progress).
