//! record's multiselect: which new or changed live-only values to accept.

use anyhow::Context;
use dialoguer::MultiSelect;
use realdrift_core::baseline::{EntryKey, RecordDelta};
use realdrift_core::report::{render_value, sanitize_identifier};
use std::collections::BTreeSet;

/// Longest value shown in a choice; the baseline file holds the whole value.
const MAX_VALUE_CHARS: usize = 100;

/// A value for a one-line label, cut to [`MAX_VALUE_CHARS`].
fn short(v: &serde_json::Value) -> String {
    let s = render_value(v);
    if s.chars().count() <= MAX_VALUE_CHARS {
        s
    } else {
        let mut cut: String = s.chars().take(MAX_VALUE_CHARS).collect();
        cut.push_str("...");
        cut
    }
}

/// One choice: an entry key and how it is shown.
#[derive(Debug, Clone, PartialEq)]
pub struct Choice {
    /// The entry it selects.
    pub key: EntryKey,
    /// The label (terminal-safe).
    pub label: String,
}

/// The choices of a delta: new values, then changed ones (old -> new).
pub fn choices(delta: &RecordDelta) -> Vec<Choice> {
    let id = |logical: &str, path: &str| {
        let logical = sanitize_identifier(logical);
        if path.is_empty() {
            format!("{logical} (whole resource)")
        } else {
            format!("{logical}.{}", sanitize_identifier(path))
        }
    };
    let new = delta.new.iter().map(|e| Choice {
        key: e.key(),
        label: format!(
            "new      {} = {}",
            id(&e.logical_id, &e.path),
            short(&e.value)
        ),
    });
    let changed = delta.changed.iter().map(|(old, e)| Choice {
        key: e.key(),
        label: format!(
            "changed  {}: {} -> {}",
            id(&e.logical_id, &e.path),
            short(&old.value),
            short(&e.value)
        ),
    });
    new.chain(changed).collect()
}

/// Asks which choices to record (all preselected). `None` when the user cancelled.
pub fn pick(stack: &str, choices: &[Choice]) -> anyhow::Result<Option<BTreeSet<EntryKey>>> {
    let labels: Vec<&str> = choices.iter().map(|c| c.label.as_str()).collect();
    let defaults = vec![true; choices.len()];
    let picked = MultiSelect::new()
        .with_prompt(format!(
            "{}: values to record (space toggles, a toggles all, enter confirms, esc cancels)",
            sanitize_identifier(stack)
        ))
        .items(&labels)
        .defaults(&defaults)
        .report(false)
        .interact_opt()
        .context("reading the selection")?;
    Ok(picked.map(|idx| {
        idx.into_iter()
            .filter_map(|i| choices.get(i))
            .map(|c| c.key.clone())
            .collect()
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use realdrift_core::baseline::RecordedEntry;
    use serde_json::{json, Map};

    fn entry(path: &str, v: serde_json::Value) -> RecordedEntry {
        RecordedEntry {
            logical_id: "Role".into(),
            resource_type: "AWS::IAM::Role".into(),
            path: path.into(),
            value: v,
            extra: Map::new(),
        }
    }

    #[test]
    fn new_then_changed_with_escaped_labels() {
        let delta = RecordDelta {
            new: vec![entry("Policies[rogue\u{1b}]", json!({"a": 1}))],
            changed: vec![(
                entry("MaxSessionDuration", json!(3600)),
                entry("MaxSessionDuration", json!(7200)),
            )],
            ..RecordDelta::default()
        };
        let c = choices(&delta);
        assert_eq!(c.len(), 2);
        assert!(c[0].label.starts_with("new      Role."), "{}", c[0].label);
        assert!(!c[0].label.contains('\u{1b}'));
        assert_eq!(
            c[1].key,
            ("Role".to_string(), "MaxSessionDuration".to_string())
        );
        assert!(c[1].label.contains("3600 -> 7200"), "{}", c[1].label);
    }

    #[test]
    fn long_values_are_cut() {
        let long = json!("x".repeat(500));
        assert_eq!(short(&long).chars().count(), MAX_VALUE_CHARS + 3);
        assert_eq!(short(&json!("ok")), "ok");
    }
}
