//! The CloudFormation stack source through the SDK (mocked): pagination,
//! stack description (account from the id, tags, resolved parameters),
//! processed templates, ownership lookups and missing stacks.

mod aws_support;

use aws_sdk_cloudformation::operation::describe_stack_resources::DescribeStackResourcesOutput;
use aws_sdk_cloudformation::operation::describe_stacks::DescribeStacksOutput;
use aws_sdk_cloudformation::operation::get_template::GetTemplateOutput;
use aws_sdk_cloudformation::operation::list_exports::ListExportsOutput;
use aws_sdk_cloudformation::operation::list_stack_resources::ListStackResourcesOutput;
use aws_sdk_cloudformation::operation::list_stacks::ListStacksOutput;
use aws_sdk_cloudformation::primitives::DateTime;
use aws_sdk_cloudformation::types::{
    Export, Parameter, ResourceStatus, Stack, StackResource, StackResourceSummary, StackStatus,
    StackSummary, Tag, TemplateStage,
};
use aws_sdk_cloudformation::Client as Cfn;
use aws_smithy_mocks::mock;
use aws_support::{clients, xml_error};
use realdrift_aws::CfnStackSource;
use realdrift_core::pipeline::{SourceError, StackSource};

fn summary(logical: &str, pid: &str) -> StackResourceSummary {
    StackResourceSummary::builder()
        .logical_resource_id(logical)
        .physical_resource_id(pid)
        .resource_type("AWS::SQS::Queue")
        .resource_status(ResourceStatus::CreateComplete)
        .last_updated_timestamp(DateTime::from_secs(0))
        .build()
}

#[tokio::test]
async fn list_stack_resources_reads_every_page() {
    let rule = mock!(Cfn::list_stack_resources)
        .sequence()
        .output(|| {
            ListStackResourcesOutput::builder()
                .stack_resource_summaries(summary("A", "a"))
                .stack_resource_summaries(summary("B", "b"))
                .next_token("page2")
                .build()
        })
        .output(|| {
            ListStackResourcesOutput::builder()
                .stack_resource_summaries(summary("C", ""))
                .build()
        })
        .build();
    let c = clients(&[&rule]);
    let rows = CfnStackSource::new(c.cloudformation.clone())
        .list_stack_resources("App")
        .await
        .unwrap();
    assert_eq!(
        rows.iter()
            .map(|r| r.logical_id.as_str())
            .collect::<Vec<_>>(),
        ["A", "B", "C"]
    );
    assert_eq!(
        rows[2].physical_id, None,
        "an empty physical id is no physical id"
    );
    assert_eq!(
        c.counter
            .snapshot()
            .get("cloudformation:ListStackResources"),
        Some(&2)
    );
}

#[tokio::test]
async fn describe_stack_reads_id_tags_and_resolved_parameters() {
    let rule = mock!(Cfn::describe_stacks)
        .match_requests(|r| r.stack_name() == Some("App"))
        .then_output(|| {
            DescribeStacksOutput::builder()
                .stacks(
                    Stack::builder()
                        .stack_name("App")
                        .stack_id("arn:aws:cloudformation:eu-west-1:123456789012:stack/App/uuid")
                        .stack_status(StackStatus::UpdateComplete)
                        .creation_time(DateTime::from_secs(0))
                        .parameters(
                            Parameter::builder()
                                .parameter_key("Env")
                                .parameter_value("prod")
                                .build(),
                        )
                        .parameters(
                            Parameter::builder()
                                .parameter_key("Ami")
                                .parameter_value("/ssm/key")
                                .resolved_value("ami-123")
                                .build(),
                        )
                        .tags(Tag::builder().key("team").value("core").build())
                        .build(),
                )
                .build()
        });
    let c = clients(&[&rule]);
    let d = CfnStackSource::new(c.cloudformation.clone())
        .describe_stack("App")
        .await
        .unwrap();
    assert_eq!(d.account_id().as_deref(), Some("123456789012"));
    assert_eq!(d.region().as_deref(), Some("eu-west-1"));
    assert_eq!(d.status, "UPDATE_COMPLETE");
    assert_eq!(d.parameters.get("Env").map(String::as_str), Some("prod"));
    assert_eq!(
        d.parameters.get("Ami").map(String::as_str),
        Some("ami-123"),
        "SSM parameters use the resolved value"
    );
    assert_eq!(d.tags.get("team").map(String::as_str), Some("core"));
}

