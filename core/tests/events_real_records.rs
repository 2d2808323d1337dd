//! The real CloudTrail records of `shared/cloudtrail/` through parse, filter
//! and map: no panic, drop counts per reason, and the identifiers extracted
//! for every mapped (eventSource, eventName) the records contain.

mod events_support;

use events_support::{real_item, real_items, selector, targets, RealItem};
use realdrift_core::events::{Catalog, DropReason, FilterConfig, Screener, Verdict};
use std::collections::{BTreeMap, BTreeSet};

const INVICTUS: &str = "invictus-ir_aws_dataset.json";
const DATADOG: &str = "datadog_stratus-red-team_detonation-logs.json";
const RUBY: &str = "rubysoho07_cloudtrail-watcher_samples.json";
const AIRBNB: &str = "airbnb_streamalert_rule-test-events.json";
const CUSTODIAN: &str = "cloud-custodian_cwe-fixtures.json";
const TRAIL: &str = "traildiscover_logExamples.json";
const FIVEXL: &str = "fivexl_cloudtrail-to-slack_test-events.json";
const WRAPPED: &str = events_support::WRAPPED;

fn counts(items: &[&RealItem], screener: &Screener<'_>) -> BTreeMap<&'static str, usize> {
    let mut out = BTreeMap::new();
    for item in items {
        let event = item
            .parse()
            .unwrap_or_else(|e| panic!("{} {}: {e}", item.file, item.selector));
        let label = match screener.assess(&event) {
            Verdict::Accept(_) => "accepted",
            Verdict::Drop(r) => r.as_str(),
        };
        *out.entry(label).or_default() += 1;
    }
    out
}

#[test]
fn every_real_record_parses_and_drops_for_a_counted_reason() {
    let catalog = Catalog::bundled().unwrap();
    let screener = Screener::new(catalog, FilterConfig::new());
    let items = real_items();
    assert_eq!(items.len(), 843 + 12, "843 records and 12 wrapped events");
    let bare: Vec<&RealItem> = items.iter().filter(|i| !i.wrapped).collect();
    let wrapped: Vec<&RealItem> = items.iter().filter(|i| i.wrapped).collect();
    // Failed: every record with an errorCode. The three records with
    // invokedBy cloudformation.amazonaws.com are accepted by the screener
    // when mapped (on-change then screens them by the owning stack's
    // state); theirs are calls the table does not map. NotApiCall: the
    // streamalert Insights test event. Unidentified: AuthorizeSecurityGroup-
    // Ingress with groupId "..." (twice) and CreateTags on an AMI and an
    // instance. The data set holds writes only, so nothing is read-only.
    let want: BTreeMap<&str, usize> = [
        ("accepted", 148),
        ("failed", 238),
        ("notApiCall", 1),
        ("unidentified", 4),
        ("unmapped", 452),
    ]
    .into_iter()
    .collect();
    assert_eq!(counts(&bare, &screener), want);
    // Wrapped: two console CreateBucket calls; the rest are ELB, Glue,
    // CloudFront, API Gateway and EC2 image / transit-gateway calls.
    let want: BTreeMap<&str, usize> = [("accepted", 2), ("unmapped", 10)].into_iter().collect();
    assert_eq!(counts(&wrapped, &screener), want);
}

#[test]
fn account_region_and_revert_role_filters_count_on_real_records() {
    let catalog = Catalog::bundled().unwrap();
    // The revert role is given with a path the session issuer ARN lacks and
    // in another case: it must still match (IAM names ignore case and path).
    let config = FilterConfig::new()
        .with_accounts(["123837392027"])
        .with_regions(["us-east-1"])
        .with_revert_role(
            catalog,
            "arn:aws:iam::123837392027:role/ops/Stratus-Red-Team-EC2-Steal-Credentials-Role",
        )
        .unwrap();
    let screener = Screener::new(catalog, config);
    let items = real_items();
    let all: Vec<&RealItem> = items.iter().collect();
    let got = counts(&all, &screener);
    // invictus-ir (account 123837392027, us-east-1) passes the account and
    // region filters; every other successful write of a known account is
    // otherAccount (the three CloudFormation calls included: the account
    // check comes first). The two bare console CreateBucket records without
    // recipientAccountId pass the account filter (unknown is never
    // dropped): the us-east-1 one is accepted, the us-west-2 one is
    // otherRegion; their wrapped copies carry the envelope's account and
    // are otherAccount. The ten successful calls of
    // the steal-credentials role's EC2 sessions are revertRole.
    let want: BTreeMap<&str, usize> = [
        ("accepted", 113),
        ("failed", 238),
        ("notApiCall", 1),
        ("otherAccount", 175),
        ("otherRegion", 1),
        ("revertRole", 10),
        ("unidentified", 1),
        ("unmapped", 316),
    ]
    .into_iter()
    .filter(|(_, n)| *n > 0)
    .collect();
    assert_eq!(got, want);
}

/// (file, eventID or `#index`, expected targets, expected child selector).
/// An empty target list means the record names no identifier (null
/// requestParameters of a failed call): the mapping says `Unidentified`,
/// and events_doc_records.rs builds that shape from the API reference.
type Case = (
    &'static str,
    &'static str,
    &'static [&'static str],
    &'static str,
);

