//! How [`crate::AwsLiveReader`] reads each type, stated from the same
//! tables it dispatches on (`is_unreadable_type`, the reader table, then
//! Cloud Control), so a reader added to the table shows up here unedited.

use super::readers::reader_for;
use realdrift_core::pipeline::is_unreadable_type;
use realdrift_core::report::ReadRoute;

/// How the live reader reads `resource_type`. Cloud Control may still
/// answer that it cannot read a type; a check's results refine this (see
/// `realdrift_core::report::type_coverage`).
pub fn read_route(resource_type: &str) -> ReadRoute {
    if let Some(reason) = is_unreadable_type(resource_type) {
        return ReadRoute::NotRead { reason };
    }
    if reader_for(resource_type).is_some() {
        return ReadRoute::Reader {
            name: reader_name(resource_type),
        };
    }
    ReadRoute::CloudControl
}

/// A reader's name as its file is named: `AWS::S3::BucketPolicy` ->
/// `s3_bucket_policy` (service lowercased, resource in snake case).
pub fn reader_name(resource_type: &str) -> String {
    let mut parts = resource_type.split("::").skip(1);
    let service = parts.next().unwrap_or_default().to_ascii_lowercase();
    let chars: Vec<char> = parts.next().unwrap_or_default().chars().collect();
    let mut resource = String::new();
    for (i, c) in chars.iter().enumerate() {
        // A word starts at an upper-case letter after a lower-case one, or at
        // the last capital of an acronym run (`DBCluster` -> `db_cluster`).
        let prev_lower = i > 0 && chars[i - 1].is_ascii_lowercase();
        let acronym_end = i > 0
            && chars[i - 1].is_ascii_uppercase()
            && chars.get(i + 1).is_some_and(|n| n.is_ascii_lowercase());
        if c.is_ascii_uppercase() && (prev_lower || acronym_end) {
            resource.push('_');
        }
        resource.push(c.to_ascii_lowercase());
    }
    format!("{service}_{resource}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes_follow_the_reader_table() {
        assert_eq!(
            read_route("AWS::S3::BucketPolicy"),
            ReadRoute::Reader {
                name: "s3_bucket_policy".into()
            }
        );
        assert_eq!(read_route("AWS::SQS::Queue"), ReadRoute::CloudControl);
        assert!(matches!(
            read_route("Custom::Seeder"),
            ReadRoute::NotRead { .. }
        ));
        assert_eq!(reader_name("AWS::IAM::Policy"), "iam_policy");
        assert_eq!(reader_name("AWS::Lambda::Permission"), "lambda_permission");
        assert_eq!(reader_name("AWS::DocDB::DBCluster"), "docdb_db_cluster");
        assert_eq!(
            reader_name("AWS::EC2::ClientVpnTargetNetworkAssociation"),
            "ec2_client_vpn_target_network_association"
        );
    }
}
