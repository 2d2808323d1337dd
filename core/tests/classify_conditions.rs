//! A value folds only where what the template declares explains it: an
//! observed default holds under the condition it was seen under (log class,
//! stream mode, event source, check type, scheduler, shard count, job kind),
//! and a value read back in another form folds only while it still equals
//! the declared one. Each case pairs the folding value with the same value
//! under another condition, where it is a real change that must surface.

mod classify_support;

use classify_support::resource_with_id;
use realdrift_core::classify::{classify, ClassifyContext};
use realdrift_core::schema::SchemaFacts;
use realdrift_core::{Finding, Tier};
use serde_json::{json, Value};

fn classify_in(t: &str, declared: Value, live: Value, schema: &SchemaFacts) -> Vec<Finding> {
    let ctx = ClassifyContext {
        account_id: Some("123456789012".into()),
        region: Some("eu-west-1".into()),
        stack_name: Some("Stack".into()),
        ..ClassifyContext::default()
    };
    classify(
        &resource_with_id(t, "res-0123", &declared),
        &live,
        schema,
        &ctx,
    )
}

/// The tier of the finding at `path`, if any.
fn tier_at(t: &str, declared: Value, live: Value, path: &str) -> Option<Tier> {
    classify_in(t, declared, live, &SchemaFacts::default())
        .into_iter()
        .find(|f| f.path == path)
        .map(|f| f.tier)
}

/// Asserts `path` folds under `holds` and surfaces under `other`.
fn folds_only_under(t: &str, path: &str, holds: (Value, Value), other: (Value, Value)) {
    assert_eq!(
        tier_at(t, holds.0, holds.1, path),
        Some(Tier::AtDefault),
        "{t} {path} under its condition"
    );
    assert_eq!(
        tier_at(t, other.0, other.1, path),
        Some(Tier::Undeclared),
        "{t} {path} outside its condition"
    );
}

#[test]
fn a_short_retention_is_the_default_of_the_delivery_log_class_only() {
    let t = "AWS::Logs::LogGroup";
    folds_only_under(
        t,
        "RetentionInDays",
        (
            json!({"LogGroupClass": "DELIVERY"}),
            json!({"LogGroupClass": "DELIVERY", "RetentionInDays": 2}),
        ),
        (
            json!({"LogGroupClass": "STANDARD"}),
            json!({"LogGroupClass": "STANDARD", "RetentionInDays": 2}),
        ),
    );
}

#[test]
fn four_shards_are_the_start_of_an_on_demand_stream_only() {
    let mode = |m: &str| json!({"StreamModeDetails": {"StreamMode": m}});
    let live = |m: &str| json!({"StreamModeDetails": {"StreamMode": m}, "ShardCount": 4});
    folds_only_under(
        "AWS::Kinesis::Stream",
        "ShardCount",
        (mode("ON_DEMAND"), live("ON_DEMAND")),
        (mode("PROVISIONED"), live("PROVISIONED")),
    );
}

#[test]
fn an_event_source_batch_default_follows_the_kind_of_source() {
    let arn = |a: &str| json!({"EventSourceArn": a, "FunctionName": "fn"});
    let live = |a: &str| json!({"EventSourceArn": a, "FunctionName": "fn", "BatchSize": 100});
    let stream = "arn:aws:kinesis:eu-west-1:123456789012:stream/clicks";
    let queue = "arn:aws:sqs:eu-west-1:123456789012:jobs";
    // An SQS mapping defaults to 10: 100 there is someone's change.
    folds_only_under(
        "AWS::Lambda::EventSourceMapping",
        "BatchSize",
        (arn(stream), live(stream)),
        (arn(queue), live(queue)),
    );
}

#[test]
fn port_80_is_the_default_of_an_http_health_check_only() {
    let check = |t: &str| json!({"HealthCheckConfig": {"Type": t, "FullyQualifiedDomainName": "shop.example.org"}});
    let live = |t: &str| json!({"HealthCheckConfig": {"Type": t, "FullyQualifiedDomainName": "shop.example.org", "Port": 80}});
    folds_only_under(
        "AWS::Route53::HealthCheck",
        "HealthCheckConfig.Port",
        (check("HTTP"), live("HTTP")),
        (check("HTTPS"), live("HTTPS")),
    );
}

