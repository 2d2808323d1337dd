//! What classify needs beyond one resource (stage 5): schema facts for the
//! types read, and the stack context (identity, tags, managed KMS aliases).

use super::desired::{Desired, Planned};
use super::reads::Reads;
use super::Pipeline;
use crate::classify::ClassifyContext;
use crate::pipeline::ReadOutcome;
use crate::schema::SchemaFacts;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// Schema facts by type, and why the others have none.
#[derive(Default)]
pub(super) struct Schemas {
    /// Facts of the types some source knows.
    pub facts: BTreeMap<String, Arc<SchemaFacts>>,
    /// Types read but without facts, with why (never fetched, not in the
    /// registry, the fetch failed): their resources are lost coverage.
    pub missing: BTreeMap<String, String>,
}

impl Pipeline {
    /// Schema facts for every type that was read; a type no source knows, or
    /// whose schema could not be fetched, is recorded with why, and its
    /// resources are not compared.
    pub(super) async fn schemas_for(&self, plan: &[Planned], reads: &Reads) -> Schemas {
        let types: BTreeSet<String> = reads
            .iter()
            .filter(|(_, o)| matches!(o, ReadOutcome::Found(_)))
            .map(|(i, _)| plan[*i].resource_type.clone())
            .collect();
        let mut out = Schemas::default();
        let mut unknown = Vec::new();
        for t in types {
            match self.schemas.facts(&t) {
                Ok(Some(f)) => {
                    out.facts.insert(t, f);
                }
                Ok(None) => unknown.push(t),
                Err(e) => {
                    out.missing.insert(t, e.to_string());
                }
            }
        }
        let mut failed = match (&self.schema_prefetch, unknown.is_empty()) {
            (Some(p), false) => p.prefetch(&unknown).await,
            _ => BTreeMap::new(),
        };
        for t in unknown {
            match self.schemas.facts(&t) {
                Ok(Some(f)) => {
                    out.facts.insert(t, f);
                }
                Ok(None) => {
                    let why = failed
                        .remove(&t)
                        .unwrap_or_else(|| "no source knows the type".into());
                    out.missing.insert(t, why);
                }
                Err(e) => {
                    out.missing.insert(t, e.to_string());
                }
            }
        }
        out
    }

    /// The stack context classify runs with.
    pub(super) async fn classify_context(
        &self,
        d: &Desired,
        notes: &mut Vec<String>,
    ) -> ClassifyContext {
        // Always asked (once per run): an undeclared key id left by
        // encryption without a declared key can only be told from a
        // customer key with the account's managed-alias map, whether or
        // not the template names an alias.
        let kms_alias_targets = self.alias_targets(notes).await;
        ClassifyContext {
            account_id: d.desc.account_id(),
            region: d.desc.region(),
            stack_name: Some(d.desc.name.clone()),
            kms_alias_targets,
            stack_tags: d.desc.tags.clone(),
            sibling_facts: serde_json::Map::new(),
        }
    }

    /// Managed alias targets, fetched once; `None` (with a note) when unavailable.
    async fn alias_targets(&self, notes: &mut Vec<String>) -> Option<BTreeMap<String, String>> {
        if let Some(cached) = self
            .kms_cache
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
        {
            return Some(cached);
        }
        let kms = self.kms.as_ref()?;
        match kms.alias_targets().await {
            Ok(m) => {
                *self.kms_cache.lock().unwrap_or_else(|p| p.into_inner()) = Some(m.clone());
                Some(m)
            }
            Err(e) => {
                // Only a definitive answer is cached; the next stack asks again.
                notes.push(format!(
                    "KMS aliases unavailable, a key swapped in behind an alias cannot be told apart and a customer alias cannot be resolved: {e}"
                ));
                None
            }
        }
    }
}
