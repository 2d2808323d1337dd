//! AWS::Lambda::Permission: the statement of the function's resource policy
//! whose Sid is the permission's physical id.

use super::{declared_target, AwsClients};
use crate::errors::{describe, ErrorClass};
use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use realdrift_core::pipeline::{ReadOutcome, ReadRequest};
use serde_json::{Map, Value};

/// Reads the statement for this permission from GetPolicy on `FunctionName`.
pub fn read<'a>(clients: &'a AwsClients, req: &'a ReadRequest) -> BoxFuture<'a, ReadOutcome> {
    async move {
        let function = match declared_target(req, "FunctionName") {
            Ok(f) => f.to_string(),
            Err(o) => return *o,
        };
        let policy = match function_policy(clients, &function).await {
            Ok(Some(p)) => p,
            // No policy at all (or no function): this permission is gone.
            Ok(None) => return ReadOutcome::NotFound,
            Err(message) => return ReadOutcome::denied(message),
        };
        let sid = statement_id(&req.physical_id);
        match find_statement(&policy, sid) {
            Some(stmt) => ReadOutcome::found(statement_model(stmt, &function, req)),
            None => ReadOutcome::NotFound,
        }
    }
    .boxed()
}

/// The statement id in a permission physical id (`<function>|<sid>` or a bare sid).
pub(crate) fn statement_id(physical_id: &str) -> &str {
    physical_id
        .rsplit_once('|')
        .map(|(_, s)| s)
        .unwrap_or(physical_id)
}

/// The parsed resource policy of a function (`None` when it has none or is gone).
pub(crate) async fn function_policy(
    clients: &AwsClients,
    function: &str,
) -> Result<Option<Value>, String> {
    match clients
        .lambda
        .get_policy()
        .function_name(function)
        .send()
        .await
    {
        Ok(out) => match out.policy() {
            Some(raw) => serde_json::from_str(raw)
                .map(Some)
                .map_err(|e| format!("policy of function {function} is not JSON: {e}")),
            None => Ok(None),
        },
        Err(e) => {
            let info = describe(&e, &["ResourceNotFoundException"]);
            match info.class {
                ErrorClass::NotFound => Ok(None),
                _ => Err(format!("lambda:GetPolicy on {function}: {}", info.message)),
            }
        }
    }
}

/// The statements of a policy document (a lone statement object counts as one).
pub(crate) fn statements(policy: &Value) -> Vec<&Value> {
    match policy.get("Statement") {
        Some(Value::Array(a)) => a.iter().collect(),
        Some(v @ Value::Object(_)) => vec![v],
        _ => Vec::new(),
    }
}

fn find_statement<'p>(policy: &'p Value, sid: &str) -> Option<&'p Value> {
    statements(policy)
        .into_iter()
        .find(|s| s.get("Sid").and_then(Value::as_str) == Some(sid))
}

/// Condition keys Lambda writes for AddPermission parameters -> the CFn property.
const CONDITION_PROPS: &[(&str, &str)] = &[
    ("AWS:SourceArn", "SourceArn"),
    ("AWS:SourceAccount", "SourceAccount"),
    ("aws:PrincipalOrgID", "PrincipalOrgID"),
    ("lambda:FunctionUrlAuthType", "FunctionUrlAuthType"),
    ("lambda:EventSourceToken", "EventSourceToken"),
];

/// The CloudFormation-shaped model of one policy statement.
pub(crate) fn statement_model(stmt: &Value, function: &str, req: &ReadRequest) -> Value {
    let mut m = Map::new();
    // The statement was found in this function's policy, so FunctionName is
    // known to be the declared target; echo it in the declared spelling.
    m.insert("FunctionName".into(), Value::String(function.to_string()));
    if let Some(action) = stmt.get("Action") {
        m.insert("Action".into(), action.clone());
    }
    if let Some(p) = principal_value(stmt.get("Principal"), req) {
        m.insert("Principal".into(), p);
    }
    if let Some(Value::Object(conds)) = stmt.get("Condition") {
        for op in conds.values() {
            if let Value::Object(kv) = op {
                for (key, val) in kv {
                    if let Some((_, prop)) = CONDITION_PROPS
                        .iter()
                        .find(|(k, _)| k.eq_ignore_ascii_case(key))
                    {
                        m.insert((*prop).into(), val.clone());
                    }
                }
            }
        }
    }
    Value::Object(m)
}

/// The statement principal in CloudFormation's single-string form.
///
/// `{"Service": s}` -> `s`; `{"AWS": arn}` -> the ARN, except that the
/// account-root ARN is written as the bare account id when that is how the
/// template declares it (equality-gated: same account, so nothing is hidden).
fn principal_value(p: Option<&Value>, req: &ReadRequest) -> Option<Value> {
    let p = p?;
    let inner = match p {
        Value::Object(o) if o.len() == 1 => o.values().next()?.clone(),
        other => other.clone(),
    };
    if let (Value::String(arn), Some(declared)) = (&inner, req.declared_str("Principal")) {
        if declared.chars().all(|c| c.is_ascii_digit())
            && arn.starts_with("arn:")
            && arn.ends_with(&format!(":iam::{declared}:root"))
        {
            return Some(Value::String(declared.to_string()));
        }
    }
    Some(inner)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn sid_is_the_part_after_the_pipe() {
        assert_eq!(
            statement_id("arn:aws:lambda:r:a:function:f|Perm-1"),
            "Perm-1"
        );
        assert_eq!(statement_id("Perm-1"), "Perm-1");
    }

    #[test]
    fn statement_projects_conditions_and_principal() {
        let stmt = json!({
            "Sid": "s", "Effect": "Allow",
            "Principal": {"Service": "apigateway.amazonaws.com"},
            "Action": "lambda:InvokeFunction",
            "Resource": "arn:aws:lambda:us-east-1:1:function:f",
            "Condition": {"ArnLike": {"AWS:SourceArn": "arn:aws:execute-api:us-east-1:1:abc/*"}}
        });
        let m = statement_model(&stmt, "f", &ReadRequest::default());
        assert_eq!(
            m,
            json!({"FunctionName": "f", "Action": "lambda:InvokeFunction",
                   "Principal": "apigateway.amazonaws.com",
                   "SourceArn": "arn:aws:execute-api:us-east-1:1:abc/*"})
        );
    }

    #[test]
    fn account_root_principal_matches_a_declared_account_id_only() {
        let stmt = json!({"Principal": {"AWS": "arn:aws:iam::123456789012:root"}, "Action": "lambda:InvokeFunction"});
        let mut req = ReadRequest::default();
        req.declared.insert(
            "Principal".into(),
            realdrift_core::DeclaredValue::String("123456789012".into()),
        );
        assert_eq!(
            statement_model(&stmt, "f", &req)["Principal"],
            json!("123456789012")
        );
        req.declared.insert(
            "Principal".into(),
            realdrift_core::DeclaredValue::String("999999999999".into()),
        );
        assert_eq!(
            statement_model(&stmt, "f", &req)["Principal"],
            json!("arn:aws:iam::123456789012:root")
        );
    }
}
