//! Sibling facts (stage 3): what classify must know about a resource from
//! the OTHER resources of its stack — an instance echoing its cluster, a
//! rule a sibling security-group ingress owns, targets a sibling service
//! registers. One builder per classify context key (the corpus `opts`
//! keys); each reads only the stack's declared values and live models, so a
//! live run fills exactly what a corpus replay passes in.
//!
//! A sibling is matched through its template reference (`Ref`,
//! `Fn::GetAtt`, `Fn::Sub`) or a resolved value equal to its physical id.
//! Every fact only ever explains a live value by a declared sibling's own
//! value (classify gates each use on equality), so a missing fact leaves a
//! value reported, never hidden.
//!
//! Not filled here (they need account-level API calls, not siblings):
//! `accountDefaults`, `rdsOptionSettingDefaults`, `ebSgNamesById`.

use super::desired::{Desired, Planned};
use super::reads::Reads;
use crate::declared::DeclaredValue;
use crate::pipeline::ReadOutcome;
use crate::template::property_references;
use serde_json::{json, Map, Value};
use std::collections::{BTreeMap, BTreeSet};

/// One resource of the stack as the fact builders see it.
#[derive(Debug, Clone)]
pub(crate) struct Sibling<'a> {
    /// Logical id.
    pub logical_id: &'a str,
    /// Resource type.
    pub resource_type: &'a str,
    /// Physical id, when created.
    pub physical_id: Option<&'a str>,
    /// Resolved declared properties.
    pub declared: &'a BTreeMap<String, DeclaredValue>,
    /// Per property, the stack resources its template value refers to.
    pub references: BTreeMap<String, BTreeSet<String>>,
    /// The live model, when read.
    pub live: Option<&'a Value>,
}

/// The stack the builders read.
#[derive(Debug, Default)]
pub(crate) struct StackView<'a> {
    /// Every planned resource.
    pub resources: Vec<Sibling<'a>>,
    /// The stack's account id.
    pub account_id: Option<&'a str>,
}

type Builder = fn(&StackView<'_>) -> Option<Value>;

/// Context key -> builder.
const FACTS: &[(&str, Builder)] = &[
    ("clusterEchoModel", cluster_echo_model),
    ("siblingRdsSourceModels", rds_source_models),
    ("siblingEipAssociations", eip_associations),
    ("siblingTargetGroupRegistrars", target_group_registrars),
    ("siblingSubnetCidrBlocks", subnet_cidr_blocks),
    ("siblingClientVpnEndpointVpcs", client_vpn_endpoint_vpcs),
    ("siblingListenerPorts", listener_ports),
    ("siblingCloudFrontCdPolicyIds", cloudfront_cd_policy_ids),
    ("siblingSgRules", sg_rules),
    ("oaiCanonicalIds", oai_canonical_ids),
];

/// The sibling facts of a gathered stack: its planned resources with their
/// final declared values and live models.
pub(super) fn stack_facts(d: &Desired, plan: &[Planned], reads: &Reads) -> Map<String, Value> {
    let account = d.desc.account_id();
    let view = StackView {
        resources: plan
            .iter()
            .enumerate()
            .map(|(i, p)| Sibling {
                logical_id: &p.logical_id,
                resource_type: &p.resource_type,
                physical_id: p.physical_id.as_deref(),
                declared: &p.resolved.properties,
                references: property_references(&d.template, &p.logical_id),
                live: match reads.get(&i) {
                    Some(ReadOutcome::Found(m)) => Some(&m.properties),
                    _ => None,
                },
            })
            .collect(),
        account_id: account.as_deref(),
    };
    sibling_facts(&view)
}

/// Every fact the stack supports (empty ones left out).
pub(crate) fn sibling_facts(stack: &StackView<'_>) -> Map<String, Value> {
    FACTS
        .iter()
        .filter_map(|(key, build)| build(stack).map(|v| ((*key).to_string(), v)))
        .collect()
}

/// A sibling that refers to others through a property, and what it refers to.
struct Reference {
    /// Types that refer (`AWS::EC2::NatGateway`).
    from: &'static [&'static str],
    /// The property holding the reference (anywhere inside its value).
    via: &'static str,
}

