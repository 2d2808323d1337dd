//! The service readers of issue 46 (network ACL entries, CodeBuild projects,
//! access keys, launch template default versions), fed the service answer
//! behind real corpus cases: each must rebuild the case's recorded live
//! model, and say what it could not read.

mod aws_support;

use aws_sdk_cloudcontrol::operation::get_resource::GetResourceOutput;
use aws_sdk_cloudcontrol::types::ResourceDescription;
use aws_sdk_cloudcontrol::Client as Cc;
use aws_sdk_cloudwatch::operation::describe_anomaly_detectors::DescribeAnomalyDetectorsOutput;
use aws_sdk_cloudwatch::types as cw;
use aws_sdk_cloudwatch::Client as CloudWatch;
use aws_sdk_codebuild::operation::batch_get_projects::BatchGetProjectsOutput;
use aws_sdk_codebuild::types as cb;
use aws_sdk_codebuild::Client as CodeBuild;
use aws_sdk_databasemigration::operation::describe_replication_instances::DescribeReplicationInstancesOutput;
use aws_sdk_databasemigration::operation::list_tags_for_resource::ListTagsForResourceOutput as DmsListTagsOutput;
use aws_sdk_databasemigration::types as dms;
use aws_sdk_databasemigration::Client as Dms;
use aws_sdk_dax::operation::describe_clusters::DescribeClustersOutput as DaxDescribeClustersOutput;
use aws_sdk_dax::operation::list_tags::ListTagsOutput;
use aws_sdk_dax::types as dax;
use aws_sdk_dax::Client as Dax;
use aws_sdk_docdb::operation::describe_db_clusters::DescribeDbClustersOutput;
use aws_sdk_docdb::operation::describe_db_instances::DescribeDbInstancesOutput;
use aws_sdk_docdb::types as docdb;
use aws_sdk_docdb::Client as DocDb;
use aws_sdk_ec2::operation::describe_launch_template_versions::DescribeLaunchTemplateVersionsOutput;
use aws_sdk_ec2::operation::describe_network_acls::DescribeNetworkAclsOutput;
use aws_sdk_ec2::types as ec2;
use aws_sdk_ec2::Client as Ec2;
use aws_sdk_elasticloadbalancingv2::operation::describe_listener_certificates::DescribeListenerCertificatesOutput;
use aws_sdk_elasticloadbalancingv2::types as elb;
use aws_sdk_elasticloadbalancingv2::Client as Elbv2;
use aws_sdk_iam::operation::list_access_keys::ListAccessKeysOutput;
use aws_sdk_iam::types::{AccessKeyMetadata, StatusType};
use aws_sdk_iam::Client as Iam;
use aws_sdk_lakeformation::operation::describe_resource::DescribeResourceOutput;
use aws_sdk_lakeformation::types as lf;
use aws_sdk_lakeformation::Client as LakeFormation;
use aws_sdk_route53::operation::list_resource_record_sets::ListResourceRecordSetsOutput;
use aws_sdk_route53::types as r53;
use aws_sdk_route53::Client as Route53;
use aws_smithy_mocks::mock;
use aws_support::{clients, json_error, xml_error};
use realdrift_aws::AwsLiveReader;
use realdrift_core::corpus::replay_case;
use realdrift_core::corpus::CorpusCase;
use realdrift_core::finding::{Finding, Tier};
use realdrift_core::pipeline::LiveModel;
use realdrift_core::pipeline::{LiveReader, ReadOutcome, ReadRequest};
use realdrift_core::DeclaredValue;
use serde_json::{json, Value};
use std::path::PathBuf;

fn case(name: &str) -> CorpusCase {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/cases");
    CorpusCase::load(&dir.join(name)).unwrap()
}

fn request(c: &CorpusCase) -> ReadRequest {
    ReadRequest {
        logical_id: c.resource.logical_id.clone(),
        resource_type: c.resource.resource_type.clone(),
        physical_id: c.resource.physical_id.clone().unwrap_or_default(),
        declared: c
            .resource
            .declared
            .iter()
            .map(|(k, v)| (k.clone(), DeclaredValue::from_corpus_json(v)))
            .collect(),
        account_id: Some("111111111111".into()),
        region: Some("us-east-1".into()),
        partition: Some("aws".into()),
    }
}

/// An HTTP error response in EC2's own error shape.
fn ec2_error(status: u16, code: &str, message: &str) -> aws_smithy_runtime_api::http::Response {
    let body = format!(
        "<Response><Errors><Error><Code>{code}</Code><Message>{message}</Message></Error></Errors><RequestID>r</RequestID></Response>"
    );
    aws_smithy_runtime_api::http::Response::new(
        aws_smithy_runtime_api::http::StatusCode::try_from(status).unwrap(),
        aws_smithy_types::body::SdkBody::from(body),
    )
}

/// The drift the engine reports for a case whose live model is `live`.
fn compare(c: &CorpusCase, live: Value) -> Vec<Finding> {
    let mut c = c.clone();
    c.live_raw = live;
    replay_case(&c)
        .into_iter()
        .filter(|f| matches!(f.tier, Tier::Declared | Tier::Undeclared | Tier::Deleted))
        .collect()
}

fn s(v: &Value, k: &str) -> Option<String> {
    v.get(k).and_then(Value::as_str).map(str::to_string)
}

fn i(v: &Value, k: &str) -> Option<i32> {
    v.get(k).and_then(Value::as_i64).map(|n| n as i32)
}

/// The EC2 answer behind a corpus network ACL entry's live model.
fn acl_entry(live: &Value) -> ec2::NetworkAclEntry {
    let mut b = ec2::NetworkAclEntry::builder()
        .set_rule_number(i(live, "RuleNumber"))
        .set_egress(live["Egress"].as_bool())
        .set_rule_action(s(live, "RuleAction").map(|a| ec2::RuleAction::from(a.as_str())))
        .set_protocol(live.get("Protocol").map(|p| p.to_string()))
        .set_cidr_block(s(live, "CidrBlock"))
        .set_ipv6_cidr_block(s(live, "Ipv6CidrBlock"));
    if let Some(p) = live.get("PortRange") {
        b = b.port_range(
            ec2::PortRange::builder()
                .set_from(i(p, "From"))
                .set_to(i(p, "To"))
                .build(),
        );
    }
    if let Some(p) = live.get("Icmp") {
        b = b.icmp_type_code(
            ec2::IcmpTypeCode::builder()
                .set_code(i(p, "Code"))
                .set_type(i(p, "Type"))
                .build(),
        );
    }
    b.build()
}

