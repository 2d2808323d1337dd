//! Rule patterns: `*` matches any run of characters, `?` exactly one, `\`
//! escapes the next character; everything else is literal (so brackets in a
//! path such as `Roles[Admin]` match themselves).

use super::error::IgnoreError;
use regex::Regex;

/// A compiled pattern.
#[derive(Debug, Clone)]
pub struct Pattern {
    source: String,
    regex: Regex,
}

impl PartialEq for Pattern {
    fn eq(&self, other: &Self) -> bool {
        self.source == other.source
    }
}

impl Pattern {
    /// Compiles a pattern.
    pub fn new(source: &str) -> Result<Self, IgnoreError> {
        let mut re = String::from("(?s)^");
        let mut chars = source.chars();
        while let Some(c) = chars.next() {
            match c {
                '*' => re.push_str(".*"),
                '?' => re.push('.'),
                '\\' => {
                    let lit = chars.next().unwrap_or('\\');
                    re.push_str(&regex::escape(&lit.to_string()));
                }
                other => re.push_str(&regex::escape(&other.to_string())),
            }
        }
        re.push('$');
        let regex = Regex::new(&re).map_err(|e| IgnoreError::Pattern {
            pattern: source.to_string(),
            message: e.to_string(),
        })?;
        Ok(Pattern {
            source: source.to_string(),
            regex,
        })
    }

    /// The pattern as written.
    pub fn as_str(&self) -> &str {
        &self.source
    }

    /// True when the whole of `text` matches.
    pub fn matches(&self, text: &str) -> bool {
        self.regex.is_match(text)
    }
}

/// Escapes `*`, `?` and `\` so `text` matches only itself.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '*' | '?' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn star_question_and_literals() {
        let p = Pattern::new("*.DesiredCount").unwrap();
        assert!(p.matches("Service.DesiredCount"));
        assert!(p.matches("Prod/Api/Service.DesiredCount"));
        assert!(!p.matches("Service.DesiredCountX"));
        let q = Pattern::new("Fn?.Roles[Admin]").unwrap();
        assert!(q.matches("Fn1.Roles[Admin]"));
        assert!(!q.matches("Fn1.Roles[A]"));
    }

    #[test]
    fn escape_round_trips() {
        let raw = r"Tags[a*b?c\d]";
        let p = Pattern::new(&escape(raw)).unwrap();
        assert!(p.matches(raw));
        assert!(!p.matches("Tags[aXXb?c\\d]"));
    }
}
