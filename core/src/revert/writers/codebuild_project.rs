//! AWS::CodeBuild::Project: UpdateProject with one declared top-level
//! setting. CodeBuild replaces a structure it is given whole, so a declared
//! structure is written only when the writer maps every member the template
//! declares in it; otherwise the revert is refused, never half-written.

use super::declared_json;
use crate::revert::input::RevertResource;
use crate::revert::model::{RefusalReason, ServiceOp};
use crate::revert::target::Refused;

/// The structures the writer maps, with the members it writes (CloudFormation
/// names; aws/src/writers/codebuild_project.rs converts exactly these).
pub(super) const STRUCTURE_MEMBERS: &[(&str, &[&str])] = &[
    (
        "Environment",
        &[
            "Type",
            "Image",
            "ComputeType",
            "PrivilegedMode",
            "Certificate",
            "ImagePullCredentialsType",
            "EnvironmentVariables",
        ],
    ),
    (
        "Source",
        &[
            "Type",
            "Location",
            "BuildSpec",
            "GitCloneDepth",
            "InsecureSsl",
            "ReportBuildStatus",
            "SourceIdentifier",
        ],
    ),
    ("VpcConfig", &["VpcId", "Subnets", "SecurityGroupIds"]),
];

/// The UpdateProject call writing the declared `top` of the project.
pub(super) fn update(res: &RevertResource, top: &str) -> Result<ServiceOp, Refused> {
    let Some(name) = res.physical_id.clone().filter(|n| !n.is_empty()) else {
        return Err((
            RefusalReason::NoTarget,
            "the project's physical id (its name) is unknown".into(),
        ));
    };
    let Some(value) = declared_json(res, top)? else {
        return Err((
            RefusalReason::NoTarget,
            format!("the template declares no {top}; UpdateProject cannot remove a setting"),
        ));
    };
    if let Some((_, members)) = STRUCTURE_MEMBERS.iter().find(|(s, _)| *s == top) {
        let declared = value.as_object().map(|m| m.keys()).into_iter().flatten();
        if let Some(unmapped) = declared
            .into_iter()
            .find(|k| !members.contains(&k.as_str()))
        {
            return Err((
                RefusalReason::NoWriter,
                format!(
                    "declared {top}.{unmapped} is not written by the codebuildProject writer, and \
                     UpdateProject replaces {top} whole"
                ),
            ));
        }
    }
    Ok(ServiceOp::UpdateCodeBuildProject {
        name,
        property: top.to_string(),
        value,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::declared::DeclaredValue;
    use serde_json::{json, Value};

    fn project(declared: Value) -> RevertResource {
        let mut res = RevertResource {
            physical_id: Some("build-app".into()),
            ..RevertResource::default()
        };
        if let DeclaredValue::Object(m) = DeclaredValue::from_json(&declared) {
            res.declared = m;
        }
        res
    }

    #[test]
    fn the_declared_environment_is_written_whole() {
        let env = json!({"Type": "LINUX_CONTAINER", "ComputeType": "BUILD_GENERAL1_SMALL",
                         "Image": "aws/codebuild/standard:7.0", "PrivilegedMode": false});
        let res = project(json!({"Environment": env, "ServiceRole": "arn:aws:iam::1:role/b"}));
        let op = update(&res, "Environment").unwrap();
        assert_eq!(
            op,
            ServiceOp::UpdateCodeBuildProject {
                name: "build-app".into(),
                property: "Environment".into(),
                value: env
            }
        );
    }

    #[test]
    fn an_unmapped_member_or_an_undeclared_setting_is_refused() {
        let res = project(json!({"Environment": {"Type": "LINUX_CONTAINER",
            "RegistryCredential": {"Credential": "arn", "CredentialProvider": "SECRETS_MANAGER"}}}));
        let (reason, message) = update(&res, "Environment").unwrap_err();
        assert_eq!(reason, RefusalReason::NoWriter);
        assert!(
            message.contains("Environment.RegistryCredential"),
            "{message}"
        );
        let (reason, _) = update(&res, "Description").unwrap_err();
        assert_eq!(reason, RefusalReason::NoTarget);
        let mut nameless = project(json!({"Description": "x"}));
        nameless.physical_id = None;
        assert_eq!(
            update(&nameless, "Description").unwrap_err().0,
            RefusalReason::NoTarget
        );
    }
}
