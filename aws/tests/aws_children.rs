//! Child enumerators through the SDK (mocked): SNS subscriptions (paged) and
//! topic policy, Lambda URLs / aliases / statements, EventBridge rules, S3 and
//! SQS policies set while the template declares none, a secret's rotation.

mod aws_support;

use aws_sdk_elasticloadbalancingv2::operation::describe_listeners::DescribeListenersOutput;
use aws_sdk_elasticloadbalancingv2::operation::describe_rules::DescribeRulesOutput;
use aws_sdk_elasticloadbalancingv2::types::{Listener, Rule as ElbRule};
use aws_sdk_elasticloadbalancingv2::Client as Elbv2;
use aws_sdk_eventbridge::operation::list_rules::ListRulesOutput;
use aws_sdk_eventbridge::types::Rule as EbRule;
use aws_sdk_eventbridge::Client as Eb;
use aws_sdk_lambda::operation::get_policy::GetPolicyOutput;
use aws_sdk_lambda::operation::list_aliases::ListAliasesOutput;
use aws_sdk_lambda::operation::list_function_url_configs::ListFunctionUrlConfigsOutput;
use aws_sdk_lambda::types::{AliasConfiguration, FunctionUrlAuthType, FunctionUrlConfig};
use aws_sdk_lambda::Client as Lambda;
use aws_sdk_s3::operation::get_bucket_policy::GetBucketPolicyOutput;
use aws_sdk_s3::Client as S3;
use aws_sdk_secretsmanager::operation::describe_secret::DescribeSecretOutput;
use aws_sdk_secretsmanager::types::RotationRulesType;
use aws_sdk_secretsmanager::Client as Secrets;
use aws_sdk_sns::operation::get_topic_attributes::GetTopicAttributesOutput;
use aws_sdk_sns::operation::list_subscriptions_by_topic::ListSubscriptionsByTopicOutput;
use aws_sdk_sns::types::Subscription;
use aws_sdk_sns::Client as Sns;
use aws_sdk_sqs::operation::get_queue_attributes::GetQueueAttributesOutput;
use aws_sdk_sqs::types::QueueAttributeName;
use aws_sdk_sqs::Client as Sqs;
use aws_smithy_mocks::mock;
use aws_support::clients;
use realdrift_aws::AwsChildEnumerator;
use realdrift_core::pipeline::{ChildEnumerator, ChildQuery, DeclaredResource};
use realdrift_core::DeclaredValue;
use serde_json::{json, Value};

const TOPIC: &str = "arn:aws:sns:us-east-1:111111111111:t";

fn declared(t: &str, pid: &str, props: Value) -> DeclaredResource {
    let Value::Object(m) = props else { panic!() };
    DeclaredResource {
        logical_id: format!("L-{pid}"),
        resource_type: t.into(),
        physical_id: Some(pid.into()),
        declared: m
            .iter()
            .map(|(k, v)| (k.clone(), DeclaredValue::from_json(v)))
            .collect(),
        references: Default::default(),
    }
}

fn query(
    parent_type: &str,
    pid: &str,
    model: Value,
    declared: Vec<DeclaredResource>,
) -> ChildQuery {
    ChildQuery {
        parent_logical_id: "Parent".into(),
        parent_type: parent_type.into(),
        parent_physical_id: pid.into(),
        parent_model: model,
        declared: declared.into(),
        account_id: Some("111111111111".into()),
        region: Some("us-east-1".into()),
        partition: Some("aws".into()),
    }
}

fn sub(arn: &str, endpoint: &str) -> Subscription {
    Subscription::builder()
        .subscription_arn(arn)
        .protocol("sqs")
        .endpoint(endpoint)
        .topic_arn(TOPIC)
        .build()
}

fn default_topic_policy() -> String {
    json!({"Version": "2008-10-17", "Id": "__default_policy_ID", "Statement": [{
        "Sid": "__default_statement_ID", "Effect": "Allow", "Principal": {"AWS": "*"},
        "Action": ["SNS:Publish", "SNS:GetTopicAttributes", "SNS:SetTopicAttributes", "SNS:AddPermission",
                   "SNS:RemovePermission", "SNS:DeleteTopic", "SNS:Subscribe", "SNS:ListSubscriptionsByTopic"],
        "Resource": TOPIC, "Condition": {"StringEquals": {"AWS:SourceOwner": "111111111111"}}}]})
    .to_string()
}

