//! Two items of one resource that write overlapping paths differently cannot
//! share one patch: the later one is refused (identical writes merge).

use super::address::{op_keys, overlaps};
use super::model::{Operation, PlanItem, Refusal, RefusalReason, ServiceOp};
use json_patch::PatchOperation;
use serde_json::Value;
use std::collections::BTreeMap;

/// What one resource's accepted items already write.
#[derive(Default)]
struct Written<'a> {
    patch: Vec<(Vec<String>, PatchOperation, &'a str)>,
    service: BTreeMap<String, (ServiceOp, &'a str)>,
}

/// Moves every item that conflicts with an earlier one into `refused`.
pub(crate) fn refuse_conflicts(items: &mut Vec<PlanItem>, refused: &mut Vec<Refusal>) {
    let mut conflicting: BTreeMap<usize, String> = BTreeMap::new();
    {
        let mut written: BTreeMap<&str, Written<'_>> = BTreeMap::new();
        for (i, item) in items.iter().enumerate() {
            let w = written
                .entry(item.resource.logical_id.as_str())
                .or_default();
            if let Some(other) = clash(w, item) {
                conflicting.insert(i, other.to_string());
                continue;
            }
            record(w, item);
        }
    }
    let mut i = 0;
    items.retain(|item| {
        let keep = match conflicting.get(&i) {
            None => true,
            Some(other) => {
                refused.push(Refusal {
                    id: item.id.clone(),
                    resource: item.resource.clone(),
                    path: item.path.clone(),
                    tier: item.tier,
                    reason: RefusalReason::Conflict,
                    message: format!(
                        "item {other} writes an overlapping path differently; revert one, then re-plan"
                    ),
                });
                false
            }
        };
        i += 1;
        keep
    });
}

/// The id of an earlier item this one clashes with.
fn clash<'a>(w: &Written<'a>, item: &PlanItem) -> Option<&'a str> {
    match &item.operation {
        Operation::CloudControlPatch { patch } => patch.iter().find_map(|op| {
            let keys = op_keys(op);
            w.patch
                .iter()
                .find(|(k, o, _)| overlaps(k, &keys) && o != op)
                .map(|(_, _, id)| *id)
        }),
        Operation::Service { ops } => ops.iter().find_map(|op| {
            w.service
                .get(&service_key(op))
                .filter(|(o, _)| o != op)
                .map(|(_, id)| *id)
        }),
        Operation::CloudControlDelete => None,
    }
}

fn record<'a>(w: &mut Written<'a>, item: &'a PlanItem) {
    match &item.operation {
        Operation::CloudControlPatch { patch } => {
            for op in patch.iter() {
                w.patch.push((op_keys(op), op.clone(), item.id.as_str()));
            }
        }
        Operation::Service { ops } => {
            for op in ops {
                w.service
                    .insert(service_key(op), (op.clone(), item.id.as_str()));
            }
        }
        Operation::CloudControlDelete => {}
    }
}

/// What a service call writes: two calls with one key write the same thing.
fn service_key(op: &ServiceOp) -> String {
    match op {
        ServiceOp::PutBucketPolicy { bucket, .. } | ServiceOp::DeleteBucketPolicy { bucket } => {
            format!("bucket:{bucket}")
        }
        ServiceOp::SetTopicPolicy { topics, .. } => format!("topics:{}", topics.join(",")),
        ServiceOp::SetQueuePolicy { queues, .. } | ServiceOp::RemoveQueuePolicy { queues } => {
            format!("queues:{}", queues.join(","))
        }
        ServiceOp::PutInlinePolicy {
            principals,
            policy_name,
            ..
        }
        | ServiceOp::DeleteInlinePolicy {
            principals,
            policy_name,
        } => {
            let who: Vec<String> = principals
                .iter()
                .map(|p| format!("{:?}/{}", p.kind, p.name))
                .collect();
            format!("inline:{}:{policy_name}", who.join(","))
        }
        ServiceOp::PutPermission {
            function_name,
            statement_id,
            ..
        }
        | ServiceOp::RemovePermission {
            function_name,
            statement_id,
        } => format!("permission:{function_name}|{statement_id}"),
        ServiceOp::ReplaceNetworkAclEntry { entry } => format!(
            "nacl-entry:{}|{}|{}",
            entry.get("NetworkAclId").unwrap_or(&Value::Null),
            entry.get("RuleNumber").unwrap_or(&Value::Null),
            entry.get("Egress").unwrap_or(&Value::Null)
        ),
        ServiceOp::UpdateCodeBuildProject { name, property, .. } => {
            format!("codebuild:{name}|{property}")
        }
        ServiceOp::UpdateAccessKey { access_key_id, .. } => format!("access-key:{access_key_id}"),
        ServiceOp::ChangeRecordSets {
            hosted_zone_id,
            record_sets,
        } => {
            let names: Vec<String> = record_sets
                .iter()
                .map(|r| format!("{}/{}", r["Name"], r["Type"]))
                .collect();
            format!("records:{hosted_zone_id}|{}", names.join(","))
        }
        ServiceOp::AddListenerCertificate {
            listener_arn,
            certificate_arn,
        } => format!("listener-certificate:{listener_arn}|{certificate_arn}"),
        ServiceOp::UpdateDaxCluster {
            cluster_name,
            property,
            ..
        } => format!("dax:{cluster_name}|{property}"),
        ServiceOp::ModifyReplicationInstance {
            replication_instance_arn,
            property,
            ..
        } => format!("dms:{replication_instance_arn}|{property}"),
        ServiceOp::UpdateLakeFormationResource { resource_arn, .. } => {
            format!("lakeformation:{resource_arn}")
        }
        ServiceOp::ModifyClientVpnEndpoint {
            endpoint_id,
            settings,
        } => {
            let keys: Vec<&str> = settings.keys().map(String::as_str).collect();
            format!("clientvpn:{endpoint_id}|{}", keys.join(","))
        }
        // One detector per metric: every call writes its whole declared state.
        ServiceOp::PutAnomalyDetector { .. } => "cloudwatch:anomalyDetector".to_string(),
        ServiceOp::ModifyDocDbCluster {
            identifier,
            property,
            ..
        } => format!("docdb-cluster:{identifier}|{property}"),
        ServiceOp::ModifyDocDbInstance {
            identifier,
            property,
            ..
        } => format!("docdb-instance:{identifier}|{property}"),
    }
}
