//! Property paths (concrete, while walking a value) and path patterns (`*`).
//!
//! A concrete path renders the way findings spell it: `A.B`, `A.0.B` for a
//! positional element, `A[<id>].B` for an identity-keyed element. A pattern is
//! dotted with `*` standing for any array element (positional or keyed).

use serde_json::Value;
use std::fmt::Write as _;

/// One step of a concrete path.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Seg {
    /// An object key.
    Key(String),
    /// A positional array element.
    Index(usize),
    /// An array element addressed by its identity value.
    Id(String),
}

/// A concrete path, built incrementally while walking a value.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Path(Vec<Seg>);

impl Path {
    /// Parses a path as findings render it (`A.0.B`, `A[id].B`): a numeric
    /// step is an array position, `[...]` an identity (dots inside literal).
    pub fn parse_rendered(text: &str) -> Self {
        Path(
            segments(text)
                .into_iter()
                .map(|seg| match seg {
                    Segment::Key(k) => k.parse::<usize>().map_or(Seg::Key(k.into()), Seg::Index),
                    Segment::Ident(id) => Seg::Id(id.into()),
                })
                .collect(),
        )
    }

    /// The empty (root) path.
    pub fn root() -> Self {
        Path(Vec::new())
    }

    /// A one-key path.
    pub fn key(k: &str) -> Self {
        Path(vec![Seg::Key(k.to_string())])
    }

    /// This path extended by one segment.
    pub fn child(&self, seg: Seg) -> Self {
        let mut v = Vec::with_capacity(self.0.len() + 1);
        v.extend_from_slice(&self.0);
        v.push(seg);
        Path(v)
    }

    /// This path extended by an object key.
    pub fn with_key(&self, k: &str) -> Self {
        self.child(Seg::Key(k.to_string()))
    }

    /// Appends an object key (walks push and pop instead of cloning).
    pub fn push_key(&mut self, k: &str) {
        self.0.push(Seg::Key(k.to_string()));
    }

    /// Appends a segment.
    pub fn push(&mut self, seg: Seg) {
        self.0.push(seg);
    }

    /// Removes the last segment.
    pub fn pop(&mut self) {
        self.0.pop();
    }

    /// True when a plain dotted pattern (`A.*.B`, no `[id]` segments, as the
    /// registry schema writes them) matches this path, without parsing it.
    pub fn matches_dotted(&self, pattern: &str) -> bool {
        // The pattern ends exactly after the last segment's step.
        self.walk_dotted(pattern).is_some_and(|rest| rest.is_none())
    }

    /// True when this path is a strict prefix of the dotted pattern (the
    /// pattern reaches below this path).
    pub fn is_prefix_of_dotted(&self, pattern: &str) -> bool {
        self.walk_dotted(pattern).is_some_and(|rest| rest.is_some())
    }

    /// Steps the dotted pattern over every segment (as `pattern.split('.')`
    /// would, without searching each step for its dot first: most patterns
    /// differ in their first bytes). `None`: a step does not match, or the
    /// pattern ends before the path; else what follows the last matched
    /// step's dot (`None` at the end; the whole pattern for the root).
    fn walk_dotted<'p>(&self, pattern: &'p str) -> Option<Option<&'p str>> {
        let mut rest = Some(pattern);
        for s in &self.0 {
            let r = rest?;
            let n = dotted_step(s, r)?;
            // `n` ends the step: at the pattern's end or at a dot.
            rest = r.get(n + 1..);
        }
        Some(rest)
    }

    /// The segments.
    pub fn segs(&self) -> &[Seg] {
        &self.0
    }

    /// Number of segments.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// True for the root path.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The first key (the top-level property), if any.
    pub fn top(&self) -> Option<&str> {
        match self.0.first() {
            Some(Seg::Key(k)) => Some(k),
            _ => None,
        }
    }

    /// The last object key on the path, if the path ends in one.
    pub fn last_key(&self) -> Option<&str> {
        match self.0.last() {
            Some(Seg::Key(k)) => Some(k),
            _ => None,
        }
    }

    /// The property that holds the value at this path: the last object key,
    /// looking through array elements (`AllowHeaders` for `AllowHeaders.0`).
    pub fn holder_key(&self) -> Option<&str> {
        self.0.iter().rev().find_map(|s| match s {
            Seg::Key(k) => Some(k.as_str()),
            _ => None,
        })
    }

    /// Renders the finding path syntax.
    pub fn render(&self) -> String {
        // Sized up front: a finding renders its path once, and growing the
        // string step by step reallocated it several times.
        let cap = self
            .0
            .iter()
            .map(|s| match s {
                Seg::Key(k) => k.len() + 3,
                Seg::Index(_) => 4,
                Seg::Id(id) => id.len() + 2,
            })
            .sum();
        let mut out = String::with_capacity(cap);
        for (i, s) in self.0.iter().enumerate() {
            match s {
                Seg::Key(k) => {
                    if i > 0 {
                        out.push('.');
                    }
                    push_key(&mut out, k);
                }
                Seg::Index(n) => {
                    if i > 0 {
                        out.push('.');
                    }
                    let _ = write!(out, "{n}");
                }
                Seg::Id(id) => {
                    out.push('[');
                    out.push_str(id);
                    out.push(']');
                }
            }
        }
        out
    }

    /// The path with keyed elements written positionally as `*` (for display
    /// and pattern building).
    pub fn generic(&self) -> String {
        let mut out = String::new();
        for (i, s) in self.0.iter().enumerate() {
            if i > 0 {
                out.push('.');
            }
            match s {
                Seg::Key(k) => push_key(&mut out, k),
                Seg::Index(_) | Seg::Id(_) => out.push('*'),
            }
        }
        out
    }
}

