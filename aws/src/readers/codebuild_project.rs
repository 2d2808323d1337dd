//! AWS::CodeBuild::Project: BatchGetProjects by name (the physical id),
//! projected into the registry schema's shape.

use super::{put, AwsClients, Model};
use crate::errors::describe;
use aws_sdk_codebuild::types::{Project, ProjectArtifacts, ProjectEnvironment, ProjectSource};
use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use realdrift_core::pipeline::{Projection, ReadOutcome, ReadRequest};
use serde_json::{json, Map, Value};

/// What the reader maps; nested settings it does not map are readGaps.
pub const PROJECTION: Projection = Projection {
    resource_type: "AWS::CodeBuild::Project",
    reads: &[
        "Name",
        "Description",
        "ServiceRole",
        "TimeoutInMinutes",
        "QueuedTimeoutInMinutes",
        "EncryptionKey",
        "Tags",
        "VpcConfig",
        "ConcurrentBuildLimit",
        "SourceVersion",
        "Visibility",
        "BadgeEnabled",
        "ResourceAccessRole",
        "AutoRetryLimit",
        "Cache.Type",
        "Cache.Location",
        "Cache.Modes",
        "Source.Type",
        "Source.Location",
        "Source.BuildSpec",
        "Source.GitCloneDepth",
        "Source.InsecureSsl",
        "Source.ReportBuildStatus",
        "Source.SourceIdentifier",
        "Artifacts.Type",
        "Artifacts.Location",
        "Artifacts.Path",
        "Artifacts.NamespaceType",
        "Artifacts.Name",
        "Artifacts.Packaging",
        "Artifacts.OverrideArtifactName",
        "Artifacts.EncryptionDisabled",
        "Artifacts.ArtifactIdentifier",
        "Environment.Type",
        "Environment.Image",
        "Environment.ComputeType",
        "Environment.EnvironmentVariables",
        "Environment.PrivilegedMode",
        "Environment.Certificate",
        "Environment.ImagePullCredentialsType",
    ],
    leaves_out: "not mapped from BatchGetProjects yet (logs, secondary sources and artifacts, \
                 file systems, batch config, webhook triggers, source auth, registry credential, fleet)",
};

/// Reads the project named by the physical id.
pub fn read<'a>(clients: &'a AwsClients, req: &'a ReadRequest) -> BoxFuture<'a, ReadOutcome> {
    async move {
        let name = req.physical_id.as_str();
        let out = match clients
            .codebuild
            .batch_get_projects()
            .names(name)
            .send()
            .await
        {
            Ok(o) => o,
            Err(e) => {
                let info = describe(&e, &[]);
                return ReadOutcome::denied(format!(
                    "codebuild:BatchGetProjects on {name}: {}",
                    info.message
                ));
            }
        };
        match out.projects().iter().find(|p| p.name() == Some(name)) {
            Some(p) => Model::new(PROJECTION, req, project_model(p)).found(),
            // BatchGetProjects lists an unknown name under projectsNotFound.
            None => ReadOutcome::NotFound,
        }
    }
    .boxed()
}

