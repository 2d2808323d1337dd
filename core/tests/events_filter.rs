//! The filter's drop reasons, one behaviour at a time, on records shaped as
//! CloudTrail writes them (record contents and userIdentity references).

use realdrift_core::events::{
    parse_event, parse_record, Catalog, CloudTrailEvent, DeployerKind, DropReason, FilterConfig,
    Screener, Verdict,
};
use serde_json::{json, Value};

/// A console-free SDK write of a bucket policy by an assumed role.
fn base() -> Value {
    json!({
        "eventVersion": "1.09",
        "userIdentity": {
            "type": "AssumedRole",
            "principalId": "AROAEXAMPLE:alice",
            "arn": "arn:aws:sts::111122223333:assumed-role/Admin/alice",
            "accountId": "111122223333",
            "sessionContext": {"sessionIssuer": {"type": "Role", "arn": "arn:aws:iam::111122223333:role/Admin", "userName": "Admin"}}
        },
        "eventTime": "2024-05-01T10:00:00Z",
        "eventSource": "s3.amazonaws.com",
        "eventName": "PutBucketPolicy",
        "awsRegion": "eu-west-1",
        "sourceIPAddress": "198.51.100.7",
        "userAgent": "aws-cli/2.15.0",
        "requestParameters": {"bucketName": "amzn-s3-demo-bucket", "policy": ""},
        "responseElements": null,
        "eventID": "e1",
        "readOnly": false,
        "eventType": "AwsApiCall",
        "managementEvent": true,
        "recipientAccountId": "111122223333"
    })
}

fn with(mut v: Value, patch: Value) -> Value {
    if let (Value::Object(o), Value::Object(p)) = (&mut v, patch) {
        for (k, x) in p {
            if x.is_null() {
                o.remove(&k);
            } else {
                o.insert(k, x);
            }
        }
    }
    v
}

fn event(v: &Value) -> CloudTrailEvent {
    parse_record(&serde_json::to_vec(v).unwrap()).unwrap()
}

fn verdict(config: FilterConfig, v: &Value) -> Result<(), DropReason> {
    let catalog = Catalog::bundled().unwrap();
    match Screener::new(catalog, config).assess(&event(v)) {
        Verdict::Accept(_) => Ok(()),
        Verdict::Drop(r) => Err(r),
    }
}

fn open(v: &Value) -> Result<(), DropReason> {
    verdict(FilterConfig::new(), v)
}

#[test]
fn a_plain_write_is_accepted() {
    assert_eq!(open(&base()), Ok(()));
}

/// The deployment the screener marks an accepted call with, if any.
fn through(v: &Value) -> Option<DeployerKind> {
    let catalog = Catalog::bundled().unwrap();
    match Screener::new(catalog, FilterConfig::new()).assess(&event(v)) {
        Verdict::Accept(a) => a.cause.through.map(|d| d.kind),
        Verdict::Drop(r) => panic!("dropped: {r:?}"),
    }
}

#[test]
fn cloudformation_calls_are_accepted_and_marked_by_fields_aws_sets_not_by_user_agent() {
    // CloudFormation with its service role (the CDK cfn-exec role): AWS sets
    // invokedBy and puts the service in place of the source IP. Accepted:
    // only the owning stack's state tells its own deploy from another
    // stack's write (issue: a change made through another stack).
    let cfn_role = with(
        base(),
        json!({
            "userIdentity": {
                "type": "AssumedRole",
                "arn": "arn:aws:sts::111122223333:assumed-role/cdk-hnb659fds-cfn-exec-role-111122223333-eu-west-1/AWSCloudFormation",
                "invokedBy": "cloudformation.amazonaws.com",
                "sessionContext": {"sessionIssuer": {"type": "Role", "arn": "arn:aws:iam::111122223333:role/cdk-hnb659fds-cfn-exec-role-111122223333-eu-west-1"}}
            },
            "sourceIPAddress": "cloudformation.amazonaws.com",
            "userAgent": "cloudformation.amazonaws.com"
        }),
    );
    assert_eq!(through(&cfn_role), Some(DeployerKind::CloudFormation));
    // Only the source IP field (invokedBy absent) is enough: AWS sets it.
    let by_ip = with(
        base(),
        json!({"sourceIPAddress": "cloudformation.amazonaws.com"}),
    );
    assert_eq!(through(&by_ip), Some(DeployerKind::CloudFormation));
    // A user agent is client-controlled: claiming CloudFormation in it
    // marks nothing.
    let spoofed = with(base(), json!({"userAgent": "cloudformation.amazonaws.com"}));
    assert_eq!(through(&spoofed), None);
    assert_eq!(through(&base()), None);
}

