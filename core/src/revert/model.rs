//! The revert plan: revertable items (each with its write operation) and
//! refused findings (each with a typed reason). Serde round-trippable in
//! camelCase, so a dry run can be returned and its digest checked later.

use crate::finding::Tier;
use json_patch::Patch;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The plan format version, part of the digest.
pub const PLAN_VERSION: u32 = 1;

/// A revert plan for one stack.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RevertPlan {
    /// Plan format version ([`PLAN_VERSION`]).
    pub version: u32,
    /// Stack name.
    pub stack: String,
    /// Account id, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub account: Option<String>,
    /// Region, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub region: Option<String>,
    /// Revertable items, in finding order.
    pub items: Vec<PlanItem>,
    /// Declared write-only properties re-sent with a resource's Cloud Control patch.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reincluded: Vec<Reinclusion>,
    /// Findings that will not be reverted, each with its reason.
    pub refused: Vec<Refusal>,
    /// Ids of revertable items left out by the selection.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_selected: Vec<String>,
    /// Selected ids that name no revertable item (refused or unknown).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unmatched_selection: Vec<String>,
    /// SHA-256 (hex) of the plan's canonical write content (see `digest`).
    pub digest: String,
}

/// Which resource an item or refusal is about.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceIdentity {
    /// Logical id (synthesized for an out-of-band child).
    pub logical_id: String,
    /// Resource type.
    pub resource_type: String,
    /// Physical id, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub physical_id: Option<String>,
}

/// Where a revert target comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ItemKind {
    /// Declared drift: the template value (canonical form).
    Template,
    /// Undeclared drift changed or removed since record: the baseline value.
    Baseline,
    /// A live-only value: removed.
    Remove,
    /// A live-only value the service keeps when omitted: its documented default is written.
    ExplicitDefault,
    /// An out-of-band resource: deleted.
    Delete,
}

/// The component that applies an item.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Writer {
    /// Cloud Control UpdateResource / DeleteResource.
    CloudControl,
    /// S3 PutBucketPolicy / DeleteBucketPolicy.
    S3BucketPolicy,
    /// SNS SetTopicAttributes (Policy).
    SnsTopicPolicy,
    /// SQS SetQueueAttributes (Policy).
    SqsQueuePolicy,
    /// IAM Put/Delete{Role,User,Group}Policy, per policy name.
    IamInlinePolicy,
    /// Lambda RemovePermission + AddPermission, per statement id.
    LambdaPermission,
    /// EC2 ReplaceNetworkAclEntry, per (ACL, rule number, direction).
    Ec2NetworkAclEntry,
    /// CodeBuild UpdateProject, one top-level setting per call.
    #[serde(rename = "codebuildProject")]
    CodeBuildProject,
    /// IAM UpdateAccessKey with the declared status.
    IamAccessKey,
    /// Route 53 ChangeResourceRecordSets: UPSERT of the declared record sets.
    #[serde(rename = "route53RecordSetGroup")]
    Route53RecordSetGroup,
    /// Elastic Load Balancing AddListenerCertificates, one per declared certificate.
    #[serde(rename = "elbv2ListenerCertificate")]
    Elbv2ListenerCertificate,
    /// DAX UpdateCluster, one declared setting per call.
    DaxCluster,
    /// DMS ModifyReplicationInstance, one declared setting per call, applied immediately.
    DmsReplicationInstance,
    /// Lake Formation UpdateResource with the declared role and flags.
    #[serde(rename = "lakeformationResource")]
    LakeFormationResource,
    /// EC2 ModifyClientVpnEndpoint, one declared top-level setting per call.
    #[serde(rename = "ec2ClientVpnEndpoint")]
    Ec2ClientVpnEndpoint,
    /// CloudWatch PutAnomalyDetector with the declared detector.
    #[serde(rename = "cloudwatchAnomalyDetector")]
    CloudWatchAnomalyDetector,
    /// DocumentDB ModifyDBCluster, one top-level setting per call, applied now.
    #[serde(rename = "docdbDbCluster")]
    DocDbCluster,
    /// DocumentDB ModifyDBInstance, one top-level setting per call, applied now.
    #[serde(rename = "docdbDbInstance")]
    DocDbInstance,
}

