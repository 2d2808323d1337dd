//! The resource index: built from stack resources, found by every
//! identifier form an event may carry, children resolved against parents,
//! and a batch coalesced per resource.

use realdrift_core::declared::DeclaredValue;
use realdrift_core::events::{
    coalesce, parse_record, Accepted, Catalog, FilterConfig, HitRole, IndexError, IndexInput,
    ResourceIndex, Screener, Verdict,
};
use serde_json::{json, Value};
use std::collections::BTreeMap;

const ACCOUNT: &str = "111122223333";
const REGION: &str = "eu-west-1";

/// (logical id, type, physical id, declared properties).
fn stack_resources() -> Vec<(&'static str, &'static str, &'static str, Value)> {
    vec![
        ("Bucket", "AWS::S3::Bucket", "app-bucket-1x2y", json!({})),
        ("Logs", "AWS::S3::Bucket", "app-logs-9z", json!({})),
        (
            "BucketPolicy",
            "AWS::S3::BucketPolicy",
            "App-BucketPolicy-1ABC",
            json!({"Bucket": "app-bucket-1x2y"}),
        ),
        (
            "Role",
            "AWS::IAM::Role",
            "App-Role-1ABCDEF",
            json!({"Path": "/service/"}),
        ),
        (
            "RolePolicy",
            "AWS::IAM::Policy",
            "App-RoleP-XYZ",
            json!({"PolicyName": "RoleDefaultPolicy", "Roles": ["App-Role-1ABCDEF"]}),
        ),
        (
            "Managed",
            "AWS::IAM::ManagedPolicy",
            "arn:aws:iam::111122223333:policy/team/App-Managed-1Q",
            json!({"Roles": ["App-Role-1ABCDEF"]}),
        ),
        ("Fn", "AWS::Lambda::Function", "App-Fn-1QWERTY", json!({})),
        ("Fn2", "AWS::Lambda::Function", "App-Fn-1QWERTY2", json!({})),
        (
            "FnPermission",
            "AWS::Lambda::Permission",
            "App-FnPermission-77",
            json!({"FunctionName": "arn:aws:lambda:eu-west-1:111122223333:function:App-Fn-1QWERTY"}),
        ),
        (
            "FnUrl",
            "AWS::Lambda::Url",
            "arn:aws:lambda:eu-west-1:111122223333:function:App-Fn-1QWERTY",
            json!({"TargetFunctionArn": "arn:aws:lambda:eu-west-1:111122223333:function:App-Fn-1QWERTY"}),
        ),
        (
            "FnAlias",
            "AWS::Lambda::Alias",
            "arn:aws:lambda:eu-west-1:111122223333:function:App-Fn-1QWERTY:live",
            json!({"FunctionName": "App-Fn-1QWERTY", "Name": "live"}),
        ),
        (
            "Topic",
            "AWS::SNS::Topic",
            "arn:aws:sns:eu-west-1:111122223333:App-Topic-1A",
            json!({}),
        ),
        (
            "Sub",
            "AWS::SNS::Subscription",
            "arn:aws:sns:eu-west-1:111122223333:App-Topic-1A:0f1e2d3c-aaaa-bbbb-cccc-111122223333",
            json!({"TopicArn": "arn:aws:sns:eu-west-1:111122223333:App-Topic-1A"}),
        ),
        (
            "TopicPolicy",
            "AWS::SNS::TopicPolicy",
            "App-TopicPolicy-Z",
            json!({"Topics": ["arn:aws:sns:eu-west-1:111122223333:App-Topic-1A"]}),
        ),
        (
            "Queue",
            "AWS::SQS::Queue",
            "https://sqs.eu-west-1.amazonaws.com/111122223333/App-Queue-1B",
            json!({}),
        ),
        (
            "QueuePolicy",
            "AWS::SQS::QueuePolicy",
            "App-QueuePolicy-Q",
            json!({"Queues": ["https://sqs.eu-west-1.amazonaws.com/111122223333/App-Queue-1B"]}),
        ),
        ("Table", "AWS::DynamoDB::Table", "App-Table-1C", json!({})),
        (
            "LogGroup",
            "AWS::Logs::LogGroup",
            "/aws/lambda/App-Fn-1QWERTY",
            json!({}),
        ),
        ("Rule", "AWS::Events::Rule", "App-Rule-1D", json!({})),
        (
            "BusRule",
            "AWS::Events::Rule",
            "app-bus|App-BusRule-1E",
            json!({"EventBusName": "app-bus"}),
        ),
        (
            "Key",
            "AWS::KMS::Key",
            "1234abcd-12ab-34cd-56ef-1234567890ab",
            json!({}),
        ),
        (
            "KeyAlias",
            "AWS::KMS::Alias",
            "alias/app/key",
            json!({"AliasName": "alias/app/key", "TargetKeyId": "1234abcd-12ab-34cd-56ef-1234567890ab"}),
        ),
        (
            "Sg",
            "AWS::EC2::SecurityGroup",
            "sg-0123456789abcdef0",
            json!({}),
        ),
        (
            "SgIngress",
            "AWS::EC2::SecurityGroupIngress",
            "sgr-0aaa",
            json!({"GroupId": "sg-0123456789abcdef0"}),
        ),
        (
            "Custom",
            "Custom::Thing",
            "2024/05/01/[$LATEST]abc",
            json!({}),
        ),
    ]
}

