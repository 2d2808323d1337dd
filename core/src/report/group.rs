//! A transition's resources as one grouped list: a storm of out-of-band
//! changes to one stack is one alert that names the resources it touched,
//! the first [`MAX_LISTED`] of them and how many more.

use crate::finding::Finding;
use crate::ignore::display_id;
use serde_json::{json, Value};

/// Resource names listed in one alert before "and N more".
pub const MAX_LISTED: usize = 10;

/// The distinct resources of `findings`, in first-seen order, as shown to
/// a reader (construct path within the stack, else logical id).
pub fn resource_names(findings: &[Finding], stack: &str) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for f in findings {
        let name = display_id(f, stack).to_string();
        if !names.contains(&name) {
            names.push(name);
        }
    }
    names
}

/// The SNS document's `resources`: `{count, names (at most MAX_LISTED), more}`.
pub fn resources_value(findings: &[Finding], stack: &str) -> Value {
    let names = resource_names(findings, stack);
    let shown: Vec<&String> = names.iter().take(MAX_LISTED).collect();
    json!({"count": names.len(), "names": shown, "more": names.len() - shown.len()})
}

/// One line for a reader: "12 resources: A, B, ... and 2 more"; `None` for
/// a single resource (its finding already names it). Not escaped.
pub fn resources_line(findings: &[Finding], stack: &str) -> Option<String> {
    let names = resource_names(findings, stack);
    if names.len() < 2 {
        return None;
    }
    let shown = names[..names.len().min(MAX_LISTED)].join(", ");
    let more = names.len().saturating_sub(MAX_LISTED);
    let tail = if more > 0 {
        format!(" and {more} more")
    } else {
        String::new()
    };
    Some(format!("{} resources: {shown}{tail}", names.len()))
}
