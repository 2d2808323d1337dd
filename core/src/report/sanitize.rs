//! Untrusted text in reports (seed 001): nothing from AWS, a baseline or a
//! template may steer the terminal.
//!
//! Identifiers (stack, region, logical id, type, path) lose every control,
//! bidi and escape character (a CSI sequence or a terminated OSC is removed
//! whole, anything else becomes a space) and are cut past 255 characters.
//! Values are never cut or altered: a value that could hide something is
//! shown as its JSON string, with every unsafe character as a `\uXXXX` escape.

use serde_json::Value;

/// Identifiers longer than this many characters are cut with `...`.
pub const MAX_IDENTIFIER_CHARS: usize = 255;

/// True for characters that must never reach a terminal or chat message raw:
/// C0, DEL, C1, line/paragraph separators, bidi controls, zero-width and BOM.
pub fn is_unsafe_char(c: char) -> bool {
    let u = c as u32;
    u < 0x20
        || (0x7f..=0x9f).contains(&u)
        || matches!(
            c,
            '\u{2028}' | '\u{2029}' | '\u{061c}' | '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}'
                | '\u{2060}'..='\u{2064}' | '\u{2066}'..='\u{2069}' | '\u{feff}'
        )
}

/// True for arrow characters, which could fake the `desired → actual` separator.
pub fn is_arrow(c: char) -> bool {
    matches!(c as u32,
        0x2190..=0x21ff | 0x27f0..=0x27ff | 0x2900..=0x297f | 0x2b00..=0x2bff
        | 0x2794..=0x27bf | 0xffe9..=0xffee | 0x1f800..=0x1f8ff)
}

/// An identifier made safe for a line-oriented report.
pub fn sanitize_identifier(s: &str) -> String {
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '\u{1b}' {
            match chars.get(i + 1) {
                Some('[') => {
                    // CSI: parameters and intermediates, then one final byte.
                    let mut j = i + 2;
                    while j < chars.len() && ('\u{20}'..='\u{3f}').contains(&chars[j]) {
                        j += 1;
                    }
                    if j < chars.len() && ('\u{40}'..='\u{7e}').contains(&chars[j]) {
                        i = j + 1;
                        continue;
                    }
                }
                Some(']') => {
                    // OSC: removed whole only when terminated (BEL or ESC \).
                    let mut j = i + 2;
                    let mut end = None;
                    while j < chars.len() {
                        if chars[j] == '\u{7}' {
                            end = Some(j + 1);
                            break;
                        }
                        if chars[j] == '\u{1b}' && chars.get(j + 1) == Some(&'\\') {
                            end = Some(j + 2);
                            break;
                        }
                        j += 1;
                    }
                    if let Some(e) = end {
                        i = e;
                        continue;
                    }
                }
                _ => {}
            }
            out.push(' ');
            i += 1;
            continue;
        }
        out.push(if is_unsafe_char(c) { ' ' } else { c });
        i += 1;
    }
    cut(out, MAX_IDENTIFIER_CHARS)
}

/// A finding's resource name or path for a report line: every unsafe
/// character written as `\uXXXX` and a backslash as `\\`, so the line is
/// terminal-safe and the printed path, pasted into an ignore rule, matches
/// the path itself (rule patterns read both escapes). Cut like identifiers.
pub fn escape_identifier(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c == '\\' {
            out.push_str("\\\\");
        } else if is_unsafe_char(c) {
            push_u_escape(&mut out, c);
        } else {
            out.push(c);
        }
    }
    cut(out, MAX_IDENTIFIER_CHARS)
}

fn cut(s: String, max: usize) -> String {
    if s.chars().count() <= max {
        return s;
    }
    let mut t: String = s.chars().take(max).collect();
    t.push_str("...");
    t
}

