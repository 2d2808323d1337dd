//! AWS::Route53::RecordSetGroup: one ChangeResourceRecordSets batch that
//! UPSERTs every declared record set of the group (Route 53 applies a batch
//! all or nothing). Only the declared record sets: one added out of band is
//! not the group's (the reader never looks it up) and is left alone. A
//! record set member the writer does not map refuses the whole group.

use super::{declared_json, declared_text};
use crate::revert::input::RevertResource;
use crate::revert::model::{RefusalReason, ServiceOp};
use crate::revert::target::Refused;
use serde_json::Value;

/// The record set members the writer maps (CloudFormation names;
/// aws/src/writers/route53_record_set_group.rs converts exactly these).
pub(super) const RECORD_MEMBERS: &[&str] = &[
    "Name",
    "Type",
    "TTL",
    "ResourceRecords",
    "AliasTarget",
    "SetIdentifier",
    "Weight",
    "Region",
    "Failover",
    "MultiValueAnswer",
    "HealthCheckId",
    "GeoLocation",
    "HostedZoneId",
];

/// The members of a record set's structures the writer maps.
const STRUCTURE_MEMBERS: &[(&str, &[&str])] = &[
    (
        "AliasTarget",
        &["DNSName", "HostedZoneId", "EvaluateTargetHealth"],
    ),
    (
        "GeoLocation",
        &["ContinentCode", "CountryCode", "SubdivisionCode"],
    ),
];

/// The UPSERT batch of every declared record set, in the group's zone.
pub(super) fn upsert(res: &RevertResource) -> Result<ServiceOp, Refused> {
    if res.declared.contains_key("HostedZoneName") && !res.declared.contains_key("HostedZoneId") {
        return Err(refused(
            "HostedZoneName",
            "the group names its zone by name only; the writer needs HostedZoneId",
        ));
    }
    let hosted_zone_id = declared_text(res, "HostedZoneId")?;
    let Some(Value::Array(record_sets)) = declared_json(res, "RecordSets")? else {
        return Err(super::missing("RecordSets"));
    };
    for (i, r) in record_sets.iter().enumerate() {
        mapped(r, i, &hosted_zone_id)?;
    }
    Ok(ServiceOp::ChangeRecordSets {
        hosted_zone_id,
        record_sets,
    })
}

fn refused(path: &str, why: &str) -> Refused {
    (
        RefusalReason::NoWriter,
        format!("declared {path} is not written by the route53RecordSetGroup writer: {why}"),
    )
}

/// Refuses a record set holding a member (or structure member) not mapped.
fn mapped(record: &Value, i: usize, zone: &str) -> Result<(), Refused> {
    let Some(m) = record.as_object() else {
        return Err(refused(&format!("RecordSets.{i}"), "not a record set"));
    };
    if let Some(k) = m.keys().find(|k| !RECORD_MEMBERS.contains(&k.as_str())) {
        return Err(refused(
            &format!("RecordSets.{i}.{k}"),
            "ChangeResourceRecordSets would get the record set without it",
        ));
    }
    if m.get("HostedZoneId")
        .is_some_and(|z| z.as_str() != Some(zone))
    {
        return Err(refused(
            &format!("RecordSets.{i}.HostedZoneId"),
            "a record set in another zone than the group's is not written",
        ));
    }
    for (s, members) in STRUCTURE_MEMBERS {
        let Some(v) = m.get(*s) else { continue };
        let keys = v.as_object().map(|o| o.keys()).into_iter().flatten();
        if let Some(k) = keys.into_iter().find(|k| !members.contains(&k.as_str())) {
            return Err(refused(
                &format!("RecordSets.{i}.{s}.{k}"),
                "not mapped, and the record set is written whole",
            ));
        }
    }
    // Route 53 requires EvaluateTargetHealth on an alias; no default is guessed.
    if m.get("AliasTarget")
        .is_some_and(|a| a.get("EvaluateTargetHealth").is_none())
    {
        return Err(refused(
            &format!("RecordSets.{i}.AliasTarget"),
            "it declares no EvaluateTargetHealth, which ChangeResourceRecordSets requires",
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::declared::DeclaredValue;
    use serde_json::json;

    fn group(declared: Value) -> RevertResource {
        let mut res = RevertResource {
            physical_id: Some("api-records".into()),
            ..RevertResource::default()
        };
        if let DeclaredValue::Object(m) = DeclaredValue::from_json(&declared) {
            res.declared = m;
        }
        res
    }

    #[test]
    fn every_declared_record_set_is_upserted_in_one_batch() {
        let sets = json!([
            {"Name": "api.example.com.", "Type": "A", "TTL": "300", "ResourceRecords": ["192.0.2.10"]},
            {"Name": "www.example.com.", "Type": "A", "AliasTarget":
                {"DNSName": "lb.example.com.", "HostedZoneId": "Z2", "EvaluateTargetHealth": false}}
        ]);
        let op = upsert(&group(json!({"HostedZoneId": "Z1", "RecordSets": sets}))).unwrap();
        assert_eq!(
            op,
            ServiceOp::ChangeRecordSets {
                hosted_zone_id: "Z1".into(),
                record_sets: sets.as_array().unwrap().clone()
            }
        );
    }

    #[test]
    fn an_unmapped_member_or_a_zone_by_name_is_refused_naming_it() {
        let res = group(json!({"HostedZoneId": "Z1", "RecordSets": [
            {"Name": "a.example.com.", "Type": "A", "TTL": "60", "ResourceRecords": ["192.0.2.1"]},
            {"Name": "b.example.com.", "Type": "A", "CidrRoutingConfig": {"CollectionId": "c", "LocationName": "l"}}
        ]}));
        let (reason, message) = upsert(&res).unwrap_err();
        assert_eq!(reason, RefusalReason::NoWriter);
        assert!(
            message.contains("RecordSets.1.CidrRoutingConfig"),
            "{message}"
        );
        let alias = group(json!({"HostedZoneId": "Z1", "RecordSets": [
            {"Name": "a.example.com.", "Type": "A", "AliasTarget": {"DNSName": "d", "HostedZoneId": "Z2"}}
        ]}));
        let (_, message) = upsert(&alias).unwrap_err();
        assert!(message.contains("EvaluateTargetHealth"), "{message}");
        let by_name = group(json!({"HostedZoneName": "example.com.", "RecordSets": []}));
        let (reason, message) = upsert(&by_name).unwrap_err();
        assert_eq!(reason, RefusalReason::NoWriter);
        assert!(message.contains("HostedZoneName"), "{message}");
    }
}
