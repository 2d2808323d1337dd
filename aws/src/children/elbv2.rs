//! Load balancer children: listeners added to a declared load balancer and
//! rules added to a declared listener out of band (a listener opens a port;
//! a rule reroutes or exposes paths), each read in full through Cloud Control.

use crate::clients::AwsClients;
use crate::errors::describe;
use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use realdrift_core::pipeline::{ChildQuery, LiveChild, SourceError};

/// The listener type, child of a load balancer.
const LISTENER: &str = "AWS::ElasticLoadBalancingV2::Listener";
/// The listener rule type, child of a listener.
const RULE: &str = "AWS::ElasticLoadBalancingV2::ListenerRule";
/// Pages read at most (400 items a page).
const MAX_PAGES: usize = 50;

/// Listeners of the load balancer (its ARN is the physical id) that no
/// declared listener is.
pub fn enumerate_listeners<'a>(
    clients: &'a AwsClients,
    query: &'a ChildQuery,
) -> BoxFuture<'a, Result<Vec<LiveChild>, SourceError>> {
    async move {
        let lb = query.parent_physical_id.as_str();
        let mut arns = Vec::new();
        let mut marker: Option<String> = None;
        for _ in 0..MAX_PAGES {
            let page = clients
                .elbv2
                .describe_listeners()
                .load_balancer_arn(lb)
                .set_marker(marker.take())
                .send()
                .await
                .map_err(|e| failed("DescribeListeners", lb, describe(&e, &[]).message))?;
            arns.extend(
                page.listeners()
                    .iter()
                    .filter_map(|l| l.listener_arn().map(str::to_string)),
            );
            match page.next_marker() {
                Some(m) if !m.is_empty() => marker = Some(m.to_string()),
                _ => return Ok(undeclared(query, LISTENER, arns)),
            }
        }
        Err(failed("DescribeListeners", lb, too_many()))
    }
    .boxed()
}

/// Rules of the listener (its ARN is the physical id), its default rule
/// aside (that is the listener's own `DefaultActions`), that no declared
/// listener rule is.
pub fn enumerate_rules<'a>(
    clients: &'a AwsClients,
    query: &'a ChildQuery,
) -> BoxFuture<'a, Result<Vec<LiveChild>, SourceError>> {
    async move {
        let listener = query.parent_physical_id.as_str();
        let mut arns = Vec::new();
        let mut marker: Option<String> = None;
        for _ in 0..MAX_PAGES {
            let page = clients
                .elbv2
                .describe_rules()
                .listener_arn(listener)
                .set_marker(marker.take())
                .send()
                .await
                .map_err(|e| failed("DescribeRules", listener, describe(&e, &[]).message))?;
            arns.extend(
                page.rules()
                    .iter()
                    .filter(|r| r.is_default() != Some(true))
                    .filter_map(|r| r.rule_arn().map(str::to_string)),
            );
            match page.next_marker() {
                Some(m) if !m.is_empty() => marker = Some(m.to_string()),
                _ => return Ok(undeclared(query, RULE, arns)),
            }
        }
        Err(failed("DescribeRules", listener, too_many()))
    }
    .boxed()
}

/// The ARNs no declared resource of `child_type` has as physical id; each
/// is read in full by Cloud Control (its ARN is the primary identifier), and
/// one another stack declares is not reported (owner lookup by ARN).
pub(crate) fn undeclared(
    query: &ChildQuery,
    child_type: &str,
    arns: Vec<String>,
) -> Vec<LiveChild> {
    arns.into_iter()
        .filter(|arn| !query.is_declared_physical_id(child_type, arn))
        .map(|arn| LiveChild {
            resource_type: child_type.to_string(),
            identifier: arn.clone(),
            model: None,
            owner_lookup_id: Some(arn),
        })
        .collect()
}

fn failed(op: &str, target: &str, message: String) -> SourceError {
    SourceError::Other(format!("elasticloadbalancing:{op} on {target}: {message}"))
}

fn too_many() -> String {
    format!("more than {MAX_PAGES} pages")
}