fn acls_answer(acl: &str, entries: Vec<ec2::NetworkAclEntry>) -> DescribeNetworkAclsOutput {
    DescribeNetworkAclsOutput::builder()
        .network_acls(
            ec2::NetworkAcl::builder()
                .network_acl_id(acl)
                .set_entries(Some(entries))
                .build(),
        )
        .build()
}

#[tokio::test]
async fn network_acl_entries_rebuild_every_corpus_model() {
    for name in [
        "AWS__EC2__NetworkAclEntry.NaclInDenySmtp00E01CD6.json",
        "AWS__EC2__NetworkAclEntry.NaclInEphemeralA6340825.json",
        "AWS__EC2__NetworkAclEntry.NaclInHttpsDF846A4B.json",
        "AWS__EC2__NetworkAclEntry.NaclInIcmp620C9B48.json",
        "AWS__EC2__NetworkAclEntry.NaclOutAll59E5E3A6.json",
    ] {
        let c = case(name);
        let acl = s(&c.live_raw, "NetworkAclId").unwrap();
        let wanted = acl_entry(&c.live_raw);
        // The other direction's entry with the same number must not be taken.
        let mut mirror = c.live_raw.clone();
        mirror["Egress"] = json!(!c.live_raw["Egress"].as_bool().unwrap());
        mirror["RuleAction"] = json!("allow");
        let entries = vec![acl_entry(&mirror), wanted];
        let rule = mock!(Ec2::describe_network_acls)
            .then_output(move || acls_answer(&acl, entries.clone()));
        let out = AwsLiveReader::new(clients(&[&rule]))
            .read(&request(&c))
            .await;
        assert_eq!(out, ReadOutcome::found(c.live_raw.clone()), "{name}");
    }
}

#[tokio::test]
async fn a_removed_network_acl_entry_is_deleted_and_a_gone_acl_too() {
    let c = case("AWS__EC2__NetworkAclEntry.NaclInHttpsDF846A4B.json");
    let acl = s(&c.live_raw, "NetworkAclId").unwrap();
    let rule = mock!(Ec2::describe_network_acls).then_output(move || acls_answer(&acl, vec![]));
    let out = AwsLiveReader::new(clients(&[&rule]))
        .read(&request(&c))
        .await;
    assert_eq!(out, ReadOutcome::NotFound);
    let gone = mock!(Ec2::describe_network_acls).then_http_response(|| {
        ec2_error(
            400,
            "InvalidNetworkAclID.NotFound",
            "The network ACL does not exist",
        )
    });
    let out = AwsLiveReader::new(clients(&[&gone]))
        .read(&request(&c))
        .await;
    assert_eq!(out, ReadOutcome::NotFound);
    let denied = mock!(Ec2::describe_network_acls)
        .then_http_response(|| ec2_error(403, "UnauthorizedOperation", "not allowed"));
    let out = AwsLiveReader::new(clients(&[&denied]))
        .read(&request(&c))
        .await;
    assert!(
        matches!(out, ReadOutcome::Skipped { coverage_lost: true, ref reason } if reason.contains("ec2:DescribeNetworkAcls")),
        "{out:?}"
    );
}

/// The CodeBuild answer behind a corpus project's live model.
fn project(live: &Value) -> cb::Project {
    let src = &live["Source"];
    let art = &live["Artifacts"];
    let env = &live["Environment"];
    let vars: Vec<cb::EnvironmentVariable> = env["EnvironmentVariables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| {
            cb::EnvironmentVariable::builder()
                .name(s(v, "Name").unwrap())
                .value(s(v, "Value").unwrap())
                .set_type(s(v, "Type").map(|t| cb::EnvironmentVariableType::from(t.as_str())))
                .build()
                .unwrap()
        })
        .collect();
    let mut b = cb::Project::builder()
        .set_name(s(live, "Name"))
        .set_service_role(s(live, "ServiceRole"))
        .set_timeout_in_minutes(i(live, "TimeoutInMinutes"))
        .set_queued_timeout_in_minutes(i(live, "QueuedTimeoutInMinutes"))
        .set_encryption_key(s(live, "EncryptionKey"))
        .set_project_visibility(
            s(live, "Visibility").map(|v| cb::ProjectVisibilityType::from(v.as_str())),
        )
        .source(
            cb::ProjectSource::builder()
                .r#type(cb::SourceType::from(src["Type"].as_str().unwrap()))
                .set_location(s(src, "Location"))
                .set_buildspec(s(src, "BuildSpec"))
                .set_insecure_ssl(src.get("InsecureSsl").and_then(Value::as_bool))
                .build()
                .unwrap(),
        )
        .artifacts(
            cb::ProjectArtifacts::builder()
                .r#type(cb::ArtifactsType::from(art["Type"].as_str().unwrap()))
                .set_location(s(art, "Location"))
                .set_name(s(art, "Name"))
                .set_namespace_type(
                    s(art, "NamespaceType").map(|x| cb::ArtifactNamespace::from(x.as_str())),
                )
                .set_packaging(s(art, "Packaging").map(|x| cb::ArtifactPackaging::from(x.as_str())))
                .set_encryption_disabled(art.get("EncryptionDisabled").and_then(Value::as_bool))
                .build()
                .unwrap(),
        )
        .environment(
            cb::ProjectEnvironment::builder()
                .r#type(cb::EnvironmentType::from(env["Type"].as_str().unwrap()))
                .compute_type(cb::ComputeType::from(env["ComputeType"].as_str().unwrap()))
                .image(env["Image"].as_str().unwrap())
                .set_privileged_mode(env["PrivilegedMode"].as_bool())
                .set_image_pull_credentials_type(
                    s(env, "ImagePullCredentialsType")
                        .map(|x| cb::ImagePullCredentialsType::from(x.as_str())),
                )
                .set_environment_variables(Some(vars))
                .build()
                .unwrap(),
        );
    if let Some(bdg) = live.get("BadgeEnabled").and_then(Value::as_bool) {
        b = b.badge(cb::ProjectBadge::builder().badge_enabled(bdg).build());
    }
    if let Some(cache) = live.get("Cache") {
        let modes = cache.get("Modes").and_then(Value::as_array).map(|m| {
            m.iter()
                .map(|x| cb::CacheMode::from(x.as_str().unwrap()))
                .collect::<Vec<_>>()
        });
        b = b.cache(
            cb::ProjectCache::builder()
                .r#type(cb::CacheType::from(cache["Type"].as_str().unwrap()))
                .set_modes(modes)
                .build()
                .unwrap(),
        );
    }
    for t in live
        .get("Tags")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        b = b.tags(
            cb::Tag::builder()
                .set_key(s(t, "Key"))
                .set_value(s(t, "Value"))
                .build(),
        );
    }
    b.build()
}

