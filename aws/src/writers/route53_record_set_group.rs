//! AWS::Route53::RecordSetGroup: one ChangeResourceRecordSets batch UPSERTing
//! each declared record set, converted from CloudFormation's names to Route
//! 53's. A value the conversion cannot use fails the call naming it (Route
//! 53 applies a batch all or nothing, so nothing is half-written).

use super::declared::{boolean, built, long, member, text, unusable};
use super::{op_error, sdk_error, service, AttemptError, WriteCall};
use crate::clients::AwsClients;
use aws_sdk_route53::types::{
    AliasTarget, Change, ChangeAction, ChangeBatch, GeoLocation, ResourceRecord, ResourceRecordSet,
    ResourceRecordSetFailover, ResourceRecordSetRegion, RrType,
};
use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use realdrift_core::revert::{ServiceOp, WriteOutcome};
use serde_json::Value;

/// Applies a batch of these calls (the writer's table row).
pub fn write(call: WriteCall<'_>) -> BoxFuture<'_, WriteOutcome> {
    service(call, apply)
}

/// One of an enum's documented values; any other text is refused.
fn known<T: for<'s> From<&'s str>>(
    v: &Value,
    path: &str,
    values: &[&str],
) -> Result<T, AttemptError> {
    let s = text(v, path)?;
    if values.contains(&s.as_str()) {
        Ok(T::from(s.as_str()))
    } else {
        Err(unusable(path))
    }
}

fn alias(v: &Value, p: &str) -> Result<AliasTarget, AttemptError> {
    let b = AliasTarget::builder()
        .set_dns_name(member(v, p, "DNSName", text)?)
        .set_hosted_zone_id(member(v, p, "HostedZoneId", text)?)
        .set_evaluate_target_health(member(v, p, "EvaluateTargetHealth", boolean)?);
    built(b.build(), p)
}

fn geo(v: &Value, p: &str) -> Result<GeoLocation, AttemptError> {
    Ok(GeoLocation::builder()
        .set_continent_code(member(v, p, "ContinentCode", text)?)
        .set_country_code(member(v, p, "CountryCode", text)?)
        .set_subdivision_code(member(v, p, "SubdivisionCode", text)?)
        .build())
}

fn values(v: &Value, p: &str) -> Result<Vec<ResourceRecord>, AttemptError> {
    let items = v.as_array().ok_or_else(|| unusable(p))?;
    items
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let path = format!("{p}.{i}");
            built(
                ResourceRecord::builder().value(text(r, &path)?).build(),
                &path,
            )
        })
        .collect()
}

/// One declared record set in Route 53's shape.
fn record_set(v: &Value, i: usize) -> Result<ResourceRecordSet, AttemptError> {
    let p = format!("RecordSets.{i}");
    let p = p.as_str();
    let b = ResourceRecordSet::builder()
        .set_name(member(v, p, "Name", text)?)
        .set_type(member(v, p, "Type", |t, path| {
            known::<RrType>(t, path, RrType::values())
        })?)
        .set_ttl(member(v, p, "TTL", long)?)
        .set_resource_records(member(v, p, "ResourceRecords", values)?)
        .set_alias_target(member(v, p, "AliasTarget", alias)?)
        .set_set_identifier(member(v, p, "SetIdentifier", text)?)
        .set_weight(member(v, p, "Weight", long)?)
        .set_region(member(v, p, "Region", |r, path| {
            known::<ResourceRecordSetRegion>(r, path, ResourceRecordSetRegion::values())
        })?)
        .set_failover(member(v, p, "Failover", |f, path| {
            known::<ResourceRecordSetFailover>(f, path, ResourceRecordSetFailover::values())
        })?)
        .set_multi_value_answer(member(v, p, "MultiValueAnswer", boolean)?)
        .set_health_check_id(member(v, p, "HealthCheckId", text)?)
        .set_geo_location(member(v, p, "GeoLocation", geo)?);
    built(b.build(), p)
}

/// The UPSERT batch of the declared record sets.
fn batch(record_sets: &[Value]) -> Result<ChangeBatch, AttemptError> {
    let mut changes = Vec::new();
    for (i, r) in record_sets.iter().enumerate() {
        let change = Change::builder()
            .action(ChangeAction::Upsert)
            .resource_record_set(record_set(r, i)?)
            .build();
        changes.push(built(change, &format!("RecordSets.{i}"))?);
    }
    built(
        ChangeBatch::builder().set_changes(Some(changes)).build(),
        "RecordSets",
    )
}

/// UPSERTs the group's record sets in one batch.
fn apply<'a>(
    clients: &'a AwsClients,
    op: &'a ServiceOp,
) -> BoxFuture<'a, Result<(), AttemptError>> {
    async move {
        let ServiceOp::ChangeRecordSets {
            hosted_zone_id,
            record_sets,
        } = op
        else {
            return Err(op_error("route53RecordSetGroup", op));
        };
        clients
            .route53
            .change_resource_record_sets()
            .hosted_zone_id(hosted_zone_id)
            .change_batch(batch(record_sets)?)
            .send()
            .await
            .map_err(|err| sdk_error("route53:ChangeResourceRecordSets", hosted_zone_id, &err))?;
        Ok(())
    }
    .boxed()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn declared_record_sets_convert_with_ttl_alias_and_routing() {
        let b = batch(&[
            json!({"Name": "api.example.com.", "Type": "A", "TTL": "300",
                   "ResourceRecords": ["192.0.2.10", "192.0.2.11"],
                   "SetIdentifier": "blue", "Weight": 10}),
            json!({"Name": "www.example.com.", "Type": "AAAA", "Failover": "PRIMARY",
                   "AliasTarget": {"DNSName": "lb.example.com.", "HostedZoneId": "Z2",
                                   "EvaluateTargetHealth": "true"}}),
        ])
        .unwrap();
        let sets: Vec<&ResourceRecordSet> = b
            .changes()
            .iter()
            .filter_map(|c| c.resource_record_set())
            .collect();
        assert_eq!(sets[0].ttl(), Some(300));
        assert_eq!(sets[0].resource_records().len(), 2);
        assert_eq!(sets[0].weight(), Some(10));
        assert_eq!(sets[1].r#type(), &RrType::Aaaa);
        assert_eq!(
            sets[1].failover(),
            Some(&ResourceRecordSetFailover::Primary)
        );
        assert!(sets[1].alias_target().unwrap().evaluate_target_health());
        assert!(b
            .changes()
            .iter()
            .all(|c| c.action() == &ChangeAction::Upsert));
    }

    #[test]
    fn a_mistyped_value_is_not_guessed() {
        let e = batch(&[json!({"Name": "a.", "Type": "A", "TTL": "five minutes"})]).unwrap_err();
        assert!(e.message.contains("RecordSets.0.TTL"), "{}", e.message);
        let e = batch(&[json!({"Name": "a.", "Type": "AXFR"})]).unwrap_err();
        assert!(e.message.contains("RecordSets.0.Type"), "{}", e.message);
        let e = batch(&[json!({"Name": "a.", "Type": "A", "Failover": "primary"})]).unwrap_err();
        assert!(e.message.contains("RecordSets.0.Failover"), "{}", e.message);
        let e = batch(&[json!({"Type": "A"})]).unwrap_err();
        assert!(
            e.message.contains("RecordSets.0 is incomplete"),
            "{}",
            e.message
        );
    }
}
