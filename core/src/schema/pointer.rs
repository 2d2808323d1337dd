//! Registry JSON pointers (`/properties/A/*/B`) to dotted paths (`A.*.B`).

/// Converts a property pointer to a dotted path; `*` stays the array wildcard.
///
/// Returns `None` for pointers outside `/properties` (they name no property).
/// A missing leading `/` is tolerated: a few published schemas omit it.
pub fn pointer_to_path(pointer: &str) -> Option<String> {
    let rest = pointer.strip_prefix('/').unwrap_or(pointer);
    let rest = rest.strip_prefix("properties/")?;
    if rest.is_empty() {
        return None;
    }
    let segments: Vec<String> = rest.split('/').map(unescape).collect();
    if segments.iter().any(|s| s.is_empty()) {
        return None;
    }
    Some(segments.join("."))
}

/// Undoes RFC 6901 escaping (`~1` is `/`, `~0` is `~`).
fn unescape(segment: &str) -> String {
    segment.replace("~1", "/").replace("~0", "~")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_and_wildcard_pointers_become_dotted_paths() {
        assert_eq!(pointer_to_path("/properties/Arn").as_deref(), Some("Arn"));
        assert_eq!(
            pointer_to_path("/properties/IamRoles/*/Status").as_deref(),
            Some("IamRoles.*.Status")
        );
        assert_eq!(
            pointer_to_path("properties/MaximumDuration").as_deref(),
            Some("MaximumDuration")
        );
        assert_eq!(pointer_to_path("/properties/A~1B").as_deref(), Some("A/B"));
    }

    #[test]
    fn pointers_outside_properties_are_rejected() {
        assert_eq!(pointer_to_path("/definitions/Foo"), None);
        assert_eq!(pointer_to_path("/properties/"), None);
        assert_eq!(pointer_to_path("/properties/A//B"), None);
    }
}
