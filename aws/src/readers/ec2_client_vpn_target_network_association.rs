//! AWS::EC2::ClientVpnTargetNetworkAssociation: the association (physical
//! id) among the declared endpoint's target networks.

use super::{declared_target, failed_read, AwsClients, Model};
use aws_sdk_ec2::types::AssociationStatusCode;
use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use realdrift_core::pipeline::{Projection, ReadOutcome, ReadRequest};
use serde_json::json;

/// Both properties of the type.
pub const PROJECTION: Projection = Projection {
    resource_type: "AWS::EC2::ClientVpnTargetNetworkAssociation",
    reads: &["ClientVpnEndpointId", "SubnetId"],
    leaves_out: "not a property of a Client VPN target network",
};

/// Reads the association; a disassociated one is gone.
pub fn read<'a>(clients: &'a AwsClients, req: &'a ReadRequest) -> BoxFuture<'a, ReadOutcome> {
    async move {
        let endpoint = match declared_target(req, "ClientVpnEndpointId") {
            Ok(e) => e.to_string(),
            Err(o) => return *o,
        };
        let id = req.physical_id.as_str();
        let answer = clients
            .ec2
            .describe_client_vpn_target_networks()
            .client_vpn_endpoint_id(&endpoint)
            .association_ids(id)
            .send()
            .await;
        let out = match answer {
            Ok(o) => o,
            Err(e) => {
                return failed_read(&e, &["InvalidClientVpnEndpointId.NotFound"], &format!("ec2:DescribeClientVpnTargetNetworks on {endpoint}"));
            }
        };
        let gone = |c: Option<&AssociationStatusCode>| {
            matches!(
                c,
                Some(AssociationStatusCode::Disassociated | AssociationStatusCode::Disassociating)
            )
        };
        let live = out.client_vpn_target_networks().iter().find(|t| {
            t.association_id() == Some(id) && !gone(t.status().and_then(|s| s.code()))
        });
        match live {
            Some(t) => {
                let mut m = json!({ "ClientVpnEndpointId": t.client_vpn_endpoint_id().unwrap_or(&endpoint) });
                if let Some(s) = t.target_network_id() {
                    m["SubnetId"] = json!(s);
                }
                Model::new(PROJECTION, req, m).found()
            }
            None => ReadOutcome::NotFound,
        }
    }
    .boxed()
}