#[test]
fn a_stackset_execution_role_is_marked_by_its_documented_names() {
    let session = |role: &str| {
        with(
            base(),
            json!({"userIdentity": {
                "type": "AssumedRole",
                "arn": format!("arn:aws:sts::111122223333:assumed-role/{role}/1714557600000"),
                "sessionContext": {"sessionIssuer": {"type": "Role",
                    "arn": format!("arn:aws:iam::111122223333:role/{role}"), "userName": role}}
            }}),
        )
    };
    for role in [
        "AWSCloudFormationStackSetExecutionRole",
        "stacksets-exec-0a1b2c3d4e5f60718293a4b5c6d7e8f9",
    ] {
        assert_eq!(
            through(&session(role)),
            Some(DeployerKind::StackSet),
            "{role}"
        );
    }
    assert_eq!(through(&session("Admin")), None);
}

#[test]
fn the_revert_role_is_matched_by_account_and_name_whatever_the_path() {
    let catalog = Catalog::bundled().unwrap();
    let revert = |arn: &str| FilterConfig::new().with_revert_role(catalog, arn).unwrap();
    let by_revert = with(
        base(),
        json!({"userIdentity": {
            "type": "AssumedRole",
            "arn": "arn:aws:sts::111122223333:assumed-role/realdrift-revert/1714557600000",
            "sessionContext": {"sessionIssuer": {"type": "Role", "arn": "arn:aws:iam::111122223333:role/realdrift/realdrift-revert"}}
        }}),
    );
    // Configured with the path, without it, and in another case.
    for arn in [
        "arn:aws:iam::111122223333:role/realdrift/realdrift-revert",
        "arn:aws:iam::111122223333:role/realdrift-revert",
        "arn:aws:iam::111122223333:role/RealDrift-Revert",
    ] {
        assert_eq!(
            verdict(revert(arn), &by_revert),
            Err(DropReason::RevertRole),
            "{arn}"
        );
    }
    // The assumed-role ARN alone (no session context) is enough.
    let session_only = with(
        base(),
        json!({"userIdentity": {"type": "AssumedRole", "arn": "arn:aws:sts::111122223333:assumed-role/realdrift-revert/s"}}),
    );
    let config = revert("arn:aws:iam::111122223333:role/realdrift/realdrift-revert");
    assert_eq!(
        verdict(config.clone(), &session_only),
        Err(DropReason::RevertRole)
    );
    // Another role, or the same name in another account, is a change to report.
    assert_eq!(verdict(config.clone(), &base()), Ok(()));
    let other_account = with(
        base(),
        json!({"userIdentity": {"type": "AssumedRole", "arn": "arn:aws:sts::999999999999:assumed-role/realdrift-revert/s"}}),
    );
    assert_eq!(verdict(config, &other_account), Ok(()));
    // A revert "role" that is not a role ARN is a configuration error.
    for bad in [
        "realdrift-revert",
        "arn:aws:iam::111122223333:user/x",
        "arn:aws:sts::1:assumed-role/r/s",
    ] {
        assert!(
            FilterConfig::new().with_revert_role(catalog, bad).is_err(),
            "{bad}"
        );
    }
}

#[test]
fn reads_failures_and_non_api_calls_are_dropped() {
    assert_eq!(
        open(&with(base(), json!({"readOnly": true}))),
        Err(DropReason::ReadOnly)
    );
    // readOnly absent: the verb decides.
    let get = with(
        base(),
        json!({"readOnly": null, "eventName": "GetBucketPolicy"}),
    );
    assert_eq!(open(&get), Err(DropReason::ReadOnly));
    let list = with(
        base(),
        json!({"readOnly": null, "eventName": "ListFunctions20150331"}),
    );
    assert_eq!(open(&list), Err(DropReason::ReadOnly));
    let put = with(base(), json!({"readOnly": null}));
    assert_eq!(open(&put), Ok(()));
    // A present readOnly false wins over the verb.
    let odd = with(
        base(),
        json!({"readOnly": "false", "eventName": "GetBucketPolicy"}),
    );
    assert_eq!(open(&odd), Err(DropReason::Unmapped));
    assert_eq!(
        open(&with(
            base(),
            json!({"errorCode": "AccessDenied", "errorMessage": "no"})
        )),
        Err(DropReason::Failed)
    );
    assert_eq!(open(&with(base(), json!({"errorCode": ""}))), Ok(()));
    assert_eq!(
        open(&with(base(), json!({"eventType": "AwsServiceEvent"}))),
        Err(DropReason::NotApiCall)
    );
    assert_eq!(
        open(&with(
            base(),
            json!({"eventType": null, "insightDetails": {"state": "Start"}})
        )),
        Err(DropReason::NotApiCall)
    );
    assert_eq!(
        open(&with(
            base(),
            json!({"managementEvent": false, "eventName": "PutObject"})
        )),
        Err(DropReason::NotManagement)
    );
    // An EventBridge event of another detail type.
    let signin = json!({"detail-type": "AWS Console Sign In via CloudTrail", "source": "aws.signin", "detail": base()});
    let catalog = Catalog::bundled().unwrap();
    let e = parse_event(&serde_json::to_vec(&signin).unwrap()).unwrap();
    assert_eq!(
        Screener::new(catalog, FilterConfig::new()).assess(&e),
        Verdict::Drop(DropReason::NotApiCall)
    );
}