#[tokio::test]
async fn sns_subscriptions_across_pages_and_a_default_policy() {
    let list = mock!(Sns::list_subscriptions_by_topic)
        .sequence()
        .output(|| {
            ListSubscriptionsByTopicOutput::builder()
                .subscriptions(sub(&format!("{TOPIC}:declared"), "arn:q1"))
                .next_token("p2")
                .build()
        })
        .output(|| {
            ListSubscriptionsByTopicOutput::builder()
                .subscriptions(sub(&format!("{TOPIC}:rogue"), "arn:evil"))
                .subscriptions(sub("PendingConfirmation", "arn:x"))
                .build()
        })
        .build();
    let policy = mock!(Sns::get_topic_attributes).then_output(|| {
        GetTopicAttributesOutput::builder()
            .attributes("Policy", default_topic_policy())
            .build()
    });
    let c = clients(&[&list, &policy]);
    let e = AwsChildEnumerator::new(c.clone());
    let q = query(
        "AWS::SNS::Topic",
        TOPIC,
        json!({}),
        vec![declared(
            "AWS::SNS::Subscription",
            &format!("{TOPIC}:declared"),
            json!({}),
        )],
    );
    let out = e.enumerate(&q).await.unwrap();
    assert_eq!(out.len(), 2, "{out:?}");
    assert_eq!(out[0].resource_type, "AWS::SNS::Subscription");
    assert_eq!(out[0].identifier, format!("{TOPIC}:rogue"));
    assert!(
        out[0].model.is_none(),
        "subscriptions are read in full through Cloud Control"
    );
    // One pending confirmation: reported with what the listing shows.
    assert_eq!(out[1].identifier, "PendingConfirmation:sqs:arn:x");
    assert_eq!(out[1].model.as_ref().unwrap()["Endpoint"], "arn:x");
    let calls = c.counter.snapshot();
    assert_eq!(calls.get("sns:ListSubscriptionsByTopic"), Some(&2));
    assert_eq!(calls.get("sns:GetTopicAttributes"), Some(&1));
}

#[tokio::test]
async fn an_sns_policy_set_out_of_band_is_a_child_unless_declared() {
    let list = mock!(Sns::list_subscriptions_by_topic)
        .then_output(|| ListSubscriptionsByTopicOutput::builder().build());
    let policy = mock!(Sns::get_topic_attributes).then_output(|| {
        GetTopicAttributesOutput::builder()
            .attributes("Policy", json!({"Statement": [{"Effect": "Allow", "Principal": "*", "Action": "SNS:Publish"}]}).to_string())
            .build()
    });
    let c = clients(&[&list, &policy]);
    let e = AwsChildEnumerator::new(c.clone());
    let out = e
        .enumerate(&query("AWS::SNS::Topic", TOPIC, json!({}), vec![]))
        .await
        .unwrap();
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].resource_type, "AWS::SNS::TopicPolicy");
    assert_eq!(out[0].model.as_ref().unwrap()["Topics"], json!([TOPIC]));
    // A declared TopicPolicy on this topic is compared by its reader instead.
    let declared_policy = declared("AWS::SNS::TopicPolicy", "pol", json!({"Topics": [TOPIC]}));
    let out = e
        .enumerate(&query(
            "AWS::SNS::Topic",
            TOPIC,
            json!({}),
            vec![declared_policy],
        ))
        .await
        .unwrap();
    assert!(out.is_empty());
    assert_eq!(
        c.counter.snapshot().get("sns:GetTopicAttributes"),
        Some(&1),
        "no policy read when declared"
    );
}