#[test]
fn rolling_percentages_are_the_replica_schedulers_defaults_only() {
    let svc = |s: &str| json!({"Cluster": "c", "SchedulingStrategy": s, "TaskDefinition": "td"});
    let live = |s: &str| {
        json!({"Cluster": "c", "SchedulingStrategy": s, "TaskDefinition": "td",
               "DeploymentConfiguration": {"MaximumPercent": 200, "MinimumHealthyPercent": 100}})
    };
    folds_only_under(
        "AWS::ECS::Service",
        "DeploymentConfiguration.MinimumHealthyPercent",
        (
            json!({"Cluster": "c", "TaskDefinition": "td", "DeploymentConfiguration": {"MaximumPercent": 200}}),
            live("REPLICA"),
        ),
        (
            json!({"Cluster": "c", "SchedulingStrategy": "DAEMON", "TaskDefinition": "td", "DeploymentConfiguration": {"MaximumPercent": 200}}),
            live("DAEMON"),
        ),
    );
    // The whole block left undeclared: the same split.
    assert_eq!(
        tier_at(
            "AWS::ECS::Service",
            svc("DAEMON"),
            json!({"Cluster": "c", "SchedulingStrategy": "DAEMON", "TaskDefinition": "td",
                   "DeploymentConfiguration": {"BakeTimeInMinutes": 0, "Strategy": "ROLLING",
                     "DeploymentCircuitBreaker": {"Enable": false, "Rollback": false},
                     "MaximumPercent": 200, "MinimumHealthyPercent": 100}}),
            "DeploymentConfiguration"
        ),
        Some(Tier::Undeclared)
    );
}

#[test]
fn automatic_failover_is_the_default_of_a_multi_shard_group_only() {
    let group = |n: u64| json!({"CacheNodeType": "cache.t4g.small", "Engine": "valkey", "NumNodeGroups": n, "ReplicationGroupDescription": "d"});
    let live = |n: u64| json!({"CacheNodeType": "cache.t4g.small", "Engine": "valkey", "NumNodeGroups": n, "ReplicationGroupDescription": "d", "AutomaticFailoverEnabled": true});
    // Seven shards: a count the recorded groups never had.
    folds_only_under(
        "AWS::ElastiCache::ReplicationGroup",
        "AutomaticFailoverEnabled",
        (group(7), live(7)),
        (group(1), live(1)),
    );
}

#[test]
fn spark_capacity_is_not_the_default_of_a_python_shell_job() {
    let job = |k: &str| json!({"Command": {"Name": k, "ScriptLocation": "s3://scripts/job.py"}, "Role": "r"});
    let live = |k: &str| json!({"Command": {"Name": k, "ScriptLocation": "s3://scripts/job.py"}, "Role": "r", "MaxCapacity": 10});
    folds_only_under(
        "AWS::Glue::Job",
        "MaxCapacity",
        (job("gluestreaming"), live("gluestreaming")),
        (job("pythonshell"), live("pythonshell")),
    );
}

#[test]
fn a_python_version_seen_on_spark_jobs_is_not_a_python_shell_default() {
    let job = |k: &str| json!({"Command": {"Name": k, "ScriptLocation": "s3://scripts/job.py"}, "Role": "r"});
    let live = |k: &str| json!({"Command": {"Name": k, "ScriptLocation": "s3://scripts/job.py", "PythonVersion": "2"}, "Role": "r"});
    folds_only_under(
        "AWS::Glue::Job",
        "Command.PythonVersion",
        (job("glueetl"), live("glueetl")),
        (job("pythonshell"), live("pythonshell")),
    );
}

#[test]
fn a_value_aws_picks_by_what_exists_folds_at_any_value_on_a_first_run() {
    // The third filter of a detector, an alias of an agent's fourth
    // version, a cache on a newer major: values the recorded deploys never
    // held. Record snapshots them (classify_chosen_at_create), so a later
    // change surfaces.
    let cases = [
        (
            "AWS::GuardDuty::Filter",
            json!({"DetectorId": "d", "Name": "f", "FindingCriteria": {}}),
            "Rank",
            json!(3),
        ),
        (
            "AWS::Bedrock::AgentAlias",
            json!({"AgentId": "A1", "AgentAliasName": "live"}),
            "RoutingConfiguration",
            json!([{"AgentVersion": "4"}]),
        ),
        (
            "AWS::ElastiCache::ServerlessCache",
            json!({"Engine": "valkey", "ServerlessCacheName": "c"}),
            "MajorEngineVersion",
            json!("8"),
        ),
    ];
    for (t, declared, path, value) in cases {
        let mut live = declared.clone();
        live[path] = value;
        let fs = classify_in(t, declared, live, &SchemaFacts::default());
        let f = fs.iter().find(|f| f.path == path);
        assert_eq!(f.map(|f| f.tier), Some(Tier::AtDefault), "{t} {path}");
        assert!(
            f.is_some_and(|f| f.chosen_at_create),
            "{t} {path} is recorded"
        );
    }
}

