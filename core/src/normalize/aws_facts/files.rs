//! The bundled data files and their on-disk shapes: parsed here, then
//! admitted by source and indexed by `load`.

use super::entries::*;
use super::FactsError;
use serde::Deserialize;
use serde_json::Value;
use std::collections::HashMap;

pub(super) const KNOWN_DEFAULTS: &str = include_str!("../../../data/known-defaults.json");
pub(super) const TYPE_RULES: &str = include_str!("../../../data/type-rules.json");
pub(super) const MANAGED_FIELDS: &str = include_str!("../../../data/managed-fields.json");
/// Defaults stated in registry-schema property descriptions (produced by the
/// schema snapshot generator; each entry quotes its source sentence).
pub(super) const DOC_DEFAULTS: &str = include_str!("../../../data/schemas/doc-defaults.json");
/// Defaults mined by `scripts/gen-knowledge.sh` (schema / docs / api-model).
pub(super) const GENERATED_DEFAULTS: &str = include_str!("../../../data/generated/defaults.json");
/// Compare rules mined by `scripts/gen-knowledge.sh`.
pub(super) const GENERATED_RULES: &str = include_str!("../../../data/generated/type-rules.json");
/// Blocks AWS fills on a fresh resource, each with the documentation that
/// says so.
pub(super) const PRESENT_ON_CREATE: &str = include_str!("../../../data/present-on-create.json");

/// Values AWS rewrites on write, each with the documentation that shows it.
pub(super) const AWS_REWRITES: &str = include_str!("../../../data/aws-rewrites.json");

/// One value AWS rewrites on write: compared by the equivalence `rule`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RewriteEntry {
    #[serde(rename = "type")]
    pub(super) type_name: String,
    pub(super) path: String,
    pub(super) rule: Equivalence,
    /// The URL of the AWS documentation that shows it.
    pub(super) source: String,
    pub(super) reason: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RewritesFile {
    #[serde(default, rename = "_doc")]
    pub(super) _doc: Option<String>,
    pub(super) rewrites: Vec<RewriteEntry>,
}

/// One block AWS fills on a fresh resource.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct PresentEntry {
    #[serde(rename = "type")]
    pub(super) type_name: String,
    pub(super) path: String,
    /// The URL of the AWS documentation that states it.
    pub(super) source: String,
    pub(super) reason: String,
    /// Where AWS fills the block only under a setting (OpenSearch's zone
    /// awareness block only where zone awareness is on), as in
    /// `known-defaults.json`.
    #[serde(default)]
    pub(super) when: Option<HashMap<String, Vec<Value>>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct PresentFile {
    #[serde(default, rename = "_doc")]
    pub(super) _doc: Option<String>,
    pub(super) present: Vec<PresentEntry>,
}

/// One generated default: a constant, a value AWS chooses at create time,
/// the value of a sibling the documentation leaves as the only one, or
/// (`any`) a value only AWS sets under the entry's condition.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct GeneratedDefault {
    #[serde(rename = "type")]
    pub(super) type_name: String,
    pub(super) path: String,
    #[serde(default)]
    pub(super) values: Vec<Value>,
    #[serde(default)]
    pub(super) any: bool,
    #[serde(default, rename = "chosenAtCreate")]
    pub(super) chosen_at_create: bool,
    #[serde(default, rename = "sameAs")]
    pub(super) same_as: Option<String>,
    #[serde(default)]
    pub(super) when: Option<HashMap<String, Vec<Value>>>,
    pub(super) source: Source,
    /// The evidence (a documentation sentence or the schema annotation).
    pub(super) quote: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct GeneratedDefaultsFile {
    #[serde(default, rename = "_doc")]
    pub(super) _doc: Option<String>,
    pub(super) defaults: Vec<GeneratedDefault>,
}

impl GeneratedDefault {
    pub(super) fn into_entry(self) -> KnownDefaultEntry {
        KnownDefaultEntry {
            type_name: self.type_name,
            path: self.path,
            values: self.values,
            any: self.any,
            chosen_at_create: self.chosen_at_create,
            when: self.when,
            same_as: self.same_as,
            same_as_fields: None,
            stack_minted_key: None,
            create_only: false,
            reason: self.quote,
            source: Some(self.source),
        }
    }
}