#[tokio::test]
async fn lambda_urls_aliases_and_statements() {
    let fn_arn = "arn:aws:lambda:us-east-1:111111111111:function:fn";
    let urls = mock!(Lambda::list_function_url_configs).then_output(move || {
        ListFunctionUrlConfigsOutput::builder()
            .function_url_configs(
                FunctionUrlConfig::builder()
                    .function_url("https://u.lambda-url")
                    .function_arn(fn_arn)
                    .auth_type(FunctionUrlAuthType::None)
                    .creation_time("t")
                    .last_modified_time("t")
                    .build()
                    .unwrap(),
            )
            .build()
            .unwrap()
    });
    let aliases = mock!(Lambda::list_aliases).then_output(move || {
        ListAliasesOutput::builder()
            .aliases(
                AliasConfiguration::builder()
                    .alias_arn(format!("{fn_arn}:live"))
                    .name("live")
                    .build(),
            )
            .aliases(
                AliasConfiguration::builder()
                    .alias_arn(format!("{fn_arn}:rogue"))
                    .name("rogue")
                    .build(),
            )
            .build()
    });
    let policy = mock!(Lambda::get_policy).then_output(|| {
        GetPolicyOutput::builder()
            .policy(json!({"Statement": [
                {"Sid": "App-Perm", "Effect": "Allow", "Principal": {"Service": "sns.amazonaws.com"}, "Action": "lambda:InvokeFunction"},
                {"Sid": "FunctionURLAllowPublicAccess", "Effect": "Allow", "Principal": "*", "Action": "lambda:InvokeFunctionUrl",
                 "Condition": {"StringEquals": {"lambda:FunctionUrlAuthType": "NONE"}}}]}).to_string())
            .build()
    });
    let c = clients(&[&urls, &aliases, &policy]);
    let q = query(
        "AWS::Lambda::Function",
        "fn",
        json!({"Arn": fn_arn}),
        vec![
            declared(
                "AWS::Lambda::Alias",
                &format!("{fn_arn}:live"),
                json!({"Name": "live", "FunctionName": "fn"}),
            ),
            declared(
                "AWS::Lambda::Permission",
                "App-Perm",
                json!({"FunctionName": "fn"}),
            ),
        ],
    );
    let out = AwsChildEnumerator::new(c).enumerate(&q).await.unwrap();
    let got: Vec<(&str, &str)> = out
        .iter()
        .map(|c| (c.resource_type.as_str(), c.identifier.as_str()))
        .collect();
    assert_eq!(
        got,
        vec![
            ("AWS::Lambda::Url", fn_arn),
            (
                "AWS::Lambda::Alias",
                "arn:aws:lambda:us-east-1:111111111111:function:fn:rogue"
            ),
            ("AWS::Lambda::Permission", "fn|FunctionURLAllowPublicAccess"),
        ]
    );
    let perm = out[2].model.as_ref().unwrap();
    assert_eq!(perm["FunctionUrlAuthType"], json!("NONE"));
    assert_eq!(perm["Principal"], json!("*"));
}

#[tokio::test]
async fn event_bus_rules_skip_declared_and_managed() {
    let rules = mock!(Eb::list_rules)
        .match_requests(|r| r.event_bus_name() == Some("bus"))
        .then_output(|| {
            ListRulesOutput::builder()
                .rules(
                    EbRule::builder()
                        .name("mine")
                        .arn("arn:aws:events:us-east-1:1:rule/bus/mine")
                        .build(),
                )
                .rules(
                    EbRule::builder()
                        .name("svc")
                        .arn("arn:aws:events:us-east-1:1:rule/bus/svc")
                        .managed_by("x.amazonaws.com")
                        .build(),
                )
                .rules(
                    EbRule::builder()
                        .name("rogue")
                        .arn("arn:aws:events:us-east-1:1:rule/bus/rogue")
                        .build(),
                )
                .build()
        });
    let c = clients(&[&rules]);
    let q = query(
        "AWS::Events::EventBus",
        "bus",
        json!({}),
        vec![declared("AWS::Events::Rule", "bus|mine", json!({}))],
    );
    let out = AwsChildEnumerator::new(c).enumerate(&q).await.unwrap();
    assert_eq!(out.len(), 1);
    assert_eq!(
        out[0].identifier,
        "arn:aws:events:us-east-1:1:rule/bus/rogue"
    );
}

#[tokio::test]
async fn bucket_and_queue_policies_without_a_declared_one() {
    let bp = mock!(S3::get_bucket_policy).then_output(|| {
        GetBucketPolicyOutput::builder()
            .policy("{\"Statement\":[]}")
            .build()
    });
    let qp = mock!(Sqs::get_queue_attributes).then_output(|| {
        GetQueueAttributesOutput::builder()
            .attributes(QueueAttributeName::Policy, "{\"Statement\":[]}")
            .build()
    });
    let c = clients(&[&bp, &qp]);
    let e = AwsChildEnumerator::new(c.clone());
    let b = e
        .enumerate(&query("AWS::S3::Bucket", "bkt", json!({}), vec![]))
        .await
        .unwrap();
    assert_eq!(b.len(), 1);
    assert_eq!(
        b[0].model.as_ref().unwrap(),
        &json!({"Bucket": "bkt", "PolicyDocument": {"Statement": []}})
    );
    let declared_bp = declared("AWS::S3::BucketPolicy", "bkt", json!({"Bucket": "bkt"}));
    assert!(e
        .enumerate(&query(
            "AWS::S3::Bucket",
            "bkt",
            json!({}),
            vec![declared_bp]
        ))
        .await
        .unwrap()
        .is_empty());
    let q = e
        .enumerate(&query("AWS::SQS::Queue", "https://q", json!({}), vec![]))
        .await
        .unwrap();
    assert_eq!(q.len(), 1);
    assert_eq!(q[0].resource_type, "AWS::SQS::QueuePolicy");
    assert_eq!(q[0].identifier, "https://q");
    assert_eq!(
        c.counter.snapshot().get("s3:GetBucketPolicy"),
        Some(&1),
        "declared policy: no enumeration call"
    );
}

