//! AWS Security Hub findings (ASFF) from a transition's SNS document: one
//! finding per drifted property, with an Id stable across transitions
//! (account, Region, stack, logical id, path), so a later transition of the
//! same property updates the finding instead of adding one, and a resolved
//! one archives it.
//!
//! Facts (docs/organization.md, "Security Hub"): BatchImportFindings creates
//! or updates by `Id` + `ProductArn`; a finding provider may not change
//! `Workflow` after creation, so a resolved drift is `RecordState: ARCHIVED`
//! with `Compliance.Status: PASSED`; the caller's account must be the
//! finding's `AwsAccountId` with the default product
//! `arn:<partition>:securityhub:<region>:<account>:product/<account>/default`.

use super::sanitize::sanitize_identifier;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

/// The ASFF schema version Security Hub accepts.
pub const ASFF_SCHEMA_VERSION: &str = "2018-10-08";
/// The longest `Id` ASFF accepts.
pub const ASFF_MAX_ID: usize = 512;
/// The longest `Title` and `Description` ASFF accepts (AwsSecurityFinding,
/// Security Hub API reference): a longer one fails the whole import.
pub const ASFF_MAX_TITLE: usize = 256;
/// See [`ASFF_MAX_TITLE`].
pub const ASFF_MAX_DESCRIPTION: usize = 1024;
/// `GeneratorId` of every realdrift finding.
pub const ASFF_GENERATOR: &str = "realdrift";

/// The stable finding Id of one property; past ASFF's length, the tail is a digest.
pub fn asff_id(account: &str, region: &str, stack: &str, logical_id: &str, path: &str) -> String {
    let full = format!("realdrift/{account}/{region}/{stack}/{logical_id}/{path}");
    if full.len() <= ASFF_MAX_ID {
        return full;
    }
    let digest = Sha256::digest(full.as_bytes());
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    let head: String = full.chars().take(ASFF_MAX_ID - hex.len() - 1).collect();
    format!("{head}#{hex}")
}

/// The default product ARN of `account` in `region` (findings an account imports itself).
pub fn asff_product_arn(partition: &str, region: &str, account: &str) -> String {
    format!("arn:{partition}:securityhub:{region}:{account}:product/{account}/default")
}

/// An ASFF timestamp (RFC 3339, UTC, milliseconds) of `ms` since the epoch:
/// Security Hub applies an update only when its `UpdatedAt` is later than the
/// stored one, so two transitions in one second must still differ.
pub fn asff_timestamp(ms: u64) -> Option<String> {
    let ms = i64::try_from(ms).ok()?;
    chrono::DateTime::from_timestamp_millis(ms)
        .map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::Millis, true))
}

/// `s` cut to at most `max` characters (an ellipsis marks the cut).
fn capped(s: String, max: usize) -> String {
    if s.chars().count() <= max {
        return s;
    }
    let mut out: String = s.chars().take(max - 1).collect();
    out.push('…');
    out
}

fn text(doc: &Value, key: &str) -> String {
    doc.get(key)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string()
}

