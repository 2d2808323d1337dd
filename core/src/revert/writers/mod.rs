//! Service writers for what Cloud Control cannot write, registered by data
//! (`core/data/revert-writers.json`): each builds the calls its writer makes,
//! from the declared properties and the finding. One file per writer.

mod cloudwatch_anomaly_detector;
mod codebuild_project;
mod dax_cluster;
mod dms_replication_instance;
mod docdb;
mod ec2_client_vpn_endpoint;
mod ec2_network_acl_entry;
mod elbv2_listener_certificate;
mod iam_access_key;
mod iam_inline_policy;
mod lakeformation_resource;
mod lambda_permission;
mod resource_policy;
mod route53_record_set_group;

pub(crate) use iam_inline_policy::property_ops as iam_property_ops;

use super::input::RevertResource;
use super::model::{ItemKind, RefusalReason, ServiceOp, Writer};
use super::rules::TypeWriter;
use super::target::{Decision, Refused};
use crate::declared::DeclaredValue;
use crate::normalize::canonicalize_for_compare;
use serde_json::Value;

/// The calls that converge a finding on a type a service writer applies whole.
pub(crate) fn type_ops(
    entry: &TypeWriter,
    res: &RevertResource,
    top: &str,
    decision: &Decision,
) -> Result<Vec<ServiceOp>, Refused> {
    if let Some(why) = entry.refuses.get(top) {
        return Err((
            RefusalReason::NoWriter,
            format!(
                "{} {top} is not written by the {} writer: {why}",
                entry.resource_type,
                entry.writer.as_str()
            ),
        ));
    }
    if !entry.writes.iter().any(|w| w == top) {
        return Err((
            RefusalReason::NoWriter,
            format!(
                "the {} writer converges only {}",
                entry.writer.as_str(),
                entry.writes.join(", ")
            ),
        ));
    }
    if decision.kind != ItemKind::Template {
        return Err((
            RefusalReason::NoWriter,
            format!(
                "the {} writer writes the declared state only; a value the template does not declare has no writer",
                entry.writer.as_str()
            ),
        ));
    }
    match entry.writer {
        Writer::S3BucketPolicy | Writer::SnsTopicPolicy | Writer::SqsQueuePolicy => {
            resource_policy::put(entry, res).map(|op| vec![op])
        }
        Writer::IamInlinePolicy => iam_inline_policy::converge_declared(res),
        Writer::LambdaPermission => lambda_permission::put(res).map(|op| vec![op]),
        Writer::Ec2NetworkAclEntry => ec2_network_acl_entry::replace(res).map(|op| vec![op]),
        Writer::CodeBuildProject => codebuild_project::update(res, top).map(|op| vec![op]),
        Writer::IamAccessKey => iam_access_key::update(res).map(|op| vec![op]),
        Writer::Route53RecordSetGroup => route53_record_set_group::upsert(res).map(|op| vec![op]),
        Writer::Elbv2ListenerCertificate => elbv2_listener_certificate::add(res),
        Writer::DaxCluster => dax_cluster::update(res, top).map(|op| vec![op]),
        Writer::DmsReplicationInstance => {
            dms_replication_instance::modify(res, top).map(|op| vec![op])
        }
        Writer::LakeFormationResource => lakeformation_resource::update(res).map(|op| vec![op]),
        Writer::Ec2ClientVpnEndpoint => {
            ec2_client_vpn_endpoint::modify(res, top).map(|op| vec![op])
        }
        Writer::CloudWatchAnomalyDetector => {
            cloudwatch_anomaly_detector::put(res).map(|op| vec![op])
        }
        Writer::DocDbCluster | Writer::DocDbInstance => {
            docdb::modify(entry.writer, res, top).map(|op| vec![op])
        }
        Writer::CloudControl => Err(no_writer(entry)),
    }
}

/// The calls that remove an out-of-band instance of a service-written type.
pub(crate) fn delete_ops(entry: &TypeWriter, identifier: &str) -> Result<Vec<ServiceOp>, Refused> {
    if !entry.delete {
        return Err(no_writer(entry));
    }
    match entry.writer {
        Writer::S3BucketPolicy => Ok(vec![ServiceOp::DeleteBucketPolicy {
            bucket: identifier.to_string(),
        }]),
        Writer::SqsQueuePolicy => Ok(vec![ServiceOp::RemoveQueuePolicy {
            queues: vec![identifier.to_string()],
        }]),
        Writer::LambdaPermission => lambda_permission::remove(identifier).map(|op| vec![op]),
        _ => Err(no_writer(entry)),
    }
}

