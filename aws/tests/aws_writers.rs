//! Revert writers through the SDK (mocked): Cloud Control polling, client
//! tokens per request, transient retries up to the deadline, terminal
//! failures, idempotent deletes, and the service writers' calls.

mod aws_support;

use aws_sdk_cloudcontrol::operation::delete_resource::DeleteResourceOutput;
use aws_sdk_cloudcontrol::operation::get_resource_request_status::GetResourceRequestStatusOutput;
use aws_sdk_cloudcontrol::operation::update_resource::UpdateResourceOutput;
use aws_sdk_cloudcontrol::types::{HandlerErrorCode, OperationStatus, ProgressEvent};
use aws_sdk_cloudcontrol::Client as Cc;
use aws_sdk_ec2::operation::replace_network_acl_entry::ReplaceNetworkAclEntryOutput;
use aws_sdk_ec2::types::RuleAction;
use aws_sdk_ec2::Client as Ec2;
use aws_sdk_iam::operation::put_role_policy::PutRolePolicyOutput;
use aws_sdk_iam::Client as Iam;
use aws_smithy_mocks::{mock, Rule};
use aws_support::{clients, json_error, xml_error};
use json_patch::Patch;
use realdrift_aws::{AwsRevertWriter, RetryPolicy};
use realdrift_core::revert::{
    Batch, BatchAction, IamPrincipal, PrincipalKind, ResourceIdentity, RevertWriter, ServiceOp,
    Writer,
};
use serde_json::json;
use std::sync::{Arc, Mutex};
use std::time::Duration;

fn batch(writer: Writer, action: BatchAction) -> Batch {
    Batch {
        resource: ResourceIdentity {
            logical_id: "Jobs".into(),
            resource_type: "AWS::SQS::Queue".into(),
            physical_id: Some("https://sqs/q".into()),
        },
        writer,
        item_ids: vec!["Jobs:VisibilityTimeout".into()],
        action,
    }
}

fn patch() -> BatchAction {
    let p: Patch = serde_json::from_value(json!([
        {"op": "replace", "path": "/VisibilityTimeout", "value": 30}
    ]))
    .unwrap();
    BatchAction::Patch(p)
}

fn event(status: OperationStatus, code: Option<HandlerErrorCode>) -> ProgressEvent {
    ProgressEvent::builder()
        .type_name("AWS::SQS::Queue")
        .identifier("https://sqs/q")
        .request_token("req-1")
        .operation_status(status)
        .set_error_code(code)
        .status_message("mocked")
        .build()
}

fn writer(rules: &[&Rule]) -> AwsRevertWriter {
    AwsRevertWriter::new(
        clients(rules),
        RetryPolicy::immediate(Duration::from_secs(30)),
    )
}