#[tokio::test]
async fn codebuild_projects_rebuild_the_corpus_models() {
    for name in [
        "AWS__CodeBuild__Project.Var3LambdaCb.json",
        "AWS__CodeBuild__Project.Proj26959B7F.envcache.json",
        "AWS__CodeBuild__Project.Build45A36621.json",
    ] {
        let c = case(name);
        let p = project(&c.live_raw);
        let rule = mock!(CodeBuild::batch_get_projects).then_output(move || {
            BatchGetProjectsOutput::builder()
                .projects(p.clone())
                .build()
        });
        let out = AwsLiveReader::new(clients(&[&rule]))
            .read(&request(&c))
            .await;
        assert_eq!(out, ReadOutcome::found(c.live_raw.clone()), "{name}");
    }
}

#[tokio::test]
async fn codebuild_settings_the_reader_does_not_map_are_read_gaps() {
    let c = case("AWS__CodeBuild__Project.Build45A36621.json");
    let mut req = request(&c);
    let logs = json!({"CloudWatchLogs": {"Status": "DISABLED"}});
    req.declared
        .insert("LogsConfig".into(), DeclaredValue::from_json(&logs));
    let p = project(&c.live_raw);
    let rule = mock!(CodeBuild::batch_get_projects).then_output(move || {
        BatchGetProjectsOutput::builder()
            .projects(p.clone())
            .build()
    });
    let ReadOutcome::Found(m) = AwsLiveReader::new(clients(&[&rule])).read(&req).await else {
        panic!("not found");
    };
    assert_eq!(m.gaps.keys().collect::<Vec<_>>(), vec!["LogsConfig"]);
    // A name BatchGetProjects does not know is a deleted project.
    let none = mock!(CodeBuild::batch_get_projects).then_output(|| {
        BatchGetProjectsOutput::builder()
            .projects_not_found("cdkrd-pipeline-build")
            .build()
    });
    let out = AwsLiveReader::new(clients(&[&none]))
        .read(&request(&c))
        .await;
    assert_eq!(out, ReadOutcome::NotFound);
}

fn key(id: &str, status: StatusType) -> AccessKeyMetadata {
    AccessKeyMetadata::builder()
        .user_name("deployer")
        .access_key_id(id)
        .status(status)
        .build()
}

#[tokio::test]
async fn access_keys_read_status_only_and_never_a_secret() {
    let req = ReadRequest {
        logical_id: "Key".into(),
        resource_type: "AWS::IAM::AccessKey".into(),
        physical_id: "AKIAEXAMPLE2".into(),
        declared: [
            (
                "UserName".to_string(),
                DeclaredValue::String("deployer".into()),
            ),
            (
                "Status".to_string(),
                DeclaredValue::String("Inactive".into()),
            ),
            ("Serial".to_string(), DeclaredValue::from_json(&json!(2))),
        ]
        .into_iter()
        .collect(),
        ..Default::default()
    };
    let rule = mock!(Iam::list_access_keys)
        .match_requests(|r| r.user_name() == Some("deployer"))
        .then_output(|| {
            ListAccessKeysOutput::builder()
                .access_key_metadata(key("AKIAEXAMPLE1", StatusType::Active))
                .access_key_metadata(key("AKIAEXAMPLE2", StatusType::Active))
                .build()
                .unwrap()
        });
    let ReadOutcome::Found(m) = AwsLiveReader::new(clients(&[&rule])).read(&req).await else {
        panic!("not found");
    };
    assert_eq!(
        m.properties,
        json!({"UserName": "deployer", "Status": "Active"})
    );
    assert_eq!(m.gaps.keys().collect::<Vec<_>>(), vec!["Serial"]);
    let gone = mock!(Iam::list_access_keys)
        .then_http_response(|| xml_error(404, "NoSuchEntity", "no such user"));
    let out = AwsLiveReader::new(clients(&[&gone])).read(&req).await;
    assert_eq!(out, ReadOutcome::NotFound);
}

