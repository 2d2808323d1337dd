//! The Finding contract: one observation about one resource property.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The classification tier of a finding (see DESIGN.md "Classify").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Tier {
    /// A resource the template declares no longer exists.
    Deleted,
    /// A declared property whose live value differs from the template.
    Declared,
    /// A live property the template never declared (after noise subtraction).
    Undeclared,
    /// A whole live child resource the template does not declare.
    Added,
    /// An undeclared value equal to a known AWS default.
    AtDefault,
    /// An undeclared value equal to an identifier AWS minted for this resource.
    Generated,
    /// A declared property the live read cannot return.
    ReadGap,
    /// A declared property whose intrinsics could not be resolved.
    Unresolved,
    /// A resource that could not be read.
    Skipped,
    /// A finding matched by an ignore rule.
    Ignored,
}

impl Tier {
    /// All tiers, in report order.
    pub const ALL: [Tier; 10] = [
        Tier::Deleted,
        Tier::Declared,
        Tier::Undeclared,
        Tier::Added,
        Tier::AtDefault,
        Tier::Generated,
        Tier::ReadGap,
        Tier::Unresolved,
        Tier::Skipped,
        Tier::Ignored,
    ];

    /// The wire name of the tier (camelCase, as in the JSON contract).
    pub fn as_str(self) -> &'static str {
        match self {
            Tier::Deleted => "deleted",
            Tier::Declared => "declared",
            Tier::Undeclared => "undeclared",
            Tier::Added => "added",
            Tier::AtDefault => "atDefault",
            Tier::Generated => "generated",
            Tier::ReadGap => "readGap",
            Tier::Unresolved => "unresolved",
            Tier::Skipped => "skipped",
            Tier::Ignored => "ignored",
        }
    }

    /// Drift tiers are the ones a user must act on (they affect `--fail`).
    pub fn is_drift(self) -> bool {
        matches!(
            self,
            Tier::Deleted | Tier::Declared | Tier::Undeclared | Tier::Added
        )
    }
}

impl std::fmt::Display for Tier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Who changed a resource: the CloudTrail call behind an on-change
/// finding (one type for the event model and the findings).
pub use crate::events::Cause;

/// The whole array a declared element-level finding must be reverted through.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WholeArrayRevert {
    /// Dotted path of the array.
    pub path: String,
    /// The desired (template) value of the whole array.
    pub value: Value,
}

/// Serde `skip_serializing_if` for a flag that is written only when set.
pub(crate) fn is_false(b: &bool) -> bool {
    !*b
}

/// Reads a flag written either as a boolean or as a (non-null) object.
/// One finding, in the JSON shape of the corpus Finding format.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Finding {
    /// Classification tier.
    pub tier: Tier,
    /// CloudFormation logical id.
    pub logical_id: String,
    /// CloudFormation resource type, e.g. `AWS::S3::Bucket`.
    pub resource_type: String,
    /// Physical id, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub physical_id: Option<String>,
    /// CDK construct path from `aws:cdk:path` metadata.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub construct_path: Option<String>,
    /// Dotted property path; identity-keyed elements as `Prop[<id>].sub`.
    pub path: String,
    /// Template (or baseline) side.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub desired: Option<Value>,
    /// Live side.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub actual: Option<Value>,
    /// A live sub-key inside a declared object.
    #[serde(default, skip_serializing_if = "is_false")]
    pub nested: bool,
    /// A write-only property that cannot be read back.
    #[serde(default, skip_serializing_if = "is_false")]
    pub write_only: bool,
    /// Human-readable explanation (wording is free).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Attribute key for ELB attribute-bag findings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attribute_key: Option<String>,
    /// A key under a free-form map property.
    #[serde(default, skip_serializing_if = "is_false")]
    pub free_form_key: bool,
    /// Revert must rewrite the whole array: the array's path and its desired value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub whole_array_revert: Option<WholeArrayRevert>,
    /// The live value holds exactly the declared members in another order,
    /// and nothing says whether AWS keeps this list's order: potential
    /// drift (tier `undeclared`), reverted by writing the declared value.
    #[serde(default, skip_serializing_if = "is_false")]
    pub order_only: bool,
    /// An undeclared value of a create-only property: set when the resource
    /// was created and unchangeable without replacing it (tier `atDefault`),
    /// recorded so a resource re-created with another value surfaces.
    #[serde(default, skip_serializing_if = "is_false")]
    pub create_only: bool,
    /// An undeclared value AWS chose at create that a user can change (a
    /// default security group, a maintenance window; tier `atDefault`):
    /// recorded and remembered so a later change surfaces.
    #[serde(default, skip_serializing_if = "is_false")]
    pub chosen_at_create: bool,
    /// An undeclared value with no baseline entry (potential drift, not confirmed).
    #[serde(default, skip_serializing_if = "is_false")]
    pub unrecorded: bool,
    /// The CloudTrail event that led to this finding, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cause: Option<Cause>,
}

impl Finding {
    /// A finding with only the identity fields set.
    pub fn new(
        tier: Tier,
        logical_id: impl Into<String>,
        resource_type: impl Into<String>,
        path: impl Into<String>,
    ) -> Self {
        Finding {
            tier,
            logical_id: logical_id.into(),
            resource_type: resource_type.into(),
            physical_id: None,
            construct_path: None,
            path: path.into(),
            desired: None,
            actual: None,
            nested: false,
            write_only: false,
            note: None,
            attribute_key: None,
            free_form_key: false,
            whole_array_revert: None,
            order_only: false,
            create_only: false,
            chosen_at_create: false,
            unrecorded: false,
            cause: None,
        }
    }
}
