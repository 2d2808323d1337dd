//! Serde types for the EventBridge envelope and the CloudTrail record it
//! carries in `detail`.
//!
//! Every field is optional and read leniently: real records have null
//! `requestParameters`, `readOnly` as the string `"false"`, masked values
//! such as `"..."` where an object belongs. A field of an unexpected shape
//! reads as absent instead of failing the whole record; the few fields
//! on-change cannot work without are checked by [`super::parse`], which
//! names them in its error.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer};
use serde_json::Value;

/// EventBridge's envelope of an "AWS API Call via CloudTrail" event, minus
/// `detail` (parsed into [`CloudTrailRecord`]).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct Envelope {
    /// Envelope version (`"0"`).
    #[serde(default, deserialize_with = "lenient_string")]
    pub version: Option<String>,
    /// EventBridge event id.
    #[serde(default, deserialize_with = "lenient_string")]
    pub id: Option<String>,
    /// `detail-type`, e.g. `AWS API Call via CloudTrail`.
    #[serde(default, rename = "detail-type", deserialize_with = "lenient_string")]
    pub detail_type: Option<String>,
    /// `source`, e.g. `aws.s3`.
    #[serde(default, deserialize_with = "lenient_string")]
    pub source: Option<String>,
    /// The account the event was delivered in.
    #[serde(default, deserialize_with = "lenient_string")]
    pub account: Option<String>,
    /// The region the event was delivered in.
    #[serde(default, deserialize_with = "lenient_string")]
    pub region: Option<String>,
    /// Delivery time.
    #[serde(default, deserialize_with = "lenient_string")]
    pub time: Option<String>,
}

/// One CloudTrail record: the object EventBridge puts under `detail`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CloudTrailRecord {
    /// Record format version.
    #[serde(default, deserialize_with = "lenient_string")]
    pub event_version: Option<String>,
    /// The service endpoint, e.g. `s3.amazonaws.com` (checked present by the parser).
    #[serde(default, deserialize_with = "lenient_string")]
    pub event_source: Option<String>,
    /// The API name as recorded, possibly with an API-version suffix (checked present).
    #[serde(default, deserialize_with = "lenient_string")]
    pub event_name: Option<String>,
    /// When the call was made (ISO 8601, UTC).
    #[serde(default, deserialize_with = "lenient_string")]
    pub event_time: Option<String>,
    /// CloudTrail's id of the record.
    #[serde(default, rename = "eventID", deserialize_with = "lenient_string")]
    pub event_id: Option<String>,
    /// `AwsApiCall`, `AwsServiceEvent`, `AwsConsoleSignIn` ...
    #[serde(default, deserialize_with = "lenient_string")]
    pub event_type: Option<String>,
    /// `Management`, `Data`, `Insight` ... (recent records only).
    #[serde(default, deserialize_with = "lenient_string")]
    pub event_category: Option<String>,
    /// The region the call was made in.
    #[serde(default, deserialize_with = "lenient_string")]
    pub aws_region: Option<String>,
    /// The account that owns the resource the call acted on.
    #[serde(default, deserialize_with = "lenient_string")]
    pub recipient_account_id: Option<String>,
    /// True for reads; absent in some records (then inferred from the name).
    #[serde(default, deserialize_with = "lenient_bool")]
    pub read_only: Option<bool>,
    /// False for data events.
    #[serde(default, deserialize_with = "lenient_bool")]
    pub management_event: Option<bool>,
    /// Present when the call failed.
    #[serde(default, deserialize_with = "lenient_string")]
    pub error_code: Option<String>,
    /// The failure message.
    #[serde(default, deserialize_with = "lenient_string")]
    pub error_message: Option<String>,
    /// The caller's IP address, or a service principal for calls AWS made.
    #[serde(
        default,
        rename = "sourceIPAddress",
        deserialize_with = "lenient_string"
    )]
    pub source_ip_address: Option<String>,
    /// The caller's user agent (client-controlled).
    #[serde(default, deserialize_with = "lenient_string")]
    pub user_agent: Option<String>,
    /// The request parameters, raw (null for many calls).
    #[serde(default, deserialize_with = "lenient_object")]
    pub request_parameters: Option<Value>,
    /// The response elements, raw (null for many calls).
    #[serde(default, deserialize_with = "lenient_object")]
    pub response_elements: Option<Value>,
    /// Resources CloudTrail lists for the call.
    #[serde(default, deserialize_with = "lenient_list")]
    pub resources: Vec<ResourceEntry>,
    /// Who made the call.
    #[serde(default, deserialize_with = "lenient")]
    pub user_identity: Option<UserIdentity>,
    /// `"true"` when the session was issued to the AWS console.
    #[serde(default, deserialize_with = "lenient_bool")]
    pub session_credential_from_console: Option<bool>,
    /// True when the record is a CloudTrail Insights record.
    #[serde(default, rename = "insightDetails", deserialize_with = "present")]
    pub insight_details: bool,
    /// True when the record carries the legacy Insights `insightType` field.
    #[serde(default, rename = "insightType", deserialize_with = "present")]
    pub insight_type: bool,
}