/// The EC2 answer behind the corpus launch template's data.
fn template_data(d: &Value) -> ec2::ResponseLaunchTemplateData {
    let mappings = d["BlockDeviceMappings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let e = &m["Ebs"];
            ec2::LaunchTemplateBlockDeviceMapping::builder()
                .set_device_name(s(m, "DeviceName"))
                .ebs(
                    ec2::LaunchTemplateEbsBlockDevice::builder()
                        .set_encrypted(e.get("Encrypted").and_then(Value::as_bool))
                        .set_delete_on_termination(
                            e.get("DeleteOnTermination").and_then(Value::as_bool),
                        )
                        .set_volume_size(i(e, "VolumeSize"))
                        .set_volume_type(
                            s(e, "VolumeType").map(|v| ec2::VolumeType::from(v.as_str())),
                        )
                        .build(),
                )
                .build()
        });
    let spec = &d["TagSpecifications"][0];
    let tags = spec["Tags"].as_array().unwrap().iter().map(|t| {
        ec2::Tag::builder()
            .set_key(s(t, "Key"))
            .set_value(s(t, "Value"))
            .build()
    });
    let md = &d["MetadataOptions"];
    ec2::ResponseLaunchTemplateData::builder()
        .set_block_device_mappings(Some(mappings.collect()))
        .instance_type(ec2::InstanceType::from(d["InstanceType"].as_str().unwrap()))
        .monitoring(
            ec2::LaunchTemplatesMonitoring::builder()
                .enabled(d["Monitoring"]["Enabled"].as_bool().unwrap())
                .build(),
        )
        .tag_specifications(
            ec2::LaunchTemplateTagSpecification::builder()
                .resource_type(ec2::ResourceType::Instance)
                .set_tags(Some(tags.collect()))
                .build(),
        )
        .credit_specification(
            ec2::CreditSpecification::builder()
                .cpu_credits("standard")
                .build(),
        )
        .metadata_options(
            ec2::LaunchTemplateInstanceMetadataOptions::builder()
                .http_tokens(ec2::LaunchTemplateHttpTokensState::from(
                    md["HttpTokens"].as_str().unwrap(),
                ))
                .set_http_put_response_hop_limit(i(md, "HttpPutResponseHopLimit"))
                .http_endpoint(ec2::LaunchTemplateInstanceMetadataEndpointState::from(
                    md["HttpEndpoint"].as_str().unwrap(),
                ))
                .build(),
        )
        .build()
}

fn cc_template(props: Value) -> aws_smithy_mocks::Rule {
    let props = props.to_string();
    mock!(Cc::get_resource).then_output(move || {
        GetResourceOutput::builder()
            .type_name("AWS::EC2::LaunchTemplate")
            .resource_description(
                ResourceDescription::builder()
                    .identifier("lt-0123")
                    .properties(props.clone())
                    .build(),
            )
            .build()
    })
}

#[tokio::test]
async fn launch_templates_compare_the_default_versions_data() {
    let c = case("AWS__EC2__LaunchTemplate.LaunchTemplate.json");
    let data = c.live_raw["LaunchTemplateData"].clone();
    let cc = cc_template(json!({"LaunchTemplateName": "cdkrd-integ-launchtemplate"}));
    let d = template_data(&data);
    let versions = mock!(Ec2::describe_launch_template_versions)
        .match_requests(|r| r.versions() == ["$Default".to_string()])
        .then_output(move || {
            DescribeLaunchTemplateVersionsOutput::builder()
                .launch_template_versions(
                    ec2::LaunchTemplateVersion::builder()
                        .version_number(2)
                        .default_version(true)
                        .launch_template_data(d.clone())
                        .build(),
                )
                .build()
        });
    let mut req = request(&c);
    req.physical_id = "lt-0123".into();
    let ReadOutcome::Found(m) = AwsLiveReader::new(clients(&[&cc, &versions]))
        .read(&req)
        .await
    else {
        panic!("not found");
    };
    assert_eq!(m.properties, c.live_raw);
    assert_eq!(m.read_back, vec!["LaunchTemplateData".to_string()]);
    assert!(m.gaps.is_empty(), "{:?}", m.gaps);
}

#[tokio::test]
async fn an_unreadable_default_version_leaves_the_data_a_read_gap() {
    let c = case("AWS__EC2__LaunchTemplate.LaunchTpl.json");
    let cc = cc_template(c.live_raw.clone());
    let denied = mock!(Ec2::describe_launch_template_versions)
        .then_http_response(|| ec2_error(403, "UnauthorizedOperation", "not allowed"));
    let ReadOutcome::Found(m) = AwsLiveReader::new(clients(&[&cc, &denied]))
        .read(&request(&c))
        .await
    else {
        panic!("not found");
    };
    assert!(m.read_back.is_empty());
    assert!(m.gaps["LaunchTemplateData"].contains("ec2:DescribeLaunchTemplateVersions"));
    assert_eq!(m.properties, c.live_raw);
}

/// The EC2 answer behind a corpus Client VPN endpoint.
fn vpn_endpoint(id: &str, live: &Value) -> ec2::ClientVpnEndpoint {
    let auth = live["AuthenticationOptions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            ec2::ClientVpnAuthentication::builder()
                .r#type(ec2::ClientVpnAuthenticationType::from(
                    a["Type"].as_str().unwrap(),
                ))
                .mutual_authentication(
                    ec2::CertificateAuthentication::builder()
                        .set_client_root_certificate_chain(s(
                            &a["MutualAuthentication"],
                            "ClientRootCertificateChainArn",
                        ))
                        .build(),
                )
                .build()
        });
    let sgs = live
        .get("SecurityGroupIds")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .map(|x| x.as_str().unwrap().to_string())
                .collect::<Vec<_>>()
        });
    ec2::ClientVpnEndpoint::builder()
        .client_vpn_endpoint_id(id)
        .status(
            ec2::ClientVpnEndpointStatus::builder()
                .code(ec2::ClientVpnEndpointStatusCode::PendingAssociate)
                .build(),
        )
        .set_client_cidr_block(s(live, "ClientCidrBlock"))
        .set_split_tunnel(live["SplitTunnel"].as_bool())
        .set_transport_protocol(
            s(live, "TransportProtocol").map(|t| ec2::TransportProtocol::from(t.as_str())),
        )
        .set_vpn_port(i(live, "VpnPort"))
        .set_server_certificate_arn(s(live, "ServerCertificateArn"))
        .set_security_group_ids(sgs)
        .set_vpc_id(s(live, "VpcId"))
        .set_session_timeout_hours(i(live, "SessionTimeoutHours"))
        .set_disconnect_on_session_timeout(live["DisconnectOnSessionTimeout"].as_bool())
        .connection_log_options(
            ec2::ConnectionLogResponseOptions::builder()
                .set_enabled(live["ConnectionLogOptions"]["Enabled"].as_bool())
                .build(),
        )
        // Returned on every read, not projected: the corpus models lack it.
        .client_connect_options(
            ec2::ClientConnectResponseOptions::builder()
                .enabled(false)
                .build(),
        )
        .set_authentication_options(Some(auth.collect()))
        .build()
}

