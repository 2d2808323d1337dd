//! Facts about AWS behaviour, loaded once from the JSON data files under
//! `core/data/` (bundled with `include_str!`). Every entry carries a reason.
//! Code holds mechanisms; these files hold the per-type facts they consume.

use super::path::Pattern;
use serde::Deserialize;
use serde_json::Value;
use std::collections::{BTreeSet, HashMap};
use std::sync::OnceLock;

const KNOWN_DEFAULTS: &str = include_str!("../../data/known-defaults.json");
const TYPE_RULES: &str = include_str!("../../data/type-rules.json");
const MANAGED_FIELDS: &str = include_str!("../../data/managed-fields.json");
/// Defaults stated in registry-schema property descriptions (produced by the
/// schema snapshot generator; each entry quotes its source sentence).
const DOC_DEFAULTS: &str = include_str!("../../data/schemas/doc-defaults.json");
/// Defaults mined by `scripts/gen-knowledge.sh` (schema / docs / api-model).
const GENERATED_DEFAULTS: &str = include_str!("../../data/generated/defaults.json");
/// Compare rules mined by `scripts/gen-knowledge.sh`.
const GENERATED_RULES: &str = include_str!("../../data/generated/type-rules.json");

/// One generated default: a constant, a value AWS chooses at create time,
/// or the value of a sibling the documentation leaves as the only one.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct GeneratedDefault {
    #[serde(rename = "type")]
    type_name: String,
    path: String,
    #[serde(default)]
    values: Vec<Value>,
    #[serde(default, rename = "chosenAtCreate")]
    chosen_at_create: bool,
    #[serde(default, rename = "sameAs")]
    same_as: Option<String>,
    #[serde(default)]
    when: Option<HashMap<String, Vec<Value>>>,
    source: Source,
    /// The evidence (a documentation sentence or the schema annotation).
    quote: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct GeneratedDefaultsFile {
    #[serde(default, rename = "_doc")]
    _doc: Option<String>,
    defaults: Vec<GeneratedDefault>,
}

impl GeneratedDefault {
    fn into_entry(self) -> KnownDefaultEntry {
        KnownDefaultEntry {
            type_name: self.type_name,
            path: self.path,
            values: self.values,
            any: false,
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
struct DocDefault {
    #[serde(rename = "type")]
    type_name: String,
    path: String,
    value: Value,
    source: String,
}

/// Where a fact comes from. `Schema`, `Docs` and `ApiModel` facts are the
/// output of a committed generator over pinned packages; `Observed` facts were
/// seen on real deploys and say what was seen and why it is not
/// deploy-specific.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Source {
    /// A registry-schema annotation.
    Schema,
    /// AWS documentation text (CloudFormation property docs).
    Docs,
    /// A service API model.
    ApiModel,
    /// Seen on a real deploy.
    Observed,
}

impl Source {
    /// The name used in the data files.
    pub fn as_str(self) -> &'static str {
        match self {
            Source::Schema => "schema",
            Source::Docs => "docs",
            Source::ApiModel => "api-model",
            Source::Observed => "observed",
        }
    }
}

/// Which facts a classify run may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Knowledge {
    /// Every fact.
    #[default]
    All,
    /// Every fact except `observed` ones: what general sources alone explain.
    WithoutObserved,
}

impl Knowledge {
    /// True when a fact of this source is in use. A fact with no source
    /// counts as observed (the data test rejects it anyway).
    fn admits(self, source: Option<Source>) -> bool {
        self == Knowledge::All || !matches!(source, None | Some(Source::Observed))
    }
}

/// One known AWS default for a (type, path).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KnownDefaultEntry {
    /// Resource type.
    #[serde(rename = "type")]
    pub type_name: String,
    /// Dotted path; `*` = any array element.
    pub path: String,
    /// Accepted values (equality-gated). `${AccountId}`, `${Region}`,
    /// `${PhysicalId}` placeholders are expanded before comparing.
    #[serde(default)]
    pub values: Vec<Value>,
    /// Value-independent: any value AWS assigned counts (ids, placement).
    #[serde(default)]
    pub any: bool,
    /// AWS chooses the value at create time when none is declared (a
    /// placement, a window, the VPC's default security group) and a user can
    /// change it later: it folds on a first run, and `record` snapshots it so
    /// a later change surfaces as drift. With `values`, only a value of
    /// one of their forms is such a choice.
    #[serde(default, rename = "chosenAtCreate")]
    pub chosen_at_create: bool,
    /// Only when each named property (declared, else live) has one of the
    /// listed values; a `null` alternative means "absent". A name is a
    /// top-level property or a path into one; `./Member` is a member of the
    /// object that holds the value judged.
    #[serde(default)]
    pub when: Option<HashMap<String, Vec<Value>>>,
    /// The default is whatever the resource holds at this other path
    /// (declared, else live; same syntax as `when` keys, where `./Member`
    /// is the member beside the value as read back): a setting AWS derives
    /// from a sibling one.
    #[serde(default, rename = "sameAs")]
    pub same_as: Option<String>,
    /// The default is an object whose members equal the values at these
    /// paths, relative to the object holding the value (declared, else
    /// live): a setting AWS derives member by member from a sibling one.
    #[serde(default, rename = "sameAsFields")]
    pub same_as_fields: Option<std::collections::BTreeMap<String, String>>,
    /// The default is a list of other resources of this stack: every
    /// element's member of this name is a CloudFormation-minted name of the
    /// stack (a sibling resource echoed into this one). An element named any
    /// other way was added out of band.
    #[serde(default, rename = "stackMintedKey")]
    pub stack_minted_key: Option<String>,
    /// Only when the schema marks the path create-only (a value AWS fixed at
    /// creation, which cannot drift without replacing the resource).
    #[serde(default, rename = "createOnly")]
    pub create_only: bool,
    /// Why this is a default.
    pub reason: String,
    /// Where the fact comes from.
    #[serde(default)]
    pub source: Option<Source>,
}

