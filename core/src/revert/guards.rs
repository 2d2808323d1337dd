//! Safety checks a write must pass: nothing read-only or computed, nothing
//! secret-bearing, nothing create-only (a change there replaces the resource).

use super::model::RefusalReason;
use super::target::Refused;
use crate::baseline::{below, facts as baseline_facts};
use crate::declared::CORPUS_UNRESOLVED_MARKER;
use crate::normalize::path::values_at;
use crate::report::is_secret_marker;
use crate::schema::SchemaFacts;
use serde_json::Value;
use std::collections::BTreeSet;

/// Refuses a read-only property or a computed signal (a digest the reader
/// projects, which has no write target).
pub(crate) fn writable(
    resource_type: &str,
    path: &str,
    top: &str,
    schema: Option<&SchemaFacts>,
) -> Result<(), Refused> {
    if let Some(fp) = baseline_facts().fingerprint_for(resource_type, path) {
        return Err((
            RefusalReason::ReadOnly,
            format!(
                "a digest computed from {}; nothing writes it — redeploy the intended source",
                fp.sources.join(", ")
            ),
        ));
    }
    let read_only = schema.is_some_and(|s| {
        s.read_only.iter().any(|p| p == top)
            || s.read_only_paths
                .iter()
                .any(|p| pattern_covers(p, &dotted(path)))
    });
    if read_only {
        return Err((
            RefusalReason::ReadOnly,
            "a read-only property of the resource type; it cannot be written".into(),
        ));
    }
    // Compared only because a service reader read it back (a launch
    // template's default version data): Cloud Control patches the model its
    // read handler returns, which never holds a write-only property.
    if schema.is_some_and(|s| s.write_only.iter().any(|p| p == top)) {
        return Err((
            RefusalReason::NoWriter,
            format!(
                "{top} is write-only in the registry schema: Cloud Control's update patches the model its read handler returns, which never holds it, and no service writer writes it"
            ),
        ));
    }
    Ok(())
}

/// Refuses a path that overlaps a declared secret position (a NoEcho
/// parameter or a dynamic reference): the value there cannot be certified.
pub(crate) fn not_secret(secret_paths: &BTreeSet<String>, paths: &[&str]) -> Result<(), Refused> {
    let hit = secret_paths.iter().any(|s| {
        paths
            .iter()
            .any(|p| s == p || below(s, p).is_some() || below(p, s).is_some())
    });
    if hit {
        return Err(secret_refusal());
    }
    Ok(())
}

/// The refusal for a secret-bearing position (never names a value).
pub(crate) fn secret_refusal() -> Refused {
    (
        RefusalReason::Secret,
        "a secret-bearing position (NoEcho parameter or dynamic reference): the value cannot be certified and is never written by a plan — redeploy to restore it"
            .into(),
    )
}

/// Refuses writing a value that holds a secret marker or an unresolved leaf.
pub(crate) fn certain(v: &Value) -> Result<(), Refused> {
    if holds_marker(v) {
        return Err(secret_refusal());
    }
    if holds(v, &|s| s == CORPUS_UNRESOLVED_MARKER) {
        return Err((
            RefusalReason::Unresolved,
            "the value to write holds an unresolved template value".into(),
        ));
    }
    Ok(())
}

fn holds(v: &Value, hit: &dyn Fn(&str) -> bool) -> bool {
    match v {
        Value::String(s) => hit(s),
        Value::Array(a) => a.iter().any(|x| holds(x, hit)),
        Value::Object(m) => m.values().any(|x| holds(x, hit)),
        _ => false,
    }
}

/// True when a value holds a secret marker anywhere (`{{resolve:...}}`, `***`).
pub(crate) fn holds_marker(v: &Value) -> bool {
    holds(v, &is_secret_marker)
}

/// Refuses writing `target` at member chain `keys` when that changes a
/// create-only path (at, above or below `keys`). Conditional create-only
/// paths are not barred: they are mutable in the common case.
pub(crate) fn not_create_only(
    schema: Option<&SchemaFacts>,
    keys: &[String],
    target: Option<&Value>,
    live: Option<&Value>,
) -> Result<(), Refused> {
    let Some(schema) = schema else {
        return Ok(());
    };
    let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
    for c in schema.create_only_paths.iter().chain(&schema.create_only) {
        let pat: Vec<&str> = c.split('.').collect();
        let changes = if pat.len() <= keys.len() {
            prefix_matches(&pat, &keys)
        } else if prefix_matches(&pat[..keys.len()], &keys) {
            let rest = &pat[keys.len()..];
            values_at(target, rest) != values_at(live, rest)
        } else {
            false
        };
        if changes {
            return Err((
                RefusalReason::CreateOnly,
                format!(
                    "create-only property {c}: changing it requires replacing the resource, which an in-place update cannot do"
                ),
            ));
        }
    }
    Ok(())
}

