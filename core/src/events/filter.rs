//! Which events on-change acts on, with a typed reason for every one it
//! drops (for metrics).

use super::catalog::Catalog;
use super::cause::Cause;
use super::extract::{extract, Touch};
use super::identity::ResourceKey;
use super::parse::CloudTrailEvent;
use super::record::CloudTrailRecord;
use serde::Serialize;

/// Why an event was dropped. Reasons are checked in declaration order; the
/// first that applies is reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum DropReason {
    /// Not an API call: another EventBridge detail-type, an eventType other
    /// than `AwsApiCall`, or an Insights record.
    NotApiCall,
    /// A data event (`managementEvent` false).
    NotManagement,
    /// The call failed (`errorCode` present): nothing changed.
    Failed,
    /// A read (`readOnly` true, or absent and the name reads as a read).
    ReadOnly,
    /// The resource's account is not one of the configured accounts.
    OtherAccount,
    /// The call was made in a region not configured (never for global services).
    OtherRegion,
    /// A deployment (CloudFormation, a StackSet) made the call while the
    /// owning stack was being deployed. Never returned by
    /// [`Screener::assess`], which accepts such calls marked with
    /// `cause.through`: only the owning stack's state can tell its own
    /// deploy from another stack's write (on-change decides).
    CloudFormation,
    /// realdrift's own revert role made the call.
    RevertRole,
    /// The table does not map `(eventSource, eventName)`.
    Unmapped,
    /// Mapped, but the record names no identifier of an accepted form.
    Unidentified,
}

impl DropReason {
    /// Every reason, in check order.
    pub const ALL: [DropReason; 10] = [
        DropReason::NotApiCall,
        DropReason::NotManagement,
        DropReason::Failed,
        DropReason::ReadOnly,
        DropReason::OtherAccount,
        DropReason::OtherRegion,
        DropReason::CloudFormation,
        DropReason::RevertRole,
        DropReason::Unmapped,
        DropReason::Unidentified,
    ];

    /// The metric label (`notApiCall`, `readOnly` ...).
    pub fn as_str(self) -> &'static str {
        match self {
            DropReason::NotApiCall => "notApiCall",
            DropReason::NotManagement => "notManagement",
            DropReason::Failed => "failed",
            DropReason::ReadOnly => "readOnly",
            DropReason::OtherAccount => "otherAccount",
            DropReason::OtherRegion => "otherRegion",
            DropReason::CloudFormation => "cloudFormation",
            DropReason::RevertRole => "revertRole",
            DropReason::Unmapped => "unmapped",
            DropReason::Unidentified => "unidentified",
        }
    }
}

/// A configured revert role ARN was not a role ARN.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "revert role {0:?} is not an IAM role ARN (arn:<partition>:iam::<account>:role/[path/]name)"
)]
pub struct RoleArnError(pub String);

/// What on-change watches: accounts, regions, and whose calls it ignores.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FilterConfig {
    accounts: Vec<String>,
    regions: Vec<String>,
    revert_roles: Vec<ResourceKey>,
}

impl FilterConfig {
    /// Watches every account and region, ignores no role.
    pub fn new() -> Self {
        Self::default()
    }

    /// Only these accounts (empty: any).
    pub fn with_accounts<I: IntoIterator<Item = S>, S: Into<String>>(
        mut self,
        accounts: I,
    ) -> Self {
        self.accounts = accounts.into_iter().map(Into::into).collect();
        self
    }

    /// Only these regions (empty: any). Global services pass regardless.
    pub fn with_regions<I: IntoIterator<Item = S>, S: Into<String>>(mut self, regions: I) -> Self {
        self.regions = regions.into_iter().map(Into::into).collect();
        self
    }

    /// Ignores calls made with this role (its ARN, path or not). Matched
    /// against the session issuer's role ARN and the assumed-role ARN by
    /// account and role name, so the role's path does not matter.
    pub fn with_revert_role(
        mut self,
        catalog: &Catalog,
        role_arn: &str,
    ) -> Result<Self, RoleArnError> {
        let key = role_key(catalog, role_arn, "arn")
            .filter(|k| k.account.is_some())
            .ok_or_else(|| RoleArnError(role_arn.to_string()))?;
        self.revert_roles.push(key);
        Ok(self)
    }
}

/// An IAM role's key (account, name) from an ARN of `form`.
pub(crate) fn role_key(catalog: &Catalog, arn: &str, form: &str) -> Option<ResourceKey> {
    let rules = catalog.identities.get("AWS::IAM::Role")?;
    rules
        .match_identifier(arn, Some(&[form.to_string()]))
        .map(|m| m.key)
}

/// An event on-change acts on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Accepted {
    /// Who made the call, when and from where.
    pub cause: Cause,
    /// What it touched.
    pub touch: Touch,
}

/// The outcome of [`Screener::assess`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Acted on.
    Accept(Box<Accepted>),
    /// Dropped, and why.
    Drop(DropReason),
}