const REAL_CASES: &[Case] = &[
    // DynamoDB: the table name names a Table or a GlobalTable; the
    // resources[] ARN is the same table (merged, not a second target).
    (RUBY, "0b875902-9a42-4049-a62f-80ebac0e6c2d", &["AWS::DynamoDB::Table ct-watcher-test (name)", "AWS::DynamoDB::GlobalTable ct-watcher-test (name)"], "all"),
    // EC2 security groups.
    (INVICTUS, "914469fc-c658-434c-a560-0219c0ac3b55", &["AWS::EC2::SecurityGroup sg-04cfb7a4712d75b00 (id)"], "all"),
    (RUBY, "061fb12b-9a82-4460-95fb-3482d24e11f6", &["AWS::EC2::SecurityGroup sg-0e79c7acdf4a0225e (id)"], "all"),
    (AIRBNB, "#35", &[], "-"), // groupId "..." is no security group id
    (INVICTUS, "7e96f0e7-4d78-423d-b3f5-391370685b30", &["AWS::EC2::SecurityGroup sg-04cfb7a4712d75b00 (id)"], "all"),
    (INVICTUS, "7475937c-a863-44ce-9878-81e8a268e966", &["AWS::EC2::SecurityGroup sg-04cfb7a4712d75b00 (id)"], "all"),
    (INVICTUS, "166db627-7c52-4552-ac56-5aad1d09bde8", &[], "-"), // CreateTags on an AMI
    (INVICTUS, "9606afeb-3e3a-4f54-88ad-556e3d02d102", &["AWS::EC2::SecurityGroup sg-04cfb7a4712d75b00 (id)"], "all"),
    (RUBY, "9e8af480-f3c6-461e-86b7-b68bb0190ad0", &["AWS::EC2::SecurityGroup sg-ef6e8186 (id)"], "all"),
    (INVICTUS, "d2dedbf2-62a8-4362-bcad-aa1670e80c0f", &["AWS::EC2::SecurityGroup sg-04cfb7a4712d75b00 (id)"], "all"),
    (INVICTUS, "8733f811-267d-4c46-8e5b-000fe7c6a9f2", &["AWS::EC2::SecurityGroup sg-04cfb7a4712d75b00 (id)"], "all"),
    (RUBY, "4b3e4423-03b0-46fd-8eae-7938ea61f369", &["AWS::EC2::SecurityGroup sg-0e79c7acdf4a0225e (id)"], "all"),
    // EventBridge: failed calls with null requestParameters only.
    (TRAIL, "cfeb8827-447c-42ec-bc60-893417c50953", &[], "-"),
    (TRAIL, "9d7df2bb-bbe0-455b-a36a-3624b87840cb", &[], "-"),
    (TRAIL, "849f0a87-ffad-4c6c-9be8-e2091e684794", &[], "-"),
    // IAM.
    (INVICTUS, "0aab9947-662e-407b-bbc7-e86981879d38", &["AWS::IAM::InstanceProfile stratus-red-team-ec2-enumerate-instance (name)"], "all"),
    (TRAIL, "1f8b80aa-6716-4c78-a13f-4209bd6880dd", &[], "-"),
    (TRAIL, "14ce1828-e25d-45bd-b886-bfa662caf2a9", &[], "-"),
    (DATADOG, "39480357-0a1d-4531-a3f2-71be4c041c25", &["AWS::IAM::Role stratus-red-team-malicious-iam-role (name)"], "ids:arn:aws:iam::aws:policy/AdministratorAccess"),
    (INVICTUS, "edc26fa8-655a-4346-9e18-f79b0d9e25de", &["AWS::IAM::Role stratus-red-team-ec2-steal-credentials-role (name)"], "ids:arn:aws:iam::aws:policy/AmazonSSMManagedInstanceCore"),
    (DATADOG, "083dc4ad-e264-46bc-a407-d0dd31b58bdc", &["AWS::IAM::User malicious-iam-user (name)"], "ids:arn:aws:iam::aws:policy/AdministratorAccess"),
    (INVICTUS, "f0d7bb15-75c8-4770-a500-92d1f71b948c", &["AWS::IAM::User stratus-red-team-login-profile-user (name)"], "all"),
    // CreatePolicy: the name in the request and the ARN in the response are one policy.
    (INVICTUS, "19373fa4-d15d-4c49-9e19-f19faa16e2ca", &["AWS::IAM::ManagedPolicy stratus-red-team-ec2lui-policy-pcccexdthk (name)"], "all"),
    (RUBY, "aaffd467-6424-4ea1-88cc-9a0156def376", &["AWS::IAM::ManagedPolicy arn:aws:iam::000000000000:policy/test-policy (arn)"], "all"),
    (TRAIL, "a71d90e6-58f7-40f3-98d2-9df8cf8cd18b", &[], "-"),
    (DATADOG, "d2905ac3-9898-433f-b10d-9302abe4e208", &["AWS::IAM::Role stratus-red-team-malicious-iam-role (name)"], "all"),
    (INVICTUS, "16467019-3533-4add-8c98-589432319ef7", &["AWS::IAM::InstanceProfile stratus-red-team-ec2-steal-credentials-instance (name)"], "all"),
    (INVICTUS, "dddcd0f2-b515-4772-90e6-7c748ad5f514", &["AWS::IAM::User stratus-red-team-login-profile-user (name)"], "all"),
    (INVICTUS, "5b4afdaf-d50a-4403-8a4f-42d544e8d5f1", &["AWS::IAM::ManagedPolicy arn:aws:iam::123837392027:policy/stratus-red-team-ec2lui-policy-wuzemnoeqa (arn)"], "all"),
    (INVICTUS, "b6864c4d-fa98-43ea-9744-de457f4e70bc", &["AWS::IAM::Role stratus-red-team-usr-data-role (name)"], "all"),
    (TRAIL, "d0b94f39-24bf-4fe8-8154-46d08e6b8b1e", &[], "-"),
    (INVICTUS, "53c16e86-82f9-4bfd-bbc3-6e5239b09cb5", &["AWS::IAM::Role stratus-red-team-remove-flow-logs-role (name)"], "name:stratus-red-team-remove-flow-logs-policy"),
    (INVICTUS, "08edca58-402f-4cc6-86dd-fa349a46bca3", &["AWS::IAM::User stratus-red-team-nmfalu-gfjyeaypjt (name)"], "all"),
    (TRAIL, "acc177ae-0f97-453d-9a4b-8f0191dc388a", &[], "-"),
    (TRAIL, "18877d85-5c78-4e56-82d0-766161c2e721", &[], "-"),
    (INVICTUS, "6d243596-07a9-466f-97b3-f2b1639c9716", &["AWS::IAM::Role stratus-red-team-ec2lui-role-pcccexdthk (name)"], "ids:arn:aws:iam::123837392027:policy/stratus-red-team-ec2lui-policy-pcccexdthk"),
    (INVICTUS, "7dfa2d8e-aa3d-44d1-bd90-d990f58311e0", &["AWS::IAM::User malicious-iam-user (name)"], "ids:arn:aws:iam::aws:policy/AdministratorAccess"),
    (TRAIL, "18679e18-c28d-44ad-83d8-e4ba73731a1c", &[], "-"),
    (TRAIL, "a3001de8-9338-43c1-892d-42bbc12c7d12", &[], "-"),
    (INVICTUS, "6c1eed73-00ee-4810-8009-c9ce5990c100", &["AWS::IAM::Role stratus-red-team-ec2-get-password-data-role (name)"], "name:inline-policy"),
    (TRAIL, "843f87b2-afa0-4949-8fb6-5b6cb0730c47", &[], "-"),
    (TRAIL, "12f2d218-e61e-4015-8c74-5651e9c0146a", &[], "-"),
    (INVICTUS, "73ce3be7-b19c-4331-9dfc-5d963b9da02a", &["AWS::IAM::InstanceProfile stratus-red-team-ec2-steal-credentials-instance (name)"], "all"),
    (TRAIL, "6fd4b5ce-9e47-47e9-91b8-1d813602a767", &[], "-"),
    (INVICTUS, "a87cdb52-c05c-47a6-af1f-f020cfcb3035", &["AWS::IAM::InstanceProfile stratus-red-team-ec2-steal-credentials-instance (name)"], "all"),
    (INVICTUS, "059cf0ed-af91-40a6-9c89-a8a4fb81dc65", &["AWS::IAM::Role stratus-red-team-backdoor-r-role (name)"], "all"),
    (DATADOG, "a46a1a42-9ef1-48d4-9c61-507eb6d4019f", &["AWS::IAM::User stratus-red-team-update-login-profile-user (name)"], "all"),
    // KMS: keyId and the resources[] key ARN are one key.
    (AIRBNB, "#32", &["AWS::KMS::Key 0000000-0000-0000-0000-0000000000000 (id)"], "all"),
    // Lambda: the version suffix is stripped; functionName as a name or an ARN.
    (INVICTUS, "b1f37249-bb39-4b9c-a302-e6d0f807d70c", &["AWS::Lambda::Function stratus-red-team-backdoor-f-func (name)"], "name:backdoor"),
    (TRAIL, "aa3ecf3c-f96f-45e6-9ecc-226e586f3288", &[], "-"),
    (INVICTUS, "2e15203f-d196-441a-adeb-794b195b4a28", &["AWS::Lambda::Function stratus-red-team-backdoor-f-func (name)"], "all"),
    (TRAIL, "3b7c91c0-ca41-4e83-acd5-4407e534f119", &["AWS::Lambda::Function TrailDiscoverFunction (name)"], "name:-"),
    (INVICTUS, "134ef1d9-d57e-4e3a-955a-b773468afca9", &["AWS::Lambda::Function stratus-red-team-backdoor-f-func (name)"], "all"),
    (INVICTUS, "80249d21-52d8-4143-b5e9-6ee980daa7e7", &["AWS::Lambda::Function stratus-red-team-backdoor-f-func (name)"], "name:backdoor"),
    (TRAIL, "e2fa653c-ee58-4843-b1dc-fcf0c4e1c31b", &[], "-"),
    (DATADOG, "4672b74f-2466-4784-b3fb-5b4db904a995", &["AWS::Lambda::Function arn:aws:lambda:ap-westeast-2r:266106314375:function:stratus-red-team-olc-func-vayhjqkdav (arn)"], "all"),
    (FIVEXL, "#4", &["AWS::Lambda::Function fivexl-cloudtrail-to-slack (name)"], "all"),
    (DATADOG, "da929d96-8e20-475c-a810-973addd64769", &["AWS::Lambda::Function arn:aws:lambda:eugov-eastcentral-1r:712967571683:function:stratus-red-team-lambda-layer-simpleLambda (arn)"], "all"),
    // Logs: a log group name with slashes.
    (INVICTUS, "a46276b9-dd85-4736-b9df-6210c69aa8e7", &["AWS::Logs::LogGroup /stratus-red-team/vpc-flow-logs (name)"], "all"),
    (INVICTUS, "349b65f9-1932-4258-a52e-476cf4fcf6d7", &["AWS::Logs::LogGroup /stratus-red-team/vpc-flow-logs (name)"], "all"),
    // S3: bucketName; resources[] names the same bucket.
    (CUSTODIAN, "c4fa3db1-2303-40e4-bde0-3b7246bdbf0b", &["AWS::S3::Bucket custodian-create-bucket-v4 (name)"], "all"),
    (INVICTUS, "0c3bce40-9649-4435-9328-f244fed293b5", &["AWS::S3::Bucket stratus-red-team-ctes-bucket-qyxyekjbtk (name)"], "all"),
    (INVICTUS, "8ec435c9-76d1-47d1-8eae-8a8864e3dff5", &["AWS::S3::Bucket stratus-red-team-ctlr-bucket-zqfsvooxqj (name)"], "all"),
    (INVICTUS, "b921a62d-9241-42a2-bb3c-6821e55c20cd", &["AWS::S3::Bucket stratus-red-team-bdbp-lhfzvgcamn (name)"], "singleton"),
    (TRAIL, "6aa2d2d6-9d55-41c5-b1fd-e82b70c613f9", &["AWS::S3::Bucket TrailDiscoverBucket (name)"], "all"),
    (INVICTUS, "7823c70d-f7f9-4a04-b4c0-baa8fbe09ea3", &["AWS::S3::Bucket stratus-red-team-ctlr-bucket-zqfsvooxqj (name)"], "all"),
    (INVICTUS, "988f1043-3e3d-4d84-803b-1b4d00e0df90", &["AWS::S3::Bucket stratus-red-team-ctes-bucket-qyxyekjbtk (name)"], "singleton"),
    (AIRBNB, "#15", &["AWS::S3::Bucket test (name)"], "all"),
    (INVICTUS, "b58e2c0b-f75b-4f05-a0e9-15e9b9bfecef", &["AWS::S3::Bucket stratus-red-team-ctes-bucket-qyxyekjbtk (name)"], "all"),
    (TRAIL, "e47ce540-2e0b-4942-b2b4-ab06337db8ac", &["AWS::S3::Bucket TrailDiscoverBucket (name)"], "all"),
    (WRAPPED, "80486b96-9f31-441e-b4e2-b85a4e520a07", &["AWS::S3::Bucket cwe-test (name)"], "all"),
    // SNS / SQS.
    (RUBY, "ae241752-2a62-4166-9991-c1854aee9d36", &["AWS::SNS::Topic sns-test.fifo (name)"], "all"),
    (AIRBNB, "f7a98acd-245d-4850-92db-e249dd98ed63", &["AWS::SNS::Topic arn:aws:sns:us-east-1:123456789123:test (arn)"], "singleton"),
    (RUBY, "b5a8ec24-29c1-4ebd-8dbb-3e328e66818f", &["AWS::SQS::Queue test-queue (name)"], "all"),
    (AIRBNB, "#27", &["AWS::SQS::Queue https://sqs.us-east-1.amazonaws.com/123456789123/tmp (url)"], "singleton"),
];