#[test]
fn accounts_and_regions_but_never_global_services_by_region() {
    let config = || {
        FilterConfig::new()
            .with_accounts(["111122223333"])
            .with_regions(["us-east-1"])
    };
    assert_eq!(verdict(config(), &base()), Err(DropReason::OtherRegion));
    let other = with(
        base(),
        json!({"recipientAccountId": "999999999999", "awsRegion": "us-east-1"}),
    );
    assert_eq!(verdict(config(), &other), Err(DropReason::OtherAccount));
    // IAM records every call in us-east-1: a deployment watching eu-west-1
    // must still take it (the role may belong to a eu-west-1 stack).
    let iam = with(
        base(),
        json!({"eventSource": "iam.amazonaws.com", "eventName": "PutRolePolicy", "awsRegion": "us-east-1",
               "requestParameters": {"roleName": "MyRole", "policyName": "p", "policyDocument": "{}"}}),
    );
    let eu = FilterConfig::new().with_regions(["eu-west-1"]);
    assert_eq!(verdict(eu, &iam), Ok(()));
    // Without recipientAccountId the envelope's account decides.
    let wrapped = json!({
        "detail-type": "AWS API Call via CloudTrail", "source": "aws.s3",
        "account": "999999999999", "region": "us-east-1",
        "detail": with(base(), json!({"recipientAccountId": null, "awsRegion": "us-east-1"}))
    });
    let catalog = Catalog::bundled().unwrap();
    let e = parse_event(&serde_json::to_vec(&wrapped).unwrap()).unwrap();
    assert_eq!(
        Screener::new(catalog, config()).assess(&e),
        Verdict::Drop(DropReason::OtherAccount)
    );
}

#[test]
fn api_version_suffixes_are_stripped_generally() {
    let catalog = Catalog::bundled().unwrap();
    let f = &catalog.facts;
    assert_eq!(
        f.bare_name("UpdateFunctionConfiguration20150331v2"),
        "UpdateFunctionConfiguration"
    );
    assert_eq!(f.bare_name("AddPermission20150331v2"), "AddPermission");
    assert_eq!(f.bare_name("CreateFunction20150331"), "CreateFunction");
    assert_eq!(f.bare_name("CreateFunction2020_05_31"), "CreateFunction");
    assert_eq!(f.bare_name("CreateClusterV2"), "CreateClusterV2");
    assert_eq!(f.bare_name("20150331"), "20150331");
    let lambda = with(
        base(),
        json!({"eventSource": "lambda.amazonaws.com", "eventName": "PutFunctionConcurrency20171031",
               "requestParameters": {"functionName": "f", "reservedConcurrentExecutions": 1}}),
    );
    assert_eq!(open(&lambda), Ok(()));
}

#[test]
fn unmapped_and_unidentified_are_told_apart() {
    let unmapped = with(
        base(),
        json!({"eventSource": "ssm.amazonaws.com", "eventName": "PutParameter"}),
    );
    assert_eq!(open(&unmapped), Err(DropReason::Unmapped));
    let no_id = with(base(), json!({"requestParameters": null}));
    assert_eq!(open(&no_id), Err(DropReason::Unidentified));
    // resources[] alone names the bucket.
    let res_only = with(
        base(),
        json!({"requestParameters": null, "resources": [{"type": "AWS::S3::Bucket", "ARN": "arn:aws:s3:::amzn-s3-demo-bucket", "accountId": "111122223333"}]}),
    );
    assert_eq!(open(&res_only), Ok(()));
}

#[test]
fn every_drop_reason_has_a_distinct_label() {
    let labels: std::collections::BTreeSet<&str> =
        DropReason::ALL.iter().map(|r| r.as_str()).collect();
    assert_eq!(labels.len(), DropReason::ALL.len());
    for r in DropReason::ALL {
        assert_eq!(serde_json::to_value(r).unwrap(), json!(r.as_str()));
    }
}