/// The ASFF findings a transition document announces: `drift-detected` ->
/// ACTIVE / FAILED, `drift-resolved` -> ARCHIVED / PASSED; coverage
/// transitions are about reads, not properties: none. `at` is the RFC 3339
/// time of the transition (CreatedAt of a new finding, UpdatedAt always).
pub fn asff_findings(doc: &Value, partition: &str, at: &str) -> Vec<Value> {
    let (state, compliance) = match doc.get("kind").and_then(Value::as_str) {
        Some("drift-detected") => ("ACTIVE", "FAILED"),
        Some("drift-resolved") => ("ARCHIVED", "PASSED"),
        _ => return Vec::new(),
    };
    let (account, region, stack) = (
        text(doc, "account"),
        text(doc, "region"),
        text(doc, "stack"),
    );
    if account.is_empty() || region.is_empty() || stack.is_empty() {
        // Fail closed: a finding without its account and place cannot be imported or deduplicated.
        return Vec::new();
    }
    let findings = doc
        .get("findings")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    findings
        .iter()
        .filter_map(|f| {
            let logical_id = f.get("logicalId")?.as_str()?;
            let path = f.get("path")?.as_str()?;
            let rtype = f.get("resourceType").and_then(Value::as_str).unwrap_or("Other");
            let tier = f.get("tier").and_then(Value::as_str).unwrap_or("drift");
            let physical = f.get("physicalId").and_then(Value::as_str).unwrap_or(logical_id);
            let title = format!("realdrift: {tier} drift of {logical_id}.{path} in {stack}");
            Some(json!({
                "SchemaVersion": ASFF_SCHEMA_VERSION,
                "Id": asff_id(&account, &region, &stack, logical_id, path),
                "ProductArn": asff_product_arn(partition, &region, &account),
                "GeneratorId": ASFF_GENERATOR,
                "AwsAccountId": account,
                "Region": region,
                "Types": ["Software and Configuration Checks"],
                "CreatedAt": at,
                "UpdatedAt": at,
                "Severity": { "Label": if state == "ACTIVE" { "MEDIUM" } else { "INFORMATIONAL" } },
                "Title": capped(sanitize_identifier(&title), ASFF_MAX_TITLE),
                "Description": capped(sanitize_identifier(&format!(
                    "{rtype} {logical_id} of stack {stack}: property {path} differs from the template or the accepted baseline ({tier})"
                )), ASFF_MAX_DESCRIPTION),
                "Resources": [{
                    "Type": "Other",
                    "Id": sanitize_identifier(physical),
                    "Partition": partition,
                    "Region": region,
                    "Details": { "Other": {
                        "stack": stack, "logicalId": logical_id, "resourceType": rtype, "path": path, "tier": tier
                    } },
                }],
                "Compliance": { "Status": compliance },
                "RecordState": state,
            }))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(kind: &str) -> Value {
        json!({
            "version": 1, "kind": kind, "account": "111111111111", "region": "eu-west-1", "stack": "Payments",
            "findings": [
                {"tier": "undeclared", "logicalId": "Bucket", "resourceType": "AWS::S3::Bucket",
                 "physicalId": "payments-bucket", "path": "VersioningConfiguration.Status", "actual": "Suspended"},
                {"tier": "declared", "logicalId": "Queue", "resourceType": "AWS::SQS::Queue", "path": "VisibilityTimeout"}
            ]
        })
    }

    #[test]
    fn one_finding_per_property_with_an_id_stable_across_transitions() {
        let detected = asff_findings(&doc("drift-detected"), "aws", "2026-01-02T03:04:05Z");
        let resolved = asff_findings(&doc("drift-resolved"), "aws", "2026-01-03T00:00:00Z");
        assert_eq!(detected.len(), 2);
        let ids = |v: &[Value]| v.iter().map(|f| f["Id"].clone()).collect::<Vec<_>>();
        assert_eq!(
            ids(&detected),
            ids(&resolved),
            "resolve updates the same findings"
        );
        assert_eq!(
            detected[0]["Id"],
            "realdrift/111111111111/eu-west-1/Payments/Bucket/VersioningConfiguration.Status"
        );
        assert_eq!(
            detected[0]["ProductArn"],
            "arn:aws:securityhub:eu-west-1:111111111111:product/111111111111/default"
        );
        assert_eq!(
            (
                detected[0]["RecordState"].as_str(),
                detected[0]["Compliance"]["Status"].as_str()
            ),
            (Some("ACTIVE"), Some("FAILED"))
        );
        assert_eq!(
            (
                resolved[0]["RecordState"].as_str(),
                resolved[0]["Compliance"]["Status"].as_str()
            ),
            (Some("ARCHIVED"), Some("PASSED"))
        );
        assert!(
            detected[0].get("Workflow").is_none(),
            "a provider may not set Workflow on update"
        );
    }

    #[test]
    fn coverage_transitions_and_placeless_documents_give_nothing() {
        assert!(asff_findings(&doc("coverage-lost"), "aws", "t").is_empty());
        let mut d = doc("drift-detected");
        d["account"] = json!("");
        assert!(asff_findings(&d, "aws", "t").is_empty());
    }

    #[test]
    fn a_long_path_keeps_title_and_description_within_asffs_limits() {
        let mut d = doc("drift-detected");
        d["findings"][0]["path"] = json!(format!("Tags.{}", "k".repeat(2000)));
        let f = &asff_findings(&d, "aws", "t")[0];
        let chars = |k: &str| f[k].as_str().map(|s| s.chars().count());
        assert!(chars("Title").is_some_and(|n| n <= ASFF_MAX_TITLE), "{f}");
        assert!(
            chars("Description").is_some_and(|n| n <= ASFF_MAX_DESCRIPTION),
            "{f}"
        );
    }

    #[test]
    fn timestamps_are_utc_with_milliseconds() {
        assert_eq!(
            asff_timestamp(1_767_225_600_123).as_deref(),
            Some("2026-01-01T00:00:00.123Z")
        );
    }

    #[test]
    fn an_overlong_id_keeps_asffs_limit_and_stays_distinct() {
        let a = asff_id("1", "r", "S", "L", &"x".repeat(600));
        let b = asff_id("1", "r", "S", "L", &format!("{}y", "x".repeat(599)));
        assert!(a.len() <= ASFF_MAX_ID && b.len() <= ASFF_MAX_ID);
        assert_ne!(a, b);
    }
}
