//! AWS::EC2::ClientVpnEndpoint: DescribeClientVpnEndpoints by id (the
//! physical id), projected into the registry schema's shape.

use super::{failed_read, put, AwsClients, Model};
use aws_sdk_ec2::types::{ClientVpnAuthentication, ClientVpnEndpoint, ClientVpnEndpointStatusCode};
use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use realdrift_core::pipeline::{Projection, ReadOutcome, ReadRequest};
use serde_json::{json, Map, Value};

/// What the reader maps from the endpoint description.
pub const PROJECTION: Projection = Projection {
    resource_type: "AWS::EC2::ClientVpnEndpoint",
    reads: &[
        "ClientCidrBlock",
        "Description",
        "DnsServers",
        "SplitTunnel",
        "TransportProtocol",
        "VpnPort",
        "ServerCertificateArn",
        "SecurityGroupIds",
        "VpcId",
        "SessionTimeoutHours",
        "DisconnectOnSessionTimeout",
        "ConnectionLogOptions.Enabled",
        "ConnectionLogOptions.CloudwatchLogGroup",
        "ConnectionLogOptions.CloudwatchLogStream",
        "AuthenticationOptions",
    ],
    leaves_out:
        "not mapped from DescribeClientVpnEndpoints yet (self-service portal, client connect, \
                 login banner and route enforcement options, authorization policy, device posture, \
                 IP address types, transit gateway configuration, tag specifications)",
};

/// Reads the endpoint; a deleted one (status `deleted`) is gone.
pub fn read<'a>(clients: &'a AwsClients, req: &'a ReadRequest) -> BoxFuture<'a, ReadOutcome> {
    async move {
        let id = req.physical_id.as_str();
        let answer = clients
            .ec2
            .describe_client_vpn_endpoints()
            .client_vpn_endpoint_ids(id)
            .send()
            .await;
        let out = match answer {
            Ok(o) => o,
            Err(e) => {
                return failed_read(
                    &e,
                    &["InvalidClientVpnEndpointId.NotFound"],
                    &format!("ec2:DescribeClientVpnEndpoints on {id}"),
                );
            }
        };
        let live = out.client_vpn_endpoints().iter().find(|e| {
            e.client_vpn_endpoint_id() == Some(id)
                && e.status().and_then(|s| s.code()) != Some(&ClientVpnEndpointStatusCode::Deleted)
        });
        match live {
            Some(e) => Model::new(PROJECTION, req, endpoint_model(e)).found(),
            None => ReadOutcome::NotFound,
        }
    }
    .boxed()
}

/// The CloudFormation-shaped model of an endpoint, only what EC2 returned.
pub(crate) fn endpoint_model(e: &ClientVpnEndpoint) -> Value {
    let mut m = Map::new();
    put(&mut m, "ClientCidrBlock", e.client_cidr_block());
    put(&mut m, "Description", e.description());
    if !e.dns_servers().is_empty() {
        m.insert("DnsServers".into(), json!(e.dns_servers()));
    }
    put(&mut m, "SplitTunnel", e.split_tunnel());
    put(
        &mut m,
        "TransportProtocol",
        e.transport_protocol().map(|t| t.as_str()),
    );
    put(&mut m, "VpnPort", e.vpn_port());
    put(&mut m, "ServerCertificateArn", e.server_certificate_arn());
    if !e.security_group_ids().is_empty() {
        m.insert("SecurityGroupIds".into(), json!(e.security_group_ids()));
    }
    put(&mut m, "VpcId", e.vpc_id());
    put(&mut m, "SessionTimeoutHours", e.session_timeout_hours());
    put(
        &mut m,
        "DisconnectOnSessionTimeout",
        e.disconnect_on_session_timeout(),
    );
    if let Some(l) = e.connection_log_options() {
        let mut lm = Map::new();
        put(&mut lm, "Enabled", l.enabled());
        put(&mut lm, "CloudwatchLogGroup", l.cloudwatch_log_group());
        put(&mut lm, "CloudwatchLogStream", l.cloudwatch_log_stream());
        m.insert("ConnectionLogOptions".into(), Value::Object(lm));
    }
    if !e.authentication_options().is_empty() {
        let a: Vec<Value> = e.authentication_options().iter().map(auth_model).collect();
        m.insert("AuthenticationOptions".into(), Value::Array(a));
    }
    Value::Object(m)
}

fn auth_model(a: &ClientVpnAuthentication) -> Value {
    let mut m = Map::new();
    put(&mut m, "Type", a.r#type().map(|t| t.as_str()));
    if let Some(d) = a.active_directory().and_then(|d| d.directory_id()) {
        m.insert("ActiveDirectory".into(), json!({ "DirectoryId": d }));
    }
    if let Some(c) = a
        .mutual_authentication()
        .and_then(|c| c.client_root_certificate_chain())
    {
        m.insert(
            "MutualAuthentication".into(),
            json!({ "ClientRootCertificateChainArn": c }),
        );
    }
    if let Some(f) = a.federated_authentication() {
        let mut fm = Map::new();
        put(&mut fm, "SAMLProviderArn", f.saml_provider_arn());
        put(
            &mut fm,
            "SelfServiceSAMLProviderArn",
            f.self_service_saml_provider_arn(),
        );
        m.insert("FederatedAuthentication".into(), Value::Object(fm));
    }
    Value::Object(m)
}
