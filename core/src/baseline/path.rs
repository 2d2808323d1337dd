//! Finding paths: dotted segments with identity-keyed elements (`Prop[<id>].sub`).

use serde_json::Value;

pub use crate::normalize::path::{segments, Segment};

/// The byte offsets where a path can be cut into a parent path (before `.` or `[`,
/// outside identity brackets and quoted keys).
pub fn parent_cuts(path: &str) -> Vec<usize> {
    let mut cuts = Vec::new();
    let mut depth = 0usize;
    let mut quoted = false;
    for (i, c) in path.char_indices() {
        match c {
            '"' if depth == 0 => quoted = !quoted,
            _ if quoted => {}
            '[' if depth == 0 => {
                if i > 0 {
                    cuts.push(i);
                }
                depth += 1;
            }
            '[' => depth += 1,
            ']' => depth = depth.saturating_sub(1),
            '.' if depth == 0 && i > 0 => cuts.push(i),
            _ => {}
        }
    }
    cuts
}

/// The remainder of `path` below `ancestor` (`None` unless `ancestor` is a proper parent).
pub fn below<'a>(ancestor: &str, path: &'a str) -> Option<&'a str> {
    let rest = path.strip_prefix(ancestor)?;
    if ancestor.is_empty() {
        return None;
    }
    if let Some(r) = rest.strip_prefix('.') {
        return (!r.is_empty()).then_some(r);
    }
    rest.starts_with('[').then_some(rest)
}

/// What a lookup of a sub-path inside a value found.
#[derive(Debug, Clone, PartialEq)]
pub enum Lookup<'a> {
    /// The value at the sub-path.
    Found(&'a Value),
    /// The containing object exists and lacks the key.
    Missing,
    /// The shape does not allow a certain answer.
    Unknown,
}

/// Looks up a relative path inside a value; identity segments match exactly one element.
pub fn lookup<'a>(value: &'a Value, rel: &str) -> Lookup<'a> {
    let mut cur = value;
    for seg in segments(rel) {
        cur = match (seg, cur) {
            (Segment::Key(k), Value::Object(m)) => match m.get(k) {
                Some(v) => v,
                None => return Lookup::Missing,
            },
            (Segment::Key(k), Value::Array(a)) => {
                match k.parse::<usize>().ok().and_then(|i| a.get(i)) {
                    Some(v) => v,
                    None => return Lookup::Unknown,
                }
            }
            (Segment::Ident(id), Value::Array(a)) => {
                let mut hits = a.iter().filter(|e| element_has_identity(e, id));
                match (hits.next(), hits.next()) {
                    (Some(v), None) => v,
                    _ => return Lookup::Unknown,
                }
            }
            _ => return Lookup::Unknown,
        };
    }
    Lookup::Found(cur)
}

fn element_has_identity(element: &Value, id: &str) -> bool {
    match element {
        Value::String(s) => s == id,
        Value::Object(m) => m.values().any(|v| v.as_str() == Some(id)),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_quoted_key_is_never_cut() {
        let p = r#"TableInput.Parameters."projection.date.format""#;
        assert_eq!(parent_cuts(p), vec![10, 21]);
        assert_eq!(
            below("TableInput.Parameters", p),
            Some(r#""projection.date.format""#)
        );
    }

    #[test]
    fn segments_keep_dots_inside_brackets() {
        assert_eq!(
            segments("BlockDeviceMappings[/dev/sdf].Ebs.VolumeSize"),
            vec![
                Segment::Key("BlockDeviceMappings"),
                Segment::Ident("/dev/sdf"),
                Segment::Key("Ebs"),
                Segment::Key("VolumeSize")
            ]
        );
        assert_eq!(parent_cuts("A[x.y].B"), vec![1, 6]);
    }

    #[test]
    fn below_requires_a_segment_boundary() {
        assert_eq!(below("Tags", "Tags.0.Key"), Some("0.Key"));
        assert_eq!(below("Roles", "Roles[R1]"), Some("[R1]"));
        assert_eq!(below("Tag", "Tags.0"), None);
        assert_eq!(below("Tags", "Tags"), None);
    }

    #[test]
    fn lookup_distinguishes_missing_from_unknown() {
        let v = json!({"A": {"B": 1}, "L": [{"Key": "k", "Value": "v"}, "s"]});
        assert_eq!(lookup(&v, "A.B"), Lookup::Found(&json!(1)));
        assert_eq!(lookup(&v, "A.C"), Lookup::Missing);
        assert_eq!(lookup(&v, "L[k].Value"), Lookup::Found(&json!("v")));
        assert_eq!(lookup(&v, "L[zzz]"), Lookup::Unknown);
        assert_eq!(lookup(&v, "A.B.C"), Lookup::Unknown);
    }
}