/// EIPs a declared sibling associates: the association is theirs, not drift.
/// (A NAT gateway allocates its EIP; an EIPAssociation names it.)
const EIP_ASSOCIATORS: &[Reference] = &[
    Reference {
        from: &["AWS::EC2::NatGateway"],
        via: "AllocationId",
    },
    Reference {
        from: &["AWS::EC2::EIPAssociation"],
        via: "AllocationId",
    },
    Reference {
        from: &["AWS::EC2::EIPAssociation"],
        via: "EIP",
    },
];

/// Target groups a declared sibling registers targets into (an ECS service's
/// load balancers, an Auto Scaling group's target groups).
const TARGET_REGISTRARS: &[Reference] = &[
    Reference {
        from: &["AWS::ECS::Service"],
        via: "LoadBalancers",
    },
    Reference {
        from: &["AWS::AutoScaling::AutoScalingGroup"],
        via: "TargetGroupARNs",
    },
];

/// Subnets a declared AWS::EC2::SubnetCidrBlock adds IPv6 blocks to.
const SUBNET_CIDR_BLOCKS: &[Reference] = &[Reference {
    from: &["AWS::EC2::SubnetCidrBlock"],
    via: "SubnetId",
}];

/// Instance type -> its cluster type, for the cluster echo.
const CLUSTER_MEMBERS: &[(&str, &str)] = &[
    ("AWS::RDS::DBInstance", "AWS::RDS::DBCluster"),
    ("AWS::DocDB::DBInstance", "AWS::DocDB::DBCluster"),
    ("AWS::Neptune::DBInstance", "AWS::Neptune::DBCluster"),
];

impl<'a> StackView<'a> {
    fn of_type<'s>(&'s self, types: &[&str]) -> Vec<&'s Sibling<'a>> {
        self.resources
            .iter()
            .filter(|r| types.contains(&r.resource_type))
            .collect()
    }

    /// The siblings of `types` that `r`'s property `prop` refers to.
    fn targets<'s>(&'s self, r: &Sibling<'_>, prop: &str, types: &[&str]) -> Vec<&'s Sibling<'a>> {
        let Some(value) = r.declared.get(prop) else {
            return Vec::new();
        };
        let mut strings = Vec::new();
        resolved_strings(value, &mut strings);
        let named = r.references.get(prop);
        self.of_type(types)
            .into_iter()
            .filter(|t| {
                named.is_some_and(|n| n.contains(t.logical_id))
                    || t.physical_id.is_some_and(|p| strings.contains(&p))
            })
            .collect()
    }

    /// Physical ids of the `to`-typed siblings some reference points at.
    fn referenced(&self, refs: &[Reference], to: &[&str]) -> Option<Value> {
        let mut out = BTreeSet::new();
        for reference in refs {
            for r in self.of_type(reference.from) {
                for t in self.targets(r, reference.via, to) {
                    out.extend(t.physical_id);
                }
            }
        }
        non_empty(Value::Array(out.into_iter().map(Value::from).collect()))
    }
}

fn eip_associations(s: &StackView<'_>) -> Option<Value> {
    s.referenced(EIP_ASSOCIATORS, &["AWS::EC2::EIP"])
}

fn target_group_registrars(s: &StackView<'_>) -> Option<Value> {
    s.referenced(
        TARGET_REGISTRARS,
        &["AWS::ElasticLoadBalancingV2::TargetGroup"],
    )
}

fn subnet_cidr_blocks(s: &StackView<'_>) -> Option<Value> {
    s.referenced(SUBNET_CIDR_BLOCKS, &["AWS::EC2::Subnet"])
}