#[test]
fn a_rotation_interval_is_derived_from_any_declared_schedule() {
    // "calculated from the rotation schedule": 7 for a 7-day rate, or
    // whatever a cron schedule gives, never only the 30 one deploy held.
    // With no schedule declared the interval is a setting, and surfaces.
    let t = "AWS::SecretsManager::RotationSchedule";
    let path = "RotationRules.AutomaticallyAfterDays";
    let with = |rules: Value, days: u32| {
        let declared = json!({"SecretId": "arn:aws:secretsmanager:eu-west-1:123456789012:secret:s-AbCdEf", "RotationRules": rules});
        let mut live = declared.clone();
        live["RotationRules"]["AutomaticallyAfterDays"] = json!(days);
        (declared, live)
    };
    for schedule in ["rate(7 days)", "cron(0 4 ? * SUN *)"] {
        let (d, l) = with(json!({"ScheduleExpression": schedule}), 7);
        assert_eq!(tier_at(t, d, l, path), Some(Tier::AtDefault), "{schedule}");
    }
    let (d, l) = with(json!({"Duration": "2h"}), 7);
    assert_eq!(tier_at(t, d, l, path), Some(Tier::Undeclared));
}

#[test]
fn a_target_zone_aws_placed_folds_on_a_first_run_and_is_recorded() {
    // A target registered with no zone gets one from AWS ("all" for a Lambda
    // function). Someone may register it again in another zone, so the
    // zone is recorded like any value AWS chose, never folded for good.
    let t = "AWS::ElasticLoadBalancingV2::TargetGroup";
    let declared = json!({"TargetType": "ip", "Targets": [{"Id": "10.0.0.5", "Port": 80}]});
    for zone in ["eu-west-1a", "all"] {
        let live = json!({"TargetType": "ip", "Targets": [{"Id": "10.0.0.5", "Port": 80, "AvailabilityZone": zone}]});
        let fs = classify_in(t, declared.clone(), live, &SchemaFacts::default());
        let f = fs
            .iter()
            .find(|f| f.path.ends_with(".AvailabilityZone"))
            .unwrap_or_else(|| panic!("{zone}: {fs:?}"));
        assert_eq!(f.tier, Tier::AtDefault, "{zone}");
        assert!(f.chosen_at_create, "{}", f.path);
    }
}

#[test]
fn on_demand_warm_throughput_is_the_default_of_an_on_demand_global_table_only() {
    // Every global table recorded was on demand; a provisioned one warms to
    // what is provisioned, so the on-demand figures there were set by hand.
    let t = "AWS::DynamoDB::GlobalTable";
    let warm = json!({"ReadUnitsPerSecond": 12000, "WriteUnitsPerSecond": 4000});
    let with = |mode: &str| {
        let declared = json!({"BillingMode": mode, "Replicas": [{"Region": "eu-west-1"}]});
        let mut live = declared.clone();
        live["WarmThroughput"] = warm.clone();
        (declared, live)
    };
    folds_only_under(
        t,
        "WarmThroughput",
        with("PAY_PER_REQUEST"),
        with("PROVISIONED"),
    );
}

