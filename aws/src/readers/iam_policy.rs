//! AWS::IAM::Policy: the inline policy on each declared role, user and group.

use super::{declared_target, declared_targets, parse_policy_document, AwsClients};
use crate::errors::{describe, ErrorClass};
use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use realdrift_core::pipeline::{LiveModel, ReadOutcome, ReadRequest};
use serde_json::{Map, Value};

/// Which kind of principal an inline policy sits on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Principal {
    Role,
    User,
    Group,
}

impl Principal {
    fn prop(self) -> &'static str {
        match self {
            Principal::Role => "Roles",
            Principal::User => "Users",
            Principal::Group => "Groups",
        }
    }
}

/// Reads `PolicyName` from every declared principal. The model lists, per
/// declared principal kind, the principals that still carry the policy.
pub fn read<'a>(clients: &'a AwsClients, req: &'a ReadRequest) -> BoxFuture<'a, ReadOutcome> {
    async move {
        let name = match declared_target(req, "PolicyName") {
            Ok(n) => n.to_string(),
            Err(o) => return *o,
        };
        let mut model = Map::new();
        model.insert("PolicyName".into(), Value::String(name.clone()));
        let mut document: Option<(String, Value)> = None;
        let mut notes = Vec::new();
        let mut any_declared = false;
        for kind in [Principal::Role, Principal::User, Principal::Group] {
            let targets = match declared_targets(req, kind.prop()) {
                Ok(t) => t,
                Err(o) => return *o,
            };
            if req.declared.contains_key(kind.prop()) {
                any_declared = true;
            } else {
                continue;
            }
            let mut present = Vec::new();
            for target in targets {
                match inline_policy(clients, kind, &target, &name).await {
                    Ok(Some(doc)) => {
                        match &document {
                            Some((first, d)) if *d != doc => notes.push(format!(
                                "{target} carries a different {name} document than {first}"
                            )),
                            Some(_) => {}
                            None => document = Some((target.clone(), doc)),
                        }
                        present.push(Value::String(target));
                    }
                    Ok(None) => {}
                    Err(message) => return ReadOutcome::denied(message),
                }
            }
            model.insert(kind.prop().into(), Value::Array(present));
        }
        if !any_declared {
            return ReadOutcome::skipped("AWS::IAM::Policy declares no Roles, Users or Groups");
        }
        match document {
            None => ReadOutcome::NotFound,
            Some((_, doc)) => {
                model.insert("PolicyDocument".into(), doc);
                let mut m = LiveModel::new(Value::Object(model));
                m.notes = notes;
                ReadOutcome::Found(m)
            }
        }
    }
    .boxed()
}

/// One principal's inline policy document (`None` when it does not carry it).
async fn inline_policy(
    clients: &AwsClients,
    kind: Principal,
    target: &str,
    name: &str,
) -> Result<Option<Value>, String> {
    let (op, result) = match kind {
        Principal::Role => (
            "iam:GetRolePolicy",
            clients
                .iam
                .get_role_policy()
                .role_name(target)
                .policy_name(name)
                .send()
                .await
                .map(|o| o.policy_document)
                .map_err(|e| describe(&e, &["NoSuchEntity"])),
        ),
        Principal::User => (
            "iam:GetUserPolicy",
            clients
                .iam
                .get_user_policy()
                .user_name(target)
                .policy_name(name)
                .send()
                .await
                .map(|o| o.policy_document)
                .map_err(|e| describe(&e, &["NoSuchEntity"])),
        ),
        Principal::Group => (
            "iam:GetGroupPolicy",
            clients
                .iam
                .get_group_policy()
                .group_name(target)
                .policy_name(name)
                .send()
                .await
                .map(|o| o.policy_document)
                .map_err(|e| describe(&e, &["NoSuchEntity"])),
        ),
    };
    match result {
        Ok(raw) => parse_policy_document(&raw)
            .map(Some)
            .map_err(|e| format!("{op} {name} on {target}: {e}")),
        Err(info) if info.class == ErrorClass::NotFound => Ok(None),
        Err(info) => Err(format!("{op} {name} on {target}: {}", info.message)),
    }
}
