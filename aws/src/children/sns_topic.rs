//! AWS::SNS::Topic children: subscriptions, and an access policy set while the
//! template declares none.

use super::policy_declared_for;
use crate::clients::AwsClients;
use crate::errors::describe;
use crate::readers::{sns_topic_policy_document, TopicReadError};
use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use realdrift_core::declared::DeclaredValue;
use realdrift_core::pipeline::{ChildQuery, LiveChild, SourceError};
use serde_json::{json, Value};
use std::sync::OnceLock;

const DEFAULT_POLICY_JSON: &str =
    include_str!("../../../core/data/aws/sns_default_topic_policy.json");

/// One live subscription as ListSubscriptionsByTopic returns it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct LiveSubscription {
    pub arn: String,
    pub protocol: String,
    pub endpoint: String,
}

/// Lists the topic's subscriptions and policy; returns the undeclared ones.
pub fn enumerate<'a>(
    clients: &'a AwsClients,
    query: &'a ChildQuery,
) -> BoxFuture<'a, Result<Vec<LiveChild>, SourceError>> {
    async move {
        let topic = query.parent_physical_id.as_str();
        let mut subs = Vec::new();
        let mut token: Option<String> = None;
        loop {
            let out = clients
                .sns
                .list_subscriptions_by_topic()
                .topic_arn(topic)
                .set_next_token(token.take())
                .send()
                .await
                .map_err(|e| {
                    SourceError::Other(format!(
                        "sns:ListSubscriptionsByTopic on {topic}: {}",
                        describe(&e, &[]).message
                    ))
                })?;
            for s in out.subscriptions() {
                subs.push(LiveSubscription {
                    arn: s.subscription_arn().unwrap_or_default().to_string(),
                    protocol: s.protocol().unwrap_or_default().to_string(),
                    endpoint: s.endpoint().unwrap_or_default().to_string(),
                });
            }
            match out.next_token() {
                Some(t) if !t.is_empty() => token = Some(t.to_string()),
                _ => break,
            }
        }
        let mut children = undeclared_subscriptions(query, &subs);
        if !policy_declared_for(query, "AWS::SNS::TopicPolicy", "Topics", topic)
            && !policy_declared_for(query, "AWS::SNS::TopicInlinePolicy", "TopicArn", topic)
        {
            let doc = match sns_topic_policy_document(clients, topic).await {
                Ok(d) => d,
                // The topic itself is gone: its own read reports that.
                Err(TopicReadError::Gone) => None,
                Err(TopicReadError::Failed(m)) => return Err(SourceError::Other(m)),
            };
            if let Some(doc) = doc {
                if !is_default_policy(&doc, topic, query.account_id.as_deref()) {
                    children.push(LiveChild {
                        resource_type: "AWS::SNS::TopicPolicy".into(),
                        identifier: topic.to_string(),
                        model: Some(json!({ "Topics": [topic], "PolicyDocument": doc })),
                        owner_lookup_id: None,
                    });
                }
            }
        }
        Ok(children)
    }
    .boxed()
}

/// Subscriptions not declared as an AWS::SNS::Subscription (by physical id, or
/// by topic + protocol + endpoint) nor inline in the topic's `Subscription`.
pub(crate) fn undeclared_subscriptions(
    query: &ChildQuery,
    subs: &[LiveSubscription],
) -> Vec<LiveChild> {
    let topic = query.parent_physical_id.as_str();
    let inline: Vec<(String, String)> = query
        .declared
        .iter()
        .filter(|d| d.logical_id == query.parent_logical_id)
        .filter_map(|d| match d.declared.get("Subscription") {
            Some(DeclaredValue::Array(items)) => Some(items),
            _ => None,
        })
        .flatten()
        .filter_map(|item| match item {
            DeclaredValue::Object(o) => match (o.get("Protocol"), o.get("Endpoint")) {
                (Some(DeclaredValue::String(p)), Some(DeclaredValue::String(e))) => {
                    Some((p.clone(), e.clone()))
                }
                _ => None,
            },
            _ => None,
        })
        .collect();
    subs.iter()
        // "Deleted": an unsubscribe in progress, no longer delivering.
        .filter(|s| s.arn != DELETED)
        .filter(|s| !query.is_declared_physical_id("AWS::SNS::Subscription", &s.arn))
        .filter(|s| {
            !query.declared_of_type("AWS::SNS::Subscription").any(|d| {
                d.declared_str("TopicArn") == Some(topic)
                    && d.declared_str("Protocol") == Some(s.protocol.as_str())
                    && d.declared_str("Endpoint") == Some(s.endpoint.as_str())
            })
        })
        .filter(|s| {
            !inline
                .iter()
                .any(|(p, e)| *p == s.protocol && *e == s.endpoint)
        })
        .map(|s| subscription_child(topic, s))
        .collect()
}

/// The ARN SNS lists for a subscription being deleted.
const DELETED: &str = "Deleted";

/// An out-of-band subscription as a child. A confirmed one is read in full
/// by its ARN; one still pending confirmation ("PendingConfirmation", no
/// ARN yet, so nothing to read or look up) is reported with what the
/// listing shows — someone asked for deliveries, and that is drift too.
fn subscription_child(topic: &str, s: &LiveSubscription) -> LiveChild {
    if s.arn.starts_with("arn:") {
        return LiveChild {
            resource_type: "AWS::SNS::Subscription".into(),
            identifier: s.arn.clone(),
            model: None,
            owner_lookup_id: Some(s.arn.clone()),
        };
    }
    LiveChild {
        resource_type: "AWS::SNS::Subscription".into(),
        identifier: format!("{}:{}:{}", s.arn, s.protocol, s.endpoint),
        model: Some(json!({
            "TopicArn": topic,
            "Protocol": s.protocol,
            "Endpoint": s.endpoint,
            "SubscriptionArn": s.arn,
        })),
        owner_lookup_id: None,
    }
}