#[tokio::test]
async fn client_vpn_endpoints_rebuild_the_corpus_models() {
    for name in [
        "AWS__EC2__ClientVpnEndpoint.Endpoint.json",
        "AWS__EC2__ClientVpnEndpoint.EndpointAssoc.json",
    ] {
        let c = case(name);
        let e = vpn_endpoint(&request(&c).physical_id, &c.live_raw);
        let rule = mock!(Ec2::describe_client_vpn_endpoints).then_output(move || {
            aws_sdk_ec2::operation::describe_client_vpn_endpoints::DescribeClientVpnEndpointsOutput::builder()
                .client_vpn_endpoints(e.clone())
                .build()
        });
        let out = AwsLiveReader::new(clients(&[&rule]))
            .read(&request(&c))
            .await;
        assert_eq!(out, ReadOutcome::found(c.live_raw.clone()), "{name}");
    }
}

#[tokio::test]
async fn client_vpn_associations_rebuild_the_corpus_model_and_disassociated_is_gone() {
    let c = case("AWS__EC2__ClientVpnTargetNetworkAssociation.Assoc.json");
    let req = request(&c);
    let answer = |code: ec2::AssociationStatusCode| {
        let t = ec2::TargetNetwork::builder()
            .association_id("cvpn-assoc-0a95ad8338e534ac2")
            .client_vpn_endpoint_id("cvpn-endpoint-0eb61aeb3a584e71a")
            .target_network_id("subnet-0619cffd4994934f9")
            .status(ec2::AssociationStatus::builder().code(code).build())
            .build();
        mock!(Ec2::describe_client_vpn_target_networks)
            .match_requests(|r| r.client_vpn_endpoint_id() == Some("cvpn-endpoint-0eb61aeb3a584e71a"))
            .then_output(move || {
                aws_sdk_ec2::operation::describe_client_vpn_target_networks::DescribeClientVpnTargetNetworksOutput::builder()
                    .client_vpn_target_networks(t.clone())
                    .build()
            })
    };
    let live = answer(ec2::AssociationStatusCode::Associated);
    let out = AwsLiveReader::new(clients(&[&live])).read(&req).await;
    assert_eq!(out, ReadOutcome::found(c.live_raw.clone()));
    let gone = answer(ec2::AssociationStatusCode::Disassociated);
    let out = AwsLiveReader::new(clients(&[&gone])).read(&req).await;
    assert_eq!(out, ReadOutcome::NotFound);
}

// ---- Readers added for the rest of issue 46 §1 (Route 53 groups, listener
// certificates, anomaly detectors, DocumentDB, DAX, DMS, Lake Formation).

/// A found model, or the test fails with the outcome.
async fn found(rules: &[&aws_smithy_mocks::Rule], req: &ReadRequest) -> LiveModel {
    match AwsLiveReader::new(clients(rules)).read(req).await {
        ReadOutcome::Found(m) => m,
        other => panic!("{other:?}"),
    }
}

/// The Route 53 answer for one corpus record set, as Route 53 spells it:
/// fully qualified, lower case.
fn route53_set(live: &Value) -> r53::ResourceRecordSet {
    let name = live["Name"].as_str().unwrap().to_ascii_lowercase();
    let fq = if name.ends_with('.') {
        name
    } else {
        format!("{name}.")
    };
    let mut b = r53::ResourceRecordSet::builder()
        .name(fq)
        .r#type(r53::RrType::from(live["Type"].as_str().unwrap()))
        .set_ttl(live["TTL"].as_str().map(|t| t.parse().unwrap()));
    for v in live["ResourceRecords"].as_array().unwrap() {
        b = b.resource_records(
            r53::ResourceRecord::builder()
                .value(v.as_str().unwrap())
                .build()
                .unwrap(),
        );
    }
    b.build().unwrap()
}

#[tokio::test]
async fn record_set_groups_read_each_declared_record_and_a_deleted_one_is_missing() {
    let c = case("AWS__Route53__RecordSetGroup.Records.json");
    let sets: Vec<Value> = c.live_raw["RecordSets"].as_array().unwrap().clone();
    let rules: Vec<aws_smithy_mocks::Rule> = sets
        .iter()
        .map(|live| {
            let set = route53_set(live);
            let kind = live["Type"].as_str().unwrap().to_string();
            mock!(Route53::list_resource_record_sets)
                .match_requests(move |r| {
                    r.start_record_type().map(|t| t.as_str()) == Some(kind.as_str())
                })
                .then_output(move || {
                    ListResourceRecordSetsOutput::builder()
                        .resource_record_sets(set.clone())
                        .is_truncated(false)
                        .max_items(1)
                        .build()
                        .unwrap()
                })
        })
        .collect();
    let req = request(&c);
    let m = found(&rules.iter().collect::<Vec<_>>(), &req).await;
    assert!(m.gaps.is_empty(), "{:?}", m.gaps);
    let got = m.properties["RecordSets"].as_array().unwrap();
    assert_eq!(got.len(), 2);
    assert_eq!(got[0]["Name"], "mixed-case.cdkrd-fphunt-a0810.com.");
    assert_eq!(got[1]["ResourceRecords"], sets[1]["ResourceRecords"]);
    assert_eq!(got[1]["TTL"], "300");
    // The engine compares the group clean against its template.
    let findings = compare(&c, m.properties.clone());
    assert!(findings.is_empty(), "{findings:?}");

    // The A record deleted in the console: the listing answers the next
    // name instead, which is not the record, so the group lacks it.
    let next = route53_set(&json!({"Name": "zzz.cdkrd-fphunt-a0810.com", "Type": "A",
        "TTL": "60", "ResourceRecords": ["192.0.2.9"]}));
    let gone = mock!(Route53::list_resource_record_sets)
        .match_requests(|r| r.start_record_type() == Some(&r53::RrType::A))
        .then_output(move || {
            ListResourceRecordSetsOutput::builder()
                .resource_record_sets(next.clone())
                .is_truncated(false)
                .max_items(1)
                .build()
                .unwrap()
        });
    let m = found(&[&gone, &rules[1]], &req).await;
    assert_eq!(m.properties["RecordSets"].as_array().unwrap().len(), 1);
    assert!(!compare(&c, m.properties).is_empty());
}

