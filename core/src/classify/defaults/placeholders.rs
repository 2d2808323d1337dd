//! The placeholders a default may carry (`${AccountId}`, `${Region}`,
//! `${Partition}`, `${PhysicalId}`, the AWS-managed KMS key), expanded for
//! the resource at hand.

use super::*;
use crate::normalize::shapes::contains_part;

/// Expands `${AccountId}`, `${Region}`, `${Partition}`, `${PhysicalId}` in
/// every string.
pub(crate) fn expand<'v>(v: &'v Value, scope: &Scope<'_>) -> std::borrow::Cow<'v, Value> {
    if has_placeholder(v) {
        std::borrow::Cow::Owned(expand_owned(v, scope))
    } else {
        std::borrow::Cow::Borrowed(v)
    }
}

/// True when a value holds a placeholder to expand.
pub(super) fn has_placeholder(v: &Value) -> bool {
    match v {
        Value::String(s) => {
            contains_part(s, "${") || s == AWS_MANAGED_KMS || s.starts_with(MANAGED_ALIAS)
        }
        Value::Array(a) => a.iter().any(has_placeholder),
        Value::Object(o) => o.values().any(has_placeholder),
        _ => false,
    }
}

pub(super) fn expand_owned(v: &Value, scope: &Scope<'_>) -> Value {
    match v {
        Value::String(s) if s == AWS_MANAGED_KMS => managed_kms_pattern(scope),
        Value::String(s) if s.starts_with(MANAGED_ALIAS) => managed_alias_pattern(scope, s),
        Value::String(s) if contains_part(s, "${") => {
            let mut t = s.clone();
            if let Some(a) = scope.ctx.account_id.as_deref() {
                t = t.replace("${AccountId}", a);
            }
            if let Some(r) = scope.ctx.region.as_deref() {
                t = t.replace("${Region}", r);
                // The region's partition (`aws`, `aws-cn`, `aws-us-gov`);
                // a region no prefix names leaves it unexpanded, so the
                // value matches nothing.
                if let Some((partition, _)) = partition_for_region(r) {
                    t = t.replace("${Partition}", partition);
                }
            }
            t = t.replace("${PhysicalId}", scope.physical_id);
            Value::String(t)
        }
        Value::Array(a) => Value::Array(a.iter().map(|x| expand_owned(x, scope)).collect()),
        Value::Object(o) => Value::Object(
            o.iter()
                .map(|(k, x)| (k.clone(), expand_owned(x, scope)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// The sentinel for "an AWS-managed (alias/aws/*) KMS key of this account".
pub(super) const AWS_MANAGED_KMS: &str = "kms:aws-managed";

/// A regex default matching this account's AWS-managed keys (by alias or by
/// the key ids the managed aliases target). Without the alias map nothing
/// matches: a key that cannot be proven AWS-managed stays visible.
pub(super) fn managed_kms_pattern(scope: &Scope<'_>) -> Value {
    let ids: Vec<String> = scope
        .ctx
        .kms_alias_targets
        .as_ref()
        .map(|m| {
            m.iter()
                .filter(|(alias, _)| alias.starts_with(MANAGED_ALIAS))
                .map(|(_, id)| regex::escape(id))
                .collect()
        })
        .unwrap_or_default();
    let (Some(acct), false) = (scope.ctx.account_id.as_deref(), ids.is_empty()) else {
        return Value::String(AWS_MANAGED_KMS.to_string());
    };
    key_or_alias_pattern("alias/aws/[^/]+", &ids.join("|"), acct)
}

/// A regex default for a KMS key named by an alias (`alias_re`) or by one
/// of the key ids `ids_re`, bare or as an ARN of account `acct`.
pub(super) fn key_or_alias_pattern(alias_re: &str, ids_re: &str, acct: &str) -> Value {
    let acct = regex::escape(acct);
    Value::String(format!(
        "re:^(?:{alias_re}|(?:{ids_re})|arn:aws[a-z-]*:kms:[^:]*:{acct}:(?:key/(?:{ids_re})|{alias_re}))$"
    ))
}

/// The prefix of an AWS-managed KMS alias (`alias/aws/dynamodb`).
pub(super) const MANAGED_ALIAS: &str = "alias/aws/";

/// A regex default matching one AWS-managed alias: by name, by its ARN in
/// this account, or by the key it targets (DynamoDB reports the key's ARN).
/// Without the account's alias map only the alias itself matches: a key
/// that cannot be proven to be that alias's stays visible.
pub(super) fn managed_alias_pattern(scope: &Scope<'_>, alias: &str) -> Value {
    let target = scope
        .ctx
        .kms_alias_targets
        .as_ref()
        .and_then(|m| m.get(alias));
    let (Some(id), Some(acct)) = (target, scope.ctx.account_id.as_deref()) else {
        return Value::String(alias.to_string());
    };
    key_or_alias_pattern(&regex::escape(alias), &regex::escape(id), acct)
}