#[tokio::test]
async fn a_missing_stack_is_stack_not_found() {
    let rule = mock!(Cfn::describe_stacks).then_http_response(|| {
        xml_error(400, "ValidationError", "Stack with id Nope does not exist")
    });
    let c = clients(&[&rule]);
    let e = CfnStackSource::new(c.cloudformation.clone())
        .describe_stack("Nope")
        .await
        .unwrap_err();
    assert_eq!(e, SourceError::StackNotFound("Nope".into()));
}

#[tokio::test]
async fn templates_are_fetched_processed() {
    let rule = mock!(Cfn::get_template)
        .match_requests(|r| r.template_stage() == Some(&TemplateStage::Processed))
        .then_output(|| {
            GetTemplateOutput::builder()
                .template_body("{\"Resources\":{}}")
                .build()
        });
    let c = clients(&[&rule]);
    let body = CfnStackSource::new(c.cloudformation.clone())
        .get_template("App")
        .await
        .unwrap();
    assert_eq!(body, "{\"Resources\":{}}");
}

#[tokio::test]
async fn stacks_exports_and_owners() {
    let stacks = mock!(Cfn::list_stacks)
        .sequence()
        .output(|| {
            ListStacksOutput::builder()
                .stack_summaries(
                    StackSummary::builder()
                        .stack_name("Old")
                        .stack_id("id-old")
                        .stack_status(StackStatus::DeleteComplete)
                        .creation_time(DateTime::from_secs(0))
                        .build(),
                )
                .next_token("more")
                .build()
        })
        .output(|| {
            ListStacksOutput::builder()
                .stack_summaries(
                    StackSummary::builder()
                        .stack_name("App")
                        .stack_id("id-app")
                        .stack_status(StackStatus::CreateComplete)
                        .creation_time(DateTime::from_secs(0))
                        .build(),
                )
                .build()
        })
        .build();
    let exports = mock!(Cfn::list_exports).then_output(|| {
        ListExportsOutput::builder()
            .exports(
                Export::builder()
                    .name("n")
                    .value("v")
                    .exporting_stack_id("id-app")
                    .build(),
            )
            .build()
    });
    let owned = mock!(Cfn::describe_stack_resources)
        .match_requests(|r| r.physical_resource_id() == Some("owned"))
        .then_output(|| {
            DescribeStackResourcesOutput::builder()
                .stack_resources(
                    StackResource::builder()
                        .stack_name("Other")
                        .logical_resource_id("L")
                        .resource_type("AWS::SNS::Subscription")
                        .timestamp(DateTime::from_secs(0))
                        .resource_status(ResourceStatus::CreateComplete)
                        .build(),
                )
                .build()
        });
    let unowned = mock!(Cfn::describe_stack_resources)
        .match_requests(|r| r.physical_resource_id() == Some("rogue"))
        .then_http_response(|| xml_error(400, "ValidationError", "Stack for rogue does not exist"));
    let c = clients(&[&stacks, &exports, &owned, &unowned]);
    let src = CfnStackSource::new(c.cloudformation.clone());
    let all = src.list_stacks().await.unwrap();
    assert_eq!(all.len(), 1, "deleted stacks are left out");
    assert_eq!(all[0].name, "App");
    assert_eq!(
        src.list_exports()
            .await
            .unwrap()
            .get("n")
            .map(String::as_str),
        Some("v")
    );
    assert_eq!(
        src.stack_owning("owned").await.unwrap().as_deref(),
        Some("Other")
    );
    assert_eq!(src.stack_owning("rogue").await.unwrap(), None);
}
