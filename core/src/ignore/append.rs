//! Appending rules to the ignore file without disturbing what the user wrote.
//!
//! The file is hand-edited policy: its comments (the reasons rules exist) and
//! its order belong to the user. New rules are appended after the last one,
//! duplicates are skipped, and the result is parsed back and compared with the
//! intended rule list before it is returned — so a file shape this code does
//! not handle is an error, never a silently damaged file.

use super::apply::{display_id, IgnoreScope};
use super::error::IgnoreError;
use super::glob::escape;
use super::rules::{parse_rules, IgnoreRule};
use super::yaml::{parse_document, Node};
use crate::finding::Finding;
use crate::report::is_unsafe_char;

/// The header written into a new ignore file.
pub const NEW_FILE_HEADER: &str = "\
# realdrift ignore rules: properties realdrift should stop reporting as drift.
# Each rule: path (a pattern; * any run of characters, ? one character),
# optional stack / account / region scopes. Say why in a comment.
";

/// The new file text and what was added.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AppendOutcome {
    /// The full new text (equal to the input when nothing was added).
    pub text: String,
    /// Rules appended.
    pub added: Vec<IgnoreRule>,
    /// Rules skipped because the file already holds them.
    pub duplicates: Vec<IgnoreRule>,
}

/// The rule that silences exactly this finding, optionally scoped to this stack, account and region.
pub fn rule_for_finding(f: &Finding, scope: &IgnoreScope, scoped: bool) -> IgnoreRule {
    let id = escape(display_id(f, &scope.stack));
    let path = if f.path.is_empty() {
        id
    } else {
        format!("{id}.{}", escape(&f.path))
    };
    let axis = |v: &str| (scoped && !v.is_empty()).then(|| escape(v));
    IgnoreRule {
        path,
        stack: axis(&scope.stack),
        account: axis(&scope.account),
        region: axis(&scope.region),
    }
}

/// Appends `rules` to ignore-file text (`None` when the file does not exist yet).
pub fn add_ignore_rules(
    file: &str,
    existing: Option<&str>,
    rules: &[IgnoreRule],
) -> Result<AppendOutcome, IgnoreError> {
    let text = existing.unwrap_or("");
    let current = parse_rules(file, text)?;
    let (added, duplicates) = split_duplicates(&current, rules);
    if added.is_empty() {
        return Ok(AppendOutcome {
            text: text.to_string(),
            added,
            duplicates,
        });
    }

    let doc = parse_document(file, text)?;
    refuse_keys_after_ignore(file, doc.as_ref())?;
    let mut out = text.to_string();
    let (indent, reemit) = open_ignore_list(file, text, doc.as_ref(), &current, &mut out)?;
    for r in reemit.iter().chain(added.iter()) {
        out.push_str(&render_rule(r, indent));
    }

    let mut expected = current;
    expected.extend(added.iter().cloned());
    check_read_back(file, &out, &expected)?;
    Ok(AppendOutcome {
        text: out,
        added,
        duplicates,
    })
}

/// Splits `rules` into those to add and those the file (or an earlier rule) already holds.
fn split_duplicates(
    current: &[IgnoreRule],
    rules: &[IgnoreRule],
) -> (Vec<IgnoreRule>, Vec<IgnoreRule>) {
    let mut added: Vec<IgnoreRule> = Vec::new();
    let mut duplicates = Vec::new();
    for r in rules {
        if current.contains(r) || added.contains(r) {
            duplicates.push(r.clone());
        } else {
            added.push(r.clone());
        }
    }
    (added, duplicates)
}

/// The top-level `ignore` value of the document, if it is a map that has one.
fn ignore_list(doc: Option<&Node>) -> Option<&Node> {
    match doc {
        Some(Node::Map { entries, .. }) => entries
            .iter()
            .find(|(k, _)| matches!(k, Node::Scalar { text, .. } if text == "ignore"))
            .map(|(_, v)| v),
        _ => None,
    }
}

/// New rules are written at the end of the file, so the `ignore` list must
/// be its last key (an `accept` list goes above it); said plainly instead of
/// failing the read-back.
fn refuse_keys_after_ignore(file: &str, doc: Option<&Node>) -> Result<(), IgnoreError> {
    let Some(Node::Map { entries, .. }) = doc else {
        return Ok(());
    };
    let is_ignore = |k: &Node| matches!(k, Node::Scalar { text, .. } if text == "ignore");
    match entries.iter().position(|(k, _)| is_ignore(k)) {
        Some(i) if i + 1 < entries.len() => Err(IgnoreError::Append {
            file: file.to_string(),
            message: "new rules are appended at the end of the file: move the 'accept' list \
                      above the 'ignore' list"
                .into(),
        }),
        // No ignore list yet but other keys: it is opened at the end.
        _ => Ok(()),
    }
}

