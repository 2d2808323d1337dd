//! AWS::DocDB::DBCluster: DescribeDBClusters by identifier (the physical id),
//! projected into the registry schema's shape. The master password is never
//! returned by DocumentDB, so it never reaches a model, report or baseline.

use super::{failed_read, put, AwsClients, Model};
use aws_sdk_docdb::types::DbCluster;
use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use realdrift_core::pipeline::{Projection, ReadOutcome, ReadRequest};
use serde_json::{json, Map, Value};

/// What the reader maps; the rest is a readGap when declared.
pub const PROJECTION: Projection = Projection {
    resource_type: "AWS::DocDB::DBCluster",
    reads: &[
        "DBClusterIdentifier",
        "BackupRetentionPeriod",
        "Port",
        "EngineVersion",
        "MasterUsername",
        "PreferredBackupWindow",
        "PreferredMaintenanceWindow",
        "StorageEncrypted",
        "KmsKeyId",
        "DeletionProtection",
        "DBClusterParameterGroupName",
        "DBSubnetGroupName",
        "VpcSecurityGroupIds",
        "AvailabilityZones",
        "EnableCloudwatchLogsExports",
        "StorageType",
        "CopyTagsToSnapshot",
        "NetworkType",
        "ServerlessV2ScalingConfiguration",
        "ManageMasterUserPassword",
        "MasterUserSecretKmsKeyId",
    ],
    leaves_out: "DocumentDB never returns the master password; restore and rotation \
                 inputs (snapshot, source cluster, restore time, RotateMasterUserPassword) \
                 act once at deploy; tags and the global cluster are not read",
};

/// Never returned by DocumentDB, and not write-only in the (handler-less)
/// registry schema: a declared password is a write-only `readGap`, as on a
/// type Cloud Control reads, not lost coverage.
const WRITE_ONLY: &[&str] = &["MasterUserPassword"];

/// Reads the cluster named by the physical id.
pub fn read<'a>(clients: &'a AwsClients, req: &'a ReadRequest) -> BoxFuture<'a, ReadOutcome> {
    async move {
        let id = req.physical_id.as_str();
        let answer = clients
            .docdb
            .describe_db_clusters()
            .db_cluster_identifier(id)
            .send()
            .await;
        let out = match answer {
            Ok(o) => o,
            Err(e) => {
                return failed_read(
                    &e,
                    &["DBClusterNotFoundFault"],
                    &format!("rds:DescribeDBClusters (DocumentDB) on {id}"),
                );
            }
        };
        let found = out
            .db_clusters()
            .iter()
            .find(|c| c.db_cluster_identifier() == Some(id));
        match found {
            Some(c) => Model::new(PROJECTION, req, cluster_model(c))
                .write_only(WRITE_ONLY)
                .found(),
            None => ReadOutcome::NotFound,
        }
    }
    .boxed()
}

/// The CloudFormation-shaped model of a cluster, only what DocumentDB returned.
fn cluster_model(c: &DbCluster) -> Value {
    let mut m = Map::new();
    put(&mut m, "DBClusterIdentifier", c.db_cluster_identifier());
    put(&mut m, "BackupRetentionPeriod", c.backup_retention_period());
    put(&mut m, "Port", c.port());
    put(&mut m, "EngineVersion", c.engine_version());
    put(&mut m, "MasterUsername", c.master_username());
    put(&mut m, "PreferredBackupWindow", c.preferred_backup_window());
    put(
        &mut m,
        "PreferredMaintenanceWindow",
        c.preferred_maintenance_window(),
    );
    put(&mut m, "StorageEncrypted", c.storage_encrypted());
    put(&mut m, "KmsKeyId", c.kms_key_id());
    put(&mut m, "DeletionProtection", c.deletion_protection());
    put(
        &mut m,
        "DBClusterParameterGroupName",
        c.db_cluster_parameter_group(),
    );
    put(&mut m, "DBSubnetGroupName", c.db_subnet_group());
    put(&mut m, "StorageType", c.storage_type());
    put(&mut m, "CopyTagsToSnapshot", c.copy_tags_to_snapshot());
    put(&mut m, "NetworkType", c.network_type());
    let groups: Vec<&str> = c
        .vpc_security_groups()
        .iter()
        .filter_map(|g| g.vpc_security_group_id())
        .collect();
    if !groups.is_empty() {
        m.insert("VpcSecurityGroupIds".into(), json!(groups));
    }
    if !c.availability_zones().is_empty() {
        m.insert("AvailabilityZones".into(), json!(c.availability_zones()));
    }
    if !c.enabled_cloudwatch_logs_exports().is_empty() {
        m.insert(
            "EnableCloudwatchLogsExports".into(),
            json!(c.enabled_cloudwatch_logs_exports()),
        );
    }
    if let Some(s) = c.serverless_v2_scaling_configuration() {
        let mut sm = Map::new();
        put(&mut sm, "MinCapacity", s.min_capacity());
        put(&mut sm, "MaxCapacity", s.max_capacity());
        m.insert("ServerlessV2ScalingConfiguration".into(), Value::Object(sm));
    }
    // A managed master password shows as the secret's metadata (never the
    // password): present means managed, absent means not.
    let secret = c.master_user_secret();
    m.insert("ManageMasterUserPassword".into(), json!(secret.is_some()));
    put(
        &mut m,
        "MasterUserSecretKmsKeyId",
        secret.and_then(|s| s.kms_key_id()),
    );
    Value::Object(m)
}
