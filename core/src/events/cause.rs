//! The cause a finding raised by on-change carries: who changed what, when
//! and from where. Every value is copied from the record, so it is untrusted
//! text: renderers escape it. No request parameters and no access key id are
//! copied, so no secret can reach an alert through a cause.

use super::facts::{DeployerKind, Facts};
use super::parse::CloudTrailEvent;
use serde::{Deserialize, Serialize};

/// The API call behind a finding (DESIGN.md, Finding `cause`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Cause {
    /// The API name as recorded (`UpdateFunctionConfiguration20150331v2`).
    pub event_name: String,
    /// The service endpoint (`lambda.amazonaws.com`).
    pub event_source: String,
    /// Who made the call.
    pub actor: Actor,
    /// The role or user that issued the caller's temporary credentials.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session_issuer: Option<Issuer>,
    /// The caller's IP address (or a service principal).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_ip: Option<String>,
    /// The caller's user agent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user_agent: Option<String>,
    /// When the call was made (ISO 8601, UTC).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event_time: Option<String>,
    /// CloudTrail's record id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event_id: Option<String>,
    /// True when the call came from the AWS console.
    pub console: bool,
    /// The region the call was recorded in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aws_region: Option<String>,
    /// The account that owns the resource.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub account_id: Option<String>,
    /// The deployment that made the call for the actor (CloudFormation, a
    /// StackSet's execution role), when one did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub through: Option<Deployer>,
}

/// A deployment acting for the actor.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Deployer {
    /// Which kind of deployment.
    pub kind: DeployerKind,
    /// The stack that made the call, when a lookup of the resource it
    /// wrote found it (another stack than the watched one); for a custom
    /// resource's provider, the custom resource's stack.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stack: Option<String>,
    /// The custom resource and its provider function, for `customResource`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provider: Option<ProviderRef>,
}

/// Which custom resource's provider made a call.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProviderRef {
    /// The custom resources' logical ids the function provides (one,
    /// unless several share the provider).
    pub custom_resources: Vec<String>,
    /// The provider function(s) whose role made the call.
    pub functions: Vec<String>,
}

/// `userIdentity`, reduced to what names a person or a role.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Actor {
    /// The caller's ARN (an assumed-role ARN names the session).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arn: Option<String>,
    /// The identity type (`IAMUser`, `AssumedRole`, `Root` ...).
    #[serde(default, rename = "type", skip_serializing_if = "Option::is_none")]
    pub identity_type: Option<String>,
    /// The principal id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub principal_id: Option<String>,
    /// The caller's account.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub account_id: Option<String>,
    /// The IAM user name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user_name: Option<String>,
    /// The AWS service that made the call on the caller's behalf.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invoked_by: Option<String>,
}

/// `sessionContext.sessionIssuer`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Issuer {
    /// `Role`, `IAMUser` or `Root`.
    #[serde(default, rename = "type", skip_serializing_if = "Option::is_none")]
    pub issuer_type: Option<String>,
    /// The issuer's ARN.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arn: Option<String>,
    /// The issuer's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user_name: Option<String>,
}

impl Cause {
    /// The cause of one event.
    pub fn of(event: &CloudTrailEvent, facts: &Facts) -> Self {
        let r = &event.record;
        let id = r.user_identity.clone().unwrap_or_default();
        let console = r.session_credential_from_console == Some(true)
            || facts.looks_like_console(r.user_agent.as_deref(), id.invoked_by.as_deref());
        let envelope = event.envelope.as_ref();
        Cause {
            event_name: r.name().to_string(),
            event_source: r.source().to_string(),
            session_issuer: r.session_issuer().and_then(|s| {
                let issuer = Issuer {
                    issuer_type: s.issuer_type.clone(),
                    arn: s.arn.clone(),
                    user_name: s.user_name.clone(),
                };
                (issuer != Issuer::default()).then_some(issuer)
            }),
            actor: Actor {
                arn: id.arn,
                identity_type: id.identity_type,
                principal_id: id.principal_id,
                account_id: id.account_id,
                user_name: id.user_name,
                invoked_by: id.invoked_by,
            },
            source_ip: r.source_ip_address.clone(),
            user_agent: r.user_agent.clone(),
            event_time: r
                .event_time
                .clone()
                .or_else(|| envelope.and_then(|e| e.time.clone())),
            event_id: r.event_id.clone(),
            console,
            aws_region: r
                .aws_region
                .clone()
                .or_else(|| envelope.and_then(|e| e.region.clone())),
            account_id: r
                .recipient_account_id
                .clone()
                .or_else(|| envelope.and_then(|e| e.account.clone())),
            through: facts.deployer(r).map(|kind| Deployer {
                kind,
                stack: None,
                provider: None,
            }),
        }
    }

    /// A key that orders causes by event time (latest sorts last): the
    /// seconds part and the fraction padded to nanoseconds, so
    /// `...:05.5Z` sorts after `...:05Z`. CloudTrail writes UTC (`Z`).
    pub fn time_key(&self) -> Option<(String, u32)> {
        let t = self.event_time.as_deref()?;
        let seconds: String = t.chars().take(19).collect();
        let rest = t.get(19..).unwrap_or("");
        let nanos = rest
            .strip_prefix('.')
            .map(|f| {
                let digits: String = f.chars().take_while(char::is_ascii_digit).take(9).collect();
                format!("{digits:0<9}").parse::<u32>().unwrap_or(0)
            })
            .unwrap_or(0);
        Some((seconds, nanos))
    }
}
