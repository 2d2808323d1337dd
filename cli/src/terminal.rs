//! Safe display of untrusted text (case names, paths, values) on a terminal.
//!
//! Text read from case files or the file system can carry newlines, escape
//! sequences or bidi overrides that would forge or reorder report lines. Such
//! text is shown as a JSON-style quoted string with every risky character
//! escaped; any other text is shown as is.

use serde::Serialize;
use std::borrow::Cow;
use std::fmt::Write as _;
use std::io;

/// True for characters that could move the cursor, break a line, style the
/// output or reorder what a reader sees.
fn is_risky(c: char) -> bool {
    c.is_control() // C0, DEL and C1 (ESC, CSI, newline, tab, ...)
        || matches!(
            c,
            '\u{2028}' | '\u{2029}' // line / paragraph separators
                | '\u{061C}' | '\u{200E}' | '\u{200F}' // bidi marks
                | '\u{202A}'..='\u{202E}' // bidi embeddings and overrides
                | '\u{2066}'..='\u{2069}' // bidi isolates
        )
}

/// True when `s` must be quoted to display unambiguously.
///
/// Edge whitespace and a leading quote are included so that a quoted and an
/// unquoted display can never be mistaken for one another.
fn needs_quoting(s: &str) -> bool {
    s.is_empty()
        || s.starts_with('"')
        || s.starts_with(char::is_whitespace)
        || s.ends_with(char::is_whitespace)
        || s.chars().any(is_risky)
}

/// Quotes `s` like a JSON string, escaping every risky character as `\uXXXX`
/// (JSON itself would leave DEL, C1 and the bidi controls literal).
fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if is_risky(c) => {
                // Every risky character is in the Basic Multilingual Plane.
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Returns `s` unchanged when it is safe to print, else its quoted form.
pub fn display(s: &str) -> Cow<'_, str> {
    if needs_quoting(s) {
        Cow::Owned(quote(s))
    } else {
        Cow::Borrowed(s)
    }
}

/// Escapes risky characters in free text (an error message) without quoting
/// the whole message, so ordinary messages stay readable.
pub fn escape_message(s: &str) -> Cow<'_, str> {
    if !s.chars().any(is_risky) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if is_risky(c) {
            let _ = write!(out, "\\u{:04x}", u32::from(c));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// An error and its causes as one terminal-safe line, nothing said twice
/// (a layer that quotes its cause, a cause that restates its context).
pub fn error_line(e: &anyhow::Error) -> String {
    let text = realdrift_core::pipeline::join_causes(e.chain().map(ToString::to_string));
    escape_message(&text).into_owned()
}

/// A compact JSON formatter that also escapes the risky characters JSON
/// leaves literal (DEL, C1, separators, bidi controls) as `\uXXXX`, so a
/// JSON line printed to a terminal carries no control text at all.
struct SafeJson;

impl serde_json::ser::Formatter for SafeJson {
    fn write_string_fragment<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        let mut start = 0;
        for (i, c) in fragment.char_indices() {
            if is_risky(c) {
                writer.write_all(&fragment.as_bytes()[start..i])?;
                write!(writer, "\\u{:04x}", u32::from(c))?;
                start = i + c.len_utf8();
            }
        }
        writer.write_all(&fragment.as_bytes()[start..])
    }
}

/// Writes `value` as one line of compact JSON with every risky character escaped.
pub fn write_json_line<W: io::Write, T: Serialize>(out: &mut W, value: &T) -> io::Result<()> {
    let mut ser = serde_json::Serializer::with_formatter(&mut *out, SafeJson);
    // `From` keeps the kind of an underlying write error (e.g. a broken pipe).
    value.serialize(&mut ser).map_err(io::Error::from)?;
    out.write_all(b"\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn has_risky(s: &str) -> bool {
        s.chars().any(is_risky)
    }

    #[test]
    fn plain_text_is_unchanged() {
        assert_eq!(display("Bucket.Versioning[x]"), "Bucket.Versioning[x]");
        assert!(matches!(display("abc"), Cow::Borrowed(_)));
    }

    #[test]
    fn control_characters_are_escaped() {
        let shown = display("a\nb\u{1b}[2Jc\u{7f}d\u{9b}e");
        assert_eq!(shown, "\"a\\nb\\u001b[2Jc\\u007fd\\u009be\"");
        assert!(!has_risky(&shown));
    }

    #[test]
    fn bidi_and_separators_are_escaped() {
        let shown = display("x\u{202e}y\u{2028}z\u{2066}");
        assert_eq!(shown, "\"x\\u202ey\\u2028z\\u2066\"");
    }

    #[test]
    fn edge_whitespace_and_leading_quote_are_quoted() {
        assert_eq!(display(" v "), "\" v \"");
        assert_eq!(display("\"v"), "\"\\\"v\"");
        assert_eq!(display(""), "\"\"");
    }

    #[test]
    fn distinct_inputs_display_distinctly() {
        assert_ne!(display("a\tb"), display("a b"));
        assert_ne!(display("a\\u0009b"), display("a\tb"));
    }

    #[test]
    fn json_lines_escape_what_json_leaves_literal() {
        let mut out = Vec::new();
        let v = serde_json::json!({"k\u{202e}": "a\u{1b}b\u{2028}c\u{85}d\u{7f}"});
        write_json_line(&mut out, &v).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(
            text,
            "{\"k\\u202e\":\"a\\u001bb\\u2028c\\u0085d\\u007f\"}\n"
        );
        let back: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(back, v);
    }

    #[test]
    fn messages_keep_plain_text_and_escape_controls() {
        assert_eq!(escape_message("no such file"), "no such file");
        assert_eq!(escape_message("bad\u{1b}]8;;x"), "bad\\u001b]8;;x");
    }
}
