//! IAM inline policies, per policy name: Put{Role,User,Group}Policy with the
//! whole document, Delete{Role,User,Group}Policy (a policy already gone
//! counts as deleted). Used for AWS::IAM::Policy and for the `Policies` of
//! roles, users and groups.

use super::{op_error, sdk_error, service, AttemptError, WriteCall};
use crate::clients::AwsClients;
use crate::errors::describe;
use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use realdrift_core::revert::WriteOutcome;
use realdrift_core::revert::{IamPrincipal, PrincipalKind, ServiceOp};

/// Applies a batch of these calls (the writer's table row).
pub fn write(call: WriteCall<'_>) -> BoxFuture<'_, WriteOutcome> {
    service(call, apply)
}

/// Applies one inline policy call on every principal it names.
fn apply<'a>(c: &'a AwsClients, op: &'a ServiceOp) -> BoxFuture<'a, Result<(), AttemptError>> {
    async move {
        match op {
            ServiceOp::PutInlinePolicy {
                principals,
                policy_name,
                policy_document,
            } => {
                let doc = policy_document.to_string();
                for p in principals {
                    put(c, p, policy_name, &doc).await?;
                }
                Ok(())
            }
            ServiceOp::DeleteInlinePolicy {
                principals,
                policy_name,
            } => {
                for p in principals {
                    delete(c, p, policy_name).await?;
                }
                Ok(())
            }
            other => Err(op_error("iamInlinePolicy", other)),
        }
    }
    .boxed()
}

async fn put(c: &AwsClients, p: &IamPrincipal, name: &str, doc: &str) -> Result<(), AttemptError> {
    let target = format!("{} {} policy {name}", kind(p), p.name);
    let iam = &c.iam;
    match p.kind {
        PrincipalKind::Role => iam
            .put_role_policy()
            .role_name(&p.name)
            .policy_name(name)
            .policy_document(doc)
            .send()
            .await
            .map(|_| ())
            .map_err(|e| sdk_error("iam:PutRolePolicy", &target, &e)),
        PrincipalKind::User => iam
            .put_user_policy()
            .user_name(&p.name)
            .policy_name(name)
            .policy_document(doc)
            .send()
            .await
            .map(|_| ())
            .map_err(|e| sdk_error("iam:PutUserPolicy", &target, &e)),
        PrincipalKind::Group => iam
            .put_group_policy()
            .group_name(&p.name)
            .policy_name(name)
            .policy_document(doc)
            .send()
            .await
            .map(|_| ())
            .map_err(|e| sdk_error("iam:PutGroupPolicy", &target, &e)),
    }
}

/// Deletes an inline policy; `NoSuchEntity` means it is already gone.
async fn delete(c: &AwsClients, p: &IamPrincipal, name: &str) -> Result<(), AttemptError> {
    let target = format!("{} {} policy {name}", kind(p), p.name);
    let iam = &c.iam;
    let (op, result) = match p.kind {
        PrincipalKind::Role => (
            "iam:DeleteRolePolicy",
            iam.delete_role_policy()
                .role_name(&p.name)
                .policy_name(name)
                .send()
                .await
                .map(|_| ())
                .map_err(|e| describe(&e, &["NoSuchEntity"])),
        ),
        PrincipalKind::User => (
            "iam:DeleteUserPolicy",
            iam.delete_user_policy()
                .user_name(&p.name)
                .policy_name(name)
                .send()
                .await
                .map(|_| ())
                .map_err(|e| describe(&e, &["NoSuchEntity"])),
        ),
        PrincipalKind::Group => (
            "iam:DeleteGroupPolicy",
            iam.delete_group_policy()
                .group_name(&p.name)
                .policy_name(name)
                .send()
                .await
                .map(|_| ())
                .map_err(|e| describe(&e, &["NoSuchEntity"])),
        ),
    };
    match result {
        Ok(()) => Ok(()),
        Err(info) if info.class == crate::errors::ErrorClass::NotFound => Ok(()),
        Err(info) => Err(AttemptError {
            code: info.code,
            message: format!("{op} on {target}: {}", info.message),
        }),
    }
}

fn kind(p: &IamPrincipal) -> &'static str {
    match p.kind {
        PrincipalKind::Role => "role",
        PrincipalKind::User => "user",
        PrincipalKind::Group => "group",
    }
}
