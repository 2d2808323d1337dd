//! Scalar equivalences: stringly-typed values, JSON text vs structure, PEM
//! armor, case-insensitive values, the `LATEST` sentinel and version
//! precision. Each is a pure predicate; callers decide where it applies.

use serde_json::Value;
use std::collections::BTreeMap;

/// The text form of a scalar (`5`, `true`, `"x"` -> `x`); `None` otherwise.
pub fn scalar_text(v: &Value) -> Option<std::borrow::Cow<'_, str>> {
    match v {
        Value::String(s) => Some(std::borrow::Cow::Borrowed(s)),
        Value::Number(n) => Some(std::borrow::Cow::Owned(n.to_string())),
        Value::Bool(b) => Some(std::borrow::Cow::Borrowed(if *b {
            "true"
        } else {
            "false"
        })),
        _ => None,
    }
}

/// True when two scalars differ only in type: `5` vs `"5"`, `40` vs
/// `"40.0"`, `true` vs `"true"`. Two values of the same JSON type are never
/// folded here (they are equal or not on their own).
pub fn is_stringly_equal(a: &Value, b: &Value) -> bool {
    let same_kind = matches!(
        (a, b),
        (Value::String(_), Value::String(_))
            | (Value::Number(_), Value::Number(_))
            | (Value::Bool(_), Value::Bool(_))
    );
    if same_kind {
        return false;
    }
    let (Some(x), Some(y)) = (scalar_text(a), scalar_text(b)) else {
        return false;
    };
    if x == y {
        return true;
    }
    match (a, b) {
        (Value::Number(_), Value::String(_)) | (Value::String(_), Value::Number(_)) => {
            match (x.trim().parse::<f64>(), y.trim().parse::<f64>()) {
                (Ok(p), Ok(q)) => p == q && !x.trim().is_empty() && !y.trim().is_empty(),
                _ => false,
            }
        }
        (Value::Bool(_), Value::String(_)) | (Value::String(_), Value::Bool(_)) => {
            x.eq_ignore_ascii_case(&y)
        }
        _ => false,
    }
}

/// [`is_stringly_equal`] for a declared value against what the read holds:
/// a template's boolean stored as text is `"true"` or `"false"` exactly (as
/// CloudFormation passes it to a string property), so `"FALSE"` read back
/// there was written by someone else. A template's text read back as a
/// boolean is still matched without case (`"True"` parses as `true`).
pub fn is_declared_stringly_equal(declared: &Value, live: &Value) -> bool {
    match (declared, live) {
        (Value::Bool(b), Value::String(s)) => s == if *b { "true" } else { "false" },
        _ => is_stringly_equal(declared, live),
    }
}

/// A template string spelling of a number or boolean, typed like the live
/// value it is compared with: CloudFormation passes `"512"` to a numeric
/// property as 512 and `"true"` to a boolean one as `true`, and the read
/// returns the typed value. `None` when `declared` is no such spelling.
pub fn typed_like(declared: &Value, live: &Value) -> Option<Value> {
    let s = declared.as_str()?.trim();
    match live {
        Value::Number(_) if !s.is_empty() => {
            if let Ok(i) = s.parse::<i64>() {
                return Some(Value::from(i));
            }
            s.parse::<f64>()
                .ok()
                .filter(|f| f.is_finite())
                .and_then(serde_json::Number::from_f64)
                .map(Value::Number)
        }
        Value::Bool(_) if s.eq_ignore_ascii_case("true") => Some(Value::Bool(true)),
        Value::Bool(_) if s.eq_ignore_ascii_case("false") => Some(Value::Bool(false)),
        _ => None,
    }
}

/// Converts the template strings in `v` (at dotted `path`, `*` for list
/// elements) that the schema types `integer`, `number` or `boolean`, as
/// CloudFormation does before it calls the handler: `"512"` becomes 512,
/// `"false"` becomes `false`. A string that does not parse stays as written.
pub fn type_by_schema(v: &mut Value, path: &str, types: &BTreeMap<String, String>) {
    type_below(v, &mut path.to_string(), types);
}