/// Writes an object key as a path segment: quoted (`"a.b"`) when it holds a
/// character of the path syntax, so a Glue table parameter
/// `projection.date.format` stays one key and is never read back as three.
/// A key that itself holds `"` is written as is.
fn push_key(out: &mut String, k: &str) {
    let special = k.is_empty() || k.starts_with('"') || k.contains(['.', '[', ']']);
    if special && !k.contains('"') {
        out.push('"');
        out.push_str(k);
        out.push('"');
    } else {
        out.push_str(k);
    }
}

/// Every value a dotted pattern's segments reach below `root` (`*` steps
/// into every element of a list), with `None` where a member is absent.
pub fn values_at<'v>(root: Option<&'v Value>, pattern: &[&str]) -> Vec<Option<&'v Value>> {
    let Some((head, tail)) = pattern.split_first() else {
        return vec![root];
    };
    match (root, *head) {
        (Some(Value::Array(a)), "*") => a.iter().flat_map(|e| values_at(Some(e), tail)).collect(),
        (Some(Value::Object(m)), k) => values_at(m.get(k), tail),
        _ => vec![None],
    }
}

/// One segment of a finding path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Segment<'a> {
    /// An object key (or a numeric array index).
    Key(&'a str),
    /// An array element named by its identity (`[<id>]`).
    Ident(&'a str),
}

/// Splits a path into segments; brackets may hold dots (`[/dev/sdf]`,
/// `[s3.amazonaws.com]`), and so may a quoted key (`Parameters."a.b"`).
pub fn segments(path: &str) -> Vec<Segment<'_>> {
    let mut out = Vec::new();
    let bytes = path.as_bytes();
    let mut i = 0;
    let mut start = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' if i == start => {
                let close = path[i + 1..].find('"').map(|p| i + 1 + p);
                match close {
                    Some(c) => {
                        out.push(Segment::Key(&path[i + 1..c]));
                        i = c + 1;
                    }
                    None => {
                        out.push(Segment::Key(&path[i..]));
                        i = bytes.len();
                    }
                }
                start = i;
            }
            b'.' => {
                if i > start {
                    out.push(Segment::Key(&path[start..i]));
                }
                i += 1;
                start = i;
            }
            b'[' => {
                if i > start {
                    out.push(Segment::Key(&path[start..i]));
                }
                let close = path[i + 1..].find(']').map(|p| i + 1 + p);
                match close {
                    Some(c) => {
                        out.push(Segment::Ident(&path[i + 1..c]));
                        i = c + 1;
                    }
                    None => {
                        out.push(Segment::Key(&path[i..]));
                        i = bytes.len();
                    }
                }
                start = i;
            }
            _ => i += 1,
        }
    }
    if start < bytes.len() {
        out.push(Segment::Key(&path[start..]));
    }
    out
}

/// One step of a path pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
enum PatSeg {
    Key(String),
    Id(String),
    Any,
}

/// A dotted path pattern: `*` matches any array element (or free-form map
/// key), `[id]` matches the element with that identity value, and `[pre*]`
/// any element whose identity starts with `pre`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pattern(Vec<PatSeg>);

