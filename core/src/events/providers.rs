//! Custom resources' provider functions. At scan, the index records, for
//! each custom resource of a watched stack, the Lambda function its
//! `ServiceToken` names (and, behind the CDK Provider framework, the user's
//! handlers) with the function's execution role. A call made with one of
//! those roles is then a deployment's, screened by the custom resource's
//! stack's state like CloudFormation's own calls. Facts:
//! `customResourceProviders` and `cdkProviderFramework` in
//! `core/data/cloudtrail-facts.json`.

use super::catalog::Catalog;
use super::cause::{Cause, Deployer, ProviderRef};
use super::facts::{CustomResourceFacts, DeployerKind};
use super::filter::role_key;
use super::index::ResourceIndex;
use crate::declared::DeclaredValue;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// One function that writes for a custom resource of a watched stack.
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProviderRow {
    /// The stack holding the custom resource (and the function).
    pub stack: String,
    /// The custom resource's logical id.
    pub custom_resource: String,
    /// The function's name.
    pub function: String,
    /// The function's execution role (its ARN as the scan read it).
    pub role_arn: String,
    /// The CDK Provider framework function the `ServiceToken` names, when
    /// `function` is a handler it invokes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub via: Option<String>,
}

/// What the scan knows about one resource, for [`provider_rows`].
#[derive(Debug, Clone, Copy)]
pub struct ProviderInput<'a> {
    /// The logical id.
    pub logical_id: &'a str,
    /// The CloudFormation type.
    pub resource_type: &'a str,
    /// The physical id (a function's name).
    pub physical_id: Option<&'a str>,
    /// The resolved declared properties.
    pub declared: &'a BTreeMap<String, DeclaredValue>,
    /// The live model, when read (a function's real `Role`).
    pub live: Option<&'a Value>,
}

/// The provider rows of one stack: every custom resource whose
/// `ServiceToken` resolves to a function of the same stack with a known
/// role. A token that is unresolved, an SNS topic, or a function outside
/// the stack gives no row (docs/on-change-events.md says so).
pub fn provider_rows(
    facts: &CustomResourceFacts,
    stack: &str,
    resources: &[ProviderInput<'_>],
) -> Vec<ProviderRow> {
    let functions: BTreeMap<&str, &ProviderInput<'_>> = resources
        .iter()
        .filter(|r| r.resource_type == facts.function_type)
        .filter_map(|r| Some((r.physical_id.filter(|p| !p.is_empty())?, r)))
        .collect();
    let mut rows = BTreeSet::new();
    for cr in resources
        .iter()
        .filter(|r| facts.is_custom_resource(r.resource_type))
    {
        let Some(token) = string_at(cr.declared, &[&facts.service_token_property]) else {
            continue;
        };
        let Some(service) = function_name(token).and_then(|n| functions.get(n)) else {
            continue;
        };
        let row = |f: &ProviderInput<'_>, via: Option<&str>| {
            Some(ProviderRow {
                stack: stack.to_string(),
                custom_resource: cr.logical_id.to_string(),
                function: f.physical_id?.to_string(),
                role_arn: role_of(facts, f)?,
                via: via.map(str::to_string),
            })
        };
        rows.extend(row(service, None));
        for var in &facts.framework_handler_variables {
            let handler = string_at(service.declared, &["Environment", "Variables", var])
                .and_then(function_name)
                .and_then(|n| functions.get(n));
            if let Some(h) = handler {
                rows.extend(row(h, service.physical_id));
            }
        }
    }
    rows.into_iter().collect()
}

/// The role a function runs with: the live model's (what really runs),
/// else the resolved declared one.
fn role_of(facts: &CustomResourceFacts, f: &ProviderInput<'_>) -> Option<String> {
    let live = f
        .live
        .and_then(|l| l.get(&facts.role_property))
        .and_then(Value::as_str);
    live.or_else(|| string_at(f.declared, &[&facts.role_property]))
        .filter(|r| !r.is_empty())
        .map(str::to_string)
}

fn string_at<'a>(declared: &'a BTreeMap<String, DeclaredValue>, path: &[&str]) -> Option<&'a str> {
    let (first, rest) = path.split_first()?;
    let mut v = declared.get(*first)?;
    for key in rest {
        match v {
            DeclaredValue::Object(m) => v = m.get(*key)?,
            _ => return None,
        }
    }
    match v {
        DeclaredValue::String(s) => Some(s),
        _ => None,
    }
}

/// `arn:<partition>:lambda:<region>:<account>:function:<name>[:<qualifier>]` -> name.
fn function_name(arn: &str) -> Option<&str> {
    let parts: Vec<&str> = arn.split(':').collect();
    (parts.len() >= 7 && parts[0] == "arn" && parts[2] == "lambda" && parts[5] == "function")
        .then(|| parts[6])
        .filter(|n| !n.is_empty())
}

impl ResourceIndex {
    /// The custom resource whose provider made the call, when the caller's
    /// session issuer is a provider role this index recorded. Several
    /// functions on one role are narrowed by the session name (Lambda's
    /// session of a function typically carries its name); candidates in
    /// more than one stack give `None` (re-checked as an out-of-band call).
    pub fn provider_of(&self, catalog: &Catalog, cause: &Cause) -> Option<Deployer> {
        if cause.through.is_some() || self.providers.is_empty() {
            return None;
        }
        let issuer = cause.session_issuer.as_ref()?.arn.as_deref()?;
        let key = role_key(catalog, issuer, "arn")?;
        let mut candidates: Vec<_> = self
            .providers
            .iter()
            .filter(|p| {
                role_key(catalog, &p.role_arn, "arn")
                    .is_some_and(|k| k.parts == key.parts && k.account == key.account)
            })
            .collect();
        let session = cause
            .actor
            .arn
            .as_deref()
            .filter(|a| a.contains(":assumed-role/"))
            .and_then(|a| a.rsplit('/').next());
        if candidates
            .iter()
            .any(|p| Some(p.function.as_str()) == session)
        {
            candidates.retain(|p| Some(p.function.as_str()) == session);
        }
        let stacks: BTreeSet<&str> = candidates.iter().map(|p| p.stack.as_str()).collect();
        let [stack] = stacks.into_iter().collect::<Vec<_>>()[..] else {
            return None;
        };
        Some(Deployer {
            kind: DeployerKind::CustomResource,
            stack: Some(stack.to_string()),
            provider: Some(ProviderRef {
                custom_resources: candidates
                    .iter()
                    .map(|p| p.custom_resource.clone())
                    .collect::<BTreeSet<_>>()
                    .into_iter()
                    .collect(),
                functions: candidates
                    .iter()
                    .map(|p| p.function.clone())
                    .collect::<BTreeSet<_>>()
                    .into_iter()
                    .collect(),
            }),
        })
    }
}
