//! What the resolver knows about the deployed stack (pseudo parameters, ids, live attributes).

use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// Facts the resolver may use. Anything absent resolves to `Unresolved`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ResolverContext {
    /// `AWS::AccountId`.
    pub account_id: Option<String>,
    /// `AWS::Region`.
    pub region: Option<String>,
    /// `AWS::Partition` (see [`partition_for_region`]).
    pub partition: Option<String>,
    /// `AWS::URLSuffix` (see [`partition_for_region`]).
    pub url_suffix: Option<String>,
    /// `AWS::StackName`.
    pub stack_name: Option<String>,
    /// `AWS::StackId`.
    pub stack_id: Option<String>,
    /// Deployed parameter values from DescribeStacks, by name. For an
    /// `AWS::SSM::Parameter::Value<..>` parameter this must be the
    /// ResolvedValue, not the SSM key. NoEcho values are ignored (masked).
    pub parameter_values: BTreeMap<String, String>,
    /// Physical id by logical id, from ListStackResources.
    pub physical_ids: BTreeMap<String, String>,
    /// Live model by logical id, for `Fn::GetAtt` in the second pass.
    pub live_attrs: BTreeMap<String, Value>,
    /// Cross-stack exports (name -> value); `None` when they were not fetched.
    pub exports: Option<BTreeMap<String, String>>,
}

impl ResolverContext {
    /// A context for a stack, with partition and URL suffix derived from the region.
    pub fn new(account_id: &str, region: &str, stack_name: &str) -> Self {
        let (partition, url_suffix) = match partition_for_region(region) {
            Some((p, u)) => (Some(p.to_string()), Some(u.to_string())),
            None => (None, None),
        };
        ResolverContext {
            account_id: Some(account_id.to_string()),
            region: Some(region.to_string()),
            partition,
            url_suffix,
            stack_name: Some(stack_name.to_string()),
            ..ResolverContext::default()
        }
    }
}

#[derive(Deserialize)]
struct PartitionTable {
    prefixes: Vec<PartitionEntry>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct PartitionEntry {
    prefix: String,
    partition: String,
    url_suffix: String,
}

fn partition_table() -> &'static [PartitionEntry] {
    static TABLE: OnceLock<Vec<PartitionEntry>> = OnceLock::new();
    TABLE.get_or_init(|| {
        // The file is bundled and checked by a test; an unreadable table means
        // "partition unknown", which keeps the pseudo parameters unresolved.
        serde_json::from_str::<PartitionTable>(include_str!("../../data/partitions.json"))
            .map(|t| t.prefixes)
            .unwrap_or_default()
    })
}

/// The (partition, URL suffix) for a region, by longest known prefix.
///
/// `None` for a region that matches no prefix or does not end in a digit,
/// so an unfamiliar partition is never guessed.
pub fn partition_for_region(region: &str) -> Option<(&'static str, &'static str)> {
    if !region.ends_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    partition_table()
        .iter()
        .filter(|e| region.starts_with(e.prefix.as_str()) && region.len() > e.prefix.len())
        .max_by_key(|e| e.prefix.len())
        .map(|e| (e.partition.as_str(), e.url_suffix.as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bundled_table_loads() {
        assert!(partition_table().len() >= 10);
    }

    #[test]
    fn partitions_by_region() {
        assert_eq!(
            partition_for_region("us-east-1"),
            Some(("aws", "amazonaws.com"))
        );
        assert_eq!(
            partition_for_region("cn-northwest-1"),
            Some(("aws-cn", "amazonaws.com.cn"))
        );
        assert_eq!(
            partition_for_region("us-gov-west-1"),
            Some(("aws-us-gov", "amazonaws.com"))
        );
        assert_eq!(
            partition_for_region("us-isob-east-1"),
            Some(("aws-iso-b", "sc2s.sgov.gov"))
        );
        assert_eq!(partition_for_region("xx-mars-1"), None);
        assert_eq!(partition_for_region("us-east"), None);
        assert_eq!(partition_for_region(""), None);
    }

    #[test]
    fn new_derives_partition() {
        let c = ResolverContext::new("123456789012", "cn-north-1", "S");
        assert_eq!(c.partition.as_deref(), Some("aws-cn"));
        assert_eq!(c.url_suffix.as_deref(), Some("amazonaws.com.cn"));
        assert_eq!(c.stack_id, None);
    }
}