/// [`type_by_schema`] with the dotted path in one growing buffer; a branch
/// no typed path reaches into is skipped whole.
fn type_below(v: &mut Value, path: &mut String, types: &BTreeMap<String, String>) {
    // Typed paths that start with `path` sort together, from the first one
    // not below it.
    let reached = types
        .range::<str, _>((
            std::ops::Bound::Included(path.as_str()),
            std::ops::Bound::Unbounded,
        ))
        .next()
        .is_some_and(|(k, _)| k.starts_with(path.as_str()));
    if !reached {
        return;
    }
    let n = path.len();
    match v {
        Value::Object(o) => {
            for (k, x) in o.iter_mut() {
                path.push('.');
                path.push_str(k);
                type_below(x, path, types);
                path.truncate(n);
            }
        }
        Value::Array(a) => {
            path.push_str(".*");
            for x in a.iter_mut() {
                type_below(x, path, types);
            }
            path.truncate(n);
        }
        Value::String(s) => {
            let typed = match types.get(path.as_str()).map(String::as_str) {
                Some("boolean") => typed_like(&Value::String(s.clone()), &Value::Bool(false)),
                Some("integer") => s.trim().parse::<i64>().ok().map(Value::from),
                Some("number") => typed_like(&Value::String(s.clone()), &Value::from(0)),
                _ => None,
            };
            if let Some(t) = typed {
                *v = t;
            }
        }
        _ => {}
    }
}

/// Parses a string holding a JSON object or array (`None` for anything else).
pub fn parse_json_text(s: &str) -> Option<Value> {
    let t = s.trim_start();
    if !(t.starts_with('{') || t.starts_with('[')) {
        return None;
    }
    serde_json::from_str::<Value>(s)
        .ok()
        .filter(|v| v.is_object() || v.is_array())
}

/// A document held as text, parsed: JSON (see [`parse_json_text`]), or a
/// block YAML mapping or sequence (an SSM document in `YAML` format is
/// stored and read back as YAML text, though the template wrote an object).
/// Only a collection is a document; any other text is None.
pub fn parse_document_text(s: &str) -> Option<Value> {
    parse_json_text(s).or_else(|| parse_yaml_block(s))
}

/// [`parse_document_text`] for YAML: multi-line text whose first line opens
/// a block mapping (`key:`) or sequence (`- `).
fn parse_yaml_block(s: &str) -> Option<Value> {
    // One line is never a block (the cheap test first: most text is one line).
    if !s.trim_end().contains('\n') {
        return None;
    }
    let first = s
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#') && *l != "---")?;
    let block = first.starts_with("- ") || first.contains(": ") || first.ends_with(':');
    if !block {
        return None;
    }
    crate::template::read_yaml(s)
        .ok()
        .filter(|v| v.is_object() || v.is_array())
}

/// True when both sides are PEM-armored and equal modulo whitespace.
pub fn is_pem_equal(a: &str, b: &str) -> bool {
    fn norm(s: &str) -> Option<String> {
        if !s.contains("-----BEGIN") {
            return None;
        }
        Some(s.split_whitespace().collect::<Vec<_>>().join("\n"))
    }
    match (norm(a), norm(b)) {
        (Some(x), Some(y)) => x == y,
        _ => false,
    }
}

/// True when two strings are equal ignoring ASCII case.
pub fn is_case_insensitive_equal(a: &str, b: &str) -> bool {
    a.eq_ignore_ascii_case(b)
}

/// True when the declared value is the literal `LATEST` sentinel and the
/// live value is a concrete version AWS resolved it to.
pub fn is_latest_sentinel_match(declared: &str, live: &str) -> bool {
    declared == "LATEST"
        && !live.is_empty()
        && live.bytes().next().is_some_and(|b| b.is_ascii_digit())
}