#[test]
fn a_service_range_folds_only_as_one_of_the_two_the_documentation_names() {
    // "If you don't specify a block, Kubernetes assigns addresses from either
    // the `10.100.0.0/16` or `172.20.0.0/16` CIDR blocks": which one depends
    // on the VPC, so both fold (recorded like any value AWS chose), and a
    // range neither is surfaces.
    let t = "AWS::EKS::Cluster";
    let declared = json!({"Name": "c", "RoleArn": "arn:aws:iam::123456789012:role/r"});
    let tier = |cidr: &str| {
        let mut live = declared.clone();
        live["KubernetesNetworkConfig"] = json!({"IpFamily": "ipv4", "ServiceIpv4Cidr": cidr});
        let fs = classify_in(t, declared.clone(), live, &SchemaFacts::default());
        fs.iter()
            .find(|f| f.path.starts_with("KubernetesNetworkConfig") && f.tier != Tier::AtDefault)
            .map_or(Tier::AtDefault, |f| f.tier)
    };
    for cidr in ["10.100.0.0/16", "172.20.0.0/16"] {
        assert_eq!(tier(cidr), Tier::AtDefault, "{cidr}");
    }
    assert_eq!(tier("192.168.128.0/20"), Tier::Undeclared);
    let mut live = declared.clone();
    live["KubernetesNetworkConfig"] =
        json!({"IpFamily": "ipv4", "ServiceIpv4Cidr": "10.100.0.0/16"});
    let fs = classify_in(t, declared.clone(), live, &SchemaFacts::default());
    assert!(
        fs.iter()
            .any(|f| f.path.starts_with("KubernetesNetworkConfig") && f.chosen_at_create),
        "{fs:?}"
    );
}

#[test]
fn a_29_second_integration_timeout_is_the_default_of_websocket_apis_only() {
    // HTTP APIs default to 30 s and accept 29 s: set there, it is a change.
    let t = "AWS::ApiGatewayV2::Integration";
    let with_timeout = |mut v: Value| {
        v["TimeoutInMillis"] = json!(29000);
        v
    };
    let mock = json!({"ApiId": "ws0123", "IntegrationType": "MOCK"});
    let http_proxy = json!({"ApiId": "http0123", "IntegrationType": "AWS_PROXY",
                            "IntegrationUri": "arn:aws:lambda:eu-west-1:123456789012:function:f",
                            "PayloadFormatVersion": "2.0"});
    folds_only_under(
        t,
        "TimeoutInMillis",
        (mock.clone(), with_timeout(mock)),
        (http_proxy.clone(), with_timeout(http_proxy.clone())),
    );
    // A WebSocket proxy integration reads back the pass-through behaviour
    // only WebSocket APIs have.
    let mut ws_proxy = with_timeout(http_proxy.clone());
    ws_proxy["PassthroughBehavior"] = json!("WHEN_NO_MATCH");
    assert_eq!(
        tier_at(t, http_proxy, ws_proxy, "TimeoutInMillis"),
        Some(Tier::AtDefault)
    );
}

#[test]
fn a_canary_s_timeout_follows_its_schedule_up_to_fourteen_minutes() {
    // "If you omit this field, the frequency of the canary is used as this
    // value, up to a maximum of 14 minutes."
    let t = "AWS::Synthetics::Canary";
    let canary = |rate: &str, timeout: u64| {
        let declared = json!({"Name": "probe", "RuntimeVersion": "syn-nodejs-puppeteer-16.1",
                              "Schedule": {"Expression": rate}});
        let mut live = declared.clone();
        live["RunConfig"] = json!({"TimeoutInSeconds": timeout, "MemoryInMB": 1500,
                                   "EphemeralStorage": 1024, "ActiveTracing": false});
        let found = classify_in(t, declared, live, &SchemaFacts::default());
        let drift = found
            .iter()
            .any(|f| f.path.starts_with("RunConfig") && f.tier == Tier::Undeclared);
        (
            found
                .iter()
                .any(|f| f.path == "RunConfig" && f.tier == Tier::AtDefault),
            drift,
        )
    };
    assert_eq!(canary("rate(5 minutes)", 300), (true, false));
    assert_eq!(canary("rate(1 hour)", 840), (true, false));
    assert_eq!(canary("rate(30 minutes)", 840), (true, false));
    // A five-minute timeout on an hourly canary was set, not defaulted.
    assert!(canary("rate(1 hour)", 300).1);
    assert!(canary("rate(10 minutes)", 300).1);
}