/// Makes `out` end in a block list new items can follow; returns their
/// indentation and the existing rules that must be written again.
fn open_ignore_list(
    file: &str,
    text: &str,
    doc: Option<&Node>,
    current: &[IgnoreRule],
    out: &mut String,
) -> Result<(usize, Vec<IgnoreRule>), IgnoreError> {
    let opened = match (doc, ignore_list(doc)) {
        (None, _) => {
            if out.trim().is_empty() {
                *out = NEW_FILE_HEADER.to_string();
            }
            ensure_newline(out);
            out.push_str("ignore:\n");
            (2, Vec::new())
        }
        (Some(n), _) if n.is_null() => {
            ensure_newline(out);
            out.push_str("ignore:\n");
            (2, Vec::new())
        }
        (_, Some(n @ Node::Scalar { text: t, pos, .. })) if n.is_null() => {
            // `ignore: ~` / `ignore: null`: drop the explicit null, then list below.
            remove_chars(out, pos.index, pos.index + t.chars().count());
            ensure_newline(out);
            (2, Vec::new())
        }
        (
            _,
            Some(Node::Seq {
                flow: false, pos, ..
            }),
        ) => {
            ensure_newline(out);
            (line_indent(text, pos.line), Vec::new())
        }
        (
            _,
            Some(Node::Seq {
                flow: true,
                pos,
                end,
                ..
            }),
        ) => {
            // A flow list (`ignore: []`) becomes a block list holding the same rules.
            remove_chars(out, pos.index, end.index + 1);
            ensure_newline(out);
            (2, current.to_vec())
        }
        _ => {
            return Err(IgnoreError::Append {
                file: file.to_string(),
                message: "the file has no 'ignore' list to append to".into(),
            })
        }
    };
    Ok(opened)
}

/// The new text must parse back to exactly the intended rules.
fn check_read_back(file: &str, out: &str, expected: &[IgnoreRule]) -> Result<(), IgnoreError> {
    match parse_rules(file, out) {
        Ok(back) if back == expected => Ok(()),
        Ok(_) => Err(IgnoreError::Append {
            file: file.to_string(),
            message: "the appended rules did not read back as written".into(),
        }),
        Err(e) => Err(IgnoreError::Append {
            file: file.to_string(),
            message: e.to_string(),
        }),
    }
}

fn ensure_newline(s: &mut String) {
    if !s.is_empty() && !s.ends_with('\n') {
        s.push('\n');
    }
}

/// Removes the chars from `start` up to `end` (char indices, as the parser counts).
fn remove_chars(out: &mut String, start: usize, end: usize) {
    let start = byte_at(out, start);
    let end = byte_at(out, end);
    out.replace_range(start..end, "");
}

/// Byte offset of a char index (the parser counts chars).
fn byte_at(s: &str, char_index: usize) -> usize {
    s.char_indices()
        .nth(char_index)
        .map(|(b, _)| b)
        .unwrap_or(s.len())
}

/// The indentation of the `-` of the list's first item.
fn line_indent(text: &str, line: usize) -> usize {
    text.lines()
        .nth(line.saturating_sub(1))
        .map(|l| l.len() - l.trim_start_matches(' ').len())
        .unwrap_or(2)
}

fn render_rule(r: &IgnoreRule, indent: usize) -> String {
    let pad = " ".repeat(indent);
    let mut s = format!("{pad}- path: {}\n", yaml_string(&r.path));
    for (key, value) in [
        ("stack", &r.stack),
        ("account", &r.account),
        ("region", &r.region),
    ] {
        if let Some(v) = value {
            s.push_str(&format!("{pad}  {key}: {}\n", yaml_string(v)));
        }
    }
    s
}

/// A YAML string literal: single-quoted when every character is safe to
/// show, else double-quoted with `\uXXXX` escapes (a control, bidi or
/// zero-width character written raw could show a reviewer misleading text).
fn yaml_string(s: &str) -> String {
    if !s.chars().any(is_unsafe_char) {
        return format!("'{}'", s.replace('\'', "''"));
    }
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if is_unsafe_char(c) => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
