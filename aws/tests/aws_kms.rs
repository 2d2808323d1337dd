//! KMS alias targets through the SDK (mocked): every page, customer and
//! AWS-managed aliases alike, an alias without a target left out.

mod aws_support;

use aws_sdk_kms::operation::list_aliases::ListAliasesOutput;
use aws_sdk_kms::types::AliasListEntry;
use aws_sdk_kms::Client as Kms;
use aws_smithy_mocks::mock;
use aws_support::clients;
use realdrift_aws::AwsKmsAliases;
use realdrift_core::pipeline::KmsAliasSource;

fn alias(name: &str, target: Option<&str>) -> AliasListEntry {
    AliasListEntry::builder()
        .alias_name(name)
        .set_target_key_id(target.map(String::from))
        .build()
}

#[tokio::test]
async fn every_alias_with_a_target_on_every_page() {
    let list = mock!(Kms::list_aliases)
        .sequence()
        .output(|| {
            ListAliasesOutput::builder()
                .aliases(alias("alias/aws/sqs", Some("k-managed")))
                .aliases(alias("alias/aws/dynamodb", None))
                .truncated(true)
                .next_marker("p2")
                .build()
        })
        .output(|| {
            ListAliasesOutput::builder()
                .aliases(alias("alias/orders-db", Some("k-customer")))
                .truncated(false)
                .build()
        })
        .build();
    let kms = AwsKmsAliases::new(clients(&[&list]));
    let got = kms.alias_targets().await.unwrap();
    assert_eq!(
        got.into_iter().collect::<Vec<_>>(),
        vec![
            ("alias/aws/sqs".to_string(), "k-managed".to_string()),
            ("alias/orders-db".to_string(), "k-customer".to_string()),
        ]
    );
    assert_eq!(list.num_calls(), 2);
}