#[test]
fn a_multi_az_instance_zone_is_aws_s_so_checks_do_not_hold_it_to_one_value() {
    // "The `AvailabilityZone` parameter can't be specified if the DB instance
    // is a Multi-AZ deployment": a failover moves it, so it folds at any
    // value and is no choice a later check should hold it to. A zone AWS
    // picked for an EC2 instance is still one.
    let zone = |t: &str, declared: Value| {
        let mut live = declared.clone();
        live["AvailabilityZone"] = json!("eu-west-1c");
        live["PreferredMaintenanceWindow"] = json!("sun:04:10-sun:04:40");
        let found = classify_in(t, declared, live, &SchemaFacts::default());
        let chosen = |p: &str| {
            found
                .iter()
                .find(|f| f.path == p && f.tier == Tier::AtDefault)
                .map(|f| f.chosen_at_create)
        };
        (
            chosen("AvailabilityZone"),
            chosen("PreferredMaintenanceWindow"),
        )
    };
    let rds = json!({"DBInstanceClass": "db.t3.micro", "Engine": "postgres"});
    let mut multi_az = rds.clone();
    multi_az["MultiAZ"] = json!(true);
    // Folds, but is not held: a failover moves it.
    assert_eq!(
        zone("AWS::RDS::DBInstance", multi_az),
        (Some(false), Some(true))
    );
    // A single-AZ database's zone and an EC2 instance's zone are choices.
    assert_eq!(zone("AWS::RDS::DBInstance", rds), (Some(true), Some(true)));
    let ec2 = json!({"ImageId": "ami-0123456789abcdef0", "InstanceType": "t3.micro"});
    assert_eq!(zone("AWS::EC2::Instance", ec2).0, Some(true));
}

#[test]
fn a_lifecycle_hook_list_folds_only_while_every_hook_is_a_sibling_of_the_stack() {
    let t = "AWS::AutoScaling::AutoScalingGroup";
    let declared = json!({"MaxSize": "2", "MinSize": "0"});
    let hook = |name: &str| {
        json!({"LifecycleHookName": name, "LifecycleTransition": "autoscaling:EC2_INSTANCE_TERMINATING",
               "HeartbeatTimeout": 300, "DefaultResult": "ABANDON"})
    };
    let tier = |hooks: Value| {
        let mut live = declared.clone();
        live["LifecycleHookSpecificationList"] = hooks;
        tier_at(t, declared.clone(), live, "LifecycleHookSpecificationList")
    };
    // Declared as AWS::AutoScaling::LifecycleHook resources of this stack.
    let sibling = hook("Stack-DrainHook-1Q2W3E4R5T6Y");
    assert_eq!(tier(json!([sibling.clone()])), Some(Tier::AtDefault));
    // One more, added in the console: the list says more than the stack.
    assert_eq!(
        tier(json!([sibling, hook("manual-drain")])),
        Some(Tier::Undeclared)
    );
    // A hook minted by another stack is not this stack's.
    assert_eq!(
        tier(json!([hook("OtherStack-DrainHook-1Q2W3E4R5T6Y")])),
        Some(Tier::Undeclared)
    );
}

#[test]
fn a_stage_deployment_is_aws_minted_only_where_the_stage_auto_deploys() {
    let t = "AWS::ApiGatewayV2::Stage";
    let stage = |auto: bool| json!({"ApiId": "a1b2c3", "StageName": "prod", "AutoDeploy": auto});
    let live = |auto: bool| json!({"ApiId": "a1b2c3", "StageName": "prod", "AutoDeploy": auto, "DeploymentId": "q9w8e7"});
    assert_eq!(
        tier_at(t, stage(true), live(true), "DeploymentId"),
        Some(Tier::Generated)
    );
    // Without auto-deploy the stage points where someone deployed it.
    assert_eq!(
        tier_at(t, stage(false), live(false), "DeploymentId"),
        Some(Tier::Undeclared)
    );
}

// ---- values read back in another form ------------------------------------

fn write_only(keys: &[&str]) -> SchemaFacts {
    SchemaFacts {
        write_only: keys.iter().map(|k| k.to_string()).collect(),
        ..SchemaFacts::default()
    }
}