/// Filter + map, built once per process.
#[derive(Debug, Clone)]
pub struct Screener<'c> {
    catalog: &'c Catalog,
    config: FilterConfig,
}

impl<'c> Screener<'c> {
    /// A screener over a catalog and a configuration.
    pub fn new(catalog: &'c Catalog, config: FilterConfig) -> Self {
        Self { catalog, config }
    }

    /// The catalog it reads.
    pub fn catalog(&self) -> &'c Catalog {
        self.catalog
    }

    /// Filters one event and maps it to the resources it touched.
    pub fn assess(&self, event: &CloudTrailEvent) -> Verdict {
        match self.check(event) {
            Ok(accepted) => Verdict::Accept(Box::new(accepted)),
            Err(reason) => Verdict::Drop(reason),
        }
    }

    fn check(&self, event: &CloudTrailEvent) -> Result<Accepted, DropReason> {
        let facts = &self.catalog.facts;
        let r = &event.record;
        let bare = facts.bare_name(r.name());
        if !self.is_api_call(event) {
            return Err(DropReason::NotApiCall);
        }
        if r.management_event == Some(false) {
            return Err(DropReason::NotManagement);
        }
        if r.error_code
            .as_deref()
            .is_some_and(|c| !c.trim().is_empty())
        {
            return Err(DropReason::Failed);
        }
        if r.read_only.unwrap_or_else(|| facts.name_reads(bare)) {
            return Err(DropReason::ReadOnly);
        }
        if !allowed(&self.config.accounts, account_of(event).as_deref()) {
            return Err(DropReason::OtherAccount);
        }
        let global = facts.is_global_source(r.source());
        if !global && !allowed(&self.config.regions, region_of(event).as_deref()) {
            return Err(DropReason::OtherRegion);
        }
        if self.by_revert_role(r) {
            return Err(DropReason::RevertRole);
        }
        Ok(Accepted {
            cause: Cause::of(event, facts),
            touch: self.map_record(event)?,
        })
    }

    /// The mapping step alone (no filter): what the call touched, or
    /// `Unmapped` / `Unidentified`.
    pub fn map_record(&self, event: &CloudTrailEvent) -> Result<Touch, DropReason> {
        let facts = &self.catalog.facts;
        let r = &event.record;
        let bare = facts.bare_name(r.name());
        let entry = self
            .catalog
            .table
            .get(r.source(), bare)
            .ok_or(DropReason::Unmapped)?;
        let (targets, child_selector) =
            extract(r, entry, &self.catalog.identities).ok_or(DropReason::Unidentified)?;
        Ok(Touch {
            event_source: r.source().to_string(),
            event_name: bare.to_string(),
            account_id: account_of(event),
            region: region_of(event),
            global: facts.is_global_source(r.source()),
            targets,
            children: entry.children.clone(),
            child_selector,
            resolve: entry.resolve,
        })
    }

    fn is_api_call(&self, event: &CloudTrailEvent) -> bool {
        let facts = &self.catalog.facts;
        let r = &event.record;
        let detail_ok = event
            .envelope
            .as_ref()
            .is_none_or(|e| e.detail_type.as_deref() == Some(facts.api_call_detail_type.as_str()));
        let type_ok = match r.event_type.as_deref() {
            Some(t) => t == facts.api_call_event_type,
            None => !(r.insight_details || r.insight_type),
        };
        detail_ok && type_ok && r.event_category.as_deref() != Some("Insight")
    }

    fn by_revert_role(&self, r: &CloudTrailRecord) -> bool {
        if self.config.revert_roles.is_empty() {
            return false;
        }
        let issuer = r
            .session_issuer()
            .and_then(|s| s.arn.as_deref())
            .and_then(|a| role_key(self.catalog, a, "arn"));
        let session = r
            .user_identity
            .as_ref()
            .and_then(|i| i.arn.as_deref())
            .and_then(|a| role_key(self.catalog, a, "assumedRoleArn"));
        [issuer, session].into_iter().flatten().any(|k| {
            self.config.revert_roles.iter().any(|want| {
                want.parts == k.parts && (k.account.is_none() || k.account == want.account)
            })
        })
    }
}

fn allowed(list: &[String], value: Option<&str>) -> bool {
    // Unknown account / region passes: dropping it could hide a change.
    list.is_empty() || value.is_none_or(|v| list.iter().any(|x| x == v))
}

/// The account that owns the resource (never the caller's: a cross-account
/// caller's account says nothing about where the resource lives).
fn account_of(event: &CloudTrailEvent) -> Option<String> {
    event
        .record
        .recipient_account_id
        .clone()
        .or_else(|| event.envelope.as_ref().and_then(|e| e.account.clone()))
}

fn region_of(event: &CloudTrailEvent) -> Option<String> {
    event
        .record
        .aws_region
        .clone()
        .or_else(|| event.envelope.as_ref().and_then(|e| e.region.clone()))
}
