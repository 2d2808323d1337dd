//! `Fn::Sub` template strings: splitting into literal text and `${...}` variables.

/// One piece of a `Fn::Sub` string.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Piece<'a> {
    /// Text copied as is.
    Text(&'a str),
    /// A `${Name}` variable (without the braces).
    Var(&'a str),
}

/// Splits a Sub string. `${!X}` is the literal `${X}`. `None` when a `${`
/// is never closed or names nothing, which CloudFormation rejects.
pub(crate) fn pieces(s: &str) -> Option<Vec<Piece<'_>>> {
    let mut out = Vec::new();
    let mut rest = s;
    while let Some(i) = rest.find("${") {
        if i > 0 {
            out.push(Piece::Text(&rest[..i]));
        }
        let after = &rest[i + 2..];
        if let Some(escaped) = after.strip_prefix('!') {
            // Escape: emit "${" and keep scanning after the '!'.
            out.push(Piece::Text("${"));
            rest = escaped;
            continue;
        }
        let close = after.find('}')?;
        let name = &after[..close];
        if name.is_empty() {
            return None;
        }
        out.push(Piece::Var(name));
        rest = &after[close + 1..];
    }
    if !rest.is_empty() {
        out.push(Piece::Text(rest));
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::{pieces, Piece::*};

    #[test]
    fn splits_text_and_vars() {
        assert_eq!(
            pieces("arn:${AWS::Partition}:s3:::${Bucket}/*").unwrap(),
            vec![
                Text("arn:"),
                Var("AWS::Partition"),
                Text(":s3:::"),
                Var("Bucket"),
                Text("/*")
            ]
        );
        assert_eq!(pieces("").unwrap(), vec![]);
        assert_eq!(pieces("$x {y}").unwrap(), vec![Text("$x {y}")]);
    }

    #[test]
    fn literal_escape() {
        assert_eq!(
            pieces("${!Literal}-${X}").unwrap(),
            vec![Text("${"), Text("Literal}-"), Var("X")]
        );
    }

    #[test]
    fn malformed_is_none() {
        assert_eq!(pieces("${Open"), None);
        assert_eq!(pieces("a${}b"), None);
    }
}