/// A per-type path rule with no parameters.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PathRule {
    /// Resource type (`*` = every type).
    #[serde(rename = "type")]
    pub type_name: String,
    /// Dotted path; `*` = any array element.
    pub path: String,
    /// Why.
    pub reason: String,
    /// Where the fact comes from.
    #[serde(default)]
    pub source: Option<Source>,
}

/// A scalar (or key) equivalence the service applies at a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Equivalence {
    /// Values equal ignoring ASCII case.
    CaseInsensitive,
    /// A declared `LATEST` resolves to a concrete version.
    LatestSentinel,
    /// Versions equal when one is a dotted prefix of the other.
    VersionPrefix,
    /// An epoch-seconds value AWS rounds down to the hour.
    EpochHourFloor,
    /// A Redis/Valkey ACL string AWS rewrites with a `-@all` baseline.
    AccessString,
    /// DNS names: case-insensitive, trailing dot optional.
    DnsName,
    /// `rate(60 minutes)` and `rate(1 hour)` are the same schedule.
    RateExpression,
    /// A free-form map whose KEYS the read handler re-cases.
    CaseInsensitiveKeys,
    /// Decimal strings compared as numbers (`"100"` vs `"100.0"`).
    NumericString,
    /// A declared `Intelligent-Tiering` resolves to `Standard`/`Advanced`.
    IntelligentTiering,
    /// Java-properties text compared as a key/value map.
    PropertiesText,
    /// A string in a larger unit the service stores as the integer it
    /// converts to (`1 vCPU` as `1024`); the rule's `unit` and `factor`.
    UnitString,
}

/// The unit a `unitString` rule converts from, and how many stored units
/// one of it is.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct UnitScale {
    /// The unit word a declared string carries (`vCPU`, `GB`).
    pub unit: String,
    /// Stored units per one of it (1024).
    pub factor: u32,
}

/// A per-type equivalence rule.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EquivalenceRule {
    /// Resource type.
    #[serde(rename = "type")]
    pub type_name: String,
    /// Dotted path (`*` = any array element or map key).
    pub path: String,
    /// The equivalence.
    pub rule: Equivalence,
    /// For `unitString`: the unit word a declared string carries.
    #[serde(default)]
    pub unit: Option<String>,
    /// For `unitString`: stored units per one of `unit`.
    #[serde(default)]
    pub factor: Option<u32>,
    /// Why.
    pub reason: String,
    /// Where the fact comes from.
    #[serde(default)]
    pub source: Option<Source>,
}

/// A path whose value is AWS-generated for this resource.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GeneratedRule {
    /// Resource type.
    #[serde(rename = "type")]
    pub type_name: String,
    /// Dotted path.
    pub path: String,
    /// `any` (value-independent), `physicalIdSegment` (must echo a segment
    /// of the physical id) or `template` (must equal `value` after
    /// `${PhysicalId}` / `${AccountId}` / `${Region}` expansion).
    #[serde(rename = "match")]
    pub match_kind: String,
    /// The template for `match: template`.
    #[serde(default)]
    pub value: Option<Value>,
    /// Limits the rule to resources where these properties hold one of the
    /// alternatives (same form as a known default's `when`).
    #[serde(default)]
    pub when: Option<HashMap<String, Vec<Value>>>,
    /// Why.
    pub reason: String,
    /// Where the fact comes from.
    #[serde(default)]
    pub source: Option<Source>,
}

/// An identity key override for a nested object array.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IdentityRule {
    /// Resource type.
    #[serde(rename = "type")]
    pub type_name: String,
    /// Dotted path of the array.
    pub path: String,
    /// Identity fields (joined with `|` when several).
    pub keys: Vec<String>,
    /// Why.
    pub reason: String,
    /// Where the fact comes from.
    #[serde(default)]
    pub source: Option<Source>,
}

/// An array compared as a keyed set whose live side is a SUPERSET of the
/// declared one: declared elements are aligned to live ones by identity and
/// compared; live-only elements are reported one by one (nested). With a
/// `valueField` it is a key/value attribute bag (findings carry the value).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KeyedSetRule {
    /// Resource type.
    #[serde(rename = "type")]
    pub type_name: String,
    /// Path of the array.
    pub path: String,
    /// Identity fields (joined with `|`); empty for a scalar array, whose
    /// elements are their own identity.
    pub keys: Vec<String>,
    /// For attribute bags: the value field.
    #[serde(default, rename = "valueField")]
    pub value_field: Option<String>,
    /// A prefix AWS adds to declared identities (`custom:` attributes).
    #[serde(default, rename = "idPrefix")]
    pub id_prefix: Option<String>,
    /// Report an undeclared array element by element (always for bags).
    #[serde(default, rename = "splitUndeclared")]
    pub split_undeclared: bool,
    /// A live-only element that is a bare husk (everything but its identity
    /// trivially empty) is one AWS materialized itself: it folds to
    /// atDefault instead of surfacing.
    #[serde(default, rename = "foldHusks")]
    pub fold_husks: bool,
    /// The prefixes that mark a user's own elements where the service also
    /// keeps standard ones unprefixed (Cognito returns `custom:value` and
    /// `dev:value` beside standard attributes as `value`): a live-only
    /// element with none of them is a standard one, at its default; a
    /// prefixed one is a user's and surfaces.
    #[serde(default, rename = "userPrefixes")]
    pub user_prefixes: Vec<String>,
    /// Why.
    pub reason: String,
    /// Where the fact comes from.
    #[serde(default)]
    pub source: Option<Source>,
}

/// A declared property whose live read comes back under another name.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AltRule {
    /// Resource type.
    #[serde(rename = "type")]
    pub type_name: String,
    /// The declared property name.
    pub declared: String,
    /// The live property name.
    pub live: String,
    /// For echoes: drop only when the live value equals the declared one.
    #[serde(default, rename = "sameValue")]
    pub same_value: bool,
    /// Why.
    pub reason: String,
    /// Where the fact comes from.
    #[serde(default)]
    pub source: Option<Source>,
}

