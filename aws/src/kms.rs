//! KMS alias targets (`alias/<name>` -> key id), for telling the key a
//! template names by alias (its own, or an AWS-managed default) apart from a
//! key swapped in out of band.

use super::clients::AwsClients;
use super::errors::describe;
use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use realdrift_core::pipeline::{KmsAliasSource, SourceError};
use std::collections::BTreeMap;

/// KMS ListAliases as a [`KmsAliasSource`].
#[derive(Debug, Clone)]
pub struct AwsKmsAliases {
    clients: AwsClients,
}

impl AwsKmsAliases {
    /// A source over a client bundle.
    pub fn new(clients: AwsClients) -> Self {
        AwsKmsAliases { clients }
    }
}

impl KmsAliasSource for AwsKmsAliases {
    fn alias_targets(&self) -> BoxFuture<'_, Result<BTreeMap<String, String>, SourceError>> {
        async move {
            let mut out = BTreeMap::new();
            let mut marker: Option<String> = None;
            loop {
                let page = self
                    .clients
                    .kms
                    .list_aliases()
                    .set_marker(marker.take())
                    .send()
                    .await
                    .map_err(|e| {
                        let info = describe(&e, &[]);
                        SourceError::Other(format!("kms:ListAliases: {}", info.message))
                    })?;
                for a in page.aliases() {
                    // An alias without a target (a managed one no service
                    // used yet) names no key.
                    if let (Some(name), Some(target)) = (a.alias_name(), a.target_key_id()) {
                        out.insert(name.to_string(), target.to_string());
                    }
                }
                match (page.truncated(), page.next_marker()) {
                    (true, Some(m)) => marker = Some(m.to_string()),
                    _ => break,
                }
            }
            Ok(out)
        }
        .boxed()
    }
}
