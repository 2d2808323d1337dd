//! AWS::SecretsManager::Secret children: rotation turned on out of band.
//!
//! A rotation function receives the secret's value on every rotation, so
//! rotation configured in the console on a declared secret is a new reader of
//! that secret. DescribeSecret reports it (`RotationEnabled`, the function and
//! the rules) without returning the value: "If the secret has never been
//! configured for rotation, Secrets Manager returns null", and after rotation
//! is turned off the previous rules stay but `RotationEnabled` is false
//! (<https://docs.aws.amazon.com/secretsmanager/latest/apireference/API_DescribeSecret.html>).

use super::policy_declared_for;
use crate::clients::AwsClients;
use crate::errors::{describe, ErrorClass};
use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use realdrift_core::pipeline::{ChildQuery, LiveChild, SourceError};
use serde_json::{json, Map, Value};

/// The error code of a secret that does not exist (or is being deleted).
const GONE: &[&str] = &["ResourceNotFoundException"];

/// A secret's rotation as DescribeSecret returns it.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct LiveRotation {
    pub enabled: bool,
    pub lambda_arn: Option<String>,
    pub after_days: Option<i64>,
    pub schedule_expression: Option<String>,
    pub duration: Option<String>,
}

/// Reports the secret's rotation when it is on and no declared
/// AWS::SecretsManager::RotationSchedule of this stack targets the secret.
pub fn enumerate<'a>(
    clients: &'a AwsClients,
    query: &'a ChildQuery,
) -> BoxFuture<'a, Result<Vec<LiveChild>, SourceError>> {
    async move {
        let secret = query.parent_physical_id.as_str();
        if policy_declared_for(
            query,
            "AWS::SecretsManager::RotationSchedule",
            "SecretId",
            secret,
        ) {
            return Ok(Vec::new());
        }
        let out = match clients
            .secretsmanager
            .describe_secret()
            .secret_id(secret)
            .send()
            .await
        {
            Ok(o) => o,
            Err(e) => {
                let info = describe(&e, GONE);
                // The secret itself is gone: its own read reports that.
                if info.class == ErrorClass::NotFound {
                    return Ok(Vec::new());
                }
                let m = format!(
                    "secretsmanager:DescribeSecret on {secret}: {}",
                    info.message
                );
                return Err(SourceError::Other(m));
            }
        };
        let rules = out.rotation_rules();
        let live = LiveRotation {
            enabled: out.rotation_enabled() == Some(true),
            lambda_arn: out.rotation_lambda_arn().map(str::to_string),
            after_days: rules.and_then(|r| r.automatically_after_days()),
            schedule_expression: rules.and_then(|r| r.schedule_expression().map(str::to_string)),
            duration: rules.and_then(|r| r.duration().map(str::to_string)),
        };
        Ok(rotation_child(secret, &live).into_iter().collect())
    }
    .boxed()
}

/// The added child for a secret's live rotation, when rotation is on.
pub(crate) fn rotation_child(secret: &str, live: &LiveRotation) -> Option<LiveChild> {
    if !live.enabled {
        return None;
    }
    let mut rules = Map::new();
    if let Some(d) = live.after_days {
        rules.insert("AutomaticallyAfterDays".into(), json!(d));
    }
    if let Some(e) = &live.schedule_expression {
        rules.insert("ScheduleExpression".into(), json!(e));
    }
    if let Some(d) = &live.duration {
        rules.insert("Duration".into(), json!(d));
    }
    let mut model = Map::new();
    model.insert("SecretId".into(), json!(secret));
    if let Some(a) = &live.lambda_arn {
        model.insert("RotationLambdaARN".into(), json!(a));
    }
    if !rules.is_empty() {
        model.insert("RotationRules".into(), Value::Object(rules));
    }
    Some(LiveChild {
        resource_type: "AWS::SecretsManager::RotationSchedule".into(),
        // A RotationSchedule's Ref is its secret's ARN, which is also the
        // secret's own physical id: an ownership lookup by it would find the
        // secret, so only this stack's declared schedules are consulted.
        identifier: secret.to_string(),
        model: Some(Value::Object(model)),
        owner_lookup_id: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const ARN: &str = "arn:aws:secretsmanager:us-east-1:111111111111:secret:db-AbCdEf";

    #[test]
    fn rotation_off_or_never_configured_is_no_child() {
        assert_eq!(rotation_child(ARN, &LiveRotation::default()), None);
        // Turned off after a rotation: the old rules stay, nothing rotates.
        let off = LiveRotation {
            enabled: false,
            lambda_arn: Some("arn:aws:lambda:us-east-1:111111111111:function:rot".into()),
            after_days: Some(30),
            ..LiveRotation::default()
        };
        assert_eq!(rotation_child(ARN, &off), None);
    }

    #[test]
    fn rotation_on_is_a_rotation_schedule_naming_the_function() {
        let on = LiveRotation {
            enabled: true,
            lambda_arn: Some("arn:aws:lambda:us-east-1:222222222222:function:rot".into()),
            after_days: Some(7),
            schedule_expression: None,
            duration: Some("2h".into()),
        };
        let child = rotation_child(ARN, &on).expect("rotation on is a child");
        assert_eq!(child.resource_type, "AWS::SecretsManager::RotationSchedule");
        assert_eq!(child.identifier, ARN);
        assert_eq!(
            child.model,
            Some(json!({
                "SecretId": ARN,
                "RotationLambdaARN": "arn:aws:lambda:us-east-1:222222222222:function:rot",
                "RotationRules": {"AutomaticallyAfterDays": 7, "Duration": "2h"}
            }))
        );
    }
}
