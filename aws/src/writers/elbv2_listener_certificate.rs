//! AWS::ElasticLoadBalancingV2::ListenerCertificate: AddListenerCertificates
//! with one declared certificate per call (the call takes one; an attached
//! one is added again harmlessly).

use super::{op_error, sdk_error, service, AttemptError, WriteCall};
use crate::clients::AwsClients;
use aws_sdk_elasticloadbalancingv2::types::Certificate;
use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use realdrift_core::revert::{ServiceOp, WriteOutcome};

/// Applies a batch of these calls (the writer's table row).
pub fn write(call: WriteCall<'_>) -> BoxFuture<'_, WriteOutcome> {
    service(call, apply)
}

/// The certificate as the call takes it (ARN only, no IsDefault); an empty ARN is refused.
fn certificate(arn: &str) -> Result<Certificate, AttemptError> {
    if arn.is_empty() {
        return Err(AttemptError {
            code: None,
            message: "a declared CertificateArn is empty".into(),
        });
    }
    Ok(Certificate::builder().certificate_arn(arn).build())
}

/// Attaches one declared certificate to the declared listener.
fn apply<'a>(
    clients: &'a AwsClients,
    op: &'a ServiceOp,
) -> BoxFuture<'a, Result<(), AttemptError>> {
    async move {
        let ServiceOp::AddListenerCertificate {
            listener_arn,
            certificate_arn,
        } = op
        else {
            return Err(op_error("elbv2ListenerCertificate", op));
        };
        clients
            .elbv2
            .add_listener_certificates()
            .listener_arn(listener_arn)
            .certificates(certificate(certificate_arn)?)
            .send()
            .await
            .map_err(|err| {
                sdk_error(
                    "elasticloadbalancing:AddListenerCertificates",
                    &format!("{certificate_arn} on {listener_arn}"),
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
    fn a_declared_arn_converts_without_is_default_and_an_empty_one_is_not_sent() {
        let c = certificate("arn:c1").unwrap();
        assert_eq!(
            (c.certificate_arn(), c.is_default()),
            (Some("arn:c1"), None)
        );
        assert!(certificate("").is_err());
    }
}
