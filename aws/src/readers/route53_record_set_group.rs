//! AWS::Route53::RecordSetGroup: each declared record set, looked up in its
//! hosted zone with ListResourceRecordSets by name, type and set identifier
//! (a group has no id of its own at Route 53).

use super::{declared_target, put, AwsClients, Model};
use crate::errors::{describe, ErrorClass};
use aws_sdk_route53::types::{ResourceRecordSet, RrType};
use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use realdrift_core::declared::DeclaredValue;
use realdrift_core::pipeline::{Projection, ReadOutcome, ReadRequest};
use serde_json::{json, Map, Value};

/// What the reader maps; a record set's own `HostedZoneName` is a readGap
/// (added per record below), the group's too.
pub const PROJECTION: Projection = Projection {
    resource_type: "AWS::Route53::RecordSetGroup",
    reads: &["HostedZoneId", "RecordSets"],
    leaves_out: "Route 53 keeps no change comment, and a zone is read by HostedZoneId only",
};

/// Reads every declared record set of the group in declared order; a group
/// none of whose records is left is gone.
pub fn read<'a>(clients: &'a AwsClients, req: &'a ReadRequest) -> BoxFuture<'a, ReadOutcome> {
    async move {
        let zone = match declared_target(req, "HostedZoneId") {
            Ok(z) => z.to_string(),
            Err(o) => return *o,
        };
        let wanted = match declared_records(req) {
            Ok(w) => w,
            Err(o) => return *o,
        };
        let mut sets = Vec::new();
        let mut gaps = Vec::new();
        for (i, key) in wanted.iter().enumerate() {
            let in_zone = key.zone.clone().unwrap_or_else(|| zone.clone());
            match lookup(clients, &in_zone, key).await {
                Ok(Some(rrs)) => {
                    let mut m = record_model(&rrs);
                    if key.zone.is_some() {
                        m.insert("HostedZoneId".into(), json!(in_zone));
                    }
                    sets.push(Value::Object(m));
                }
                Ok(None) => {}
                Err(o) => return *o,
            }
            if key.zone_name {
                gaps.push(format!("RecordSets.{i}.HostedZoneName"));
            }
        }
        if sets.is_empty() && !wanted.is_empty() {
            return ReadOutcome::NotFound;
        }
        let mut model = Model::new(
            PROJECTION,
            req,
            json!({"HostedZoneId": zone, "RecordSets": sets}),
        );
        for g in gaps {
            let why = format!("{}: {}", PROJECTION.resource_type, PROJECTION.leaves_out);
            model.gap(g, why);
        }
        model.found()
    }
    .boxed()
}

/// Which record set to look up: Route 53 keys one by name, type and set id.
struct RecordKey {
    name: String,
    kind: String,
    set_id: Option<String>,
    /// The record's own zone, when it names one.
    zone: Option<String>,
    /// The record names its zone by name only (not read).
    zone_name: bool,
}

/// The declared record sets' keys; an unresolved key cannot be looked up.
fn declared_records(req: &ReadRequest) -> Result<Vec<RecordKey>, Box<ReadOutcome>> {
    let unresolved = || {
        Box::new(ReadOutcome::TargetUnresolved {
            reason: format!("{} RecordSets is not resolved", req.resource_type),
        })
    };
    let items = match req.declared.get("RecordSets") {
        None => return Ok(Vec::new()),
        Some(DeclaredValue::Array(items)) => items,
        Some(_) => return Err(unresolved()),
    };
    let text = |m: &std::collections::BTreeMap<String, DeclaredValue>, k: &str| match m.get(k) {
        Some(DeclaredValue::String(s)) => Some(s.clone()),
        _ => None,
    };
    let mut out = Vec::new();
    for item in items {
        let DeclaredValue::Object(m) = item else {
            return Err(unresolved());
        };
        let (Some(name), Some(kind)) = (text(m, "Name"), text(m, "Type")) else {
            return Err(unresolved());
        };
        if m.get("SetIdentifier")
            .is_some_and(|v| !v.is_fully_resolved())
            || m.get("HostedZoneId")
                .is_some_and(|v| !v.is_fully_resolved())
        {
            return Err(unresolved());
        }
        out.push(RecordKey {
            name,
            kind,
            set_id: text(m, "SetIdentifier"),
            zone: text(m, "HostedZoneId"),
            zone_name: m.contains_key("HostedZoneName"),
        });
    }
    Ok(out)
}