/// True when one version is a leading dotted run of the other (`8.0` vs
/// `8.0.45`, `1.6.22` vs `1.6`). A different track still differs, and so
/// does a named level: the shorter must be a numeric track (digits and
/// dots), as `TLSv1` is a protocol floor of its own, not the track of
/// `TLSv1.2_2021`.
pub fn is_version_prefix_match(a: &str, b: &str) -> bool {
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    is_numeric_track(short)
        && long.len() > short.len()
        && long.starts_with(short)
        && long.as_bytes().get(short.len()) == Some(&b'.')
}

/// True for a dotted run of numbers (`8`, `8.0`, `1.6.22`).
fn is_numeric_track(s: &str) -> bool {
    !s.is_empty()
        && s.split('.')
            .all(|part| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit()))
}

/// True when `live` is `declared` epoch seconds rounded down to the hour.
pub fn is_epoch_hour_floor(declared: &Value, live: &Value) -> bool {
    match (declared.as_i64(), live.as_i64()) {
        (Some(d), Some(l)) => d != l && d - d.rem_euclid(3600) == l,
        _ => false,
    }
}

/// Redis/Valkey ACL strings are equal when `live` is `declared` with the
/// `-@all` a new user starts from written out before its first command
/// rule (the service inserts it). The ACL grammar makes that term a no-op
/// there; after a `+`/`-` rule it revokes, so it must precede every rule.
/// Order is semantic, so tokens are never sorted.
pub fn is_access_string_equal(declared: &str, live: &str) -> bool {
    let d: Vec<&str> = declared.split_whitespace().collect();
    let l: Vec<&str> = live.split_whitespace().collect();
    if d == l {
        return true;
    }
    let Some(at) = l.iter().position(|t| *t == "-@all") else {
        return false;
    };
    let is_rule = |t: &&str| t.starts_with('+') || t.starts_with('-');
    !l[..at].iter().any(is_rule)
        && !d.contains(&"-@all")
        && l.len() == d.len() + 1
        && l[..at] == d[..at]
        && l[at + 1..] == d[at..]
}

/// DNS names: case-insensitive, the trailing root dot optional.
pub fn is_dns_name_equal(a: &str, b: &str) -> bool {
    let (a, b) = (dns_unescape(a), dns_unescape(b));
    a.trim_end_matches('.')
        .eq_ignore_ascii_case(b.trim_end_matches('.'))
}

/// A DNS name with its `\ooo` escapes decoded: Route 53 saves a character
/// outside `a-z0-9-_` as a backslash and its three-digit octal code (a
/// wildcard `*.example.com` reads back as `\052.example.com.`). Only ASCII
/// codes are decoded; any other escape stays as written (and differs).
pub fn dns_unescape(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.contains('\\') {
        return std::borrow::Cow::Borrowed(s);
    }
    let b = s.as_bytes();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < b.len() {
        let code = b
            .get(i + 1..i + 4)
            .filter(|d| b[i] == b'\\' && d.iter().all(|c| (b'0'..=b'7').contains(c)))
            .and_then(|d| std::str::from_utf8(d).ok())
            .and_then(|d| u8::from_str_radix(d, 8).ok())
            .filter(u8::is_ascii);
        match code {
            Some(c) => {
                out.push(char::from(c));
                i += 4;
            }
            None => {
                let ch = s[i..].chars().next().unwrap_or('\u{fffd}');
                out.push(ch);
                i += ch.len_utf8();
            }
        }
    }
    std::borrow::Cow::Owned(out)
}

/// `rate(N unit)` in minutes, for `rate(...)` schedule expressions.
fn rate_minutes(s: &str) -> Option<u64> {
    let inner = s.trim().strip_prefix("rate(")?.strip_suffix(')')?;
    let (n, unit) = inner.trim().split_once(' ')?;
    let n: u64 = n.trim().parse().ok()?;
    let per = match unit.trim().trim_end_matches('s') {
        "minute" => 1,
        "hour" => 60,
        "day" => 1440,
        _ => return None,
    };
    n.checked_mul(per)
}

/// `rate(60 minutes)` and `rate(1 hour)` denote the same schedule.
pub fn is_rate_expression_equal(a: &str, b: &str) -> bool {
    matches!((rate_minutes(a), rate_minutes(b)), (Some(x), Some(y)) if x == y)
}