impl Pattern {
    /// Parses `A.B.*.C` / `A[some.id].C` (dots inside `[...]` are literal).
    pub fn parse(text: &str) -> Self {
        Pattern(
            segments(text)
                .into_iter()
                .map(|seg| match seg {
                    Segment::Key("*") => PatSeg::Any,
                    Segment::Key(k) => PatSeg::Key(k.into()),
                    Segment::Ident(id) => PatSeg::Id(id.into()),
                })
                .collect(),
        )
    }

    /// True when the pattern matches the whole path.
    pub fn matches(&self, path: &Path) -> bool {
        self.0.len() == path.0.len() && self.prefix_of(path)
    }

    /// True when the pattern matches the leading segments of the path.
    pub fn prefix_of(&self, path: &Path) -> bool {
        self.0.len() <= path.0.len() && segs_match(&self.0, &path.0)
    }

    /// Number of segments that name one key or element (not `*`): the
    /// higher, the more specific the pattern.
    pub fn fixed_segments(&self) -> usize {
        self.0.iter().filter(|s| !matches!(s, PatSeg::Any)).count()
    }

    /// True when `path` matches the leading segments of this pattern (the
    /// pattern reaches below `path`).
    pub fn extends(&self, path: &Path) -> bool {
        self.0.len() > path.0.len() && segs_match(&self.0[..path.0.len()], &path.0)
    }

    /// Number of segments.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// True for an empty pattern.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The first segment when it is a plain key.
    pub fn top(&self) -> Option<&str> {
        match self.0.first() {
            Some(PatSeg::Key(k)) => Some(k),
            _ => None,
        }
    }
}

/// The length of the first step of dotted pattern `rest` when it matches
/// `seg` (`*` matches any segment; a key matches the step equal to it, a
/// number the position it spells), else `None`. The step boundary is tested
/// before any bytes are compared, as most steps differ in length.
fn dotted_step(seg: &Seg, rest: &str) -> Option<usize> {
    let bounded = |n: usize| rest.len() == n || rest.as_bytes().get(n) == Some(&b'.');
    if bounded(1) && rest.starts_with('*') {
        return Some(1);
    }
    match seg {
        // A key holding a dot spans two steps, so it never equals one.
        Seg::Key(k) => (bounded(k.len()) && rest.starts_with(k.as_str()) && !k.contains('.'))
            .then_some(k.len()),
        Seg::Index(i) => {
            let n = rest.bytes().position(|b| b == b'.').unwrap_or(rest.len());
            (rest[..n].parse::<usize>().ok() == Some(*i)).then_some(n)
        }
        Seg::Id(_) => None,
    }
}

