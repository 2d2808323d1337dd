//! The resources a check did not compare, each with why: what every report
//! form names in its coverage sentence ("12 of 13 compared; not compared:
//! Pipeline/Build (AWS::CodeBuild::Project: no reader for the type)").

use super::model::Coverage;
use super::sanitize::sanitize_identifier;
use serde::{Deserialize, Serialize};

/// Why a resource was not compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum NotComparedReason {
    /// Neither Cloud Control nor a per-type reader can read the type: lost
    /// coverage unless the team accepts the type in `ignore.yaml`.
    NoReader,
    /// The read was refused (access denied): lost coverage.
    ReadRefused,
    /// The read failed (a service error, a malformed answer, no schema, a
    /// read target that never resolved): lost coverage.
    ReadFailed,
    /// The template's properties cannot be resolved: lost coverage.
    Unresolved,
    /// A custom resource: its provider is user code, there is no model to
    /// read. A benign skip.
    CustomResource,
    /// Nothing to read: CloudFormation did not create it, or it names no
    /// target. A benign skip.
    NothingToRead,
}

impl NotComparedReason {
    /// The phrase reports print.
    pub fn phrase(self) -> &'static str {
        match self {
            NotComparedReason::NoReader => "no reader for the type",
            NotComparedReason::ReadRefused => "read refused",
            NotComparedReason::ReadFailed => "read failed",
            NotComparedReason::Unresolved => "properties unresolvable",
            NotComparedReason::CustomResource => "custom resource",
            NotComparedReason::NothingToRead => "nothing to read",
        }
    }

    /// True when the skip is coverage the user expects (before acceptance).
    pub fn is_loss(self) -> bool {
        !matches!(
            self,
            NotComparedReason::CustomResource | NotComparedReason::NothingToRead
        )
    }

    /// The reason of a failed read, told apart by what the reader said: a
    /// refusal names the denial ("denied", "not authorized").
    pub fn of_failed_read(message: &str) -> Self {
        let m = message.to_ascii_lowercase();
        if m.contains("denied") || m.contains("not authorized") || m.contains("unauthorized") {
            NotComparedReason::ReadRefused
        } else {
            NotComparedReason::ReadFailed
        }
    }
}

/// One resource the check did not compare.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NotCompared {
    /// Logical id.
    pub logical_id: String,
    /// CDK construct path, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub construct_path: Option<String>,
    /// Resource type.
    pub resource_type: String,
    /// Why, as a kind.
    pub reason: NotComparedReason,
    /// What the reader or the check said.
    pub detail: String,
    /// Set when an `accept` rule of `ignore.yaml` accepts the type as not
    /// compared: the rule's reason. An accepted resource is not lost coverage.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub accepted: Option<String>,
}

impl NotCompared {
    /// True when this resource counts as lost coverage.
    pub fn is_lost(&self) -> bool {
        self.reason.is_loss() && self.accepted.is_none()
    }

    /// True for a type no reader reads that nobody accepted.
    pub fn is_unaccepted_unreadable(&self) -> bool {
        self.reason == NotComparedReason::NoReader && self.accepted.is_none()
    }

    /// The name a person recognises: the construct path below the stack
    /// (`Pipeline/Build`), else the logical id. Terminal- and Slack-safe
    /// escaping is the renderer's job; this strips control characters.
    pub fn display_name(&self, stack: &str) -> String {
        let name = self
            .construct_path
            .as_deref()
            .map(|p| {
                let p = p
                    .strip_prefix(stack)
                    .and_then(|r| r.strip_prefix('/'))
                    .unwrap_or(p);
                p.strip_suffix("/Resource").unwrap_or(p)
            })
            .filter(|p| !p.is_empty())
            .unwrap_or(&self.logical_id);
        sanitize_identifier(name)
    }

    /// `Pipeline/Build (AWS::CodeBuild::Project: no reader for the type)`,
    /// with `, accepted` when an accept rule covers it.
    pub fn describe(&self, stack: &str) -> String {
        let accepted = if self.accepted.is_some() {
            ", accepted"
        } else {
            ""
        };
        format!(
            "{} ({}: {}{accepted})",
            self.display_name(stack),
            sanitize_identifier(&self.resource_type),
            self.reason.phrase()
        )
    }
}

/// The most resources a coverage sentence names before it says "and N more".
pub const MAX_NAMED: usize = 10;

/// "12 of 13 compared; not compared: Pipeline/Build (AWS::X::Y: no reader
/// for the type)". `named` caps how many are listed.
pub fn coverage_sentence(
    stack: &str,
    coverage: &Coverage,
    not_compared: &[NotCompared],
    named: usize,
) -> String {
    let mut s = format!("{} of {} compared", coverage.checked, coverage.total);
    if not_compared.is_empty() {
        return s;
    }
    let names: Vec<String> = not_compared
        .iter()
        .take(named)
        .map(|n| n.describe(stack))
        .collect();
    s.push_str("; not compared: ");
    s.push_str(&names.join(", "));
    if not_compared.len() > named {
        s.push_str(&format!(", and {} more", not_compared.len() - named));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nc(reason: NotComparedReason, accepted: Option<&str>) -> NotCompared {
        NotCompared {
            logical_id: "Build1234".into(),
            construct_path: Some("App/Pipeline/Build/Resource".into()),
            resource_type: "AWS::CodeBuild::Project".into(),
            reason,
            detail: "Cloud Control cannot read AWS::CodeBuild::Project".into(),
            accepted: accepted.map(str::to_string),
        }
    }

    #[test]
    fn the_sentence_names_each_resource_with_its_type_and_reason() {
        let c = Coverage {
            total: 13,
            checked: 12,
            skipped: 1,
            lost: 1,
            ..Coverage::default()
        };
        let list = [nc(NotComparedReason::NoReader, None)];
        assert_eq!(
            coverage_sentence("App", &c, &list, MAX_NAMED),
            "12 of 13 compared; not compared: Pipeline/Build \
             (AWS::CodeBuild::Project: no reader for the type)"
        );
        let accepted = [nc(NotComparedReason::NoReader, Some("no read API"))];
        assert!(coverage_sentence("App", &c, &accepted, MAX_NAMED)
            .ends_with("no reader for the type, accepted)"));
        assert!(!accepted[0].is_lost());
        assert!(list[0].is_lost());
        assert!(!nc(NotComparedReason::CustomResource, None).is_lost());
    }

    #[test]
    fn refusals_are_told_from_failures() {
        assert_eq!(
            NotComparedReason::of_failed_read("s3:GetBucketPolicy denied on b: x"),
            NotComparedReason::ReadRefused
        );
        assert_eq!(
            NotComparedReason::of_failed_read("cloudcontrol:GetResource failed: boom"),
            NotComparedReason::ReadFailed
        );
    }

    #[test]
    fn long_lists_are_capped() {
        let list: Vec<NotCompared> = (0..3)
            .map(|_| nc(NotComparedReason::ReadFailed, None))
            .collect();
        let s = coverage_sentence("App", &Coverage::default(), &list, 2);
        assert!(s.ends_with(", and 1 more"), "{s}");
    }
}