#[tokio::test]
async fn an_unresolved_policy_target_hides_only_the_parent_it_refers_to() {
    let qp = mock!(Sqs::get_queue_attributes).then_output(|| {
        GetQueueAttributesOutput::builder()
            .attributes(QueueAttributeName::Policy, "{\"Statement\":[]}")
            .build()
    });
    let c = clients(&[&qp]);
    let e = AwsChildEnumerator::new(c.clone());
    // A declared queue policy whose Queues did not resolve, written as
    // `Queues: [{"Fn::GetAtt": ["Parent", "QueueUrl"]}]`.
    let mut policy = declared("AWS::SQS::QueuePolicy", "qp", json!({}));
    policy.declared.insert(
        "Queues".into(),
        DeclaredValue::Array(vec![DeclaredValue::Unresolved]),
    );
    policy.references.insert(
        "Queues".into(),
        std::collections::BTreeSet::from(["Parent".to_string()]),
    );
    let mut its_parent = query(
        "AWS::SQS::Queue",
        "https://q",
        json!({}),
        vec![policy.clone()],
    );
    assert!(
        e.enumerate(&its_parent).await.unwrap().is_empty(),
        "its own queue: the policy's reader owns it"
    );
    // Another queue of the stack: its live policy is still out of band.
    its_parent.parent_logical_id = "OtherQueue".into();
    its_parent.parent_physical_id = "https://other".into();
    let other = e.enumerate(&its_parent).await.unwrap();
    assert_eq!(other.len(), 1, "{other:?}");
    assert_eq!(other[0].identifier, "https://other");
}

const ALB: &str =
    "arn:aws:elasticloadbalancing:us-east-1:111111111111:loadbalancer/app/web/50dc6c495c0c9188";
const HTTPS: &str = "arn:aws:elasticloadbalancing:us-east-1:111111111111:listener/app/web/50dc6c495c0c9188/f2f7dc8efc522ab2";
const HTTP: &str = "arn:aws:elasticloadbalancing:us-east-1:111111111111:listener/app/web/50dc6c495c0c9188/0467ef3c8400ae65";

#[tokio::test]
async fn a_listener_opened_on_a_load_balancer_out_of_band_is_added() {
    // Two pages: the declared HTTPS listener, then a console-made HTTP one.
    let first = mock!(Elbv2::describe_listeners)
        .match_requests(|r| r.load_balancer_arn() == Some(ALB) && r.marker().is_none())
        .then_output(|| {
            DescribeListenersOutput::builder()
                .listeners(Listener::builder().listener_arn(HTTPS).port(443).build())
                .next_marker("m1")
                .build()
        });
    let second = mock!(Elbv2::describe_listeners)
        .match_requests(|r| r.marker() == Some("m1"))
        .then_output(|| {
            DescribeListenersOutput::builder()
                .listeners(Listener::builder().listener_arn(HTTP).port(80).build())
                .build()
        });
    let q = query(
        "AWS::ElasticLoadBalancingV2::LoadBalancer",
        ALB,
        json!({}),
        vec![declared(
            "AWS::ElasticLoadBalancingV2::Listener",
            HTTPS,
            json!({"LoadBalancerArn": ALB, "Port": 443}),
        )],
    );
    let out = AwsChildEnumerator::new(clients(&[&first, &second]))
        .enumerate(&q)
        .await
        .unwrap();
    assert_eq!(out.len(), 1);
    assert_eq!(
        out[0].resource_type,
        "AWS::ElasticLoadBalancingV2::Listener"
    );
    assert_eq!(out[0].identifier, HTTP);
    // Read in full by Cloud Control; another stack's listener is not ours.
    assert_eq!(out[0].model, None);
    assert_eq!(out[0].owner_lookup_id.as_deref(), Some(HTTP));
}