/// True when each pattern step matches the path step beside it (the shorter
/// side bounds the comparison).
fn segs_match(pats: &[PatSeg], segs: &[Seg]) -> bool {
    // From the last step: candidates are indexed by their first key, which
    // then always matches, while the last steps tell most of them apart.
    pats.iter().zip(segs).rev().all(|(p, s)| match (p, s) {
        (PatSeg::Any, _) => true,
        (PatSeg::Key(k), Seg::Key(x)) => k == x,
        (PatSeg::Key(k), Seg::Index(n)) => k.parse::<usize>().ok() == Some(*n),
        (PatSeg::Key(_), Seg::Id(_)) => false,
        (PatSeg::Id(i), Seg::Id(x)) => {
            i == x || i.strip_suffix('*').is_some_and(|p| x.starts_with(p))
        }
        (PatSeg::Id(_), _) => false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The dotted matches as first written (split on every dot), which the
    /// step-by-step walk must agree with.
    fn split_reference(path: &Path, pattern: &str) -> (bool, bool) {
        let ok = |s: &Seg, p: &str| match s {
            Seg::Key(k) => p == "*" || p == k,
            Seg::Index(n) => p == "*" || p.parse::<usize>().ok() == Some(*n),
            Seg::Id(_) => p == "*",
        };
        let pieces: Vec<&str> = pattern.split('.').collect();
        let steps = path.0.len().min(pieces.len());
        let all = path.0.iter().zip(&pieces).all(|(s, p)| ok(s, p));
        let matches = all && pieces.len() == path.0.len();
        let prefix = all && steps == path.0.len() && pieces.len() > path.0.len();
        (matches, prefix)
    }

    #[test]
    fn dotted_matches_agree_with_splitting_on_every_dot() {
        let paths = [
            Path::root(),
            Path::key("A"),
            Path::key(""),
            Path::key("*"),
            Path::key("a.b"),
            Path::key("A").with_key("B"),
            Path::key("A").child(Seg::Index(3)).with_key("B"),
            Path::key("A").child(Seg::Index(12)),
            Path::key("A").child(Seg::Id("x.y".into())).with_key("B"),
            Path::key("AB").with_key("C"),
            Path::key("a.b").with_key("c"),
        ];
        let patterns = [
            "", ".", "A", "A.", ".A", "A.B", "A.*.B", "A.*", "*", "*.B", "A.3.B", "A.03.B", "A.12",
            "A.1", "A.*.B.C", "AB.C", "A.BC", "a.b", "a.b.c", "a.*", "*.*", "**", "A*",
        ];
        for p in &paths {
            for pat in patterns {
                let (m, pre) = split_reference(p, pat);
                assert_eq!(p.matches_dotted(pat), m, "{p:?} matches {pat:?}");
                assert_eq!(p.is_prefix_of_dotted(pat), pre, "{p:?} prefix of {pat:?}");
            }
        }
    }

    #[test]
    fn a_key_with_a_dot_is_quoted_and_reads_back_as_one_key() {
        let p = Path::key("TableInput")
            .with_key("Parameters")
            .with_key("projection.date.format");
        let text = p.render();
        assert_eq!(text, r#"TableInput.Parameters."projection.date.format""#);
        assert_eq!(Path::parse_rendered(&text), p);
        assert_eq!(
            segments(&text).last(),
            Some(&Segment::Key("projection.date.format"))
        );
        let header = Path::key("RequestParameters").with_key("integration.request.header.x");
        assert_eq!(Path::parse_rendered(&header.render()), header);
        assert!(Pattern::parse(r#"TableInput.Parameters."projection.date.format""#).matches(&p));
        // Plain keys and identities are written as before.
        let plain = Path::key("Tags")
            .child(Seg::Id("a.b".into()))
            .with_key("Value");
        assert_eq!(plain.render(), "Tags[a.b].Value");
    }

    #[test]
    fn a_rendered_path_parses_back_to_the_path_that_rendered_it() {
        for text in ["A.B", "A.0.B", "Tags[cdkrd:ephemeral].Value", "O[a.b|c].2"] {
            assert_eq!(Path::parse_rendered(text).render(), text);
        }
        assert!(Pattern::parse("Replicas.*.TableClass")
            .matches(&Path::parse_rendered("Replicas.1.TableClass")));
    }

    #[test]
    fn renders_keys_indexes_and_ids() {
        let p = Path::key("A")
            .child(Seg::Id("x.y".into()))
            .with_key("B")
            .child(Seg::Index(2))
            .with_key("C");
        assert_eq!(p.render(), "A[x.y].B.2.C");
        assert_eq!(p.generic(), "A.*.B.*.C");
    }

    #[test]
    fn pattern_star_matches_elements_only_where_written() {
        let pat = Pattern::parse("A.*.B");
        assert!(pat.matches(&Path::key("A").child(Seg::Id("k".into())).with_key("B")));
        assert!(pat.matches(&Path::key("A").child(Seg::Index(0)).with_key("B")));
        assert!(!pat.matches(&Path::key("A").with_key("B")));
        let p = Path::key("A").child(Seg::Index(3)).with_key("B");
        assert!(p.matches_dotted("A.*.B"));
        assert!(!p.matches_dotted("A.*"));
        assert!(Path::key("A").is_prefix_of_dotted("A.*.B"));
        assert!(!p.is_prefix_of_dotted("A.*.B"));
        let bag = Pattern::parse("Attrs[a.b.c].V");
        assert!(bag.matches(
            &Path::key("Attrs")
                .child(Seg::Id("a.b.c".into()))
                .with_key("V")
        ));
        assert!(!bag.matches(&Path::key("Attrs").child(Seg::Id("x".into())).with_key("V")));
        assert!(!pat.matches(&Path::key("A").child(Seg::Index(0)).with_key("C")));
        assert!(Pattern::parse("A").prefix_of(&Path::key("A").with_key("B")));
        let ns = Pattern::parse("Opts[ns:a|*]");
        assert!(ns.matches(&Path::key("Opts").child(Seg::Id("ns:a|X".into()))));
        assert!(!ns.matches(&Path::key("Opts").child(Seg::Id("ns:ab|X".into()))));
    }
}