fn declared(v: &Value) -> BTreeMap<String, DeclaredValue> {
    v.as_object()
        .unwrap()
        .iter()
        .map(|(k, x)| (k.clone(), DeclaredValue::from_json(x)))
        .collect()
}

fn index_of(rows: &[(&str, &str, &str, Value)]) -> ResourceIndex {
    let catalog = Catalog::bundled().unwrap();
    let decls: Vec<_> = rows.iter().map(|r| declared(&r.3)).collect();
    ResourceIndex::build(
        catalog,
        ACCOUNT,
        REGION,
        rows.iter().zip(&decls).map(|((l, t, p, _), d)| IndexInput {
            stack: "App",
            logical_id: l,
            resource_type: t,
            physical_id: p,
            declared: d,
        }),
    )
}

fn index() -> ResourceIndex {
    index_of(&stack_resources())
}

fn found(index: &ResourceIndex, ty: &str, id: &str) -> Vec<String> {
    let catalog = Catalog::bundled().unwrap();
    index
        .view(catalog)
        .find(ty, id)
        .into_iter()
        .map(|r| r.logical_id.clone())
        .collect()
}

#[test]
fn every_identifier_form_finds_its_resource() {
    let ix = index();
    let cases: &[(&str, &str, &str)] = &[
        // SQS: the queue URL (physical id), its ARN, its name, a legacy and an emulator URL.
        (
            "AWS::SQS::Queue",
            "https://sqs.eu-west-1.amazonaws.com/111122223333/App-Queue-1B",
            "Queue",
        ),
        (
            "AWS::SQS::Queue",
            "arn:aws:sqs:eu-west-1:111122223333:App-Queue-1B",
            "Queue",
        ),
        ("AWS::SQS::Queue", "App-Queue-1B", "Queue"),
        (
            "AWS::SQS::Queue",
            "https://eu-west-1.queue.amazonaws.com/111122223333/App-Queue-1B",
            "Queue",
        ),
        (
            "AWS::SQS::Queue",
            "http://127.0.0.1:4566/111122223333/App-Queue-1B",
            "Queue",
        ),
        // Lambda: name, ARN, ARN with a version and with an alias, partial ARN, name:alias.
        ("AWS::Lambda::Function", "App-Fn-1QWERTY", "Fn"),
        (
            "AWS::Lambda::Function",
            "arn:aws:lambda:eu-west-1:111122223333:function:App-Fn-1QWERTY",
            "Fn",
        ),
        (
            "AWS::Lambda::Function",
            "arn:aws:lambda:eu-west-1:111122223333:function:App-Fn-1QWERTY:7",
            "Fn",
        ),
        (
            "AWS::Lambda::Function",
            "arn:aws:lambda:eu-west-1:111122223333:function:App-Fn-1QWERTY:live",
            "Fn",
        ),
        (
            "AWS::Lambda::Function",
            "111122223333:function:App-Fn-1QWERTY",
            "Fn",
        ),
        ("AWS::Lambda::Function", "App-Fn-1QWERTY:live", "Fn"),
        // IAM role: name, ARN with its path, ARN without, assumed-role ARN, other case.
        ("AWS::IAM::Role", "App-Role-1ABCDEF", "Role"),
        (
            "AWS::IAM::Role",
            "arn:aws:iam::111122223333:role/service/App-Role-1ABCDEF",
            "Role",
        ),
        (
            "AWS::IAM::Role",
            "arn:aws:iam::111122223333:role/App-Role-1ABCDEF",
            "Role",
        ),
        (
            "AWS::IAM::Role",
            "arn:aws:sts::111122223333:assumed-role/App-Role-1ABCDEF/session",
            "Role",
        ),
        ("AWS::IAM::Role", "app-role-1abcdef", "Role"),
        (
            "AWS::IAM::ManagedPolicy",
            "arn:aws:iam::111122223333:policy/team/App-Managed-1Q",
            "Managed",
        ),
        ("AWS::IAM::ManagedPolicy", "App-Managed-1Q", "Managed"),
        // SNS: topic ARN, and a subscription ARN names its topic.
        (
            "AWS::SNS::Topic",
            "arn:aws:sns:eu-west-1:111122223333:App-Topic-1A",
            "Topic",
        ),
        (
            "AWS::SNS::Topic",
            "arn:aws:sns:eu-west-1:111122223333:App-Topic-1A:0f1e2d3c-aaaa-bbbb-cccc-111122223333",
            "Topic",
        ),
        (
            "AWS::SNS::Subscription",
            "arn:aws:sns:eu-west-1:111122223333:App-Topic-1A:0f1e2d3c-aaaa-bbbb-cccc-111122223333",
            "Sub",
        ),
        // Logs: name, ARN, ARN with ':*'.
        (
            "AWS::Logs::LogGroup",
            "/aws/lambda/App-Fn-1QWERTY",
            "LogGroup",
        ),
        (
            "AWS::Logs::LogGroup",
            "arn:aws:logs:eu-west-1:111122223333:log-group:/aws/lambda/App-Fn-1QWERTY",
            "LogGroup",
        ),
        (
            "AWS::Logs::LogGroup",
            "arn:aws:logs:eu-west-1:111122223333:log-group:/aws/lambda/App-Fn-1QWERTY:*",
            "LogGroup",
        ),
        // EventBridge: default-bus name and ARN; custom-bus name, ARN and physical id.
        ("AWS::Events::Rule", "App-Rule-1D", "Rule"),
        (
            "AWS::Events::Rule",
            "arn:aws:events:eu-west-1:111122223333:rule/App-Rule-1D",
            "Rule",
        ),
        ("AWS::Events::Rule", "App-BusRule-1E", "BusRule"),
        (
            "AWS::Events::Rule",
            "arn:aws:events:eu-west-1:111122223333:rule/app-bus/App-BusRule-1E",
            "BusRule",
        ),
        ("AWS::Events::Rule", "app-bus|App-BusRule-1E", "BusRule"),
        // S3: name and ARN (no region, no account).
        ("AWS::S3::Bucket", "app-bucket-1x2y", "Bucket"),
        ("AWS::S3::Bucket", "arn:aws:s3:::app-bucket-1x2y", "Bucket"),
        // KMS key id and ARN; alias name and ARN; DynamoDB name and ARN; SG id and ARN.
        (
            "AWS::KMS::Key",
            "1234abcd-12ab-34cd-56ef-1234567890ab",
            "Key",
        ),
        (
            "AWS::KMS::Key",
            "arn:aws:kms:eu-west-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab",
            "Key",
        ),
        ("AWS::KMS::Alias", "alias/app/key", "KeyAlias"),
        (
            "AWS::KMS::Alias",
            "arn:aws:kms:eu-west-1:111122223333:alias/app/key",
            "KeyAlias",
        ),
        (
            "AWS::DynamoDB::Table",
            "arn:aws:dynamodb:eu-west-1:111122223333:table/App-Table-1C",
            "Table",
        ),
        ("AWS::EC2::SecurityGroup", "sg-0123456789abcdef0", "Sg"),
        (
            "AWS::EC2::SecurityGroup",
            "arn:aws:ec2:eu-west-1:111122223333:security-group/sg-0123456789abcdef0",
            "Sg",
        ),
        // A type without identifier forms is found by its exact physical id.
        ("Custom::Thing", "2024/05/01/[$LATEST]abc", "Custom"),
    ];
    let mut failures = Vec::new();
    for (ty, id, want) in cases {
        let got = found(&ix, ty, id);
        if got != [*want] {
            failures.push(format!("{ty} {id}: got {got:?}, want {want}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn other_accounts_regions_and_near_names_find_nothing() {
    let ix = index();
    let none: &[(&str, &str)] = &[
        (
            "AWS::SQS::Queue",
            "arn:aws:sqs:us-east-1:111122223333:App-Queue-1B",
        ),
        (
            "AWS::SQS::Queue",
            "https://sqs.eu-west-1.amazonaws.com/999999999999/App-Queue-1B",
        ),
        (
            "AWS::Lambda::Function",
            "arn:aws:lambda:eu-west-1:999999999999:function:App-Fn-1QWERTY",
        ),
        ("AWS::Lambda::Function", "App-Fn-1QWERT"),
        (
            "AWS::IAM::Role",
            "arn:aws:iam::999999999999:role/App-Role-1ABCDEF",
        ),
        (
            "AWS::IAM::ManagedPolicy",
            "arn:aws:iam::aws:policy/App-Managed-1Q",
        ),
        (
            "AWS::SNS::Topic",
            "arn:aws:sns:eu-west-1:111122223333:App-Topic-1",
        ),
        ("AWS::Logs::LogGroup", "/aws/lambda/App-Fn"),
        ("AWS::S3::Bucket", "app-bucket"),
        ("AWS::KMS::Key", "alias/app/key"),
        ("AWS::EC2::SecurityGroup", "0123456789abcdef0"),
        // Case matters outside IAM.
        ("AWS::SQS::Queue", "app-queue-1b"),
    ];
    for (ty, id) in none {
        assert!(found(&ix, ty, id).is_empty(), "{ty} {id} matched");
    }
}

#[test]
fn rows_carry_their_forms_and_round_trip_as_json() {
    let ix = index();
    let row = |l: &str| ix.resources.iter().find(|r| r.logical_id == l).unwrap();
    assert_eq!(
        row("Queue").forms["arn"],
        "arn:aws:sqs:eu-west-1:111122223333:App-Queue-1B"
    );
    assert_eq!(row("Queue").forms["name"], "App-Queue-1B");
    assert_eq!(
        row("Queue").forms["url"],
        "https://sqs.eu-west-1.amazonaws.com/111122223333/App-Queue-1B"
    );
    assert_eq!(
        row("Fn").forms["arn"],
        "arn:aws:lambda:eu-west-1:111122223333:function:App-Fn-1QWERTY"
    );
    assert_eq!(row("Bucket").forms["arn"], "arn:aws:s3:::app-bucket-1x2y");
    assert_eq!(
        row("LogGroup").forms["arn"],
        "arn:aws:logs:eu-west-1:111122223333:log-group:/aws/lambda/App-Fn-1QWERTY"
    );
    assert_eq!(
        row("BusRule").forms["arn"],
        "arn:aws:events:eu-west-1:111122223333:rule/app-bus/App-BusRule-1E"
    );
    assert_eq!(row("BusRule").forms["name"], "App-BusRule-1E");
    // A role's ARN needs its path, which the physical id does not carry: not guessed.
    assert!(!row("Role").forms.contains_key("arn"));
    // A default-bus rule's ARN is not printed from a bare name (the bus is not known).
    assert!(!row("Rule").forms.contains_key("arn"));
    assert_eq!(
        row("RolePolicy").child_name.as_deref(),
        Some("RoleDefaultPolicy")
    );
    assert_eq!(
        row("FnPermission").child_name.as_deref(),
        Some("App-FnPermission-77")
    );
    assert_eq!(ix.object_key(), "index/111122223333.eu-west-1.json");
    let text = ix.to_json();
    let back = ResourceIndex::from_json("index/x.json", text.as_bytes()).unwrap();
    assert_eq!(back, ix);
    // Sorted rows, so the stored file diffs cleanly.
    let ids: Vec<_> = ix.resources.iter().map(|r| r.logical_id.as_str()).collect();
    let mut sorted = ids.clone();
    sorted.sort();
    assert_eq!(ids, sorted);
    let future = text.replace("\"schemaVersion\": 1", "\"schemaVersion\": 2");
    assert!(matches!(
        ResourceIndex::from_json("index/x.json", future.as_bytes()),
        Err(IndexError::Version { found: 2, .. })
    ));
    let err = ResourceIndex::from_json("index/111.eu-west-1.json", b"[]").unwrap_err();
    assert!(
        err.to_string().contains("index/111.eu-west-1.json"),
        "{err}"
    );
}

/// A CloudTrail record in the index's account and region.
fn accepted(source: &str, name: &str, req: Value, resp: Value, id: &str, time: &str) -> Accepted {
    accepted_in(source, name, req, resp, id, time, REGION)
}

fn accepted_in(
    source: &str,
    name: &str,
    req: Value,
    resp: Value,
    id: &str,
    time: &str,
    region: &str,
) -> Accepted {
    let r = json!({
        "eventSource": source, "eventName": name, "eventType": "AwsApiCall", "readOnly": false,
        "awsRegion": region, "recipientAccountId": ACCOUNT, "eventID": id, "eventTime": time,
        "userIdentity": {"type": "IAMUser", "arn": "arn:aws:iam::111122223333:user/alice"},
        "requestParameters": req, "responseElements": resp
    });
    let catalog = Catalog::bundled().unwrap();
    let e = parse_record(&serde_json::to_vec(&r).unwrap()).unwrap();
    match Screener::new(catalog, FilterConfig::new()).assess(&e) {
        Verdict::Accept(a) => *a,
        Verdict::Drop(d) => panic!("{name} dropped: {d:?}"),
    }
}

fn resolved(ix: &ResourceIndex, a: &Accepted) -> Vec<(String, HitRole)> {
    let catalog = Catalog::bundled().unwrap();
    ix.view(catalog)
        .resolve(&a.touch)
        .into_iter()
        .map(|h| (h.row.logical_id.clone(), h.role))
        .collect()
}

fn ids(v: &[(String, HitRole)]) -> Vec<&str> {
    v.iter().map(|(l, _)| l.as_str()).collect()
}

const T: &str = "2024-05-01T10:00:00Z";

#[test]
fn a_child_event_resolves_to_the_declared_child_or_else_the_parent() {
    let ix = index();
    let s3 = |bucket: &str| {
        accepted(
            "s3.amazonaws.com",
            "PutBucketPolicy",
            json!({"bucketName": bucket}),
            Value::Null,
            "e",
            T,
        )
    };
    // The stack declares the bucket's policy: that is what changed.
    assert_eq!(
        resolved(&ix, &s3("app-bucket-1x2y")),
        vec![("BucketPolicy".into(), HitRole::Child)]
    );
    // No declared policy: the bucket (its policy is out of band).
    assert_eq!(
        resolved(&ix, &s3("app-logs-9z")),
        vec![("Logs".into(), HitRole::Parent)]
    );
    // Lambda permission by statement id: declared one, else the function.
    let perm = |sid: &str| {
        accepted(
            "lambda.amazonaws.com",
            "AddPermission20150331v2",
            json!({"functionName": "App-Fn-1QWERTY", "statementId": sid, "action": "lambda:InvokeFunction", "principal": "*"}),
            Value::Null,
            "e",
            T,
        )
    };
    assert_eq!(
        ids(&resolved(&ix, &perm("App-FnPermission-77"))),
        ["FnPermission"]
    );
    assert_eq!(ids(&resolved(&ix, &perm("backdoor"))), ["Fn"]);
    // The function URL (no qualifier on either side); an alias by name.
    let url = accepted(
        "lambda.amazonaws.com",
        "UpdateFunctionUrlConfig",
        json!({"functionName": "arn:aws:lambda:eu-west-1:111122223333:function:App-Fn-1QWERTY", "authType": "NONE"}),
        Value::Null,
        "e",
        T,
    );
    assert_eq!(ids(&resolved(&ix, &url)), ["FnUrl"]);
    let alias = accepted(
        "lambda.amazonaws.com",
        "UpdateAlias20150331",
        json!({"functionName": "App-Fn-1QWERTY", "name": "live"}),
        Value::Null,
        "e",
        T,
    );
    assert_eq!(ids(&resolved(&ix, &alias)), ["FnAlias"]);
    let other_alias = accepted(
        "lambda.amazonaws.com",
        "DeleteAlias20150331",
        json!({"functionName": "App-Fn-1QWERTY", "name": "beta"}),
        Value::Null,
        "e",
        T,
    );
    assert_eq!(ids(&resolved(&ix, &other_alias)), ["Fn"]);
    // SNS: a declared subscription by ARN, an unknown one falls to its topic.
    let sub = |arn: &str| {
        accepted(
            "sns.amazonaws.com",
            "Unsubscribe",
            json!({"subscriptionArn": arn}),
            Value::Null,
            "e",
            T,
        )
    };
    assert_eq!(ids(&resolved(&ix, &sub("arn:aws:sns:eu-west-1:111122223333:App-Topic-1A:0f1e2d3c-aaaa-bbbb-cccc-111122223333"))), ["Sub"]);
    assert_eq!(ids(&resolved(&ix, &sub("arn:aws:sns:eu-west-1:111122223333:App-Topic-1A:99999999-0000-0000-0000-000000000000"))), ["Topic"]);
}

#[test]
fn inline_policies_and_attributes_re_read_child_and_parent() {
    let ix = index();
    // PutRolePolicy of the name an AWS::IAM::Policy declares: that policy and the role.
    let put = |name: &str| {
        accepted(
            "iam.amazonaws.com",
            "PutRolePolicy",
            json!({"roleName": "App-Role-1ABCDEF", "policyName": name, "policyDocument": "{}"}),
            Value::Null,
            "e",
            T,
        )
    };
    assert_eq!(
        resolved(&ix, &put("RoleDefaultPolicy")),
        vec![
            ("RolePolicy".into(), HitRole::Child),
            ("Role".into(), HitRole::Parent)
        ]
    );
    // A new inline policy: the role only.
    assert_eq!(ids(&resolved(&ix, &put("backdoor"))), ["Role"]);
    // Detaching a stack's managed policy: the ManagedPolicy and the role.
    let detach = accepted(
        "iam.amazonaws.com",
        "DetachRolePolicy",
        json!({"roleName": "App-Role-1ABCDEF", "policyArn": "arn:aws:iam::111122223333:policy/team/App-Managed-1Q"}),
        Value::Null,
        "e",
        T,
    );
    assert_eq!(ids(&resolved(&ix, &detach)), ["Managed", "Role"]);
    // SetQueueAttributes may change the policy or the queue: both.
    let attrs = accepted(
        "sqs.amazonaws.com",
        "SetQueueAttributes",
        json!({"queueUrl": "https://sqs.eu-west-1.amazonaws.com/111122223333/App-Queue-1B", "attributes": {"VisibilityTimeout": "60"}}),
        Value::Null,
        "e",
        T,
    );
    assert_eq!(ids(&resolved(&ix, &attrs)), ["QueuePolicy", "Queue"]);
    // Security group rules: the group and its standalone rules.
    let ingress = accepted(
        "ec2.amazonaws.com",
        "AuthorizeSecurityGroupIngress",
        json!({"groupId": "sg-0123456789abcdef0"}),
        Value::Null,
        "e",
        T,
    );
    assert_eq!(ids(&resolved(&ix, &ingress)), ["SgIngress", "Sg"]);
}

#[test]
fn an_unresolved_parent_is_an_extra_read_never_a_missed_one() {
    let mut rows = stack_resources();
    rows.push((
        "Unknown",
        "AWS::S3::BucketPolicy",
        "App-Unknown-1",
        json!({"Bucket": {"Fn::ImportValue": "x"}}),
    ));
    let catalog = Catalog::bundled().unwrap();
    let decls: Vec<_> = rows.iter().map(|r| declared(&r.3)).collect();
    let mut ix = ResourceIndex::new(ACCOUNT, REGION);
    for ((l, t, p, _), d) in rows.iter().zip(&decls) {
        let mut d = d.clone();
        if *l == "Unknown" {
            d.insert("Bucket".into(), DeclaredValue::Unresolved);
        }
        ix.add(
            catalog,
            IndexInput {
                stack: "App",
                logical_id: l,
                resource_type: t,
                physical_id: p,
                declared: &d,
            },
        );
    }
    let put = accepted(
        "s3.amazonaws.com",
        "PutBucketPolicy",
        json!({"bucketName": "app-logs-9z"}),
        Value::Null,
        "e",
        T,
    );
    // It might be the logs bucket's policy: re-read it, and the bucket too.
    assert_eq!(ids(&resolved(&ix, &put)), ["Unknown", "Logs"]);
}

#[test]
fn a_batch_coalesces_per_resource_latest_cause_first() {
    let catalog = Catalog::bundled().unwrap();
    let ix = index();
    let q_url = "https://sqs.eu-west-1.amazonaws.com/111122223333/App-Queue-1B";
    let batch = vec![
        accepted(
            "sqs.amazonaws.com",
            "TagQueue",
            json!({"queueUrl": q_url, "tags": {"a": "b"}}),
            Value::Null,
            "e1",
            "2024-05-01T10:00:01Z",
        ),
        accepted(
            "sqs.amazonaws.com",
            "UntagQueue",
            json!({"queueUrl": q_url, "tagKeys": ["a"]}),
            Value::Null,
            "e2",
            "2024-05-01T10:00:01.250Z",
        ),
        // SQS at-least-once: the same event twice gives one cause.
        accepted(
            "sqs.amazonaws.com",
            "UntagQueue",
            json!({"queueUrl": q_url, "tagKeys": ["a"]}),
            Value::Null,
            "e2",
            "2024-05-01T10:00:01.250Z",
        ),
        accepted(
            "lambda.amazonaws.com",
            "UpdateFunctionConfiguration20150331v2",
            json!({"functionName": "arn:aws:lambda:eu-west-1:111122223333:function:App-Fn-1QWERTY:live", "timeout": 3}),
            Value::Null,
            "e3",
            "2024-05-01T09:59:59Z",
        ),
        accepted(
            "lambda.amazonaws.com",
            "PutFunctionConcurrency20171031",
            json!({"functionName": "App-Fn-1QWERTY", "reservedConcurrentExecutions": 5}),
            Value::Null,
            "e4",
            "2024-05-01T10:00:00Z",
        ),
        accepted(
            "s3.amazonaws.com",
            "PutBucketTagging",
            json!({"bucketName": "not-in-any-stack"}),
            Value::Null,
            "e5",
            T,
        ),
    ];
    let out = coalesce(&batch, &[ix.view(catalog)]);
    let summary: Vec<(String, Vec<String>)> = out
        .resources
        .iter()
        .map(|t| {
            (
                t.resource.logical_id.clone(),
                t.causes
                    .iter()
                    .map(|c| c.event_id.clone().unwrap())
                    .collect(),
            )
        })
        .collect();
    assert_eq!(
        summary,
        vec![
            ("Fn".to_string(), vec!["e4".to_string(), "e3".to_string()]),
            (
                "Queue".to_string(),
                vec!["e2".to_string(), "e1".to_string()]
            ),
        ]
    );
    assert_eq!(out.unmatched.len(), 1);
    assert_eq!(out.unmatched[0].event_id.as_deref(), Some("e5"));
    let json = serde_json::to_value(&out).unwrap();
    assert_eq!(json["resources"][1]["resource"]["physicalId"], q_url);
    assert_eq!(json["resources"][1]["causes"][0]["eventName"], "UntagQueue");
}

#[test]
fn a_global_call_is_resolved_in_every_region_of_its_account() {
    let catalog = Catalog::bundled().unwrap();
    let eu = index();
    let mut us = ResourceIndex::new(ACCOUNT, "us-east-1");
    let empty = BTreeMap::new();
    us.add(
        catalog,
        IndexInput {
            stack: "Us",
            logical_id: "UsRole",
            resource_type: "AWS::IAM::Role",
            physical_id: "Us-Role",
            declared: &empty,
        },
    );
    let mut other = ResourceIndex::new("999999999999", REGION);
    other.add(
        catalog,
        IndexInput {
            stack: "X",
            logical_id: "Same",
            resource_type: "AWS::IAM::Role",
            physical_id: "App-Role-1ABCDEF",
            declared: &empty,
        },
    );
    let iam = accepted_in(
        "iam.amazonaws.com",
        "TagRole",
        json!({"roleName": "App-Role-1ABCDEF", "tags": []}),
        Value::Null,
        "g1",
        T,
        "us-east-1",
    );
    assert!(iam.touch.global);
    let views = [eu.view(catalog), us.view(catalog), other.view(catalog)];
    let out = coalesce(std::slice::from_ref(&iam), &views);
    let got: Vec<_> = out
        .resources
        .iter()
        .map(|t| (t.resource.region.as_str(), t.resource.logical_id.as_str()))
        .collect();
    assert_eq!(got, [("eu-west-1", "Role")]);
    // A regional call is resolved in its own region only.
    let q = accepted_in(
        "sqs.amazonaws.com",
        "TagQueue",
        json!({"queueUrl": "https://sqs.us-east-1.amazonaws.com/111122223333/App-Queue-1B"}),
        Value::Null,
        "r1",
        T,
        "us-east-1",
    );
    let out = coalesce(std::slice::from_ref(&q), &views);
    assert!(out.resources.is_empty());
    assert_eq!(out.unmatched.len(), 1);
}