/// Instance physical id -> its cluster's live model.
fn cluster_echo_model(s: &StackView<'_>) -> Option<Value> {
    let mut out = Map::new();
    for (member, cluster) in CLUSTER_MEMBERS {
        for i in s.of_type(&[*member]) {
            let clusters = s.targets(i, "DBClusterIdentifier", &[*cluster]);
            let (Some(pid), [c]) = (i.physical_id, clusters.as_slice()) else {
                continue;
            };
            if let Some(model) = c.live {
                out.insert(pid.to_string(), model.clone());
            }
        }
    }
    non_empty(Value::Object(out))
}

/// A replica's declared source identifier -> the source instance's live model.
fn rds_source_models(s: &StackView<'_>) -> Option<Value> {
    let mut out = Map::new();
    for r in s.of_type(&["AWS::RDS::DBInstance"]) {
        let Some(DeclaredValue::String(src)) = r.declared.get("SourceDBInstanceIdentifier") else {
            continue;
        };
        let sources = s.targets(r, "SourceDBInstanceIdentifier", &["AWS::RDS::DBInstance"]);
        if let [source] = sources.as_slice() {
            if let Some(model) = source.live {
                out.insert(src.clone(), model.clone());
            }
        }
    }
    non_empty(Value::Object(out))
}

/// Client VPN endpoint id -> the VPC of the subnet a declared target-network
/// association attaches it to.
fn client_vpn_endpoint_vpcs(s: &StackView<'_>) -> Option<Value> {
    let mut out = Map::new();
    for a in s.of_type(&["AWS::EC2::ClientVpnTargetNetworkAssociation"]) {
        let endpoints = s.targets(a, "ClientVpnEndpointId", &["AWS::EC2::ClientVpnEndpoint"]);
        let subnets = s.targets(a, "SubnetId", &["AWS::EC2::Subnet"]);
        let (Some(endpoint), [subnet]) = (
            endpoints.first().and_then(|e| e.physical_id),
            subnets.as_slice(),
        ) else {
            continue;
        };
        let vpc = match subnet.declared.get("VpcId") {
            Some(DeclaredValue::String(v)) => Some(Value::from(v.as_str())),
            _ => subnet.live.and_then(|l| l.get("VpcId")).cloned(),
        };
        if let Some(vpc) = vpc {
            out.insert(endpoint.to_string(), vpc);
        }
    }
    non_empty(Value::Object(out))
}

/// Global Accelerator listener ARN -> its port, when it listens on one port
/// (an endpoint group's health-check port defaults to it).
fn listener_ports(s: &StackView<'_>) -> Option<Value> {
    let mut out = Map::new();
    for l in s.of_type(&["AWS::GlobalAccelerator::Listener"]) {
        let (Some(pid), Some(DeclaredValue::Array(ranges))) =
            (l.physical_id, l.declared.get("PortRanges"))
        else {
            continue;
        };
        let [DeclaredValue::Object(range)] = ranges.as_slice() else {
            continue;
        };
        match (range.get("FromPort"), range.get("ToPort")) {
            (Some(DeclaredValue::Number(from)), Some(DeclaredValue::Number(to))) if from == to => {
                out.insert(pid.to_string(), Value::Number(from.clone()));
            }
            _ => {}
        }
    }
    non_empty(Value::Object(out))
}

/// Staging distribution logical id -> the continuous-deployment policy that
/// names its domain (AWS sets the policy id on the staging distribution).
fn cloudfront_cd_policy_ids(s: &StackView<'_>) -> Option<Value> {
    let mut out = Map::new();
    for p in s.of_type(&["AWS::CloudFront::ContinuousDeploymentPolicy"]) {
        let Some(pid) = p.physical_id else { continue };
        for d in s.targets(
            p,
            "ContinuousDeploymentPolicyConfig",
            &["AWS::CloudFront::Distribution"],
        ) {
            out.insert(d.logical_id.to_string(), Value::from(pid));
        }
    }
    non_empty(Value::Object(out))
}

