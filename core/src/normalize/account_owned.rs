//! Values that are the account's own identity, or a default AWS owns and
//! falls back to in every service: recognised by their shape, for any
//! resource type. An undeclared property holding one is at AWS's default:
//! the stack's own account or region, the service-linked role a service
//! uses when no role is given, or an AWS-managed KMS key (`alias/aws/*`,
//! reserved to AWS). None of them can fold a different account, region,
//! customer role or customer key: those keep surfacing.

use super::arn::parse_arn;
use serde_json::Value;
use std::collections::BTreeMap;

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
    /// An AWS-managed KMS key: an `alias/aws/*` alias, or a key id the
    /// account's alias map shows such an alias targets.
    ManagedKey,
}

/// The account facts a value is judged against.
#[derive(Debug, Clone, Copy, Default)]
pub struct Account<'a> {
    /// The stack's account id.
    pub id: Option<&'a str>,
    /// The stack's region.
    pub region: Option<&'a str>,
    /// Managed alias -> target key id, when known.
    pub managed_keys: Option<&'a BTreeMap<String, String>>,
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
    if is_service_linked_role(s, acct.id) {
        return Some(Owned::ServiceLinkedRole);
    }
    is_managed_key(s, acct).then_some(Owned::ManagedKey)
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

/// True for an AWS-managed KMS key: the `alias/aws/` prefix is reserved to
/// AWS, so such an alias (bare, or an ARN in this account and region) is
/// one; a bare key id or key ARN counts only when the account's alias map
/// shows a managed alias targeting it.
fn is_managed_key(s: &str, acct: Account<'_>) -> bool {
    let (resource, arn_ok) = match parse_arn(s) {
        Some(a) if a.service == "kms" => (
            a.resource,
            acct.id.is_some_and(|id| id == a.account) && acct.region.is_some_and(|r| r == a.region),
        ),
        Some(_) => return false,
        None => (s, true),
    };
    if !arn_ok {
        return false;
    }
    if let Some(alias) = resource.strip_prefix("alias/aws/") {
        return !alias.is_empty() && !alias.contains('/');
    }
    let key = resource.strip_prefix("key/").unwrap_or(resource);
    acct.managed_keys.is_some_and(|m| {
        m.iter()
            .any(|(alias, target)| alias.starts_with("alias/aws/") && target == key)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn acct<'a>(keys: Option<&'a BTreeMap<String, String>>) -> Account<'a> {
        Account {
            id: Some("222233334444"),
            region: Some("eu-west-3"),
            managed_keys: keys,
        }
    }

    #[test]
    fn the_own_account_and_region_are_owned_but_others_are_not() {
        let a = acct(None);
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
        let a = acct(None);
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
    fn managed_key_aliases_are_owned_and_customer_keys_are_not() {
        let a = acct(None);
        assert_eq!(
            account_owned(&json!("alias/aws/ebs"), a),
            Some(Owned::ManagedKey)
        );
        let arn = "arn:aws:kms:eu-west-3:222233334444:alias/aws/ebs";
        assert_eq!(account_owned(&json!(arn), a), Some(Owned::ManagedKey));
        let foreign = "arn:aws:kms:eu-west-3:999988887777:alias/aws/ebs";
        assert_eq!(account_owned(&json!(foreign), a), None);
        assert_eq!(account_owned(&json!("alias/my-key"), a), None);
        // A key id is AWS-managed only when the alias map says so.
        let key = "arn:aws:kms:eu-west-3:222233334444:key/1111-2222";
        assert_eq!(account_owned(&json!(key), a), None);
        let mut m = BTreeMap::new();
        m.insert("alias/aws/ebs".to_string(), "1111-2222".to_string());
        m.insert("alias/mine".to_string(), "3333-4444".to_string());
        assert_eq!(
            account_owned(&json!(key), acct(Some(&m))),
            Some(Owned::ManagedKey)
        );
        let customer = "arn:aws:kms:eu-west-3:222233334444:key/3333-4444";
        assert_eq!(account_owned(&json!(customer), acct(Some(&m))), None);
    }
}
