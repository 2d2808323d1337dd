//! The desired side of one stack (stage 1): DescribeStacks, GetTemplate,
//! ListStackResources, the first resolve pass, and the plan of what to read.

use super::super::is_unreadable_type;
use super::super::live::ReadOutcome;
use super::super::stack::{status_is_checkable, StackDescription, StackResourceRow};
use super::{Pipeline, PipelineError};
use crate::template::{resolve_resource, ResolvedResource, ResolverContext, Template};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// What CloudFormation says about a stack.
pub(super) struct Desired {
    /// DescribeStacks.
    pub desc: StackDescription,
    /// The deployed template body.
    pub body: String,
    /// The parsed template.
    pub template: Template,
    /// ListStackResources.
    pub rows: Vec<StackResourceRow>,
}

/// A template resource and what the first pass decided for it.
pub(super) struct Planned {
    /// Logical id.
    pub logical_id: String,
    /// Resource type.
    pub resource_type: String,
    /// Physical id from ListStackResources, when created.
    pub physical_id: Option<String>,
    /// CDK construct path.
    pub construct_path: Option<String>,
    /// The latest resolve pass's result.
    pub resolved: ResolvedResource,
    /// Why the properties as a whole cannot be resolved (the latest pass
    /// failed): the resource is reported `unresolved`, never compared
    /// against an empty template.
    pub unresolvable: Option<String>,
    /// An outcome decided without reading (custom, not created...).
    pub fixed: Option<ReadOutcome>,
}

/// The resources to classify, in template order, and the nested stacks.
pub(super) struct Plan {
    /// The resources to classify.
    pub resources: Vec<Planned>,
    /// Nested stacks (their stack ids), gathered as stacks of their own.
    pub nested_stacks: Vec<String>,
}

impl Pipeline {
    /// Describes the stack, fetches and parses its template, lists its resources.
    pub(super) async fn read_desired(&self, stack: &str) -> Result<Desired, PipelineError> {
        let src_err = |source| PipelineError::Source {
            stack: stack.to_string(),
            source,
        };
        let desc = self.stacks.describe_stack(stack).await.map_err(src_err)?;
        if !status_is_checkable(&desc.status) {
            // Named as DescribeStacks names it (a nested stack is asked for by id).
            return Err(PipelineError::NotSettled {
                account_id: desc.account_id(),
                region: desc.region(),
                stack: desc.name,
                status: desc.status,
            });
        }
        let body = self.stacks.get_template(stack).await.map_err(src_err)?;
        let template = Template::parse(&body).map_err(|e| PipelineError::Template {
            stack: stack.to_string(),
            message: e.to_string(),
        })?;
        let rows = self
            .stacks
            .list_stack_resources(stack)
            .await
            .map_err(src_err)?;
        Ok(Desired {
            desc,
            body,
            template,
            rows,
        })
    }

    /// The resolver context: stack identity, parameters, physical ids, and
    /// the exports when the template imports any.
    pub(super) async fn resolver_context(
        &self,
        d: &Desired,
        notes: &mut Vec<String>,
    ) -> ResolverContext {
        let mut rctx = stack_resolver_context(&d.desc);
        for row in &d.rows {
            if let (false, Some(p)) = (row.logical_id.is_empty(), &row.physical_id) {
                rctx.physical_ids.insert(row.logical_id.clone(), p.clone());
            }
        }
        if uses_import_value(&d.body) {
            match self.stacks.list_exports().await {
                Ok(e) => rctx.exports = Some(e),
                Err(e) => notes.push(format!(
                    "exports unavailable, Fn::ImportValue stays unresolved: {e}"
                )),
            }
        }
        rctx
    }
}