/// JSON text with every unsafe character written as a `\uXXXX` escape.
///
/// Only valid on JSON produced by serde_json: unsafe characters can occur
/// only inside strings there, so the escape keeps the document equivalent.
pub fn escape_json_text(json: &str) -> String {
    escape_json_where(json, is_unsafe_char)
}

fn escape_json_where(json: &str, escape: impl Fn(char) -> bool) -> String {
    let mut out = String::with_capacity(json.len());
    for c in json.chars() {
        // serde_json already escapes C0 inside strings; outside them a C0
        // character can only be the pretty printer's own newline.
        if (c as u32) >= 0x20 && escape(c) {
            push_u_escape(&mut out, c);
        } else {
            out.push(c);
        }
    }
    out
}

fn push_u_escape(out: &mut String, c: char) {
    let mut buf = [0u16; 2];
    for unit in c.encode_utf16(&mut buf) {
        out.push_str(&format!("\\u{unit:04x}"));
    }
}

/// True when a string value must be shown JSON-quoted to be read faithfully.
pub fn needs_quoting(s: &str) -> bool {
    s.is_empty()
        || s.starts_with('"')
        || s.starts_with(char::is_whitespace)
        || s.ends_with(char::is_whitespace)
        || s.contains("->")
        || s.chars().any(|c| is_unsafe_char(c) || is_arrow(c))
}

/// A property value for a report line: plain when harmless, JSON-quoted otherwise.
pub fn render_value(v: &Value) -> String {
    match v {
        Value::String(s) if !needs_quoting(s) => s.clone(),
        // Arrows are escaped too, so the only one outside quotes is the separator.
        other => escape_json_where(&serde_json::to_string(other).unwrap_or_default(), |c| {
            is_unsafe_char(c) || is_arrow(c)
        }),
    }
}

/// True when no unsafe character or escape is present (the sanitizer's guarantee).
pub fn is_terminal_safe(s: &str) -> bool {
    !s.chars().any(is_unsafe_char)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn identifiers_lose_sequences_and_controls() {
        assert_eq!(sanitize_identifier("a\u{1b}[2Jb"), "ab");
        assert_eq!(
            sanitize_identifier("a\u{1b}]8;;http://x\u{7}link\u{1b}]8;;\u{7}b"),
            "alinkb"
        );
        assert_eq!(sanitize_identifier("a\u{1b}7b"), "a 7b");
        assert_eq!(sanitize_identifier("a\nb\u{202e}c"), "a b c");
        assert_eq!(
            sanitize_identifier("a\u{1b}]unterminated"),
            "a ]unterminated"
        );
        assert_eq!(escape_identifier("a\u{1b}[2Jb"), "a\\u001b[2Jb");
        assert_eq!(escape_identifier("T[a\\b\u{202e}]"), "T[a\\\\b\\u202e]");
        let long = "x".repeat(300);
        let cut = sanitize_identifier(&long);
        assert_eq!(cut.chars().count(), MAX_IDENTIFIER_CHARS + 3);
        assert!(cut.ends_with("..."));
    }

    #[test]
    fn risky_values_are_json_quoted() {
        assert_eq!(render_value(&json!("plain value")), "plain value");
        assert_eq!(render_value(&json!("abc\n")), "\"abc\\n\"");
        assert_eq!(render_value(&json!(" pad ")), "\" pad \"");
        assert_eq!(render_value(&json!("x\u{1b}[2Jy")), "\"x\\u001b[2Jy\"");
        assert_eq!(render_value(&json!("a\u{2028}b")), "\"a\\u2028b\"");
        assert_eq!(render_value(&json!("a → b")), "\"a \\u2192 b\"");
        assert_eq!(render_value(&json!("a -> b")), "\"a -> b\"");
        assert_eq!(render_value(&json!("")), "\"\"");
        assert_eq!(
            render_value(&json!({"k": "v\u{85}"})),
            "{\"k\":\"v\\u0085\"}"
        );
        assert_eq!(render_value(&json!(5)), "5");
    }
}
