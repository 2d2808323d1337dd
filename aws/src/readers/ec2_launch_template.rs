//! AWS::EC2::LaunchTemplate supplement: Cloud Control reads the template but
//! its `LaunchTemplateData` is write-only in the registry, so a new default
//! version published in the console would never be compared. This reads the
//! DEFAULT version's data (DescribeLaunchTemplateVersions `$Default`) into
//! the model and marks it read back.

use super::{put, AwsClients};
use crate::errors::describe;
use aws_sdk_ec2::types::{LaunchTemplateBlockDeviceMapping, ResponseLaunchTemplateData, Tag};
use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use realdrift_core::pipeline::{LiveModel, Projection, ReadRequest};
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;

/// The launch template data settings mapped from the default version.
pub const PROJECTION: Projection = Projection {
    resource_type: "AWS::EC2::LaunchTemplate",
    reads: &[
        "LaunchTemplateData.ImageId",
        "LaunchTemplateData.InstanceType",
        "LaunchTemplateData.KeyName",
        "LaunchTemplateData.KernelId",
        "LaunchTemplateData.RamDiskId",
        "LaunchTemplateData.UserData",
        "LaunchTemplateData.EbsOptimized",
        "LaunchTemplateData.DisableApiTermination",
        "LaunchTemplateData.DisableApiStop",
        "LaunchTemplateData.InstanceInitiatedShutdownBehavior",
        "LaunchTemplateData.SecurityGroupIds",
        "LaunchTemplateData.SecurityGroups",
        "LaunchTemplateData.IamInstanceProfile",
        "LaunchTemplateData.Monitoring",
        "LaunchTemplateData.MetadataOptions",
        "LaunchTemplateData.CreditSpecification",
        "LaunchTemplateData.BlockDeviceMappings",
        "LaunchTemplateData.TagSpecifications",
    ],
    leaves_out:
        "not mapped from DescribeLaunchTemplateVersions yet (network interfaces, placement, \
                 market, CPU, capacity reservation, licenses, hibernation, enclave, instance \
                 requirements, DNS name, maintenance options)",
};

/// Adds the default version's `LaunchTemplateData` to a Cloud Control model.
pub fn supplement<'a>(
    clients: &'a AwsClients,
    req: &'a ReadRequest,
    model: &'a mut LiveModel,
) -> BoxFuture<'a, ()> {
    async move {
        let id = req.physical_id.as_str();
        let declared_data: BTreeMap<_, _> = req
            .declared
            .iter()
            .filter(|(k, _)| k.as_str() == "LaunchTemplateData")
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        let answer = clients
            .ec2
            .describe_launch_template_versions()
            .launch_template_id(id)
            .versions("$Default")
            .send()
            .await;
        let data = match answer {
            Ok(out) => out
                .launch_template_versions()
                .iter()
                .find(|v| v.default_version() == Some(true))
                .and_then(|v| v.launch_template_data())
                .map(data_model),
            Err(e) => {
                // Unread, not equal: the declared data stays a readGap, now with why.
                let why = format!(
                    "ec2:DescribeLaunchTemplateVersions on {id}: {}",
                    describe(&e, &[]).message
                );
                if !declared_data.is_empty() {
                    model.gaps.insert("LaunchTemplateData".into(), why);
                }
                return;
            }
        };
        let Some(data) = data else {
            model
                .notes
                .push(format!("launch template {id} has no default version data"));
            return;
        };
        if let Value::Object(m) = &mut model.properties {
            m.insert("LaunchTemplateData".into(), data);
        }
        model.read_back.push("LaunchTemplateData".into());
        model.gaps.extend(PROJECTION.gaps(&declared_data));
    }
    .boxed()
}