/// Decimal strings that denote the same number (`"100"` and `"100.0"`).
pub fn is_numeric_string_equal(a: &str, b: &str) -> bool {
    let num = |s: &str| {
        let t = s.trim();
        (!t.is_empty()
            && t.bytes()
                .all(|c| c.is_ascii_digit() || c == b'.' || c == b'-'))
        .then(|| t.parse::<f64>().ok())
        .flatten()
        .filter(|x| x.is_finite())
    };
    matches!((num(a), num(b)), (Some(x), Some(y)) if x == y)
}

/// A declared `Intelligent-Tiering` tier resolves to the concrete tier AWS
/// picked (`Standard` or `Advanced`); a concrete declared tier must match.
pub fn is_intelligent_tier_match(declared: &str, live: &str) -> bool {
    declared == "Intelligent-Tiering" && matches!(live, "Standard" | "Advanced")
}

/// Java-properties text (`key=value` lines) equal as a map: blank lines,
/// `#` comments, surrounding whitespace and line order do not matter.
pub fn is_properties_text_equal(a: &str, b: &str) -> bool {
    fn parse(s: &str) -> Option<std::collections::BTreeMap<&str, &str>> {
        let mut m = std::collections::BTreeMap::new();
        for line in s.lines().map(str::trim) {
            if line.is_empty() || line.starts_with('#') || line.starts_with('!') {
                continue;
            }
            let (k, v) = line.split_once('=')?;
            if m.insert(k.trim(), v.trim()).is_some() {
                return None;
            }
        }
        Some(m)
    }
    matches!((parse(a), parse(b)), (Some(x), Some(y)) if x == y)
}

/// Two OpenSSH public keys (`<type> <base64 key> [comment]`) that hold the
/// same key: the comment is a label, which EC2 replaces on import. A text
/// that is no such key (one field) is never equal this way.
pub fn is_ssh_public_key_equal(a: &str, b: &str) -> bool {
    fn key(s: &str) -> Option<(&str, &str)> {
        let mut f = s.split_whitespace();
        Some((f.next()?, f.next()?))
    }
    matches!((key(a), key(b)), (Some(x), Some(y)) if x == y)
}

/// CloudFormation's GetTemplate replaces every non-ASCII character with
/// `?`: a declared string that equals live except where it holds `?` for a
/// non-ASCII live character cannot be verified (never drift, never equal).
pub fn is_masked_non_ascii(declared: &str, live: &str) -> bool {
    let (d, l): (Vec<char>, Vec<char>) = (declared.chars().collect(), live.chars().collect());
    d.len() == l.len()
        && d.contains(&'?')
        && d.iter()
            .zip(&l)
            .all(|(x, y)| x == y || (*x == '?' && !y.is_ascii()))
        && l.iter().any(|c| !c.is_ascii())
}

/// Standard base64 (with padding) of a string's bytes (the `Fn::Base64` encoder).
pub fn base64_encode(s: &str) -> String {
    crate::template::base64::encode(s.as_bytes())
}

/// True when both strings are RFC 3339 timestamps of the same instant
/// (`2026-01-01T00:00:00Z` and `2026-01-01T00:00:00.000+00:00`): AWS
/// returns a declared time in its own precision and offset. Another
/// instant is a change.
pub fn is_same_instant(a: &str, b: &str) -> bool {
    use chrono::DateTime;
    a != b
        && matches!(
            (DateTime::parse_from_rfc3339(a), DateTime::parse_from_rfc3339(b)),
            (Ok(x), Ok(y)) if x == y
        )
}

/// True when both strings are one IP address or CIDR block spelled two
/// ways (`2001:DB8::/32` and `2001:db8::/32`, or IPv6 zeros written out):
/// AWS stores the canonical form. Another address or prefix is a change.
pub fn is_same_address(a: &str, b: &str) -> bool {
    fn parse(s: &str) -> Option<(std::net::IpAddr, Option<u8>)> {
        let (addr, len) = match s.split_once('/') {
            Some((addr, len)) => (addr, Some(len.parse::<u8>().ok()?)),
            None => (s, None),
        };
        Some((addr.parse().ok()?, len))
    }
    a != b && matches!((parse(a), parse(b)), (Some(x), Some(y)) if x == y)
}

