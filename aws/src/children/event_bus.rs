//! AWS::Events::EventBus children: rules on a declared custom bus.

use crate::clients::AwsClients;
use crate::errors::describe;
use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use realdrift_core::pipeline::{ChildQuery, LiveChild, SourceError};

/// One live rule.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct LiveRule {
    pub arn: String,
    pub name: String,
    /// Set on rules an AWS service manages on the bus (never template resources).
    pub managed_by: Option<String>,
}

/// Lists the bus's rules; returns the undeclared ones.
pub fn enumerate<'a>(
    clients: &'a AwsClients,
    query: &'a ChildQuery,
) -> BoxFuture<'a, Result<Vec<LiveChild>, SourceError>> {
    async move {
        let bus = query.parent_physical_id.as_str();
        let mut rules = Vec::new();
        let mut token: Option<String> = None;
        loop {
            let out = clients
                .eventbridge
                .list_rules()
                .event_bus_name(bus)
                .set_next_token(token.take())
                .send()
                .await
                .map_err(|e| {
                    SourceError::Other(format!(
                        "events:ListRules on bus {bus}: {}",
                        describe(&e, &[]).message
                    ))
                })?;
            rules.extend(out.rules().iter().filter_map(|r| {
                Some(LiveRule {
                    arn: r.arn()?.to_string(),
                    name: r.name()?.to_string(),
                    managed_by: r.managed_by().map(str::to_string),
                })
            }));
            match out.next_token() {
                Some(t) if !t.is_empty() => token = Some(t.to_string()),
                _ => break,
            }
        }
        Ok(undeclared_rules(query, &rules))
    }
    .boxed()
}

/// Rules not declared as an AWS::Events::Rule (physical id = name, `bus|name` or ARN).
pub(crate) fn undeclared_rules(query: &ChildQuery, rules: &[LiveRule]) -> Vec<LiveChild> {
    let bus = query.parent_physical_id.as_str();
    rules
        .iter()
        .filter(|r| r.managed_by.is_none())
        .filter(|r| {
            let qualified = format!("{bus}|{}", r.name);
            !query.declared_of_type("AWS::Events::Rule").any(|d| {
                matches!(d.physical_id.as_deref(), Some(p) if p == r.name || p == qualified || p == r.arn)
            })
        })
        .map(|r| LiveChild {
            resource_type: "AWS::Events::Rule".into(),
            identifier: r.arn.clone(),
            model: None,
            // What CloudFormation records for a rule on this bus.
            owner_lookup_id: Some(rule_physical_id(bus, &r.name)),
        })
        .collect()
}

/// The physical id CloudFormation gives a rule: its name on the default
/// bus, `<bus>|<name>` on any other.
pub(crate) fn rule_physical_id(bus: &str, name: &str) -> String {
    if bus == "default" {
        name.to_string()
    } else {
        format!("{bus}|{name}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use realdrift_core::pipeline::DeclaredResource;

    fn rule(name: &str, managed: Option<&str>) -> LiveRule {
        LiveRule {
            arn: format!("arn:aws:events:us-east-1:1:rule/bus/{name}"),
            name: name.into(),
            managed_by: managed.map(str::to_string),
        }
    }

    #[test]
    fn declared_and_managed_rules_are_not_children() {
        let q = ChildQuery {
            parent_physical_id: "bus".into(),
            declared: vec![
                DeclaredResource {
                    resource_type: "AWS::Events::Rule".into(),
                    physical_id: Some("bus|declared".into()),
                    ..Default::default()
                },
                DeclaredResource {
                    resource_type: "AWS::Events::Rule".into(),
                    physical_id: Some("plain".into()),
                    ..Default::default()
                },
            ]
            .into(),
            ..Default::default()
        };
        let live = vec![
            rule("declared", None),
            rule("plain", None),
            rule("managed", Some("events.amazonaws.com")),
            rule("rogue", None),
        ];
        let out = undeclared_rules(&q, &live);
        assert_eq!(out.len(), 1);
        assert_eq!(
            out[0].identifier,
            "arn:aws:events:us-east-1:1:rule/bus/rogue"
        );
        // Another stack's rule on this bus is recorded as bus|name.
        assert_eq!(out[0].owner_lookup_id.as_deref(), Some("bus|rogue"));
        assert_eq!(rule_physical_id("default", "r"), "r");
    }
}
