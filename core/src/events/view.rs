//! Lookups over a [`ResourceIndex`]: by any identifier form, by parent, and
//! the resolution of a [`Touch`] to the rows to re-read.

use super::catalog::Catalog;
use super::extract::{ChildSelector, Touch};
use super::identity::ResourceKey;
use super::index::{IndexRow, ResourceIndex};
use super::table::ResolveMode;
use serde::Serialize;
use std::collections::HashMap;

/// Why a row was returned for a touch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum HitRole {
    /// The call named the resource itself.
    Direct,
    /// A child the stack declares under the touched parent.
    Child,
    /// The touched parent (the child is out of band, or both are re-read).
    Parent,
}

/// One row to re-read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hit<'a> {
    /// The row.
    pub row: &'a IndexRow,
    /// Why.
    pub role: HitRole,
}

type ChildKey<'a> = (&'a str, &'a str, String);

/// Lookup maps over one index.
#[derive(Debug)]
pub struct IndexView<'a> {
    index: &'a ResourceIndex,
    catalog: &'a Catalog,
    by_key: HashMap<(&'a str, String), Vec<usize>>,
    by_physical_id: HashMap<(&'a str, &'a str), Vec<usize>>,
    by_parent: HashMap<ChildKey<'a>, Vec<usize>>,
    any_parent: HashMap<(&'a str, &'a str), Vec<usize>>,
}

impl ResourceIndex {
    /// The lookup view of this index.
    pub fn view<'a>(&'a self, catalog: &'a Catalog) -> IndexView<'a> {
        IndexView::new(self, catalog)
    }
}

impl<'a> IndexView<'a> {
    fn new(index: &'a ResourceIndex, catalog: &'a Catalog) -> Self {
        let mut v = Self {
            index,
            catalog,
            by_key: HashMap::new(),
            by_physical_id: HashMap::new(),
            by_parent: HashMap::new(),
            any_parent: HashMap::new(),
        };
        for (i, row) in index.resources.iter().enumerate() {
            v.add(i, row);
        }
        v
    }

    fn add(&mut self, i: usize, row: &'a IndexRow) {
        let ty = row.resource_type.as_str();
        self.by_physical_id
            .entry((ty, row.physical_id.as_str()))
            .or_default()
            .push(i);
        let ids = &self.catalog.identities;
        if let Some(m) = ids
            .get(ty)
            .and_then(|r| r.match_identifier(&row.physical_id, None))
        {
            self.by_key
                .entry((ty, m.key.canonical()))
                .or_default()
                .push(i);
        }
        for p in &row.parents {
            let parent = p.resource_type.as_str();
            let key = p.identifier.as_deref().and_then(|id| {
                ids.get(parent)
                    .and_then(|r| r.match_identifier(id, None))
                    .map(|m| m.key.canonical())
            });
            match key {
                Some(k) => self.by_parent.entry((ty, parent, k)).or_default().push(i),
                // An unresolved or unreadable parent matches any parent of
                // the type: an extra read, never a missed change.
                None => self.any_parent.entry((ty, parent)).or_default().push(i),
            }
        }
    }