impl Writer {
    /// The wire name of the writer.
    pub fn as_str(self) -> &'static str {
        match self {
            Writer::CloudControl => "cloudControl",
            Writer::S3BucketPolicy => "s3BucketPolicy",
            Writer::SnsTopicPolicy => "snsTopicPolicy",
            Writer::SqsQueuePolicy => "sqsQueuePolicy",
            Writer::IamInlinePolicy => "iamInlinePolicy",
            Writer::LambdaPermission => "lambdaPermission",
            Writer::Ec2NetworkAclEntry => "ec2NetworkAclEntry",
            Writer::CodeBuildProject => "codebuildProject",
            Writer::IamAccessKey => "iamAccessKey",
            Writer::Route53RecordSetGroup => "route53RecordSetGroup",
            Writer::Elbv2ListenerCertificate => "elbv2ListenerCertificate",
            Writer::DaxCluster => "daxCluster",
            Writer::DmsReplicationInstance => "dmsReplicationInstance",
            Writer::LakeFormationResource => "lakeformationResource",
            Writer::Ec2ClientVpnEndpoint => "ec2ClientVpnEndpoint",
            Writer::CloudWatchAnomalyDetector => "cloudwatchAnomalyDetector",
            Writer::DocDbCluster => "docdbDbCluster",
            Writer::DocDbInstance => "docdbDbInstance",
        }
    }
}

/// One revertable finding.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PlanItem {
    /// Stable id: `<logicalId>:<path>`, or `<logicalId>:delete` for an out-of-band resource.
    pub id: String,
    /// The resource written.
    pub resource: ResourceIdentity,
    /// The finding's dotted path (empty for a whole resource).
    pub path: String,
    /// The finding's tier.
    pub tier: Tier,
    /// Where the target comes from.
    pub kind: ItemKind,
    /// A removal of a value nobody recorded (asked for with remove-unrecorded).
    #[serde(default, skip_serializing_if = "crate::finding::is_false")]
    pub unrecorded: bool,
    /// The live value the check reported.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub current: Option<Value>,
    /// The value the path holds after the write (`None`: absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<Value>,
    /// Tag keys the write keeps although the target does not name them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub preserved_tags: Vec<String>,
    /// Who applies the operation.
    pub writer: Writer,
    /// The write itself.
    pub operation: Operation,
}

/// The write an item performs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Operation {
    /// An RFC 6902 patch for Cloud Control UpdateResource.
    CloudControlPatch {
        /// The patch, against the resource's Cloud Control model.
        patch: Patch,
    },
    /// Cloud Control DeleteResource.
    CloudControlDelete,
    /// Calls of a service writer, for what Cloud Control cannot write.
    Service {
        /// The calls, in order.
        ops: Vec<ServiceOp>,
    },
}

/// An IAM principal an inline policy sits on.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct IamPrincipal {
    /// `role`, `user` or `group`.
    pub kind: PrincipalKind,
    /// The principal's name.
    pub name: String,
}

/// The kind of an IAM principal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum PrincipalKind {
    /// An IAM role.
    Role,
    /// An IAM user.
    User,
    /// An IAM group.
    Group,
}