/// The CloudFormation-shaped model of a project, only what CodeBuild returned.
pub(crate) fn project_model(p: &Project) -> Value {
    let mut m = Map::new();
    put(&mut m, "Name", p.name());
    put(&mut m, "Description", p.description());
    put(&mut m, "ServiceRole", p.service_role());
    put(&mut m, "TimeoutInMinutes", p.timeout_in_minutes());
    put(
        &mut m,
        "QueuedTimeoutInMinutes",
        p.queued_timeout_in_minutes(),
    );
    put(&mut m, "EncryptionKey", p.encryption_key());
    put(&mut m, "ConcurrentBuildLimit", p.concurrent_build_limit());
    put(&mut m, "SourceVersion", p.source_version());
    put(&mut m, "ResourceAccessRole", p.resource_access_role());
    put(&mut m, "AutoRetryLimit", p.auto_retry_limit());
    put(
        &mut m,
        "Visibility",
        p.project_visibility().map(|v| v.as_str()),
    );
    put(&mut m, "BadgeEnabled", p.badge().map(|b| b.badge_enabled()));
    if let Some(s) = p.source() {
        m.insert("Source".into(), source_model(s));
    }
    if let Some(a) = p.artifacts() {
        m.insert("Artifacts".into(), artifacts_model(a));
    }
    if let Some(e) = p.environment() {
        m.insert("Environment".into(), environment_model(e));
    }
    if let Some(c) = p.cache() {
        let mut cm = Map::new();
        cm.insert("Type".into(), json!(c.r#type().as_str()));
        put(&mut cm, "Location", c.location());
        if !c.modes().is_empty() {
            let modes: Vec<&str> = c.modes().iter().map(|x| x.as_str()).collect();
            cm.insert("Modes".into(), json!(modes));
        }
        m.insert("Cache".into(), Value::Object(cm));
    }
    if let Some(v) = p.vpc_config() {
        let mut vm = Map::new();
        put(&mut vm, "VpcId", v.vpc_id());
        vm.insert("Subnets".into(), json!(v.subnets()));
        vm.insert("SecurityGroupIds".into(), json!(v.security_group_ids()));
        m.insert("VpcConfig".into(), Value::Object(vm));
    }
    if !p.tags().is_empty() {
        let tags: Vec<Value> = p
            .tags()
            .iter()
            .map(|t| json!({"Key": t.key().unwrap_or_default(), "Value": t.value().unwrap_or_default()}))
            .collect();
        m.insert("Tags".into(), Value::Array(tags));
    }
    Value::Object(m)
}

fn source_model(s: &ProjectSource) -> Value {
    let mut m = Map::new();
    m.insert("Type".into(), json!(s.r#type().as_str()));
    put(&mut m, "Location", s.location());
    put(&mut m, "BuildSpec", s.buildspec());
    put(&mut m, "GitCloneDepth", s.git_clone_depth());
    put(&mut m, "InsecureSsl", s.insecure_ssl());
    put(&mut m, "ReportBuildStatus", s.report_build_status());
    put(&mut m, "SourceIdentifier", s.source_identifier());
    Value::Object(m)
}

fn artifacts_model(a: &ProjectArtifacts) -> Value {
    let mut m = Map::new();
    m.insert("Type".into(), json!(a.r#type().as_str()));
    put(&mut m, "Location", a.location());
    put(&mut m, "Path", a.path());
    put(&mut m, "Name", a.name());
    put(
        &mut m,
        "NamespaceType",
        a.namespace_type().map(|x| x.as_str()),
    );
    put(&mut m, "Packaging", a.packaging().map(|x| x.as_str()));
    put(&mut m, "OverrideArtifactName", a.override_artifact_name());
    put(&mut m, "EncryptionDisabled", a.encryption_disabled());
    put(&mut m, "ArtifactIdentifier", a.artifact_identifier());
    Value::Object(m)
}

fn environment_model(e: &ProjectEnvironment) -> Value {
    let mut m = Map::new();
    m.insert("Type".into(), json!(e.r#type().as_str()));
    m.insert("ComputeType".into(), json!(e.compute_type().as_str()));
    m.insert("Image".into(), json!(e.image()));
    put(&mut m, "PrivilegedMode", e.privileged_mode());
    put(&mut m, "Certificate", e.certificate());
    put(
        &mut m,
        "ImagePullCredentialsType",
        e.image_pull_credentials_type().map(|x| x.as_str()),
    );
    // PARAMETER_STORE / SECRETS_MANAGER values are names, not the secrets.
    let vars: Vec<Value> = e
        .environment_variables()
        .iter()
        .map(|v| {
            let mut vm = Map::new();
            vm.insert("Name".into(), json!(v.name()));
            vm.insert("Value".into(), json!(v.value()));
            put(&mut vm, "Type", v.r#type().map(|t| t.as_str()));
            Value::Object(vm)
        })
        .collect();
    m.insert("EnvironmentVariables".into(), Value::Array(vars));
    Value::Object(m)
}