/// `userIdentity`: who made the call. `accessKeyId` is deliberately not
/// read, so it can never reach an alert.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UserIdentity {
    /// `IAMUser`, `AssumedRole`, `Root`, `AWSService`, `FederatedUser` ...
    #[serde(default, rename = "type", deserialize_with = "lenient_string")]
    pub identity_type: Option<String>,
    /// The principal id (for an assumed role: role id and session name).
    #[serde(default, deserialize_with = "lenient_string")]
    pub principal_id: Option<String>,
    /// The caller's ARN (an assumed-role ARN for role sessions).
    #[serde(default, deserialize_with = "lenient_string")]
    pub arn: Option<String>,
    /// The caller's account.
    #[serde(default, deserialize_with = "lenient_string")]
    pub account_id: Option<String>,
    /// The IAM user name, when the caller is a user.
    #[serde(default, deserialize_with = "lenient_string")]
    pub user_name: Option<String>,
    /// The AWS service that made the call on the caller's behalf.
    #[serde(default, deserialize_with = "lenient_string")]
    pub invoked_by: Option<String>,
    /// The session's context (issuer, attributes).
    #[serde(default, deserialize_with = "lenient")]
    pub session_context: Option<SessionContext>,
}

/// `userIdentity.sessionContext`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionContext {
    /// The role (or user) that issued the temporary credentials.
    #[serde(default, deserialize_with = "lenient")]
    pub session_issuer: Option<SessionIssuer>,
}

/// `userIdentity.sessionContext.sessionIssuer`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionIssuer {
    /// `Role`, `IAMUser` or `Root`.
    #[serde(default, rename = "type", deserialize_with = "lenient_string")]
    pub issuer_type: Option<String>,
    /// The issuer's ARN (a role ARN, with its path).
    #[serde(default, deserialize_with = "lenient_string")]
    pub arn: Option<String>,
    /// The issuer's name.
    #[serde(default, deserialize_with = "lenient_string")]
    pub user_name: Option<String>,
    /// The issuer's account.
    #[serde(default, deserialize_with = "lenient_string")]
    pub account_id: Option<String>,
}

/// One `resources[]` entry.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct ResourceEntry {
    /// The resource ARN.
    #[serde(default, rename = "ARN", deserialize_with = "lenient_string")]
    pub arn: Option<String>,
    /// The owning account.
    #[serde(default, rename = "accountId", deserialize_with = "lenient_string")]
    pub account_id: Option<String>,
    /// The CloudFormation-style type, e.g. `AWS::S3::Bucket`.
    #[serde(default, rename = "type", deserialize_with = "lenient_string")]
    pub resource_type: Option<String>,
}

impl CloudTrailRecord {
    /// The event source, empty when absent (the parser rejects that).
    pub fn source(&self) -> &str {
        self.event_source.as_deref().unwrap_or("")
    }

    /// The event name as recorded, empty when absent (the parser rejects that).
    pub fn name(&self) -> &str {
        self.event_name.as_deref().unwrap_or("")
    }

    /// The session issuer, when the caller used temporary credentials.
    pub fn session_issuer(&self) -> Option<&SessionIssuer> {
        self.user_identity
            .as_ref()?
            .session_context
            .as_ref()?
            .session_issuer
            .as_ref()
    }

    /// A top-level or `userIdentity.*` string field by its CloudTrail name,
    /// for facts that name the fields they apply to.
    pub fn field(&self, name: &str) -> Option<&str> {
        let identity = self.user_identity.as_ref();
        match name {
            "sourceIPAddress" => self.source_ip_address.as_deref(),
            "userAgent" => self.user_agent.as_deref(),
            "userIdentity.invokedBy" => identity?.invoked_by.as_deref(),
            "userIdentity.type" => identity?.identity_type.as_deref(),
            "userIdentity.arn" => identity?.arn.as_deref(),
            _ => None,
        }
    }
}

/// Field names [`CloudTrailRecord::field`] understands.
pub const KNOWN_FIELDS: &[&str] = &[
    "sourceIPAddress",
    "userAgent",
    "userIdentity.invokedBy",
    "userIdentity.type",
    "userIdentity.arn",
];

/// Any value of the right shape, else absent.
fn lenient<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: DeserializeOwned,
{
    let v = Value::deserialize(d)?;
    Ok(serde_json::from_value(v).ok())
}

/// A list whose unreadable items are skipped; anything but a list is empty.
fn lenient_list<'de, D, T>(d: D) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: DeserializeOwned,
{
    Ok(match Value::deserialize(d)? {
        Value::Array(items) => items
            .into_iter()
            .filter_map(|i| serde_json::from_value(i).ok())
            .collect(),
        _ => Vec::new(),
    })
}

/// A JSON object kept raw; anything else is absent.
fn lenient_object<'de, D>(d: D) -> Result<Option<Value>, D::Error>
where
    D: Deserializer<'de>,
{
    Ok(match Value::deserialize(d)? {
        v @ Value::Object(_) => Some(v),
        _ => None,
    })
}

/// A string, or a number / boolean printed as one; else absent.
fn lenient_string<'de, D>(d: D) -> Result<Option<String>, D::Error>
where
    D: Deserializer<'de>,
{
    Ok(match Value::deserialize(d)? {
        Value::String(s) => Some(s),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    })
}

/// A boolean, or the strings `"true"` / `"false"` (any case); else absent.
fn lenient_bool<'de, D>(d: D) -> Result<Option<bool>, D::Error>
where
    D: Deserializer<'de>,
{
    Ok(match Value::deserialize(d)? {
        Value::Bool(b) => Some(b),
        Value::String(s) if s.eq_ignore_ascii_case("true") => Some(true),
        Value::String(s) if s.eq_ignore_ascii_case("false") => Some(false),
        _ => None,
    })
}

/// True when the field is present with any non-null value.
fn present<'de, D>(d: D) -> Result<bool, D::Error>
where
    D: Deserializer<'de>,
{
    Ok(!matches!(Value::deserialize(d)?, Value::Null))
}