#[test]
fn real_records_yield_the_expected_identifiers() {
    let catalog = Catalog::bundled().unwrap();
    let screener = Screener::new(catalog, FilterConfig::new());
    let items = real_items();
    let mut failures = Vec::new();
    for (file, id, want_targets, want_selector) in REAL_CASES {
        let event = real_item(&items, file, id).parse().unwrap();
        let (got_targets, got_selector) = match screener.map_record(&event) {
            Ok(t) => (targets(&t), selector(&t)),
            Err(DropReason::Unidentified) => (Vec::new(), "-".to_string()),
            Err(other) => (Vec::new(), format!("dropped: {other:?}")),
        };
        if got_targets != *want_targets || got_selector != *want_selector {
            failures.push(format!(
                "{file} {id}: got {got_targets:?} {got_selector}, want {want_targets:?} {want_selector}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every mapped (eventSource, eventName) the records contain has a case.
#[test]
fn every_mapped_pair_in_the_real_records_has_a_case() {
    let catalog = Catalog::bundled().unwrap();
    let items = real_items();
    let pair_of = |item: &RealItem| {
        let e = item.parse().unwrap();
        let bare = catalog.facts.bare_name(e.record.name()).to_string();
        (e.record.source().to_string(), bare)
    };
    let in_records: BTreeSet<(String, String)> = items
        .iter()
        .map(pair_of)
        .filter(|(s, n)| catalog.table.get(s, n).is_some())
        .collect();
    let covered: BTreeSet<(String, String)> = REAL_CASES
        .iter()
        .map(|(f, id, _, _)| pair_of(real_item(&items, f, id)))
        .collect();
    let missing: Vec<_> = in_records.difference(&covered).collect();
    assert!(
        missing.is_empty(),
        "mapped pairs without a real case: {missing:?}"
    );
    assert!(in_records.len() >= 60, "{} mapped pairs", in_records.len());
}

#[test]
fn console_and_cause_fields_come_from_the_record() {
    let catalog = Catalog::bundled().unwrap();
    let screener = Screener::new(catalog, FilterConfig::new());
    let items = real_items();
    // A console CreateBucket as EventBridge delivered it (user agent [S3Console/0.4]).
    let event = real_item(&items, WRAPPED, "80486b96-9f31-441e-b4e2-b85a4e520a07")
        .parse()
        .unwrap();
    let Verdict::Accept(a) = screener.assess(&event) else {
        panic!("not accepted")
    };
    assert!(a.cause.console);
    assert_eq!(a.cause.event_name, "CreateBucket");
    assert_eq!(a.cause.user_agent.as_deref(), Some("[S3Console/0.4]"));
    assert_eq!(a.cause.actor.identity_type.as_deref(), Some("AssumedRole"));
    assert_eq!(
        a.cause.actor.arn.as_deref(),
        Some("arn:aws:sts::101010101111:assumed-role/Sandbox_Dev/user")
    );
    assert_eq!(
        a.cause
            .session_issuer
            .as_ref()
            .and_then(|s| s.arn.as_deref()),
        Some("arn:aws:iam::101010101111:role/Sandbox_Dev")
    );
    assert_eq!(a.cause.event_time.as_deref(), Some("2015-11-23T07:45:25Z"));
    let json = serde_json::to_value(&a.cause).unwrap();
    for key in [
        "eventName",
        "eventSource",
        "actor",
        "sessionIssuer",
        "userAgent",
        "eventTime",
        "eventId",
        "console",
    ] {
        assert!(json.get(key).is_some(), "cause lacks {key}: {json}");
    }
    // An SDK (Terraform) call by an IAM user: not console, no issuer, and
    // the access key id in the record never reaches the cause.
    let event = real_item(&items, INVICTUS, "6d243596-07a9-466f-97b3-f2b1639c9716")
        .parse()
        .unwrap();
    let Verdict::Accept(a) = screener.assess(&event) else {
        panic!("not accepted")
    };
    assert!(!a.cause.console);
    assert_eq!(a.cause.actor.identity_type.as_deref(), Some("IAMUser"));
    assert_eq!(
        a.cause.actor.arn.as_deref(),
        Some("arn:aws:iam::123837392027:user/bert-jan")
    );
    assert_eq!(a.cause.session_issuer, None);
    assert_eq!(a.cause.source_ip.as_deref(), Some("192.168.10.20"));
    let json = serde_json::to_string(&a.cause).unwrap();
    assert!(!json.contains("AKIATFQR7NSC8Q4X20BJ"), "{json}");
    assert_eq!(a.touch.event_name, "DetachRolePolicy");
    assert!(a.touch.global, "IAM is a global service");
}
