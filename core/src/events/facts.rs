//! Facts about CloudTrail records (`core/data/cloudtrail-facts.json`): the
//! API-call markers, read-only verbs, the API-version suffix, how calls by
//! CloudFormation and from the console look, and the global services.

use super::record::{CloudTrailRecord, KNOWN_FIELDS};
use regex::Regex;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;

/// The parsed facts.
#[derive(Debug, Clone)]
pub struct Facts {
    /// EventBridge detail-type of a CloudTrail API call.
    pub api_call_detail_type: String,
    /// CloudTrail eventType of an API call.
    pub api_call_event_type: String,
    read_only_prefixes: Vec<String>,
    api_version_suffix: Regex,
    /// The CloudFormation service principal.
    pub cloudformation_principal: String,
    /// The record fields that carry it when CloudFormation made the call.
    pub cloudformation_fields: Vec<String>,
    console_user_agents: Vec<Regex>,
    console_invoked_by: Vec<String>,
    global_sources: HashSet<String>,
    stack_set_roles: NamesFact,
    /// How a template names a custom resource's provider function.
    pub custom_resources: CustomResourceFacts,
}

/// How a template wires a custom resource to the Lambda function that
/// provides it (and, through the CDK Provider framework, to its handlers).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CustomResourceFacts {
    types: Vec<String>,
    type_prefixes: Vec<String>,
    /// The custom resource's property naming its provider (`ServiceToken`).
    pub service_token_property: String,
    /// The provider function's type (`AWS::Lambda::Function`).
    pub function_type: String,
    /// The function's execution-role property (`Role`).
    pub role_property: String,
    /// The CDK Provider framework's environment variables naming the user's handlers.
    pub framework_handler_variables: Vec<String>,
}

impl CustomResourceFacts {
    /// True for a custom resource type.
    pub fn is_custom_resource(&self, resource_type: &str) -> bool {
        self.types.iter().any(|t| t == resource_type)
            || self
                .type_prefixes
                .iter()
                .any(|p| resource_type.starts_with(p.as_str()))
    }
}

/// Who deployed a call on a principal's behalf.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum DeployerKind {
    /// CloudFormation made the call for a stack operation.
    CloudFormation,
    /// A StackSet's execution role made the call for a stack instance.
    StackSet,
    /// A custom resource's provider function made the call (its execution role).
    CustomResource,
}

