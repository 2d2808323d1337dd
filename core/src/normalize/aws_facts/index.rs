//! The loaded facts, indexed by type and by top-level property.

use super::entries::*;
use crate::normalize::path::Pattern;
use serde_json::Value;
use std::collections::HashMap;

/// A condition on other settings (`when` in the data files): each named
/// setting holds one of its listed values.
pub type When = HashMap<String, Vec<Value>>;

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

/// A map from short names. FNV: the index is looked up once per live value
/// classified, with short property names as keys, where SipHash's setup
/// dominated; the keys come from the bundled data, so flooding is no concern.
pub type NameMap<V> = fnv::FnvHashMap<String, V>;

/// Known defaults indexed by the top-level property their path starts with
/// (so a lookup scans only the entries that can match).
#[derive(Debug, Default)]
pub struct DefaultIndex {
    pub(super) by_top: NameMap<Vec<KnownDefault>>,
    pub(super) any_top: Vec<KnownDefault>,
}

impl DefaultIndex {
    pub(super) fn insert(&mut self, d: KnownDefault) {
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
    /// Blocks AWS fills on a fresh resource (`present-on-create.json`):
    /// each pattern names the deepest block, its ancestors are present too;
    /// the condition, if any, says where.
    pub present_on_create: Vec<(Pattern, Option<When>)>,
}

/// The loaded registry.
#[derive(Debug, Default)]
pub struct AwsFacts {
    pub(super) by_type: HashMap<String, TypeFacts>,
    pub(super) empty: TypeFacts,
    /// Defaults that hold across resource types (`"type": "*"`): the same
    /// property name means the same AWS default wherever it appears.
    pub cross_type_defaults: DefaultIndex,
    /// Defaults the registry schemas state in prose (equality-gated), by type.
    pub doc_defaults: HashMap<String, DefaultIndex>,
    /// Names of managed fields stripped at any depth.
    pub managed_names: Vec<String>,
}

/// The type name of entries that hold across resource types.
pub const CROSS_TYPE: &str = "*";

impl AwsFacts {
    /// Per-type rules stated for every type (`"type": "*"`): they speak
    /// only where the type itself states nothing.
    pub fn cross_type(&self) -> &TypeFacts {
        self.for_type(CROSS_TYPE)
    }

    /// Facts for a type (empty when nothing is known).
    pub fn for_type(&self, t: &str) -> &TypeFacts {
        self.by_type.get(t).unwrap_or(&self.empty)
    }

    /// Description-stated defaults for a type, if any.
    pub fn doc_defaults_for(&self, t: &str) -> Option<&DefaultIndex> {
        self.doc_defaults.get(t)
    }
}