/// The IP protocols AWS names by keyword, with their IANA numbers
/// (<https://www.iana.org/assignments/protocol-numbers>). EC2 accepts either
/// spelling in a rule's `IpProtocol` ("The IP protocol name (tcp, udp, icmp,
/// icmpv6) or number") and reads the keyword back.
const NAMED_IP_PROTOCOLS: [(&str, &str); 4] =
    [("tcp", "6"), ("udp", "17"), ("icmp", "1"), ("icmpv6", "58")];

/// True when both strings name one IP protocol, one by keyword and one by
/// its IANA number (`6` and `tcp`); another protocol is a change.
pub fn is_same_ip_protocol(a: &str, b: &str) -> bool {
    NAMED_IP_PROTOCOLS.iter().any(|(name, number)| {
        (a.eq_ignore_ascii_case(name) && b == *number)
            || (b.eq_ignore_ascii_case(name) && a == *number)
    })
}

/// True when `declared` is a number of `unit` (`1 vCPU`, `2GB`, `0.5 gb`)
/// and `live` the integer the service converts it to (`factor` per unit).
pub fn is_unit_string_equal(declared: &str, live: &str, unit: &str, factor: u32) -> bool {
    let d = declared.trim();
    let Some(number) = d
        .len()
        .checked_sub(unit.len())
        .filter(|&at| d.is_char_boundary(at) && d[at..].eq_ignore_ascii_case(unit))
        .map(|at| d[..at].trim_end())
    else {
        return false;
    };
    let (Ok(n), Ok(l)) = (number.parse::<f64>(), live.trim().parse::<u64>()) else {
        return false;
    };
    let stored = n * f64::from(factor);
    stored.fract() == 0.0 && stored >= 0.0 && stored == l as f64
}

#[cfg(test)]
mod tests {
    #[test]
    fn ssh_public_keys_compare_by_key_not_comment() {
        use super::is_ssh_public_key_equal as eq;
        let mine = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHk me@laptop";
        assert!(eq(
            mine,
            "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHk my-key-pair"
        ));
        assert!(eq(mine, "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHk"));
        assert!(!eq(
            mine,
            "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIXX me@laptop"
        ));
        assert!(!eq(mine, "ssh-rsa AAAAC3NzaC1lZDI1NTE5AAAAIHk me@laptop"));
        assert!(!eq("me@laptop", "me@laptop"));
    }

    use super::*;
    use serde_json::json;

    #[test]
    fn a_size_in_a_larger_unit_is_the_integer_it_converts_to() {
        assert!(is_unit_string_equal("1 vCPU", "1024", "vCPU", 1024));
        assert!(is_unit_string_equal("0.25 vcpu", "256", "vCPU", 1024));
        assert!(is_unit_string_equal("2GB", "2048", "GB", 1024));
        assert!(!is_unit_string_equal("2GB", "2000", "GB", 1024));
        assert!(!is_unit_string_equal("1 vCPU", "2048", "vCPU", 1024));
        assert!(!is_unit_string_equal("2 MB", "2048", "GB", 1024));
        assert!(!is_unit_string_equal("GB", "0", "GB", 1024));
    }

    #[test]
    fn a_protocol_by_number_is_its_keyword_but_not_another() {
        assert!(is_same_ip_protocol("6", "tcp"));
        assert!(is_same_ip_protocol("udp", "17"));
        assert!(is_same_ip_protocol("58", "ICMPv6"));
        assert!(!is_same_ip_protocol("6", "udp"));
        assert!(!is_same_ip_protocol("-1", "tcp"));
        assert!(!is_same_ip_protocol("47", "gre"));
    }