/// One call of a service writer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "camelCase", rename_all_fields = "camelCase")]
pub enum ServiceOp {
    /// PutBucketPolicy.
    PutBucketPolicy {
        /// Bucket name.
        bucket: String,
        /// The whole policy document.
        policy_document: Value,
    },
    /// DeleteBucketPolicy.
    DeleteBucketPolicy {
        /// Bucket name.
        bucket: String,
    },
    /// SetTopicAttributes(Policy) on each topic.
    SetTopicPolicy {
        /// Topic ARNs.
        topics: Vec<String>,
        /// The whole policy document.
        policy_document: Value,
    },
    /// SetQueueAttributes(Policy) on each queue.
    SetQueuePolicy {
        /// Queue URLs.
        queues: Vec<String>,
        /// The whole policy document.
        policy_document: Value,
    },
    /// SetQueueAttributes(Policy = "") on each queue.
    RemoveQueuePolicy {
        /// Queue URLs.
        queues: Vec<String>,
    },
    /// Put{Role,User,Group}Policy on each principal.
    PutInlinePolicy {
        /// The principals.
        principals: Vec<IamPrincipal>,
        /// The inline policy name.
        policy_name: String,
        /// The whole policy document.
        policy_document: Value,
    },
    /// Delete{Role,User,Group}Policy on each principal.
    DeleteInlinePolicy {
        /// The principals.
        principals: Vec<IamPrincipal>,
        /// The inline policy name.
        policy_name: String,
    },
    /// RemovePermission then AddPermission with the declared properties.
    PutPermission {
        /// Function name or ARN.
        function_name: String,
        /// Statement id.
        statement_id: String,
        /// The declared AWS::Lambda::Permission properties (CloudFormation names).
        permission: Map<String, Value>,
    },
    /// RemovePermission.
    RemovePermission {
        /// Function name or ARN.
        function_name: String,
        /// Statement id.
        statement_id: String,
    },
    /// ReplaceNetworkAclEntry with the declared entry.
    ReplaceNetworkAclEntry {
        /// The declared AWS::EC2::NetworkAclEntry properties (CloudFormation names).
        entry: Map<String, Value>,
    },
    /// CodeBuild UpdateProject with one declared top-level setting.
    UpdateCodeBuildProject {
        /// The project's name.
        name: String,
        /// The top-level AWS::CodeBuild::Project property (CloudFormation name).
        property: String,
        /// Its declared value.
        value: Value,
    },
    /// IAM UpdateAccessKey.
    UpdateAccessKey {
        /// The declared user the key belongs to.
        user_name: String,
        /// The key's id (the physical id).
        access_key_id: String,
        /// The declared status (`Active` / `Inactive`).
        status: String,
    },
    /// Route 53 ChangeResourceRecordSets: one batch UPSERTing each record set.
    ChangeRecordSets {
        /// The group's hosted zone id.
        hosted_zone_id: String,
        /// The declared record sets (CloudFormation names).
        record_sets: Vec<Value>,
    },
    /// Elastic Load Balancing AddListenerCertificates with one certificate.
    AddListenerCertificate {
        /// The declared listener.
        listener_arn: String,
        /// One declared certificate's ARN.
        certificate_arn: String,
    },
    /// DAX UpdateCluster with one declared setting.
    UpdateDaxCluster {
        /// The cluster's name (the physical id).
        cluster_name: String,
        /// The AWS::DAX::Cluster property (CloudFormation name).
        property: String,
        /// Its declared value.
        value: Value,
    },
    /// DocumentDB ModifyDBCluster (ApplyImmediately) with one declared top-level setting.
    ModifyDocDbCluster {
        /// The cluster identifier.
        identifier: String,
        /// The top-level AWS::DocDB::DBCluster property (CloudFormation name).
        property: String,
        /// Its declared value.
        value: Value,
    },
    /// DMS ModifyReplicationInstance with one declared setting, applied immediately.
    ModifyReplicationInstance {
        /// The instance's ARN (the physical id).
        replication_instance_arn: String,
        /// The AWS::DMS::ReplicationInstance property (CloudFormation name).
        property: String,
        /// Its declared value.
        value: Value,
        /// The declared AllowMajorVersionUpgrade, sent with an EngineVersion only.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        allow_major_version_upgrade: Option<bool>,
    },
    /// Lake Formation UpdateResource with the declared state.
    UpdateLakeFormationResource {
        /// The declared data lake location.
        resource_arn: String,
        /// The declared role.
        role_arn: String,
        /// The declared WithFederation, if declared.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        with_federation: Option<bool>,
        /// The declared HybridAccessEnabled, if declared.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        hybrid_access_enabled: Option<bool>,
    },
    /// EC2 ModifyClientVpnEndpoint with declared settings.
    ModifyClientVpnEndpoint {
        /// The endpoint's id.
        endpoint_id: String,
        /// The declared AWS::EC2::ClientVpnEndpoint settings the call writes
        /// (CloudFormation names): one property, with `VpcId` when it
        /// carries `SecurityGroupIds`.
        settings: Map<String, Value>,
    },
    /// CloudWatch PutAnomalyDetector with the declared detector.
    PutAnomalyDetector {
        /// The declared AWS::CloudWatch::AnomalyDetector properties
        /// (CloudFormation names): its metric, configuration and
        /// metric characteristics.
        detector: Map<String, Value>,
    },
    /// DocumentDB ModifyDBInstance (ApplyImmediately) with one declared top-level setting.
    ModifyDocDbInstance {
        /// The instance identifier.
        identifier: String,
        /// The top-level AWS::DocDB::DBInstance property (CloudFormation name).
        property: String,
        /// Its declared value.
        value: Value,
    },
}

