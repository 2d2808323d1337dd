//! CloudFormation DescribeType as a schema source, chained after the bundled
//! snapshot for types it lacks, cached for the process.

use super::clients::AwsClients;
use super::errors::describe;
use aws_sdk_cloudformation::types::RegistryType;
use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use realdrift_core::pipeline::SchemaPrefetch;
use realdrift_core::schema::{facts_from_document, SchemaError, SchemaFacts, SchemaSource};
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};

/// DescribeType results. Classify asks synchronously, so the pipeline first
/// calls [`SchemaPrefetch::prefetch`]; [`SchemaSource::facts`] then answers
/// from the cache (`None` for a type never fetched or not in the registry).
#[derive(Debug)]
pub struct DescribeTypeSchemas {
    clients: AwsClients,
    /// Definitive answers only: facts, or `None` for "the registry has no such type".
    cache: Mutex<HashMap<String, Option<Arc<SchemaFacts>>>>,
}

impl DescribeTypeSchemas {
    /// A source over a client bundle, with an empty cache.
    pub fn new(clients: AwsClients) -> Self {
        DescribeTypeSchemas {
            clients,
            cache: Mutex::new(HashMap::new()),
        }
    }

    fn cached(&self, type_name: &str) -> Option<Option<Arc<SchemaFacts>>> {
        self.cache
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(type_name)
            .cloned()
    }

    fn store(&self, type_name: &str, facts: Option<Arc<SchemaFacts>>) {
        self.cache
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(type_name.to_string(), facts);
    }

    /// Fetches one type; returns why when it could not be fetched (or the
    /// registry has no such type).
    async fn fetch(&self, type_name: &str) -> Option<String> {
        match self.cached(type_name) {
            Some(Some(_)) => return None,
            Some(None) => return Some(format!("DescribeType {type_name}: no such type")),
            None => {}
        }
        let result = self
            .clients
            .cloudformation
            .describe_type()
            .r#type(RegistryType::Resource)
            .type_name(type_name)
            .send()
            .await;
        match result {
            Ok(out) => {
                let Some(raw) = out.schema() else {
                    return Some(format!("DescribeType {type_name}: no schema returned"));
                };
                let parsed = serde_json::from_str::<Value>(raw)
                    .map_err(|e| e.to_string())
                    .and_then(|doc| facts_from_document(&doc).map_err(|e| e.to_string()));
                match parsed {
                    Ok(facts) => {
                        self.store(type_name, Some(Arc::new(facts)));
                        None
                    }
                    Err(e) => Some(format!("DescribeType {type_name}: unusable schema: {e}")),
                }
            }
            Err(e) => {
                let info = describe(&e, &["TypeNotFoundException"]);
                if info.class == super::errors::ErrorClass::NotFound {
                    self.store(type_name, None);
                }
                // Transient or denied: not cached, the next stack asks again.
                Some(format!("DescribeType {type_name}: {}", info.message))
            }
        }
    }
}

impl SchemaSource for DescribeTypeSchemas {
    fn facts(&self, type_name: &str) -> Result<Option<Arc<SchemaFacts>>, SchemaError> {
        Ok(self.cached(type_name).flatten())
    }
}

impl SchemaPrefetch for DescribeTypeSchemas {
    fn prefetch<'a>(&'a self, types: &'a [String]) -> BoxFuture<'a, BTreeMap<String, String>> {
        async move {
            let mut failed = BTreeMap::new();
            for t in types {
                if let Some(why) = self.fetch(t).await {
                    failed.insert(t.clone(), why);
                }
            }
            failed
        }
        .boxed()
    }
}
