//! CloudFormation as the desired-side [`StackSource`].

use super::errors::{describe, ErrorClass};
use aws_sdk_cloudformation::types::TemplateStage;
use aws_sdk_cloudformation::Client;
use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use realdrift_core::pipeline::{
    SourceError, StackDescription, StackResourceRow, StackSource, StackSummary,
};
use std::collections::BTreeMap;

/// Reads stacks through the CloudFormation API.
#[derive(Debug, Clone)]
pub struct CfnStackSource {
    client: Client,
}

impl CfnStackSource {
    /// A source over an existing client.
    pub fn new(client: Client) -> Self {
        CfnStackSource { client }
    }
}

/// Maps a CloudFormation error for `op` on `stack`.
fn cfn_error<E>(
    err: &aws_smithy_runtime_api::client::result::SdkError<
        E,
        aws_smithy_runtime_api::http::Response,
    >,
    op: &str,
    stack: &str,
) -> SourceError
where
    E: aws_smithy_types::error::metadata::ProvideErrorMetadata + std::error::Error + 'static,
{
    let info = describe(err, &[]);
    // CloudFormation reports a missing stack as a ValidationError whose message
    // says so; there is no dedicated code.
    if info.code.as_deref() == Some("ValidationError") && info.message.contains("does not exist") {
        return SourceError::StackNotFound(stack.to_string());
    }
    match info.class {
        ErrorClass::AccessDenied => {
            SourceError::AccessDenied(format!("cloudformation:{op} on {stack}: {}", info.message))
        }
        _ => SourceError::Other(format!("cloudformation:{op} on {stack}: {}", info.message)),
    }
}

impl StackSource for CfnStackSource {
    fn describe_stack<'a>(
        &'a self,
        stack: &'a str,
    ) -> BoxFuture<'a, Result<StackDescription, SourceError>> {
        async move {
            let out = self
                .client
                .describe_stacks()
                .stack_name(stack)
                .send()
                .await
                .map_err(|e| cfn_error(&e, "DescribeStacks", stack))?;
            let s = out
                .stacks()
                .first()
                .ok_or_else(|| SourceError::StackNotFound(stack.to_string()))?;
            let parameters = s
                .parameters()
                .iter()
                .filter_map(|p| {
                    // SSM-typed parameters carry the looked-up value in ResolvedValue.
                    let value = p.resolved_value().or(p.parameter_value())?;
                    Some((p.parameter_key()?.to_string(), value.to_string()))
                })
                .collect();
            let tags = s
                .tags()
                .iter()
                .filter_map(|t| Some((t.key()?.to_string(), t.value()?.to_string())))
                .collect();
            Ok(StackDescription {
                name: s.stack_name().unwrap_or(stack).to_string(),
                stack_id: s.stack_id().unwrap_or_default().to_string(),
                status: s
                    .stack_status()
                    .map(|x| x.as_str().to_string())
                    .unwrap_or_default(),
                parameters,
                tags,
                parent_id: s.parent_id().map(str::to_string),
            })
        }
        .boxed()
    }

    fn get_template<'a>(&'a self, stack: &'a str) -> BoxFuture<'a, Result<String, SourceError>> {
        async move {
            let out = self
                .client
                .get_template()
                .stack_name(stack)
                // Processed: transforms (SAM, language extensions) already expanded.
                .template_stage(TemplateStage::Processed)
                .send()
                .await
                .map_err(|e| cfn_error(&e, "GetTemplate", stack))?;
            out.template_body()
                .map(str::to_string)
                .ok_or_else(|| SourceError::Other(format!("GetTemplate on {stack}: empty body")))
        }
        .boxed()
    }

    fn list_stack_resources<'a>(
        &'a self,
        stack: &'a str,
    ) -> BoxFuture<'a, Result<Vec<StackResourceRow>, SourceError>> {
        async move {
            let mut pages = self
                .client
                .list_stack_resources()
                .stack_name(stack)
                .into_paginator()
                .send();
            let mut rows = Vec::new();
            while let Some(page) = pages.next().await {
                let page = page.map_err(|e| cfn_error(&e, "ListStackResources", stack))?;
                for r in page.stack_resource_summaries() {
                    rows.push(StackResourceRow {
                        logical_id: r.logical_resource_id().unwrap_or_default().to_string(),
                        physical_id: r
                            .physical_resource_id()
                            .filter(|p| !p.is_empty())
                            .map(str::to_string),
                        resource_type: r.resource_type().unwrap_or_default().to_string(),
                        status: r
                            .resource_status()
                            .map(|s| s.as_str().to_string())
                            .unwrap_or_default(),
                    });
                }
            }
            Ok(rows)
        }
        .boxed()
    }

    fn list_exports(&self) -> BoxFuture<'_, Result<BTreeMap<String, String>, SourceError>> {
        async move {
            let mut pages = self.client.list_exports().into_paginator().send();
            let mut exports = BTreeMap::new();
            while let Some(page) = pages.next().await {
                let page = page.map_err(|e| cfn_error(&e, "ListExports", "(account)"))?;
                for e in page.exports() {
                    if let (Some(n), Some(v)) = (e.name(), e.value()) {
                        exports.insert(n.to_string(), v.to_string());
                    }
                }
            }
            Ok(exports)
        }
        .boxed()
    }

    fn list_stacks(&self) -> BoxFuture<'_, Result<Vec<StackSummary>, SourceError>> {
        async move {
            let mut pages = self.client.list_stacks().into_paginator().send();
            let mut stacks = Vec::new();
            while let Some(page) = pages.next().await {
                let page = page.map_err(|e| cfn_error(&e, "ListStacks", "(account)"))?;
                for s in page.stack_summaries() {
                    let status = s
                        .stack_status()
                        .map(|x| x.as_str().to_string())
                        .unwrap_or_default();
                    if status == "DELETE_COMPLETE" {
                        continue;
                    }
                    stacks.push(StackSummary {
                        name: s.stack_name().unwrap_or_default().to_string(),
                        stack_id: s.stack_id().unwrap_or_default().to_string(),
                        status,
                        parent_id: s.parent_id().map(str::to_string),
                    });
                }
            }
            Ok(stacks)
        }
        .boxed()
    }

    fn stack_owning<'a>(
        &'a self,
        physical_id: &'a str,
    ) -> BoxFuture<'a, Result<Option<String>, SourceError>> {
        async move {
            match self
                .client
                .describe_stack_resources()
                .physical_resource_id(physical_id)
                .send()
                .await
            {
                Ok(out) => Ok(out
                    .stack_resources()
                    .first()
                    .and_then(|r| r.stack_name())
                    .map(str::to_string)),
                Err(e) => {
                    let info = describe(&e, &[]);
                    // "Stack for <id> does not exist": no stack owns it.
                    if info.code.as_deref() == Some("ValidationError")
                        && info.message.contains("does not exist")
                    {
                        Ok(None)
                    } else {
                        Err(cfn_error(&e, "DescribeStackResources", physical_id))
                    }
                }
            }
        }
        .boxed()
    }
}