    #[test]
    fn one_instant_in_two_spellings_folds_but_another_instant_does_not() {
        let d = "2026-03-01T08:00:00Z";
        assert!(is_same_instant(d, "2026-03-01T08:00:00.000Z"));
        assert!(is_same_instant(d, "2026-03-01T09:00:00+01:00"));
        assert!(!is_same_instant(d, "2026-03-01T08:00:01Z"));
        assert!(!is_same_instant(d, "2026-03-01T08:00:00"));
        assert!(!is_same_instant("tomorrow", "tomorrow "));
    }

    #[test]
    fn one_address_in_two_spellings_folds_but_another_does_not() {
        assert!(is_same_address("2001:DB8::/32", "2001:db8::/32"));
        assert!(is_same_address("2001:db8:0:0::1", "2001:db8::1"));
        assert!(!is_same_address("2001:db8::/32", "2001:db8::/48"));
        assert!(!is_same_address("10.0.0.0/16", "10.1.0.0/16"));
        assert!(!is_same_address("10.0.0.0/16", "10.0.0.0"));
        assert!(!is_same_address("web", "WEB"));
    }

    #[test]
    fn stringly_typed_scalars_fold() {
        assert!(is_stringly_equal(&json!(5), &json!("5")));
        assert!(is_stringly_equal(&json!(40), &json!("40.0")));
        assert!(is_stringly_equal(&json!(true), &json!("true")));
        assert!(!is_stringly_equal(&json!(5), &json!("6")));
        assert!(!is_stringly_equal(&json!(false), &json!("true")));
        assert!(!is_stringly_equal(&json!("a"), &json!("A")));
        assert!(is_declared_stringly_equal(&json!(false), &json!("false")));
        assert!(!is_declared_stringly_equal(&json!(false), &json!("FALSE")));
        assert!(is_declared_stringly_equal(&json!("True"), &json!(true)));
    }

    #[test]
    fn version_and_sentinel_rules_are_narrow() {
        assert!(is_version_prefix_match("8.0", "8.0.45"));
        assert!(is_version_prefix_match("1.6.22", "1.6"));
        assert!(!is_version_prefix_match("8.0", "8.1.2"));
        assert!(!is_version_prefix_match("1.1", "1.10"));
        // A named level is not a track: CloudFront's TLSv1 floor is not
        // TLSv1.2_2021 (or TLSv1.1_2016) written shorter.
        assert!(!is_version_prefix_match("TLSv1", "TLSv1.2_2021"));
        assert!(!is_version_prefix_match("TLSv1.1_2016", "TLSv1"));
        assert!(is_version_prefix_match("16", "16.4"));
        assert!(is_latest_sentinel_match("LATEST", "1.4.0"));
        assert!(!is_latest_sentinel_match("1.3.0", "1.4.0"));
    }

    #[test]
    fn pem_whitespace_only() {
        let a = "-----BEGIN KEY-----\nAAA\n-----END KEY-----";
        assert!(is_pem_equal(a, &format!("{a}\n")));
        assert!(!is_pem_equal(
            a,
            "-----BEGIN KEY-----\nBBB\n-----END KEY-----"
        ));
    }

    #[test]
    fn service_rewrites_fold_but_changes_do_not() {
        assert!(is_epoch_hour_floor(&json!(1784632175), &json!(1784631600)));
        assert!(!is_epoch_hour_floor(&json!(1784632175), &json!(1784628000)));
        assert!(is_access_string_equal(
            "on ~app:* +@read",
            "on ~app:* -@all +@read"
        ));
        assert!(!is_access_string_equal(
            "on ~app:* +@read",
            "on ~app:* -@all +@write"
        ));
        assert!(is_dns_name_equal("a.internal", "A.internal."));
        assert!(!is_dns_name_equal("a.internal", "b.internal."));
        assert!(is_dns_name_equal("*.example.com", "\\052.example.com."));
        assert!(!is_dns_name_equal("*.example.com", "\\053.example.com."));
        assert!(!is_dns_name_equal("a.example.com", "\\052.example.com."));
        assert_eq!(dns_unescape("ex\\344mple.com"), "ex\\344mple.com");
        assert!(is_rate_expression_equal("rate(60 minutes)", "rate(1 hour)"));
        assert!(!is_rate_expression_equal(
            "rate(30 minutes)",
            "rate(1 hour)"
        ));
        assert!(is_masked_non_ascii(
            "?????",
            "\u{e1}\u{e9}\u{ed}\u{f3}\u{fa}"
        ));
        assert!(!is_masked_non_ascii("hello", "world"));
        assert!(!is_masked_non_ascii("a?", "ab"));
    }

