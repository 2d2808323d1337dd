//! AWS::LakeFormation::Resource: UpdateResource with the declared role and
//! flags on the declared location.

use super::{op_error, sdk_error, service, AttemptError, WriteCall};
use crate::clients::AwsClients;
use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use realdrift_core::revert::{ServiceOp, WriteOutcome};

/// Applies a batch of these calls (the writer's table row).
pub fn write(call: WriteCall<'_>) -> BoxFuture<'_, WriteOutcome> {
    service(call, apply)
}

/// Refuses an empty ARN (UpdateResource requires both).
fn present<'s>(arn: &'s str, what: &str) -> Result<&'s str, AttemptError> {
    if arn.is_empty() {
        return Err(AttemptError {
            code: None,
            message: format!("the declared {what} is empty; UpdateResource requires it"),
        });
    }
    Ok(arn)
}

/// Updates the registered location.
fn apply<'a>(
    clients: &'a AwsClients,
    op: &'a ServiceOp,
) -> BoxFuture<'a, Result<(), AttemptError>> {
    async move {
        let ServiceOp::UpdateLakeFormationResource {
            resource_arn,
            role_arn,
            with_federation,
            hybrid_access_enabled,
        } = op
        else {
            return Err(op_error("lakeformationResource", op));
        };
        clients
            .lakeformation
            .update_resource()
            .resource_arn(present(resource_arn, "ResourceArn")?)
            .role_arn(present(role_arn, "RoleArn")?)
            .set_with_federation(*with_federation)
            .set_hybrid_access_enabled(*hybrid_access_enabled)
            .send()
            .await
            .map_err(|err| sdk_error("lakeformation:UpdateResource", resource_arn, &err))?;
        Ok(())
    }
    .boxed()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_arn_is_not_sent() {
        assert_eq!(present("arn:r", "RoleArn").unwrap(), "arn:r");
        let e = present("", "RoleArn").unwrap_err();
        assert!(e.message.contains("RoleArn"), "{}", e.message);
    }
}
