//! Rule patterns: `*` matches any run of characters, `?` exactly one, `\`
//! escapes the next character and `\uXXXX` is the character with that code
//! (how the report prints a control character in a path, so a printed path
//! can be pasted into a rule); everything else is literal (so brackets in a
//! path such as `Roles[Admin]` match themselves).
//!
//! Matching is a plain wildcard matcher over the pattern's tokens: no regex
//! is compiled per rule, so a file of many rules costs memory in proportion
//! to its text, and one match costs time linear in the text for patterns
//! with at most one `*` (the common case).

use super::error::IgnoreError;

/// One pattern element.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Token {
    /// This character.
    Lit(char),
    /// Any one character.
    One,
    /// Any run of characters, empty included.
    Star,
}

/// A compiled pattern.
#[derive(Debug, Clone)]
pub struct Pattern {
    source: String,
    tokens: Box<[Token]>,
}

impl PartialEq for Pattern {
    fn eq(&self, other: &Self) -> bool {
        self.source == other.source
    }
}

impl Pattern {
    /// Compiles a pattern.
    pub fn new(source: &str) -> Result<Self, IgnoreError> {
        let bad = |message: &str| IgnoreError::Pattern {
            pattern: source.to_string(),
            message: message.to_string(),
        };
        let mut tokens = Vec::with_capacity(source.len());
        let mut chars = source.chars();
        while let Some(c) = chars.next() {
            let token = match c {
                // Consecutive stars mean the same as one.
                '*' if tokens.last() == Some(&Token::Star) => continue,
                '*' => Token::Star,
                '?' => Token::One,
                '\\' => match chars.next() {
                    None => {
                        return Err(bad("ends with a lone '\\' (write '\\\\' for a backslash)"))
                    }
                    Some('u') => {
                        let hex: String = chars.by_ref().take(4).collect();
                        let code = (hex.len() == 4)
                            .then(|| u32::from_str_radix(&hex, 16).ok())
                            .flatten()
                            .and_then(char::from_u32)
                            .ok_or_else(|| bad("'\\u' needs four hex digits naming a character"))?;
                        Token::Lit(code)
                    }
                    Some(lit) => Token::Lit(lit),
                },
                other => Token::Lit(other),
            };
            tokens.push(token);
        }
        Ok(Pattern {
            source: source.to_string(),
            tokens: tokens.into_boxed_slice(),
        })
    }

    /// The pattern as written.
    pub fn as_str(&self) -> &str {
        &self.source
    }

    /// True when the whole of `text` matches.
    pub fn matches(&self, text: &str) -> bool {
        let chars: Vec<char> = text.chars().collect();
        self.matches_chars(&chars)
    }

    /// True when the whole of `text` (as characters) matches.
    ///
    /// Greedy matching that backtracks only to the last `*`: an earlier star
    /// never needs to absorb more once a later one matched.
    pub fn matches_chars(&self, text: &[char]) -> bool {
        let p = &self.tokens;
        let (mut pi, mut ti) = (0, 0);
        let mut resume: Option<(usize, usize)> = None;
        while ti < text.len() {
            match p.get(pi) {
                Some(Token::Star) => {
                    resume = Some((pi + 1, ti));
                    pi += 1;
                }
                Some(Token::One) => {
                    pi += 1;
                    ti += 1;
                }
                Some(Token::Lit(c)) if *c == text[ti] => {
                    pi += 1;
                    ti += 1;
                }
                _ => match resume {
                    Some((after_star, from)) => {
                        pi = after_star;
                        ti = from + 1;
                        resume = Some((after_star, from + 1));
                    }
                    None => return false,
                },
            }
        }
        p[pi..].iter().all(|t| *t == Token::Star)
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
        let r = Pattern::new("a*b*c").unwrap();
        assert!(r.matches("abc") && r.matches("axxbyyc") && r.matches("abbbc"));
        assert!(!r.matches("acb") && !r.matches("ab"));
        assert!(Pattern::new("**").unwrap().matches(""));
        assert!(!Pattern::new("?").unwrap().matches(""));
    }

    #[test]
    fn escape_round_trips() {
        let raw = r"Tags[a*b?c\d]";
        let p = Pattern::new(&escape(raw)).unwrap();
        assert!(p.matches(raw));
        assert!(!p.matches("Tags[aXXb?c\\d]"));
    }

    #[test]
    fn a_trailing_backslash_is_refused() {
        let err = Pattern::new("Bucket.Tags\\").unwrap_err();
        assert!(err.to_string().contains("lone '\\'"), "{err}");
        assert!(Pattern::new("Bucket.Tags\\\\")
            .unwrap()
            .matches("Bucket.Tags\\"));
    }

    #[test]
    fn u_escapes_name_characters_as_the_report_prints_them() {
        let p = Pattern::new("Bucket.Tags[a\\u001bb]").unwrap();
        assert!(p.matches("Bucket.Tags[a\u{1b}b]"));
        assert!(!p.matches("Bucket.Tags[a\\u001bb]"));
        assert!(Pattern::new("a\\u00").is_err());
        assert!(Pattern::new("a\\uzzzz").is_err());
        assert!(
            Pattern::new("a\\ud800").is_err(),
            "a surrogate is no character"
        );
    }

    #[test]
    fn adversarial_stars_stay_fast() {
        let p = Pattern::new(&"*a".repeat(200)).unwrap();
        let text: Vec<char> = "a".repeat(199).chars().chain(['b']).collect();
        assert!(!p.matches_chars(&text));
    }
}
