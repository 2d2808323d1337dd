//! AWS::Lambda::Permission: one statement of a function's resource policy.
//! Lambda has no update call for a statement, so a drifted one is removed
//! and added again with the declared properties (a statement already gone
//! counts as removed); an out-of-band statement is removed.

use super::{op_error, sdk_error, service, AttemptError, WriteCall};
use crate::clients::AwsClients;
use crate::errors::{describe, ErrorClass};
use aws_sdk_lambda::types::FunctionUrlAuthType;
use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use realdrift_core::revert::ServiceOp;
use realdrift_core::revert::WriteOutcome;
use serde_json::{Map, Value};

/// The declared properties AddPermission takes (CloudFormation names).
const WRITTEN: &[&str] = &[
    "FunctionName",
    "Action",
    "Principal",
    "SourceArn",
    "SourceAccount",
    "PrincipalOrgID",
    "FunctionUrlAuthType",
    "EventSourceToken",
];

/// Applies a batch of these calls (the writer's table row).
pub fn write(call: WriteCall<'_>) -> BoxFuture<'_, WriteOutcome> {
    service(call, apply)
}

/// Applies one permission call.
fn apply<'a>(c: &'a AwsClients, op: &'a ServiceOp) -> BoxFuture<'a, Result<(), AttemptError>> {
    async move {
        match op {
            ServiceOp::PutPermission {
                function_name,
                statement_id,
                permission,
            } => {
                // Checked before anything is removed: never remove what cannot be put back.
                let add = add_input(function_name, statement_id, permission)?;
                remove(c, function_name, statement_id).await?;
                add.send_with(&c.lambda)
                    .await
                    .map(|_| ())
                    .map_err(|e| sdk_error("lambda:AddPermission", statement_id, &e))
            }
            ServiceOp::RemovePermission {
                function_name,
                statement_id,
            } => remove(c, function_name, statement_id).await,
            other => Err(op_error("lambdaPermission", other)),
        }
    }
    .boxed()
}

/// AddPermission's input from the declared properties; a property this
/// writer cannot send is an error, never silently dropped.
fn add_input(
    function: &str,
    sid: &str,
    p: &Map<String, Value>,
) -> Result<
    aws_sdk_lambda::operation::add_permission::builders::AddPermissionInputBuilder,
    AttemptError,
> {
    if let Some(unknown) = p.keys().find(|k| !WRITTEN.contains(&k.as_str())) {
        return Err(AttemptError {
            code: None,
            message: format!(
                "lambda:AddPermission {sid}: the declared property {unknown} has no AddPermission input; nothing was changed"
            ),
        });
    }
    let s = |k: &str| p.get(k).and_then(Value::as_str).map(str::to_string);
    let (Some(action), Some(principal)) = (s("Action"), s("Principal")) else {
        return Err(AttemptError {
            code: None,
            message: format!(
                "lambda:AddPermission {sid}: Action and Principal must be declared strings"
            ),
        });
    };
    Ok(
        aws_sdk_lambda::operation::add_permission::AddPermissionInput::builder()
            .function_name(function)
            .statement_id(sid)
            .action(action)
            .principal(principal)
            .set_source_arn(s("SourceArn"))
            .set_source_account(s("SourceAccount"))
            .set_principal_org_id(s("PrincipalOrgID"))
            .set_event_source_token(s("EventSourceToken"))
            .set_function_url_auth_type(
                s("FunctionUrlAuthType").map(|t| FunctionUrlAuthType::from(t.as_str())),
            ),
    )
}

/// RemovePermission; a statement (or function policy) already gone counts as removed.
async fn remove(c: &AwsClients, function: &str, sid: &str) -> Result<(), AttemptError> {
    match c
        .lambda
        .remove_permission()
        .function_name(function)
        .statement_id(sid)
        .send()
        .await
    {
        Ok(_) => Ok(()),
        Err(e) => {
            let info = describe(&e, &["ResourceNotFoundException"]);
            if info.class == ErrorClass::NotFound {
                Ok(())
            } else {
                Err(AttemptError {
                    code: info.code,
                    message: format!(
                        "lambda:RemovePermission {sid} on {function}: {}",
                        info.message
                    ),
                })
            }
        }
    }
}