/// A finding path as plain dotted segments (identity brackets kept whole).
fn dotted(path: &str) -> Vec<&str> {
    crate::baseline::segments(path)
        .into_iter()
        .map(|s| match s {
            crate::baseline::Segment::Key(k) | crate::baseline::Segment::Ident(k) => k,
        })
        .collect()
}

/// True when a schema pattern (`*` = any element) is `path` or an ancestor of it.
fn pattern_covers(pattern: &str, path: &[&str]) -> bool {
    let pat: Vec<&str> = pattern.split('.').collect();
    pat.len() <= path.len() && prefix_matches(&pat, path)
}

fn prefix_matches(pat: &[&str], keys: &[&str]) -> bool {
    pat.iter().zip(keys).all(|(p, k)| *p == "*" || p == k)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schema(create_only: &[&str], read_only: &[&str]) -> SchemaFacts {
        SchemaFacts {
            create_only_paths: create_only.iter().map(|s| s.to_string()).collect(),
            read_only_paths: read_only.iter().map(|s| s.to_string()).collect(),
            ..SchemaFacts::default()
        }
    }

    fn keys(p: &str) -> Vec<String> {
        p.split('.').map(String::from).collect()
    }

    #[test]
    fn a_read_back_write_only_property_is_not_written_through_cloud_control() {
        let s = SchemaFacts {
            write_only: vec!["LaunchTemplateData".into()],
            ..SchemaFacts::default()
        };
        let r = writable(
            "AWS::EC2::LaunchTemplate",
            "LaunchTemplateData.InstanceType",
            "LaunchTemplateData",
            Some(&s),
        );
        assert_eq!(r.map_err(|e| e.0), Err(RefusalReason::NoWriter));
        let ok = writable(
            "AWS::EC2::LaunchTemplate",
            "LaunchTemplateName",
            "LaunchTemplateName",
            Some(&s),
        );
        assert!(ok.is_ok());
    }

    #[test]
    fn create_only_at_above_or_changed_below_is_refused() {
        let s = schema(&["BucketName", "Config.Engine", "Nodes.*.Zone"], &[]);
        let r = |k: &str, t: Value, l: Value| {
            not_create_only(Some(&s), &keys(k), Some(&t), Some(&l)).map_err(|e| e.0)
        };
        assert_eq!(
            r("BucketName", json!("b"), json!("a")),
            Err(RefusalReason::CreateOnly)
        );
        assert_eq!(
            r("Config.Engine.Version", json!(1), json!(2)),
            Err(RefusalReason::CreateOnly)
        );
        // Writing a parent whose create-only member keeps its value is fine.
        assert_eq!(
            r(
                "Config",
                json!({"Engine": "x", "Size": 2}),
                json!({"Engine": "x", "Size": 1})
            ),
            Ok(())
        );
        assert_eq!(
            r("Config", json!({"Engine": "y"}), json!({"Engine": "x"})),
            Err(RefusalReason::CreateOnly)
        );
        assert_eq!(
            r(
                "Nodes",
                json!([{"Zone": "a"}, {"Zone": "b"}]),
                json!([{"Zone": "a"}])
            ),
            Err(RefusalReason::CreateOnly)
        );
        assert_eq!(r("Other", json!(1), json!(2)), Ok(()));
    }

    #[test]
    fn read_only_paths_and_computed_digests_are_not_writable() {
        let s = schema(&[], &["Endpoint.Address"]);
        assert!(writable("AWS::X::Y", "Endpoint.Address", "Endpoint", Some(&s)).is_err());
        assert!(writable("AWS::X::Y", "Endpoint.Port", "Endpoint", Some(&s)).is_ok());
        let e = writable("AWS::Lambda::Function", "CodeSha256", "CodeSha256", None).unwrap_err();
        assert_eq!(e.0, RefusalReason::ReadOnly);
        assert!(e.1.contains("Code"));
    }

    #[test]
    fn secret_positions_overlap_in_both_directions() {
        let secrets: BTreeSet<String> = ["Environment.Variables.PW".to_string()].into();
        assert!(not_secret(&secrets, &["Environment"]).is_err());
        assert!(not_secret(&secrets, &["Environment.Variables.PW"]).is_err());
        assert!(not_secret(&secrets, &["Environment.Variables.MODE"]).is_ok());
        assert!(holds_marker(&json!({"a": ["{{resolve:ssm-secure:p}}"]})));
        assert!(holds_marker(&json!("***")));
        assert!(!holds_marker(&json!({"a": "plain"})));
    }
}