#[tokio::test]
async fn listener_certificates_leave_the_default_out_and_a_detached_one_is_gone() {
    let c = case("AWS__ElasticLoadBalancingV2__ListenerCertificate.SniCert.json");
    let sni = c.live_raw["Certificates"][0]["CertificateArn"]
        .as_str()
        .unwrap()
        .to_string();
    let answer = move |certs: Vec<(&'static str, bool)>| {
        DescribeListenerCertificatesOutput::builder()
            .set_certificates(Some(
                certs
                    .into_iter()
                    .map(|(a, d)| {
                        elb::Certificate::builder()
                            .certificate_arn(a)
                            .is_default(d)
                            .build()
                    })
                    .collect(),
            ))
            .build()
    };
    let sni_s: &'static str = Box::leak(sni.into_boxed_str());
    let both = mock!(Elbv2::describe_listener_certificates).then_output(move || {
        answer(vec![
            (
                "arn:aws:acm:us-east-1:111111111111:certificate/default",
                true,
            ),
            (sni_s, false),
        ])
    });
    let m = found(&[&both], &request(&c)).await;
    assert_eq!(m.properties, c.live_raw);
    let detached = mock!(Elbv2::describe_listener_certificates).then_output(move || {
        answer(vec![(
            "arn:aws:acm:us-east-1:111111111111:certificate/default",
            true,
        )])
    });
    let out = AwsLiveReader::new(clients(&[&detached]))
        .read(&request(&c))
        .await;
    assert_eq!(out, ReadOutcome::NotFound);
}

/// The CloudWatch answer behind a corpus detector's live model.
fn detector(live: &Value) -> cw::AnomalyDetector {
    let dims = |v: &Value| -> Vec<cw::Dimension> {
        v.as_array()
            .into_iter()
            .flatten()
            .map(|d| {
                cw::Dimension::builder()
                    .set_name(s(d, "Name"))
                    .set_value(s(d, "Value"))
                    .build()
            })
            .collect()
    };
    let mut b = cw::AnomalyDetector::builder();
    if let Some(sm) = live.get("SingleMetricAnomalyDetector") {
        b = b.single_metric_anomaly_detector(
            cw::SingleMetricAnomalyDetector::builder()
                .account_id("111111111111")
                .set_namespace(s(sm, "Namespace"))
                .set_metric_name(s(sm, "MetricName"))
                .set_stat(s(sm, "Stat"))
                .set_dimensions(Some(dims(&sm["Dimensions"])))
                .build(),
        );
    }
    if let Some(mm) = live.get("MetricMathAnomalyDetector") {
        let queries = mm["MetricDataQueries"].as_array().unwrap().iter().map(|q| {
            let mut qb = cw::MetricDataQuery::builder()
                .set_id(s(q, "Id"))
                .set_expression(s(q, "Expression"))
                .set_return_data(q["ReturnData"].as_bool());
            if let Some(st) = q.get("MetricStat") {
                let m = &st["Metric"];
                qb = qb.metric_stat(
                    cw::MetricStat::builder()
                        .metric(
                            cw::Metric::builder()
                                .set_namespace(s(m, "Namespace"))
                                .set_metric_name(s(m, "MetricName"))
                                .set_dimensions(Some(dims(&m["Dimensions"])))
                                .build(),
                        )
                        .set_period(i(st, "Period"))
                        .set_stat(s(st, "Stat"))
                        .build(),
                );
            }
            qb.build()
        });
        b = b.metric_math_anomaly_detector(
            cw::MetricMathAnomalyDetector::builder()
                .set_metric_data_queries(Some(queries.collect()))
                .build(),
        );
    }
    if let Some(conf) = live.get("Configuration") {
        let t = |v: &Value| {
            let text = format!("{}Z", v.as_str().unwrap());
            aws_smithy_types::DateTime::from_str(
                &text,
                aws_smithy_types::date_time::Format::DateTime,
            )
            .unwrap()
        };
        let ranges = conf["ExcludedTimeRanges"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|r| {
                cw::Range::builder()
                    .start_time(t(&r["StartTime"]))
                    .end_time(t(&r["EndTime"]))
                    .build()
            });
        b = b.configuration(
            cw::AnomalyDetectorConfiguration::builder()
                .set_excluded_time_ranges(Some(ranges.collect()))
                .set_metric_timezone(s(conf, "MetricTimeZone"))
                .build(),
        );
    }
    b.build()
}

#[tokio::test]
async fn anomaly_detectors_are_found_by_their_metric_and_compare_their_configuration() {
    let single = case("AWS__CloudWatch__AnomalyDetector.Detector.json");
    let math = case("AWS__CloudWatch__AnomalyDetector.MetricMath.json");
    // Another detector on the same metric with another statistic is not ours.
    let mut other = single.live_raw.clone();
    other["SingleMetricAnomalyDetector"]["Stat"] = json!("Average");
    let all = vec![
        detector(&other),
        detector(&single.live_raw),
        detector(&math.live_raw),
    ];
    let list = mock!(CloudWatch::describe_anomaly_detectors).then_output(move || {
        DescribeAnomalyDetectorsOutput::builder()
            .set_anomaly_detectors(Some(all.clone()))
            .build()
    });
    let m = found(&[&list], &request(&single)).await;
    // The detector's own account, which the template leaves out, is not a change.
    assert_eq!(m.properties, single.live_raw);
    assert!(compare(&single, m.properties).is_empty());
    let m = found(&[&list], &request(&math)).await;
    assert_eq!(m.properties, math.live_raw);

    // The time zone changed in the console is reported.
    let mut changed = single.live_raw.clone();
    changed["Configuration"]["MetricTimeZone"] = json!("UTC");
    let one = detector(&changed);
    let moved = mock!(CloudWatch::describe_anomaly_detectors).then_output(move || {
        DescribeAnomalyDetectorsOutput::builder()
            .anomaly_detectors(one.clone())
            .build()
    });
    let m = found(&[&moved], &request(&single)).await;
    let findings = compare(&single, m.properties);
    assert!(
        findings
            .iter()
            .any(|f| f.path == "Configuration.MetricTimeZone"),
        "{findings:?}"
    );
    // No detector on the metric any more: deleted.
    let none = mock!(CloudWatch::describe_anomaly_detectors)
        .then_output(|| DescribeAnomalyDetectorsOutput::builder().build());
    let out = AwsLiveReader::new(clients(&[&none]))
        .read(&request(&math))
        .await;
    assert_eq!(out, ReadOutcome::NotFound);
}

