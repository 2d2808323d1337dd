//! What the desired side reads about a stack: its description, resources, exports.

use std::collections::BTreeMap;

/// One deployed stack as DescribeStacks reports it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct StackDescription {
    /// The stack name.
    pub name: String,
    /// The stack id (an ARN carrying the partition, region and account).
    pub stack_id: String,
    /// The stack status, e.g. `CREATE_COMPLETE`.
    pub status: String,
    /// Deployed parameter values by key (NoEcho values come back masked).
    pub parameters: BTreeMap<String, String>,
    /// Stack-level tags (CloudFormation propagates them onto resources).
    pub tags: BTreeMap<String, String>,
    /// The parent stack id when this is a nested stack.
    pub parent_id: Option<String>,
}

impl StackDescription {
    /// The account id, read from the stack id ARN (`arn:aws:cloudformation:<region>:<account>:stack/...`).
    pub fn account_id(&self) -> Option<String> {
        arn_field(&self.stack_id, 4)
    }

    /// The region, read from the stack id ARN.
    pub fn region(&self) -> Option<String> {
        arn_field(&self.stack_id, 3)
    }

    /// The partition, read from the stack id ARN (`aws`, `aws-cn`, ...).
    pub fn partition(&self) -> Option<String> {
        arn_field(&self.stack_id, 1)
    }
}

/// Field `index` of a colon-separated ARN, when present and non-empty.
pub(crate) fn arn_field(arn: &str, index: usize) -> Option<String> {
    if !arn.starts_with("arn:") {
        return None;
    }
    arn.split(':')
        .nth(index)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
}

/// One row of ListStackResources.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct StackResourceRow {
    /// Logical id in the template.
    pub logical_id: String,
    /// Physical id, when the resource was created.
    pub physical_id: Option<String>,
    /// Resource type.
    pub resource_type: String,
    /// Resource status, e.g. `CREATE_COMPLETE`.
    pub status: String,
}

/// One row of ListStacks.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct StackSummary {
    /// Stack name.
    pub name: String,
    /// Stack id.
    pub stack_id: String,
    /// Stack status.
    pub status: String,
    /// The parent stack id for nested stacks (those are scanned through their parent).
    pub parent_id: Option<String>,
}

/// Whether a stack status means "settled and readable".
///
/// In-progress stacks are mid-change and failed ones hold a half-applied
/// template: comparing against either reports noise, so gathering reports
/// them as not checked (never as clean).
pub fn status_is_checkable(status: &str) -> bool {
    matches!(
        status,
        "CREATE_COMPLETE"
            | "UPDATE_COMPLETE"
            | "UPDATE_ROLLBACK_COMPLETE"
            | "IMPORT_COMPLETE"
            | "IMPORT_ROLLBACK_COMPLETE"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn account_and_region_come_from_the_stack_id() {
        let d = StackDescription {
            stack_id: "arn:aws:cloudformation:eu-west-1:123456789012:stack/App/abc".into(),
            ..Default::default()
        };
        assert_eq!(d.account_id().as_deref(), Some("123456789012"));
        assert_eq!(d.region().as_deref(), Some("eu-west-1"));
        assert_eq!(d.partition().as_deref(), Some("aws"));
        let bad = StackDescription {
            stack_id: "App".into(),
            ..Default::default()
        };
        assert_eq!(bad.account_id(), None);
    }

    #[test]
    fn only_settled_states_are_checkable() {
        assert!(status_is_checkable("UPDATE_ROLLBACK_COMPLETE"));
        assert!(!status_is_checkable("ROLLBACK_COMPLETE"));
        assert!(!status_is_checkable("UPDATE_IN_PROGRESS"));
        assert!(!status_is_checkable("CREATE_FAILED"));
    }
}
