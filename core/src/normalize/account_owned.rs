//! Values that are the account's own identity, or the role AWS falls back
//! to in every service: recognised by their shape, for any resource type.
//! An undeclared top-level property holding one is at AWS's default: the
//! stack's own account or region, or the service-linked role a service uses
//! when no role is given. Setting any of them explicitly behaves as leaving
//! it unset, so folding hides no change of behaviour; another account,
//! region or a customer role keeps surfacing. An AWS-managed KMS key is not
//! one of them: where unset means unencrypted or an AWS-owned key (SNS, SQS,
//! DynamoDB), switching to the managed key is a real change, so that
//! default comes only from a service's own documentation.

use super::arn::parse_arn;
use serde_json::Value;

/// Why a value is the account's own or AWS-owned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Owned {
    /// The stack's own account id.
    AccountId,
    /// The stack's own region (alone, or as a one-element list).
    Region,
    /// A service-linked role of the stack's account
    /// (`role/aws-service-role/<service>/...`).
    ServiceLinkedRole,
}

/// The account facts a value is judged against.
#[derive(Debug, Clone, Copy, Default)]
pub struct Account<'a> {
    /// The stack's account id.
    pub id: Option<&'a str>,
    /// The stack's region.
    pub region: Option<&'a str>,
}

/// What makes `v` the account's own or AWS-owned, if anything.
pub fn account_owned(v: &Value, acct: Account<'_>) -> Option<Owned> {
    let s = match v {
        Value::String(s) => s.as_str(),
        Value::Array(a) if a.len() == 1 => {
            return a[0]
                .as_str()
                .filter(|s| Some(*s) == acct.region)
                .map(|_| Owned::Region);
        }
        _ => return None,
    };
    if s.is_empty() {
        return None;
    }
    if Some(s) == acct.id {
        return Some(Owned::AccountId);
    }
    if Some(s) == acct.region {
        return Some(Owned::Region);
    }
    is_service_linked_role(s, acct.id).then_some(Owned::ServiceLinkedRole)
}

/// True for the ARN of a service-linked role of this account: IAM reserves
/// the `aws-service-role/` path to roles a service creates for itself.
fn is_service_linked_role(s: &str, account: Option<&str>) -> bool {
    let Some(arn) = parse_arn(s) else {
        return false;
    };
    arn.service == "iam"
        && account.is_some_and(|a| a == arn.account)
        && arn
            .resource
            .strip_prefix("role/aws-service-role/")
            .and_then(|rest| rest.split_once('/'))
            .is_some_and(|(svc, name)| svc.ends_with(".amazonaws.com") && !name.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn acct() -> Account<'static> {
        Account {
            id: Some("222233334444"),
            region: Some("eu-west-3"),
        }
    }

    #[test]
    fn the_own_account_and_region_are_owned_but_others_are_not() {
        let a = acct();
        assert_eq!(
            account_owned(&json!("222233334444"), a),
            Some(Owned::AccountId)
        );
        assert_eq!(account_owned(&json!("999988887777"), a), None);
        assert_eq!(account_owned(&json!("eu-west-3"), a), Some(Owned::Region));
        assert_eq!(account_owned(&json!(["eu-west-3"]), a), Some(Owned::Region));
        assert_eq!(account_owned(&json!(["eu-west-3", "us-east-1"]), a), None);
        assert_eq!(account_owned(&json!("eu-central-1"), a), None);
        assert_eq!(account_owned(&json!(""), Account::default()), None);
    }

    #[test]
    fn only_a_service_linked_role_of_this_account_is_owned() {
        let a = acct();
        let slr = "arn:aws:iam::222233334444:role/aws-service-role/backup.amazonaws.com/AWSServiceRoleForBackup";
        assert_eq!(
            account_owned(&json!(slr), a),
            Some(Owned::ServiceLinkedRole)
        );
        let other = slr.replace("222233334444", "999988887777");
        assert_eq!(account_owned(&json!(other), a), None);
        let custom = "arn:aws:iam::222233334444:role/service-role/MyBackupRole";
        assert_eq!(account_owned(&json!(custom), a), None);
        let bare_path = "arn:aws:iam::222233334444:role/aws-service-role/";
        assert_eq!(account_owned(&json!(bare_path), a), None);
    }

    #[test]
    fn an_aws_managed_key_is_not_a_default_by_shape() {
        // Unset SNS or SQS encryption is not the managed key: switching to
        // it is a change, so only documentation can make it a default.
        assert_eq!(account_owned(&json!("alias/aws/sns"), acct()), None);
        let arn = "arn:aws:kms:eu-west-3:222233334444:alias/aws/sqs";
        assert_eq!(account_owned(&json!(arn), acct()), None);
    }
}