/// A write-only declared property re-sent with a resource's Cloud Control patch
/// (its read handler cannot return it, so the read-modify-write would drop it).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Reinclusion {
    /// The resource's logical id.
    pub logical_id: String,
    /// The top-level property.
    pub property: String,
    /// Its declared value.
    pub value: Value,
}

/// Why a finding is not reverted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum RefusalReason {
    /// A live-only value nobody recorded: no revert target exists.
    Unrecorded,
    /// A create-only property: changing it requires replacing the resource.
    CreateOnly,
    /// The resource is gone: recreate it by deploying.
    Deleted,
    /// The declared value cannot be read back.
    ReadGap,
    /// The declared value could not be resolved.
    Unresolved,
    /// The resource was not read.
    Skipped,
    /// An array element path no writer can address.
    ArrayElement,
    /// A masked or secret-bearing position that cannot be certified.
    Secret,
    /// No value to write is known.
    NoTarget,
    /// No writer can apply this change.
    NoWriter,
    /// A read-only property or a computed signal: nothing to write it with.
    ReadOnly,
    /// A declared write-only property the patch would drop cannot be re-sent.
    WriteOnlyDropped,
    /// The patch does not apply to the live model.
    PatchInvalid,
    /// Another item writes an overlapping path differently.
    Conflict,
}

impl RefusalReason {
    /// All reasons, in report order.
    pub const ALL: [RefusalReason; 14] = [
        RefusalReason::Deleted,
        RefusalReason::Unrecorded,
        RefusalReason::CreateOnly,
        RefusalReason::ArrayElement,
        RefusalReason::Secret,
        RefusalReason::ReadOnly,
        RefusalReason::NoWriter,
        RefusalReason::NoTarget,
        RefusalReason::WriteOnlyDropped,
        RefusalReason::PatchInvalid,
        RefusalReason::Conflict,
        RefusalReason::ReadGap,
        RefusalReason::Unresolved,
        RefusalReason::Skipped,
    ];

    /// A one-line summary used when refusals are folded by reason.
    pub fn summary(self) -> &'static str {
        match self {
            RefusalReason::Unrecorded => {
                "unrecorded — record it if the live value is right, or ask to remove unrecorded values"
            }
            RefusalReason::CreateOnly => "create-only property — requires replacing the resource",
            RefusalReason::Deleted => "deleted resource — recreate it by deploying",
            RefusalReason::ReadGap => "cannot be read back — nothing to compare or revert",
            RefusalReason::Unresolved => "unresolved template value — no certain target",
            RefusalReason::Skipped => "resource not read",
            RefusalReason::ArrayElement => "array element path no writer can address",
            RefusalReason::Secret => "secret-bearing position — cannot be certified",
            RefusalReason::NoTarget => "no value to write is known",
            RefusalReason::NoWriter => "no writer can apply this change",
            RefusalReason::ReadOnly => "read-only or computed value — nothing writes it",
            RefusalReason::WriteOnlyDropped => {
                "a declared write-only property would be dropped by the patch"
            }
            RefusalReason::PatchInvalid => "the patch does not apply to the live model",
            RefusalReason::Conflict => "overlaps another item that writes differently",
        }
    }
}

/// One finding that will not be reverted. Carries no values, so a secret can
/// never reach a refusal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Refusal {
    /// The id the item would have had.
    pub id: String,
    /// The resource.
    pub resource: ResourceIdentity,
    /// The finding's path.
    pub path: String,
    /// The finding's tier.
    pub tier: Tier,
    /// Why.
    pub reason: RefusalReason,
    /// A human explanation naming what to do instead (no values).
    pub message: String,
}