/// Origin access identity id -> its S3 canonical user id (bucket policies
/// show either spelling of the same principal).
fn oai_canonical_ids(s: &StackView<'_>) -> Option<Value> {
    let mut out = Map::new();
    for o in s.of_type(&["AWS::CloudFront::CloudFrontOriginAccessIdentity"]) {
        let (Some(pid), Some(canonical)) = (
            o.physical_id,
            o.live.and_then(|l| l.get("S3CanonicalUserId")),
        ) else {
            continue;
        };
        out.insert(pid.to_string(), canonical.clone());
    }
    non_empty(Value::Object(out))
}

/// Security group id -> the rules declared sibling ingress / egress
/// resources add to it, in the group's live rule shape.
fn sg_rules(s: &StackView<'_>) -> Option<Value> {
    let mut out: BTreeMap<String, (Vec<Value>, Vec<Value>)> = BTreeMap::new();
    for (rule_type, egress) in [
        ("AWS::EC2::SecurityGroupIngress", false),
        ("AWS::EC2::SecurityGroupEgress", true),
    ] {
        for r in s.of_type(&[rule_type]) {
            let groups = s.targets(r, "GroupId", &["AWS::EC2::SecurityGroup"]);
            let [group] = groups.as_slice() else {
                continue;
            };
            let (Some(gid), Some(rule)) = (group.physical_id, sg_rule(r, s.account_id, egress))
            else {
                continue;
            };
            let entry = out.entry(gid.to_string()).or_default();
            if egress {
                entry.1.push(rule);
            } else {
                entry.0.push(rule);
            }
        }
    }
    let map: Map<String, Value> = out
        .into_iter()
        .map(|(gid, (ingress, egress))| (gid, json!({"ingress": ingress, "egress": egress})))
        .collect();
    non_empty(Value::Object(map))
}

/// One sibling rule as the group lists it: the declared rule without the
/// group it attaches to; a same-account source group gets the owner id EC2
/// reports with it. `None` when any part is unresolved (never guessed).
fn sg_rule(r: &Sibling<'_>, account: Option<&str>, egress: bool) -> Option<Value> {
    let mut rule = Map::new();
    for (k, v) in r.declared {
        if matches!(k.as_str(), "GroupId" | "GroupName") {
            continue;
        }
        rule.insert(k.clone(), v.to_json()?);
    }
    if !egress
        && rule.contains_key("SourceSecurityGroupId")
        && !rule.contains_key("SourceSecurityGroupOwnerId")
    {
        rule.insert("SourceSecurityGroupOwnerId".into(), Value::from(account?));
    }
    Some(Value::Object(rule))
}

/// Every resolved string inside a declared value.
fn resolved_strings<'v>(v: &'v DeclaredValue, out: &mut Vec<&'v str>) {
    match v {
        DeclaredValue::String(s) => out.push(s),
        DeclaredValue::Array(a) => a.iter().for_each(|x| resolved_strings(x, out)),
        DeclaredValue::Object(o) => o.values().for_each(|x| resolved_strings(x, out)),
        _ => {}
    }
}