/// The CloudFormation-shaped data of one version, only what EC2 returned.
pub(crate) fn data_model(d: &ResponseLaunchTemplateData) -> Value {
    let mut m = Map::new();
    put(&mut m, "ImageId", d.image_id());
    put(
        &mut m,
        "InstanceType",
        d.instance_type().map(|t| t.as_str()),
    );
    put(&mut m, "KeyName", d.key_name());
    put(&mut m, "KernelId", d.kernel_id());
    put(&mut m, "RamDiskId", d.ram_disk_id());
    put(&mut m, "UserData", d.user_data());
    put(&mut m, "EbsOptimized", d.ebs_optimized());
    put(&mut m, "DisableApiTermination", d.disable_api_termination());
    put(&mut m, "DisableApiStop", d.disable_api_stop());
    put(
        &mut m,
        "InstanceInitiatedShutdownBehavior",
        d.instance_initiated_shutdown_behavior().map(|b| b.as_str()),
    );
    if !d.security_group_ids().is_empty() {
        m.insert("SecurityGroupIds".into(), json!(d.security_group_ids()));
    }
    if !d.security_groups().is_empty() {
        m.insert("SecurityGroups".into(), json!(d.security_groups()));
    }
    if let Some(p) = d.iam_instance_profile() {
        let mut pm = Map::new();
        put(&mut pm, "Arn", p.arn());
        put(&mut pm, "Name", p.name());
        m.insert("IamInstanceProfile".into(), Value::Object(pm));
    }
    if let Some(e) = d.monitoring().and_then(|x| x.enabled()) {
        m.insert("Monitoring".into(), json!({ "Enabled": e }));
    }
    if let Some(o) = d.metadata_options() {
        let mut om = Map::new();
        put(&mut om, "HttpTokens", o.http_tokens().map(|x| x.as_str()));
        put(
            &mut om,
            "HttpPutResponseHopLimit",
            o.http_put_response_hop_limit(),
        );
        put(
            &mut om,
            "HttpEndpoint",
            o.http_endpoint().map(|x| x.as_str()),
        );
        put(
            &mut om,
            "HttpProtocolIpv6",
            o.http_protocol_ipv6().map(|x| x.as_str()),
        );
        put(
            &mut om,
            "InstanceMetadataTags",
            o.instance_metadata_tags().map(|x| x.as_str()),
        );
        m.insert("MetadataOptions".into(), Value::Object(om));
    }
    if let Some(c) = d.credit_specification().and_then(|c| c.cpu_credits()) {
        m.insert("CreditSpecification".into(), json!({ "CpuCredits": c }));
    }
    if !d.block_device_mappings().is_empty() {
        let b: Vec<Value> = d
            .block_device_mappings()
            .iter()
            .map(mapping_model)
            .collect();
        m.insert("BlockDeviceMappings".into(), Value::Array(b));
    }
    if !d.tag_specifications().is_empty() {
        let t: Vec<Value> = d
            .tag_specifications()
            .iter()
            .map(|s| {
                let mut sm = Map::new();
                put(
                    &mut sm,
                    "ResourceType",
                    s.resource_type().map(|r| r.as_str()),
                );
                sm.insert("Tags".into(), tags(s.tags()));
                Value::Object(sm)
            })
            .collect();
        m.insert("TagSpecifications".into(), Value::Array(t));
    }
    Value::Object(m)
}

fn mapping_model(b: &LaunchTemplateBlockDeviceMapping) -> Value {
    let mut m = Map::new();
    put(&mut m, "DeviceName", b.device_name());
    put(&mut m, "VirtualName", b.virtual_name());
    put(&mut m, "NoDevice", b.no_device());
    if let Some(e) = b.ebs() {
        let mut em = Map::new();
        put(&mut em, "Encrypted", e.encrypted());
        put(&mut em, "DeleteOnTermination", e.delete_on_termination());
        put(&mut em, "Iops", e.iops());
        put(&mut em, "KmsKeyId", e.kms_key_id());
        put(&mut em, "SnapshotId", e.snapshot_id());
        put(&mut em, "VolumeSize", e.volume_size());
        put(&mut em, "VolumeType", e.volume_type().map(|v| v.as_str()));
        put(&mut em, "Throughput", e.throughput());
        m.insert("Ebs".into(), Value::Object(em));
    }
    Value::Object(m)
}

fn tags(t: &[Tag]) -> Value {
    Value::Array(
        t.iter()
            .map(|t| json!({"Key": t.key().unwrap_or_default(), "Value": t.value().unwrap_or_default()}))
            .collect(),
    )
}
