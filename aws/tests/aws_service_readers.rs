//! The service readers of issue 46 (network ACL entries, CodeBuild projects,
//! access keys, launch template default versions), fed the service answer
//! behind real corpus cases: each must rebuild the case's recorded live
//! model, and say what it could not read.

mod aws_support;

use aws_sdk_cloudcontrol::operation::get_resource::GetResourceOutput;
use aws_sdk_cloudcontrol::types::ResourceDescription;
use aws_sdk_cloudcontrol::Client as Cc;
use aws_sdk_codebuild::operation::batch_get_projects::BatchGetProjectsOutput;
use aws_sdk_codebuild::types as cb;
use aws_sdk_codebuild::Client as CodeBuild;
use aws_sdk_ec2::operation::describe_launch_template_versions::DescribeLaunchTemplateVersionsOutput;
use aws_sdk_ec2::operation::describe_network_acls::DescribeNetworkAclsOutput;
use aws_sdk_ec2::types as ec2;
use aws_sdk_ec2::Client as Ec2;
use aws_sdk_iam::operation::list_access_keys::ListAccessKeysOutput;
use aws_sdk_iam::types::{AccessKeyMetadata, StatusType};
use aws_sdk_iam::Client as Iam;
use aws_smithy_mocks::mock;
use aws_support::{clients, xml_error};
use realdrift_aws::AwsLiveReader;
use realdrift_core::corpus::CorpusCase;
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
