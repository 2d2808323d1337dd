//! Which undeclared values a fact about another resource of the stack (or
//! about the account) explains: one table row per AWS behaviour, each with
//! the reason it holds. The facts themselves are built in
//! `pipeline::gather::siblings` (the corpus passes them as `opts`); a row
//! only ever explains a value by the fact's own value, so a missing fact
//! leaves the value reported.

use super::siblings::Verdict;

/// Where a lookup step takes its key from.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Key {
    /// A fixed member name.
    Literal(&'static str),
    /// This resource's physical id.
    PhysicalId,
    /// This resource's logical id.
    LogicalId,
    /// The string this resource declares at a top-level property.
    Declared(&'static str),
}

/// How a fact explains the value.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Lookup {
    /// The fact, walked by these keys, equals the live value.
    Equals(&'static [Key]),
    /// The fact is a list naming this resource (by the key).
    Names(Key),
}

/// One explanation of an undeclared value by a fact.
#[derive(Debug)]
pub(crate) struct SiblingRule {
    /// The resource type whose value it explains.
    pub resource_type: &'static str,
    /// The properties, dotted from the top (`DistributionConfig.X`).
    pub paths: &'static [&'static str],
    /// The fact (a classify-context `sibling_facts` key).
    pub fact: &'static str,
    /// How the fact is matched.
    pub lookup: Lookup,
    /// What the value is when it matches.
    pub verdict: Verdict,
    /// Why AWS behaves so (the table's own documentation, checked by its
    /// test).
    #[cfg_attr(not(test), allow(dead_code))]
    pub reason: &'static str,
}

/// Every explanation by a sibling or account fact.
pub(crate) const SIBLING_RULES: &[SiblingRule] = &[
    SiblingRule {
        resource_type: "AWS::DMS::ReplicationInstance",
        paths: &["AllocatedStorage"],
        fact: "accountDefaults",
        lookup: Lookup::Equals(&[
            Key::Literal("dmsAllocatedStorageDefaults"),
            Key::Declared("ReplicationInstanceClass"),
        ]),
        verdict: Verdict::AtDefault,
        reason: "with no storage declared DMS allocates its default for the \
                 instance class, which DescribeOrderableReplicationInstances states",
    },
    SiblingRule {
        resource_type: "AWS::EC2::Volume",
        paths: &["Encrypted"],
        fact: "accountDefaults",
        lookup: Lookup::Equals(&[Key::Literal("ebsEncryptionByDefault")]),
        verdict: Verdict::AtDefault,
        reason: "an unencrypted-by-template volume follows the account's \
                 EBS encryption-by-default setting (GetEbsEncryptionByDefault)",
    },
    SiblingRule {
        resource_type: "AWS::EC2::ClientVpnEndpoint",
        paths: &["VpcId"],
        fact: "siblingClientVpnEndpointVpcs",
        lookup: Lookup::Equals(&[Key::PhysicalId]),
        verdict: Verdict::AtDefault,
        reason: "an endpoint with no VPC declared takes the VPC of the subnet \
                 a declared target-network association attaches it to",
    },
    SiblingRule {
        resource_type: "AWS::GlobalAccelerator::EndpointGroup",
        paths: &["HealthCheckPort"],
        fact: "siblingListenerPorts",
        lookup: Lookup::Equals(&[Key::Declared("ListenerArn")]),
        verdict: Verdict::AtDefault,
        reason: "an endpoint group's health-check port defaults to the port \
                 of its listener when the listener has one",
    },
    SiblingRule {
        resource_type: "AWS::EC2::EIP",
        paths: &["NetworkInterfaceId"],
        fact: "siblingEipAssociations",
        lookup: Lookup::Names(Key::PhysicalId),
        verdict: Verdict::Drop,
        reason: "a declared sibling (a NAT gateway, an EIP association) \
                 associates the address: the association is theirs",
    },
    SiblingRule {
        resource_type: "AWS::EC2::Subnet",
        paths: &["Ipv6CidrBlock", "Ipv6CidrBlocks"],
        fact: "siblingSubnetCidrBlocks",
        lookup: Lookup::Names(Key::PhysicalId),
        verdict: Verdict::Drop,
        reason: "a declared AWS::EC2::SubnetCidrBlock adds the IPv6 block, \
                 and is compared itself",
    },
    SiblingRule {
        resource_type: "AWS::ElasticLoadBalancingV2::TargetGroup",
        paths: &["Targets"],
        fact: "siblingTargetGroupRegistrars",
        lookup: Lookup::Names(Key::PhysicalId),
        verdict: Verdict::Generated,
        reason: "a declared sibling (an ECS service, an Auto Scaling group) \
                 registers the targets as its tasks and instances come and go",
    },
    SiblingRule {
        resource_type: "AWS::CloudFront::Distribution",
        paths: &["DistributionConfig.ContinuousDeploymentPolicyId"],
        fact: "siblingCloudFrontCdPolicyIds",
        lookup: Lookup::Equals(&[Key::LogicalId]),
        verdict: Verdict::AtDefault,
        reason: "CloudFront sets the policy id on the staging distribution a \
                 declared continuous-deployment policy names",
    },
];

#[cfg(test)]
mod tests {
    use super::SIBLING_RULES;

    #[test]
    fn every_row_names_a_type_and_says_why() {
        for r in SIBLING_RULES {
            assert!(r.resource_type.starts_with("AWS::"), "{r:?}");
            assert!(!r.paths.is_empty() && !r.fact.is_empty(), "{r:?}");
            assert!(r.reason.split_whitespace().count() >= 8, "{r:?}");
        }
    }
}
