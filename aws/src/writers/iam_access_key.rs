//! AWS::IAM::AccessKey: UpdateAccessKey with the declared status. A status
//! IAM does not take fails the call naming it; nothing is guessed.

use super::{op_error, sdk_error, service, AttemptError, WriteCall};
use crate::clients::AwsClients;
use aws_sdk_iam::types::StatusType;
use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use realdrift_core::revert::{ServiceOp, WriteOutcome};

/// Applies a batch of these calls (the writer's table row).
pub fn write(call: WriteCall<'_>) -> BoxFuture<'_, WriteOutcome> {
    service(call, apply)
}

/// The declared status as IAM's enum; any other text is refused.
fn status(s: &str) -> Result<StatusType, AttemptError> {
    match s {
        "Active" => Ok(StatusType::Active),
        "Inactive" => Ok(StatusType::Inactive),
        other => Err(AttemptError {
            code: None,
            message: format!("the declared Status {other:?} is not a status UpdateAccessKey takes"),
        }),
    }
}

/// Sets one key's status.
fn apply<'a>(
    clients: &'a AwsClients,
    op: &'a ServiceOp,
) -> BoxFuture<'a, Result<(), AttemptError>> {
    async move {
        let ServiceOp::UpdateAccessKey {
            user_name,
            access_key_id,
            status: declared,
        } = op
        else {
            return Err(op_error("iamAccessKey", op));
        };
        clients
            .iam
            .update_access_key()
            .user_name(user_name)
            .access_key_id(access_key_id)
            .status(status(declared)?)
            .send()
            .await
            .map_err(|err| {
                sdk_error(
                    "iam:UpdateAccessKey",
                    &format!("{access_key_id} of {user_name}"),
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

    #[test]
    fn only_the_statuses_iam_takes_convert() {
        assert_eq!(status("Inactive").unwrap(), StatusType::Inactive);
        assert_eq!(status("Active").unwrap(), StatusType::Active);
        let e = status("inactive").unwrap_err();
        assert!(e.message.contains("\"inactive\""), "{}", e.message);
    }
}