/// A key the service renames inside an object (a deprecated alias).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KeyAlias {
    /// Resource type.
    #[serde(rename = "type")]
    pub type_name: String,
    /// Path of the object holding the key (`*` allowed).
    pub parent: String,
    /// The declared key.
    pub declared: String,
    /// The key the live read uses instead.
    pub live: String,
    /// Why.
    pub reason: String,
    /// Where the fact comes from.
    #[serde(default)]
    pub source: Option<Source>,
}

/// An undeclared switch AWS turns ON at creation: its OFF state (false /
/// an all-false object) is a real divergence, not unset noise.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OffRule {
    /// Resource type.
    #[serde(rename = "type")]
    pub type_name: String,
    /// Path of the switch.
    pub path: String,
    /// Top-level live properties whose presence makes OFF legitimate (an
    /// SSE-KMS queue reads `SqsManagedSseEnabled: false`).
    #[serde(default, rename = "unlessPresent")]
    pub unless_present: Vec<String>,
    /// Why.
    pub reason: String,
    /// Where the fact comes from.
    #[serde(default)]
    pub source: Option<Source>,
}

/// A name CloudControl maintains on its own (timestamps, revision ids).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ManagedName {
    /// The property name.
    pub name: String,
    /// Why.
    pub reason: String,
    /// Where the fact comes from.
    #[serde(default)]
    pub source: Option<Source>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct KnownDefaultsFile {
    #[serde(default, rename = "_doc")]
    _doc: Option<String>,
    defaults: Vec<KnownDefaultEntry>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct TypeRulesFile {
    #[serde(default, rename = "_doc")]
    _doc: Option<String>,
    #[serde(default, rename = "unorderedArrays")]
    unordered_arrays: Vec<PathRule>,
    #[serde(default, rename = "orderedArrays")]
    ordered_arrays: Vec<PathRule>,
    #[serde(default, rename = "caseInsensitive")]
    case_insensitive: Vec<PathRule>,
    #[serde(default, rename = "latestSentinel")]
    latest_sentinel: Vec<PathRule>,
    #[serde(default, rename = "versionPrefix")]
    version_prefix: Vec<PathRule>,
    #[serde(default, rename = "readGapCollections")]
    readgap_collections: Vec<PathRule>,
    #[serde(default, rename = "returnedWhenSet")]
    returned_when_set: Vec<PathRule>,
    #[serde(default, rename = "descendUndeclared")]
    descend_undeclared: Vec<PathRule>,
    #[serde(default, rename = "generatedPaths")]
    generated_paths: Vec<GeneratedRule>,
    #[serde(default, rename = "identityKeys")]
    identity_keys: Vec<IdentityRule>,
    #[serde(default, rename = "keyedSets")]
    keyed_sets: Vec<KeyedSetRule>,
    #[serde(default, rename = "altRepresentations")]
    alt_representations: Vec<AltRule>,
    #[serde(default, rename = "echoes")]
    echoes: Vec<AltRule>,
    #[serde(default, rename = "ownedElsewhere")]
    owned_elsewhere: Vec<PathRule>,
    #[serde(default, rename = "keyAliases")]
    key_aliases: Vec<KeyAlias>,
    #[serde(default)]
    equivalences: Vec<EquivalenceRule>,
    #[serde(default, rename = "serviceAttached")]
    service_attached: Vec<KnownDefaultEntry>,
    #[serde(default, rename = "meaningfulWhenOff")]
    meaningful_when_off: Vec<OffRule>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct ManagedFieldsFile {
    #[serde(default, rename = "_doc")]
    _doc: Option<String>,
    names: Vec<ManagedName>,
}

/// A known default with its path parsed.
#[derive(Debug, Clone)]
pub struct KnownDefault {
    /// Parsed path pattern.
    pub pattern: Pattern,
    /// The entry.
    pub entry: KnownDefaultEntry,
}

/// A generated-path rule with its path parsed.
#[derive(Debug, Clone)]
pub struct Generated {
    /// Parsed path pattern.
    pub pattern: Pattern,
    /// The rule.
    pub rule: GeneratedRule,
}

/// Known defaults indexed by the top-level property their path starts with
/// (so a lookup scans only the entries that can match).
#[derive(Debug, Default)]
pub struct DefaultIndex {
    by_top: HashMap<String, Vec<KnownDefault>>,
    any_top: Vec<KnownDefault>,
}

impl DefaultIndex {
    fn insert(&mut self, d: KnownDefault) {
        match d.pattern.top() {
            Some(t) => self.by_top.entry(t.to_string()).or_default().push(d),
            None => self.any_top.push(d),
        }
    }

    /// The entries that may match a path starting with `top`.
    pub fn candidates<'s>(
        &'s self,
        top: Option<&str>,
    ) -> impl Iterator<Item = &'s KnownDefault> + 's {
        top.and_then(|t| self.by_top.get(t))
            .into_iter()
            .flatten()
            .chain(self.any_top.iter())
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.by_top.values().map(Vec::len).sum::<usize>() + self.any_top.len()
    }

    /// True when there are no entries.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Everything known about one resource type.
#[derive(Debug, Default)]
pub struct TypeFacts {
    /// Known defaults.
    pub defaults: DefaultIndex,
    /// Arrays AWS reorders although the schema does not say so.
    pub unordered: Vec<Pattern>,
    /// Dotted paths (no `*`) of lists whose order the documentation says
    /// carries meaning (rules run in the order listed): a reorder is a
    /// change, never folded.
    pub ordered: Vec<String>,
    /// Declared collections AWS never returns (absence is a readGap).
    pub readgap_collections: Vec<Pattern>,
    /// Top-level scalars the read returns whenever they are set: a declared
    /// one found absent was removed (drift), not left unread.
    pub returned_when_set: Vec<Pattern>,
    /// Undeclared objects walked leaf by leaf instead of reported whole.
    pub descend: Vec<Pattern>,
    /// AWS-generated paths.
    pub generated: Vec<Generated>,
    /// Identity key overrides for nested arrays.
    pub identity: Vec<(Pattern, Vec<String>)>,
    /// Keyed superset arrays and attribute bags.
    pub keyed: Vec<(Pattern, KeyedSetRule)>,
    /// Declared name -> live name.
    pub alt: Vec<AltRule>,
    /// Live properties that merely re-state a declared sibling in another
    /// form (`live`), dropped when `declared` is declared.
    pub echoes: Vec<AltRule>,
    /// Undeclared paths another mechanism owns (child enumerators, sibling
    /// resources): never reported by classify.
    pub owned_elsewhere: Vec<Pattern>,
    /// Keys the service renames inside objects.
    pub key_aliases: Vec<(Pattern, KeyAlias)>,
    /// Scalar / key equivalences by path.
    pub equivalences: Vec<(Pattern, Equivalence)>,
    /// Unit conversions by path (`unitString` rules).
    pub unit_scales: Vec<(Pattern, UnitScale)>,
    /// Undeclared values a service attaches on its own (dropped when equal).
    pub service_attached: Vec<KnownDefault>,
    /// Switches whose OFF state is a divergence.
    pub meaningful_when_off: Vec<(Pattern, OffRule)>,
}

/// The loaded registry.
#[derive(Debug, Default)]
pub struct AwsFacts {
    by_type: HashMap<String, TypeFacts>,
    empty: TypeFacts,
    /// Defaults that hold across resource types (`"type": "*"`): the same
    /// property name means the same AWS default wherever it appears.
    pub cross_type_defaults: DefaultIndex,
    /// Defaults the registry schemas state in prose (equality-gated), by type.
    pub doc_defaults: HashMap<String, DefaultIndex>,
    /// Names of managed fields stripped at any depth.
    pub managed_names: Vec<String>,
}

impl AwsFacts {
    /// Facts for a type (empty when nothing is known).
    pub fn for_type(&self, t: &str) -> &TypeFacts {
        self.by_type.get(t).unwrap_or(&self.empty)
    }

    /// Description-stated defaults for a type, if any.
    pub fn doc_defaults_for(&self, t: &str) -> Option<&DefaultIndex> {
        self.doc_defaults.get(t)
    }
}

/// Errors reading the bundled data files.
#[derive(Debug, thiserror::Error)]
pub enum FactsError {
    /// A data file is not valid.
    #[error("core/data/{file}: {source}")]
    Parse {
        /// The file name.
        file: &'static str,
        /// The JSON error.
        source: serde_json::Error,
    },
}

fn parse<T: for<'de> Deserialize<'de>>(file: &'static str, text: &str) -> Result<T, FactsError> {
    serde_json::from_str(text).map_err(|source| FactsError::Parse { file, source })
}

/// Keeps only the entries of `list` whose source `knowledge` admits.
fn admit<T>(list: &mut Vec<T>, knowledge: Knowledge, source: fn(&T) -> Option<Source>) {
    list.retain(|e| knowledge.admits(source(e)));
}

impl TypeRulesFile {
    /// Drops every rule `knowledge` does not admit.
    fn admit(&mut self, k: Knowledge) {
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

/// Builds the registry from the bundled files (every fact).
pub fn load() -> Result<AwsFacts, FactsError> {
    load_with(Knowledge::All)
}

/// Builds the registry from the bundled files, keeping the facts
/// `knowledge` admits.
pub fn load_with(knowledge: Knowledge) -> Result<AwsFacts, FactsError> {
    load_admitting(knowledge, &BTreeSet::new())
}

/// The hand-written known defaults of `known-defaults.json`, in file order:
/// a position here is what [`load_excluding`] takes.
pub fn observed_known_defaults() -> Result<Vec<KnownDefaultEntry>, FactsError> {
    let kd: KnownDefaultsFile = parse("known-defaults.json", KNOWN_DEFAULTS)?;
    Ok(kd.defaults)
}

/// Every fact except the hand-written known defaults at the `excluded`
/// positions of [`observed_known_defaults`] (the corpus hold-out replay).
pub fn load_excluding(excluded: &BTreeSet<usize>) -> Result<AwsFacts, FactsError> {
    load_admitting(Knowledge::All, excluded)
}

/// Builds the registry from what `knowledge` admits, leaving out the
/// hand-written known defaults at the `excluded` positions.
fn load_admitting(
    knowledge: Knowledge,
    excluded: &BTreeSet<usize>,
) -> Result<AwsFacts, FactsError> {
    let merged = merged_files(knowledge, excluded)?;
    let mut facts = AwsFacts {
        managed_names: merged.managed.into_iter().map(|n| n.name).collect(),
        ..AwsFacts::default()
    };
    facts.cross_type_defaults = index_defaults(&mut facts.by_type, merged.defaults);
    index_type_rules(&mut facts.by_type, merged.rules);
    facts.doc_defaults = doc_defaults()?;
    Ok(facts)
}

/// The bundled files once the generated facts are merged into the
/// hand-written ones and `knowledge` has filtered them.
struct MergedFiles {
    defaults: Vec<KnownDefaultEntry>,
    rules: TypeRulesFile,
    managed: Vec<ManagedName>,
}

/// Parses every bundled file but the doc defaults and merges the generated
/// facts into the hand-written ones, keeping what `knowledge` admits.
fn merged_files(
    knowledge: Knowledge,
    excluded: &BTreeSet<usize>,
) -> Result<MergedFiles, FactsError> {
    let mut kd: KnownDefaultsFile = parse("known-defaults.json", KNOWN_DEFAULTS)?;
    kd.defaults = std::mem::take(&mut kd.defaults)
        .into_iter()
        .enumerate()
        .filter(|(i, _)| !excluded.contains(i))
        .map(|(_, e)| e)
        .collect();
    let mut tr: TypeRulesFile = parse("type-rules.json", TYPE_RULES)?;
    let mut mf: ManagedFieldsFile = parse("managed-fields.json", MANAGED_FIELDS)?;
    let gd: GeneratedDefaultsFile = parse("generated/defaults.json", GENERATED_DEFAULTS)?;
    let gr: TypeRulesFile = parse("generated/type-rules.json", GENERATED_RULES)?;
    // Hand-written entries first (they carry conditions and derivations the
    // generator cannot state), then the generated ones.
    // Admitted before the merge too: only an admitted derivation supersedes
    // a generated constant (see `extend_generated_defaults`).
    admit(&mut kd.defaults, knowledge, |e| e.source);
    extend_generated_defaults(&mut kd.defaults, gd.defaults);
    tr.extend_generated(gr);
    admit(&mut kd.defaults, knowledge, |e| e.source);
    tr.admit(knowledge);
    admit(&mut mf.names, knowledge, |n| n.source);
    Ok(MergedFiles {
        defaults: kd.defaults,
        rules: tr,
        managed: mf.names,
    })
}

/// Appends the generated defaults to the (already admitted) hand-written
/// ones. A derivation observed for a path (the value mirrors a sibling
/// setting) supersedes a constant the documentation states for it, while it
/// is admitted: with observed facts off, the constant stands.
fn extend_generated_defaults(
    defaults: &mut Vec<KnownDefaultEntry>,
    generated: Vec<GeneratedDefault>,
) {
    let derived: std::collections::HashSet<(String, String)> = defaults
        .iter()
        .filter(|e| e.same_as.is_some() || e.same_as_fields.is_some())
        .map(|e| (e.type_name.clone(), e.path.clone()))
        .collect();
    defaults.extend(
        generated
            .into_iter()
            .filter(|g| !derived.contains(&(g.type_name.clone(), g.path.clone())))
            .map(GeneratedDefault::into_entry),
    );
}

impl TypeRulesFile {
    /// Appends the rule families the generator produces.
    fn extend_generated(&mut self, gr: TypeRulesFile) {
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

/// The facts of type `t`, created empty on first use.
fn type_entry<'m>(by: &'m mut HashMap<String, TypeFacts>, t: &str) -> &'m mut TypeFacts {
    by.entry(t.to_string()).or_default()
}

/// Indexes the known defaults into their types' facts and returns the
/// cross-type ones (`"type": "*"`).
fn index_defaults(
    by: &mut HashMap<String, TypeFacts>,
    defaults: Vec<KnownDefaultEntry>,
) -> DefaultIndex {
    let mut cross = DefaultIndex::default();
    for mut e in defaults {
        // Stored canonical, so matching never re-canonicalizes data.
        e.values.iter_mut().for_each(super::canonicalize_in_place);
        let d = KnownDefault {
            pattern: Pattern::parse(&e.path),
            entry: e,
        };
        if d.entry.type_name == "*" {
            cross.insert(d);
        } else {
            type_entry(by, &d.entry.type_name.clone())
                .defaults
                .insert(d);
        }
    }
    cross
}

/// Picks the field of [`TypeFacts`] a family of plain path rules fills.
type PatternField = fn(&mut TypeFacts) -> &mut Vec<Pattern>;

/// Indexes each type-rule family into its types' facts.
fn index_type_rules(by: &mut HashMap<String, TypeFacts>, tr: TypeRulesFile) {
    index_equivalences(by, &tr);
    index_value_rules(by, tr.meaningful_when_off, tr.service_attached);
    for r in tr
        .ordered_arrays
        .into_iter()
        .filter(|r| !r.path.contains('*'))
    {
        type_entry(by, &r.type_name).ordered.push(r.path);
    }
    let lists: [(Vec<PathRule>, PatternField); 5] = [
        (tr.unordered_arrays, |f| &mut f.unordered),
        (tr.readgap_collections, |f| &mut f.readgap_collections),
        (tr.returned_when_set, |f| &mut f.returned_when_set),
        (tr.descend_undeclared, |f| &mut f.descend),
        (tr.owned_elsewhere, |f| &mut f.owned_elsewhere),
    ];
    for (rules, field) in lists {
        for r in rules {
            field(type_entry(by, &r.type_name)).push(Pattern::parse(&r.path));
        }
    }
    index_shape_rules(by, tr.generated_paths, tr.identity_keys, tr.keyed_sets);
    for r in tr.alt_representations {
        type_entry(by, &r.type_name.clone()).alt.push(r);
    }
    for r in tr.echoes {
        type_entry(by, &r.type_name.clone()).echoes.push(r);
    }
    for r in tr.key_aliases {
        type_entry(by, &r.type_name.clone())
            .key_aliases
            .push((Pattern::parse(&r.parent), r));
    }
}

/// Indexes the equivalence families (and the unit scales of `unitString`
/// rules), the dedicated families before the general list.
fn index_equivalences(by: &mut HashMap<String, TypeFacts>, tr: &TypeRulesFile) {
    for (rules, eq) in [
        (&tr.case_insensitive, Equivalence::CaseInsensitive),
        (&tr.latest_sentinel, Equivalence::LatestSentinel),
        (&tr.version_prefix, Equivalence::VersionPrefix),
    ] {
        for r in rules {
            type_entry(by, &r.type_name)
                .equivalences
                .push((Pattern::parse(&r.path), eq));
        }
    }
    for r in &tr.equivalences {
        let facts = type_entry(by, &r.type_name);
        facts.equivalences.push((Pattern::parse(&r.path), r.rule));
        if let (Equivalence::UnitString, Some(unit), Some(factor)) = (r.rule, &r.unit, r.factor) {
            let scale = UnitScale {
                unit: unit.clone(),
                factor,
            };
            facts.unit_scales.push((Pattern::parse(&r.path), scale));
        }
    }
}

/// Indexes the rules that judge an undeclared value: switches whose OFF
/// state is a change, and values a service attaches on its own.
fn index_value_rules(
    by: &mut HashMap<String, TypeFacts>,
    meaningful_when_off: Vec<OffRule>,
    service_attached: Vec<KnownDefaultEntry>,
) {
    for r in meaningful_when_off {
        type_entry(by, &r.type_name.clone())
            .meaningful_when_off
            .push((Pattern::parse(&r.path), r));
    }
    for mut e in service_attached {
        e.values.iter_mut().for_each(super::canonicalize_in_place);
        type_entry(by, &e.type_name.clone())
            .service_attached
            .push(KnownDefault {
                pattern: Pattern::parse(&e.path),
                entry: e,
            });
    }
}

/// Indexes the rules about generated values and array element identity.
fn index_shape_rules(
    by: &mut HashMap<String, TypeFacts>,
    generated_paths: Vec<GeneratedRule>,
    identity_keys: Vec<IdentityRule>,
    keyed_sets: Vec<KeyedSetRule>,
) {
    for mut r in generated_paths {
        if let Some(v) = r.value.as_mut() {
            super::canonicalize_in_place(v);
        }
        type_entry(by, &r.type_name.clone())
            .generated
            .push(Generated {
                pattern: Pattern::parse(&r.path),
                rule: r,
            });
    }
    for r in identity_keys {
        type_entry(by, &r.type_name)
            .identity
            .push((Pattern::parse(&r.path), r.keys));
    }
    for r in keyed_sets {
        type_entry(by, &r.type_name.clone())
            .keyed
            .push((Pattern::parse(&r.path), r));
    }
}

/// The defaults the registry schemas state in prose
/// (`schemas/doc-defaults.json`), indexed by type.
fn doc_defaults() -> Result<HashMap<String, DefaultIndex>, FactsError> {
    let docs: Vec<DocDefault> = parse("schemas/doc-defaults.json", DOC_DEFAULTS)?;
    let mut by_type: HashMap<String, DefaultIndex> = HashMap::new();
    for d in docs {
        let mut value = d.value;
        super::canonicalize_in_place(&mut value);
        by_type
            .entry(d.type_name.clone())
            .or_default()
            .insert(KnownDefault {
                pattern: Pattern::parse(&d.path),
                entry: KnownDefaultEntry {
                    type_name: d.type_name,
                    path: d.path,
                    values: vec![value],
                    any: false,
                    chosen_at_create: false,
                    when: None,
                    same_as: None,
                    same_as_fields: None,
                    stack_minted_key: None,
                    create_only: false,
                    reason: d.source,
                    source: Some(Source::Docs),
                },
            });
    }
    Ok(by_type)
}

/// The registry, loaded on first use. A broken bundled file is a build
/// defect caught by the unit tests; at run time it degrades to no facts
/// (more findings, never fewer) and logs an error.
pub fn facts() -> &'static AwsFacts {
    facts_for(Knowledge::All)
}

/// The registry restricted to what `knowledge` admits, loaded on first use.
pub fn facts_for(knowledge: Knowledge) -> &'static AwsFacts {
    static ALL: OnceLock<AwsFacts> = OnceLock::new();
    static GENERAL: OnceLock<AwsFacts> = OnceLock::new();
    let cell = match knowledge {
        Knowledge::All => &ALL,
        Knowledge::WithoutObserved => &GENERAL,
    };
    cell.get_or_init(|| {
        load_with(knowledge).unwrap_or_else(|e| {
            tracing::error!("{e}");
            AwsFacts::default()
        })
    })
}

/// True when a known default of `resource_type` (its own, cross-type or
/// description-stated) whose pattern covers `path` (as a finding renders
/// it) satisfies `kind`.
fn some_default_at(resource_type: &str, path: &str, kind: impl Fn(&KnownDefault) -> bool) -> bool {
    let f = facts();
    let top = path.split(['.', '[']).next();
    let rendered = super::path::Path::parse_rendered(path);
    f.for_type(resource_type)
        .defaults
        .candidates(top)
        .chain(f.cross_type_defaults.candidates(top))
        .chain(
            f.doc_defaults_for(resource_type)
                .into_iter()
                .flat_map(|d| d.candidates(top)),
        )
        .any(|kd| kind(kd) && kd.pattern.matches(&rendered))
}

/// True when `path` (as a finding renders it) of a `resource_type` resource
/// holds a value AWS chose at create time that a user can change (a
/// `chosenAtCreate` fact): it folds on a first run, and `record` snapshots it
/// so a later change surfaces as drift.
pub fn is_chosen_at_create(resource_type: &str, path: &str) -> bool {
    some_default_at(resource_type, path, |kd| kd.entry.chosen_at_create)
}

/// True when a known default at `path` (as a finding renders it) of a
/// `resource_type` resource folds any value (`any`: an id AWS assigns, a
/// value it derives or scales), under whatever condition the entry states.
pub fn is_value_independent(resource_type: &str, path: &str) -> bool {
    some_default_at(resource_type, path, |kd| kd.entry.any)
}

/// Every `(file, entry description, reason)` triple, for the data audit test.
pub fn all_reasons() -> Result<Vec<(String, String)>, FactsError> {
    let kd: KnownDefaultsFile = parse("known-defaults.json", KNOWN_DEFAULTS)?;
    let tr: TypeRulesFile = parse("type-rules.json", TYPE_RULES)?;
    let mf: ManagedFieldsFile = parse("managed-fields.json", MANAGED_FIELDS)?;
    let mut out = Vec::new();
    for e in kd.defaults {
        out.push((
            format!("known default {} {}", e.type_name, e.path),
            e.reason,
        ));
    }
    for (name, rules) in [
        ("unorderedArrays", tr.unordered_arrays),
        ("orderedArrays", tr.ordered_arrays),
        ("caseInsensitive", tr.case_insensitive),
        ("latestSentinel", tr.latest_sentinel),
        ("versionPrefix", tr.version_prefix),
        ("readGapCollections", tr.readgap_collections),
        ("returnedWhenSet", tr.returned_when_set),
        ("descendUndeclared", tr.descend_undeclared),
        ("ownedElsewhere", tr.owned_elsewhere),
    ] {
        for r in rules {
            out.push((format!("{name} {} {}", r.type_name, r.path), r.reason));
        }
    }
    for r in tr.generated_paths {
        out.push((
            format!("generatedPaths {} {}", r.type_name, r.path),
            r.reason,
        ));
    }
    for r in tr.identity_keys {
        out.push((format!("identityKeys {} {}", r.type_name, r.path), r.reason));
    }
    for r in tr.keyed_sets {
        out.push((format!("keyedSets {} {}", r.type_name, r.path), r.reason));
    }
    for r in tr.alt_representations {
        out.push((
            format!("altRepresentations {} {}", r.type_name, r.declared),
            r.reason,
        ));
    }
    for r in tr.echoes {
        out.push((format!("echoes {} {}", r.type_name, r.live), r.reason));
    }
    for r in tr.key_aliases {
        out.push((
            format!("keyAliases {} {}", r.type_name, r.declared),
            r.reason,
        ));
    }
    for n in mf.names {
        out.push((format!("managed field {}", n.name), n.reason));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_files_parse_and_every_entry_has_a_reason() {
        let all = all_reasons().expect("bundled data files parse");
        assert!(!all.is_empty());
        for (what, reason) in all {
            assert!(!reason.trim().is_empty(), "{what} has no reason");
        }
        assert!(load().is_ok());
    }

    /// Every entry of every data file says where it comes from; hand-written
    /// files hold only `observed` facts (schema / docs / api-model facts are
    /// the generator's output, never hand-labelled), and an observed default
    /// says what was observed rather than a generic phrase.
    #[test]
    fn every_entry_has_a_source() {
        let kd: KnownDefaultsFile = parse("known-defaults.json", KNOWN_DEFAULTS).expect("parses");
        let tr: TypeRulesFile = parse("type-rules.json", TYPE_RULES).expect("parses");
        let mf: ManagedFieldsFile = parse("managed-fields.json", MANAGED_FIELDS).expect("parses");
        let mut missing = Vec::new();
        fn hand(missing: &mut Vec<String>, what: String, s: Option<Source>) {
            match s {
                Some(Source::Observed) => {}
                Some(other) => missing.push(format!("{what}: hand-labelled {}", other.as_str())),
                None => missing.push(format!("{what}: no source")),
            }
        }
        for e in &kd.defaults {
            hand(
                &mut missing,
                format!("known-defaults {} {}", e.type_name, e.path),
                e.source,
            );
            if e.reason.trim() == "AWS default observed on a fresh deploy"
                || e.reason.trim()
                    == "AWS default for this configuration, observed on fresh deploys"
            {
                missing.push(format!(
                    "known-defaults {} {}: says not what was observed",
                    e.type_name, e.path
                ));
            }
        }
        let mut rules: Vec<(String, Option<Source>)> = Vec::new();
        for list in [
            &tr.unordered_arrays,
            &tr.ordered_arrays,
            &tr.case_insensitive,
            &tr.latest_sentinel,
            &tr.version_prefix,
            &tr.readgap_collections,
            &tr.returned_when_set,
            &tr.descend_undeclared,
            &tr.owned_elsewhere,
        ] {
            rules.extend(
                list.iter()
                    .map(|r| (format!("{} {}", r.type_name, r.path), r.source)),
            );
        }
        rules.extend(
            tr.generated_paths
                .iter()
                .map(|r| (r.path.clone(), r.source)),
        );
        rules.extend(tr.identity_keys.iter().map(|r| (r.path.clone(), r.source)));
        rules.extend(tr.keyed_sets.iter().map(|r| (r.path.clone(), r.source)));
        rules.extend(
            tr.alt_representations
                .iter()
                .map(|r| (r.live.clone(), r.source)),
        );
        rules.extend(tr.echoes.iter().map(|r| (r.live.clone(), r.source)));
        rules.extend(tr.key_aliases.iter().map(|r| (r.live.clone(), r.source)));
        rules.extend(tr.equivalences.iter().map(|r| (r.path.clone(), r.source)));
        rules.extend(
            tr.service_attached
                .iter()
                .map(|r| (r.path.clone(), r.source)),
        );
        rules.extend(
            tr.meaningful_when_off
                .iter()
                .map(|r| (r.path.clone(), r.source)),
        );
        rules.extend(mf.names.iter().map(|n| (n.name.clone(), n.source)));
        for (what, s) in rules {
            hand(&mut missing, format!("type-rules/managed-fields {what}"), s);
        }
        let gd: GeneratedDefaultsFile =
            parse("generated/defaults.json", GENERATED_DEFAULTS).expect("parses");
        let gr: TypeRulesFile =
            parse("generated/type-rules.json", GENERATED_RULES).expect("parses");
        for e in &gd.defaults {
            if e.source == Source::Observed || e.quote.trim().is_empty() {
                missing.push(format!(
                    "generated {} {}: no mined evidence",
                    e.type_name, e.path
                ));
            }
        }
        let mined =
            |s: Option<Source>| matches!(s, Some(Source::Schema | Source::Docs | Source::ApiModel));
        let generated_rules = gr
            .unordered_arrays
            .iter()
            .chain(&gr.ordered_arrays)
            .chain(&gr.case_insensitive)
            .chain(&gr.readgap_collections)
            .chain(&gr.latest_sentinel)
            .map(|r| (&r.type_name, &r.path, r.source, &r.reason))
            .chain(
                gr.equivalences
                    .iter()
                    .map(|r| (&r.type_name, &r.path, r.source, &r.reason)),
            )
            .chain(
                gr.keyed_sets
                    .iter()
                    .map(|r| (&r.type_name, &r.path, r.source, &r.reason)),
            )
            .chain(
                gr.key_aliases
                    .iter()
                    .map(|r| (&r.type_name, &r.parent, r.source, &r.reason)),
            )
            .chain(
                gr.service_attached
                    .iter()
                    .map(|r| (&r.type_name, &r.path, r.source, &r.reason)),
            )
            .chain(
                gr.alt_representations
                    .iter()
                    .map(|r| (&r.type_name, &r.declared, r.source, &r.reason)),
            );
        for (t, path, source, reason) in generated_rules {
            if !mined(source) || reason.trim().is_empty() {
                missing.push(format!("generated rule {t} {path}: no mined source"));
            }
        }
        let baseline: Value =
            serde_json::from_str(include_str!("../../data/baseline-tracking.json"))
                .expect("parses");
        for (list, entries) in baseline.as_object().into_iter().flatten() {
            for e in entries.as_array().into_iter().flatten() {
                if e.get("source").and_then(Value::as_str) != Some("observed") {
                    missing.push(format!("baseline-tracking {list}: {e}"));
                }
            }
        }
        assert!(
            missing.is_empty(),
            "entries without a proper source:\n{}",
            missing.join("\n")
        );
    }

    #[test]
    fn without_observed_keeps_only_general_facts() {
        let general = load_with(Knowledge::WithoutObserved).expect("loads");
        let all = load().expect("loads");
        let count = |f: &AwsFacts| -> usize {
            f.by_type.values().map(|t| t.defaults.len()).sum::<usize>()
                + f.cross_type_defaults.len()
        };
        assert!(count(&general) > 0 && count(&general) < count(&all));
        for t in general.by_type.values() {
            for (_, list) in t.defaults.by_top.iter() {
                assert!(list
                    .iter()
                    .all(|d| d.entry.source != Some(Source::Observed)));
            }
        }
        assert!(
            general.managed_names.is_empty()
                || general.managed_names.len() < all.managed_names.len()
        );
    }

    /// Compare rules the generator mines (not only defaults) are in use
    /// without observed facts: an api-model alias, a docs equivalence, a
    /// docs keyed-set prefix, a schema key-case rule, a documented
    /// attribute-list default.
    #[test]
    fn mined_compare_rules_load_without_observed_facts() {
        let general = load_with(Knowledge::WithoutObserved).expect("loads");
        let gd = general.for_type("AWS::GuardDuty::Filter");
        assert!(gd
            .key_aliases
            .iter()
            .any(|(_, a)| a.declared == "Gte" && a.live == "GreaterThanOrEqual"));
        let eq = |t: &str, want: Equivalence| {
            general
                .for_type(t)
                .equivalences
                .iter()
                .any(|(_, e)| *e == want)
        };
        assert!(eq("AWS::AppSync::ApiKey", Equivalence::EpochHourFloor));
        assert!(eq("AWS::ECS::Service", Equivalence::LatestSentinel));
        // Every unit conversion carries its unit and factor.
        let ecs = general.for_type("AWS::ECS::TaskDefinition");
        let units: Vec<_> = ecs
            .unit_scales
            .iter()
            .map(|(_, u)| u.unit.as_str())
            .collect();
        assert_eq!(units, ["vCPU", "GB"]);
        let unit_rules = ecs
            .equivalences
            .iter()
            .filter(|(_, e)| *e == Equivalence::UnitString)
            .count();
        assert_eq!(unit_rules, ecs.unit_scales.len());
        assert!(eq(
            "AWS::DataBrew::Recipe",
            Equivalence::CaseInsensitiveKeys
        ));
        assert!(general
            .for_type("AWS::Cognito::UserPool")
            .keyed
            .iter()
            .any(|(_, k)| k.id_prefix.as_deref() == Some("custom:")));
        let lb = &general
            .for_type("AWS::ElasticLoadBalancingV2::LoadBalancer")
            .defaults;
        assert!(lb.candidates(Some("LoadBalancerAttributes")).any(|d| {
            d.entry.path == "LoadBalancerAttributes[deletion_protection.enabled]"
                && d.entry.values == [Value::from("false")]
        }));
        let role = &general.for_type("AWS::IAM::Role").defaults;
        assert!(role
            .candidates(Some("MaxSessionDuration"))
            .any(|d| d.entry.values == [Value::from(3600)]));
    }

    /// An observed derivation (Cognito's legacy `UnusedAccountValidityDays`
    /// mirrors the password policy) supersedes the documented constant (7)
    /// only while observed facts are on; without them the constant stands.
    #[test]
    fn a_documented_constant_stands_when_the_observed_derivation_is_off() {
        let path = "AdminCreateUserConfig.UnusedAccountValidityDays";
        let at = |f: &AwsFacts| -> Vec<(bool, Vec<Value>)> {
            f.for_type("AWS::Cognito::UserPool")
                .defaults
                .candidates(Some("AdminCreateUserConfig"))
                .filter(|d| d.entry.path == path && d.entry.when.is_none())
                .map(|d| (d.entry.same_as.is_some(), d.entry.values.clone()))
                .collect()
        };
        let all = load().expect("loads");
        assert_eq!(at(&all), vec![(true, vec![])]);
        let general = load_with(Knowledge::WithoutObserved).expect("loads");
        assert_eq!(at(&general), vec![(false, vec![Value::from(7)])]);
    }

    #[test]
    fn known_default_entries_are_gated_or_explicitly_any() {
        let kd: KnownDefaultsFile = parse("known-defaults.json", KNOWN_DEFAULTS).expect("parses");
        for e in kd.defaults {
            let kinds = [
                e.any,
                e.chosen_at_create,
                // With `chosenAtCreate`, `values` is the form of the choice.
                !e.values.is_empty() && !e.chosen_at_create,
                e.same_as.is_some(),
                e.same_as_fields.is_some(),
                e.stack_minted_key.is_some(),
            ];
            assert!(
                kinds.iter().filter(|k| **k).count() == 1,
                "{} {}: exactly one of `values` / `any` / `chosenAtCreate` / `sameAs` / `sameAsFields` / `stackMintedKey`",
                e.type_name,
                e.path
            );
        }
    }
}
