//! AWS::Lambda::Function children: function URLs, aliases and resource-policy
//! statements the template does not declare.

use crate::clients::AwsClients;
use crate::errors::describe;
use crate::readers::{function_policy, statement_id, statement_model, statements};
use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use realdrift_core::pipeline::{ChildQuery, DeclaredResource, LiveChild, ReadRequest, SourceError};
use serde_json::Value;

/// One live alias.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct LiveAlias {
    pub arn: String,
    pub name: String,
}

/// Lists URLs, aliases and policy statements; returns the undeclared ones.
pub fn enumerate<'a>(
    clients: &'a AwsClients,
    query: &'a ChildQuery,
) -> BoxFuture<'a, Result<Vec<LiveChild>, SourceError>> {
    async move {
        let function = query.parent_physical_id.as_str();
        let err =
            |op: &str, m: String| SourceError::Other(format!("lambda:{op} on {function}: {m}"));

        let mut url_arns = Vec::new();
        let mut marker: Option<String> = None;
        loop {
            let out = clients
                .lambda
                .list_function_url_configs()
                .function_name(function)
                .set_marker(marker.take())
                .send()
                .await
                .map_err(|e| err("ListFunctionUrlConfigs", describe(&e, &[]).message))?;
            url_arns.extend(
                out.function_url_configs()
                    .iter()
                    .map(|c| c.function_arn().to_string()),
            );
            match out.next_marker() {
                Some(m) if !m.is_empty() => marker = Some(m.to_string()),
                _ => break,
            }
        }

        let mut aliases = Vec::new();
        let mut marker: Option<String> = None;
        loop {
            let out = clients
                .lambda
                .list_aliases()
                .function_name(function)
                .set_marker(marker.take())
                .send()
                .await
                .map_err(|e| err("ListAliases", describe(&e, &[]).message))?;
            aliases.extend(out.aliases().iter().filter_map(|a| {
                Some(LiveAlias {
                    arn: a.alias_arn()?.to_string(),
                    name: a.name()?.to_string(),
                })
            }));
            match out.next_marker() {
                Some(m) if !m.is_empty() => marker = Some(m.to_string()),
                _ => break,
            }
        }

        let policy = function_policy(clients, function)
            .await
            .map_err(SourceError::Other)?;

        let mut children = undeclared_urls(query, &url_arns);
        children.extend(undeclared_aliases(query, &aliases));
        if let Some(policy) = policy {
            children.extend(undeclared_statements(query, &policy));
        }
        Ok(children)
    }
    .boxed()
}

/// True when a declared reference (name, ARN or partial ARN) names this function.
fn refers_to_function(reference: &str, function_name: &str, function_arn: Option<&str>) -> bool {
    reference == function_name
        || function_arn.is_some_and(|a| a == reference)
        || reference.ends_with(&format!(":function:{function_name}"))
}

/// True when `prop` of a declared child did not resolve and its template
/// value refers to the query's parent: it may be this function's own child.
/// An unresolved reference to something else hides nothing here.
fn unresolved_for_parent(query: &ChildQuery, d: &DeclaredResource, prop: &str) -> bool {
    d.declared_unresolved(prop) && d.refers_to(prop, &query.parent_logical_id)
}

/// The parent function's ARN from its live model, when read.
fn parent_arn(query: &ChildQuery) -> Option<&str> {
    query.parent_model.get("Arn").and_then(Value::as_str)
}

