//! Building findings with the resource's identity fields filled in.

use super::scope::Scope;
use crate::finding::{Finding, Tier};
use crate::normalize::path::Path;
use serde_json::Value;

/// The findings of one classify call.
pub(crate) struct Out<'s, 'a> {
    scope: &'s Scope<'a>,
    pub findings: Vec<Finding>,
}

impl<'s, 'a> Out<'s, 'a> {
    /// An empty collection for `scope`'s resource.
    pub fn new(scope: &'s Scope<'a>) -> Self {
        Out {
            scope,
            findings: Vec::new(),
        }
    }

    /// Appends a finding and returns it for the optional fields.
    pub fn push(&mut self, tier: Tier, path: &Path) -> &mut Finding {
        let r = self.scope.res;
        let mut f = Finding::new(
            tier,
            r.logical_id.clone(),
            r.resource_type.clone(),
            path.render(),
        );
        f.physical_id = r.physical_id.clone();
        f.construct_path = r.construct_path.clone();
        self.findings.push(f);
        let last = self.findings.len() - 1;
        &mut self.findings[last]
    }

    /// Appends a finding carrying the live value.
    pub fn push_actual(
        &mut self,
        tier: Tier,
        path: &Path,
        actual: &Value,
        nested: bool,
    ) -> &mut Finding {
        let f = self.push(tier, path);
        f.actual = Some(actual.clone());
        f.nested = nested;
        f
    }
}
