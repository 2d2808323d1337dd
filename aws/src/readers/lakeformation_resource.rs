//! AWS::LakeFormation::Resource: DescribeResource on the declared data lake
//! location (`ResourceArn`), in the registry schema's shape.

use super::{declared_target, failed_read, put, AwsClients, Model};
use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use realdrift_core::pipeline::{Projection, ReadOutcome, ReadRequest};
use serde_json::{json, Map, Value};

/// Every property of the type.
pub const PROJECTION: Projection = Projection {
    resource_type: "AWS::LakeFormation::Resource",
    reads: &[
        "ResourceArn",
        "RoleArn",
        "UseServiceLinkedRole",
        "WithFederation",
        "HybridAccessEnabled",
    ],
    leaves_out: "not a property of a registered Lake Formation location",
};

/// The path of Lake Formation's service-linked role: a location registered
/// with `UseServiceLinkedRole` answers that role as its `RoleArn`.
const SERVICE_LINKED_ROLE_PATH: &str = ":role/aws-service-role/lakeformation.amazonaws.com/";

/// Reads the registered location; an unregistered one is gone.
pub fn read<'a>(clients: &'a AwsClients, req: &'a ReadRequest) -> BoxFuture<'a, ReadOutcome> {
    async move {
        let arn = match declared_target(req, "ResourceArn") {
            Ok(a) => a.to_string(),
            Err(o) => return *o,
        };
        let answer = clients
            .lakeformation
            .describe_resource()
            .resource_arn(&arn)
            .send()
            .await;
        let out = match answer {
            Ok(o) => o,
            Err(e) => {
                return failed_read(
                    &e,
                    &["EntityNotFoundException"],
                    &format!("lakeformation:DescribeResource on {arn}"),
                );
            }
        };
        let Some(r) = out.resource_info() else {
            return ReadOutcome::NotFound;
        };
        let mut m = Map::new();
        m.insert(
            "ResourceArn".into(),
            json!(r.resource_arn().unwrap_or(&arn)),
        );
        put(&mut m, "RoleArn", r.role_arn());
        put(
            &mut m,
            "UseServiceLinkedRole",
            r.role_arn().map(|a| a.contains(SERVICE_LINKED_ROLE_PATH)),
        );
        put(&mut m, "WithFederation", r.with_federation());
        put(&mut m, "HybridAccessEnabled", r.hybrid_access_enabled());
        Model::new(PROJECTION, req, Value::Object(m)).found()
    }
    .boxed()
}