/// True when `doc` is SNS's default topic policy for this topic and account.
pub(crate) fn is_default_policy(doc: &Value, topic_arn: &str, account: Option<&str>) -> bool {
    static TEMPLATE: OnceLock<Option<Value>> = OnceLock::new();
    let Some(account) = account else {
        // Without the account the default cannot be derived: report the policy.
        return false;
    };
    let Some(template) = TEMPLATE.get_or_init(|| {
        serde_json::from_str::<Value>(DEFAULT_POLICY_JSON)
            .ok()
            .and_then(|v| v.get("policy").cloned())
    }) else {
        return false;
    };
    let expected = substitute(template, topic_arn, account);
    canonical_actions(&expected) == canonical_actions(doc)
}

fn substitute(v: &Value, topic: &str, account: &str) -> Value {
    match v {
        Value::String(s) => Value::String(
            s.replace("${TopicArn}", topic)
                .replace("${AccountId}", account),
        ),
        Value::Array(a) => Value::Array(a.iter().map(|x| substitute(x, topic, account)).collect()),
        Value::Object(o) => Value::Object(
            o.iter()
                .map(|(k, x)| (k.clone(), substitute(x, topic, account)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// The document with every statement's Action list sorted (SNS does not keep order).
fn canonical_actions(doc: &Value) -> Value {
    let mut doc = doc.clone();
    if let Some(Value::Array(stmts)) = doc.get_mut("Statement") {
        for s in stmts {
            if let Some(Value::Array(actions)) = s.get_mut("Action") {
                actions.sort_by_key(|a| a.to_string());
            }
        }
    }
    doc
}

#[cfg(test)]
mod tests {
    use super::*;
    use realdrift_core::pipeline::DeclaredResource;

    fn query() -> ChildQuery {
        let mut topic = DeclaredResource {
            logical_id: "Topic".into(),
            resource_type: "AWS::SNS::Topic".into(),
            physical_id: Some("arn:aws:sns:us-east-1:1:t".into()),
            ..Default::default()
        };
        topic.declared.insert(
            "Subscription".into(),
            DeclaredValue::from_json(&json!([{"Protocol": "email", "Endpoint": "a@b.c"}])),
        );
        let sub = DeclaredResource {
            logical_id: "Sub".into(),
            resource_type: "AWS::SNS::Subscription".into(),
            physical_id: Some("arn:aws:sns:us-east-1:1:t:declared".into()),
            ..Default::default()
        };
        ChildQuery {
            parent_logical_id: "Topic".into(),
            parent_type: "AWS::SNS::Topic".into(),
            parent_physical_id: "arn:aws:sns:us-east-1:1:t".into(),
            declared: vec![topic, sub].into(),
            account_id: Some("1".into()),
            ..Default::default()
        }
    }

    fn sub(arn: &str, p: &str, e: &str) -> LiveSubscription {
        LiveSubscription {
            arn: arn.into(),
            protocol: p.into(),
            endpoint: e.into(),
        }
    }

    #[test]
    fn only_out_of_band_subscriptions_are_children_pending_ones_included() {
        let live = vec![
            sub("arn:aws:sns:us-east-1:1:t:declared", "sqs", "arn:q"),
            sub("arn:aws:sns:us-east-1:1:t:inline", "email", "a@b.c"),
            sub("PendingConfirmation", "email", "a@b.c"),
            sub("PendingConfirmation", "email", "x@y.z"),
            sub("Deleted", "email", "gone@y.z"),
            sub("arn:aws:sns:us-east-1:1:t:rogue", "https", "https://evil"),
        ];
        let out = undeclared_subscriptions(&query(), &live);
        assert_eq!(out.len(), 2, "{out:?}");
        assert_eq!(out[0].identifier, "PendingConfirmation:email:x@y.z");
        assert_eq!(out[0].owner_lookup_id, None);
        assert_eq!(
            out[0].model,
            Some(
                json!({"TopicArn": "arn:aws:sns:us-east-1:1:t", "Protocol": "email",
                "Endpoint": "x@y.z", "SubscriptionArn": "PendingConfirmation"})
            )
        );
        assert_eq!(out[1].identifier, "arn:aws:sns:us-east-1:1:t:rogue");
        assert_eq!(
            out[1].owner_lookup_id.as_deref(),
            Some("arn:aws:sns:us-east-1:1:t:rogue")
        );
    }

    #[test]
    fn the_default_policy_folds_and_a_changed_one_does_not() {
        let topic = "arn:aws:sns:us-east-1:123:t";
        let template: Value =
            serde_json::from_str::<Value>(DEFAULT_POLICY_JSON).unwrap()["policy"].clone();
        let mut doc = substitute(&template, topic, "123");
        // SNS may return the actions in another order.
        if let Some(Value::Array(a)) = doc["Statement"][0].get_mut("Action") {
            a.reverse();
        }
        assert!(is_default_policy(&doc, topic, Some("123")));
        assert!(!is_default_policy(&doc, topic, Some("999")));
        assert!(!is_default_policy(&doc, topic, None));
        doc["Statement"][0]["Principal"] = json!({"AWS": "arn:aws:iam::666:root"});
        assert!(!is_default_policy(&doc, topic, Some("123")));
    }
}