/// URL configs not declared as an AWS::Lambda::Url of this function.
pub(crate) fn undeclared_urls(query: &ChildQuery, url_arns: &[String]) -> Vec<LiveChild> {
    let name = query.parent_physical_id.as_str();
    url_arns
        .iter()
        .filter(|arn| !query.is_declared_physical_id("AWS::Lambda::Url", arn))
        .filter(|arn| {
            !query.declared_of_type("AWS::Lambda::Url").any(|d| {
                let target_matches = d
                    .declared_str("TargetFunctionArn")
                    .is_some_and(|t| refers_to_function(t, name, parent_arn(query)));
                // A qualified URL's ARN ends with `:<qualifier>`.
                let qualifier_matches = match d.declared_str("Qualifier") {
                    Some(q) => arn.ends_with(&format!(":{q}")),
                    None => refers_to_function(arn, name, parent_arn(query)),
                };
                (target_matches && qualifier_matches)
                    || unresolved_for_parent(query, d, "TargetFunctionArn")
            })
        })
        .map(|arn| LiveChild {
            resource_type: "AWS::Lambda::Url".into(),
            identifier: arn.clone(),
            model: None,
            owner_lookup_id: Some(arn.clone()),
        })
        .collect()
}

/// Aliases not declared as an AWS::Lambda::Alias of this function.
pub(crate) fn undeclared_aliases(query: &ChildQuery, aliases: &[LiveAlias]) -> Vec<LiveChild> {
    let name = query.parent_physical_id.as_str();
    aliases
        .iter()
        .filter(|a| !query.is_declared_physical_id("AWS::Lambda::Alias", &a.arn))
        .filter(|a| {
            !query.declared_of_type("AWS::Lambda::Alias").any(|d| {
                let same_name = d.declared_str("Name") == Some(a.name.as_str());
                let same_fn = d
                    .declared_str("FunctionName")
                    .is_some_and(|f| refers_to_function(f, name, parent_arn(query)));
                // An unresolved part might be this alias: not reported (an
                // unresolved function only when it refers to this parent).
                let fn_matches = same_fn || unresolved_for_parent(query, d, "FunctionName");
                let name_matches = same_name || d.declared_unresolved("Name");
                fn_matches && name_matches
            })
        })
        .map(|a| LiveChild {
            resource_type: "AWS::Lambda::Alias".into(),
            identifier: a.arn.clone(),
            model: None,
            owner_lookup_id: Some(a.arn.clone()),
        })
        .collect()
}

