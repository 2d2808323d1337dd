//! The accounts of an AWS Organization (`check --org [--ou OU]`), listed with
//! the caller's credentials, which must be the management account's or a
//! delegated administrator's.
//!
//! Sources: ListAccounts, ListAccountsForParent and
//! ListOrganizationalUnitsForParent (https://boto3.amazonaws.com/v1/documentation/api/latest/reference/services/organizations/client/list_accounts.html,
//! .../list_organizational_units_for_parent.html): callable only from the
//! management account or a delegated administrator; ListAccountsForParent
//! lists an OU's own accounts, not those of its child OUs, so an OU is walked
//! through its children. An account's lifecycle is its `State` (`Status` is
//! retired on September 9, 2026, per the SDK's `Account::status` docs); only
//! `ACTIVE` accounts are swept.

use crate::errors::chain_text;
use aws_config::SdkConfig;
use aws_sdk_organizations::types::{Account, AccountState, AccountStatus};
use aws_sdk_organizations::Client;

/// Why the Organization's accounts could not be listed.
#[derive(Debug, thiserror::Error)]
#[error("cannot list the Organization's accounts (organizations:{call}): {message}")]
pub struct OrgListError {
    /// The call that failed (`ListAccounts`, ...).
    pub call: &'static str,
    /// What Organizations answered (not in an Organization, access denied, ...).
    pub message: String,
}

/// The accounts found: the active ones to sweep, and the others with their state.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct OrgAccounts {
    /// Active account ids, sorted, each once.
    pub active: Vec<String>,
    /// Accounts not swept: id and state (`SUSPENDED`, `unknown`, ...).
    pub skipped: Vec<(String, String)>,
}

/// Lists the Organization's accounts; under `ou` (an OU or root id) only
/// those in it and in its child OUs, at any depth.
pub async fn org_accounts(base: &SdkConfig, ou: Option<&str>) -> Result<OrgAccounts, OrgListError> {
    let client = Client::new(base);
    let accounts = match ou {
        None => list_all(&client).await?,
        Some(ou) => list_under(&client, ou).await?,
    };
    // An Organization always holds its management account: an empty answer
    // is not "nothing to check" but a listing that cannot be right.
    if ou.is_none() && accounts.is_empty() {
        return Err(OrgListError {
            call: "ListAccounts",
            message:
                "the answer lists no account (an Organization always has its management account)"
                    .into(),
        });
    }
    Ok(sort_accounts(&accounts))
}

/// ListAccounts, every page.
async fn list_all(client: &Client) -> Result<Vec<Account>, OrgListError> {
    let mut out = Vec::new();
    let mut pages = client.list_accounts().into_paginator().send();
    while let Some(page) = pages.next().await {
        let page = page.map_err(|e| failed("ListAccounts", &e))?;
        out.extend(page.accounts().iter().cloned());
    }
    Ok(out)
}

/// The accounts of `root` and of every OU below it, walked down.
async fn list_under(client: &Client, root: &str) -> Result<Vec<Account>, OrgListError> {
    let mut out = Vec::new();
    let mut parents = vec![root.to_string()];
    while let Some(parent) = parents.pop() {
        let mut pages = client
            .list_accounts_for_parent()
            .parent_id(&parent)
            .into_paginator()
            .send();
        while let Some(page) = pages.next().await {
            let page = page.map_err(|e| failed("ListAccountsForParent", &e))?;
            out.extend(page.accounts().iter().cloned());
        }
        let mut pages = client
            .list_organizational_units_for_parent()
            .parent_id(&parent)
            .into_paginator()
            .send();
        while let Some(page) = pages.next().await {
            let page = page.map_err(|e| failed("ListOrganizationalUnitsForParent", &e))?;
            parents.extend(
                page.organizational_units()
                    .iter()
                    .filter_map(|u| u.id().map(String::from)),
            );
        }
    }
    Ok(out)
}

fn failed(call: &'static str, e: &(dyn std::error::Error + 'static)) -> OrgListError {
    OrgListError {
        call,
        message: chain_text(e),
    }
}

/// Splits accounts into active ids and skipped ones. The state is `State`,
/// or the older `Status` when an answer lacks it; neither is `unknown`, and an
/// unknown account is not swept (nothing says it can be read).
fn sort_accounts(accounts: &[Account]) -> OrgAccounts {
    let mut out = OrgAccounts::default();
    for a in accounts {
        let Some(id) = a.id() else { continue };
        let state = match (a.state(), a.status()) {
            (Some(s), _) => s.as_str().to_string(),
            (None, Some(s)) => s.as_str().to_string(),
            (None, None) => "unknown".to_string(),
        };
        let active = match (a.state(), a.status()) {
            (Some(s), _) => *s == AccountState::Active,
            (None, Some(s)) => *s == AccountStatus::Active,
            (None, None) => false,
        };
        if active {
            out.active.push(id.to_string());
        } else {
            out.skipped.push((id.to_string(), state));
        }
    }
    out.active.sort();
    out.active.dedup();
    out.skipped.sort();
    out.skipped.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn account(id: &str, state: Option<AccountState>, status: Option<AccountStatus>) -> Account {
        let mut b = Account::builder().id(id);
        if let Some(s) = state {
            b = b.state(s);
        }
        if let Some(s) = status {
            b = b.status(s);
        }
        b.build()
    }

    #[test]
    fn only_active_accounts_are_swept_and_the_state_wins_over_the_retired_status() {
        let got = sort_accounts(&[
            account("222222222222", Some(AccountState::Active), None),
            account("111111111111", None, Some(AccountStatus::Active)),
            account("222222222222", Some(AccountState::Active), None),
            account(
                "333333333333",
                Some(AccountState::Suspended),
                Some(AccountStatus::Active),
            ),
            account("444444444444", None, None),
        ]);
        assert_eq!(got.active, vec!["111111111111", "222222222222"]);
        assert_eq!(
            got.skipped,
            vec![
                ("333333333333".to_string(), "SUSPENDED".to_string()),
                ("444444444444".to_string(), "unknown".to_string()),
            ]
        );
    }
}
