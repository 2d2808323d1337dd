//! AWS::SNS::TopicPolicy: the `Policy` attribute of each declared topic.

use super::{declared_targets, parse_policy_document, AwsClients};
use crate::errors::{describe, ErrorClass};
use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use realdrift_core::pipeline::{LiveModel, ReadOutcome, ReadRequest};
use serde_json::{json, Value};

/// Reads the policy on the declared `Topics` (ARNs). Every topic always carries
/// a policy (AWS's default when none was set), so only a missing topic drops out.
pub fn read<'a>(clients: &'a AwsClients, req: &'a ReadRequest) -> BoxFuture<'a, ReadOutcome> {
    async move {
        let topics = match declared_targets(req, "Topics") {
            Ok(t) if !t.is_empty() => t,
            Ok(_) => return ReadOutcome::skipped("AWS::SNS::TopicPolicy declares no Topics"),
            Err(o) => return *o,
        };
        let mut present = Vec::new();
        let mut document: Option<Value> = None;
        let mut notes = Vec::new();
        for arn in &topics {
            match topic_policy_document(clients, arn).await {
                Ok(Some(doc)) => {
                    match &document {
                        Some(first) if *first != doc => notes.push(format!(
                            "topic {arn} carries a different policy document than {}",
                            present.first().map(String::as_str).unwrap_or("")
                        )),
                        Some(_) => {}
                        None => document = Some(doc),
                    }
                    present.push(arn.clone());
                }
                Ok(None) => {}
                Err(TopicReadError::Gone) => {}
                Err(TopicReadError::Failed(message)) => return ReadOutcome::denied(message),
            }
        }
        match document {
            None => ReadOutcome::NotFound,
            Some(doc) => {
                let mut m = LiveModel::new(json!({ "Topics": present, "PolicyDocument": doc }));
                m.notes = notes;
                ReadOutcome::Found(m)
            }
        }
    }
    .boxed()
}

/// Why a topic's policy could not be read.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum TopicReadError {
    /// The topic does not exist.
    Gone,
    /// The call failed (message names the call and topic).
    Failed(String),
}

/// The parsed `Policy` attribute of a topic (`None` when it has none).
pub(crate) async fn topic_policy_document(
    clients: &AwsClients,
    arn: &str,
) -> Result<Option<Value>, TopicReadError> {
    match clients
        .sns
        .get_topic_attributes()
        .topic_arn(arn)
        .send()
        .await
    {
        Ok(out) => match out.attributes().and_then(|a| a.get("Policy")) {
            Some(raw) if !raw.is_empty() => parse_policy_document(raw)
                .map(Some)
                .map_err(|e| TopicReadError::Failed(format!("policy of topic {arn}: {e}"))),
            _ => Ok(None),
        },
        Err(e) => {
            let info = describe(&e, &["NotFound", "NotFoundException"]);
            match info.class {
                ErrorClass::NotFound => Err(TopicReadError::Gone),
                _ => Err(TopicReadError::Failed(format!(
                    "sns:GetTopicAttributes on {arn}: {}",
                    info.message
                ))),
            }
        }
    }
}