/// Policy statements not declared as an AWS::Lambda::Permission (matched by Sid).
pub(crate) fn undeclared_statements(query: &ChildQuery, policy: &Value) -> Vec<LiveChild> {
    let function = query.parent_physical_id.as_str();
    let declared_sids: Vec<&str> = query
        .declared_of_type("AWS::Lambda::Permission")
        .filter_map(|d| d.physical_id.as_deref())
        .map(statement_id)
        .collect();
    statements(policy)
        .into_iter()
        .filter_map(|s| {
            let sid = s.get("Sid").and_then(Value::as_str)?;
            if declared_sids.contains(&sid) {
                return None;
            }
            let req = ReadRequest::default();
            Some(LiveChild {
                resource_type: "AWS::Lambda::Permission".into(),
                identifier: format!("{function}|{sid}"),
                model: Some(statement_model(s, function, &req)),
                // CloudFormation records a permission's statement id as its physical id.
                owner_lookup_id: Some(sid.to_string()),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use realdrift_core::pipeline::DeclaredResource;
    use realdrift_core::DeclaredValue;
    use serde_json::json;

    fn declared(t: &str, pid: &str, props: Value) -> DeclaredResource {
        let Value::Object(m) = props else { panic!() };
        DeclaredResource {
            logical_id: format!("L{pid}"),
            resource_type: t.into(),
            physical_id: Some(pid.into()),
            declared: m
                .iter()
                .map(|(k, v)| (k.clone(), DeclaredValue::from_json(v)))
                .collect(),
            ..Default::default()
        }
    }

    fn query(declared: Vec<DeclaredResource>) -> ChildQuery {
        ChildQuery {
            parent_logical_id: "Fn".into(),
            parent_type: "AWS::Lambda::Function".into(),
            parent_physical_id: "app-fn".into(),
            parent_model: json!({"Arn": "arn:aws:lambda:us-east-1:1:function:app-fn"}),
            declared: declared.into(),
            ..Default::default()
        }
    }

    #[test]
    fn statements_are_matched_by_sid() {
        let q = query(vec![declared(
            "AWS::Lambda::Permission",
            "App-Perm-1",
            json!({}),
        )]);
        let policy = json!({"Statement": [
            {"Sid": "App-Perm-1", "Action": "lambda:InvokeFunction", "Principal": {"Service": "s3.amazonaws.com"}},
            {"Sid": "rogue", "Action": "lambda:InvokeFunction", "Principal": {"AWS": "arn:aws:iam::666:root"}}
        ]});
        let out = undeclared_statements(&q, &policy);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].identifier, "app-fn|rogue");
        assert_eq!(out[0].owner_lookup_id.as_deref(), Some("rogue"));
        assert_eq!(
            out[0].model.as_ref().unwrap()["Principal"],
            json!("arn:aws:iam::666:root")
        );
    }

    #[test]
    fn aliases_match_by_arn_or_name_and_function() {
        let q = query(vec![
            declared(
                "AWS::Lambda::Alias",
                "arn:aws:lambda:us-east-1:1:function:app-fn:live",
                json!({}),
            ),
            declared(
                "AWS::Lambda::Alias",
                "other",
                json!({"Name": "beta", "FunctionName": "app-fn"}),
            ),
        ]);
        let live = vec![
            LiveAlias {
                arn: "arn:aws:lambda:us-east-1:1:function:app-fn:live".into(),
                name: "live".into(),
            },
            LiveAlias {
                arn: "arn:aws:lambda:us-east-1:1:function:app-fn:beta".into(),
                name: "beta".into(),
            },
            LiveAlias {
                arn: "arn:aws:lambda:us-east-1:1:function:app-fn:rogue".into(),
                name: "rogue".into(),
            },
        ];
        let out = undeclared_aliases(&q, &live);
        assert_eq!(
            out.iter()
                .map(|c| c.identifier.as_str())
                .collect::<Vec<_>>(),
            vec!["arn:aws:lambda:us-east-1:1:function:app-fn:rogue"]
        );
    }

    #[test]
    fn an_unresolved_function_reference_hides_only_its_own_functions_children() {
        let fn_arn = "arn:aws:lambda:us-east-1:1:function:app-fn";
        let mut url = declared("AWS::Lambda::Url", "x", json!({}));
        url.declared
            .insert("TargetFunctionArn".into(), DeclaredValue::Unresolved);
        url.references.insert(
            "TargetFunctionArn".into(),
            std::collections::BTreeSet::from(["OtherFn".to_string()]),
        );
        // The URL belongs to another function of the stack: this one's is out of band.
        let q = query(vec![url.clone()]);
        assert_eq!(undeclared_urls(&q, &[fn_arn.to_string()]).len(), 1);
        url.references.insert(
            "TargetFunctionArn".into(),
            std::collections::BTreeSet::from(["Fn".to_string()]),
        );
        assert!(undeclared_urls(&query(vec![url]), &[fn_arn.to_string()]).is_empty());
    }

    #[test]
    fn urls_match_declared_target_and_qualifier() {
        let fn_arn = "arn:aws:lambda:us-east-1:1:function:app-fn";
        let q = query(vec![declared(
            "AWS::Lambda::Url",
            "x",
            json!({"TargetFunctionArn": fn_arn}),
        )]);
        assert!(undeclared_urls(&q, &[fn_arn.to_string()]).is_empty());
        let qualified = format!("{fn_arn}:live");
        assert_eq!(
            undeclared_urls(&q, std::slice::from_ref(&qualified)).len(),
            1
        );
        let none = query(vec![]);
        assert_eq!(
            undeclared_urls(&none, &[fn_arn.to_string()])[0].identifier,
            fn_arn
        );
    }
}
