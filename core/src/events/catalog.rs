//! The three bundled data files on-change reads, loaded and cross-checked
//! once per process.

use super::facts::Facts;
use super::identity::Identities;
use super::table::EventTable;
use std::sync::OnceLock;

const FACTS_JSON: &str = include_str!("../../data/cloudtrail-facts.json");
const EVENTS_JSON: &str = include_str!("../../data/cloudtrail-events.json");
const IDENTIFIERS_JSON: &str = include_str!("../../data/resource-identifiers.json");

/// A data file failed to load or check. The files are compiled in, so this
/// is a build defect; the functions refuse to start rather than run with an
/// empty table (which would silently drop every event as unmapped).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("on-change data tables are invalid: {0}")]
pub struct CatalogError(pub String);

/// Facts, the event table and the identifier forms.
#[derive(Debug, Clone)]
pub struct Catalog {
    /// CloudTrail record facts.
    pub facts: Facts,
    /// The `(eventSource, eventName)` mapping.
    pub table: EventTable,
    /// Identifier forms per type.
    pub identities: Identities,
}

impl Catalog {
    /// The catalog built from the bundled data files.
    pub fn bundled() -> Result<&'static Catalog, CatalogError> {
        static CATALOG: OnceLock<Result<Catalog, CatalogError>> = OnceLock::new();
        CATALOG
            .get_or_init(|| Catalog::from_json(FACTS_JSON, EVENTS_JSON, IDENTIFIERS_JSON))
            .as_ref()
            .map_err(Clone::clone)
    }

    /// A catalog from the given file contents (tests feed variants).
    pub fn from_json(facts: &str, events: &str, identifiers: &str) -> Result<Self, CatalogError> {
        let identities = Identities::from_json(identifiers).map_err(CatalogError)?;
        let table = EventTable::from_json(events, &identities).map_err(CatalogError)?;
        let facts = Facts::from_json(facts).map_err(CatalogError)?;
        for e in table.entries() {
            if facts.bare_name(&e.event_name) != e.event_name {
                return Err(CatalogError(format!(
                    "{} {}: table names carry no API-version suffix",
                    e.event_source, e.event_name
                )));
            }
        }
        Ok(Self {
            facts,
            table,
            identities,
        })
    }

    /// The bundled data files' contents (facts, events, identifiers), for
    /// tests that build variants.
    pub fn bundled_sources() -> (&'static str, &'static str, &'static str) {
        (FACTS_JSON, EVENTS_JSON, IDENTIFIERS_JSON)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bundled_data_loads_and_checks() {
        let c = Catalog::bundled().unwrap();
        assert!(c.table.entries().len() > 150);
    }

    #[test]
    fn a_broken_table_is_an_error_not_an_empty_table() {
        let (facts, events, ids) = Catalog::bundled_sources();
        let broken = events.replacen("\"forms\": [\"name\"]", "\"forms\": [\"nope\"]", 1);
        let err = Catalog::from_json(facts, &broken, ids).unwrap_err();
        assert!(err.0.contains("form nope unknown"), "{err}");
        let suffixed = events.replacen(
            "\"PutBucketEncryption\"",
            "\"PutBucketEncryption20150331\"",
            1,
        );
        assert!(Catalog::from_json(facts, &suffixed, ids).is_err());
    }
}