/// The DocumentDB answer behind a corpus cluster's live model.
fn docdb_cluster(live: &Value) -> docdb::DbCluster {
    let groups = live["VpcSecurityGroupIds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            docdb::VpcSecurityGroupMembership::builder()
                .vpc_security_group_id(g.as_str().unwrap())
                .status("active")
                .build()
        });
    docdb::DbCluster::builder()
        .set_db_cluster_identifier(s(live, "DBClusterIdentifier"))
        .set_backup_retention_period(i(live, "BackupRetentionPeriod"))
        .set_port(i(live, "Port"))
        .set_engine_version(s(live, "EngineVersion"))
        .set_master_username(s(live, "MasterUsername"))
        .set_preferred_backup_window(s(live, "PreferredBackupWindow"))
        .set_preferred_maintenance_window(s(live, "PreferredMaintenanceWindow"))
        .set_storage_encrypted(live["StorageEncrypted"].as_bool())
        .set_kms_key_id(s(live, "KmsKeyId"))
        .set_deletion_protection(live["DeletionProtection"].as_bool())
        .set_db_cluster_parameter_group(s(live, "DBClusterParameterGroupName"))
        .set_vpc_security_groups(Some(groups.collect()))
        .engine("docdb")
        .build()
}

#[tokio::test]
async fn docdb_clusters_rebuild_the_corpus_models_and_never_hold_the_password() {
    for name in [
        "AWS__DocDB__DBCluster.ClusterEB0386A7.json",
        "AWS__DocDB__DBCluster.ClusterVersionFp.json",
    ] {
        let c = case(name);
        let cluster = docdb_cluster(&c.live_raw);
        let rule = mock!(DocDb::describe_db_clusters).then_output(move || {
            DescribeDbClustersOutput::builder()
                .db_clusters(cluster.clone())
                .build()
        });
        let m = found(&[&rule], &request(&c)).await;
        let mut expected = c.live_raw.clone();
        expected["ManageMasterUserPassword"] = json!(false);
        assert_eq!(m.properties, expected, "{name}");
        // A declared password cannot be read back: a write-only readGap
        // (not lost coverage), never its value.
        let text = format!("{m:?}");
        assert!(!text.contains("Cdkrd-Test-Pw-9281"), "{name}");
        assert!(!m.gaps.contains_key("MasterUserPassword"), "{name}");
        assert_eq!(m.write_only, ["MasterUserPassword"], "{name}");
    }
    let c = case("AWS__DocDB__DBCluster.ClusterVersionFp.json");
    let gone = mock!(DocDb::describe_db_clusters)
        .then_http_response(|| xml_error(404, "DBClusterNotFoundFault", "no such cluster"));
    let out = AwsLiveReader::new(clients(&[&gone]))
        .read(&request(&c))
        .await;
    assert_eq!(out, ReadOutcome::NotFound);
}

#[tokio::test]
async fn docdb_instances_read_their_class_and_a_refused_read_is_lost_coverage() {
    let declared = json!({"DBClusterIdentifier": "cluster-a", "DBInstanceClass": "db.r6g.large",
        "AutoMinorVersionUpgrade": true, "CertificateRotationRestart": false});
    let req = ReadRequest {
        logical_id: "Instance".into(),
        resource_type: "AWS::DocDB::DBInstance".into(),
        physical_id: "instance-a".into(),
        declared: match DeclaredValue::from_json(&declared) {
            DeclaredValue::Object(m) => m,
            _ => unreachable!(),
        },
        account_id: Some("111111111111".into()),
        region: Some("us-east-1".into()),
        partition: Some("aws".into()),
    };
    // The class changed in the console.
    let rule = mock!(DocDb::describe_db_instances).then_output(|| {
        DescribeDbInstancesOutput::builder()
            .db_instances(
                docdb::DbInstance::builder()
                    .db_instance_identifier("instance-a")
                    .db_cluster_identifier("cluster-a")
                    .db_instance_class("db.r6g.xlarge")
                    .auto_minor_version_upgrade(true)
                    .engine("docdb")
                    .build(),
            )
            .build()
    });
    let m = found(&[&rule], &req).await;
    assert_eq!(m.properties["DBInstanceClass"], "db.r6g.xlarge");
    assert_eq!(
        m.gaps.keys().collect::<Vec<_>>(),
        vec!["CertificateRotationRestart"]
    );
    let denied = mock!(DocDb::describe_db_instances)
        .then_http_response(|| xml_error(403, "AccessDenied", "not allowed"));
    let out = AwsLiveReader::new(clients(&[&denied])).read(&req).await;
    assert!(
        matches!(out, ReadOutcome::Skipped { coverage_lost: true, ref reason } if reason.contains("rds:DescribeDBInstances")),
        "{out:?}"
    );
}