impl DeployerKind {
    /// How an alert names it.
    pub fn label(self) -> &'static str {
        match self {
            DeployerKind::CloudFormation => "CloudFormation",
            DeployerKind::StackSet => "a StackSet execution role",
            DeployerKind::CustomResource => "a custom resource's provider function",
        }
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct FactsFile {
    api_call_detail_type: Fact<String>,
    api_call_event_type: Fact<String>,
    read_only_name_prefixes: ListFact,
    api_version_suffix: PatternFact,
    cloud_formation_principal: PrincipalFact,
    console_indicators: ConsoleFact,
    global_event_sources: ListFact,
    stack_set_execution_roles: NamesFact,
    custom_resource_providers: ProvidersFact,
    cdk_provider_framework: FrameworkFact,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ProvidersFact {
    types: Vec<String>,
    type_prefixes: Vec<String>,
    service_token_property: String,
    function_type: String,
    role_property: String,
    source: String,
    reason: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct FrameworkFact {
    handler_variables: Vec<String>,
    source: String,
    reason: String,
}

/// Exact names and name prefixes (of IAM roles).
#[derive(Debug, Clone, Deserialize)]
struct NamesFact {
    names: Vec<String>,
    prefixes: Vec<String>,
    source: String,
    reason: String,
}

impl NamesFact {
    fn matches(&self, name: &str) -> bool {
        self.names.iter().any(|n| n.eq_ignore_ascii_case(name))
            || self.prefixes.iter().any(|p| name.starts_with(p.as_str()))
    }
}

#[derive(Deserialize)]
struct Fact<T> {
    value: T,
    source: String,
    reason: String,
}

#[derive(Deserialize)]
struct ListFact {
    values: Vec<String>,
    source: String,
    reason: String,
}

#[derive(Deserialize)]
struct PatternFact {
    pattern: String,
    source: String,
    reason: String,
}

#[derive(Deserialize)]
struct PrincipalFact {
    value: String,
    fields: Vec<String>,
    source: String,
    reason: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ConsoleFact {
    user_agent_patterns: Vec<String>,
    invoked_by: Vec<String>,
    source: String,
    reason: String,
}

fn sourced(what: &str, source: &str, reason: &str) -> Result<(), String> {
    if source.starts_with("https://") && !reason.trim().is_empty() {
        Ok(())
    } else {
        Err(format!(
            "cloudtrail-facts {what}: needs a source URL and a reason"
        ))
    }
}

fn regex(p: &str) -> Result<Regex, String> {
    Regex::new(p).map_err(|e| format!("cloudtrail-facts pattern {p}: {e}"))
}

impl Facts {
    /// Parses and checks `cloudtrail-facts.json`.
    pub fn from_json(text: &str) -> Result<Self, String> {
        let f: FactsFile =
            serde_json::from_str(text).map_err(|e| format!("cloudtrail-facts: {e}"))?;
        sourced(
            "apiCallDetailType",
            &f.api_call_detail_type.source,
            &f.api_call_detail_type.reason,
        )?;
        sourced(
            "apiCallEventType",
            &f.api_call_event_type.source,
            &f.api_call_event_type.reason,
        )?;
        let p = &f.read_only_name_prefixes;
        sourced("readOnlyNamePrefixes", &p.source, &p.reason)?;
        let s = &f.api_version_suffix;
        sourced("apiVersionSuffix", &s.source, &s.reason)?;
        let c = &f.cloud_formation_principal;
        sourced("cloudFormationPrincipal", &c.source, &c.reason)?;
        if let Some(bad) = c
            .fields
            .iter()
            .find(|x| !KNOWN_FIELDS.contains(&x.as_str()))
        {
            return Err(format!("cloudtrail-facts: unknown record field {bad}"));
        }
        let k = &f.console_indicators;
        sourced("consoleIndicators", &k.source, &k.reason)?;
        let g = &f.global_event_sources;
        sourced("globalEventSources", &g.source, &g.reason)?;
        let x = &f.stack_set_execution_roles;
        sourced("stackSetExecutionRoles", &x.source, &x.reason)?;
        let cr = &f.custom_resource_providers;
        sourced("customResourceProviders", &cr.source, &cr.reason)?;
        let fw = &f.cdk_provider_framework;
        sourced("cdkProviderFramework", &fw.source, &fw.reason)?;
        Ok(Self {
            api_call_detail_type: f.api_call_detail_type.value,
            api_call_event_type: f.api_call_event_type.value,
            read_only_prefixes: p.values.clone(),
            api_version_suffix: regex(&s.pattern)?,
            cloudformation_principal: c.value.clone(),
            cloudformation_fields: c.fields.clone(),
            console_user_agents: k
                .user_agent_patterns
                .iter()
                .map(|x| regex(x))
                .collect::<Result<_, _>>()?,
            console_invoked_by: k.invoked_by.clone(),
            global_sources: g.values.iter().cloned().collect(),
            stack_set_roles: f.stack_set_execution_roles.clone(),
            custom_resources: CustomResourceFacts {
                types: cr.types.clone(),
                type_prefixes: cr.type_prefixes.clone(),
                service_token_property: cr.service_token_property.clone(),
                function_type: cr.function_type.clone(),
                role_property: cr.role_property.clone(),
                framework_handler_variables: fw.handler_variables.clone(),
            },
        })
    }

    /// The API name without a trailing API-version suffix
    /// (`UpdateFunctionCode20150331v2` -> `UpdateFunctionCode`).
    pub fn bare_name<'a>(&self, event_name: &'a str) -> &'a str {
        match self.api_version_suffix.find(event_name) {
            Some(m) if m.start() > 0 => &event_name[..m.start()],
            _ => event_name,
        }
    }

    /// True when the bare name reads as a read (`Get`, `List` ... followed by
    /// an upper-case letter or nothing).
    pub fn name_reads(&self, bare_name: &str) -> bool {
        self.read_only_prefixes.iter().any(|p| {
            bare_name.strip_prefix(p.as_str()).is_some_and(|rest| {
                rest.is_empty() || rest.starts_with(|c: char| c.is_ascii_uppercase())
            })
        })
    }

    /// True when the user agent or `invokedBy` shows the AWS console.
    pub fn looks_like_console(&self, user_agent: Option<&str>, invoked_by: Option<&str>) -> bool {
        user_agent.is_some_and(|ua| self.console_user_agents.iter().any(|r| r.is_match(ua)))
            || invoked_by.is_some_and(|i| self.console_invoked_by.iter().any(|x| x == i))
    }

    /// The deployment that made the call, when one did: CloudFormation
    /// (a field only AWS sets names it) or a StackSet's execution role
    /// (the session issuer's role name).
    pub fn deployer(&self, r: &CloudTrailRecord) -> Option<DeployerKind> {
        let by_cfn = self
            .cloudformation_fields
            .iter()
            .any(|f| r.field(f) == Some(self.cloudformation_principal.as_str()));
        if by_cfn {
            return Some(DeployerKind::CloudFormation);
        }
        let issuer = r.session_issuer()?;
        let role = issuer
            .user_name
            .as_deref()
            .or_else(|| issuer.arn.as_deref().and_then(|a| a.rsplit('/').next()))?;
        self.stack_set_roles
            .matches(role)
            .then_some(DeployerKind::StackSet)
    }

    /// True when the service records its calls in us-east-1 only.
    pub fn is_global_source(&self, event_source: &str) -> bool {
        self.global_sources.contains(event_source)
    }
}
