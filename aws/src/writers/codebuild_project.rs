//! AWS::CodeBuild::Project: UpdateProject with one declared top-level
//! setting, converted from CloudFormation's names to CodeBuild's. A value
//! the conversion cannot use fails the call naming it; nothing is guessed.

use super::declared::{boolean, built, int, member, strings, text, unusable};
use super::{op_error, sdk_error, service, AttemptError, WriteCall};
use crate::clients::AwsClients;
use aws_sdk_codebuild::operation::update_project::builders::UpdateProjectFluentBuilder;
use aws_sdk_codebuild::types::{
    ComputeType, EnvironmentType, EnvironmentVariable, EnvironmentVariableType,
    ImagePullCredentialsType, ProjectEnvironment, ProjectSource, SourceType, VpcConfig,
};
use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use realdrift_core::revert::{ServiceOp, WriteOutcome};
use serde_json::Value;

/// Applies a batch of these calls (the writer's table row).
pub fn write(call: WriteCall<'_>) -> BoxFuture<'_, WriteOutcome> {
    service(call, apply)
}

fn environment(v: &Value) -> Result<ProjectEnvironment, AttemptError> {
    let p = "Environment";
    let mut vars = Vec::new();
    for (i, var) in v
        .get("EnvironmentVariables")
        .map(|l| {
            l.as_array()
                .ok_or_else(|| unusable("Environment.EnvironmentVariables"))
        })
        .transpose()?
        .into_iter()
        .flatten()
        .enumerate()
    {
        let path = format!("Environment.EnvironmentVariables.{i}");
        let b = EnvironmentVariable::builder()
            .set_name(member(var, &path, "Name", text)?)
            .set_value(member(var, &path, "Value", text)?)
            .set_type(
                member(var, &path, "Type", text)?
                    .map(|t| EnvironmentVariableType::from(t.as_str())),
            );
        vars.push(built(b.build(), &path)?);
    }
    let b = ProjectEnvironment::builder()
        .set_type(member(v, p, "Type", text)?.map(|t| EnvironmentType::from(t.as_str())))
        .set_image(member(v, p, "Image", text)?)
        .set_compute_type(member(v, p, "ComputeType", text)?.map(|t| ComputeType::from(t.as_str())))
        .set_privileged_mode(member(v, p, "PrivilegedMode", boolean)?)
        .set_certificate(member(v, p, "Certificate", text)?)
        .set_image_pull_credentials_type(
            member(v, p, "ImagePullCredentialsType", text)?
                .map(|t| ImagePullCredentialsType::from(t.as_str())),
        )
        .set_environment_variables(Some(vars));
    built(b.build(), p)
}

fn source(v: &Value) -> Result<ProjectSource, AttemptError> {
    let p = "Source";
    let b = ProjectSource::builder()
        .set_type(member(v, p, "Type", text)?.map(|t| SourceType::from(t.as_str())))
        .set_location(member(v, p, "Location", text)?)
        .set_buildspec(member(v, p, "BuildSpec", text)?)
        .set_git_clone_depth(member(v, p, "GitCloneDepth", int)?)
        .set_insecure_ssl(member(v, p, "InsecureSsl", boolean)?)
        .set_report_build_status(member(v, p, "ReportBuildStatus", boolean)?)
        .set_source_identifier(member(v, p, "SourceIdentifier", text)?);
    built(b.build(), p)
}

fn vpc_config(v: &Value) -> Result<VpcConfig, AttemptError> {
    let p = "VpcConfig";
    Ok(VpcConfig::builder()
        .set_vpc_id(member(v, p, "VpcId", text)?)
        .set_subnets(member(v, p, "Subnets", strings)?)
        .set_security_group_ids(member(v, p, "SecurityGroupIds", strings)?)
        .build())
}

/// The call with one setting; an unknown property is refused (a plan defect).
fn with_setting(
    call: UpdateProjectFluentBuilder,
    property: &str,
    v: &Value,
) -> Result<UpdateProjectFluentBuilder, AttemptError> {
    Ok(match property {
        "Description" => call.description(text(v, property)?),
        "ServiceRole" => call.service_role(text(v, property)?),
        "TimeoutInMinutes" => call.timeout_in_minutes(int(v, property)?),
        "QueuedTimeoutInMinutes" => call.queued_timeout_in_minutes(int(v, property)?),
        "EncryptionKey" => call.encryption_key(text(v, property)?),
        "ConcurrentBuildLimit" => call.concurrent_build_limit(int(v, property)?),
        "SourceVersion" => call.source_version(text(v, property)?),
        "Environment" => call.environment(environment(v)?),
        "Source" => call.source(source(v)?),
        "VpcConfig" => call.vpc_config(vpc_config(v)?),
        other => {
            return Err(AttemptError {
                code: None,
                message: format!("the codebuildProject writer does not write {other}"),
            })
        }
    })
}

/// Updates one setting of one project.
fn apply<'a>(c: &'a AwsClients, op: &'a ServiceOp) -> BoxFuture<'a, Result<(), AttemptError>> {
    async move {
        let ServiceOp::UpdateCodeBuildProject {
            name,
            property,
            value,
        } = op
        else {
            return Err(op_error("codebuildProject", op));
        };
        let call = with_setting(c.codebuild.update_project().name(name), property, value)?;
        call.send().await.map_err(|err| {
            sdk_error(
                "codebuild:UpdateProject",
                &format!("{name} ({property})"),
                &err,
            )
        })?;
        Ok(())
    }
    .boxed()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_declared_environment_converts_with_its_variables() {
        let env = environment(&json!({
            "Type": "LINUX_CONTAINER", "ComputeType": "BUILD_GENERAL1_SMALL",
            "Image": "aws/codebuild/standard:7.0", "PrivilegedMode": "false",
            "EnvironmentVariables": [{"Name": "STAGE", "Value": "prod"},
                                     {"Name": "TOKEN", "Value": "/ci/token", "Type": "PARAMETER_STORE"}]
        }))
        .unwrap();
        assert_eq!(env.privileged_mode(), Some(false));
        assert_eq!(env.environment_variables().len(), 2);
        assert_eq!(
            env.environment_variables()[1].r#type(),
            Some(&EnvironmentVariableType::ParameterStore)
        );
    }

    #[test]
    fn an_incomplete_or_mistyped_structure_is_not_guessed() {
        let e = environment(&json!({"Type": "LINUX_CONTAINER"})).unwrap_err();
        assert!(
            e.message.contains("Environment is incomplete"),
            "{}",
            e.message
        );
        let e = environment(
            &json!({"Type": "LINUX_CONTAINER", "ComputeType": "BUILD_GENERAL1_SMALL",
            "Image": "i", "PrivilegedMode": "yes"}),
        )
        .unwrap_err();
        assert!(
            e.message.contains("Environment.PrivilegedMode"),
            "{}",
            e.message
        );
        let e = source(&json!({"Type": "NO_SOURCE", "GitCloneDepth": [1]})).unwrap_err();
        assert!(e.message.contains("Source.GitCloneDepth"), "{}", e.message);
    }
}
