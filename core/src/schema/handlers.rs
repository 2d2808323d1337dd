//! Which provisioning handlers a registry type declares.

use serde::{Deserialize, Serialize};

/// Handler presence from the schema `handlers` block.
///
/// Cloud Control can only read a type that has a `read` handler, and only
/// list / update / delete through the matching handler.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Handlers {
    /// The type has a `create` handler.
    pub create: bool,
    /// The type has a `read` handler (Cloud Control GetResource works).
    pub read: bool,
    /// The type has an `update` handler (Cloud Control UpdateResource works).
    pub update: bool,
    /// The type has a `delete` handler.
    pub delete: bool,
    /// The type has a `list` handler (Cloud Control ListResources works).
    pub list: bool,
}

impl Handlers {
    /// Builds the set from handler names; unknown names are ignored.
    pub fn from_names<'a>(names: impl IntoIterator<Item = &'a str>) -> Self {
        let mut handlers = Self::default();
        for name in names {
            match name {
                "create" => handlers.create = true,
                "read" => handlers.read = true,
                "update" => handlers.update = true,
                "delete" => handlers.delete = true,
                "list" => handlers.list = true,
                _ => {}
            }
        }
        handlers
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_set_flags_and_unknown_names_are_ignored() {
        let h = Handlers::from_names(["read", "list", "bogus"]);
        assert!(h.read && h.list);
        assert!(!h.create && !h.update && !h.delete);
    }
}