#[tokio::test]
async fn an_update_in_progress_is_polled_until_it_succeeds() {
    let update = mock!(Cc::update_resource)
        .match_requests(|r| {
            r.identifier() == Some("https://sqs/q")
                && r.patch_document()
                    == Some(r#"[{"op":"replace","path":"/VisibilityTimeout","value":30}]"#)
        })
        .then_output(|| {
            UpdateResourceOutput::builder()
                .progress_event(event(OperationStatus::InProgress, None))
                .build()
        });
    let status = mock!(Cc::get_resource_request_status)
        .match_requests(|r| r.request_token() == Some("req-1"))
        .sequence()
        .output(|| {
            GetResourceRequestStatusOutput::builder()
                .progress_event(event(OperationStatus::InProgress, None))
                .build()
        })
        .output(|| {
            GetResourceRequestStatusOutput::builder()
                .progress_event(event(OperationStatus::Success, None))
                .build()
        })
        .build();
    let w = writer(&[&update, &status]);
    let out = w.write(&batch(Writer::CloudControl, patch()), "tok").await;
    assert_eq!(out.error, None);
    assert_eq!(out.attempts, 1);
    assert_eq!(status.num_calls(), 2);
}

#[tokio::test]
async fn a_transient_failure_is_retried_with_a_new_request_token() {
    let tokens: Arc<Mutex<Vec<String>>> = Arc::default();
    let seen = tokens.clone();
    let update = mock!(Cc::update_resource).then_compute_output(move |r| {
        let mut t = seen.lock().unwrap();
        t.push(r.client_token().unwrap_or_default().to_string());
        let e = if t.len() == 1 {
            event(OperationStatus::Failed, Some(HandlerErrorCode::Throttling))
        } else {
            event(OperationStatus::Success, None)
        };
        UpdateResourceOutput::builder().progress_event(e).build()
    });
    let w = writer(&[&update]);
    let out = w.write(&batch(Writer::CloudControl, patch()), "tok").await;
    assert_eq!(out.error, None);
    assert_eq!(out.attempts, 2);
    assert_eq!(*tokens.lock().unwrap(), ["tok", "tok-1"]);
}

#[tokio::test]
async fn a_throttled_call_keeps_its_token_since_no_request_was_made() {
    let tokens: Arc<Mutex<Vec<String>>> = Arc::default();
    let seen = tokens.clone();
    let update = mock!(Cc::update_resource)
        .sequence()
        .http_response(move || json_error(400, "ConcurrentOperationException", "busy"))
        .output(|| {
            UpdateResourceOutput::builder()
                .progress_event(event(OperationStatus::Success, None))
                .build()
        })
        .build();
    let record = mock!(Cc::update_resource)
        .match_requests(move |r| {
            seen.lock()
                .unwrap()
                .push(r.client_token().unwrap_or_default().to_string());
            false
        })
        .then_output(|| UpdateResourceOutput::builder().build());
    let w = writer(&[&record, &update]);
    let out = w.write(&batch(Writer::CloudControl, patch()), "tok").await;
    assert_eq!(out.error, None);
    assert_eq!(out.attempts, 2);
    assert_eq!(*tokens.lock().unwrap(), ["tok", "tok"]);
}

#[tokio::test]
async fn a_terminal_failure_is_not_retried_and_names_the_resource() {
    let update = mock!(Cc::update_resource).then_output(|| {
        UpdateResourceOutput::builder()
            .progress_event(event(
                OperationStatus::Failed,
                Some(HandlerErrorCode::InvalidRequest),
            ))
            .build()
    });
    let w = writer(&[&update]);
    let out = w.write(&batch(Writer::CloudControl, patch()), "tok").await;
    let e = out.error.expect("failed");
    assert_eq!(out.attempts, 1);
    assert_eq!(e.code.as_deref(), Some("InvalidRequest"));
    assert!(!e.transient);
    assert!(
        e.message.contains("AWS::SQS::Queue https://sqs/q"),
        "{}",
        e.message
    );
    assert_eq!(update.num_calls(), 1);
}

#[tokio::test]
async fn transient_failures_stop_at_the_deadline() {
    let update = mock!(Cc::update_resource).then_output(|| {
        UpdateResourceOutput::builder()
            .progress_event(event(
                OperationStatus::Failed,
                Some(HandlerErrorCode::NotStabilized),
            ))
            .build()
    });
    let w = AwsRevertWriter::new(clients(&[&update]), RetryPolicy::immediate(Duration::ZERO));
    let out = w.write(&batch(Writer::CloudControl, patch()), "tok").await;
    let e = out.error.expect("failed");
    assert!(e.transient);
    assert_eq!(e.code.as_deref(), Some("NotStabilized"));
}

#[tokio::test]
async fn deleting_what_is_already_gone_succeeds() {
    let delete = mock!(Cc::delete_resource)
        .match_requests(|r| r.client_token() == Some("tok"))
        .then_output(|| {
            DeleteResourceOutput::builder()
                .progress_event(event(
                    OperationStatus::Failed,
                    Some(HandlerErrorCode::NotFound),
                ))
                .build()
        });
    let w = writer(&[&delete]);
    let out = w
        .write(&batch(Writer::CloudControl, BatchAction::Delete), "tok")
        .await;
    assert_eq!(out.error, None);
}

#[tokio::test]
async fn inline_policies_are_put_and_deleted_by_name() {
    let put = mock!(Iam::put_role_policy)
        .match_requests(|r| {
            r.role_name() == Some("worker")
                && r.policy_name() == Some("Default")
                && r.policy_document() == Some(r#"{"Statement":[]}"#)
        })
        .then_output(|| PutRolePolicyOutput::builder().build());
    let gone = mock!(Iam::delete_role_policy)
        .match_requests(|r| r.policy_name() == Some("Rogue"))
        .then_http_response(|| xml_error(404, "NoSuchEntity", "no such policy"));
    let denied = mock!(Iam::delete_role_policy)
        .match_requests(|r| r.policy_name() == Some("Locked"))
        .then_http_response(|| xml_error(403, "AccessDenied", "not allowed"));
    let w = writer(&[&put, &gone, &denied]);
    let role = || {
        vec![IamPrincipal {
            kind: PrincipalKind::Role,
            name: "worker".into(),
        }]
    };
    let ops = BatchAction::Service(vec![
        ServiceOp::PutInlinePolicy {
            principals: role(),
            policy_name: "Default".into(),
            policy_document: json!({"Statement": []}),
        },
        ServiceOp::DeleteInlinePolicy {
            principals: role(),
            policy_name: "Rogue".into(),
        },
    ]);
    let out = w.write(&batch(Writer::IamInlinePolicy, ops), "tok").await;
    assert_eq!(out.error, None);
    assert_eq!((put.num_calls(), gone.num_calls()), (1, 1));
    assert_eq!(out.attempts, 1, "each call succeeded on its first try");

    let locked = BatchAction::Service(vec![ServiceOp::DeleteInlinePolicy {
        principals: role(),
        policy_name: "Locked".into(),
    }]);
    let out = w
        .write(&batch(Writer::IamInlinePolicy, locked), "tok")
        .await;
    let e = out.error.expect("denied");
    assert_eq!(e.code.as_deref(), Some("AccessDenied"));
    assert!(
        e.message
            .contains("iam:DeleteRolePolicy on role worker policy Locked"),
        "{}",
        e.message
    );
}

#[tokio::test]
async fn a_service_call_handed_to_the_wrong_writer_is_refused_without_a_call() {
    let w = writer(&[]);
    let ops = BatchAction::Service(vec![ServiceOp::DeleteBucketPolicy { bucket: "b".into() }]);
    let out = w.write(&batch(Writer::SqsQueuePolicy, ops), "tok").await;
    let e = out.error.expect("refused");
    assert!(e.message.contains("deleteBucketPolicy"), "{}", e.message);
}

#[tokio::test]
async fn a_network_acl_entry_opened_out_of_band_is_replaced_with_the_declared_entry() {
    let replace = mock!(Ec2::replace_network_acl_entry)
        .match_requests(|r| {
            r.network_acl_id() == Some("acl-1")
                && r.rule_number() == Some(100)
                && r.egress() == Some(false)
                && r.protocol() == Some("6")
                && r.rule_action() == Some(&RuleAction::Allow)
                && r.cidr_block() == Some("10.0.0.0/8")
                && r.port_range().and_then(|p| p.from()) == Some(443)
                && r.port_range().and_then(|p| p.to()) == Some(443)
        })
        .then_output(|| ReplaceNetworkAclEntryOutput::builder().build());
    let w = writer(&[&replace]);
    let entry = json!({"NetworkAclId": "acl-1", "RuleNumber": 100, "Protocol": 6,
                       "RuleAction": "allow", "Egress": false, "CidrBlock": "10.0.0.0/8",
                       "PortRange": {"From": 443, "To": 443}});
    let ops = BatchAction::Service(vec![ServiceOp::ReplaceNetworkAclEntry {
        entry: entry.as_object().unwrap().clone(),
    }]);
    let out = w
        .write(&batch(Writer::Ec2NetworkAclEntry, ops), "tok")
        .await;
    assert_eq!(out.error, None);
    assert_eq!(replace.num_calls(), 1);
}
