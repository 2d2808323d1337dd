//! AWS::DAX::Cluster: DescribeClusters by name (the physical id), and its
//! tags (ListTags on the cluster's ARN), in the registry schema's shape.

use super::{failed_read, put, AwsClients, Model};
use crate::errors::describe;
use aws_sdk_dax::types::{Cluster, SseStatus};
use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use realdrift_core::pipeline::{Projection, ReadOutcome, ReadRequest};
use serde_json::{json, Map, Value};

/// What the reader maps; the rest is a readGap when declared.
pub const PROJECTION: Projection = Projection {
    resource_type: "AWS::DAX::Cluster",
    reads: &[
        "ClusterName",
        "Description",
        "IAMRoleARN",
        "NodeType",
        "ReplicationFactor",
        "NotificationTopicARN",
        "ParameterGroupName",
        "PreferredMaintenanceWindow",
        "SecurityGroupIds",
        "SubnetGroupName",
        "SSESpecification",
        "ClusterEndpointEncryptionType",
        "NetworkType",
        "Tags",
    ],
    leaves_out: "AvailabilityZones places nodes once at creation and is not read back",
};

/// Tag pages read at most.
const MAX_PAGES: usize = 20;

/// Reads the cluster named by the physical id, then its tags.
pub fn read<'a>(clients: &'a AwsClients, req: &'a ReadRequest) -> BoxFuture<'a, ReadOutcome> {
    async move {
        let name = req.physical_id.as_str();
        let answer = clients
            .dax
            .describe_clusters()
            .cluster_names(name)
            .send()
            .await;
        let out = match answer {
            Ok(o) => o,
            Err(e) => {
                return failed_read(
                    &e,
                    &["ClusterNotFoundFault"],
                    &format!("dax:DescribeClusters on {name}"),
                );
            }
        };
        let Some(c) = out
            .clusters()
            .iter()
            .find(|c| c.cluster_name() == Some(name))
        else {
            return ReadOutcome::NotFound;
        };
        let mut m = cluster_model(c);
        if let Some(arn) = c.cluster_arn() {
            match tags(clients, arn).await {
                Ok(t) => {
                    m.insert("Tags".into(), t);
                }
                Err(o) => return *o,
            }
        }
        Model::new(PROJECTION, req, Value::Object(m)).found()
    }
    .boxed()
}

/// The cluster in the CloudFormation shape, only what DAX returned.
fn cluster_model(c: &Cluster) -> Map<String, Value> {
    let mut m = Map::new();
    put(&mut m, "ClusterName", c.cluster_name());
    put(&mut m, "Description", c.description());
    put(&mut m, "IAMRoleARN", c.iam_role_arn());
    put(&mut m, "NodeType", c.node_type());
    // ReplicationFactor is the cluster's number of nodes.
    put(&mut m, "ReplicationFactor", c.total_nodes());
    put(
        &mut m,
        "NotificationTopicARN",
        c.notification_configuration().and_then(|n| n.topic_arn()),
    );
    put(
        &mut m,
        "ParameterGroupName",
        c.parameter_group().and_then(|p| p.parameter_group_name()),
    );
    put(
        &mut m,
        "PreferredMaintenanceWindow",
        c.preferred_maintenance_window(),
    );
    put(&mut m, "SubnetGroupName", c.subnet_group());
    put(
        &mut m,
        "ClusterEndpointEncryptionType",
        c.cluster_endpoint_encryption_type().map(|x| x.as_str()),
    );
    put(&mut m, "NetworkType", c.network_type().map(|x| x.as_str()));
    let groups: Vec<&str> = c
        .security_groups()
        .iter()
        .filter_map(|g| g.security_group_identifier())
        .collect();
    if !groups.is_empty() {
        m.insert("SecurityGroupIds".into(), json!(groups));
    }
    // Only a settled status says whether encryption at rest is on.
    let sse = match c.sse_description().and_then(|s| s.status()) {
        Some(SseStatus::Enabled) => Some(true),
        Some(SseStatus::Disabled) => Some(false),
        _ => None,
    };
    if let Some(on) = sse {
        m.insert("SSESpecification".into(), json!({ "SSEEnabled": on }));
    }
    m
}

/// The cluster's tags as the schema's key-value map; `aws:` keys are
/// AWS-reserved (CloudFormation's own) and cannot be declared.
async fn tags(clients: &AwsClients, arn: &str) -> Result<Value, Box<ReadOutcome>> {
    let mut out = Map::new();
    let mut token: Option<String> = None;
    for _ in 0..MAX_PAGES {
        let answer = clients
            .dax
            .list_tags()
            .resource_name(arn)
            .set_next_token(token.take())
            .send()
            .await;
        let page = match answer {
            Ok(p) => p,
            Err(e) => {
                let info = describe(&e, &[]);
                return Err(Box::new(ReadOutcome::denied(format!(
                    "dax:ListTags on {arn}: {}",
                    info.message
                ))));
            }
        };
        for t in page.tags() {
            if let (Some(k), Some(v)) = (t.key(), t.value()) {
                if !k.starts_with("aws:") {
                    out.insert(k.to_string(), json!(v));
                }
            }
        }
        match page.next_token() {
            Some(t) if !t.is_empty() => token = Some(t.to_string()),
            _ => return Ok(Value::Object(out)),
        }
    }
    Err(Box::new(ReadOutcome::denied(format!(
        "dax:ListTags on {arn}: more than {MAX_PAGES} pages"
    ))))
}
