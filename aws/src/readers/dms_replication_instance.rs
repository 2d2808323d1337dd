//! AWS::DMS::ReplicationInstance: DescribeReplicationInstances filtered by
//! the instance's ARN (the physical id), and its tags (ListTagsForResource).

use super::{failed_read, put, AwsClients, Model};
use aws_sdk_databasemigration::types::{Filter, ReplicationInstance};
use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use realdrift_core::pipeline::{Projection, ReadOutcome, ReadRequest};
use serde_json::{json, Map, Value};

/// What the reader maps; the rest is a readGap when declared.
pub const PROJECTION: Projection = Projection {
    resource_type: "AWS::DMS::ReplicationInstance",
    reads: &[
        "ReplicationInstanceIdentifier",
        "ReplicationInstanceClass",
        "AllocatedStorage",
        "MultiAZ",
        "EngineVersion",
        "AutoMinorVersionUpgrade",
        "PubliclyAccessible",
        "AvailabilityZone",
        "PreferredMaintenanceWindow",
        "KmsKeyId",
        "NetworkType",
        "ReplicationSubnetGroupIdentifier",
        "VpcSecurityGroupIds",
        "DnsNameServers",
        "Tags",
    ],
    leaves_out: "AllowMajorVersionUpgrade only permits an upgrade at deploy; \
                 ResourceIdentifier is not returned by DescribeReplicationInstances",
};

/// Reads the instance whose ARN is the physical id, then its tags.
pub fn read<'a>(clients: &'a AwsClients, req: &'a ReadRequest) -> BoxFuture<'a, ReadOutcome> {
    async move {
        let arn = req.physical_id.as_str();
        let filter = match Filter::builder()
            .name("replication-instance-arn")
            .values(arn)
            .build()
        {
            Ok(f) => f,
            Err(e) => return ReadOutcome::denied(format!("DMS filter: {e}")),
        };
        let answer = clients
            .dms
            .describe_replication_instances()
            .filters(filter)
            .send()
            .await;
        let out = match answer {
            Ok(o) => o,
            Err(e) => return failed("DescribeReplicationInstances", arn, &e),
        };
        let found = out
            .replication_instances()
            .iter()
            .find(|r| r.replication_instance_arn() == Some(arn));
        let Some(r) = found else {
            return ReadOutcome::NotFound;
        };
        let mut m = instance_model(r);
        match clients
            .dms
            .list_tags_for_resource()
            .resource_arn(arn)
            .send()
            .await
        {
            Ok(t) => {
                let tags: Vec<Value> = t
                    .tag_list()
                    .iter()
                    .map(|t| json!({"Key": t.key(), "Value": t.value()}))
                    .collect();
                if !tags.is_empty() {
                    m.insert("Tags".into(), Value::Array(tags));
                }
            }
            Err(e) => return failed("ListTagsForResource", arn, &e),
        }
        Model::new(PROJECTION, req, Value::Object(m)).found()
    }
    .boxed()
}

/// The outcome of a failed DMS call: a gone instance, else lost coverage.
fn failed<E>(
    action: &str,
    arn: &str,
    e: &aws_smithy_runtime_api::client::result::SdkError<E, aws_smithy_runtime_api::http::Response>,
) -> ReadOutcome
where
    E: aws_smithy_types::error::metadata::ProvideErrorMetadata + std::error::Error + 'static,
{
    failed_read(
        e,
        &["ResourceNotFoundFault"],
        &format!("dms:{action} on {arn}"),
    )
}

/// The instance in the CloudFormation shape, only what DMS returned.
fn instance_model(r: &ReplicationInstance) -> Map<String, Value> {
    let mut m = Map::new();
    put(
        &mut m,
        "ReplicationInstanceIdentifier",
        r.replication_instance_identifier(),
    );
    put(
        &mut m,
        "ReplicationInstanceClass",
        r.replication_instance_class(),
    );
    m.insert("AllocatedStorage".into(), json!(r.allocated_storage()));
    m.insert("MultiAZ".into(), json!(r.multi_az()));
    put(&mut m, "EngineVersion", r.engine_version());
    m.insert(
        "AutoMinorVersionUpgrade".into(),
        json!(r.auto_minor_version_upgrade()),
    );
    m.insert("PubliclyAccessible".into(), json!(r.publicly_accessible()));
    put(&mut m, "AvailabilityZone", r.availability_zone());
    put(
        &mut m,
        "PreferredMaintenanceWindow",
        r.preferred_maintenance_window(),
    );
    put(&mut m, "KmsKeyId", r.kms_key_id());
    put(&mut m, "NetworkType", r.network_type());
    put(
        &mut m,
        "ReplicationSubnetGroupIdentifier",
        r.replication_subnet_group()
            .and_then(|g| g.replication_subnet_group_identifier()),
    );
    put(&mut m, "DnsNameServers", r.dns_name_servers());
    let groups: Vec<&str> = r
        .vpc_security_groups()
        .iter()
        .filter_map(|g| g.vpc_security_group_id())
        .collect();
    if !groups.is_empty() {
        m.insert("VpcSecurityGroupIds".into(), json!(groups));
    }
    m
}