/// The record set with this key, `None` when the zone no longer holds it.
async fn lookup(
    clients: &AwsClients,
    zone: &str,
    key: &RecordKey,
) -> Result<Option<ResourceRecordSet>, Box<ReadOutcome>> {
    let answer = clients
        .route53
        .list_resource_record_sets()
        .hosted_zone_id(zone)
        .start_record_name(&key.name)
        .start_record_type(RrType::from(key.kind.as_str()))
        .set_start_record_identifier(key.set_id.clone())
        .max_items(1)
        .send()
        .await;
    let out = match answer {
        Ok(o) => o,
        Err(e) => {
            let info = describe(&e, &["NoSuchHostedZone"]);
            return match info.class {
                ErrorClass::NotFound => Ok(None),
                _ => Err(Box::new(ReadOutcome::denied(format!(
                    "route53:ListResourceRecordSets in {zone}: {}",
                    info.message
                )))),
            };
        }
    };
    // The listing starts AT the key; the first set is ours only if it matches.
    Ok(out
        .resource_record_sets()
        .iter()
        .find(|r| {
            same_name(r.name(), &key.name)
                && r.r#type().as_str() == key.kind
                && r.set_identifier() == key.set_id.as_deref()
        })
        .cloned())
}

/// DNS names compare without case and without the root's trailing dot;
/// Route 53 returns other characters as `\ddd` octal escapes.
fn same_name(live: &str, declared: &str) -> bool {
    let norm = |s: &str| unescape(s).trim_end_matches('.').to_ascii_lowercase();
    norm(live) == norm(declared)
}

/// Decodes Route 53's `\ddd` octal escapes (`\052` is `*`).
pub(crate) fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find('\\') {
        out.push_str(&rest[..i]);
        let code = rest.get(i + 1..i + 4);
        match code.and_then(|c| u8::from_str_radix(c, 8).ok()) {
            Some(b) if b.is_ascii() => {
                out.push(b as char);
                rest = &rest[i + 4..];
            }
            _ => {
                out.push('\\');
                rest = &rest[i + 1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// One record set in the CloudFormation shape, only what Route 53 returned.
fn record_model(r: &ResourceRecordSet) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert("Name".into(), json!(unescape(r.name())));
    m.insert("Type".into(), json!(r.r#type().as_str()));
    // The schema's TTL is a string; Route 53 answers a number.
    put(&mut m, "TTL", r.ttl().map(|t| t.to_string()));
    if !r.resource_records().is_empty() {
        let values: Vec<&str> = r.resource_records().iter().map(|v| v.value()).collect();
        m.insert("ResourceRecords".into(), json!(values));
    }
    if let Some(a) = r.alias_target() {
        m.insert(
            "AliasTarget".into(),
            json!({"DNSName": a.dns_name(), "HostedZoneId": a.hosted_zone_id(),
                   "EvaluateTargetHealth": a.evaluate_target_health()}),
        );
    }
    put(&mut m, "SetIdentifier", r.set_identifier());
    put(&mut m, "Weight", r.weight());
    put(&mut m, "Region", r.region().map(|x| x.as_str()));
    put(&mut m, "Failover", r.failover().map(|x| x.as_str()));
    put(&mut m, "MultiValueAnswer", r.multi_value_answer());
    put(&mut m, "HealthCheckId", r.health_check_id());
    if let Some(g) = r.geo_location() {
        let mut gm = Map::new();
        put(&mut gm, "ContinentCode", g.continent_code());
        put(&mut gm, "CountryCode", g.country_code());
        put(&mut gm, "SubdivisionCode", g.subdivision_code());
        m.insert("GeoLocation".into(), Value::Object(gm));
    }
    if let Some(c) = r.cidr_routing_config() {
        m.insert(
            "CidrRoutingConfig".into(),
            json!({"CollectionId": c.collection_id(), "LocationName": c.location_name()}),
        );
    }
    if let Some(g) = r.geo_proximity_location() {
        let mut gm = Map::new();
        put(&mut gm, "AWSRegion", g.aws_region());
        put(&mut gm, "LocalZoneGroup", g.local_zone_group());
        put(&mut gm, "Bias", g.bias());
        if let Some(c) = g.coordinates() {
            gm.insert(
                "Coordinates".into(),
                json!({"Latitude": c.latitude(), "Longitude": c.longitude()}),
            );
        }
        m.insert("GeoProximityLocation".into(), Value::Object(gm));
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn octal_escapes_decode_and_names_compare_as_dns_names() {
        assert_eq!(unescape("\\052.example.com."), "*.example.com.");
        assert_eq!(unescape("a\\\\b"), "a\\\\b");
        assert!(same_name(
            "mixed-case.example.com.",
            "MiXeD-Case.example.com"
        ));
        assert!(!same_name("other.example.com.", "mixed.example.com"));
    }
}