#[test]
fn a_write_only_object_read_back_as_json_text_folds_while_it_is_unchanged() {
    let t = "AWS::StepFunctions::StateMachine";
    let definition = json!({"StartAt": "Charge", "States": {"Charge": {"Type": "Task",
        "Resource": "arn:aws:states:::lambda:invoke", "End": true}}});
    let declared =
        json!({"Definition": definition, "RoleArn": "arn:aws:iam::123456789012:role/sm"});
    let text = "{\n  \"States\" : {\"Charge\" : {\"End\" : true, \"Resource\" : \"arn:aws:states:::lambda:invoke\", \"Type\" : \"Task\"}},\n  \"StartAt\" : \"Charge\"\n}";
    let schema = write_only(&["Definition"]);
    let tier = |s: &str| {
        classify_in(
            t,
            declared.clone(),
            json!({"RoleArn": "arn:aws:iam::123456789012:role/sm", "DefinitionString": s}),
            &schema,
        )
        .into_iter()
        .find(|f| f.path == "DefinitionString")
        .map(|f| f.tier)
    };
    assert_eq!(tier(text), Some(Tier::AtDefault));
    // Edited in the console: another state machine now runs.
    let edited = text.replace("\"Charge\"", "\"Refund\"");
    assert_eq!(tier(&edited), Some(Tier::Undeclared));
    // The same text is no restatement of a property the read does return.
    let readable = classify_in(
        t,
        declared.clone(),
        json!({"RoleArn": "arn:aws:iam::123456789012:role/sm", "Definition": definition, "DefinitionString": text}),
        &SchemaFacts::default(),
    );
    assert!(readable
        .iter()
        .any(|f| f.path == "DefinitionString" && f.tier == Tier::Undeclared));
}

#[test]
fn a_field_parsed_from_a_declared_document_folds_only_while_the_document_holds_it() {
    let t = "AWS::Cognito::UserPoolIdentityProvider";
    let metadata = "<md:EntityDescriptor entityID=\"urn:acme-idp\"><md:IDPSSODescriptor>\
        <md:SingleSignOnService Binding=\"urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect\" \
        Location=\"https://login.acme.example/saml/sso\"/></md:IDPSSODescriptor></md:EntityDescriptor>";
    let declared = json!({"ProviderName": "Acme", "ProviderType": "SAML", "UserPoolId": "eu-west-1_abc",
        "ProviderDetails": {"MetadataFile": metadata}});
    let tier = |uri: &str| {
        tier_at(
            t,
            declared.clone(),
            json!({"ProviderName": "Acme", "ProviderType": "SAML", "UserPoolId": "eu-west-1_abc",
                "ProviderDetails": {"MetadataFile": metadata, "SSORedirectBindingURI": uri}}),
            "ProviderDetails.SSORedirectBindingURI",
        )
    };
    assert_eq!(
        tier("https://login.acme.example/saml/sso"),
        Some(Tier::AtDefault)
    );
    assert_eq!(
        tier("https://evil.example/saml/sso"),
        Some(Tier::Undeclared)
    );
    // A piece of a longer value (the binding's URN) is not a value read
    // out of the document.
    assert_eq!(tier("tc:SAML:2.0:bindings"), Some(Tier::Undeclared));
}

#[test]
fn a_default_seen_under_a_condition_outranks_the_documented_one_there() {
    // The docs give one default for every resource of the type; deploys show
    // another under a condition. Where the condition holds, the documented
    // value is a change someone made: a Glue 5 job raised to the 48 hours
    // older versions get, a read replica given backups.
    let job = |version: &str, timeout: u32| {
        let declared = json!({"Command": {"Name": "glueetl", "ScriptLocation": "s3://b/s.py"},
            "Role": "arn:aws:iam::123456789012:role/r", "GlueVersion": version});
        let live = json!({"Command": {"Name": "glueetl", "ScriptLocation": "s3://b/s.py", "PythonVersion": "2"},
            "Role": "arn:aws:iam::123456789012:role/r", "GlueVersion": version, "Timeout": timeout,
            "WorkerType": "G.1X", "NumberOfWorkers": 10, "MaxCapacity": 10});
        (declared, live)
    };
    let t = "AWS::Glue::Job";
    folds_only_under(t, "Timeout", job("5.0", 480), job("5.0", 2880));
    folds_only_under(t, "Timeout", job("4.0", 2880), job("4.0", 480));

    let db = |replica: bool, days: u32| {
        let mut declared = json!({"DBInstanceClass": "db.t3.micro", "Engine": "mysql"});
        if replica {
            declared["SourceDBInstanceIdentifier"] =
                json!("arn:aws:rds:eu-west-1:123456789012:db:src");
        }
        let mut live = declared.clone();
        live["BackupRetentionPeriod"] = json!(days);
        (declared, live)
    };
    let t = "AWS::RDS::DBInstance";
    folds_only_under(t, "BackupRetentionPeriod", db(true, 0), db(true, 1));
    folds_only_under(t, "BackupRetentionPeriod", db(false, 1), db(false, 0));
}
