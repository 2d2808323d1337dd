//! Ignore rules: `baselines/ignore.yaml`, the hand-edited policy of what to stop reporting.
//!
//! `rules` reads and validates the file, `glob` matches patterns, `apply`
//! re-tags findings, `append` adds rules keeping the user's comments and order.

mod accept;
mod append;
mod apply;
mod error;
mod glob;
mod rules;
mod scope;
mod yaml;

pub use accept::{apply_accepts, AcceptRule, CompiledAccept};
pub use append::{add_ignore_rules, rule_for_finding, AppendOutcome, NEW_FILE_HEADER};
pub use apply::{apply_ignores, display_id, resource_prefixes, within_stack_path, IgnoreScope};
pub use error::IgnoreError;
pub use glob::{escape, Pattern};
pub use rules::{
    parse_file, parse_rules, CompiledRule, IgnoreConfig, IgnoreRule, IGNORE_FILE,
    MAX_IGNORE_FILE_BYTES, MAX_IGNORE_RULES,
};