fn non_empty(v: Value) -> Option<Value> {
    match &v {
        Value::Array(a) if a.is_empty() => None,
        Value::Object(o) if o.is_empty() => None,
        _ => Some(v),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decl(v: Value) -> BTreeMap<String, DeclaredValue> {
        match DeclaredValue::from_json(&v) {
            DeclaredValue::Object(o) => o,
            _ => BTreeMap::new(),
        }
    }

    struct Res {
        id: &'static str,
        ty: &'static str,
        pid: &'static str,
        declared: BTreeMap<String, DeclaredValue>,
        refs: &'static [(&'static str, &'static str)],
        live: Option<Value>,
    }

    fn res(id: &'static str, ty: &'static str, pid: &'static str, declared: Value) -> Res {
        Res {
            id,
            ty,
            pid,
            declared: decl(declared),
            refs: &[],
            live: None,
        }
    }

    fn facts_of(resources: &[Res]) -> Map<String, Value> {
        let view = StackView {
            resources: resources
                .iter()
                .map(|r| Sibling {
                    logical_id: r.id,
                    resource_type: r.ty,
                    physical_id: Some(r.pid),
                    declared: &r.declared,
                    references: r.refs.iter().fold(BTreeMap::new(), |mut m, (p, id)| {
                        m.entry(p.to_string())
                            .or_insert_with(BTreeSet::new)
                            .insert(id.to_string());
                        m
                    }),
                    live: r.live.as_ref(),
                })
                .collect(),
            account_id: Some("111111111111"),
        };
        sibling_facts(&view)
    }

    #[test]
    fn sibling_ingress_rules_in_the_groups_live_shape() {
        let mut ingress = res(
            "SelfRef",
            "AWS::EC2::SecurityGroupIngress",
            "sgr-1",
            json!({"GroupId": "sg-1", "IpProtocol": "tcp", "FromPort": 9000, "ToPort": 9000,
                   "SourceSecurityGroupId": "sg-1", "Description": "self ref"}),
        );
        ingress.refs = &[("GroupId", "Sg")];
        let mut unresolved = res(
            "Later",
            "AWS::EC2::SecurityGroupIngress",
            "sgr-2",
            json!({"GroupId": "sg-1", "IpProtocol": "tcp"}),
        );
        unresolved
            .declared
            .insert("CidrIp".into(), DeclaredValue::Unresolved);
        let egress = res(
            "Out",
            "AWS::EC2::SecurityGroupEgress",
            "sgr-3",
            json!({"GroupId": "sg-1", "IpProtocol": "-1", "CidrIp": "10.0.0.0/8"}),
        );
        let facts = facts_of(&[
            res("Sg", "AWS::EC2::SecurityGroup", "sg-1", json!({})),
            ingress,
            unresolved,
            egress,
        ]);
        assert_eq!(
            facts["siblingSgRules"],
            json!({"sg-1": {
                "ingress": [{"IpProtocol": "tcp", "FromPort": 9000, "ToPort": 9000,
                    "SourceSecurityGroupId": "sg-1", "SourceSecurityGroupOwnerId": "111111111111",
                    "Description": "self ref"}],
                "egress": [{"IpProtocol": "-1", "CidrIp": "10.0.0.0/8"}]
            }})
        );
    }

    #[test]
    fn clusters_sources_and_associations_by_reference_or_physical_id() {
        let mut instance = res(
            "Instance",
            "AWS::Neptune::DBInstance",
            "neptune-i",
            json!({"DBClusterIdentifier": "neptune-c"}),
        );
        instance.refs = &[("DBClusterIdentifier", "Cluster")];
        let mut cluster = res("Cluster", "AWS::Neptune::DBCluster", "neptune-c", json!({}));
        cluster.live = Some(json!({"Port": "8182"}));
        let mut source = res("Source", "AWS::RDS::DBInstance", "src-db", json!({}));
        source.live = Some(json!({"StorageEncrypted": false}));
        let replica = res(
            "Replica",
            "AWS::RDS::DBInstance",
            "replica-db",
            json!({"SourceDBInstanceIdentifier": "src-db"}),
        );
        let mut nat = res(
            "Nat",
            "AWS::EC2::NatGateway",
            "nat-1",
            json!({"AllocationId": "eipalloc-1"}),
        );
        nat.refs = &[("AllocationId", "Eip")];
        let service = res(
            "Svc",
            "AWS::ECS::Service",
            "svc",
            json!({"LoadBalancers": [{"TargetGroupArn": "arn:tg/green", "ContainerPort": 80}]}),
        );
        let facts = facts_of(&[
            instance,
            cluster,
            source,
            replica,
            nat,
            res("Eip", "AWS::EC2::EIP", "107.22.107.4", json!({})),
            res("Other", "AWS::EC2::EIP", "1.1.1.1", json!({})),
            service,
            res(
                "Green",
                "AWS::ElasticLoadBalancingV2::TargetGroup",
                "arn:tg/green",
                json!({}),
            ),
            res(
                "Blue",
                "AWS::ElasticLoadBalancingV2::TargetGroup",
                "arn:tg/blue",
                json!({}),
            ),
        ]);
        assert_eq!(
            facts["clusterEchoModel"],
            json!({"neptune-i": {"Port": "8182"}})
        );
        assert_eq!(
            facts["siblingRdsSourceModels"],
            json!({"src-db": {"StorageEncrypted": false}})
        );
        assert_eq!(facts["siblingEipAssociations"], json!(["107.22.107.4"]));
        assert_eq!(
            facts["siblingTargetGroupRegistrars"],
            json!(["arn:tg/green"])
        );
        assert!(!facts.contains_key("siblingSgRules"));
    }

    #[test]
    fn networks_listeners_distributions_and_origin_identities() {
        let assoc = res(
            "Assoc",
            "AWS::EC2::ClientVpnTargetNetworkAssociation",
            "cvpn-assoc",
            json!({"ClientVpnEndpointId": "cvpn-endpoint-1", "SubnetId": "subnet-1"}),
        );
        let cidr = res(
            "V6",
            "AWS::EC2::SubnetCidrBlock",
            "cidr-1",
            json!({"SubnetId": "subnet-1"}),
        );
        let listener = res(
            "Listener",
            "AWS::GlobalAccelerator::Listener",
            "arn:ga/listener/1",
            json!({"PortRanges": [{"FromPort": 80, "ToPort": 80}]}),
        );
        let range = res(
            "Range",
            "AWS::GlobalAccelerator::Listener",
            "arn:ga/listener/2",
            json!({"PortRanges": [{"FromPort": 80, "ToPort": 90}]}),
        );
        let mut policy = res(
            "Cd",
            "AWS::CloudFront::ContinuousDeploymentPolicy",
            "cd-1",
            json!({"ContinuousDeploymentPolicyConfig": {"StagingDistributionDnsNames": ["d1.cloudfront.net"]}}),
        );
        policy.refs = &[("ContinuousDeploymentPolicyConfig", "Staging")];
        let mut oai = res(
            "Oai",
            "AWS::CloudFront::CloudFrontOriginAccessIdentity",
            "E2OAI",
            json!({}),
        );
        oai.live = Some(json!({"Id": "E2OAI", "S3CanonicalUserId": "abc123"}));
        let facts = facts_of(&[
            res(
                "Endpoint",
                "AWS::EC2::ClientVpnEndpoint",
                "cvpn-endpoint-1",
                json!({}),
            ),
            res(
                "Subnet",
                "AWS::EC2::Subnet",
                "subnet-1",
                json!({"VpcId": "vpc-1"}),
            ),
            assoc,
            cidr,
            listener,
            range,
            policy,
            res(
                "Staging",
                "AWS::CloudFront::Distribution",
                "E3STAGING",
                json!({}),
            ),
            oai,
        ]);
        assert_eq!(
            facts["siblingClientVpnEndpointVpcs"],
            json!({"cvpn-endpoint-1": "vpc-1"})
        );
        assert_eq!(facts["siblingSubnetCidrBlocks"], json!(["subnet-1"]));
        assert_eq!(
            facts["siblingListenerPorts"],
            json!({"arn:ga/listener/1": 80})
        );
        assert_eq!(
            facts["siblingCloudFrontCdPolicyIds"],
            json!({"Staging": "cd-1"})
        );
        assert_eq!(facts["oaiCanonicalIds"], json!({"E2OAI": "abc123"}));
    }
}