#[tokio::test]
async fn dax_clusters_rebuild_the_corpus_model_with_their_node_count_and_tags() {
    let c = case("AWS__DAX__Cluster.Cluster.json");
    let live = c.live_raw.clone();
    let cluster = dax::Cluster::builder()
        .set_cluster_name(s(&live, "ClusterName"))
        .cluster_arn("arn:aws:dax:us-east-1:111111111111:cache/cluster-qceilwg5tvcy")
        .set_node_type(s(&live, "NodeType"))
        .set_iam_role_arn(s(&live, "IAMRoleARN"))
        .set_preferred_maintenance_window(s(&live, "PreferredMaintenanceWindow"))
        .set_subnet_group(s(&live, "SubnetGroupName"))
        .cluster_endpoint_encryption_type(dax::ClusterEndpointEncryptionType::None)
        .security_groups(
            dax::SecurityGroupMembership::builder()
                .security_group_identifier("sg-03b54b1df3bfbc3c6")
                .status("active")
                .build(),
        )
        .parameter_group(
            dax::ParameterGroupStatus::builder()
                .parameter_group_name("default.dax1.0")
                .build(),
        )
        .total_nodes(1)
        .build();
    let describe = mock!(Dax::describe_clusters).then_output(move || {
        DaxDescribeClustersOutput::builder()
            .clusters(cluster.clone())
            .build()
    });
    let tags = mock!(Dax::list_tags).then_output(|| {
        ListTagsOutput::builder()
            .tags(
                dax::Tag::builder()
                    .key("aws:cloudformation:stack-name")
                    .value("S")
                    .build(),
            )
            .tags(
                dax::Tag::builder()
                    .key("cdkrd:ephemeral")
                    .value("1")
                    .build(),
            )
            .build()
    });
    let m = found(&[&describe, &tags], &request(&c)).await;
    let mut expected = live;
    expected["ReplicationFactor"] = json!(1);
    assert_eq!(m.properties, expected);
    assert!(m.gaps.is_empty(), "{:?}", m.gaps);
    assert!(compare(&c, m.properties)
        .iter()
        .all(|f| f.path != "ReplicationFactor"));
}

#[tokio::test]
async fn dms_replication_instances_rebuild_the_corpus_model() {
    let c = case("AWS__DMS__ReplicationInstance.HuntDmsRi.json");
    let live = c.live_raw.clone();
    let arn = c.resource.physical_id.clone().unwrap();
    let instance = dms::ReplicationInstance::builder()
        .set_replication_instance_identifier(s(&live, "ReplicationInstanceIdentifier"))
        .replication_instance_arn(&arn)
        .set_replication_instance_class(s(&live, "ReplicationInstanceClass"))
        .set_allocated_storage(i(&live, "AllocatedStorage"))
        .set_multi_az(live["MultiAZ"].as_bool())
        .set_engine_version(s(&live, "EngineVersion"))
        .set_auto_minor_version_upgrade(live["AutoMinorVersionUpgrade"].as_bool())
        .set_publicly_accessible(live["PubliclyAccessible"].as_bool())
        .set_availability_zone(s(&live, "AvailabilityZone"))
        .set_preferred_maintenance_window(s(&live, "PreferredMaintenanceWindow"))
        .set_kms_key_id(s(&live, "KmsKeyId"))
        .set_network_type(s(&live, "NetworkType"))
        .replication_subnet_group(
            dms::ReplicationSubnetGroup::builder()
                .set_replication_subnet_group_identifier(s(
                    &live,
                    "ReplicationSubnetGroupIdentifier",
                ))
                .build(),
        )
        .vpc_security_groups(
            dms::VpcSecurityGroupMembership::builder()
                .vpc_security_group_id("sg-0394d4b516f73dee8")
                .build(),
        )
        .build();
    let wanted = arn.clone();
    let describe = mock!(Dms::describe_replication_instances)
        .match_requests(move |r| r.filters().iter().any(|f| f.values() == [wanted.clone()]))
        .then_output(move || {
            DescribeReplicationInstancesOutput::builder()
                .replication_instances(instance.clone())
                .build()
        });
    let tag_list: Vec<dms::Tag> = live["Tags"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            dms::Tag::builder()
                .set_key(s(t, "Key"))
                .set_value(s(t, "Value"))
                .build()
        })
        .collect();
    let tags = mock!(Dms::list_tags_for_resource).then_output(move || {
        DmsListTagsOutput::builder()
            .set_tag_list(Some(tag_list.clone()))
            .build()
    });
    let m = found(&[&describe, &tags], &request(&c)).await;
    assert_eq!(m.properties, c.live_raw);
    assert!(m.gaps.is_empty(), "{:?}", m.gaps);
    let gone = mock!(Dms::describe_replication_instances).then_http_response(|| {
        json_error(
            400,
            "ResourceNotFoundFault",
            "No replication instance found",
        )
    });
    let out = AwsLiveReader::new(clients(&[&gone]))
        .read(&request(&c))
        .await;
    assert_eq!(out, ReadOutcome::NotFound);
}

#[tokio::test]
async fn lake_formation_locations_read_the_role_and_the_service_linked_choice() {
    let c = case("AWS__LakeFormation__Resource.HuntLfResource.json");
    let role = c.live_raw["RoleArn"].as_str().unwrap().to_string();
    let rule = mock!(LakeFormation::describe_resource).then_output(move || {
        DescribeResourceOutput::builder()
            .resource_info(
                lf::ResourceInfo::builder()
                    .resource_arn("arn:aws:s3:::cdkrd-hunt-lf-bucket-x9z7q")
                    .role_arn(&role)
                    .hybrid_access_enabled(false)
                    .build(),
            )
            .build()
    });
    let m = found(&[&rule], &request(&c)).await;
    let mut expected = c.live_raw.clone();
    expected["ResourceArn"] = json!("arn:aws:s3:::cdkrd-hunt-lf-bucket-x9z7q");
    expected["UseServiceLinkedRole"] = json!(true);
    assert_eq!(m.properties, expected);
    assert!(m.gaps.is_empty(), "{:?}", m.gaps);
    assert!(compare(&c, m.properties).is_empty());
    let gone = mock!(LakeFormation::describe_resource)
        .then_http_response(|| json_error(400, "EntityNotFoundException", "not registered"));
    let out = AwsLiveReader::new(clients(&[&gone]))
        .read(&request(&c))
        .await;
    assert_eq!(out, ReadOutcome::NotFound);
}