fn no_writer(entry: &TypeWriter) -> Refused {
    (
        RefusalReason::NoWriter,
        format!(
            "the {} writer cannot remove an out-of-band {}",
            entry.writer.as_str(),
            entry.resource_type
        ),
    )
}

/// A declared property as JSON; refused when not fully resolved.
pub(crate) fn declared_json(res: &RevertResource, prop: &str) -> Result<Option<Value>, Refused> {
    match res.declared.get(prop) {
        None => Ok(None),
        Some(v) => v.to_json().map(Some).ok_or_else(|| {
            (
                RefusalReason::Unresolved,
                format!("declared {prop} is not resolved; the writer cannot build its call"),
            )
        }),
    }
}

/// A required declared property, in canonical form.
pub(crate) fn required_canonical(res: &RevertResource, prop: &str) -> Result<Value, Refused> {
    declared_json(res, prop)?
        .map(|v| canonicalize_for_compare(&v))
        .ok_or_else(|| missing(prop))
}

/// A declared string or list of strings (a lone string is a one-element list).
pub(crate) fn declared_strings(res: &RevertResource, prop: &str) -> Result<Vec<String>, Refused> {
    let shape = || {
        (
            RefusalReason::NoTarget,
            format!("declared {prop} is not a string or a list of strings"),
        )
    };
    match res.declared.get(prop) {
        None => Ok(Vec::new()),
        Some(v) if !v.is_fully_resolved() => Err((
            RefusalReason::Unresolved,
            format!("declared {prop} is not resolved; the writer cannot name its target"),
        )),
        Some(DeclaredValue::String(s)) => Ok(vec![s.clone()]),
        Some(DeclaredValue::Array(items)) => items
            .iter()
            .map(|i| match i {
                DeclaredValue::String(s) => Ok(s.clone()),
                _ => Err(shape()),
            })
            .collect(),
        Some(_) => Err(shape()),
    }
}

/// The resource's physical id (`what` names it in the refusal).
pub(crate) fn physical_id(res: &RevertResource, what: &str) -> Result<String, Refused> {
    res.physical_id
        .clone()
        .filter(|p| !p.is_empty())
        .ok_or_else(|| {
            (
                RefusalReason::NoTarget,
                format!("{what} (the physical id) is unknown"),
            )
        })
}

/// A required declared string.
pub(crate) fn declared_text(res: &RevertResource, prop: &str) -> Result<String, Refused> {
    match declared_json(res, prop)? {
        Some(Value::String(s)) => Ok(s),
        Some(_) => Err((
            RefusalReason::NoTarget,
            format!("declared {prop} is not a string"),
        )),
        None => Err(missing(prop)),
    }
}

pub(crate) fn missing(prop: &str) -> Refused {
    (
        RefusalReason::NoTarget,
        format!("the template declares no {prop}; the writer has nothing to write"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::revert::rules::revert_facts;
    use crate::revert::target::Change;
    use serde_json::json;

    #[test]
    fn a_declared_property_the_writer_refuses_is_named_with_why() {
        let entry = revert_facts().type_writer("AWS::DAX::Cluster").unwrap();
        let res = RevertResource {
            physical_id: Some("cache".into()),
            ..RevertResource::default()
        };
        let decision = Decision {
            change: Change::Set(json!(1)),
            kind: ItemKind::Template,
            unrecorded: false,
        };
        let (reason, message) = type_ops(entry, &res, "ReplicationFactor", &decision).unwrap_err();
        assert_eq!(reason, RefusalReason::NoWriter);
        assert!(
            message.contains("ReplicationFactor") && message.contains("IncreaseReplicationFactor"),
            "{message}"
        );
    }

    #[test]
    fn every_refused_property_is_one_the_writer_does_not_write() {
        for entry in &revert_facts().type_writers {
            for p in entry.refuses.keys() {
                assert!(!entry.writes.contains(p), "{} {p}", entry.resource_type);
            }
        }
    }
}