/// The first resolve pass (no live attributes yet) and what to read: a
/// resource behind a false condition and never created is not expected,
/// CDK metadata is no resource, nested stacks are gathered on their own,
/// and what cannot be read is decided here with its reason.
pub(super) fn plan(d: &Desired, rctx: &ResolverContext) -> Plan {
    let row_by_logical: BTreeMap<&str, &StackResourceRow> = d
        .rows
        .iter()
        .filter(|r| !r.logical_id.is_empty())
        .map(|r| (r.logical_id.as_str(), r))
        .collect();
    let mut plan = Plan {
        resources: Vec::new(),
        nested_stacks: Vec::new(),
    };
    for (logical_id, res) in &d.template.resources {
        let (resolved, unresolvable) = match resolve_resource(&d.template, logical_id, rctx) {
            Ok(r) => (r, None),
            Err(e) => (
                ResolvedResource {
                    resource_type: res.resource_type.clone(),
                    construct_path: res.construct_path.clone(),
                    condition_active: None,
                    ..Default::default()
                },
                Some(e.to_string()),
            ),
        };
        let row = row_by_logical.get(logical_id.as_str()).copied();
        let physical_id = row.and_then(|r| r.physical_id.clone());
        if resolved.condition_active == Some(false) && physical_id.is_none() {
            // Its condition is false: the resource is not expected to exist.
            continue;
        }
        if res.resource_type == "AWS::CDK::Metadata" {
            continue;
        }
        if res.resource_type == "AWS::CloudFormation::Stack" {
            plan.nested_stacks.extend(physical_id);
            continue;
        }
        plan.resources.push(Planned {
            logical_id: logical_id.clone(),
            fixed: fixed_outcome(&res.resource_type, row, physical_id.is_some()),
            resource_type: res.resource_type.clone(),
            physical_id,
            construct_path: res.construct_path.clone(),
            resolved,
            unresolvable,
        });
    }
    plan
}

/// Why a resource outside a scoped gather is not read.
pub(super) const OUT_OF_SCOPE: &str = "not selected for this gather";

/// The resources `only` reads attributes of (`Fn::GetAtt`, `${X.Attr}` in
/// `Fn::Sub`): read with them so those values resolve as in a full gather.
pub(super) fn getatt_sources(template: &Template, only: &BTreeSet<String>) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for id in only {
        if let Some(r) = template.resources.get(id) {
            for v in r.properties.values() {
                collect_getatt(v, &mut out);
            }
        }
    }
    out.retain(|id| template.resources.contains_key(id) && !only.contains(id));
    out
}

fn collect_getatt(v: &Value, out: &mut BTreeSet<String>) {
    match v {
        Value::Object(m) => {
            match m.get("Fn::GetAtt") {
                Some(Value::Array(a)) => {
                    out.extend(a.first().and_then(Value::as_str).map(str::to_string))
                }
                Some(Value::String(s)) => out.extend(s.split('.').next().map(str::to_string)),
                _ => {}
            }
            if let Some(sub) = m.get("Fn::Sub") {
                let text = match sub {
                    Value::Array(a) => a.first().and_then(Value::as_str),
                    other => other.as_str(),
                };
                for part in text.unwrap_or_default().split("${").skip(1) {
                    let name = part.split('}').next().unwrap_or_default();
                    if let Some((resource, _attr)) = name.split_once('.') {
                        out.insert(resource.to_string());
                    }
                }
            }
            m.values().for_each(|x| collect_getatt(x, out));
        }
        Value::Array(a) => a.iter().for_each(|x| collect_getatt(x, out)),
        _ => {}
    }
}

/// Marks every planned resource outside `only` as not to be read.
pub(super) fn leave_unread(plan: &mut [Planned], only: &BTreeSet<String>) {
    for p in plan.iter_mut().filter(|p| !only.contains(&p.logical_id)) {
        p.fixed = Some(ReadOutcome::Skipped {
            reason: OUT_OF_SCOPE.into(),
            coverage_lost: false,
        });
    }
}

/// The outcome of a resource that is not read, or `None` to read it.
fn fixed_outcome(
    resource_type: &str,
    row: Option<&StackResourceRow>,
    has_physical_id: bool,
) -> Option<ReadOutcome> {
    let reason = match (is_unreadable_type(resource_type), row) {
        (Some(reason), _) => reason,
        (None, None) => "not listed by ListStackResources: CloudFormation did not create it".into(),
        (None, Some(r)) if !has_physical_id => {
            format!("no physical id (resource status {})", r.status)
        }
        (None, Some(_)) => return None,
    };
    Some(ReadOutcome::Skipped {
        reason,
        coverage_lost: false,
    })
}

/// The resolver context for a described stack.
fn stack_resolver_context(desc: &StackDescription) -> ResolverContext {
    let mut ctx = match (desc.account_id(), desc.region()) {
        (Some(a), Some(r)) => ResolverContext::new(&a, &r, &desc.name),
        (a, r) => ResolverContext {
            account_id: a,
            region: r,
            stack_name: Some(desc.name.clone()),
            ..Default::default()
        },
    };
    ctx.stack_id = Some(desc.stack_id.clone()).filter(|s| !s.is_empty());
    ctx.parameter_values = desc.parameters.clone();
    ctx
}

/// True when the template imports exports (long form or YAML short tag).
fn uses_import_value(body: &str) -> bool {
    body.contains("Fn::ImportValue") || body.contains("!ImportValue")
}