    #[test]
    fn base64_matches_the_standard_encoding() {
        assert_eq!(base64_encode("cdkrd-hunt"), "Y2RrcmQtaHVudA==");
        assert_eq!(base64_encode("x"), "eA==");
        assert_eq!(base64_encode("abc"), "YWJj");
    }

    #[test]
    fn json_text_parses_only_structures() {
        assert!(parse_json_text("{\"a\":1}").is_some());
        assert!(parse_json_text("5").is_none());
        assert_eq!(
            parse_document_text("schemaVersion: '2.2'\nmainSteps:\n- name: run\n"),
            Some(serde_json::json!({"schemaVersion": "2.2", "mainSteps": [{"name": "run"}]}))
        );
        assert!(parse_document_text("just: one line").is_none());
        assert!(parse_document_text("plain text\nover two lines").is_none());
    }

    #[test]
    fn schema_types_convert_template_strings() {
        let types: BTreeMap<String, String> = [
            ("Size", "integer"),
            ("Rules.*.Enabled", "boolean"),
            ("Ratio", "number"),
        ]
        .into_iter()
        .map(|(p, t)| (p.to_string(), t.to_string()))
        .collect();
        let mut v = json!({"Size": "512", "Rules": [{"Enabled": "False"}], "Ratio": "0.5",
            "Name": "42", "Other": "x"});
        for (k, x) in v.as_object_mut().into_iter().flatten() {
            type_by_schema(x, k, &types);
        }
        assert_eq!(
            v,
            json!({"Size": 512, "Rules": [{"Enabled": false}], "Ratio": 0.5,
            "Name": "42", "Other": "x"})
        );
        // Not a number: left as written (CloudFormation would reject it).
        let mut bad = json!("5x");
        type_by_schema(&mut bad, "Size", &types);
        assert_eq!(bad, json!("5x"));
    }

    #[test]
    fn template_strings_take_the_live_type() {
        assert_eq!(typed_like(&json!("512"), &json!(1024)), Some(json!(512)));
        assert_eq!(typed_like(&json!(" 2.5"), &json!(1)), Some(json!(2.5)));
        assert_eq!(typed_like(&json!("TRUE"), &json!(false)), Some(json!(true)));
        assert_eq!(typed_like(&json!("yes"), &json!(false)), None);
        assert_eq!(typed_like(&json!("5x"), &json!(5)), None);
        assert_eq!(typed_like(&json!(""), &json!(0)), None);
        // A string property stays a string.
        assert_eq!(typed_like(&json!("5"), &json!("5")), None);
        assert_eq!(typed_like(&json!(5), &json!(5)), None);
    }

    #[test]
    fn numeric_strings_compare_as_numbers_only() {
        assert!(is_numeric_string_equal("100", "100.0"));
        assert!(!is_numeric_string_equal("100", "100.5"));
        assert!(!is_numeric_string_equal("1e2", "100"));
        assert!(!is_numeric_string_equal("", "0"));
    }

    #[test]
    fn intelligent_tiering_resolves_to_a_concrete_tier_only() {
        assert!(is_intelligent_tier_match("Intelligent-Tiering", "Standard"));
        assert!(is_intelligent_tier_match("Intelligent-Tiering", "Advanced"));
        assert!(!is_intelligent_tier_match("Standard", "Advanced"));
    }

    #[test]
    fn properties_text_ignores_order_and_blank_lines_but_not_values() {
        assert!(is_properties_text_equal("a=1\nb=2\n", "b = 2\n\n# c\na=1"));
        assert!(!is_properties_text_equal("a=1\nb=2", "a=1\nb=3"));
        assert!(!is_properties_text_equal("a=1", "a=1\nb=2"));
    }
}
