//! Reaching other accounts: STS AssumeRole with the caller's credentials
//! (`check --accounts ... --role-name ROLE`).
//!
//! The role ARN is `arn:<partition>:iam::<account>:role/<role-name>`
//! (IAM identifiers, https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_identifiers.html);
//! the partition is the caller's own, read from STS GetCallerIdentity rather
//! than guessed from a region name.

use crate::errors::chain_text;
use aws_config::sts::AssumeRoleProvider;
use aws_config::SdkConfig;
use aws_credential_types::provider::{ProvideCredentials, SharedCredentialsProvider};

/// The session name every assumed session carries (it shows in CloudTrail
/// as the caller of every read of the sweep).
pub const SESSION_NAME: &str = "realdrift-check";

/// Why an account could not be reached.
#[derive(Debug, thiserror::Error)]
pub enum AssumeError {
    /// The caller's own identity could not be read (bad credentials).
    #[error("cannot read the caller's identity (sts:GetCallerIdentity): {0}")]
    Caller(String),
    /// The role could not be assumed.
    #[error("cannot assume {role_arn}: {message}")]
    Role {
        /// The role ARN tried.
        role_arn: String,
        /// What STS answered.
        message: String,
    },
}

/// The caller's partition (`aws`, `aws-cn`, ...), from its own ARN.
pub async fn caller_partition(base: &SdkConfig) -> Result<String, AssumeError> {
    let sts = aws_sdk_sts::Client::new(base);
    let me = sts
        .get_caller_identity()
        .send()
        .await
        .map_err(|e| AssumeError::Caller(chain_text(&e)))?;
    me.arn()
        .and_then(partition_of)
        .ok_or_else(|| AssumeError::Caller("the answer carries no ARN".into()))
}

/// The partition field of an ARN (`arn:PARTITION:...`).
fn partition_of(arn: &str) -> Option<String> {
    let mut parts = arn.split(':');
    match (parts.next(), parts.next()) {
        (Some("arn"), Some(p)) if !p.is_empty() => Some(p.to_string()),
        _ => None,
    }
}

/// The ARN of role `role_name` in `account`.
pub fn role_arn(partition: &str, account: &str, role_name: &str) -> String {
    format!("arn:{partition}:iam::{account}:role/{role_name}")
}

/// Credentials of `role_arn`, assumed with `base`'s credentials. They are
/// asked for once now, so an account whose role cannot be assumed is known
/// before any read; the provider renews them when they expire.
pub async fn assume_role(
    base: &SdkConfig,
    role_arn: &str,
) -> Result<SharedCredentialsProvider, AssumeError> {
    let provider = AssumeRoleProvider::builder(role_arn)
        .session_name(SESSION_NAME)
        .configure(base)
        .build()
        .await;
    match provider.provide_credentials().await {
        Ok(_) => Ok(SharedCredentialsProvider::new(provider)),
        Err(e) => Err(AssumeError::Role {
            role_arn: role_arn.to_string(),
            message: chain_text(&e),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn role_arns_carry_the_callers_partition() {
        assert_eq!(
            partition_of("arn:aws-cn:iam::111111111111:user/ci"),
            Some("aws-cn".into())
        );
        assert_eq!(partition_of("not-an-arn"), None);
        assert_eq!(
            role_arn("aws", "222222222222", "RealdriftRead"),
            "arn:aws:iam::222222222222:role/RealdriftRead"
        );
    }
}
