//! AWS::DocDB::DBInstance: DescribeDBInstances by identifier (the physical
//! id), projected into the registry schema's shape.

use super::{failed_read, put, AwsClients, Model};
use aws_sdk_docdb::types::DbInstance;
use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use realdrift_core::pipeline::{Projection, ReadOutcome, ReadRequest};
use serde_json::{Map, Value};

/// What the reader maps; the rest is a readGap when declared.
pub const PROJECTION: Projection = Projection {
    resource_type: "AWS::DocDB::DBInstance",
    reads: &[
        "DBInstanceIdentifier",
        "DBInstanceClass",
        "DBClusterIdentifier",
        "AvailabilityZone",
        "AutoMinorVersionUpgrade",
        "PreferredMaintenanceWindow",
        "CACertificateIdentifier",
        "EnablePerformanceInsights",
    ],
    leaves_out: "CertificateRotationRestart acts once at deploy; tags are not read",
};

/// Reads the instance named by the physical id.
pub fn read<'a>(clients: &'a AwsClients, req: &'a ReadRequest) -> BoxFuture<'a, ReadOutcome> {
    async move {
        let id = req.physical_id.as_str();
        let answer = clients
            .docdb
            .describe_db_instances()
            .db_instance_identifier(id)
            .send()
            .await;
        let out = match answer {
            Ok(o) => o,
            Err(e) => {
                return failed_read(
                    &e,
                    &["DBInstanceNotFound"],
                    &format!("rds:DescribeDBInstances (DocumentDB) on {id}"),
                );
            }
        };
        let found = out
            .db_instances()
            .iter()
            .find(|i| i.db_instance_identifier() == Some(id));
        match found {
            Some(i) => Model::new(PROJECTION, req, instance_model(i)).found(),
            None => ReadOutcome::NotFound,
        }
    }
    .boxed()
}

/// The CloudFormation-shaped model of an instance, only what DocumentDB returned.
fn instance_model(i: &DbInstance) -> Value {
    let mut m = Map::new();
    put(&mut m, "DBInstanceIdentifier", i.db_instance_identifier());
    put(&mut m, "DBInstanceClass", i.db_instance_class());
    put(&mut m, "DBClusterIdentifier", i.db_cluster_identifier());
    put(&mut m, "AvailabilityZone", i.availability_zone());
    put(
        &mut m,
        "AutoMinorVersionUpgrade",
        i.auto_minor_version_upgrade(),
    );
    put(
        &mut m,
        "PreferredMaintenanceWindow",
        i.preferred_maintenance_window(),
    );
    put(
        &mut m,
        "CACertificateIdentifier",
        i.ca_certificate_identifier(),
    );
    put(
        &mut m,
        "EnablePerformanceInsights",
        i.performance_insights_enabled(),
    );
    Value::Object(m)
}
