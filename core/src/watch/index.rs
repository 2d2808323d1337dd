//! Keeping `index/<accountId>.<region>.json` (the on-change function's
//! resource index, [`crate::events::ResourceIndex`]) current: each scanned
//! stack replaces its own rows, in a conditional write retried on
//! conflicts, so scans of different stacks racing on one index keep each
//! other's rows. An index of another schema version is refused, never
//! overwritten.

use crate::baseline::{BaselineStore, Precondition, StoreError};
use crate::events::{
    object_key, provider_rows, Catalog, IndexError, IndexInput, ProviderInput, ProviderRow,
    ResourceIndex,
};
use crate::pipeline::GatheredStack;

/// Why the index could not be updated.
#[derive(Debug, thiserror::Error)]
pub enum IndexUpdateError {
    /// The index could not be read or written.
    #[error("index store")]
    Store(#[source] StoreError),
    /// The stored index is malformed or of another version.
    #[error(transparent)]
    Index(#[from] IndexError),
    /// Every attempt lost a concurrent write.
    #[error("index {key}: {attempts} attempts lost a concurrent write")]
    Contended {
        /// The index key.
        key: String,
        /// Attempts made.
        attempts: usize,
    },
}

/// The rows a gathered stack contributes: every template resource with a
/// physical id, with its resolved declared properties.
pub fn index_inputs(g: &GatheredStack) -> Vec<IndexInput<'_>> {
    g.resources
        .iter()
        .filter_map(|r| {
            Some(IndexInput {
                stack: &g.stack,
                logical_id: &r.logical_id,
                resource_type: &r.resource_type,
                physical_id: r.physical_id.as_deref().filter(|p| !p.is_empty())?,
                declared: &r.declared,
            })
        })
        .collect()
}

/// The custom-resource provider rows a gathered stack contributes: each
/// custom resource's provider function of the same stack, with the role
/// the scan read (events::provider_rows).
pub fn index_providers(catalog: &Catalog, g: &GatheredStack) -> Vec<ProviderRow> {
    let inputs: Vec<ProviderInput<'_>> = g
        .resources
        .iter()
        .map(|r| ProviderInput {
            logical_id: &r.logical_id,
            resource_type: &r.resource_type,
            physical_id: r.physical_id.as_deref(),
            declared: &r.declared,
            live: r.live.as_ref(),
        })
        .collect();
    provider_rows(&catalog.facts.custom_resources, &g.stack, &inputs)
}

/// One stack's contribution to the index.
#[derive(Debug, Clone, Default)]
pub struct StackRows<'a> {
    /// Its resources.
    pub inputs: Vec<IndexInput<'a>>,
    /// Its custom resources' provider functions.
    pub providers: Vec<ProviderRow>,
}

impl<'a> StackRows<'a> {
    /// Resources only (no custom resource).
    pub fn resources(inputs: Vec<IndexInput<'a>>) -> Self {
        Self {
            inputs,
            providers: Vec::new(),
        }
    }

    /// Everything a gathered stack contributes.
    pub fn of(catalog: &Catalog, g: &'a GatheredStack) -> Self {
        Self {
            inputs: index_inputs(g),
            providers: index_providers(catalog, g),
        }
    }
}

/// Replaces `stack`'s rows of `index` with `rows` (empty: the stack is gone).
pub fn replace_stack(
    index: &mut ResourceIndex,
    catalog: &Catalog,
    stack: &str,
    rows: &StackRows<'_>,
) {
    index.resources.retain(|r| r.stack != stack);
    index.providers.retain(|p| p.stack != stack);
    for i in &rows.inputs {
        index.add(catalog, *i);
    }
    index.providers.extend(rows.providers.iter().cloned());
    index.sort();
}

/// Loads the index of `account_id`/`region`, replaces `stack`'s rows and
/// writes it back when it changed. Returns whether it was written.
pub async fn update_index(
    store: &dyn BaselineStore,
    catalog: &Catalog,
    (account_id, region): (&str, &str),
    stack: &str,
    rows: &StackRows<'_>,
    attempts: usize,
) -> Result<bool, IndexUpdateError> {
    let key = object_key(account_id, region);
    for _ in 0..attempts.max(1) {
        let stored = store.load(&key).await.map_err(IndexUpdateError::Store)?;
        let mut index = match &stored {
            Some(s) => ResourceIndex::from_json(&key, s.text.as_bytes())?,
            None => ResourceIndex::new(account_id, region),
        };
        let before = stored.as_ref().map(|s| s.text.as_str());
        replace_stack(&mut index, catalog, stack, rows);
        let mut text = index.to_json();
        text.push('\n');
        if before == Some(text.as_str()) {
            return Ok(false);
        }
        let precondition = match stored {
            Some(s) => Precondition::IfUnchanged(s.version),
            None => Precondition::IfAbsent,
        };
        match store.save(&key, &text, precondition).await {
            Ok(_) => return Ok(true),
            Err(StoreError::Conflict { .. }) => continue,
            Err(e) => return Err(IndexUpdateError::Store(e)),
        }
    }
    Err(IndexUpdateError::Contended {
        key,
        attempts: attempts.max(1),
    })
}
