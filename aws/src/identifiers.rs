//! Cloud Control identifier adapters, from `core/data/aws/cc_identifiers.json`.

use realdrift_core::declared::DeclaredValue;
use realdrift_core::pipeline::ReadRequest;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::OnceLock;

const TABLE_JSON: &str = include_str!("../../core/data/aws/cc_identifiers.json");

/// One part of a composite identifier.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged)]
enum Part {
    /// A named source: `physicalId`, `physicalIdLastSlashSegment`, `physicalIdNameWithoutRevision`.
    Named(String),
    /// A resolved declared string property.
    Declared {
        /// Property name.
        declared: String,
    },
    /// A declared string property, or an empty segment when absent.
    DeclaredOrEmpty {
        /// Property name.
        #[serde(rename = "declaredOrEmpty")]
        declared_or_empty: String,
    },
    /// For a qualified physical id (`parent|name`): the ARN
    /// `arn:<partition>:<service>:<region>:<account>:<prefix><parent>/<name>`
    /// built from the stack's identity; any other physical id as is.
    ArnWhenQualified {
        /// `<service>:<resource prefix>`, e.g. `events:rule/`.
        #[serde(rename = "arnWhenQualified")]
        arn_when_qualified: String,
    },
}

#[derive(Debug, Clone, Deserialize)]
struct Adapter {
    parts: Vec<Part>,
}

#[derive(Debug, Deserialize)]
struct Table {
    adapters: BTreeMap<String, Adapter>,
}

/// The parsed table. The file is compiled in, so a parse failure is a build
/// defect caught by the tests; at run time it degrades to "no adapters".
fn table() -> &'static BTreeMap<String, Adapter> {
    static TABLE: OnceLock<BTreeMap<String, Adapter>> = OnceLock::new();
    TABLE.get_or_init(|| {
        serde_json::from_str::<Table>(TABLE_JSON)
            .map(|t| t.adapters)
            .unwrap_or_default()
    })
}

/// The Cloud Control identifier for a resource, or why it cannot be built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CcIdentifier {
    /// The identifier to pass to GetResource.
    Ready(String),
    /// A declared part is not resolved yet (retry once live attributes are known).
    Unresolved(String),
    /// A part cannot be built at all (absent property, unexpected id shape).
    Impossible(String),
}

/// True when the type has an identifier adapter.
pub fn has_adapter(resource_type: &str) -> bool {
    table().contains_key(resource_type)
}

/// Builds the Cloud Control identifier for `req` (the physical id when no adapter applies).
pub fn cc_identifier(req: &ReadRequest) -> CcIdentifier {
    let Some(adapter) = table().get(&req.resource_type) else {
        return CcIdentifier::Ready(req.physical_id.clone());
    };
    let mut parts = Vec::with_capacity(adapter.parts.len());
    for part in &adapter.parts {
        match part {
            Part::Named(name) => match named_part(name, &req.physical_id) {
                Some(p) => parts.push(p),
                None => {
                    return CcIdentifier::Impossible(format!(
                        "cannot derive the Cloud Control identifier ({name}) from physical id {}",
                        req.physical_id
                    ))
                }
            },
            Part::Declared { declared } => match req.declared.get(declared) {
                Some(DeclaredValue::String(s)) => parts.push(s.clone()),
                Some(v) if !v.is_fully_resolved() => {
                    return CcIdentifier::Unresolved(format!(
                        "identifier part {declared} is not resolved"
                    ))
                }
                Some(_) => {
                    return CcIdentifier::Impossible(format!(
                        "identifier part {declared} is not a string"
                    ))
                }
                None => {
                    return CcIdentifier::Impossible(format!(
                        "identifier part {declared} is not declared"
                    ))
                }
            },
            Part::ArnWhenQualified { arn_when_qualified } => {
                match qualified_arn(arn_when_qualified, req) {
                    Ok(id) => parts.push(id),
                    Err(reason) => return CcIdentifier::Impossible(reason),
                }
            }
            Part::DeclaredOrEmpty { declared_or_empty } => {
                match req.declared.get(declared_or_empty) {
                    Some(DeclaredValue::String(s)) => parts.push(s.clone()),
                    None => parts.push(String::new()),
                    Some(v) if !v.is_fully_resolved() => {
                        return CcIdentifier::Unresolved(format!(
                            "identifier part {declared_or_empty} is not resolved"
                        ))
                    }
                    Some(_) => {
                        return CcIdentifier::Impossible(format!(
                            "identifier part {declared_or_empty} is not a string"
                        ))
                    }
                }
            }
        }
    }
    CcIdentifier::Ready(parts.join("|"))
}