    /// The index this view reads.
    pub fn index(&self) -> &'a ResourceIndex {
        self.index
    }

    /// Rows of a type named by an identifier in any form the type knows
    /// (or, for a type without forms, by its exact physical id).
    pub fn find(&self, resource_type: &str, identifier: &str) -> Vec<&'a IndexRow> {
        let matched = self
            .catalog
            .identities
            .get(resource_type)
            .and_then(|r| r.match_identifier(identifier, None));
        let rows = match matched {
            Some(m) => self.by_key_rows(resource_type, &m.key),
            None => self
                .by_physical_id
                .get(&(resource_type, identifier))
                .cloned()
                .unwrap_or_default(),
        };
        self.rows(&rows)
    }

    fn by_key_rows(&self, resource_type: &str, key: &ResourceKey) -> Vec<usize> {
        if !key.is_in(&self.index.account_id, &self.index.region) {
            return Vec::new();
        }
        self.by_key
            .get(&(resource_type, key.canonical()))
            .cloned()
            .unwrap_or_default()
    }

    fn rows(&self, ids: &[usize]) -> Vec<&'a IndexRow> {
        ids.iter()
            .filter_map(|i| self.index.resources.get(*i))
            .collect()
    }

    /// The rows to re-read for one touch: children first, then parents.
    pub fn resolve(&self, touch: &Touch) -> Vec<Hit<'a>> {
        let parents: Vec<usize> = touch
            .targets
            .iter()
            .flat_map(|t| self.by_key_rows(&t.resource_type, &t.key))
            .collect();
        if touch.children.is_empty() {
            return self.hits(&[(parents, HitRole::Direct)]);
        }
        let (definite, maybe, selective) = self.children(touch);
        let out = match touch.resolve {
            Some(ResolveMode::ChildElseParent) if selective && !definite.is_empty() => {
                vec![(definite, HitRole::Child), (maybe, HitRole::Child)]
            }
            _ => vec![
                (definite, HitRole::Child),
                (maybe, HitRole::Child),
                (parents, HitRole::Parent),
            ],
        };
        self.hits(&out)
    }

    /// Children the touch may mean: (definite, maybe, whether the record
    /// selects among them at all).
    fn children(&self, touch: &Touch) -> (Vec<usize>, Vec<usize>, bool) {
        if let ChildSelector::Identifiers(ids) = &touch.child_selector {
            let definite = ids
                .iter()
                .flat_map(|t| self.by_key_rows(&t.resource_type, &t.key))
                .collect();
            return (definite, Vec::new(), true);
        }
        let (mut definite, mut maybe) = (Vec::new(), Vec::new());
        for t in &touch.targets {
            if !t.key.is_in(&self.index.account_id, &self.index.region) {
                continue;
            }
            let canonical = t.key.canonical();
            for child in &touch.children {
                let (c, p) = (child.as_str(), t.resource_type.as_str());
                if let Some(rows) = self.by_parent.get(&(c, p, canonical.clone())) {
                    definite.extend(rows);
                }
                if let Some(rows) = self.any_parent.get(&(c, p)) {
                    maybe.extend(rows);
                }
            }
        }
        match &touch.child_selector {
            ChildSelector::Name(name) => {
                let (d, m) = self.by_name(definite, maybe, name.as_deref());
                (d, m, true)
            }
            ChildSelector::Singleton => (definite, maybe, true),
            _ => (definite, maybe, false),
        }
    }

    /// Keeps the children of that name; a child whose name is unresolved
    /// stays, as a maybe.
    fn by_name(
        &self,
        definite: Vec<usize>,
        maybe: Vec<usize>,
        name: Option<&str>,
    ) -> (Vec<usize>, Vec<usize>) {
        let mut keep = Vec::new();
        let mut unsure = Vec::new();
        for (i, was_definite) in definite
            .into_iter()
            .map(|i| (i, true))
            .chain(maybe.into_iter().map(|i| (i, false)))
        {
            let Some(row) = self.index.resources.get(i) else {
                continue;
            };
            if row.child_name_unresolved {
                unsure.push(i);
                continue;
            }
            let same = match (row.child_name.as_deref(), name) {
                (Some(a), Some(b)) => self
                    .catalog
                    .identities
                    .get(&row.resource_type)
                    .is_some_and(|r| r.same_name(a, b)),
                (None, None) => true,
                _ => false,
            };
            match (same, was_definite) {
                (true, true) => keep.push(i),
                (true, false) => unsure.push(i),
                (false, _) => {}
            }
        }
        (keep, unsure)
    }

    fn hits(&self, groups: &[(Vec<usize>, HitRole)]) -> Vec<Hit<'a>> {
        let mut seen = std::collections::HashSet::new();
        let mut out = Vec::new();
        for (ids, role) in groups {
            for i in ids {
                if seen.insert(*i) {
                    if let Some(row) = self.index.resources.get(*i) {
                        out.push(Hit { row, role: *role });
                    }
                }
            }
        }
        out
    }
}