/// One default stated in a schema property description.
#[derive(Debug, Clone, Deserialize)]
pub(super) struct DocDefault {
    #[serde(rename = "type")]
    pub(super) type_name: String,
    pub(super) path: String,
    pub(super) value: Value,
    pub(super) source: String,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct KnownDefaultsFile {
    #[serde(default, rename = "_doc")]
    pub(super) _doc: Option<String>,
    pub(super) defaults: Vec<KnownDefaultEntry>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct TypeRulesFile {
    #[serde(default, rename = "_doc")]
    pub(super) _doc: Option<String>,
    #[serde(default, rename = "unorderedArrays")]
    pub(super) unordered_arrays: Vec<PathRule>,
    #[serde(default, rename = "orderedArrays")]
    pub(super) ordered_arrays: Vec<PathRule>,
    #[serde(default, rename = "caseInsensitive")]
    pub(super) case_insensitive: Vec<PathRule>,
    #[serde(default, rename = "latestSentinel")]
    pub(super) latest_sentinel: Vec<PathRule>,
    #[serde(default, rename = "versionPrefix")]
    pub(super) version_prefix: Vec<PathRule>,
    #[serde(default, rename = "readGapCollections")]
    pub(super) readgap_collections: Vec<PathRule>,
    #[serde(default, rename = "returnedWhenSet")]
    pub(super) returned_when_set: Vec<PathRule>,
    #[serde(default, rename = "descendUndeclared")]
    pub(super) descend_undeclared: Vec<PathRule>,
    #[serde(default, rename = "generatedPaths")]
    pub(super) generated_paths: Vec<GeneratedRule>,
    #[serde(default, rename = "identityKeys")]
    pub(super) identity_keys: Vec<IdentityRule>,
    #[serde(default, rename = "keyedSets")]
    pub(super) keyed_sets: Vec<KeyedSetRule>,
    #[serde(default, rename = "altRepresentations")]
    pub(super) alt_representations: Vec<AltRule>,
    #[serde(default, rename = "echoes")]
    pub(super) echoes: Vec<AltRule>,
    #[serde(default, rename = "ownedElsewhere")]
    pub(super) owned_elsewhere: Vec<PathRule>,
    #[serde(default, rename = "keyAliases")]
    pub(super) key_aliases: Vec<KeyAlias>,
    #[serde(default)]
    pub(super) equivalences: Vec<EquivalenceRule>,
    #[serde(default, rename = "serviceAttached")]
    pub(super) service_attached: Vec<KnownDefaultEntry>,
    #[serde(default, rename = "meaningfulWhenOff")]
    pub(super) meaningful_when_off: Vec<OffRule>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ManagedFieldsFile {
    #[serde(default, rename = "_doc")]
    pub(super) _doc: Option<String>,
    pub(super) names: Vec<ManagedName>,
}

pub(super) fn parse<T: for<'de> Deserialize<'de>>(
    file: &'static str,
    text: &str,
) -> Result<T, FactsError> {
    serde_json::from_str(text).map_err(|source| FactsError::Parse { file, source })
}

/// Keeps only the entries of `list` whose source `knowledge` admits.
pub(super) fn admit<T>(list: &mut Vec<T>, knowledge: Knowledge, source: fn(&T) -> Option<Source>) {
    list.retain(|e| knowledge.admits(source(e)));
}

impl TypeRulesFile {
    /// Drops every rule `knowledge` does not admit.
    pub(super) fn admit(&mut self, k: Knowledge) {
        for list in [
            &mut self.unordered_arrays,
            &mut self.ordered_arrays,
            &mut self.case_insensitive,
            &mut self.latest_sentinel,
            &mut self.version_prefix,
            &mut self.readgap_collections,
            &mut self.returned_when_set,
            &mut self.descend_undeclared,
            &mut self.owned_elsewhere,
        ] {
            admit(list, k, |r| r.source);
        }
        admit(&mut self.generated_paths, k, |r| r.source);
        admit(&mut self.identity_keys, k, |r| r.source);
        admit(&mut self.keyed_sets, k, |r| r.source);
        admit(&mut self.alt_representations, k, |r| r.source);
        admit(&mut self.echoes, k, |r| r.source);
        admit(&mut self.key_aliases, k, |r| r.source);
        admit(&mut self.equivalences, k, |r| r.source);
        admit(&mut self.service_attached, k, |r| r.source);
        admit(&mut self.meaningful_when_off, k, |r| r.source);
    }
}

impl TypeRulesFile {
    /// Appends the rule families the generator produces.
    pub(super) fn extend_generated(&mut self, gr: TypeRulesFile) {
        self.unordered_arrays.extend(gr.unordered_arrays);
        self.ordered_arrays.extend(gr.ordered_arrays);
        self.case_insensitive.extend(gr.case_insensitive);
        self.readgap_collections.extend(gr.readgap_collections);
        self.equivalences.extend(gr.equivalences);
        self.latest_sentinel.extend(gr.latest_sentinel);
        self.key_aliases.extend(gr.key_aliases);
        self.keyed_sets.extend(gr.keyed_sets);
        self.service_attached.extend(gr.service_attached);
        self.alt_representations.extend(gr.alt_representations);
    }
}