/// The ARN of a `parent|name` physical id (see [`Part::ArnWhenQualified`]).
fn qualified_arn(service_prefix: &str, req: &ReadRequest) -> Result<String, String> {
    let pid = &req.physical_id;
    if !pid.contains('|') {
        return Ok(pid.clone());
    }
    let segments: Vec<&str> = pid.split('|').collect();
    let (Some((service, prefix)), true) = (
        service_prefix.split_once(':'),
        segments.iter().all(|s| !s.is_empty()),
    ) else {
        return Err(format!(
            "cannot derive the Cloud Control identifier (an ARN) from physical id {pid}"
        ));
    };
    match (&req.partition, &req.region, &req.account_id) {
        (Some(partition), Some(region), Some(account)) => Ok(format!(
            "arn:{partition}:{service}:{region}:{account}:{prefix}{}",
            segments.join("/")
        )),
        _ => Err(format!(
            "cannot derive the Cloud Control identifier of {pid}: the stack's partition, region or account is unknown"
        )),
    }
}

fn named_part(name: &str, physical_id: &str) -> Option<String> {
    match name {
        "physicalId" => Some(physical_id.to_string()),
        "physicalIdLastSlashSegment" => physical_id
            .rsplit('/')
            .next()
            .filter(|s| !s.is_empty() && *s != physical_id)
            .map(str::to_string),
        "physicalIdNameWithoutRevision" => {
            let name = physical_id.rsplit('/').next()?;
            match name.rsplit_once(':') {
                Some((base, rev))
                    if rev.chars().all(|c| c.is_ascii_digit()) && !base.is_empty() =>
                {
                    Some(base.to_string())
                }
                _ => Some(name.to_string()),
            }
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(t: &str, pid: &str, declared: &[(&str, &str)]) -> ReadRequest {
        ReadRequest {
            resource_type: t.into(),
            physical_id: pid.into(),
            declared: declared
                .iter()
                .map(|(k, v)| (k.to_string(), DeclaredValue::String(v.to_string())))
                .collect(),
            ..Default::default()
        }
    }

    fn ready(r: &ReadRequest) -> String {
        match cc_identifier(r) {
            CcIdentifier::Ready(id) => id,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn table_parses_and_every_named_part_is_known() {
        let t: Table = serde_json::from_str(TABLE_JSON).unwrap();
        assert!(t.adapters.len() > 10);
        for (ty, a) in &t.adapters {
            for p in &a.parts {
                if let Part::Named(n) = p {
                    assert!(
                        named_part(n, "arn:aws:x:r:a:thing/name:3").is_some(),
                        "{ty}: {n}"
                    );
                }
            }
        }
    }

    #[test]
    fn composites_follow_the_table_order() {
        assert_eq!(
            ready(&req("AWS::SQS::Queue", "https://q", &[])),
            "https://q"
        );
        assert_eq!(
            ready(&req("AWS::ECS::Service", "arn:svc", &[("Cluster", "c1")])),
            "arn:svc|c1"
        );
        assert_eq!(
            ready(&req("AWS::ApiGatewayV2::Stage", "prod", &[("ApiId", "a1")])),
            "a1|prod"
        );
        assert_eq!(
            ready(&req(
                "AWS::ApiGateway::BasePathMapping",
                "d.example.com",
                &[("DomainName", "d.example.com")]
            )),
            "d.example.com|"
        );
        assert_eq!(
            ready(&req(
                "AWS::AppSync::GraphQLApi",
                "arn:aws:appsync:us-east-1:1:apis/abc123",
                &[]
            )),
            "abc123"
        );
        assert_eq!(
            ready(&req(
                "AWS::Batch::JobDefinition",
                "arn:aws:batch:us-east-1:1:job-definition/jd:7",
                &[]
            )),
            "jd"
        );
        assert!(matches!(
            cc_identifier(&req("AWS::AppSync::GraphQLApi", "not-an-arn", &[])),
            CcIdentifier::Impossible(_)
        ));
        assert!(matches!(
            cc_identifier(&req("AWS::ECS::Service", "arn:svc", &[])),
            CcIdentifier::Impossible(_)
        ));
    }

    #[test]
    fn a_rule_on_a_custom_bus_is_read_by_its_arn() {
        let mut r = req("AWS::Events::Rule", "orders-bus|nightly", &[]);
        assert!(matches!(cc_identifier(&r), CcIdentifier::Impossible(_)));
        r.partition = Some("aws".into());
        r.region = Some("eu-west-1".into());
        r.account_id = Some("111111111111".into());
        assert_eq!(
            ready(&r),
            "arn:aws:events:eu-west-1:111111111111:rule/orders-bus/nightly"
        );
        // A rule on the default bus keeps its name (what Cloud Control reads).
        r.physical_id = "nightly".into();
        assert_eq!(ready(&r), "nightly");
        r.physical_id = "bus|".into();
        assert!(matches!(cc_identifier(&r), CcIdentifier::Impossible(_)));
    }
}