#[tokio::test]
async fn a_listener_rule_added_out_of_band_is_added_and_the_default_rule_is_not() {
    let rule = |arn: &str, default: bool| {
        ElbRule::builder()
            .rule_arn(arn)
            .priority(if default { "default" } else { "10" })
            .is_default(default)
            .build()
    };
    let declared_rule = format!("{HTTPS}/rule/aa").replace(":listener/", ":listener-rule/");
    let rogue = format!("{HTTPS}/rule/bb").replace(":listener/", ":listener-rule/");
    let (d, r) = (declared_rule.clone(), rogue.clone());
    let rules = mock!(Elbv2::describe_rules)
        .match_requests(|r| r.listener_arn() == Some(HTTPS))
        .then_output(move || {
            DescribeRulesOutput::builder()
                .rules(rule("default-rule", true))
                .rules(rule(&d, false))
                .rules(rule(&r, false))
                .build()
        });
    let q = query(
        "AWS::ElasticLoadBalancingV2::Listener",
        HTTPS,
        json!({}),
        vec![declared(
            "AWS::ElasticLoadBalancingV2::ListenerRule",
            &declared_rule,
            json!({"ListenerArn": HTTPS, "Priority": 10}),
        )],
    );
    let out = AwsChildEnumerator::new(clients(&[&rules]))
        .enumerate(&q)
        .await
        .unwrap();
    let ids: Vec<&str> = out.iter().map(|c| c.identifier.as_str()).collect();
    assert_eq!(ids, vec![rogue.as_str()]);
    assert_eq!(
        out[0].resource_type,
        "AWS::ElasticLoadBalancingV2::ListenerRule"
    );
}

const SECRET: &str = "arn:aws:secretsmanager:us-east-1:111111111111:secret:db-AbCdEf";

#[tokio::test]
async fn rotation_turned_on_out_of_band_is_added_unless_a_schedule_is_declared() {
    let on = mock!(Secrets::describe_secret)
        .match_requests(|r| r.secret_id() == Some(SECRET))
        .then_output(|| {
            DescribeSecretOutput::builder()
                .arn(SECRET)
                .rotation_enabled(true)
                .rotation_lambda_arn("arn:aws:lambda:us-east-1:222222222222:function:rot")
                .rotation_rules(
                    RotationRulesType::builder()
                        .automatically_after_days(7)
                        .build(),
                )
                .build()
        });
    let c = clients(&[&on]);
    let e = AwsChildEnumerator::new(c.clone());
    let parent = "AWS::SecretsManager::Secret";
    let out = e
        .enumerate(&query(parent, SECRET, json!({}), vec![]))
        .await
        .unwrap();
    assert_eq!(out.len(), 1);
    assert_eq!(
        out[0].resource_type,
        "AWS::SecretsManager::RotationSchedule"
    );
    assert_eq!(
        out[0].model.as_ref().unwrap(),
        &json!({
            "SecretId": SECRET,
            "RotationLambdaARN": "arn:aws:lambda:us-east-1:222222222222:function:rot",
            "RotationRules": {"AutomaticallyAfterDays": 7}
        })
    );
    // The stack's own schedule for the secret: nothing added, no call made.
    let schedule = declared(
        "AWS::SecretsManager::RotationSchedule",
        SECRET,
        json!({"SecretId": SECRET}),
    );
    let q = query(parent, SECRET, json!({}), vec![schedule]);
    assert!(e.enumerate(&q).await.unwrap().is_empty());
    let calls = c.counter.snapshot();
    let describes: u64 = calls
        .iter()
        .filter(|(k, _)| k.ends_with(":DescribeSecret"))
        .map(|(_, n)| n)
        .sum();
    assert_eq!(describes, 1, "{calls:?}");
}

#[tokio::test]
async fn rotation_off_or_a_gone_secret_adds_nothing_and_a_refusal_is_an_error() {
    let off = mock!(Secrets::describe_secret)
        .match_requests(|r| r.secret_id() == Some("off"))
        .then_output(|| {
            DescribeSecretOutput::builder()
                .rotation_enabled(false)
                .rotation_rules(
                    RotationRulesType::builder()
                        .automatically_after_days(30)
                        .build(),
                )
                .build()
        });
    let gone = mock!(Secrets::describe_secret)
        .match_requests(|r| r.secret_id() == Some("gone"))
        .then_http_response(|| {
            aws_support::json_error(400, "ResourceNotFoundException", "not found")
        });
    let denied = mock!(Secrets::describe_secret)
        .match_requests(|r| r.secret_id() == Some("denied"))
        .then_http_response(|| aws_support::json_error(400, "AccessDeniedException", "no"));
    let e = AwsChildEnumerator::new(clients(&[&off, &gone, &denied]));
    let parent = "AWS::SecretsManager::Secret";
    for id in ["off", "gone"] {
        let out = e
            .enumerate(&query(parent, id, json!({}), vec![]))
            .await
            .unwrap();
        assert!(out.is_empty(), "{id}: {out:?}");
    }
    let err = e
        .enumerate(&query(parent, "denied", json!({}), vec![]))
        .await
        .unwrap_err();
    assert!(
        err.to_string()
            .contains("secretsmanager:DescribeSecret on denied"),
        "{err}"
    );
}
