//! One entry of each kind the data files hold, as written there.

use serde::Deserialize;
use serde_json::Value;
use std::collections::HashMap;

/// Where a fact comes from. `Schema`, `Docs`, `ApiModel` and `Guide` facts are the
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
    /// The archived AWS developer and user guides (2023; mined after the
    /// newer sources, which win where they disagree).
    Guide,
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
            Source::Guide => "guide",
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
    pub(super) fn admits(self, source: Option<Source>) -> bool {
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
    /// An OpenSSH public key compared by key type and key, not comment
    /// (EC2 stores an imported key with the key pair's name as comment).
    SshPublicKey,
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
    /// Resource type (`*`: any type that states no default at the path).
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
