//! Account names from AWS Organizations (DescribeAccount) for the hub's
//! alerts. DescribeAccount answers only in the Organization's management
//! account or a delegated administrator's
//! (https://docs.aws.amazon.com/sdk-for-sap-abap/v1/api/latest/org/operation/DESCRIBEACCOUNT.html);
//! elsewhere it is AccessDenied, and the hub shows the id alone. Each call is
//! bounded, so a slow Organizations endpoint cannot hold a delivery back.

use crate::errors::chain_text;
use aws_sdk_organizations::Client;
use futures_util::future::{BoxFuture, FutureExt};
use realdrift_core::hub::AccountDirectory;
use std::time::Duration;

/// The longest a name lookup may take before the id alone is shown.
pub const NAME_LOOKUP_TIMEOUT: Duration = Duration::from_secs(3);

/// Names by DescribeAccount.
#[derive(Debug, Clone)]
pub struct OrganizationsDirectory {
    client: Client,
    timeout: Duration,
}

impl OrganizationsDirectory {
    /// A directory over `client`, each lookup bounded by [`NAME_LOOKUP_TIMEOUT`].
    pub fn new(client: Client) -> Self {
        OrganizationsDirectory {
            client,
            timeout: NAME_LOOKUP_TIMEOUT,
        }
    }

    async fn lookup(&self, account: &str) -> Result<Option<String>, String> {
        let call = self.client.describe_account().account_id(account).send();
        match tokio::time::timeout(self.timeout, call).await {
            Err(_) => Err(format!(
                "organizations:DescribeAccount: no answer within {} s",
                self.timeout.as_secs()
            )),
            Ok(Err(e)) => Err(format!("organizations:DescribeAccount: {}", chain_text(&e))),
            Ok(Ok(out)) => Ok(out.account().and_then(|a| a.name()).map(str::to_string)),
        }
    }
}

impl AccountDirectory for OrganizationsDirectory {
    fn account_name<'a>(
        &'a self,
        account: &'a str,
    ) -> BoxFuture<'a, Result<Option<String>, String>> {
        self.lookup(account).boxed()
    }
}
