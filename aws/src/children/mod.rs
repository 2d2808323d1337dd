//! Child enumerators, one file per parent type, registered in one table.
//!
//! Each lists a declared parent's live children through the service SDK and
//! returns those the template does not declare (pure matchers, unit-tested).

mod elbv2;
mod event_bus;
mod lambda_function;
mod s3_bucket;
mod secrets_manager;
mod sns_topic;
mod sqs_queue;

use super::clients::AwsClients;
use futures_util::future::BoxFuture;
use realdrift_core::pipeline::{ChildEnumerator, ChildQuery, LiveChild, SourceError};

/// An enumerator for one parent type.
pub type EnumeratorFn = for<'a> fn(
    &'a AwsClients,
    &'a ChildQuery,
) -> BoxFuture<'a, Result<Vec<LiveChild>, SourceError>>;

/// The enumerator table: parent type -> enumerator.
pub const ENUMERATORS: &[(&str, EnumeratorFn)] = &[
    ("AWS::SNS::Topic", sns_topic::enumerate),
    ("AWS::Lambda::Function", lambda_function::enumerate),
    ("AWS::Events::EventBus", event_bus::enumerate),
    ("AWS::S3::Bucket", s3_bucket::enumerate),
    ("AWS::SQS::Queue", sqs_queue::enumerate),
    (
        "AWS::ElasticLoadBalancingV2::LoadBalancer",
        elbv2::enumerate_listeners,
    ),
    (
        "AWS::ElasticLoadBalancingV2::Listener",
        elbv2::enumerate_rules,
    ),
    ("AWS::SecretsManager::Secret", secrets_manager::enumerate),
];

/// Parent types with an enumerator.
const PARENT_TYPES: &[&str] = &[
    "AWS::SNS::Topic",
    "AWS::Lambda::Function",
    "AWS::Events::EventBus",
    "AWS::S3::Bucket",
    "AWS::SQS::Queue",
    "AWS::ElasticLoadBalancingV2::LoadBalancer",
    "AWS::ElasticLoadBalancingV2::Listener",
    "AWS::SecretsManager::Secret",
];

/// The SDK-backed [`ChildEnumerator`] dispatching on the parent type.
#[derive(Debug, Clone)]
pub struct AwsChildEnumerator {
    clients: AwsClients,
}

impl AwsChildEnumerator {
    /// An enumerator over a client bundle.
    pub fn new(clients: AwsClients) -> Self {
        AwsChildEnumerator { clients }
    }
}

impl ChildEnumerator for AwsChildEnumerator {
    fn parent_types(&self) -> &[&'static str] {
        PARENT_TYPES
    }

    fn enumerate<'a>(
        &'a self,
        query: &'a ChildQuery,
    ) -> BoxFuture<'a, Result<Vec<LiveChild>, SourceError>> {
        match ENUMERATORS.iter().find(|(t, _)| *t == query.parent_type) {
            Some((_, f)) => f(&self.clients, query),
            None => Box::pin(async { Ok(Vec::new()) }),
        }
    }
}

/// True when some declared resource of `policy_type` targets the query's
/// parent (physical id `target`) through `prop` (a string or a list). A
/// declared target that is not resolved counts only for the parent its
/// template value refers to (`Ref` / `Fn::GetAtt` / `Fn::Sub`): that policy
/// is read by its own reader, never reported twice, while every other
/// parent's out-of-band policy is still reported.
pub(crate) fn policy_declared_for(
    query: &ChildQuery,
    policy_type: &str,
    prop: &str,
    target: &str,
) -> bool {
    query.declared_of_type(policy_type).any(|d| {
        d.resolved_strings(prop).contains(&target)
            || (d.declared_unresolved(prop) && d.refers_to(prop, &query.parent_logical_id))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_and_parent_list_agree() {
        let table: Vec<&str> = ENUMERATORS.iter().map(|(t, _)| *t).collect();
        assert_eq!(table, PARENT_TYPES);
    }
}
