//! Knowledge that must hold for resources the corpus never showed: canonical
//! forms by shape on values (and types) no corpus case holds, each paired
//! with a real change next to it that must still surface.

mod classify_support;

use classify_support::{context, resource_with_id};
use realdrift_core::classify::{
    classify, classify_with, ClassifyContext, Knowledge, ResourceInput,
};
use realdrift_core::schema::SchemaFacts;
use realdrift_core::{Finding, Tier};
use serde_json::{json, Value};

fn resource(t: &str, declared: Value) -> ResourceInput {
    resource_with_id(t, "res-0123", &declared)
}

fn run(t: &str, declared: Value, live: Value) -> Vec<Finding> {
    classify(
        &resource(t, declared),
        &live,
        &SchemaFacts::default(),
        &context(),
    )
}

/// Classifies with the mined (schema, docs, api-model) facts alone.
fn run_general(t: &str, declared: Value, live: Value) -> Vec<Finding> {
    let r = resource(t, declared);
    classify_with(
        &r,
        &live,
        &SchemaFacts::default(),
        &context(),
        Knowledge::WithoutObserved,
    )
}

fn drift(fs: &[Finding]) -> Vec<(Tier, String)> {
    fs.iter()
        .filter(|f| f.tier.is_drift())
        .map(|f| (f.tier, f.path.clone()))
        .collect()
}

fn declared_paths(fs: &[Finding]) -> Vec<String> {
    fs.iter()
        .filter(|f| f.tier == Tier::Declared)
        .map(|f| f.path.clone())
        .collect()
}

/// Declared `declared` folds against the service's own spelling `same`;
/// `other` is declared drift at `prop`.
fn assert_spelling_folds(t: &str, prop: &str, declared: &str, same: &str, other: &str) {
    let fs = run_general(t, json!({ prop: declared }), json!({ prop: same }));
    assert!(drift(&fs).is_empty(), "{prop}: {fs:?}");
    let fs = run_general(t, json!({ prop: declared }), json!({ prop: other }));
    assert_eq!(declared_paths(&fs), vec![prop.to_string()], "{prop}");
}

// ---- policy documents wherever they appear -------------------------------

#[test]
fn policy_forms_fold_on_a_type_the_corpus_never_held() {
    let declared = json!({"RepositoryPolicyText": {
        "Version": "2012-10-17",
        "Statement": [{"Effect": "Allow", "Action": ["ecr:BatchGetImage"],
            "Principal": {"AWS": ["arn:aws:iam::210987654321:root"]}}]}});
    // Single statement, string action, bare account id, and JSON text.
    let live = json!({"RepositoryPolicyText": "{\"Version\":\"2012-10-17\",\"Statement\":{\"Effect\":\"Allow\",\"Action\":\"ecr:BatchGetImage\",\"Principal\":{\"AWS\":\"210987654321\"}}}"});
    let fs = run("AWS::ECR::Repository", declared.clone(), live);
    assert!(drift(&fs).is_empty(), "{:?}", drift(&fs));

    let widened = json!({"RepositoryPolicyText": {"Version": "2012-10-17",
        "Statement": {"Effect": "Allow", "Action": ["ecr:BatchGetImage", "ecr:PutImage"],
            "Principal": {"AWS": "210987654321"}}}});
    let fs = run("AWS::ECR::Repository", declared, widened);
    assert_eq!(declared_paths(&fs), vec!["RepositoryPolicyText.Statement"]);
}

// ---- arrays AWS returns in its own order ----------------------------------

#[test]
fn a_permutation_is_order_only_drift_and_a_replaced_element_is_declared() {
    // Sorted or not, the same members in another order are reported as
    // order-only potential drift: a sorted read may be AWS's order for a
    // set, or a reorder someone made, and nothing here says which.
    let declared = json!({"Hostnames": ["zulu.internal", "alpha.internal", "mike.internal"]});
    for live in [
        json!({"Hostnames": ["alpha.internal", "mike.internal", "zulu.internal"]}),
        json!({"Hostnames": ["mike.internal", "zulu.internal", "alpha.internal"]}),
    ] {
        let fs = run("AWS::Example::Thing", declared.clone(), live);
        assert!(declared_paths(&fs).is_empty(), "{fs:?}");
        assert_eq!(order_only_paths(&fs), vec!["Hostnames"]);
    }
    let replaced = json!({"Hostnames": ["alpha.internal", "mike.internal", "yankee.internal"]});
    assert_eq!(
        declared_paths(&run("AWS::Example::Thing", declared, replaced)),
        vec!["Hostnames"]
    );
}

fn order_only_paths(fs: &[Finding]) -> Vec<String> {
    fs.iter()
        .filter(|f| f.tier == Tier::Undeclared && f.order_only)
        .map(|f| f.path.clone())
        .collect()
}

#[test]
fn name_keyed_items_compare_as_a_set_and_live_extras_are_inventory() {
    let declared = json!({"Parameters": [
        {"ParameterName": "max_connections", "ParameterValue": "200"},
        {"ParameterName": "autocommit", "ParameterValue": "1"}]});
    // AWS returns every parameter, in its own order.
    let live = json!({"Parameters": [
        {"ParameterName": "autocommit", "ParameterValue": "1"},
        {"ParameterName": "lock_timeout", "ParameterValue": "50"},
        {"ParameterName": "max_connections", "ParameterValue": "200"}]});
    let fs = run("AWS::Example::ParameterGroup", declared.clone(), live);
    assert!(declared_paths(&fs).is_empty(), "{:?}", drift(&fs));
    // The live-only parameter is reported by itself, never hidden.
    assert!(fs
        .iter()
        .any(|f| f.tier == Tier::Undeclared && f.path == "Parameters[lock_timeout]"));

    let changed = json!({"Parameters": [
        {"ParameterName": "autocommit", "ParameterValue": "1"},
        {"ParameterName": "max_connections", "ParameterValue": "50"}]});
    let fs = run("AWS::Example::ParameterGroup", declared, changed);
    assert_eq!(
        declared_paths(&fs),
        vec!["Parameters[max_connections].ParameterValue"]
    );
}

#[test]
fn a_list_inside_a_json_document_held_as_text_keeps_its_order() {
    // AWS stores a build spec, an SSM document or a dashboard body as
    // written: a list in it read back in sorted order was reordered, and
    // build commands run in order.
    let spec = |cmds: &[&str]| {
        json!({"Source": {"Type": "NO_SOURCE", "BuildSpec": json!({"version": "0.2",
            "phases": {"build": {"commands": cmds}}}).to_string()}})
    };
    let declared = spec(&["make", "make install"]);
    let fs = run(
        "AWS::CodeBuild::Project",
        declared.clone(),
        spec(&["make install", "make"]),
    );
    assert_eq!(declared_paths(&fs), vec!["Source.BuildSpec"]);
    // The same text in another spelling (spacing, key order) still folds.
    let respelled = json!({"Source": {"Type": "NO_SOURCE", "BuildSpec":
        "{ \"phases\": {\"build\": {\"commands\": [\"make\", \"make install\"]}}, \"version\": \"0.2\" }"}});
    assert!(drift(&run("AWS::CodeBuild::Project", declared, respelled)).is_empty());
}

#[test]
fn elements_of_an_identity_aligned_list_without_their_identity_are_still_walked() {
    // Stage method settings align by HTTP method; an element that names
    // none, on both sides, pairs as a positional element would.
    let declared = json!({"MethodSettings": [{"LoggingLevel": "INFO"}]});
    let live = json!({"MethodSettings": [{"LoggingLevel": "INFO", "CacheTtlInSeconds": 607}]});
    let fs = run("AWS::ApiGateway::Stage", declared.clone(), live);
    assert!(
        drift(&fs).contains(&(
            Tier::Undeclared,
            "MethodSettings.0.CacheTtlInSeconds".into()
        )),
        "{:?}",
        drift(&fs)
    );
    // With its identity the element is named by it.
    let declared = json!({"MethodSettings": [{"HttpMethod": "*", "ResourcePath": "/*"}]});
    let live = json!({"MethodSettings": [
        {"HttpMethod": "*", "ResourcePath": "/*", "CacheTtlInSeconds": 607}]});
    let fs = run("AWS::ApiGateway::Stage", declared, live);
    assert_eq!(
        drift(&fs),
        vec![(
            Tier::Undeclared,
            "MethodSettings[*].CacheTtlInSeconds".into()
        )]
    );
}

// ---- identifiers and text AWS normalises ----------------------------------

#[test]
fn lower_cased_identifiers_fold_but_a_rename_is_drift() {
    let declared = json!({"CacheSubnetGroupName": "Payments-Cache-Subnets", "Engine": "valkey"});
    let live = json!({"CacheSubnetGroupName": "payments-cache-subnets", "Engine": "valkey"});
    assert!(drift(&run("AWS::Example::Cache", declared.clone(), live)).is_empty());
    let renamed = json!({"CacheSubnetGroupName": "billing-cache-subnets", "Engine": "valkey"});
    assert_eq!(
        declared_paths(&run("AWS::Example::Cache", declared, renamed)),
        vec!["CacheSubnetGroupName"]
    );
}

#[test]
fn enum_case_dns_names_and_trailing_newlines_fold() {
    let declared = json!({
        "ListenerProtocol": "tcp",
        "ZoneDomainName": "Corp.Example.org",
        "StartupScript": "#!/bin/sh\necho ready",
        "EngineVersion": "16"
    });
    let live = json!({
        "ListenerProtocol": "TCP",
        "ZoneDomainName": "corp.example.org.",
        "StartupScript": "#!/bin/sh\necho ready\n",
        "EngineVersion": "16.4"
    });
    assert!(drift(&run("AWS::Example::Service", declared.clone(), live)).is_empty());
    let changed = json!({
        "ListenerProtocol": "UDP",
        "ZoneDomainName": "corp.example.net.",
        "StartupScript": "#!/bin/sh\necho hacked\n",
        "EngineVersion": "17.0"
    });
    let mut got = declared_paths(&run("AWS::Example::Service", declared, changed));
    got.sort();
    assert_eq!(
        got,
        vec![
            "EngineVersion",
            "ListenerProtocol",
            "StartupScript",
            "ZoneDomainName"
        ]
    );
}

#[test]
fn keys_inside_a_users_document_keep_the_case_of_their_values() {
    // An SNS filter policy matches message attributes exactly: `eventType`
    // is the user's attribute name, not an AWS enum property.
    let declared = json!({"FilterPolicy": {"eventType": ["order_placed"]}});
    let recased = json!({"FilterPolicy": {"eventType": ["ORDER_PLACED"]}});
    let fs = run_general("AWS::SNS::Subscription", declared.clone(), recased);
    assert_eq!(declared_paths(&fs), vec!["FilterPolicy.eventType"]);
    // An IAM condition on `ec2:InstanceType` compares with StringEquals.
    let policy = |v: &str| {
        json!({"PolicyDocument": {"Version": "2012-10-17", "Statement": [{
            "Effect": "Allow", "Action": "ec2:RunInstances", "Resource": "*",
            "Condition": {"StringEquals": {"ec2:InstanceType": v}}}]}})
    };
    let fs = run_general(
        "AWS::IAM::ManagedPolicy",
        policy("t3.micro"),
        policy("T3.MICRO"),
    );
    assert_eq!(declared_paths(&fs).len(), 1, "{fs:?}");
    // The property of the same name keeps its fold.
    let fs = run_general(
        "AWS::Example::Thing",
        json!({"InstanceType": "t3.micro"}),
        json!({"InstanceType": "T3.MICRO"}),
    );
    assert!(drift(&fs).is_empty(), "{fs:?}");
}

#[test]
fn a_name_beside_its_value_is_the_users_and_keeps_its_case() {
    // An environment variable's name is read case-sensitively by the
    // program; AWS stores it as written, so a lower-cased one was renamed.
    let env = |name: &str| {
        json!({"Environment": {"EnvironmentVariables": [
            {"Name": name, "Value": "https://api.example.com", "Type": "PLAINTEXT"},
            {"Name": "STAGE", "Value": "prod", "Type": "PLAINTEXT"}]}})
    };
    let fs = run_general("AWS::CodeBuild::Project", env("API_URL"), env("api_url"));
    assert!(
        !drift(&fs).is_empty()
            && declared_paths(&fs)
                .iter()
                .all(|p| p.contains("EnvironmentVariables")),
        "{fs:?}"
    );
    assert!(drift(&run_general(
        "AWS::CodeBuild::Project",
        env("API_URL"),
        env("API_URL")
    ))
    .is_empty());
    // A name with no value beside it (a header a rule inspects) is still
    // the keyword AWS lower-cases.
    let header = |n: &str| json!({"FieldToMatch": {"SingleHeader": {"Name": n}}});
    let fs = run_general(
        "AWS::Example::Rule",
        header("User-Agent"),
        header("user-agent"),
    );
    assert!(drift(&fs).is_empty(), "{fs:?}");
}

// ---- a declared empty collection AWS fills with its default ---------------

#[test]
fn a_declared_empty_list_filled_with_the_documented_default_folds() {
    // The Lambda and Chatbot docs state these defaults; CloudFormation
    // passes `[]` as unset and the service fills them in.
    for (t, prop, default, other) in [
        ("AWS::Lambda::Function", "Architectures", "x86_64", "arm64"),
        (
            "AWS::Chatbot::SlackChannelConfiguration",
            "GuardrailPolicies",
            "arn:aws:iam::aws:policy/AdministratorAccess",
            "arn:aws:iam::aws:policy/ReadOnlyAccess",
        ),
    ] {
        let fs = run_general(t, json!({ prop: [] }), json!({ prop: [default] }));
        assert!(drift(&fs).is_empty(), "{prop}: {fs:?}");
        assert!(
            fs.iter()
                .any(|f| f.tier == Tier::AtDefault && f.path == prop),
            "{prop}: {fs:?}"
        );
        // Anything else is what the template said it should not hold.
        for live in [json!([other]), json!([default, other])] {
            let fs = run_general(t, json!({ prop: [] }), json!({ prop: live }));
            assert_eq!(declared_paths(&fs), vec![prop.to_string()], "{prop}");
        }
    }
}

#[test]
fn a_declared_empty_list_inside_a_declared_object_folds_the_same() {
    // The IVS docs state the default media types of auto-recording.
    let t = "AWS::IVS::Stage";
    let declared = json!({"AutoParticipantRecordingConfiguration": {
        "StorageConfigurationArn": "arn:aws:ivs:eu-central-1:123456789012:storage-configuration/abc",
        "MediaTypes": []}});
    let mut live = declared.clone();
    live["AutoParticipantRecordingConfiguration"]["MediaTypes"] = json!(["AUDIO_VIDEO"]);
    let fs = run_general(t, declared.clone(), live.clone());
    assert!(drift(&fs).is_empty(), "{fs:?}");
    live["AutoParticipantRecordingConfiguration"]["MediaTypes"] = json!(["AUDIO_ONLY"]);
    let fs = run_general(t, declared, live);
    assert_eq!(
        declared_paths(&fs),
        vec!["AutoParticipantRecordingConfiguration.MediaTypes".to_string()]
    );
}

// ---- a count restating the list beside it ---------------------------------

#[test]
fn a_count_of_the_list_beside_it_is_no_setting_of_its_own() {
    let t = "AWS::EC2::NetworkInterface";
    let declared = json!({"SubnetId": "subnet-0123456789abcdef0"});
    let mut live = declared.clone();
    live["Ipv6Addresses"] = json!([{"Ipv6Address": "2001:db8::5"}, {"Ipv6Address": "2001:db8::6"}]);
    live["Ipv6AddressCount"] = json!(2);
    let fs = run_general(t, declared.clone(), live.clone());
    assert!(
        fs.iter()
            .any(|f| f.tier == Tier::AtDefault && f.path == "Ipv6AddressCount"),
        "{fs:?}"
    );
    // A count the list does not bear out is a setting of its own.
    live["Ipv6AddressCount"] = json!(3);
    let fs = run_general(t, declared, live);
    assert!(drift(&fs).contains(&(Tier::Undeclared, "Ipv6AddressCount".to_string())));
}

#[test]
fn an_id_joined_from_declared_values_is_the_resources_own() {
    // A type the corpus never held: a route of a local gateway table.
    let t = "AWS::EC2::LocalGatewayRoute";
    let declared = json!({"LocalGatewayRouteTableId": "lgw-rtb-0123456789abcdef0",
        "DestinationCidrBlock": "10.20.0.0/16"});
    let mut live = declared.clone();
    live["Id"] = json!("lgw-rtb-0123456789abcdef0_10.20.0.0/16");
    let fs = run_general(t, declared.clone(), live.clone());
    assert!(drift(&fs).is_empty(), "{fs:?}");
    // An id naming another table is not this resource's own.
    live["Id"] = json!("lgw-rtb-0fedcba9876543210_10.20.0.0/16");
    let fs = run_general(t, declared, live);
    assert!(drift(&fs).contains(&(Tier::Undeclared, "Id".to_string())));
}

#[test]
fn cloudfronts_counted_empty_list_is_empty() {
    let t = "AWS::CloudFront::Distribution";
    let declared = json!({"DistributionConfig": {"Enabled": true}});
    let mut live = declared.clone();
    live["DistributionConfig"]["CustomErrorResponses"] = json!({"Quantity": 0, "Items": []});
    let fs = run_general(t, declared.clone(), live.clone());
    assert!(drift(&fs).is_empty(), "{fs:?}");
    live["DistributionConfig"]["CustomErrorResponses"] = json!({"Quantity": 1,
        "Items": [{"ErrorCode": 404, "ResponseCode": 200, "ResponsePagePath": "/index.html"}]});
    let fs = run_general(t, declared, live);
    assert!(
        drift(&fs)
            .iter()
            .any(|(_, p)| p.starts_with("DistributionConfig.CustomErrorResponses")),
        "{fs:?}"
    );
}

// ---- derived defaults, not constants --------------------------------------

#[test]
fn warm_throughput_follows_any_provisioned_capacity() {
    let declared = json!({
        "BillingMode": "PROVISIONED",
        "ProvisionedThroughput": {"ReadCapacityUnits": 10, "WriteCapacityUnits": 10},
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
        "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}]
    });
    let mut live = declared.clone();
    live["WarmThroughput"] = json!({"ReadUnitsPerSecond": 10, "WriteUnitsPerSecond": 10});
    let fs = run("AWS::DynamoDB::Table", declared.clone(), live.clone());
    assert!(
        fs.iter()
            .any(|f| f.tier == Tier::AtDefault && f.path == "WarmThroughput"),
        "{fs:?}"
    );
    // Warm throughput raised out of band: not the provisioned capacity.
    live["WarmThroughput"] = json!({"ReadUnitsPerSecond": 4000, "WriteUnitsPerSecond": 10});
    let fs = run("AWS::DynamoDB::Table", declared, live);
    assert!(fs
        .iter()
        .any(|f| f.tier == Tier::Undeclared && f.path == "WarmThroughput"));
}

// ---- a block declared in part ---------------------------------------------

#[test]
fn a_log_group_declared_alone_keeps_the_format_aws_starts_with() {
    let lambda = |logging: Value| {
        json!({"Handler": "index.handler", "Runtime": "nodejs22.x",
            "Role": "arn:aws:iam::123456789012:role/fn", "LoggingConfig": logging})
    };
    let declared = lambda(json!({"LogGroup": "app-logs"}));
    let live = lambda(json!({"LogGroup": "app-logs", "LogFormat": "Text"}));
    let fs = run("AWS::Lambda::Function", declared.clone(), live);
    assert!(drift(&fs).is_empty(), "{:?}", drift(&fs));
    assert!(fs
        .iter()
        .any(|f| f.tier == Tier::AtDefault && f.path == "LoggingConfig.LogFormat"));
    // Structured logging turned on out of band.
    let live = lambda(json!({"LogGroup": "app-logs", "LogFormat": "JSON",
        "ApplicationLogLevel": "INFO", "SystemLogLevel": "INFO"}));
    let fs = run("AWS::Lambda::Function", declared, live);
    assert!(drift(&fs).contains(&(Tier::Undeclared, "LoggingConfig.LogFormat".into())));
    // With nothing declared the whole block is still the function's own.
    let bare = json!({"Handler": "index.handler", "Runtime": "nodejs22.x",
        "Role": "arn:aws:iam::123456789012:role/fn"});
    let mut live = bare.clone();
    live["LoggingConfig"] = json!({"LogFormat": "Text", "LogGroup": "/aws/lambda/res-0123"});
    let fs = run("AWS::Lambda::Function", bare, live);
    assert!(fs
        .iter()
        .any(|f| f.tier == Tier::Generated && f.path == "LoggingConfig"));
}

/// A block's whole default (what AWS holds with none declared) does not
/// speak for the members of a block declared in part: a Cognito password
/// policy declared in part reads its other switches off, not on.
#[test]
fn a_block_declared_in_part_is_not_judged_by_the_whole_block_default() {
    let declared = json!({"Policies": {"PasswordPolicy": {"MinimumLength": 12}}});
    let policy = |upper: bool| {
        json!({"Policies": {"PasswordPolicy": {"MinimumLength": 12,
            "RequireUppercase": upper, "RequireLowercase": false,
            "RequireNumbers": false, "RequireSymbols": false}}})
    };
    let fs = run("AWS::Cognito::UserPool", declared.clone(), policy(false));
    assert!(drift(&fs).is_empty(), "{:?}", drift(&fs));
    // Upper case required out of band: the whole block's default says
    // true, yet here it is a change.
    let fs = run("AWS::Cognito::UserPool", declared, policy(true));
    assert_eq!(
        drift(&fs),
        vec![(
            Tier::Undeclared,
            "Policies.PasswordPolicy.RequireUppercase".to_string()
        )]
    );
}

// ---- mined (documented) defaults, conditioned where the docs condition ----

#[test]
fn a_status_of_lifecycle_states_folds_when_settled_only() {
    // Athena's schema leaves `Status` writable, but its enum holds nothing
    // but lifecycle states: the service reports it.
    let t = "AWS::Athena::DataCatalog";
    let declared = json!({"Name": "sales", "Type": "GLUE"});
    let live = |status: &str| json!({"Name": "sales", "Type": "GLUE", "Status": status});
    let fs = run_general(t, declared.clone(), live("CREATE_COMPLETE"));
    assert_eq!(tier_of(&fs, "Status"), Some(Tier::AtDefault), "{fs:?}");
    let fs = run_general(t, declared, live("CREATE_FAILED"));
    assert_eq!(tier_of(&fs, "Status"), Some(Tier::Undeclared), "{fs:?}");
}

#[test]
fn documented_defaults_fold_and_stay_conditioned() {
    // CloudFormation docs: "If the target type is `lambda`, the default is 35
    // seconds" but 30 for TCP..HTTPS target groups.
    let lambda = json!({"TargetType": "lambda"});
    let mut live = lambda.clone();
    live["HealthCheckIntervalSeconds"] = json!(35);
    let fs = run(
        "AWS::ElasticLoadBalancingV2::TargetGroup",
        lambda.clone(),
        live,
    );
    assert!(fs
        .iter()
        .any(|f| f.tier == Tier::AtDefault && f.path == "HealthCheckIntervalSeconds"));
    let mut live = lambda.clone();
    live["HealthCheckIntervalSeconds"] = json!(30);
    let fs = run("AWS::ElasticLoadBalancingV2::TargetGroup", lambda, live);
    assert!(fs
        .iter()
        .any(|f| f.tier == Tier::Undeclared && f.path == "HealthCheckIntervalSeconds"));
}

#[test]
fn a_default_conditioned_on_a_sibling_holds_only_when_the_sibling_matches() {
    // "If the target type is `instance`, `ip`, or `alb`, health checks are
    // always enabled" / "If the target type is `lambda`, health checks are
    // disabled by default" (mined docs; observed facts off). The template
    // leaves TargetType out: AWS's own value, read live, decides.
    let tg = "AWS::ElasticLoadBalancingV2::TargetGroup";
    let declared = json!({"Protocol": "TCP_QUIC", "Port": 4433});
    let live = json!({"Protocol": "TCP_QUIC", "Port": 4433, "TargetType": "ip",
        "HealthCheckEnabled": true, "HealthCheckPort": "traffic-port"});
    let fs = run_general(tg, declared.clone(), live);
    for path in ["HealthCheckEnabled", "HealthCheckPort"] {
        assert!(
            fs.iter()
                .any(|f| f.tier == Tier::AtDefault && f.path == path),
            "{path}: {fs:?}"
        );
    }
    // A lambda target group with health checks switched on, and a TCP_QUIC
    // group checked on port 80 (GENEVE's default): both stay reported.
    let live = json!({"Protocol": "TCP_QUIC", "Port": 4433, "TargetType": "lambda",
        "HealthCheckEnabled": true, "HealthCheckPort": "80"});
    let fs = run_general(tg, declared, live);
    for path in ["HealthCheckEnabled", "HealthCheckPort"] {
        assert!(
            fs.iter()
                .any(|f| f.tier == Tier::Undeclared && f.path == path),
            "{path}: {fs:?}"
        );
    }
}

#[test]
fn a_sibling_default_stated_under_a_listed_value_follows_that_value() {
    // BillingMode's documentation: "`FIXED_RETENTION_PRICING` - ... The
    // default retention period for this billing mode is 2557 days."
    let t = "AWS::CloudTrail::EventDataStore";
    let fixed = json!({"BillingMode": "FIXED_RETENTION_PRICING"});
    let mut live = fixed.clone();
    live["RetentionPeriod"] = json!(2557);
    let fs = run_general(t, fixed, live.clone());
    assert!(
        fs.iter()
            .any(|f| f.tier == Tier::AtDefault && f.path == "RetentionPeriod"),
        "{fs:?}"
    );
    // The same 2557 days under the extendable mode (default 366) is a choice.
    live["BillingMode"] = json!("EXTENDABLE_RETENTION_PRICING");
    let fs = run_general(
        t,
        json!({"BillingMode": "EXTENDABLE_RETENTION_PRICING"}),
        live,
    );
    assert!(
        fs.iter()
            .any(|f| f.tier == Tier::Undeclared && f.path == "RetentionPeriod"),
        "{fs:?}"
    );
}

#[test]
fn another_services_api_model_never_states_a_default() {
    // DocumentDB and Neptune share RDS's endpoint prefix `rds`; DocumentDB's
    // "Default: `false`" for AutoMinorVersionUpgrade was once mined for
    // AWS::RDS::DBInstance, where RDS applies minor upgrades by default.
    let generated: Value = serde_json::from_str(include_str!("../data/generated/defaults.json"))
        .expect("generated defaults parse");
    let wrong: Vec<&Value> = generated["defaults"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|e| {
            e["type"]
                .as_str()
                .is_some_and(|t| t.starts_with("AWS::RDS::"))
                && e["quote"]
                    .as_str()
                    .is_some_and(|q| q.contains("DocumentDB"))
                || (e["type"] == "AWS::RDS::DBInstance"
                    && e["path"] == "AutoMinorVersionUpgrade"
                    && e["values"] == json!([false]))
        })
        .collect();
    assert!(wrong.is_empty(), "{wrong:?}");
}

#[test]
fn a_documented_default_a_real_deploy_contradicts_never_folds() {
    // ELBv2 documents a 6-second health-check timeout for HTTP target
    // groups; fresh ones hold 5 (known-defaults.json). A change to 6 is a
    // change, whatever the documentation says.
    let http = json!({"Protocol": "HTTP", "TargetType": "instance"});
    let mut live = http.clone();
    live["HealthCheckTimeoutSeconds"] = json!(6);
    let fs = run(
        "AWS::ElasticLoadBalancingV2::TargetGroup",
        http.clone(),
        live,
    );
    assert!(
        fs.iter()
            .any(|f| f.tier == Tier::Undeclared && f.path == "HealthCheckTimeoutSeconds"),
        "{fs:?}"
    );
    // TCP keeps its documented (and observed) 10.
    let tcp = json!({"Protocol": "TCP", "TargetType": "instance"});
    let mut live = tcp.clone();
    live["HealthCheckTimeoutSeconds"] = json!(10);
    let fs = run("AWS::ElasticLoadBalancingV2::TargetGroup", tcp, live);
    assert!(fs
        .iter()
        .any(|f| f.tier == Tier::AtDefault && f.path == "HealthCheckTimeoutSeconds"));
}

// ---- sets by what they hold or where they sit -----------------------------

fn run_schema(t: &str, schema: SchemaFacts, declared: Value, live: Value) -> Vec<Finding> {
    let ctx = ClassifyContext {
        account_id: Some("123456789012".into()),
        region: Some("eu-central-1".into()),
        stack_name: Some("Stack".into()),
        ..ClassifyContext::default()
    };
    classify(&resource(t, declared), &live, &schema, &ctx)
}

/// Schema facts in which `props` are create-only.
fn create_only(props: &[&str]) -> SchemaFacts {
    SchemaFacts {
        create_only: props.iter().map(|p| p.to_string()).collect(),
        ..SchemaFacts::default()
    }
}

#[test]
fn cidr_lists_are_sets_but_a_widened_range_is_drift() {
    let declared =
        json!({"ResourcesVpcConfig": {"PublicAccessCidrs": ["198.51.100.0/24", "203.0.113.0/24"]}});
    let reordered =
        json!({"ResourcesVpcConfig": {"PublicAccessCidrs": ["203.0.113.0/24", "198.51.100.0/24"]}});
    assert!(drift(&run("AWS::EKS::Cluster", declared.clone(), reordered)).is_empty());
    let widened =
        json!({"ResourcesVpcConfig": {"PublicAccessCidrs": ["203.0.113.0/24", "0.0.0.0/0"]}});
    assert_eq!(
        declared_paths(&run("AWS::EKS::Cluster", declared, widened)),
        vec!["ResourcesVpcConfig.PublicAccessCidrs"]
    );
}

#[test]
fn dns_record_values_are_a_set_but_a_new_value_is_drift() {
    let declared = json!({"RecordSets": [{"Name": "a.example.org.", "Type": "A",
        "ResourceRecords": ["192.0.2.1", "192.0.2.2", "192.0.2.3"]}]});
    let reordered = json!({"RecordSets": [{"Name": "a.example.org.", "Type": "A",
        "ResourceRecords": ["192.0.2.3", "192.0.2.1", "192.0.2.2"]}]});
    assert!(drift(&run(
        "AWS::Route53::RecordSetGroup",
        declared.clone(),
        reordered
    ))
    .is_empty());
    let changed = json!({"RecordSets": [{"Name": "a.example.org.", "Type": "A",
        "ResourceRecords": ["192.0.2.3", "192.0.2.1", "192.0.2.9"]}]});
    assert!(!drift(&run("AWS::Route53::RecordSetGroup", declared, changed)).is_empty());
}

#[test]
fn a_create_only_array_in_another_order_folds_but_a_positional_one_does_not() {
    let schema = create_only(&["BrokerNodes"]);
    let declared = json!({"BrokerNodes": ["b-1:9092", "b-2:9092"], "Layers": ["l1", "l2"]});
    let live = json!({"BrokerNodes": ["b-2:9092", "b-1:9092"], "Layers": ["l2", "l1"]});
    let fs = run_schema("AWS::Example::Stream", schema, declared, live);
    // Layers are not create-only: their order may be a setting and
    // surfaces, as potential drift (the members are the declared ones).
    assert!(declared_paths(&fs).is_empty(), "{fs:?}");
    assert_eq!(order_only_paths(&fs), vec!["Layers"]);
}

#[test]
fn an_omitted_create_only_collection_is_a_read_gap_but_an_omitted_setting_is_drift() {
    // Budgets' read never returns NotificationsWithSubscribers (create-only):
    // its absence cannot show a removal. A settable collection that vanishes
    // was removed.
    let schema = create_only(&["Notifications"]);
    let declared = json!({
        "Notifications": [{"Threshold": 80}],
        "Rules": [{"Id": "r1"}],
        "Name": "b"
    });
    let fs = run_schema(
        "AWS::Example::Budget",
        schema,
        declared,
        json!({"Name": "b"}),
    );
    assert_eq!(declared_paths(&fs), vec!["Rules"]);
    assert!(fs
        .iter()
        .any(|f| f.tier == Tier::ReadGap && f.path == "Notifications"));
}

#[test]
fn a_declared_block_of_write_only_members_is_a_read_gap_when_not_returned() {
    // Lambda's `Code` holds only write-only members (`ZipFile`, `S3Key`):
    // a read that leaves the block out says nothing about it. A readable
    // member in the same block that vanished is a removal.
    let schema = || SchemaFacts {
        write_only_paths: vec!["Code.ZipFile".into(), "Code.S3Key".into()],
        ..SchemaFacts::default()
    };
    let live = json!({"Handler": "index.handler"});
    let fs = run_schema(
        "AWS::Example::Function",
        schema(),
        json!({"Code": {"ZipFile": "exports.handler = 1"}, "Handler": "index.handler"}),
        live.clone(),
    );
    assert!(drift(&fs).is_empty(), "{fs:?}");
    assert!(fs
        .iter()
        .any(|f| f.tier == Tier::ReadGap && f.path == "Code" && f.write_only));
    let fs = run_schema(
        "AWS::Example::Function",
        schema(),
        json!({"Code": {"S3Key": "k.zip", "ImageUri": "repo:1"}, "Handler": "index.handler"}),
        live,
    );
    assert_eq!(declared_paths(&fs), vec!["Code"]);
}

#[test]
fn an_unordered_set_with_an_extra_live_member_reports_the_member() {
    let schema = SchemaFacts {
        unordered_scalar_paths: vec!["Principals".into()],
        ..SchemaFacts::default()
    };
    let declared = json!({"Principals": ["arn:aws:iam::123456789012:role/a"]});
    let live = json!({"Principals": ["arn:aws:iam::123456789012:role/a", "arn:aws:iam::123456789012:role/b"]});
    let fs = run_schema("AWS::Example::Grant", schema, declared, live);
    assert_eq!(
        drift(&fs),
        vec![(
            Tier::Undeclared,
            "Principals[arn:aws:iam::123456789012:role/b]".to_string()
        )]
    );
}

#[test]
fn an_acl_baseline_folds_on_memorydb_but_a_revoking_term_does_not() {
    let declared = json!({"AccessString": "on ~cache:* +@read"});
    let live = json!({"AccessString": "on ~cache:* -@all +@read"});
    assert!(drift(&run("AWS::MemoryDB::User", declared.clone(), live)).is_empty());
    let revoked = json!({"AccessString": "on ~cache:* +@read -@all"});
    assert_eq!(
        declared_paths(&run("AWS::MemoryDB::User", declared, revoked)),
        vec!["AccessString"]
    );
}

#[test]
fn an_undeclared_attribute_list_is_judged_key_by_key_against_documented_defaults() {
    let live = json!({"ListenerAttributes": [
        {"Key": "tcp.idle_timeout.seconds", "Value": "350"}]});
    let fs = run("AWS::ElasticLoadBalancingV2::Listener", json!({}), live);
    assert!(drift(&fs).is_empty(), "{:?}", drift(&fs));
    let changed = json!({"ListenerAttributes": [
        {"Key": "tcp.idle_timeout.seconds", "Value": "900"}]});
    let fs = run("AWS::ElasticLoadBalancingV2::Listener", json!({}), changed);
    assert_eq!(
        drift(&fs),
        vec![(
            Tier::Undeclared,
            "ListenerAttributes[tcp.idle_timeout.seconds]".to_string()
        )]
    );
}

// ---- the account's own identity and AWS-owned defaults -------------------

/// The object `v` with its scalar members left out, down to its deepest
/// blocks: the parents a template declares bare. None for a scalar.
fn skeleton(v: &Value) -> Option<Value> {
    let o = v.as_object()?;
    let kept: serde_json::Map<String, Value> = o
        .iter()
        .filter_map(|(k, x)| Some((k.clone(), skeleton(x)?)))
        .collect();
    Some(Value::Object(kept))
}

fn tier_of(fs: &[Finding], path: &str) -> Option<Tier> {
    fs.iter().find(|f| f.path == path).map(|f| f.tier)
}

#[test]
fn own_account_region_and_service_linked_role_fold_on_an_unseen_type() {
    let live = json!({
        "OwnerAccountId": "123456789012",
        "HomeRegion": "eu-central-1",
        "Regions": ["eu-central-1"],
        "RoleArn": "arn:aws:iam::123456789012:role/aws-service-role/example.amazonaws.com/AWSServiceRoleForExample"
    });
    let fs = run_general("AWS::Example::Widget", json!({}), live);
    for p in ["OwnerAccountId", "HomeRegion", "Regions", "RoleArn"] {
        assert_eq!(tier_of(&fs, p), Some(Tier::AtDefault), "{p}: {fs:?}");
    }
}

#[test]
fn the_own_account_inside_a_declared_object_is_a_setting_not_a_default() {
    // A condition naming the own account, added out of band inside a
    // declared policy-like object, is a change.
    let declared = json!({"Access": {"Effect": "Allow"}});
    let live = json!({"Access": {"Effect": "Allow", "SourceAccount": "123456789012"}});
    let fs = run_general("AWS::Example::Widget", declared, live);
    assert_eq!(
        tier_of(&fs, "Access.SourceAccount"),
        Some(Tier::Undeclared),
        "{fs:?}"
    );
}

#[test]
fn another_account_region_role_or_any_key_still_surfaces() {
    let live = json!({
        "OwnerAccountId": "999988887777",
        "HomeRegion": "us-west-2",
        "Regions": ["eu-central-1", "us-west-2"],
        "RoleArn": "arn:aws:iam::123456789012:role/MyOwnRole",
        "KmsKeyId": "arn:aws:kms:eu-central-1:123456789012:alias/my-key",
        // An AWS-managed key is not a default by shape: unset SNS
        // encryption is no encryption, and the managed key is a change.
        "KmsMasterKeyId": "alias/aws/sns"
    });
    let fs = run_general("AWS::Example::Widget", json!({}), live);
    for p in [
        "OwnerAccountId",
        "HomeRegion",
        "Regions",
        "RoleArn",
        "KmsKeyId",
        "KmsMasterKeyId",
    ] {
        assert_eq!(tier_of(&fs, p), Some(Tier::Undeclared), "{p}: {fs:?}");
    }
    let fs = run_general(
        "AWS::SNS::Topic",
        json!({}),
        json!({"KmsMasterKeyId": "alias/aws/sns"}),
    );
    assert_eq!(
        tier_of(&fs, "KmsMasterKeyId"),
        Some(Tier::Undeclared),
        "{fs:?}"
    );
}

#[test]
fn a_documented_managed_key_default_folds_by_alias_or_arn() {
    // "If you don't specify this value, then Secrets Manager uses the key
    // `aws/secretsmanager`."
    for v in [
        "alias/aws/secretsmanager",
        "arn:aws:kms:eu-central-1:123456789012:alias/aws/secretsmanager",
    ] {
        let fs = run_general(
            "AWS::SecretsManager::Secret",
            json!({}),
            json!({"KmsKeyId": v}),
        );
        assert_eq!(tier_of(&fs, "KmsKeyId"), Some(Tier::AtDefault), "{v}");
    }
    for v in [
        "alias/my-key",
        "arn:aws:kms:eu-central-1:999988887777:alias/aws/secretsmanager",
    ] {
        let fs = run_general(
            "AWS::SecretsManager::Secret",
            json!({}),
            json!({"KmsKeyId": v}),
        );
        assert_eq!(tier_of(&fs, "KmsKeyId"), Some(Tier::Undeclared), "{v}");
    }
}

#[test]
fn documented_forms_fold_their_value_and_nothing_else() {
    // (type, property, the documented value, another value)
    let cases = [
        // "If you omit this, the default event bus is used."
        ("AWS::Events::Rule", "EventBusName", "default", "audit-bus"),
        // "If you do not specify a certificate transparency logging
        // preference on a new CloudFormation template, ..., this is the same
        // as explicitly enabling the preference."
        (
            "AWS::CertificateManager::Certificate",
            "CertificateTransparencyLoggingPreference",
            "ENABLED",
            "DISABLED",
        ),
        // "... it is the same as explicitly denying export of your
        // certificate."
        (
            "AWS::CertificateManager::Certificate",
            "CertificateExport",
            "DISABLED",
            "ENABLED",
        ),
        // "If you omit this parameter, the default behavior of `missing` is
        // used."
        (
            "AWS::CloudWatch::Alarm",
            "TreatMissingData",
            "missing",
            "notBreaching",
        ),
        // "By default `TracingConfig` is set to `PassThrough` , and the topic
        // passes through the tracing header it receives ..." (a clause on
        // what the default does).
        ("AWS::SNS::Topic", "TracingConfig", "PassThrough", "Active"),
        // "The default is `NONE` ." where the schema's enum leaves `NONE`
        // out and the API model's lists it.
        ("AWS::ECS::Service", "PropagateTags", "NONE", "SERVICE"),
        // "If you omit this, the default schedule group is used." (the
        // name's subject past the qualifier).
        (
            "AWS::Scheduler::Schedule",
            "GroupName",
            "default",
            "nightly-jobs",
        ),
        // "If you don't provide a maintenance track name, the cluster is
        // assigned to the `current` track."
        (
            "AWS::Redshift::Cluster",
            "MaintenanceTrackName",
            "current",
            "trailing",
        ),
        (
            "AWS::RedshiftServerless::Workgroup",
            "TrackName",
            "current",
            "trailing",
        ),
        // "Enabled by default." on a string whose spelling only the API
        // model's options structure states (`Options.DnsSupport`).
        (
            "AWS::EC2::TransitGateway",
            "DnsSupport",
            "enable",
            "disable",
        ),
        (
            "AWS::EC2::TransitGateway",
            "AutoAcceptSharedAttachments",
            "disable",
            "enable",
        ),
        // "No longer used. If included, the only allowed value is ...".
        (
            "AWS::Location::Map",
            "PricingPlan",
            "RequestBasedUsage",
            "MobileAssetTracking",
        ),
        // "A compute environment must be created in the `ENABLED` state."
        (
            "AWS::Batch::ComputeEnvironment",
            "State",
            "ENABLED",
            "DISABLED",
        ),
        // "By default, log data is grouped by log stream, but the grouping
        // can be set to random": the enum value spelled in words.
        (
            "AWS::Logs::SubscriptionFilter",
            "Distribution",
            "ByLogStream",
            "Random",
        ),
        // "If this argument is omitted, the default parameter group for the
        // specified engine is used.": AWS's own group, named `default.*`.
        (
            "AWS::ElastiCache::CacheCluster",
            "CacheParameterGroupName",
            "default.redis7",
            "orders-redis7",
        ),
        (
            "AWS::RDS::DBInstance",
            "DBParameterGroupName",
            "default.postgres17",
            "defaults-tuned",
        ),
        // "The default tier when you begin using Parameter Store is the
        // standard-parameter tier." (API model; the noun is the property).
        ("AWS::SSM::Parameter", "Tier", "Standard", "Advanced"),
        // "By default, `SELF-MANAGED` is specified." (API model).
        (
            "AWS::CloudFormation::StackSet",
            "PermissionModel",
            "SELF_MANAGED",
            "SERVICE_MANAGED",
        ),
        // "If you omit this parameter, the default is `Web`." (API model).
        ("AWS::RUM::AppMonitor", "Platform", "Web", "Android"),
        // "If you don't specify an execution role, CloudFormation uses the
        // `AWSCloudFormationStackSetExecutionRole` role for the StackSet
        // operation." (the subject and noun name the property).
        (
            "AWS::CloudFormation::StackSet",
            "ExecutionRoleName",
            "AWSCloudFormationStackSetExecutionRole",
            "OrgExecutionRole",
        ),
    ];
    for (t, prop, documented, other) in cases {
        let fs = run_general(t, json!({}), json!({ prop: documented }));
        assert_eq!(tier_of(&fs, prop), Some(Tier::AtDefault), "{t} {prop}");
        let fs = run_general(t, json!({}), json!({ prop: other }));
        assert_eq!(tier_of(&fs, prop), Some(Tier::Undeclared), "{t} {prop}");
    }
    // "By default, the TTL value for a table is 0, which means data does not
    // expire." on `DefaultTimeToLive`: the abbreviation spells the name.
    // Numbers: "By default, the TTL value for a table is 0, which means
    // data does not expire." (the abbreviation spells `DefaultTimeToLive`);
    // "- 0 - Creates a DB shard group without a standby ... This is the
    // default value." (an item led by bare digits); "Defaults to 0 if not
    // specified." (the property itself unset).
    for (t, prop, documented, other) in [
        ("AWS::Cassandra::Table", "DefaultTimeToLive", 0, 86400),
        ("AWS::RDS::DBShardGroup", "ComputeRedundancy", 0, 2),
        ("AWS::AutoScaling::WarmPool", "MinSize", 0, 2),
    ] {
        let fs = run_general(t, json!({}), json!({ prop: documented }));
        assert_eq!(tier_of(&fs, prop), Some(Tier::AtDefault), "{t} {prop}");
        let fs = run_general(t, json!({}), json!({ prop: other }));
        assert_eq!(tier_of(&fs, prop), Some(Tier::Undeclared), "{t} {prop}");
    }
    // "The AWS managed 'AdministratorAccess' policy is applied as a default
    // if this is not set.": that policy's ARN, and nothing wider or other.
    let admin = "arn:aws:iam::aws:policy/AdministratorAccess";
    let read_only = "arn:aws:iam::aws:policy/ReadOnlyAccess";
    for t in [
        "AWS::Chatbot::MicrosoftTeamsChannelConfiguration",
        "AWS::Chatbot::SlackChannelConfiguration",
    ] {
        let fs = run_general(t, json!({}), json!({"GuardrailPolicies": [admin]}));
        assert_eq!(
            tier_of(&fs, "GuardrailPolicies"),
            Some(Tier::AtDefault),
            "{t}"
        );
        for other in [json!([read_only]), json!([admin, read_only])] {
            let fs = run_general(t, json!({}), json!({ "GuardrailPolicies": other }));
            assert!(!drift(&fs).is_empty(), "{t} {fs:?}");
        }
    }
    // "Valid values are `auto` (case-sensitive), `'timeformat_string'` ...
    // It defaults to 10." on DMS `TimeFormat`: a value the text's own list
    // leaves out is a slip, not a default.
    let t = "AWS::DMS::Endpoint";
    let fs = run_general(
        t,
        json!({}),
        json!({"RedshiftSettings": {"TimeFormat": "10"}}),
    );
    assert!(!drift(&fs).is_empty(), "{fs:?}");
    // "The only valid value is HTTP" on a property that is in use (Cloud
    // Map's Type) is not a default: DNS_HTTP and HTTP both surface.
    for v in ["DNS_HTTP", "HTTP"] {
        let fs = run_general(
            "AWS::ServiceDiscovery::Service",
            json!({}),
            json!({"Type": v}),
        );
        assert_eq!(tier_of(&fs, "Type"), Some(Tier::Undeclared), "{v}");
    }
}

#[test]
fn nested_documented_forms_fold_their_value_and_nothing_else() {
    // (type, top-level property, path below it, the documented value,
    // another value)
    let cases = [
        // "The default setting is 300." (WAF immunity time).
        (
            "AWS::WAFv2::WebACL",
            "CaptchaConfig",
            "ImmunityTimeProperty.ImmunityTime",
            json!(300),
            json!(600),
        ),
        // "... not affected by this parameter If this parameter is omitted,
        // the default value of `1` is used." (a full stop missing).
        (
            "AWS::ECS::CapacityProvider",
            "AutoScalingGroupProvider",
            "ManagedScaling.MinimumScalingStepSize",
            json!(1),
            json!(2),
        ),
        // "- **COGNITO_DEFAULT** - ... When you use the default option,
        // ...": a listed value, in bold, that calls itself the default.
        (
            "AWS::Cognito::UserPool",
            "EmailConfiguration",
            "EmailSendingAccount",
            json!("COGNITO_DEFAULT"),
            json!("DEVELOPER"),
        ),
        // "- **lowest-price** - ... This is the default value, but it might
        // lead to high interruption rates ...": a warning, not a condition.
        (
            "AWS::AutoScaling::AutoScalingGroup",
            "MixedInstancesPolicy",
            "InstancesDistribution.SpotAllocationStrategy",
            json!("lowest-price"),
            json!("capacity-optimized"),
        ),
        // "Otherwise, if you don't specify a value for `FailureThreshold`,
        // the default value is three health checks." (the noun the property
        // counts, past its own "not supported when" case).
        (
            "AWS::Route53::HealthCheck",
            "HealthCheckConfig",
            "FailureThreshold",
            json!(3),
            json!(5),
        ),
        // "The default is `\"admin\"` ." (a value quoted twice).
        (
            "AWS::DMS::Endpoint",
            "MongoDbSettings",
            "AuthSource",
            json!("admin"),
            json!("orders"),
        ),
        // "- `NONE` : ... This is the default if `packaging` is not
        // specified."
        (
            "AWS::CodeBuild::ReportGroup",
            "ExportConfig",
            "S3Destination.Packaging",
            json!("NONE"),
            json!("ZIP"),
        ),
        // "If the parameter is not specified, the default state is
        // `enabled`."
        (
            "AWS::AutoScaling::LaunchConfiguration",
            "MetadataOptions",
            "HttpEndpoint",
            json!("enabled"),
            json!("disabled"),
        ),
        // "If you don't specify a value, Amplify uses the `STANDARD_8GB`
        // default."
        (
            "AWS::Amplify::App",
            "JobConfig",
            "BuildComputeType",
            json!("STANDARD_8GB"),
            json!("LARGE_16GB"),
        ),
        // "If you don't specify a value, Amazon Comprehend uses
        // `COMPREHEND_CSV` as the default."
        (
            "AWS::Comprehend::DocumentClassifier",
            "InputDataConfig",
            "DataFormat",
            json!("COMPREHEND_CSV"),
            json!("AUGMENTED_MANIFEST"),
        ),
    ];
    for (t, top, below, documented, other) in cases {
        let nest = |v: &serde_json::Value| {
            let node = below
                .rsplit('.')
                .fold(v.clone(), |n, seg| json!({ seg: n }));
            json!({ top: node })
        };
        // A member's default folds inside a block the template declares
        // (here, bare down to the member's parent); a block nobody
        // declared needs evidence that AWS creates it (issue 47).
        let parents = below
            .rsplit('.')
            .skip(1)
            .fold(json!({}), |n, seg| json!({ seg: n }));
        let declared = json!({ top: parents });
        let fs = run_general(t, declared, nest(&documented));
        assert!(
            fs.iter().all(|f| f.tier != Tier::Undeclared),
            "{t} {top}.{below}: {fs:?}"
        );
        let fs = run_general(t, json!({}), nest(&other));
        assert!(
            fs.iter().any(|f| f.tier == Tier::Undeclared),
            "{t} {top}.{below}: {fs:?}"
        );
    }
}

#[test]
fn a_default_for_a_field_named_in_its_own_condition_folds_deep_in_lists() {
    // Lex: "If the `IsActive` field isn't specified, the default is true."
    let t = "AWS::Lex::Bot";
    let bot = |closing: serde_json::Value| {
        json!({"Name": "orders", "RoleArn": "arn:aws:iam::123456789012:role/lex",
               "DataPrivacy": {"ChildDirected": false}, "IdleSessionTTLInSeconds": 300,
               "BotLocales": [{"LocaleId": "de_DE", "NluConfidenceThreshold": 0.4,
                 "Intents": [{"Name": "Bestellen", "IntentClosingSetting": closing}]}]})
    };
    let declared = bot(json!({"ClosingResponse": {"AllowInterrupt": true}}));
    let tier = |active: bool| {
        let live = bot(json!({"ClosingResponse": {"AllowInterrupt": true}, "IsActive": active}));
        run_general(t, declared.clone(), live)
            .into_iter()
            .find(|f| f.path.ends_with("IntentClosingSetting.IsActive"))
            .map(|f| f.tier)
    };
    assert_eq!(tier(true), Some(Tier::AtDefault));
    assert_eq!(tier(false), Some(Tier::Undeclared));
}

#[test]
fn a_member_default_named_in_its_own_condition_folds_only_at_that_value() {
    // ECS: "If the `swappiness` parameter is not specified, a default value
    // of `60` is used."
    let declared = json!({"ContainerDefinitions": [{"Name": "web", "Image": "nginx:1.27", "LinuxParameters": {"InitProcessEnabled": true}}]});
    let live = |swappiness: i64| {
        json!({"ContainerDefinitions": [{"Name": "web", "Image": "nginx:1.27",
            "LinuxParameters": {"InitProcessEnabled": true, "Swappiness": swappiness}}]})
    };
    let path = "ContainerDefinitions[web].LinuxParameters.Swappiness";
    let t = "AWS::ECS::TaskDefinition";
    let fs = run_general(t, declared.clone(), live(60));
    assert_eq!(tier_of(&fs, path), Some(Tier::AtDefault), "{fs:?}");
    let fs = run_general(t, declared, live(10));
    assert_eq!(tier_of(&fs, path), Some(Tier::Undeclared), "{fs:?}");
}

#[test]
fn an_undeclared_create_only_value_is_at_default_on_any_type() {
    // The registry schema says `Engine` and `Zone` are set at creation only;
    // `Mode` can change in place only in some states (conditionally
    // create-only) and `Size` any time.
    let schema = SchemaFacts {
        create_only: vec!["Engine".into(), "Zone".into()],
        conditional_create_only_paths: vec!["Mode".into()],
        ..SchemaFacts::default()
    };
    let live = json!({"Engine": "v2", "Zone": "eu-central-1b", "Mode": "fast", "Size": 20});
    let fs = classify_with(
        &resource("AWS::Example::Store", json!({})),
        &live,
        &schema,
        &context(),
        Knowledge::WithoutObserved,
    );
    for p in ["Engine", "Zone"] {
        let f = fs.iter().find(|f| f.path == p).expect(p);
        assert_eq!((f.tier, f.create_only), (Tier::AtDefault, true), "{p}");
    }
    for p in ["Mode", "Size"] {
        assert_eq!(tier_of(&fs, p), Some(Tier::Undeclared), "{p}");
    }
    // Declared, a create-only value is compared like any other.
    let fs = classify_with(
        &resource("AWS::Example::Store", json!({"Engine": "v1"})),
        &live,
        &schema,
        &context(),
        Knowledge::WithoutObserved,
    );
    assert_eq!(tier_of(&fs, "Engine"), Some(Tier::Declared));
}

#[test]
fn a_number_documented_as_unset_when_zero_folds_only_at_zero() {
    // ECS: "A null or zero CPU value is passed to Docker as `0`": a
    // container declared without `cpu` reads back 0.
    let declared = json!({"ContainerDefinitions": [{"Name": "web", "Image": "nginx:1.27"}]});
    let live = |cpu: i64| json!({"ContainerDefinitions": [{"Name": "web", "Image": "nginx:1.27", "Cpu": cpu}]});
    let t = "AWS::ECS::TaskDefinition";
    let fs = run_general(t, declared.clone(), live(0));
    assert_eq!(
        tier_of(&fs, "ContainerDefinitions[web].Cpu"),
        Some(Tier::AtDefault),
        "{fs:?}"
    );
    let fs = run_general(t, declared, live(256));
    assert_eq!(
        tier_of(&fs, "ContainerDefinitions[web].Cpu"),
        Some(Tier::Undeclared),
        "{fs:?}"
    );
}

#[test]
fn values_the_documentation_says_aws_chooses_fold_on_a_first_run() {
    // (type, property, a value AWS chose): "To let Amazon choose the IPv6
    // CIDR block for you, omit this parameter."; "If you do not specify this
    // parameter, ElastiCache automatically chooses an appropriate time
    // range."; the API model's "The default is a 30-minute window selected
    // at random" (RDS backup window, absent from the CloudFormation text).
    let cases = [
        (
            "AWS::EC2::VPCCidrBlock",
            "Ipv6CidrBlock",
            "2600:1f18:aa00:1200::/56",
        ),
        (
            "AWS::ElastiCache::CacheCluster",
            "SnapshotWindow",
            "04:30-05:30",
        ),
        (
            "AWS::RDS::DBInstance",
            "PreferredBackupWindow",
            "09:12-09:42",
        ),
        // "The default value is a random, system-chosen Availability Zone".
        (
            "AWS::DMS::ReplicationInstance",
            "AvailabilityZone",
            "eu-central-1b",
        ),
    ];
    for (t, prop, chosen) in cases {
        let fs = run_general(t, json!({}), json!({ prop: chosen }));
        assert_eq!(tier_of(&fs, prop), Some(Tier::AtDefault), "{t} {prop}");
        // Declared, it is compared like any other value.
        let fs = run_general(t, json!({ prop: "x" }), json!({ prop: chosen }));
        assert_eq!(tier_of(&fs, prop), Some(Tier::Declared), "{t} {prop}");
    }
}

#[test]
fn api_model_defaults_fold_their_value_and_nothing_else() {
    // (type, property, the documented value, another value), from the
    // service API models. Several are reached only through
    // scripts/data/api-operations.json or a case-insensitive operation
    // name: Cognito user pools live in `cognito-idp` ("Defaults to
    // `LEGACY`."), Bedrock agents in `bedrock-agent`, Firehose in
    // `firehose`, AWS::EC2::VPC is created by `CreateVpc` ("Default:
    // `default`"), AWS::EC2::VPNGateway by `CreateVpnGateway` ("Default:
    // 64512").
    let cases = [
        (
            "AWS::Cognito::UserPoolClient",
            "PreventUserExistenceErrors",
            json!("LEGACY"),
            json!("ENABLED"),
        ),
        (
            "AWS::EC2::VPC",
            "InstanceTenancy",
            json!("default"),
            json!("dedicated"),
        ),
        (
            "AWS::EC2::VPNGateway",
            "AmazonSideAsn",
            json!(64512),
            json!(65010),
        ),
        // "This is set to `DEFAULT` orchestration type, by default."
        (
            "AWS::Bedrock::Agent",
            "OrchestrationType",
            json!("DEFAULT"),
            json!("CUSTOM_ORCHESTRATION"),
        ),
        // "If no key ID is specified, the default, Kinesis Video-managed key
        // (`aws/kinesisvideo`) is used." (that alias's ARN in this account).
        (
            "AWS::KinesisVideo::Stream",
            "KmsKeyId",
            json!("arn:aws:kms:eu-central-1:123456789012:alias/aws/kinesisvideo"),
            json!("arn:aws:kms:eu-central-1:123456789012:key/0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0"),
        ),
        // "When you use `create-service` or `update-service`, the default is
        // `DISABLED`."
        (
            "AWS::ECS::Service",
            "NetworkConfiguration",
            json!({"AwsvpcConfiguration": {"AssignPublicIp": "DISABLED"}}),
            json!({"AwsvpcConfiguration": {"AssignPublicIp": "ENABLED"}}),
        ),
        // "If you don't specify `DefaultAuthScheme` or specify this
        // parameter as `NONE`, ..." (no value behaves as NONE).
        (
            "AWS::RDS::DBProxy",
            "DefaultAuthScheme",
            json!("NONE"),
            json!("IAM_AUTH"),
        ),
        (
            "AWS::KinesisFirehose::DeliveryStream",
            "ExtendedS3DestinationConfiguration",
            json!({"BufferingHints": {"IntervalInSeconds": 300, "SizeInMBs": 5}}),
            json!({"BufferingHints": {"IntervalInSeconds": 60, "SizeInMBs": 5}}),
        ),
    ];
    for (t, prop, documented, other) in cases {
        // A member's default folds inside a block the template declares
        // (bare down to the member's parent).
        if let Some(parents) = skeleton(&documented) {
            let fs = run_general(t, json!({ prop: parents }), json!({ prop: documented }));
            assert!(drift(&fs).is_empty(), "{t} {prop}: {fs:?}");
        } else {
            let fs = run_general(t, json!({}), json!({ prop: documented }));
            assert_eq!(tier_of(&fs, prop), Some(Tier::AtDefault), "{t} {prop}");
        }
        let fs = run_general(t, json!({}), json!({ prop: other }));
        assert_eq!(tier_of(&fs, prop), Some(Tier::Undeclared), "{t} {prop}");
    }
    // The default security group AWS picks when none is given: chosen at
    // create, folds on a first run, compared once declared. DAX: "If this
    // parameter is not specified, DAX assigns the default VPC security
    // group"; ElastiCache: "If no other information is given this will be
    // the VPC's Default Security Group"; RDS: "Default: The default EC2 VPC
    // security group" on the API's `VpcSecurityGroupIds`, which
    // CloudFormation calls `VPCSecurityGroups`.
    for (t, prop) in [
        ("AWS::DAX::Cluster", "SecurityGroupIds"),
        ("AWS::ElastiCache::ServerlessCache", "SecurityGroupIds"),
        ("AWS::RDS::DBInstance", "VPCSecurityGroups"),
    ] {
        let sg = json!({ prop: ["sg-0123456789abcdef0"] });
        let fs = run_general(t, json!({}), sg.clone());
        assert_eq!(tier_of(&fs, prop), Some(Tier::AtDefault), "{t} {prop}");
        let fs = run_general(t, json!({ prop: ["sg-0fedcba9876543210"] }), sg);
        assert_eq!(tier_of(&fs, prop), Some(Tier::Declared), "{t} {prop}");
    }
}

#[test]
fn a_reference_echoed_under_another_kind_is_silent_but_a_second_field_of_its_kind_is_not() {
    // Cloud Control's EC2 route repeats the gateway under `VpcEndpointId`.
    let t = "AWS::EC2::Route";
    let route = json!({"RouteTableId": "rtb-0a1b2c3d4e5f60718", "DestinationCidrBlock": "0.0.0.0/0",
        "GatewayId": "igw-0c7816775f3353a51"});
    let mut live = route.clone();
    live["VpcEndpointId"] = json!("igw-0c7816775f3353a51");
    assert!(drift(&run_general(t, route, live)).is_empty());
    // The cluster's own key set out of band as its Performance Insights
    // key is a setting, not an echo.
    let t = "AWS::RDS::DBCluster";
    let key = "arn:aws:kms:us-east-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab";
    let cluster = json!({"Engine": "aurora-postgresql", "KmsKeyId": key, "StorageEncrypted": true});
    let mut live = cluster.clone();
    live["PerformanceInsightsKmsKeyId"] = json!(key);
    let fs = run_general(t, cluster, live);
    assert_eq!(
        tier_of(&fs, "PerformanceInsightsKmsKeyId"),
        Some(Tier::Undeclared),
        "{fs:?}"
    );
}

#[test]
fn a_restatement_of_a_declared_list_is_silent_but_an_extra_member_is_not() {
    let declared = json!({"Subnets": ["subnet-0aaa1111", "subnet-0bbb2222"]});
    let same = json!({"Subnets": ["subnet-0aaa1111", "subnet-0bbb2222"],
        "SubnetMappings": [{"SubnetId": "subnet-0bbb2222"}, {"SubnetId": "subnet-0aaa1111"}]});
    let fs = run_general("AWS::Example::Balancer", declared.clone(), same);
    assert_eq!(tier_of(&fs, "SubnetMappings"), None, "{fs:?}");
    let more = json!({"Subnets": ["subnet-0aaa1111", "subnet-0bbb2222"],
        "SubnetMappings": [{"SubnetId": "subnet-0aaa1111"}, {"SubnetId": "subnet-0bbb2222"},
                           {"SubnetId": "subnet-0ccc3333"}]});
    let fs = run_general("AWS::Example::Balancer", declared, more);
    assert_eq!(
        tier_of(&fs, "SubnetMappings"),
        Some(Tier::Undeclared),
        "{fs:?}"
    );
}

#[test]
fn a_nested_member_restating_its_siblings_reference_is_silent_but_another_target_is_not() {
    let tg =
        "arn:aws:elasticloadbalancing:eu-central-1:123456789012:targetgroup/web/0a1b2c3d4e5f6071";
    let other =
        "arn:aws:elasticloadbalancing:eu-central-1:123456789012:targetgroup/api/1a2b3c4d5e6f7081";
    let declared = json!({"Actions": [{"Type": "forward", "TargetGroupArn": tg}]});
    let live = |fwd: Value| json!({"Actions": [{"Type": "forward", "TargetGroupArn": tg, "Forward": fwd}]});
    let same =
        live(json!({"TargetGroups": [{"TargetGroupArn": tg}], "Stickiness": {"Enabled": false}}));
    let fs = run_general("AWS::Example::Router", declared.clone(), same);
    assert!(fs.iter().all(|f| f.path != "Actions.0.Forward"), "{fs:?}");
    for changed in [
        json!({"TargetGroups": [{"TargetGroupArn": other}]}),
        json!({"TargetGroups": [{"TargetGroupArn": tg}, {"TargetGroupArn": other}]}),
        json!({"TargetGroups": [{"TargetGroupArn": tg}], "Stickiness": {"Enabled": true}}),
    ] {
        let fs = run_general("AWS::Example::Router", declared.clone(), live(changed));
        assert_eq!(
            tier_of(&fs, "Actions.0.Forward"),
            Some(Tier::Undeclared),
            "{fs:?}"
        );
    }
}

#[test]
fn an_encoded_copy_of_a_declared_string_is_silent_but_another_encoding_is_not() {
    let declared = json!({"Match": {"SearchString": "cdkrd-hunt"}});
    let live =
        |enc: &str| json!({"Match": {"SearchString": "cdkrd-hunt", "SearchStringBase64": enc}});
    let fs = run_general(
        "AWS::Example::Filter",
        declared.clone(),
        live("Y2RrcmQtaHVudA=="),
    );
    assert_eq!(tier_of(&fs, "Match.SearchStringBase64"), None, "{fs:?}");
    let fs = run_general("AWS::Example::Filter", declared, live("ZXZpbA=="));
    assert_eq!(
        tier_of(&fs, "Match.SearchStringBase64"),
        Some(Tier::Undeclared),
        "{fs:?}"
    );
}

// ---- a declared list AWS may return in its own order ----------------------

#[test]
fn a_declared_list_in_another_order_is_potential_drift_not_declared() {
    let declared = json!({"Projection": {"NonKeyAttributes": ["zeta", "alpha", "mike"]},
        "Filters": [{"Type": "HATE", "Strength": "HIGH"}, {"Type": "VIOLENCE", "Strength": "LOW"}]});
    let live = json!({"Projection": {"NonKeyAttributes": ["alpha", "zeta", "mike"]},
        "Filters": [{"Type": "VIOLENCE", "Strength": "LOW"}, {"Type": "HATE", "Strength": "HIGH"}]});
    let fs = run_general("AWS::Example::Index", declared.clone(), live);
    assert!(declared_paths(&fs).is_empty(), "{fs:?}");
    for p in ["Projection.NonKeyAttributes", "Filters"] {
        let f = fs.iter().find(|f| f.path == p).expect(p);
        assert_eq!((f.tier, f.order_only), (Tier::Undeclared, true), "{p}");
        assert!(f.desired.is_some() && f.actual.is_some());
    }
    // A member changed, added or removed is declared drift as before.
    for live in [
        json!({"Projection": {"NonKeyAttributes": ["alpha", "zeta", "oscar"]},
               "Filters": [{"Type": "HATE", "Strength": "HIGH"}, {"Type": "VIOLENCE", "Strength": "LOW"}]}),
        json!({"Projection": {"NonKeyAttributes": ["zeta", "alpha", "mike"]},
               "Filters": [{"Type": "VIOLENCE", "Strength": "HIGH"}, {"Type": "HATE", "Strength": "HIGH"}]}),
    ] {
        let fs = run_general("AWS::Example::Index", declared.clone(), live);
        assert_eq!(declared_paths(&fs).len(), 1, "{fs:?}");
        assert!(fs.iter().all(|f| !f.order_only));
    }
    // A permutation in sorted order is no different: AWS may have sorted a
    // set, or someone reordered a list whose order counts. Nothing says
    // which, so it surfaces as order-only potential drift.
    let sorted = json!({"Projection": {"NonKeyAttributes": ["alpha", "mike", "zeta"]},
        "Filters": [{"Type": "HATE", "Strength": "HIGH"}, {"Type": "VIOLENCE", "Strength": "LOW"}]});
    let fs = run_general("AWS::Example::Index", declared, sorted);
    assert!(declared_paths(&fs).is_empty(), "{fs:?}");
    assert_eq!(order_only_paths(&fs), vec!["Projection.NonKeyAttributes"]);
}

#[test]
fn command_arguments_reordered_into_sorted_order_are_not_hidden() {
    // A container image's command runs its arguments in order. Swapped out
    // of band into alphabetical order, they used to fold as "a set AWS
    // sorted"; the reorder is now reported. The same swap on a create-only
    // list (an ECS task definition's command) cannot be made in place, so
    // there it is the service's own order and stays silent.
    let declared = json!({"PackageType": "Image",
        "ImageConfig": {"Command": ["app.handler", "--verbose"]}});
    let live = json!({"PackageType": "Image",
        "ImageConfig": {"Command": ["--verbose", "app.handler"]}});
    for fs in [
        run("AWS::Lambda::Function", declared.clone(), live.clone()),
        run_general("AWS::Lambda::Function", declared.clone(), live),
    ] {
        assert_eq!(order_only_paths(&fs), vec!["ImageConfig.Command"], "{fs:?}");
        let f = fs.iter().find(|f| f.path == "ImageConfig.Command");
        assert_eq!(
            f.and_then(|f| f.desired.clone()),
            Some(json!(["app.handler", "--verbose"]))
        );
    }
    let task = |cmd: &[&str]| json!({"ContainerDefinitions": [{"Name": "web", "Image": "nginx", "Command": cmd}]});
    let schema = create_only(&["ContainerDefinitions"]);
    let fs = run_schema(
        "AWS::ECS::TaskDefinition",
        schema,
        task(&["sh", "-c", "echo hi"]),
        task(&["-c", "echo hi", "sh"]),
    );
    assert!(drift(&fs).is_empty(), "{fs:?}");
}

#[test]
fn an_api_shape_a_sibling_type_calls_unordered_is_unordered_here_too() {
    // AWS::DynamoDB::Table's `Projection` says nothing of its order; the
    // identical definition in AWS::DynamoDB::GlobalTable marks
    // `NonKeyAttributes` insertionOrder false. A permutation is the same
    // set (silent); another member is declared drift.
    let gsi = |attrs: serde_json::Value| {
        json!({"GlobalSecondaryIndexes": [{"IndexName": "gsi1",
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
            "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": attrs}}]})
    };
    let declared = gsi(json!(["zeta", "alpha", "mike", "bravo"]));
    let fs = run_general(
        "AWS::DynamoDB::Table",
        declared.clone(),
        gsi(json!(["alpha", "bravo", "zeta", "mike"])),
    );
    assert!(drift(&fs).is_empty(), "{fs:?}");
    let fs = run_general(
        "AWS::DynamoDB::Table",
        declared,
        gsi(json!(["alpha", "bravo", "zeta", "oscar"])),
    );
    assert_eq!(declared_paths(&fs).len(), 1, "{fs:?}");
}

#[test]
fn a_declared_reference_repeated_under_another_field_is_silent_but_another_is_not() {
    let declared = json!({"GatewayId": "igw-0a1b2c3d4e5f60718"});
    let echoed =
        json!({"GatewayId": "igw-0a1b2c3d4e5f60718", "VpcEndpointId": "igw-0a1b2c3d4e5f60718"});
    let fs = run_general("AWS::Example::Route", declared.clone(), echoed);
    assert_eq!(tier_of(&fs, "VpcEndpointId"), None, "{fs:?}");
    let other =
        json!({"GatewayId": "igw-0a1b2c3d4e5f60718", "VpcEndpointId": "vpce-0a1b2c3d4e5f60718"});
    let fs = run_general("AWS::Example::Route", declared, other);
    assert_eq!(
        tier_of(&fs, "VpcEndpointId"),
        Some(Tier::Undeclared),
        "{fs:?}"
    );
}

#[test]
fn a_setting_whose_words_equal_a_declared_one_is_not_a_restatement() {
    // S3 transfer acceleration switched on out of band beside declared
    // versioning: both say "Enabled", and the new one is a real change.
    let declared = json!({"VersioningConfiguration": {"Status": "Enabled"}});
    let live = json!({"VersioningConfiguration": {"Status": "Enabled"},
        "AccelerateConfiguration": {"AccelerationStatus": "Enabled"}});
    let fs = run("AWS::S3::Bucket", declared.clone(), live.clone());
    assert_eq!(
        tier_of(&fs, "AccelerateConfiguration"),
        Some(Tier::Undeclared),
        "{fs:?}"
    );
    let fs = run_general("AWS::S3::Bucket", declared, live);
    assert_eq!(
        tier_of(&fs, "AccelerateConfiguration"),
        Some(Tier::Undeclared),
        "{fs:?}"
    );
}

#[test]
fn an_order_only_finding_inside_an_array_element_keeps_the_revert_hint() {
    let declared = json!({"Indexes": [{"IndexName": "by-a", "Attrs": ["zeta", "alpha", "mike"]}]});
    let live = json!({"Indexes": [{"IndexName": "by-a", "Attrs": ["alpha", "zeta", "mike"]}]});
    let fs = run_general("AWS::Example::Index", declared.clone(), live);
    let f = fs
        .iter()
        .find(|f| f.order_only)
        .expect("an order-only finding");
    assert_eq!(f.tier, Tier::Undeclared, "{fs:?}");
    // The same finding as declared drift would carry (a changed member).
    let changed = json!({"Indexes": [{"IndexName": "by-a", "Attrs": ["alpha", "zeta", "oscar"]}]});
    let fs2 = run_general("AWS::Example::Index", declared, changed);
    let d = fs2
        .iter()
        .find(|f| f.tier == Tier::Declared)
        .expect("declared drift");
    assert_eq!(f.path, d.path);
    assert_eq!(
        f.whole_array_revert.is_some(),
        d.whole_array_revert.is_some()
    );
}

#[test]
fn reordered_lambda_layers_stay_declared_drift() {
    let (a, b) = (
        "arn:aws:lambda:eu-central-1:123456789012:layer:base:3",
        "arn:aws:lambda:eu-central-1:123456789012:layer:extra:1",
    );
    let fs = run_general(
        "AWS::Lambda::Function",
        json!({"Layers": [a, b]}),
        json!({"Layers": [b, a]}),
    );
    assert_eq!(declared_paths(&fs), vec!["Layers"], "{fs:?}");
    assert!(fs.iter().all(|f| !f.order_only));
}

#[test]
fn an_unset_value_where_a_known_default_is_set_is_a_change_not_noise() {
    // Documented "token revocation is automatically activated" / KMS keys
    // are created enabled: found off, each was turned off.
    for (t, prop) in [
        ("AWS::Cognito::UserPoolClient", "EnableTokenRevocation"),
        ("AWS::KMS::Key", "Enabled"),
    ] {
        let fs = run_general(t, json!({}), json!({ prop: false }));
        let f = fs.iter().find(|f| f.path == prop).expect(prop);
        assert_eq!(f.tier, Tier::Undeclared, "{t} {prop}");
        // The report says why an unset value is shown.
        assert_eq!(
            f.note.as_deref(),
            Some("unset, where the known default is true"),
            "{t} {prop}"
        );
        let fs = run_general(t, json!({}), json!({ prop: true }));
        assert_eq!(tier_of(&fs, prop), Some(Tier::AtDefault), "{t} {prop}");
    }
    // Nested too: App Mesh "The default is `True`, if a value isn't
    // specified." for TLS enforcement, found off inside a declared block.
    let tls = |enforce: Option<bool>| {
        let mut t = json!({"Validation": {"Trust": {"ACM": {"CertificateAuthorityArns":
            ["arn:aws:acm-pca:eu-west-1:123456789012:certificate-authority/0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0"]}}}});
        if let Some(e) = enforce {
            t["Enforce"] = json!(e);
        }
        json!({"MeshName": "m", "Spec": {"BackendDefaults": {"ClientPolicy": {"TLS": t}}}})
    };
    let t = "AWS::AppMesh::VirtualNode";
    let path = "Spec.BackendDefaults.ClientPolicy.TLS.Enforce";
    let fs = run_general(t, tls(None), tls(Some(false)));
    assert_eq!(tier_of(&fs, path), Some(Tier::Undeclared), "{fs:?}");
    let fs = run_general(t, tls(None), tls(Some(true)));
    assert_eq!(drift(&fs), vec![], "{fs:?}");
    // Where the known default is itself unset, unset stays noise: CodeBuild
    // "The default setting is `false`".
    let fs = run_general(
        "AWS::CodeBuild::Project",
        json!({"Environment": {"Type": "LINUX_CONTAINER", "ComputeType": "BUILD_GENERAL1_SMALL", "Image": "aws/codebuild/standard:7.0"}}),
        json!({"Environment": {"Type": "LINUX_CONTAINER", "ComputeType": "BUILD_GENERAL1_SMALL", "Image": "aws/codebuild/standard:7.0", "PrivilegedMode": false}}),
    );
    assert_eq!(drift(&fs), vec![], "{fs:?}");
}

#[test]
fn an_unset_value_is_judged_against_the_default_that_applies_to_it() {
    // SNI is on by default for HTTPS checks only: off on an HTTP check is
    // what AWS stores, off on an HTTPS check was turned off.
    let t = "AWS::Route53::HealthCheck";
    let check = |kind: &str| json!({"HealthCheckConfig": {"Type": kind, "FullyQualifiedDomainName": "example.com"}});
    let live = |kind: &str| json!({"HealthCheckConfig": {"Type": kind, "FullyQualifiedDomainName": "example.com", "EnableSNI": false}});
    assert_eq!(drift(&run(t, check("HTTP"), live("HTTP"))), vec![]);
    assert_eq!(
        tier_of(
            &run(t, check("HTTPS"), live("HTTPS")),
            "HealthCheckConfig.EnableSNI"
        ),
        Some(Tier::Undeclared)
    );
    // SQS turns SSE-SQS off when the queue uses a KMS key (one server-side
    // encryption option per queue); without a key, off is a change.
    let t = "AWS::SQS::Queue";
    let key = "arn:aws:kms:eu-west-1:123456789012:key/0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0";
    let fs = run(
        t,
        json!({"KmsMasterKeyId": key}),
        json!({"KmsMasterKeyId": key, "SqsManagedSseEnabled": false}),
    );
    assert_eq!(tier_of(&fs, "SqsManagedSseEnabled"), None, "{fs:?}");
    let fs = run(t, json!({}), json!({"SqsManagedSseEnabled": false}));
    assert_eq!(tier_of(&fs, "SqsManagedSseEnabled"), Some(Tier::Undeclared));
}

#[test]
fn an_attribute_default_stated_per_kind_of_resource_follows_the_kind() {
    // "The default for Network Load Balancers and Gateway Load Balancers is
    // `false`. The default for Application Load Balancers is `true`": each
    // kind is a value of the load balancer's `Type`.
    let t = "AWS::ElasticLoadBalancingV2::LoadBalancer";
    let key = "LoadBalancerAttributes[load_balancing.cross_zone.enabled]";
    let lb = |kind: &str, on: &str| {
        json!({"Type": kind, "LoadBalancerAttributes": [
            {"Key": "load_balancing.cross_zone.enabled", "Value": on}]})
    };
    for (kind, default, other) in [
        ("application", "true", "false"),
        ("network", "false", "true"),
        ("gateway", "false", "true"),
    ] {
        let declared = json!({ "Type": kind });
        let fs = run_general(t, declared.clone(), lb(kind, default));
        assert_eq!(tier_of(&fs, key), Some(Tier::AtDefault), "{kind}: {fs:?}");
        let fs = run_general(t, declared, lb(kind, other));
        assert_eq!(tier_of(&fs, key), Some(Tier::Undeclared), "{kind}: {fs:?}");
    }
    // "The default value is 1 day (86400 seconds)." on a `_seconds` key.
    let t = "AWS::ElasticLoadBalancingV2::TargetGroup";
    let key = "TargetGroupAttributes[stickiness.lb_cookie.duration_seconds]";
    let tg = |secs: &str| {
        json!({"TargetGroupAttributes": [
            {"Key": "stickiness.lb_cookie.duration_seconds", "Value": secs}]})
    };
    assert_eq!(
        tier_of(&run_general(t, json!({}), tg("86400")), key),
        Some(Tier::AtDefault)
    );
    assert_eq!(
        tier_of(&run_general(t, json!({}), tg("3600")), key),
        Some(Tier::Undeclared)
    );
}

#[test]
fn a_value_one_kind_of_resource_must_hold_folds_only_for_that_kind() {
    // "Internal load balancers must use `ipv4`": `internal` is a value of the
    // load balancer's `Scheme`. An internet-facing one's address type has no
    // documented default; an internal dual-stack one is not the forced value.
    let t = "AWS::ElasticLoadBalancingV2::LoadBalancer";
    let lb = |scheme: &str, ip: &str| json!({"Scheme": scheme, "IpAddressType": ip});
    let fs = run_general(t, json!({"Scheme": "internal"}), lb("internal", "ipv4"));
    assert_eq!(tier_of(&fs, "IpAddressType"), Some(Tier::AtDefault));
    for (scheme, ip) in [("internet-facing", "ipv4"), ("internal", "dualstack")] {
        let fs = run_general(t, json!({ "Scheme": scheme }), lb(scheme, ip));
        let got = tier_of(&fs, "IpAddressType");
        assert_eq!(got, Some(Tier::Undeclared), "{scheme} {ip}: {fs:?}");
    }
}

#[test]
fn a_default_stated_for_one_protocol_follows_that_protocol() {
    // "For HTTP, the default is 80. For HTTPS, the default is 443." on a
    // VPC Lattice listener's `Port`: the documented port folds for its
    // protocol only (no registry schema is given here, so `Port` is judged
    // as a setting rather than as create-only).
    let t = "AWS::VpcLattice::Listener";
    let live = |proto: &str, p: u16| json!({"Protocol": proto, "Port": p});
    for (proto, p, tier) in [
        ("HTTPS", 443, Tier::AtDefault),
        ("HTTP", 80, Tier::AtDefault),
        ("HTTPS", 80, Tier::Undeclared),
        ("TLS_PASSTHROUGH", 443, Tier::Undeclared),
    ] {
        let fs = run_general(t, json!({ "Protocol": proto }), live(proto, p));
        assert_eq!(tier_of(&fs, "Port"), Some(tier), "{proto} {p}: {fs:?}");
    }
}

#[test]
fn a_default_for_a_kind_another_property_defines_follows_that_kind() {
    // `Protocol`'s documentation defines the kinds ("For Network Load
    // Balancers, the supported protocols are TCP, TLS, UDP, ..."), and
    // sibling properties state defaults per kind: "For Network Load
    // Balancers and Gateway Load Balancers, the default is TCP." /
    // "..., with the default value being 200-399." Port 8443 and the
    // values below are ones no corpus case holds.
    let t = "AWS::ElasticLoadBalancingV2::TargetGroup";
    let tg = |proto: &str, check: &str, codes: &str| {
        json!({"Protocol": proto, "Port": 8443, "HealthCheckProtocol": check,
               "Matcher": {"HttpCode": codes}})
    };
    let folds = [
        ("TLS", "TCP", "200-399"),
        ("UDP", "TCP", "200-399"),
        ("HTTP", "HTTP", "200"),
    ];
    for (proto, check, codes) in folds {
        // The matcher's code folds inside a matcher the template declares.
        let declared = json!({ "Protocol": proto, "Matcher": {} });
        let fs = run_general(t, declared, tg(proto, check, codes));
        for p in ["HealthCheckProtocol", "Matcher.HttpCode"] {
            assert_eq!(
                tier_of(&fs, p),
                Some(Tier::AtDefault),
                "{proto} {p}: {fs:?}"
            );
        }
    }
    // Another kind's default, or a value no kind defaults to, surfaces.
    let (at, un) = (Tier::AtDefault, Tier::Undeclared);
    for (proto, check, codes, want) in [
        ("TLS", "HTTP", "200", [un, un]),
        ("HTTP", "TCP", "200-399", [un, un]),
        ("HTTP", "HTTP", "200-299", [at, un]),
    ] {
        let fs = run_general(t, json!({ "Protocol": proto }), tg(proto, check, codes));
        for (p, tier) in ["HealthCheckProtocol", "Matcher"].into_iter().zip(want) {
            assert_eq!(
                tier_of(&fs, p),
                Some(tier),
                "{proto} {check} {codes} {p}: {fs:?}"
            );
        }
    }
}

#[test]
fn a_default_stated_for_some_kinds_and_otherwise_for_the_rest_follows_each() {
    // "For new UDP/TCP_UDP target groups the default is `true`. Otherwise,
    // the default is `false`." in an attribute key's bullet.
    let t = "AWS::ElasticLoadBalancingV2::TargetGroup";
    let key = "deregistration_delay.connection_termination.enabled";
    let path = format!("TargetGroupAttributes[{key}]");
    for (proto, value, tier) in [
        ("UDP", "true", Tier::AtDefault),
        ("TCP_UDP", "true", Tier::AtDefault),
        ("TCP", "false", Tier::AtDefault),
        ("TLS", "false", Tier::AtDefault),
        ("UDP", "false", Tier::Undeclared),
        ("TCP", "true", Tier::Undeclared),
    ] {
        let live = json!({"Protocol": proto,
            "TargetGroupAttributes": [{"Key": key, "Value": value}]});
        let fs = run_general(t, json!({ "Protocol": proto }), live);
        assert_eq!(tier_of(&fs, &path), Some(tier), "{proto} {value}: {fs:?}");
    }
    // With no protocol (a Lambda target group) no kind is known: reported.
    let live = json!({"TargetGroupAttributes": [{"Key": key, "Value": "false"}]});
    let fs = run_general(t, json!({}), live);
    assert_eq!(tier_of(&fs, &path), Some(Tier::Undeclared), "{fs:?}");
}

#[test]
fn a_default_for_one_kind_of_a_nested_block_follows_its_own_sibling() {
    // "The default for `gp3` volumes is 3,000 IOPS." on an instance's block
    // device `Ebs.Iops`: the kind is the same block's `VolumeType`, judged
    // per mapping, never another mapping's or the instance's.
    let t = "AWS::EC2::Instance";
    let ebs = |kind: &str, iops: u64| json!({"VolumeType": kind, "Iops": iops});
    let live = json!({"BlockDeviceMappings": [
        {"DeviceName": "/dev/xvda", "Ebs": ebs("gp3", 3000)},
        {"DeviceName": "/dev/sdf", "Ebs": ebs("io2", 3000)},
        {"DeviceName": "/dev/sdg", "Ebs": ebs("gp3", 6000)}]});
    let declared = json!({"BlockDeviceMappings": [
        {"DeviceName": "/dev/xvda", "Ebs": {"VolumeType": "gp3"}},
        {"DeviceName": "/dev/sdf", "Ebs": {"VolumeType": "io2"}},
        {"DeviceName": "/dev/sdg", "Ebs": {"VolumeType": "gp3"}}]});
    let fs = run_general(t, declared, live);
    let iops: Vec<(Tier, String)> = fs
        .iter()
        .filter(|f| f.path.ends_with("Ebs.Iops"))
        .map(|f| (f.tier, f.path.clone()))
        .collect();
    let want = [
        (
            Tier::AtDefault,
            "BlockDeviceMappings.0.Ebs.Iops".to_string(),
        ),
        (
            Tier::Undeclared,
            "BlockDeviceMappings.1.Ebs.Iops".to_string(),
        ),
        (
            Tier::Undeclared,
            "BlockDeviceMappings.2.Ebs.Iops".to_string(),
        ),
    ];
    assert_eq!(iops, want);
    // "For HTTPS, the default is 443." on a VPC Lattice target group's
    // `Config.Port`, beside `Config.Protocol`.
    let t = "AWS::VpcLattice::TargetGroup";
    let cfg = |proto: &str, port: u16| json!({"Config": {"Protocol": proto, "Port": port}});
    let fs = run_general(
        t,
        json!({"Config": {"Protocol": "HTTPS"}}),
        cfg("HTTPS", 443),
    );
    assert!(drift(&fs).is_empty(), "{fs:?}");
    let fs = run_general(t, json!({"Config": {"Protocol": "HTTP"}}), cfg("HTTP", 443));
    assert!(!drift(&fs).is_empty(), "{fs:?}");
}

#[test]
fn a_default_a_range_list_states_for_one_kind_follows_that_kind() {
    // "- gp3: `3,000` ( *default* ) `- 80,000` IOPS": `gp3` is one of the
    // API model's volume types (the registry schema lists none).
    let t = "AWS::EC2::Volume";
    let vol = |kind: &str, iops: u64| json!({"VolumeType": kind, "Iops": iops});
    let fs = run_general(t, json!({"VolumeType": "gp3"}), vol("gp3", 3000));
    assert_eq!(tier_of(&fs, "Iops"), Some(Tier::AtDefault), "{fs:?}");
    for (kind, iops) in [("gp3", 4000), ("io2", 3000)] {
        let fs = run_general(t, json!({ "VolumeType": kind }), vol(kind, iops));
        assert_eq!(
            tier_of(&fs, "Iops"),
            Some(Tier::Undeclared),
            "{kind} {iops}: {fs:?}"
        );
    }
}

#[test]
fn a_version_documented_as_the_latest_at_create_is_chosen_then() {
    // "If not specified, the latest version of OpenSearch is used." /
    // "Defaults to the latest available version for the specified broker
    // engine type." / "If no value is specified, defaults to the latest
    // version." (MWAA): whatever version AWS resolved folds on a first run
    // (the value moves with AWS releases, so no constant is stated), and a
    // declared version is compared as usual.
    for (t, prop, resolved, declared) in [
        (
            "AWS::OpenSearchService::Domain",
            "EngineVersion",
            "OpenSearch_2.19",
            "OpenSearch_2.11",
        ),
        ("AWS::AmazonMQ::Broker", "EngineVersion", "5.18", "5.17"),
        (
            "AWS::MWAA::Environment",
            "AirflowVersion",
            "2.10.3",
            "2.9.2",
        ),
    ] {
        let live = json!({ prop: resolved });
        let fs = run_general(t, json!({}), live.clone());
        assert_eq!(
            tier_of(&fs, prop),
            Some(Tier::AtDefault),
            "{t} {prop}: {fs:?}"
        );
        assert!(
            realdrift_core::normalize::aws_facts::is_chosen_at_create(t, prop),
            "{t} {prop}"
        );
        let fs = run_general(t, json!({ prop: declared }), live);
        assert_eq!(
            tier_of(&fs, prop),
            Some(Tier::Declared),
            "{t} {prop}: {fs:?}"
        );
    }
}

#[test]
fn a_by_default_clause_restating_the_switch_states_its_default() {
    // "Specifies whether minor engine upgrades are applied automatically ...
    // By default, minor engine upgrades are applied automatically." (true);
    // "By default, split-tunnel on a VPN endpoint is disabled." (false).
    // (type, property, live value, tier)
    for (t, prop, v, tier) in [
        (
            "AWS::RDS::DBCluster",
            "AutoMinorVersionUpgrade",
            true,
            Tier::AtDefault,
        ),
        (
            "AWS::RDS::DBInstance",
            "AutoMinorVersionUpgrade",
            true,
            Tier::AtDefault,
        ),
        (
            "AWS::RDS::DBCluster",
            "AutoMinorVersionUpgrade",
            false,
            Tier::Undeclared,
        ),
        (
            "AWS::RDS::DBCluster",
            "EnableHttpEndpoint",
            true,
            Tier::Undeclared,
        ),
        (
            "AWS::EC2::ClientVpnEndpoint",
            "SplitTunnel",
            true,
            Tier::Undeclared,
        ),
    ] {
        let fs = run_general(t, json!({}), json!({ prop: v }));
        assert_eq!(tier_of(&fs, prop), Some(tier), "{t} {prop}={v}: {fs:?}");
    }
}

#[test]
fn options_a_platform_fills_in_are_chosen_at_create_but_a_pinned_one_is_not() {
    // "These options override the values that are defined in the solution
    // stack ...": every Elastic Beanstalk option the template leaves out
    // holds the platform's value, on any platform (a Node.js option no
    // corpus case holds), while a declared option is compared as usual.
    let t = "AWS::ElasticBeanstalk::Environment";
    let opt =
        |ns: &str, name: &str, v: &str| json!({"Namespace": ns, "OptionName": name, "Value": v});
    let declared = json!({"OptionSettings": [
        opt("aws:autoscaling:launchconfiguration", "InstanceType", "t3.small")]});
    let live = json!({"OptionSettings": [
        opt("aws:autoscaling:launchconfiguration", "InstanceType", "t3.small"),
        opt("aws:elasticbeanstalk:container:nodejs", "ProxyServer", "nginx"),
        opt("aws:autoscaling:asg", "Cooldown", "600")]});
    let nodejs = "OptionSettings[aws:elasticbeanstalk:container:nodejs|ProxyServer]";
    let cooldown = "OptionSettings[aws:autoscaling:asg|Cooldown]";
    let fs = run_general(t, declared.clone(), live.clone());
    assert!(drift(&fs).is_empty(), "{:?}", drift(&fs));
    assert_eq!(tier_of(&fs, nodejs), Some(Tier::AtDefault), "{fs:?}");
    assert!(realdrift_core::normalize::aws_facts::is_chosen_at_create(
        t, nodejs
    ));
    // A default recorded for this very option outranks "the platform chose
    // it": a cooldown off the recorded 360 surfaces on a first run.
    let fs = run(t, declared.clone(), live.clone());
    assert_eq!(drift(&fs), vec![(Tier::Undeclared, cooldown.to_string())]);
    // A declared option changed out of band is declared drift.
    let mut changed = live;
    changed["OptionSettings"][0]["Value"] = json!("t3.large");
    let fs = run_general(t, declared, changed);
    assert_eq!(
        declared_paths(&fs),
        vec!["OptionSettings[aws:autoscaling:launchconfiguration|InstanceType].Value"]
    );
}

#[test]
fn a_pools_standard_attributes_are_its_own_but_a_prefixed_one_is_a_users() {
    // "Amazon Cognito returns this value as `value` for standard
    // attributes, `custom:value` for custom attributes, and `dev:value`
    // for developer-only attributes": an unprefixed attribute the template
    // leaves out is one Cognito keeps itself (any of them, with whatever
    // constraints it was created with); a prefixed one was added by a user.
    let t = "AWS::Cognito::UserPool";
    let attr = |name: &str, max: &str| {
        json!({"Name": name, "AttributeDataType": "String", "Mutable": true, "Required": false,
            "DeveloperOnlyAttribute": false,
            "StringAttributeConstraints": {"MinLength": "0", "MaxLength": max}})
    };
    let declared = json!({"Schema": [{"Name": "tier", "AttributeDataType": "String", "Mutable": true,
        "StringAttributeConstraints": {"MinLength": "0", "MaxLength": "2048"}}]});
    let live = json!({"Schema": [
        attr("custom:tier", "2048"), attr("zoneinfo", "2048"), attr("website", "512")]});
    for fs in [
        run_general(t, declared.clone(), live.clone()),
        run(t, declared.clone(), live.clone()),
        run_general(t, json!({}), live.clone()),
    ] {
        assert_eq!(
            tier_of(&fs, "Schema[zoneinfo]"),
            Some(Tier::AtDefault),
            "{fs:?}"
        );
        assert_eq!(
            tier_of(&fs, "Schema[website]"),
            Some(Tier::AtDefault),
            "{fs:?}"
        );
    }
    // A developer-only attribute comes back as `dev:<name>`: the same one.
    let dev = json!({"Name": "flag", "AttributeDataType": "String",
        "DeveloperOnlyAttribute": true, "Mutable": true});
    let mut dev_live = dev.clone();
    dev_live["Name"] = json!("dev:flag");
    let fs = run_general(t, json!({"Schema": [dev]}), json!({"Schema": [dev_live]}));
    assert!(drift(&fs).is_empty(), "{:?}", drift(&fs));
    // A custom or developer-only attribute added out of band surfaces.
    let mut added = live;
    for name in ["custom:plan", "dev:flag"] {
        added["Schema"]
            .as_array_mut()
            .expect("array")
            .push(attr(name, "2048"));
    }
    let fs = run_general(t, declared, added);
    assert_eq!(
        drift(&fs),
        vec![
            (Tier::Undeclared, "Schema[custom:plan]".to_string()),
            (Tier::Undeclared, "Schema[dev:flag]".to_string())
        ]
    );
}

#[test]
fn a_list_read_back_twice_is_silent_but_a_differing_copy_is_not() {
    // An ELBv2 rule condition reads back its path patterns twice: in
    // `PathPatternConfig.Values` (declared, compared) and in the legacy
    // `Values` beside it.
    let declared = json!({"Conditions": [{"Field": "path-pattern",
        "PathPatternConfig": {"Values": ["/orders/*", "/carts/*"]}}]});
    let live = |legacy: Value| {
        json!({"Conditions": [{"Field": "path-pattern", "Values": legacy,
            "PathPatternConfig": {"Values": ["/orders/*", "/carts/*"]}}]})
    };
    let t = "AWS::Example::Router";
    let fs = run_general(t, declared.clone(), live(json!(["/orders/*", "/carts/*"])));
    assert!(drift(&fs).is_empty(), "{:?}", drift(&fs));
    let fs = run_general(t, declared, live(json!(["/orders/*", "/admin/*"])));
    assert_eq!(
        drift(&fs),
        vec![(Tier::Undeclared, "Conditions.0.Values".to_string())]
    );
}

#[test]
fn a_documented_number_folds_at_its_value_in_any_spelling() {
    // "If unspecified, it defaults to 1.0." read back as the integer `1`:
    // one number; a weight of 2 surfaces.
    let t = "AWS::SageMaker::EndpointConfig";
    let declared = json!({"ProductionVariants": [{"VariantName": "AllTraffic",
        "ModelName": "orders-model", "InitialInstanceCount": 1}]});
    let live = |w: Value| {
        json!({"ProductionVariants": [{"VariantName": "AllTraffic",
            "ModelName": "orders-model", "InitialInstanceCount": 1, "InitialVariantWeight": w}]})
    };
    let path = "ProductionVariants.0.InitialVariantWeight";
    for w in [json!(1), json!(1.0)] {
        let fs = run_general(t, declared.clone(), live(w));
        assert_eq!(tier_of(&fs, path), Some(Tier::AtDefault), "{fs:?}");
    }
    let fs = run_general(t, declared, live(json!(2)));
    assert_eq!(tier_of(&fs, path), Some(Tier::Undeclared), "{fs:?}");
}

#[test]
fn a_default_listed_per_product_follows_the_engine_that_product_names() {
    // "Default: - RDS for MySQL - `3306`" and "Valid Values: - Aurora
    // PostgreSQL - `postgresql-license`": the product's words spell one
    // value of `Engine`'s own list, and only that engine folds.
    let t = "AWS::RDS::DBInstance";
    for (engine, prop, documented, other) in [
        ("mysql", "Port", "3306", "3307"),
        ("mariadb", "Port", "3306", "5432"),
        (
            "aurora-postgresql",
            "LicenseModel",
            "postgresql-license",
            "general-public-license",
        ),
        (
            "mysql",
            "LicenseModel",
            "general-public-license",
            "license-included",
        ),
    ] {
        let declared = json!({"Engine": engine, "DBInstanceClass": "db.t4g.micro"});
        let live = |v: &str| json!({"Engine": engine, "DBInstanceClass": "db.t4g.micro", prop: v});
        let fs = run_general(t, declared.clone(), live(documented));
        assert_eq!(tier_of(&fs, prop), Some(Tier::AtDefault), "{engine} {prop}");
        let fs = run_general(t, declared, live(other));
        assert_eq!(
            tier_of(&fs, prop),
            Some(Tier::Undeclared),
            "{engine} {prop}"
        );
    }
    // Another engine's default is not this one's.
    let declared = json!({"Engine": "postgres", "DBInstanceClass": "db.t4g.micro"});
    let live = json!({"Engine": "postgres", "DBInstanceClass": "db.t4g.micro", "Port": "3306"});
    let fs = run_general(t, declared, live);
    assert_eq!(tier_of(&fs, "Port"), Some(Tier::Undeclared), "{fs:?}");
}

#[test]
fn defaults_stated_with_a_unit_or_a_trailing_condition_fold_only_at_their_value() {
    // "Set to `true` by default, if no value is specified." (Amazon MQ): the
    // switch found off is a change.
    let t = "AWS::AmazonMQ::Broker";
    let fs = run_general(t, json!({}), json!({"AutoMinorVersionUpgrade": true}));
    assert_eq!(
        tier_of(&fs, "AutoMinorVersionUpgrade"),
        Some(Tier::AtDefault)
    );
    let fs = run_general(t, json!({}), json!({"AutoMinorVersionUpgrade": false}));
    assert_eq!(
        tier_of(&fs, "AutoMinorVersionUpgrade"),
        Some(Tier::Undeclared)
    );
    // "If you don't specify a value, it defaults to 2147483647 bits per
    // second." on `MaxVideoBitsPerSecond` (the unit the name carries).
    let t = "AWS::MediaPackage::OriginEndpoint";
    let live =
        |max: i64| json!({"CmafPackage": {"StreamSelection": {"MaxVideoBitsPerSecond": max}}});
    // Inside a stream selection the template declares.
    let declared = json!({"CmafPackage": {"StreamSelection": {}}});
    let fs = run_general(t, declared.clone(), live(2_147_483_647));
    assert!(drift(&fs).is_empty(), "{fs:?}");
    let fs = run_general(t, declared, live(5_000_000));
    assert!(!drift(&fs).is_empty(), "{fs:?}");
}

#[test]
fn a_time_or_address_in_the_services_own_spelling_folds_but_another_is_drift() {
    // AWS returns a declared timestamp in its own precision and offset, and
    // an IPv6 block in lower case with zeros compressed.
    let t = "AWS::Example::Schedule";
    for (prop, declared, same, other) in [
        (
            "StartTime",
            "2026-03-01T08:00:00Z",
            "2026-03-01T08:00:00.000Z",
            "2026-03-01T09:00:00.000Z",
        ),
        (
            "Ipv6CidrBlock",
            "2001:DB8:0:0::/56",
            "2001:db8::/56",
            "2001:db8:0:100::/56",
        ),
    ] {
        assert_spelling_folds(t, prop, declared, same, other);
    }
}

#[test]
fn a_default_under_two_conditions_and_its_otherwise_follow_both() {
    // "The default is disabled if the target group type is IP address and
    // the target group protocol is TCP or TLS. Otherwise, the default is
    // enabled." with "The value is `true` or `false`." Port 8443 and the
    // 30-second deregistration delay are values no corpus case holds.
    let t = "AWS::ElasticLoadBalancingV2::TargetGroup";
    let attr = |v: &str| {
        json!([{"Key": "deregistration_delay.timeout_seconds", "Value": "30"},
               {"Key": "preserve_client_ip.enabled", "Value": v}])
    };
    let tier = |target: &str, proto: &str, v: &str| {
        let declared = json!({"Protocol": proto, "TargetType": target, "Port": 8443});
        let mut live = declared.clone();
        live["TargetGroupAttributes"] = attr(v);
        tier_of(
            &run_general(t, declared, live),
            "TargetGroupAttributes[preserve_client_ip.enabled]",
        )
    };
    let (at, un) = (Some(Tier::AtDefault), Some(Tier::Undeclared));
    for (target, proto, v, want) in [
        ("ip", "TCP", "false", at),
        ("ip", "TLS", "false", at),
        ("ip", "UDP", "true", at),
        ("instance", "TCP", "true", at),
        ("alb", "TCP", "true", at),
        // The other value of each kind surfaces.
        ("ip", "TCP", "true", un),
        ("instance", "TCP", "false", un),
        ("ip", "UDP", "false", un),
    ] {
        assert_eq!(tier(target, proto, v), want, "{target} {proto} {v}");
    }
}

#[test]
fn a_port_range_on_an_all_protocol_rule_is_all_ports() {
    // "specifying `-1` ... allows traffic on all ports, regardless of any
    // port range you specify", and the port's own "-1 (all ICMP types)".
    let t = "AWS::EC2::SecurityGroup";
    let rule = |proto: &str| json!({"CidrIp": "192.168.0.0/16", "IpProtocol": proto});
    let live = |proto: &str, port: i64| {
        let mut r = rule(proto);
        r["FromPort"] = json!(port);
        r["ToPort"] = json!(port);
        json!({"GroupDescription": "d", "SecurityGroupIngress": [r]})
    };
    let declared =
        |proto: &str| json!({"GroupDescription": "d", "SecurityGroupIngress": [rule(proto)]});
    let fs = run_general(t, declared("-1"), live("-1", -1));
    assert!(drift(&fs).is_empty(), "{fs:?}");
    // A port on a TCP rule, or another port on an all-protocol one, surfaces.
    for (proto, port) in [("tcp", -1), ("-1", 22)] {
        let fs = run_general(t, declared(proto), live(proto, port));
        assert!(!drift(&fs).is_empty(), "{proto} {port}: {fs:?}");
    }
}

#[test]
fn a_same_account_source_group_reads_back_with_its_owner() {
    // An inline rule naming only its source group reads back with the
    // group's owner account; another account's owner is a real difference.
    let t = "AWS::EC2::SecurityGroup";
    let rule = json!({"IpProtocol": "tcp", "FromPort": 5432, "ToPort": 5432,
        "SourceSecurityGroupId": "sg-0abc1234"});
    let declared = json!({"GroupDescription": "d", "SecurityGroupIngress": [rule.clone()]});
    let live = |owner: &str| {
        let mut r = rule.clone();
        r["SourceSecurityGroupOwnerId"] = json!(owner);
        json!({"GroupDescription": "d", "SecurityGroupIngress": [r]})
    };
    let fs = run(t, declared.clone(), live("123456789012"));
    assert!(drift(&fs).is_empty(), "{fs:?}");
    let fs = run(t, declared, live("210987654321"));
    assert_eq!(
        drift(&fs),
        vec![(
            Tier::Undeclared,
            "SecurityGroupIngress.0.SourceSecurityGroupOwnerId".to_string()
        )]
    );
}

#[test]
fn a_listener_rule_in_its_legacy_spelling_reads_back_in_both() {
    // A rule declared with the legacy condition `Values` and a plain forward
    // action reads back with the condition's config block and the action's
    // one-group ForwardConfig as well: the same settings, twice.
    let t = "AWS::ElasticLoadBalancingV2::ListenerRule";
    let tg =
        "arn:aws:elasticloadbalancing:eu-central-1:123456789012:targetgroup/web/0123456789abcdef";
    let other =
        "arn:aws:elasticloadbalancing:eu-central-1:123456789012:targetgroup/api/fedcba9876543210";
    let declared = json!({"Priority": 10,
        "Conditions": [{"Field": "path-pattern", "Values": ["/api/*", "/v2/*"]}],
        "Actions": [{"Type": "forward", "TargetGroupArn": tg}]});
    let live = |paths: Value, groups: Value| {
        json!({"Priority": 10,
            "Conditions": [{"Field": "path-pattern", "Values": ["/api/*", "/v2/*"],
                "PathPatternConfig": {"Values": paths}}],
            "Actions": [{"Type": "forward", "TargetGroupArn": tg, "ForwardConfig": {
                "TargetGroups": groups,
                "TargetGroupStickinessConfig": {"Enabled": false}}}]})
    };
    let one = json!([{"TargetGroupArn": tg, "Weight": 1}]);
    let fs = run(
        t,
        declared.clone(),
        live(json!(["/api/*", "/v2/*"]), one.clone()),
    );
    assert!(drift(&fs).is_empty(), "{fs:?}");
    // A pattern the legacy list does not hold, or a second weighted group,
    // is a setting of its own.
    let fs = run(
        t,
        declared.clone(),
        live(json!(["/api/*", "/admin/*"]), one),
    );
    assert_eq!(
        drift(&fs),
        vec![(
            Tier::Undeclared,
            "Conditions.0.PathPatternConfig".to_string()
        )]
    );
    let split =
        json!([{"TargetGroupArn": tg, "Weight": 1}, {"TargetGroupArn": other, "Weight": 1}]);
    let fs = run(t, declared, live(json!(["/api/*", "/v2/*"]), split));
    assert_eq!(
        drift(&fs),
        vec![(Tier::Undeclared, "Actions.0.ForwardConfig".to_string())]
    );
}

#[test]
fn a_list_whose_order_carries_meaning_is_not_folded_when_reordered() {
    // "These policies are executed in the order that you list them.": the
    // same policies in another (here: sorted) order are a change.
    let t = "AWS::AutoScaling::AutoScalingGroup";
    let asg = |p: Value| json!({"MinSize": "1", "MaxSize": "2", "TerminationPolicies": p});
    let declared = asg(json!(["OldestInstance", "Default"]));
    let fs = run_general(
        t,
        declared.clone(),
        asg(json!(["OldestInstance", "Default"])),
    );
    assert!(drift(&fs).is_empty(), "{fs:?}");
    let fs = run_general(t, declared, asg(json!(["Default", "OldestInstance"])));
    assert_eq!(declared_paths(&fs), vec!["TerminationPolicies".to_string()]);

    // "... compared with path patterns in the order in which cache behaviors
    // are listed": live adds its own defaults to each behavior.
    let t = "AWS::CloudFront::Distribution";
    let cb = |p: &str, extra: bool| {
        let mut b = json!({"PathPattern": p, "TargetOriginId": "o1",
            "ViewerProtocolPolicy": "https-only"});
        if extra {
            b["Compress"] = json!(false);
        }
        b
    };
    let dist = |behaviors: Value| {
        json!({"DistributionConfig": {"Enabled": true,
        "DefaultCacheBehavior": {"TargetOriginId": "o1", "ViewerProtocolPolicy": "https-only"},
        "CacheBehaviors": behaviors}})
    };
    let declared = dist(json!([cb("/api/v2/*", false), cb("/api/*", false)]));
    let fs = run_general(
        t,
        declared.clone(),
        dist(json!([cb("/api/v2/*", true), cb("/api/*", true)])),
    );
    assert!(declared_paths(&fs).is_empty(), "{fs:?}");
    let fs = run_general(
        t,
        declared,
        dist(json!([cb("/api/*", true), cb("/api/v2/*", true)])),
    );
    assert_eq!(
        declared_paths(&fs),
        vec!["DistributionConfig.CacheBehaviors".to_string()]
    );

    // Lambda layers overlay one another in order, even when AWS's sorted
    // order would otherwise pass for its own.
    let t = "AWS::Lambda::Function";
    let layer = |n: &str| format!("arn:aws:lambda:eu-central-1:123456789012:layer:{n}:1");
    let f = |a: &str, b: &str| json!({"Handler": "index.handler", "Layers": [layer(a), layer(b)]});
    let fs = run_general(t, f("zeta", "alpha"), f("alpha", "zeta"));
    assert_eq!(declared_paths(&fs), vec!["Layers".to_string()]);
}

#[test]
fn a_redirect_keeps_the_components_it_does_not_change() {
    // "Any components that you do not modify retain their original values."
    // with the reserved keywords `#{host}`, `#{path}` (the leading "/"
    // removed), `#{query}`: an HTTP-to-HTTPS redirect reads back with them.
    let t = "AWS::ElasticLoadBalancingV2::Listener";
    let declared = json!({"Port": 80, "Protocol": "HTTP", "DefaultActions": [{"Type": "redirect",
        "RedirectConfig": {"Protocol": "HTTPS", "Port": "443", "StatusCode": "HTTP_301"}}]});
    let live = |host: &str| {
        json!({"Port": 80, "Protocol": "HTTP", "DefaultActions": [{"Type": "redirect",
            "RedirectConfig": {"Protocol": "HTTPS", "Port": "443", "StatusCode": "HTTP_301",
                "Host": host, "Path": "/#{path}", "Query": "#{query}"}}]})
    };
    let fs = run_general(t, declared.clone(), live("#{host}"));
    assert!(drift(&fs).is_empty(), "{fs:?}");
    // A redirect sent to another host is a setting of its own.
    let fs = run_general(t, declared, live("phish.example.net"));
    assert_eq!(
        drift(&fs),
        vec![(
            Tier::Undeclared,
            "DefaultActions.0.RedirectConfig.Host".to_string()
        )]
    );
}

#[test]
fn a_table_encrypted_with_the_managed_key_reads_back_without_false_drift() {
    // "If enabled (true), server-side encryption type is set to `KMS` and an
    // AWS managed key is used", and the key member: "only provide this
    // parameter if the key is different from the default DynamoDB key
    // `alias/aws/dynamodb`". DynamoDB reports that key by its ARN.
    let t = "AWS::DynamoDB::Table";
    let managed = "0f1e2d3c-4b5a-6978-8695-a4b3c2d1e0f9";
    let key = |id: &str| format!("arn:aws:kms:eu-central-1:123456789012:key/{id}");
    let declared = json!({"SSESpecification": {"SSEEnabled": true}});
    let live = |id: &str| json!({"SSESpecification": {"SSEEnabled": true, "SSEType": "KMS", "KMSMasterKeyId": key(id)}});
    let mut ctx = context();
    ctx.kms_alias_targets = Some(std::collections::BTreeMap::from([(
        "alias/aws/dynamodb".to_string(),
        managed.to_string(),
    )]));
    let classify = |live: Value, ctx: &ClassifyContext| {
        let r = resource(t, declared.clone());
        classify_with(
            &r,
            &live,
            &SchemaFacts::default(),
            ctx,
            Knowledge::WithoutObserved,
        )
    };
    let fs = classify(live(managed), &ctx);
    assert!(drift(&fs).is_empty(), "{fs:?}");
    // A customer key swapped in surfaces; so does the managed key's ARN
    // where the account's alias map is unknown (it cannot be told apart).
    let customer = "99999999-8888-7777-6666-555555555555";
    for (live, ctx) in [(live(customer), &ctx), (live(managed), &context())] {
        let fs = classify(live, ctx);
        assert_eq!(
            drift(&fs),
            vec![(
                Tier::Undeclared,
                "SSESpecification.KMSMasterKeyId".to_string()
            )]
        );
    }
}

#[test]
fn a_customer_kms_alias_is_the_key_the_account_says_it_targets() {
    // A hand-written template names its key by alias; RDS and DynamoDB
    // read back the key's ARN.
    let t = "AWS::RDS::DBInstance";
    let target = "1234abcd-12ab-34cd-56ef-1234567890ab";
    let key = |id: &str| format!("arn:aws:kms:eu-central-1:123456789012:key/{id}");
    let declared = json!({"Engine": "mysql", "KmsKeyId": "alias/orders-db"});
    let live = |id: &str| json!({"Engine": "mysql", "KmsKeyId": key(id)});
    let mut ctx = context();
    ctx.kms_alias_targets = Some(std::collections::BTreeMap::from([(
        "alias/orders-db".to_string(),
        target.to_string(),
    )]));
    let classify = |live: Value, ctx: &ClassifyContext| {
        let r = resource(t, declared.clone());
        classify_with(&r, &live, &SchemaFacts::default(), ctx, Knowledge::All)
    };
    assert!(drift(&classify(live(target), &ctx)).is_empty());
    // Another key is declared drift, and so is any key where the account
    // has no such alias.
    let other = "99999999-8888-7777-6666-555555555555";
    let mut elsewhere = context();
    elsewhere.kms_alias_targets = Some(std::collections::BTreeMap::new());
    for (live, ctx) in [(live(other), &ctx), (live(target), &elsewhere)] {
        assert_eq!(declared_paths(&classify(live, ctx)), vec!["KmsKeyId"]);
    }
    // Where the account's aliases could not be read, the key behind the
    // alias is unknown: neither equal nor drift.
    let fs = classify(live(other), &context());
    assert!(declared_paths(&fs).is_empty(), "{fs:?}");
    assert!(
        fs.iter()
            .any(|f| f.tier == Tier::Unresolved && f.path == "KmsKeyId" && f.note.is_some()),
        "{fs:?}"
    );
}

#[test]
fn a_metric_unit_left_out_is_none_and_another_unit_is_not() {
    // "If you omit this, the unit is set as `None`." on each metric
    // transformation of a CloudWatch Logs metric filter.
    let t = "AWS::Logs::MetricFilter";
    let mt = json!({"MetricName": "Errors", "MetricNamespace": "App", "MetricValue": "1"});
    let declared = json!({"LogGroupName": "/app", "FilterPattern": "ERROR",
        "MetricTransformations": [mt.clone()]});
    let live = |unit: &str| {
        let mut m = mt.clone();
        m["Unit"] = json!(unit);
        json!({"LogGroupName": "/app", "FilterPattern": "ERROR", "MetricTransformations": [m]})
    };
    assert!(drift(&run_general(t, declared.clone(), live("None"))).is_empty());
    assert_eq!(
        drift(&run_general(t, declared, live("Seconds"))),
        vec![(Tier::Undeclared, "MetricTransformations.0.Unit".to_string())]
    );
}

#[test]
fn a_lifecycle_policy_reads_back_with_the_own_registry() {
    // "The AWS account ID associated with the registry ... If you do not
    // specify a registry, the default registry is assumed."
    let t = "AWS::ECR::Repository";
    let text = r#"{"rules":[{"rulePriority":1,"selection":{"tagStatus":"untagged","countType":"sinceImagePushed","countUnit":"days","countNumber":14},"action":{"type":"expire"}}]}"#;
    let declared = json!({"LifecyclePolicy": {"LifecyclePolicyText": text}});
    let live = |registry: &str| json!({"LifecyclePolicy": {"LifecyclePolicyText": text, "RegistryId": registry}});
    assert!(drift(&run_general(t, declared.clone(), live("123456789012"))).is_empty());
    assert_eq!(
        drift(&run_general(t, declared, live("210987654321"))),
        vec![(Tier::Undeclared, "LifecyclePolicy.RegistryId".to_string())]
    );
}

#[test]
fn a_batch_size_follows_the_kind_of_event_source() {
    // "- *Amazon Simple Queue Service* – Default 10." and "- *Amazon
    // Kinesis* – Default 100.": the default by the source ARN's service.
    let t = "AWS::Lambda::EventSourceMapping";
    let fun = "arn:aws:lambda:eu-central-1:123456789012:function:worker";
    let sqs = "arn:aws:sqs:eu-central-1:123456789012:jobs";
    let kinesis = "arn:aws:kinesis:eu-central-1:123456789012:stream/clicks";
    let esm = |source: &str| json!({"FunctionName": fun, "EventSourceArn": source});
    let live = |source: &str, size: i64| {
        let mut l = esm(source);
        l["BatchSize"] = json!(size);
        l
    };
    for (source, size) in [(sqs, 10), (kinesis, 100)] {
        let fs = run_general(t, esm(source), live(source, size));
        assert!(drift(&fs).is_empty(), "{source}: {fs:?}");
    }
    for (source, size) in [(sqs, 100), (kinesis, 10), (sqs, 25)] {
        let fs = run_general(t, esm(source), live(source, size));
        assert_eq!(
            drift(&fs),
            vec![(Tier::Undeclared, "BatchSize".to_string())],
            "{source} {size}"
        );
    }
}

#[test]
fn an_engine_keyword_and_a_weekly_window_fold_case_only() {
    // RDS lists `mysql` and reads a declared `MySQL` back as the keyword;
    // weekly windows document `Mon`..`Sun` and are read back lower-cased.
    for (t, prop, declared, same, other) in [
        (
            "AWS::RDS::DBInstance",
            "Engine",
            "MySQL",
            "mysql",
            "mariadb",
        ),
        (
            "AWS::Neptune::DBCluster",
            "PreferredMaintenanceWindow",
            "Sun:05:00-Sun:06:00",
            "sun:05:00-sun:06:00",
            "mon:05:00-mon:06:00",
        ),
    ] {
        assert_spelling_folds(t, prop, declared, same, other);
    }
}

#[test]
fn a_task_size_in_vcpu_or_gb_folds_at_the_integer_ecs_stores() {
    // "String values are converted to an integer indicating the CPU units
    // when the task definition is registered." (and "... the MiB ...").
    let t = "AWS::ECS::TaskDefinition";
    let declared = json!({"Cpu": "2 vCPU", "Memory": "6GB"});
    let fs = run_general(
        t,
        declared.clone(),
        json!({"Cpu": "2048", "Memory": "6144"}),
    );
    assert!(drift(&fs).is_empty(), "{fs:?}");
    let fs = run_general(t, declared, json!({"Cpu": "1024", "Memory": "6144"}));
    assert_eq!(declared_paths(&fs), vec!["Cpu".to_string()]);
}

#[test]
fn a_per_region_list_names_its_elements_by_region() {
    // A list of per-region settings comes back in AWS's order, with members
    // the template left out: each is named by its region, whatever its place.
    let t = "AWS::Example::Replicated";
    let declared = json!({"Replicas": [{"Region": "ap-south-1"}, {"Region": "ca-central-1"}]});
    let live = json!({"Replicas": [
        {"Region": "ca-central-1", "Tier": "STANDARD"},
        {"Region": "ap-south-1", "Tier": "ARCHIVE"}]});
    let fs = run_general(t, declared, live);
    assert!(declared_paths(&fs).is_empty(), "{fs:?}");
    assert_eq!(
        tier_of(&fs, "Replicas[ap-south-1].Tier"),
        Some(Tier::Undeclared),
        "{fs:?}"
    );
    assert_eq!(
        tier_of(&fs, "Replicas[ca-central-1].Tier"),
        Some(Tier::Undeclared),
        "{fs:?}"
    );
}

#[test]
fn a_value_stated_per_kind_of_resource_follows_its_kind() {
    // "It is set to `false` for internet-facing load balancers and `true`
    // for internal load balancers, ..." An internal balancer found letting
    // the internet gateway in is a change, not its default.
    let t = "AWS::ElasticLoadBalancingV2::LoadBalancer";
    let path = "LoadBalancerAttributes[ipv6.deny_all_igw_traffic]";
    let tier = |scheme: &str, v: &str| {
        let live = json!({"Scheme": scheme, "Type": "application",
            "LoadBalancerAttributes": [{"Key": "ipv6.deny_all_igw_traffic", "Value": v}]});
        tier_of(&run_general(t, json!({"Scheme": scheme}), live), path)
    };
    let (at, un) = (Some(Tier::AtDefault), Some(Tier::Undeclared));
    assert_eq!(tier("internal", "true"), at);
    assert_eq!(tier("internet-facing", "false"), at);
    assert_eq!(tier("internal", "false"), un);
    assert_eq!(tier("internet-facing", "true"), un);
}

#[test]
fn a_wildcard_record_reads_back_in_route53s_escaped_form() {
    // "the escaped or Punycoded value, which is the format that Amazon Route
    // 53 saves in its database": `*` is saved as `\052`.
    let t = "AWS::Route53::RecordSet";
    let rec = |name: &str| {
        json!({"HostedZoneId": "Z0123456789ABCDEFGHIJ", "Name": name, "Type": "CNAME",
               "TTL": "60", "ResourceRecords": ["origin.example.net"]})
    };
    let fs = run_general(t, rec("*.shop.example.org"), rec("\\052.shop.example.org."));
    assert!(drift(&fs).is_empty(), "{fs:?}");
    let fs = run_general(t, rec("*.shop.example.org"), rec("\\052.blog.example.org."));
    assert_eq!(declared_paths(&fs), vec!["Name".to_string()]);
}

#[test]
fn a_dotted_word_outside_a_dns_name_keeps_its_case() {
    // A DNS name's case is not part of it; a Lambda handler's is: Node and
    // Python look the exported function up by its exact name.
    let t = "AWS::Lambda::Function";
    let f = |handler: &str| json!({"Handler": handler, "Runtime": "nodejs20.x"});
    let fs = run_general(t, f("index.handler"), f("index.Handler"));
    assert_eq!(declared_paths(&fs), vec!["Handler".to_string()]);
    let t = "AWS::CertificateManager::Certificate";
    let c = |name: &str| json!({"DomainName": name, "ValidationMethod": "DNS"});
    let fs = run_general(t, c("Shop.Example.org"), c("shop.example.org"));
    assert!(drift(&fs).is_empty(), "{fs:?}");
    // A certificate's alternative names are DNS names too; another name is
    // still a change.
    let sans = |names: &[&str]| json!({"DomainName": "shop.example.org", "SubjectAlternativeNames": names});
    let fs = run_general(t, sans(&["Www.Example.org"]), sans(&["www.example.org"]));
    assert!(drift(&fs).is_empty(), "{fs:?}");
    let fs = run_general(t, sans(&["www.example.org"]), sans(&["api.example.org"]));
    assert_eq!(
        declared_paths(&fs),
        vec!["SubjectAlternativeNames".to_string()]
    );
}

#[test]
fn a_header_name_folds_case_but_a_header_value_keeps_it() {
    // HTTP header names are case-insensitive; the value of an origin's
    // custom header is often a shared secret the origin checks exactly.
    let t = "AWS::CloudFront::Distribution";
    let d = |name: &str, value: &str| {
        json!({"DistributionConfig": {"Enabled": true, "Origins": [{"Id": "o1",
            "DomainName": "origin.example.com",
            "OriginCustomHeaders": [{"HeaderName": name, "HeaderValue": value}]}]}})
    };
    let fs = run_general(
        t,
        d("X-Origin-Verify", "Zq8Rt"),
        d("x-origin-verify", "Zq8Rt"),
    );
    assert!(drift(&fs).is_empty(), "{fs:?}");
    let fs = run_general(
        t,
        d("X-Origin-Verify", "Zq8Rt"),
        d("X-Origin-Verify", "zq8rt"),
    );
    assert_eq!(declared_paths(&fs).len(), 1, "{fs:?}");
}

#[test]
fn a_property_named_header_keeps_its_case_unless_documented_a_header_name() {
    // A bare `Header` is a CSV's column names (Glue) or an in-app message's
    // title (Pinpoint) as often as an HTTP header name; before, its name
    // alone made a case-only change fold.
    let glue = |h: &str| json!({"CsvClassifier": {"Name": "c", "Header": [h, "name"]}});
    let fs = run_general("AWS::Glue::Classifier", glue("id"), glue("ID"));
    assert_eq!(
        declared_paths(&fs),
        vec!["CsvClassifier.Header".to_string()]
    );
    let title =
        |h: &str| json!({"TemplateName": "t", "Content": [{"HeaderConfig": {"Header": h}}]});
    let fs = run_general("AWS::Pinpoint::InAppTemplate", title("Sale"), title("SALE"));
    assert_eq!(declared_paths(&fs).len(), 1, "{fs:?}");
    // "The HTTP response header name." (a mined rule) and a VPC Lattice
    // match's "The name of the header.": case-only spellings of one header.
    let custom = |h: &str| {
        json!({"ResponseHeadersPolicyConfig": {"Name": "p", "CustomHeadersConfig": {
            "Items": [{"Header": h, "Value": "v", "Override": true}]}}})
    };
    let t = "AWS::CloudFront::ResponseHeadersPolicy";
    let fs = run_general(t, custom("X-Frame-Hint"), custom("x-frame-hint"));
    assert!(drift(&fs).is_empty(), "{fs:?}");
    let fs = run_general(t, custom("X-Frame-Hint"), custom("X-Frame-Hunt"));
    assert_eq!(declared_paths(&fs).len(), 1, "{fs:?}");
    let rule = |h: &str| {
        json!({"Priority": 1, "Match": {"HttpMatch": {"HeaderMatches": [
            {"Name": h, "Match": {"Exact": "v"}}]}}})
    };
    let fs = run_general("AWS::VpcLattice::Rule", rule("X-Tenant"), rule("x-tenant"));
    assert!(drift(&fs).is_empty(), "{fs:?}");
}

#[test]
fn a_deprecated_destination_is_compared_where_the_service_stores_it() {
    // API model: "[Deprecated] The destination in Amazon S3. ..." beside the
    // current member documented word for word; Firehose reads the plain S3
    // destination back as the extended one. Its encryption is "The default
    // value is `NoEncryption`." (the one member whose enum holds it).
    let t = "AWS::KinesisFirehose::DeliveryStream";
    let dest = |bucket: &str| {
        json!({"BucketARN": format!("arn:aws:s3:::{bucket}"),
               "RoleARN": "arn:aws:iam::123456789012:role/firehose"})
    };
    let declared = json!({"S3DestinationConfiguration": dest("landing-zone")});
    let live = |bucket: &str, encryption: serde_json::Value| {
        let mut d = dest(bucket);
        d["EncryptionConfiguration"] = encryption;
        json!({"ExtendedS3DestinationConfiguration": d})
    };
    // The registry schema makes the plain destination write-only.
    let schema = SchemaFacts {
        write_only: vec!["S3DestinationConfiguration".into()],
        ..SchemaFacts::default()
    };
    let run = |declared: &serde_json::Value, live: serde_json::Value| {
        let r = resource(t, declared.clone());
        classify_with(&r, &live, &schema, &context(), Knowledge::WithoutObserved)
    };
    let none = json!({"NoEncryptionConfig": "NoEncryption"});
    let fs = run(&declared, live("landing-zone", none.clone()));
    assert!(drift(&fs).is_empty(), "{fs:?}");
    let fs = run(&declared, live("elsewhere", none));
    assert_eq!(
        declared_paths(&fs),
        vec!["ExtendedS3DestinationConfiguration.BucketARN".to_string()],
        "{fs:?}"
    );
    let kms = json!({"KMSEncryptionConfig": {"AWSKMSKeyARN": "arn:aws:kms:eu-central-1:123456789012:key/1"}});
    let fs = run(&declared, live("landing-zone", kms));
    assert_eq!(
        tier_of(
            &fs,
            "ExtendedS3DestinationConfiguration.EncryptionConfiguration"
        ),
        Some(Tier::Undeclared),
        "{fs:?}"
    );
}

#[test]
fn a_protocol_declared_by_number_folds_at_its_keyword_only() {
    // EC2 takes "The IP protocol name (tcp, udp, icmp, icmpv6) or number"
    // and reads back the name; a rule declared as 6 holds `tcp`.
    let t = "AWS::EC2::SecurityGroupIngress";
    let declared =
        json!({"IpProtocol": "6", "FromPort": 443, "ToPort": 443, "CidrIp": "10.0.0.0/8"});
    let mut live = declared.clone();
    live["IpProtocol"] = json!("tcp");
    let fs = run_general(t, declared.clone(), live.clone());
    assert!(drift(&fs).is_empty(), "{fs:?}");
    live["IpProtocol"] = json!("udp");
    let fs = run_general(t, declared, live);
    assert_eq!(declared_paths(&fs), vec!["IpProtocol".to_string()]);
}

#[test]
fn a_validity_stated_in_its_default_unit_folds_at_that_number_only() {
    // "If you don't specify otherwise in the configuration of your app
    // client, your refresh tokens are valid for 30 days." with "The default
    // time unit for `RefreshTokenValidity` in an API request is days."
    let t = "AWS::Cognito::UserPoolClient";
    for (prop, documented, other) in [
        ("RefreshTokenValidity", 30, 7),
        ("AccessTokenValidity", 1, 12),
        ("IdTokenValidity", 1, 24),
    ] {
        let fs = run_general(t, json!({}), json!({ prop: documented }));
        assert_eq!(tier_of(&fs, prop), Some(Tier::AtDefault), "{prop}");
        let fs = run_general(t, json!({}), json!({ prop: other }));
        assert_eq!(tier_of(&fs, prop), Some(Tier::Undeclared), "{prop}");
    }
    // In another unit the same number is another time limit.
    let declared = json!({"TokenValidityUnits": {"RefreshToken": "hours"}});
    let live = json!({"TokenValidityUnits": {"RefreshToken": "hours"}, "RefreshTokenValidity": 30});
    let fs = run_general(t, declared, live);
    assert_eq!(
        tier_of(&fs, "RefreshTokenValidity"),
        Some(Tier::Undeclared),
        "{fs:?}"
    );
}

#[test]
fn a_one_element_list_of_a_block_at_its_defaults_is_at_default() {
    // "By default, ObjectOwnership is set to BucketOwnerEnforced and ACLs
    // are disabled." (the API model's shape text, for a member with none of
    // its own): S3 reads back one ownership rule.
    let t = "AWS::S3::Bucket";
    let rules = |r: Value| json!({"OwnershipControls": {"Rules": r}});
    let fs = run_general(
        t,
        json!({}),
        rules(json!([{"ObjectOwnership": "BucketOwnerEnforced"}])),
    );
    assert_eq!(tier_of(&fs, "OwnershipControls"), Some(Tier::AtDefault));
    for other in [
        json!([{"ObjectOwnership": "ObjectWriter"}]),
        json!([{"ObjectOwnership": "BucketOwnerEnforced"}, {"ObjectOwnership": "BucketOwnerEnforced"}]),
    ] {
        let fs = run_general(t, json!({}), rules(other));
        assert_eq!(
            tier_of(&fs, "OwnershipControls"),
            Some(Tier::Undeclared),
            "{fs:?}"
        );
    }
    // "By default, `SignatureVersion` is set to `1`." (SNS).
    let t = "AWS::SNS::Topic";
    let fs = run_general(t, json!({}), json!({"SignatureVersion": "1"}));
    assert_eq!(tier_of(&fs, "SignatureVersion"), Some(Tier::AtDefault));
    let fs = run_general(t, json!({}), json!({"SignatureVersion": "2"}));
    assert_eq!(tier_of(&fs, "SignatureVersion"), Some(Tier::Undeclared));
}

#[test]
fn a_default_named_after_the_resource_itself_folds_only_under_that_name() {
    // "By default, Lambda functions send logs to a default log group named
    // `/aws/lambda/<function name>`." (the function's name is its physical
    // id, `res-0123` here).
    let t = "AWS::Lambda::Function";
    let declared = json!({"LoggingConfig": {"LogFormat": "JSON"}});
    let live = |group: &str| json!({"LoggingConfig": {"LogFormat": "JSON", "LogGroup": group}});
    let path = "LoggingConfig.LogGroup";
    let fs = run_general(t, declared.clone(), live("/aws/lambda/res-0123"));
    assert!(drift(&fs).is_empty(), "{fs:?}");
    for other in ["/aws/lambda/other-fn", "/custom/app-logs"] {
        let fs = run_general(t, declared.clone(), live(other));
        assert_eq!(
            drift(&fs),
            vec![(Tier::Undeclared, path.to_string())],
            "{other}"
        );
    }
}

#[test]
fn a_host_port_the_network_mode_ties_to_the_container_port_folds_only_there() {
    // "If you use containers in a task with the `awsvpc` or `host` network
    // mode, the `hostPort` can either be left blank or set to the same value
    // as the `containerPort`." Left out, it reads back as that port; in
    // `bridge` mode the host port is a choice and surfaces.
    let t = "AWS::ECS::TaskDefinition";
    let task = |mode: &str| {
        json!({"NetworkMode": mode, "ContainerDefinitions": [{"Name": "web", "Image": "nginx",
            "PortMappings": [{"ContainerPort": 8080, "Protocol": "tcp"}]}]})
    };
    let live = |mode: &str, host: u16| {
        json!({"NetworkMode": mode, "ContainerDefinitions": [{"Name": "web", "Image": "nginx",
            "PortMappings": [{"ContainerPort": 8080, "HostPort": host, "Protocol": "tcp"}]}]})
    };
    let host_port = "ContainerDefinitions[web].PortMappings.0.HostPort";
    for mode in ["awsvpc", "host"] {
        let fs = run_general(t, task(mode), live(mode, 8080));
        assert_eq!(
            tier_of(&fs, host_port),
            Some(Tier::AtDefault),
            "{mode}: {fs:?}"
        );
        let fs = run_general(t, task(mode), live(mode, 80));
        assert_eq!(tier_of(&fs, host_port), Some(Tier::Undeclared), "{mode}");
    }
    let fs = run_general(t, task("bridge"), live("bridge", 8080));
    assert_eq!(tier_of(&fs, host_port), Some(Tier::Undeclared));
}

#[test]
fn a_number_the_service_clears_with_minus_one_reads_minus_one_when_never_set() {
    // "To remove a value that you previously set, include the property but
    // specify -1 for the value." A warm pool or a table never given a cap
    // reads back -1; a cap set out of band surfaces.
    let fs = run_general(
        "AWS::AutoScaling::WarmPool",
        json!({"AutoScalingGroupName": "asg"}),
        json!({"AutoScalingGroupName": "asg", "MaxGroupPreparedCapacity": -1}),
    );
    assert!(drift(&fs).is_empty(), "{fs:?}");
    let fs = run_general(
        "AWS::AutoScaling::WarmPool",
        json!({"AutoScalingGroupName": "asg"}),
        json!({"AutoScalingGroupName": "asg", "MaxGroupPreparedCapacity": 4}),
    );
    assert_eq!(
        tier_of(&fs, "MaxGroupPreparedCapacity"),
        Some(Tier::Undeclared)
    );
    let t = "AWS::DynamoDB::Table";
    // Inside an on-demand throughput block the template declares.
    let table = json!({"BillingMode": "PAY_PER_REQUEST", "OnDemandThroughput": {}});
    let capped = |r: i64| {
        json!({"BillingMode": "PAY_PER_REQUEST",
            "OnDemandThroughput": {"MaxReadRequestUnits": r, "MaxWriteRequestUnits": -1}})
    };
    assert!(drift(&run_general(t, table.clone(), capped(-1))).is_empty());
    assert!(!drift(&run_general(t, table, capped(100))).is_empty());
}

#[test]
fn a_desired_capacity_left_out_starts_at_the_minimum_size() {
    // "If you do not specify a desired capacity when creating the stack, the
    // default is the minimum size of the group." A group scaled past it
    // surfaces.
    let t = "AWS::AutoScaling::AutoScalingGroup";
    let group = json!({"MinSize": "2", "MaxSize": "6"});
    let live = |desired: &str| json!({"MinSize": "2", "MaxSize": "6", "DesiredCapacity": desired});
    let fs = run_general(t, group.clone(), live("2"));
    assert_eq!(
        tier_of(&fs, "DesiredCapacity"),
        Some(Tier::AtDefault),
        "{fs:?}"
    );
    let fs = run_general(t, group, live("4"));
    assert_eq!(tier_of(&fs, "DesiredCapacity"), Some(Tier::Undeclared));
}

#[test]
fn an_api_enum_keyword_folds_case_but_a_filter_value_keeps_it() {
    // The schema leaves a filter rule's `Name` free text; the API model's
    // `FilterRuleName` takes only `prefix` / `suffix`, which S3 reads back
    // as `Prefix` / `Suffix`. The rule's `Value` is an object key part.
    let t = "AWS::S3::Bucket";
    let d = |name: &str, value: &str| {
        json!({"NotificationConfiguration": {"LambdaConfigurations": [{
            "Event": "s3:ObjectCreated:*",
            "Function": "arn:aws:lambda:us-east-1:123456789012:function:thumbs",
            "Filter": {"S3Key": {"Rules": [{"Name": name, "Value": value}]}}}]}})
    };
    let fs = run_general(t, d("prefix", "images/"), d("Prefix", "images/"));
    assert!(drift(&fs).is_empty(), "{fs:?}");
    let fs = run_general(t, d("prefix", "images/"), d("Suffix", "images/"));
    assert_eq!(declared_paths(&fs).len(), 1, "{fs:?}");
    let fs = run_general(t, d("prefix", "images/"), d("Prefix", "Images/"));
    assert_eq!(declared_paths(&fs).len(), 1, "{fs:?}");
}

#[test]
fn a_default_the_sources_contradict_is_unknown_and_surfaces() {
    // CloudFormation documents `SecurityGroupReferencingSupport` as "disabled
    // by default"; the API model says "This option is set to enable by
    // default." Neither is trusted, so either value read back surfaces,
    // while `ApplianceModeSupport` (both say `disable`) still folds.
    let t = "AWS::EC2::TransitGatewayVpcAttachment";
    let declared =
        json!({"TransitGatewayId": "tgw-1", "VpcId": "vpc-1", "SubnetIds": ["subnet-a"]});
    let live = |options: Value| json!({"TransitGatewayId": "tgw-1", "VpcId": "vpc-1", "SubnetIds": ["subnet-a"], "Options": options});
    for v in ["enable", "disable"] {
        let fs = run_general(
            t,
            declared.clone(),
            live(json!({"SecurityGroupReferencingSupport": v})),
        );
        assert!(
            fs.iter()
                .any(|f| f.tier == Tier::Undeclared && f.path == "Options"),
            "{v}: {fs:?}"
        );
    }
    // Inside options the template declares.
    let mut with_options = declared;
    with_options["Options"] = json!({});
    let fs = run_general(
        t,
        with_options,
        live(json!({"ApplianceModeSupport": "disable"})),
    );
    assert!(drift(&fs).is_empty(), "{fs:?}");
}

#[test]
fn a_public_database_surfaces_outside_the_default_vpc() {
    // Observed: instances in RDS's `default` subnet group (the default VPC,
    // which has an internet gateway) come up public. In a subnet group of
    // one's own the value follows that VPC, so a public instance surfaces.
    let t = "AWS::RDS::DBInstance";
    let declared = |group: Option<&str>| {
        let mut d = json!({"DBInstanceClass": "db.t3.micro", "Engine": "postgres",
            "AllocatedStorage": "20", "MasterUsername": "admin"});
        if let Some(g) = group {
            d["DBSubnetGroupName"] = json!(g);
        }
        d
    };
    let live = |group: &str| {
        json!({"DBInstanceClass": "db.t3.micro", "Engine": "postgres",
            "AllocatedStorage": "20", "MasterUsername": "admin",
            "DBSubnetGroupName": group, "PubliclyAccessible": true})
    };
    let public = |fs: &[Finding]| {
        fs.iter()
            .any(|f| f.path == "PubliclyAccessible" && f.tier == Tier::Undeclared)
    };
    let fs = run(t, declared(Some("app-private")), live("app-private"));
    assert!(public(&fs), "{fs:?}");
    let fs = run(t, declared(None), live("default"));
    assert!(!public(&fs), "{fs:?}");
}

#[test]
fn capacity_aws_derives_or_scales_folds_but_the_setting_behind_it_surfaces() {
    // A Glue job's capacity follows its workers; an on-demand stream's shards
    // and a gp2 volume's IOPS are AWS's. Recorded deploys held 10 workers,
    // 4 shards and small volumes, so other sizes used to surface as drift.
    let has = |fs: &[Finding], path: &str| fs.iter().any(|f| f.tier.is_drift() && f.path == path);
    let job = |workers: u32, live_workers: u32| {
        let declared = json!({"Command": {"Name": "glueetl", "ScriptLocation": "s3://b/s.py"},
            "Role": "arn:aws:iam::123456789012:role/r", "GlueVersion": "4.0",
            "WorkerType": "G.1X", "NumberOfWorkers": workers});
        let live = json!({"Command": {"Name": "glueetl", "ScriptLocation": "s3://b/s.py", "PythonVersion": "2"},
            "Role": "arn:aws:iam::123456789012:role/r", "GlueVersion": "4.0", "Timeout": 2880,
            "WorkerType": "G.1X", "NumberOfWorkers": live_workers, "MaxRetries": 0,
            "MaxCapacity": live_workers, "AllocatedCapacity": live_workers,
            "ExecutionProperty": {"MaxConcurrentRuns": 1}});
        run("AWS::Glue::Job", declared, live)
    };
    let fs = job(2, 2);
    assert!(drift(&fs).is_empty(), "{:?}", drift(&fs));
    let fs = job(2, 40);
    assert!(
        declared_paths(&fs).contains(&"NumberOfWorkers".to_string()),
        "{fs:?}"
    );

    let stream = |mode: &str, shards: u32| {
        run(
            "AWS::Kinesis::Stream",
            json!({"StreamModeDetails": {"StreamMode": "ON_DEMAND"}}),
            json!({"Name": "s", "ShardCount": shards, "RetentionPeriodHours": 24,
                "StreamModeDetails": {"StreamMode": mode}}),
        )
    };
    assert!(!has(&stream("ON_DEMAND", 12), "ShardCount"));
    // Switched to provisioned out of band: the mode is declared drift.
    assert!(has(
        &stream("PROVISIONED", 12),
        "StreamModeDetails.StreamMode"
    ));

    let volume = |declared_type: Option<&str>, live_type: &str, iops: u32| {
        let mut d = json!({"AvailabilityZone": "eu-central-1a", "Size": 200});
        if let Some(t) = declared_type {
            d["VolumeType"] = json!(t);
        }
        run(
            "AWS::EC2::Volume",
            d,
            json!({"AvailabilityZone": "eu-central-1a", "Size": 200, "VolumeType": live_type,
                "Iops": iops, "Encrypted": false}),
        )
    };
    assert!(!has(&volume(None, "gp2", 600), "Iops"));
    // gp3 IOPS are provisioned: raised beyond the default, they surface.
    assert!(has(&volume(Some("gp3"), "gp3", 6000), "Iops"));
    assert!(!has(&volume(Some("gp3"), "gp3", 3000), "Iops"));
}

#[test]
fn a_type_that_states_its_own_default_is_not_overruled_by_a_cross_type_one() {
    // An API key's registry schema says it starts disabled: one enabled out
    // of band is a key that now works, and must surface.
    assert!(enabled_surfaces("AWS::ApiGateway::ApiKey", true));
    assert!(!enabled_surfaces("AWS::ApiGateway::ApiKey", false));
}

#[test]
fn a_type_that_states_its_own_managed_key_is_not_widened_to_any_managed_key() {
    // "If no key ID is specified, the default, Kinesis Video-managed key
    // (`aws/kinesisvideo`) is used." The cross-type pattern matches any
    // AWS-managed key of the account; before, because the stream's own
    // alias is one, it applied here too and another service's managed key
    // folded as the stream's default.
    let own = "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0";
    let other = "1a2b3c4d-5e6f-4a5b-9c8d-7e6f5a4b3c2d";
    let mut ctx = context();
    ctx.kms_alias_targets = Some(std::collections::BTreeMap::from([
        ("alias/aws/kinesisvideo".to_string(), own.to_string()),
        ("alias/aws/s3".to_string(), other.to_string()),
    ]));
    let tier = |id: &str| {
        let live = json!({"Name": "s", "KmsKeyId": format!("arn:aws:kms:eu-central-1:123456789012:key/{id}")});
        let fs = classify(
            &resource("AWS::KinesisVideo::Stream", json!({"Name": "s"})),
            &live,
            &SchemaFacts::default(),
            &ctx,
        );
        tier_of(&fs, "KmsKeyId")
    };
    assert_eq!(tier(own), Some(Tier::AtDefault));
    assert_eq!(tier(other), Some(Tier::Undeclared));
}

/// True when a resource of type `t` read back with `Enabled: v` (left
/// undeclared) shows it as drift.
fn enabled_surfaces(t: &str, v: bool) -> bool {
    run(t, json!({"Name": "k"}), json!({"Name": "k", "Enabled": v}))
        .iter()
        .any(|f| f.path == "Enabled" && f.tier.is_drift())
}

#[test]
fn a_switch_no_source_states_is_reported_on_or_off() {
    // Resources do not all start enabled (an API key, an IoT provisioning
    // template start disabled), nor all disabled (a KMS key, an event
    // subscription): where the type states nothing, neither `true` nor
    // `false` is its default. Before, `true` folded for every such type, so
    // a template or trust anchor enabled out of band was hidden.
    for t in ["AWS::IoT::ProvisioningTemplate", "AWS::Example::Widget"] {
        assert!(enabled_surfaces(t, true), "{t} enabled");
        assert!(enabled_surfaces(t, false), "{t} disabled");
    }
    // A type whose own sources state it keeps folding its default.
    assert!(!enabled_surfaces("AWS::KMS::Key", true));
    assert!(enabled_surfaces("AWS::KMS::Key", false));
    // A state is the type's own fact too: a rule starts `ENABLED`, an
    // unknown type states nothing.
    let state_surfaces = |t: &str| {
        run(
            t,
            json!({"Name": "k"}),
            json!({"Name": "k", "State": "ENABLED"}),
        )
        .iter()
        .any(|f| f.path == "State" && f.tier.is_drift())
    };
    assert!(!state_surfaces("AWS::Events::Rule"));
    assert!(state_surfaces("AWS::Example::Widget"));
}

#[test]
fn a_set_value_the_read_always_returns_is_removed_when_it_is_gone() {
    // Logs returns RetentionInDays whenever a retention is set; without it
    // the group keeps logs forever. Redshift's read never returns Port, so
    // there a missing value is only unread.
    let tier_at = |fs: &[Finding], path: &str| fs.iter().find(|f| f.path == path).map(|f| f.tier);
    let fs = run(
        "AWS::Logs::LogGroup",
        json!({"LogGroupName": "lg", "RetentionInDays": 7}),
        json!({"LogGroupName": "lg", "LogGroupClass": "STANDARD"}),
    );
    assert_eq!(tier_at(&fs, "RetentionInDays"), Some(Tier::Declared));
    let fs = run(
        "AWS::Redshift::Cluster",
        json!({"ClusterType": "single-node", "NodeType": "ra3.xlplus", "Port": 5439}),
        json!({"ClusterType": "single-node", "NodeType": "ra3.xlplus"}),
    );
    assert_eq!(tier_at(&fs, "Port"), Some(Tier::ReadGap));
    // General knowledge alone has no such evidence: a read gap.
    let fs = run_general(
        "AWS::Logs::LogGroup",
        json!({"LogGroupName": "lg", "RetentionInDays": 7}),
        json!({"LogGroupName": "lg"}),
    );
    assert_eq!(tier_at(&fs, "RetentionInDays"), Some(Tier::ReadGap));
}

#[test]
fn one_default_security_group_is_chosen_at_create_on_any_type_but_a_second_surfaces() {
    // Recorded on ten types; ElastiCache replication groups and Redshift
    // clusters were never recorded without a declared group.
    let cases = [
        ("AWS::ElastiCache::ReplicationGroup", "SecurityGroupIds"),
        ("AWS::Redshift::Cluster", "VpcSecurityGroupIds"),
        ("AWS::Example::Thing", "SecurityGroups"),
    ];
    for (t, prop) in cases {
        let fs = run(t, json!({}), json!({ prop: ["sg-0123456789abcdef0"] }));
        assert_eq!(tier_of(&fs, prop), Some(Tier::AtDefault), "{t}: {fs:?}");
        assert!(
            realdrift_core::normalize::aws_facts::is_chosen_at_create(t, prop),
            "{t}: record must snapshot it"
        );
        // A group added beside the default one is a real change.
        let two = json!({ prop: ["sg-0123456789abcdef0", "sg-0fedcba9876543210"] });
        assert_eq!(
            tier_of(&run(t, json!({}), two), prop),
            Some(Tier::Undeclared),
            "{t}"
        );
        // A group name is no id AWS chose (EC2-Classic style names).
        let named = json!({ prop: ["my-group"] });
        assert_eq!(
            tier_of(&run(t, json!({}), named), prop),
            Some(Tier::Undeclared),
            "{t}"
        );
    }
}

#[test]
fn a_deployment_default_stated_per_scheduler_holds_for_that_scheduler_only() {
    // ECS docs: a replica service's minimum healthy percent defaults to 100,
    // a daemon's to 0 "for the AWS CLI, the AWS SDKs, and the APIs" (50 in
    // the console; CloudFormation calls the API). The corpus held no daemon.
    let surfaces = |strategy: &str, min: u32| {
        let declared = json!({"Cluster": "c", "TaskDefinition": "td:1",
            "SchedulingStrategy": strategy, "DeploymentConfiguration": {}});
        let mut live = declared.clone();
        live["DeploymentConfiguration"] = json!({"MinimumHealthyPercent": min});
        !drift(&run_general("AWS::ECS::Service", declared, live)).is_empty()
    };
    assert!(!surfaces("DAEMON", 0));
    assert!(!surfaces("REPLICA", 100));
    // Each scheduler's value is a change on the other: a replica service
    // that may stop every task during a deployment surfaces.
    assert!(surfaces("DAEMON", 100));
    assert!(surfaces("REPLICA", 0));
    // The console's daemon value is not what CloudFormation created.
    assert!(surfaces("DAEMON", 50));
}

#[test]
fn an_off_switch_inside_an_all_off_block_surfaces_where_documented_on() {
    // Cognito documents case-sensitive user names as the default; the
    // block `{CaseSensitive: false}` was dropped whole as "all off".
    let t = "AWS::Cognito::UserPool";
    // The block declared bare: its member's default holds inside it (a
    // block nobody declared holding a switch on is judged by
    // `tests/classify_fold_safety.rs`).
    let declared = json!({"UserPoolName": "p", "UsernameConfiguration": {}});
    let block = |on: bool| {
        let mut live = declared.clone();
        live["UsernameConfiguration"] = json!({"CaseSensitive": on});
        run_general(t, declared.clone(), live)
    };
    let fs = block(false);
    assert_eq!(
        drift(&fs),
        vec![(
            Tier::Undeclared,
            "UsernameConfiguration.CaseSensitive".to_string()
        )],
        "{fs:?}"
    );
    assert!(drift(&block(true)).is_empty());
    // One level deeper, beside an unset member that stays quiet.
    let t = "AWS::ApiGatewayV2::ApiGatewayManagedOverrides";
    let fs = run_general(
        t,
        json!({"ApiId": "a1"}),
        json!({"ApiId": "a1", "Stage": {"AutoDeploy": false, "Description": ""}}),
    );
    assert_eq!(
        drift(&fs),
        vec![(Tier::Undeclared, "Stage.AutoDeploy".to_string())],
        "{fs:?}"
    );
}

#[test]
fn a_value_a_service_attaches_found_off_surfaces() {
    // EC2 reports DeleteOnTermination true on an interface the instance
    // creates: found false, it was switched off, not left unset.
    let t = "AWS::EC2::Instance";
    let nic = |on: bool| {
        let declared = json!({"NetworkInterfaces": [{"DeviceIndex": "0", "SubnetId": "subnet-1"}]});
        let live = json!({"NetworkInterfaces": [
            {"DeviceIndex": "0", "SubnetId": "subnet-1", "DeleteOnTermination": on}]});
        run(t, declared, live)
    };
    assert!(drift(&nic(true)).is_empty());
    let fs = nic(false);
    assert!(
        drift(&fs)
            .iter()
            .any(|(tier, p)| *tier == Tier::Undeclared && p.ends_with("DeleteOnTermination")),
        "{fs:?}"
    );
    // A classic load balancer's negotiation policy is attached to HTTPS and
    // SSL listeners only: an HTTP listener's empty list is no change.
    let t = "AWS::ElasticLoadBalancing::LoadBalancer";
    let listener = |protocol: &str, policies: Value| {
        let declared = json!({"Listeners": [
            {"LoadBalancerPort": "443", "InstancePort": "80", "Protocol": protocol}]});
        let live = json!({"Listeners": [{"LoadBalancerPort": "443", "InstancePort": "80",
            "Protocol": protocol, "PolicyNames": policies}]});
        run(t, declared, live)
    };
    assert!(drift(&listener("HTTP", json!([]))).is_empty());
    assert!(drift(&listener("HTTPS", json!(["ELBSecurityPolicy-2016-08"]))).is_empty());
    assert!(!drift(&listener("HTTPS", json!([]))).is_empty());
}

#[test]
fn a_switch_found_off_against_a_cross_type_or_conditioned_default_surfaces() {
    // Minor-version upgrades are on unless declared off (a cross-type
    // default); a cache cluster found with them off was dropped as "unset".
    let cache = |upgrade: bool| {
        let declared =
            json!({"Engine": "redis", "CacheNodeType": "cache.t3.micro", "NumCacheNodes": 1});
        let mut live = declared.clone();
        live["AutoMinorVersionUpgrade"] = json!(upgrade);
        tier_of(
            &run("AWS::ElastiCache::CacheCluster", declared, live),
            "AutoMinorVersionUpgrade",
        )
    };
    assert_eq!(cache(false), Some(Tier::Undeclared));
    assert_ne!(cache(true), Some(Tier::Undeclared));
    // A cross-type value of another kind says nothing: `DeletionProtection`
    // "DISABLED" elsewhere, a boolean on DocumentDB.
    let fs = run(
        "AWS::DocDB::DBCluster",
        json!({"MasterUsername": "u"}),
        json!({"MasterUsername": "u", "DeletionProtection": false}),
    );
    assert_eq!(tier_of(&fs, "DeletionProtection"), None, "{fs:?}");

    // A cluster-mode group (several shards) runs with automatic failover,
    // whatever the schema's false says of groups at large.
    let group = |shards: u32, failover: bool| {
        let declared = json!({"ReplicationGroupDescription": "g", "NumNodeGroups": shards});
        let mut live = declared.clone();
        live["AutomaticFailoverEnabled"] = json!(failover);
        tier_of(
            &run("AWS::ElastiCache::ReplicationGroup", declared, live),
            "AutomaticFailoverEnabled",
        )
    };
    assert_eq!(group(3, false), Some(Tier::Undeclared));
    assert_eq!(group(1, false), None);
}

// ---- the schema's transforms, at any depth --------------------------------

/// The bundled registry schema's facts for `t` (its `propertyTransform`s).
fn bundled(t: &str) -> SchemaFacts {
    use realdrift_core::schema::{BundledSchemas, SchemaSource};
    let bundled = BundledSchemas::shared().expect("bundled snapshot loads");
    let facts = bundled.facts(t).expect("schema reads").expect("type known");
    (*facts).clone()
}

fn rule(protocol: &str, from: i64, to: i64) -> Value {
    json!({"IpProtocol": protocol, "FromPort": from, "ToPort": to, "CidrIp": "10.0.0.0/8"})
}

#[test]
fn a_transform_inside_a_list_folds_the_rewrite_it_states() {
    // EC2 keeps no ports on an all-protocol rule and stores protocol
    // numbers by name: the template's spelling of a rule AWS holds.
    let t = "AWS::EC2::SecurityGroup";
    let declared = json!({"SecurityGroupIngress": [rule("-1", 0, 65535), rule("6", 443, 443)]});
    let live = json!({"SecurityGroupIngress": [rule("tcp", 443, 443), rule("-1", -1, -1)]});
    let fs = run_schema(t, bundled(t), declared, live);
    assert!(declared_paths(&fs).is_empty(), "{fs:?}");
    // A tcp rule whose ports were widened out of band is a change.
    let declared = json!({"SecurityGroupIngress": [rule("-1", 0, 65535), rule("tcp", 443, 443)]});
    let live = json!({"SecurityGroupIngress": [rule("-1", -1, -1), rule("tcp", -1, -1)]});
    let fs = run_schema(t, bundled(t), declared, live);
    assert_eq!(declared_paths(&fs), vec!["SecurityGroupIngress"], "{fs:?}");
}

#[test]
fn a_transform_that_discards_the_declared_value_needs_a_second_source() {
    // The schema's condition spells icmp "imcp", so its transform turns any
    // ICMP type into -1. EC2 keeps ICMP types; a type changed to "all" out
    // of band is a change, top-level and inside a group alike.
    for t in [
        "AWS::EC2::SecurityGroupIngress",
        "AWS::EC2::SecurityGroupEgress",
    ] {
        let fs = run_schema(t, bundled(t), rule("icmp", 8, 0), rule("icmp", -1, -1));
        assert_eq!(
            declared_paths(&fs),
            vec!["FromPort", "ToPort"],
            "{t}: {fs:?}"
        );
        let fs = run_schema(t, bundled(t), rule("-1", 0, 65535), rule("-1", -1, -1));
        assert!(declared_paths(&fs).is_empty(), "{t}: {fs:?}");
    }
    let t = "AWS::EC2::SecurityGroup";
    let declared = json!({"SecurityGroupIngress": [rule("icmp", 8, 0)]});
    let live = json!({"SecurityGroupIngress": [rule("icmp", -1, -1)]});
    let fs = run_schema(t, bundled(t), declared, live);
    assert_eq!(declared_paths(&fs), vec!["SecurityGroupIngress"], "{fs:?}");
}

#[test]
fn a_name_stands_for_the_stacks_own_arn_not_another_accounts() {
    // The schema's transforms write these as patterns that accept any
    // account and region; realdrift takes a name for the ARN of the
    // stack's own account and region only.
    let t = "AWS::ECS::TaskDefinition";
    let td = |role: &str| json!({"Family": "f", "TaskRoleArn": role});
    let own = run_schema(
        t,
        bundled(t),
        td("MyRole"),
        td("arn:aws:iam::123456789012:role/MyRole"),
    );
    assert!(declared_paths(&own).is_empty(), "{own:?}");
    let other = run_schema(
        t,
        bundled(t),
        td("MyRole"),
        td("arn:aws:iam::999999999999:role/MyRole"),
    );
    assert_eq!(declared_paths(&other), vec!["TaskRoleArn"]);
    let t = "AWS::Lambda::EventSourceMapping";
    let esm = |f: &str| json!({"FunctionName": f, "BatchSize": 10});
    let own = run_schema(
        t,
        bundled(t),
        esm("fn"),
        esm("arn:aws:lambda:eu-central-1:123456789012:function:fn"),
    );
    assert!(declared_paths(&own).is_empty(), "{own:?}");
    let elsewhere = run_schema(
        t,
        bundled(t),
        esm("fn"),
        esm("arn:aws:lambda:us-west-2:123456789012:function:fn"),
    );
    assert_eq!(declared_paths(&elsewhere), vec!["FunctionName"]);
}

#[test]
fn a_custom_attribute_added_out_of_band_surfaces() {
    // Cognito returns its fixed standard attributes beside the declared
    // custom ones; a custom attribute added by AddCustomAttributes is not
    // one of them.
    let t = "AWS::Cognito::UserPool";
    let declared =
        json!({"Schema": [{"Name": "tenant", "AttributeDataType": "String", "Mutable": true}]});
    let attr = |name: &str, kind: &str, mutable: bool| {
        json!({"Name": name, "AttributeDataType": kind, "DeveloperOnlyAttribute": false,
               "Mutable": mutable, "Required": name == "sub"})
    };
    let live = json!({"Schema": [attr("sub", "String", false),
        attr("custom:tenant", "String", true), attr("custom:plan", "Number", true)]});
    let fs = run(t, declared, live);
    assert_eq!(
        drift(&fs),
        vec![(Tier::Undeclared, "Schema[custom:plan]".to_string())],
        "{fs:?}"
    );
}

#[test]
fn an_element_whose_identity_aws_respells_is_still_walked() {
    // Route 53 stores a record name lower-cased with the root dot: the
    // declared element finds its live one by equality, not by the text of
    // its name, and a routing weight added to it out of band surfaces.
    let t = "AWS::Route53::RecordSetGroup";
    let record = |name: &str| {
        json!({"Name": name, "Type": "A", "TTL": "300",
        "ResourceRecords": ["192.0.2.1"]})
    };
    let declared = json!({"HostedZoneId": "Z1", "RecordSets": [record("Api.Example.com")]});
    let mut weighted = record("api.example.com.");
    weighted["Weight"] = json!(5);
    let live = json!({"HostedZoneId": "Z1", "RecordSets": [weighted]});
    let fs = run_general(t, declared.clone(), live);
    assert_eq!(
        drift(&fs),
        vec![(
            Tier::Undeclared,
            "RecordSets[api.example.com.].Weight".to_string()
        )],
        "{fs:?}"
    );
    let live = json!({"HostedZoneId": "Z1", "RecordSets": [record("api.example.com.")]});
    assert!(drift(&run_general(t, declared.clone(), live)).is_empty());
    // A record added out of band beside it is that record, not the
    // declared one gone missing.
    let mut evil = record("evil.example.com.");
    evil["ResourceRecords"] = json!(["192.0.2.66"]);
    let live = json!({"HostedZoneId": "Z1", "RecordSets": [record("api.example.com."), evil]});
    assert_eq!(
        drift(&run_general(t, declared, live)),
        vec![(
            Tier::Undeclared,
            "RecordSets[evil.example.com.]".to_string()
        )]
    );
}

#[test]
fn an_arn_default_is_spelled_in_the_stacks_partition() {
    // CodeBuild encrypts artifacts with the account's AWS-managed S3 key;
    // its ARN is in the partition of the stack's region. A region no
    // partition table names folds nothing.
    let t = "AWS::CodeBuild::Project";
    let check = |region: &str, partition: &str| {
        let ctx = ClassifyContext {
            account_id: Some("123456789012".into()),
            region: Some(region.into()),
            stack_name: Some("Stack".into()),
            ..ClassifyContext::default()
        };
        let key = format!("arn:{partition}:kms:{region}:123456789012:alias/aws/s3");
        let live = json!({"Name": "p", "EncryptionKey": key});
        let fs = classify(
            &resource(t, json!({"Name": "p"})),
            &live,
            &SchemaFacts::default(),
            &ctx,
        );
        drift(&fs)
    };
    assert!(check("us-gov-west-1", "aws-us-gov").is_empty());
    assert!(check("cn-north-1", "aws-cn").is_empty());
    assert!(check("eu-west-3", "aws").is_empty());
    assert_eq!(
        check("us-gov-west-1", "aws"),
        vec![(Tier::Undeclared, "EncryptionKey".to_string())]
    );
    assert_eq!(
        check("zz-moon-1", "aws"),
        vec![(Tier::Undeclared, "EncryptionKey".to_string())]
    );
}

#[test]
fn an_origin_access_identity_principal_is_spelled_in_the_stacks_partition() {
    // S3 reports an OAI grant by the identity's IAM ARN, in the partition
    // of the bucket's region; the template names it by canonical user id.
    let t = "AWS::S3::BucketPolicy";
    let check = |region: &str, partition: &str| {
        let mut ctx = ClassifyContext {
            account_id: Some("123456789012".into()),
            region: Some(region.into()),
            stack_name: Some("Stack".into()),
            ..ClassifyContext::default()
        };
        ctx.sibling_facts
            .insert("oaiCanonicalIds".into(), json!({"E1ABC": "canon-1"}));
        let statement = |principal: Value| {
            json!({"Bucket": "b", "PolicyDocument": {"Version": "2012-10-17", "Statement": [
                {"Effect": "Allow", "Action": "s3:GetObject", "Principal": principal,
                 "Resource": "arn:aws:s3:::b/*"}]}})
        };
        let declared = statement(json!({"CanonicalUser": "canon-1"}));
        let arn =
            format!("arn:{partition}:iam::cloudfront:user/CloudFront Origin Access Identity E1ABC");
        let live = statement(json!({"AWS": arn}));
        let fs = classify(&resource(t, declared), &live, &SchemaFacts::default(), &ctx);
        declared_paths(&fs)
    };
    assert!(check("eu-west-1", "aws").is_empty());
    assert!(check("cn-north-1", "aws-cn").is_empty());
    assert_eq!(check("cn-north-1", "aws"), vec!["PolicyDocument.Statement"]);
}

#[test]
fn tags_held_inside_a_tag_specification_compare_like_tags() {
    // The registry names TagSpecifications.*.Tags as the tag property of
    // EC2 capacity reservations and fleets; AWS's and the stack's tags there
    // are noise, the resource's own tags are compared.
    let t = "AWS::EC2::CapacityReservationFleet";
    let schema = SchemaFacts {
        tag_property: Some("TagSpecifications.*.Tags".into()),
        ..SchemaFacts::default()
    };
    let ctx = ClassifyContext {
        stack_tags: [("env".to_string(), "prod".to_string())].into(),
        ..context()
    };
    let spec = |tags: Value| json!({"TagSpecifications": [{"ResourceType": "capacity-reservation-fleet", "Tags": tags}]});
    let noise = json!([
        {"Key": "aws:cloudformation:stack-name", "Value": "Stack"},
        {"Key": "env", "Value": "prod"}
    ]);
    let run = |declared: Value, live: Value| {
        drift(&classify(&resource(t, declared), &live, &schema, &ctx))
    };
    assert!(run(json!({}), spec(noise.clone())).is_empty());
    let changed = json!([{"Key": "env", "Value": "dev"}]);
    assert_eq!(
        run(json!({}), spec(changed)),
        vec![(Tier::Undeclared, "TagSpecifications".to_string())]
    );
    let own = |v: &str| {
        let mut tags = noise.clone();
        if let Some(a) = tags.as_array_mut() {
            a.push(json!({"Key": "team", "Value": v}));
        }
        tags
    };
    let declared = spec(json!([{"Key": "team", "Value": "core"}]));
    assert!(run(declared.clone(), spec(own("core"))).is_empty());
    assert_eq!(
        declared_paths(&classify(
            &resource(t, declared),
            &spec(own("other")),
            &schema,
            &ctx
        )),
        vec!["TagSpecifications".to_string()]
    );
}

#[test]
fn a_union_spelled_by_which_member_holds_an_empty_object_is_compared() {
    // WAF rule actions, default actions and override actions name their
    // choice by a member holding `{}`: `{Count: {}}` read back as
    // `{Captcha: {}}`, or with no action at all, is a change.
    let t = "AWS::WAFv2::RuleGroup";
    let rule = |action: Value| {
        json!({"Rules": [{"Name": "r", "Priority": 1, "Action": action,
            "Statement": {"ByteMatchStatement": {"SearchString": "x"}}}]})
    };
    assert!(drift(&run(
        t,
        rule(json!({"Count": {}})),
        rule(json!({"Count": {}}))
    ))
    .is_empty());
    let fs = run(t, rule(json!({"Count": {}})), rule(json!({"Captcha": {}})));
    assert_eq!(
        declared_paths(&fs),
        vec!["Rules.0.Action".to_string()],
        "{fs:?}"
    );
    let mut gone = rule(json!({}));
    if let Some(r) = gone["Rules"][0].as_object_mut() {
        r.remove("Action");
    }
    let fs = run(t, rule(json!({"Count": {}})), gone);
    assert_eq!(
        declared_paths(&fs),
        vec!["Rules.0.Action".to_string()],
        "{fs:?}"
    );
    // A top-level choice on a type no rule names.
    let t = "AWS::Example::Thing";
    let fs = run(
        t,
        json!({"Mode": {"Fast": {}}}),
        json!({"Mode": {"Slow": {}}}),
    );
    assert_eq!(declared_paths(&fs), vec!["Mode".to_string()], "{fs:?}");
    let fs = run(t, json!({"Mode": {"Fast": {}}}), json!({}));
    assert_eq!(declared_paths(&fs), vec!["Mode".to_string()], "{fs:?}");
    // An all-off block is still what AWS may leave out.
    let fs = run(t, json!({"Logging": {"Enabled": false}}), json!({}));
    assert!(declared_paths(&fs).is_empty(), "{fs:?}");
}

#[test]
fn named_elements_read_back_out_of_order_are_potential_drift_unless_the_order_is_free() {
    // A keyed list compares as a set, but its order may matter (a
    // pipeline's stages run in list order): a live order other than the
    // declared one surfaces as an order-only potential drift, alphabetical
    // included (a two-stage pipeline swapped is its sorted order). The
    // schema's insertionOrder false, tags, address ranges, elements that
    // state their own place (`Priority`) and map entries say the order is
    // free.
    let t = "AWS::Example::Pipeline";
    let stage = |n: &str| json!({"Name": n, "Actions": [{"Name": format!("{n}-a")}]});
    let stages =
        |names: &[&str]| json!({"Stages": names.iter().map(|n| stage(n)).collect::<Vec<_>>()});
    let declared = stages(&["Source", "Build", "Deploy"]);
    assert!(drift(&run(t, declared.clone(), declared.clone())).is_empty());
    for live in [
        &["Deploy", "Build", "Source"],
        &["Build", "Deploy", "Source"],
    ] {
        let fs = run(t, declared.clone(), stages(live));
        assert_eq!(
            drift(&fs),
            vec![(Tier::Undeclared, "Stages".to_string())],
            "{fs:?}"
        );
        assert!(fs.iter().any(|f| f.order_only));
    }
    // The schema says the order is free.
    let free = SchemaFacts {
        unordered_object_array_paths: vec!["Stages".into()],
        ..SchemaFacts::default()
    };
    let fs = run_schema(t, free, declared, stages(&["Deploy", "Build", "Source"]));
    assert!(drift(&fs).is_empty(), "{fs:?}");
    // A prefix list's entries are named by address ranges: a set.
    let entry = |c: &str| json!({"Cidr": c, "Description": c});
    let d = json!({"Entries": [entry("10.0.0.0/16"), entry("10.9.0.0/16"), entry("10.1.0.0/16")]});
    let l = json!({"Entries": [entry("10.9.0.0/16"), entry("10.0.0.0/16"), entry("10.1.0.0/16")]});
    assert!(drift(&run(t, d, l)).is_empty());
    // Rules that state their priority, and a map written as a list.
    let rule = |n: &str, p: i64| json!({"Name": n, "Priority": p, "Action": {"Block": {}}});
    let d = json!({"Rules": [rule("b", 1), rule("a", 2), rule("c", 3)]});
    let l = json!({"Rules": [rule("a", 2), rule("c", 3), rule("b", 1)]});
    assert!(drift(&run(t, d, l)).is_empty());
    let attr = |n: &str| json!({"AttributeName": n, "AttributeType": "S"});
    let d = json!({"AttributeDefinitions": [attr("pk"), attr("sk"), attr("gsi")]});
    let l = json!({"AttributeDefinitions": [attr("gsi"), attr("pk"), attr("sk")]});
    assert!(drift(&run(t, d, l)).is_empty());
}

#[test]
fn a_switch_found_off_inside_a_block_at_its_defaults_surfaces() {
    // ECS documents "The default is `true`." for a circuit breaker's
    // `ResetOnHealthyTask`. A block whose set members are at their defaults
    // folds; a member found off where the default is on is a change, even
    // though `false` otherwise reads as unset.
    let t = "AWS::ECS::Service";
    let breaker = |reset: bool| {
        json!({"DeploymentConfiguration": {"DeploymentCircuitBreaker": {
            "Enable": false, "Rollback": false, "ResetOnHealthyTask": reset,
            "ThresholdConfiguration": {"Type": "BOUNDED_PERCENT", "Value": 50}}}})
    };
    // Every service reads back its breaker: an observed default of the
    // whole deployment configuration holds one, so the block is present on
    // a fresh service and its members' defaults explain it.
    let fs = run(t, json!({}), breaker(true));
    assert!(drift(&fs).is_empty(), "{fs:?}");
    let fs = run_general(t, json!({}), breaker(false));
    assert!(
        drift(&fs)
            .iter()
            .any(|(tier, p)| *tier == Tier::Undeclared && p.starts_with("DeploymentConfiguration")),
        "{fs:?}"
    );
}

#[test]
fn a_default_the_documentation_states_for_an_unset_field_folds_with_general_knowledge() {
    // "If this field is not set, the default value is 300." (API Gateway
    // authorizer TTL): the cache AWS keeps folds; caching turned off out of
    // band surfaces.
    let t = "AWS::ApiGateway::Authorizer";
    let declared = json!({"Name": "auth", "RestApiId": "a1b2c3", "Type": "TOKEN",
                          "IdentitySource": "method.request.header.Authorization"});
    let with_ttl = |ttl: u32| {
        let mut live = declared.clone();
        live["AuthorizerResultTtlInSeconds"] = json!(ttl);
        drift(&run_general(t, declared.clone(), live))
    };
    assert!(with_ttl(300).is_empty());
    assert_eq!(
        with_ttl(0),
        vec![(Tier::Undeclared, "AuthorizerResultTtlInSeconds".to_string())]
    );
}

/// `declared` read back with `v` at the dotted `path` (blocks on the way
/// created), classified with general knowledge alone: its drift.
fn general_drift_with(t: &str, declared: &Value, path: &str, v: &Value) -> Vec<(Tier, String)> {
    let mut live = declared.clone();
    let keys: Vec<&str> = path.split('.').collect();
    let (last, parents) = keys.split_last().expect("a path has a key");
    let mut at = &mut live;
    for k in parents {
        // A number steps into a list (`VolumeConfigurations.0`).
        at = match k.parse::<usize>() {
            Ok(i) => &mut at[i],
            Err(_) => &mut at[*k],
        };
    }
    at[*last] = v.clone();
    drift(&run_general(t, declared.clone(), live))
}

/// One default stated by a pinned source, checked with general knowledge
/// alone: AWS's value at `path` folds, `other` is potential drift at
/// `surfaces` (the path itself, or the undeclared block holding it).
fn assert_stated_default(
    t: &str,
    declared: Value,
    path: &str,
    aws: Value,
    other: Value,
    surfaces: &str,
) {
    let folded = general_drift_with(t, &declared, path, &aws);
    assert!(folded.is_empty(), "{t} {path}: {folded:?}");
    assert_eq!(
        general_drift_with(t, &declared, path, &other),
        vec![(Tier::Undeclared, surfaces.to_string())],
        "{t} {path}"
    );
}

/// A value AWS chose at create, checked with general knowledge alone: it
/// folds on a first run as chosen at create (so `record` snapshots it).
fn assert_chosen_at_create(t: &str, declared: Value, live: Value, path: &str) {
    let fs = run_general(t, declared, live);
    let f = fs
        .iter()
        .find(|f| f.path == path)
        .unwrap_or_else(|| panic!("{t} {path} is classified: {fs:?}"));
    assert_eq!(f.tier, Tier::AtDefault, "{t} {fs:?}");
    assert!(f.chosen_at_create, "{f:?}");
}

#[test]
fn an_access_key_starts_active_as_its_create_operation_says() {
    // "The default status for new keys is Active." (IAM CreateAccessKey's
    // own documentation, no member's): a fresh key folds; one deactivated
    // out of band surfaces.
    assert_stated_default(
        "AWS::IAM::AccessKey",
        json!({"UserName": "deployer"}),
        "Status",
        json!("Active"),
        json!("Inactive"),
        "Status",
    );
}

#[test]
fn a_time_zone_or_address_type_the_documentation_states_folds_in_a_block_declared_in_part() {
    // "The time zone, UTC by default, ..." (Amazon MQ), "If a time zone is
    // not provided, UTC is used by default." (Auto Scaling), "If you do not
    // specify an `IpAddressType`, it defaults to select IPv4." (App
    // Runner): each folds where the template leaves it out, and another
    // value set out of band surfaces.
    let window = json!({"DayOfWeek": "MONDAY", "TimeOfDay": "03:00"});
    assert_stated_default(
        "AWS::AmazonMQ::Broker",
        json!({"BrokerName": "b", "MaintenanceWindowStartTime": window}),
        "MaintenanceWindowStartTime.TimeZone",
        json!("UTC"),
        json!("Europe/Berlin"),
        "MaintenanceWindowStartTime.TimeZone",
    );
    assert_stated_default(
        "AWS::AutoScaling::ScheduledAction",
        json!({"AutoScalingGroupName": "asg", "Recurrence": "0 7 * * *", "DesiredCapacity": 2}),
        "TimeZone",
        json!("UTC"),
        json!("America/New_York"),
        "TimeZone",
    );
    let egress = json!({"EgressType": "VPC", "VpcConnectorArn":
        "arn:aws:apprunner:eu-central-1:123456789012:vpcconnector/c/1/abc"});
    assert_stated_default(
        "AWS::AppRunner::Service",
        json!({"SourceConfiguration": {"ImageRepository": {
                "ImageIdentifier": "public.ecr.aws/x/y:latest", "ImageRepositoryType": "ECR_PUBLIC"}},
            "NetworkConfiguration": {"EgressConfiguration": egress}}),
        "NetworkConfiguration.IpAddressType",
        json!("IPV4"),
        json!("DUAL_STACK"),
        "NetworkConfiguration.IpAddressType",
    );
}

#[test]
fn a_default_stated_by_name_or_under_its_own_condition_folds_with_general_knowledge() {
    // (type, declared, path, AWS's value, another value), one per sentence
    // form: "If no network mode is specified, the default is `bridge`.",
    // "The default value of this property is `PROVISIONED`.", "Replication
    // overwrite protection is `ENABLED` by default.", "If a
    // `TlsSessionResumptionMode` value is not specified during
    // `CreateServer`, it is set to `ENFORCED` by default.", "The default
    // path is `/`.", "If `treatMissingData` is not specified, the default
    // behavior of `missing` is used.", "In requests, if this value is not
    // provided, the default value will be 3600.", "The default,
    // `STITCHED_ONLY`, forces ..."
    let cases = [
        (
            "AWS::ECS::TaskDefinition",
            json!({"Family": "web"}),
            "NetworkMode",
            json!("bridge"),
            json!("host"),
        ),
        (
            "AWS::DynamoDB::GlobalTable",
            json!({"TableName": "t"}),
            "BillingMode",
            json!("PROVISIONED"),
            json!("PAY_PER_REQUEST"),
        ),
        (
            "AWS::EFS::FileSystem",
            json!({"Encrypted": true}),
            "FileSystemProtection",
            json!({"ReplicationOverwriteProtection": "ENABLED"}),
            json!({"ReplicationOverwriteProtection": "DISABLED"}),
        ),
        (
            "AWS::Lightsail::Alarm",
            json!({"AlarmName": "a", "MonitoredResourceName": "i", "MetricName": "CPUUtilization",
                   "ComparisonOperator": "GreaterThanThreshold", "EvaluationPeriods": 1, "Threshold": 80}),
            "TreatMissingData",
            json!("missing"),
            json!("breaching"),
        ),
        (
            "AWS::RolesAnywhere::Profile",
            json!({"Name": "p", "RoleArns": ["arn:aws:iam::123456789012:role/r"]}),
            "DurationSeconds",
            json!(3600),
            json!(900),
        ),
        (
            "AWS::MediaTailor::PlaybackConfiguration",
            json!({"Name": "pc", "AdDecisionServerUrl": "https://ads.example.com",
                   "VideoContentSourceUrl": "https://video.example.com"}),
            "InsertionMode",
            json!("STITCHED_ONLY"),
            json!("PLAYER_SELECT"),
        ),
        (
            "AWS::VpcLattice::TargetGroup",
            json!({"Type": "IP", "Config": {"Port": 80, "Protocol": "HTTP",
                "VpcIdentifier": "vpc-0123456789abcdef0",
                "HealthCheck": {"Enabled": true, "Protocol": "HTTP"}}}),
            "Config.HealthCheck.Path",
            json!("/"),
            json!("/health"),
        ),
        (
            "AWS::Transfer::Server",
            json!({"Protocols": ["FTPS"], "ProtocolDetails": {"PassiveIp": "AUTO"}}),
            "ProtocolDetails.TlsSessionResumptionMode",
            json!("ENFORCED"),
            json!("DISABLED"),
        ),
    ];
    for (t, declared, path, aws, other) in cases {
        assert_stated_default(t, declared, path, aws, other, path);
    }
}

#[test]
fn a_value_the_documentation_marks_the_default_folds_with_general_knowledge() {
    // "Valid merge types are `MANUAL_MERGE` (default) and `AUTO_MERGE`."
    // (AppSync), "DataSync supports `NTLM` (default) and `KERBEROS`
    // authentication." and "If you don't specify a status, it defaults to
    // `ENABLED`." (Image Builder): AWS's value folds, the other surfaces.
    assert_stated_default(
        "AWS::AppSync::SourceApiAssociation",
        json!({"MergedApiIdentifier": "m1", "SourceApiIdentifier": "s1"}),
        "SourceApiAssociationConfig.MergeType",
        json!("MANUAL_MERGE"),
        json!("AUTO_MERGE"),
        "SourceApiAssociationConfig",
    );
    assert_stated_default(
        "AWS::DataSync::LocationSMB",
        json!({"ServerHostname": "fs.example.com", "Subdirectory": "/share",
               "AgentArns": ["arn:aws:datasync:eu-central-1:123456789012:agent/agent-0"]}),
        "AuthenticationType",
        json!("NTLM"),
        json!("KERBEROS"),
        "AuthenticationType",
    );
    assert_stated_default(
        "AWS::ImageBuilder::ImagePipeline",
        json!({"Name": "p", "InfrastructureConfigurationArn":
            "arn:aws:imagebuilder:eu-central-1:123456789012:infrastructure-configuration/i"}),
        "Status",
        json!("ENABLED"),
        json!("DISABLED"),
        "Status",
    );
}

#[test]
fn a_parquet_serializer_declared_in_part_keeps_its_documented_sizes() {
    // "The default is 256 MiB and the minimum is 64 MiB." on
    // `BlockSizeBytes` (bytes: 268435456) and "..., with the default being
    // `SNAPPY`." on `Compression`: a serializer that declares only its
    // page size folds the rest; a block size changed out of band surfaces.
    let t = "AWS::KinesisFirehose::DeliveryStream";
    let serializer_at = "ExtendedS3DestinationConfiguration.DataFormatConversionConfiguration.OutputFormatConfiguration.Serializer.ParquetSerDe";
    let with = |block: u64| {
        let stream = |serde: Value| {
            json!({"ExtendedS3DestinationConfiguration": {
                "BucketARN": "arn:aws:s3:::b", "RoleARN": "arn:aws:iam::123456789012:role/r",
                "DataFormatConversionConfiguration": {"OutputFormatConfiguration": {
                    "Serializer": {"ParquetSerDe": serde}}}}})
        };
        let declared = stream(json!({"PageSizeBytes": 1048576}));
        let live = stream(json!({"PageSizeBytes": 1048576, "BlockSizeBytes": block,
                                 "Compression": "SNAPPY"}));
        drift(&run_general(t, declared, live))
    };
    assert!(with(268_435_456).is_empty(), "{:?}", with(268_435_456));
    assert_eq!(
        with(134_217_728),
        vec![(Tier::Undeclared, format!("{serializer_at}.BlockSizeBytes"))]
    );
}

#[test]
fn a_client_that_sets_one_token_validity_keeps_the_other_units() {
    // "The default `IdTokenValidity` time unit is `hours`." (and `days`
    // for refresh tokens): a CDK client that sets only its access token
    // validity declares that unit alone; the others fold, and a unit
    // changed out of band surfaces.
    let t = "AWS::Cognito::UserPoolClient";
    let declared = json!({"UserPoolId": "eu-central-1_abc", "AccessTokenValidity": 30,
                          "TokenValidityUnits": {"AccessToken": "minutes"}});
    let with = |id: &str| {
        let mut live = declared.clone();
        live["IdTokenValidity"] = json!(1);
        live["RefreshTokenValidity"] = json!(30);
        live["TokenValidityUnits"]["IdToken"] = json!(id);
        live["TokenValidityUnits"]["RefreshToken"] = json!("days");
        drift(&run_general(t, declared.clone(), live))
    };
    assert!(with("hours").is_empty(), "{:?}", with("hours"));
    assert!(with("minutes").contains(&(Tier::Undeclared, "TokenValidityUnits.IdToken".into())));
}

#[test]
fn more_sentence_forms_fold_their_default_with_general_knowledge() {
    // (type, declared, path, AWS's value, another value, where the other
    // value surfaces), one per sentence form, on types the corpus never
    // held: "If you don't specify this field, the global table consistency
    // mode defaults to `EVENTUAL`.", "If you do not select a number, the
    // default is 5." / "... is 60 seconds.", "If you do not specifiy a
    // percentage, the default is 50%.", "If you do not specify a value,
    // Spot Fleet defaults to `lowestPrice`.", "If no value is specified,
    // the `xfs` filesystem type is used by default.", "Acceptable values are
    // between 1 and 1440, and the default value is 60.", "Valid values are
    // 60 - 3600, the default value is 3600 seconds.", "You can allocate from
    // 2 to 100 DPUs; the default is 10.", "Default: If not specified, the
    // default value is 1.", "By default Amazon GameLift Servers sets this
    // value to `4.0.2`.", "The name defaults to `prod`.", "By default,
    // rotation is set to 60 seconds.", "The default is 80. 0 is the lowest
    // confidence.", "The default value is `UPDATE` if nothing is
    // specified."
    let remediation = json!({"ConfigRuleName": "r", "TargetId": "AWS-StopEC2Instance",
        "TargetType": "SSM_DOCUMENT", "Automatic": true,
        "ExecutionControls": {"SsmControls": {"ConcurrentExecutionRatePercentage": 10}}});
    let ebs = json!({"Cluster": "c", "TaskDefinition": "td", "VolumeConfigurations": [
        {"Name": "data", "ManagedEBSVolume": {"RoleArn": "arn:aws:iam::123456789012:role/ebs",
                                              "SizeInGiB": 20}}]});
    let cases = [
        (
            "AWS::DynamoDB::GlobalTable",
            json!({"TableName": "t", "BillingMode": "PAY_PER_REQUEST"}),
            "MultiRegionConsistency",
            json!("EVENTUAL"),
            json!("STRONG"),
            "MultiRegionConsistency",
        ),
        (
            "AWS::Config::RemediationConfiguration",
            remediation.clone(),
            "MaximumAutomaticAttempts",
            json!(5),
            json!(3),
            "MaximumAutomaticAttempts",
        ),
        (
            "AWS::Config::RemediationConfiguration",
            remediation.clone(),
            "RetryAttemptSeconds",
            json!(60),
            json!(120),
            "RetryAttemptSeconds",
        ),
        (
            "AWS::Config::RemediationConfiguration",
            remediation,
            "ExecutionControls.SsmControls.ErrorPercentage",
            json!(50),
            json!(10),
            "ExecutionControls.SsmControls.ErrorPercentage",
        ),
        (
            "AWS::EC2::SpotFleet",
            json!({"SpotFleetRequestConfigData": {"TargetCapacity": 2,
            "IamFleetRole": "arn:aws:iam::123456789012:role/fleet"}}),
            "SpotFleetRequestConfigData.OnDemandAllocationStrategy",
            json!("lowestPrice"),
            json!("prioritized"),
            "SpotFleetRequestConfigData.OnDemandAllocationStrategy",
        ),
        (
            "AWS::ECS::Service",
            ebs,
            "VolumeConfigurations.0.ManagedEBSVolume.FilesystemType",
            json!("xfs"),
            json!("ext4"),
            "VolumeConfigurations[data].ManagedEBSVolume.FilesystemType",
        ),
        (
            "AWS::OpenSearchService::Domain",
            json!({"AdvancedSecurityOptions": {"Enabled": true,
            "SAMLOptions": {"Enabled": true, "MasterBackendRole": "admins"}}}),
            "AdvancedSecurityOptions.SAMLOptions.SessionTimeoutMinutes",
            json!(60),
            json!(120),
            "AdvancedSecurityOptions.SAMLOptions.SessionTimeoutMinutes",
        ),
        (
            "AWS::IoT::JobTemplate",
            json!({"JobTemplateId": "t", "Description": "d",
            "PresignedUrlConfig": {"RoleArn": "arn:aws:iam::123456789012:role/url"}}),
            "PresignedUrlConfig.ExpiresInSec",
            json!(3600),
            json!(600),
            "PresignedUrlConfig.ExpiresInSec",
        ),
        (
            "AWS::Glue::MLTransform",
            json!({"Role": "r", "TransformParameters": {"TransformType": "FIND_MATCHES"}}),
            "MaxCapacity",
            json!(10),
            json!(20),
            "MaxCapacity",
        ),
        (
            "AWS::NeptuneGraph::Graph",
            json!({"ProvisionedMemory": 16}),
            "ReplicaCount",
            json!(1),
            json!(2),
            "ReplicaCount",
        ),
        (
            "AWS::GameLift::Build",
            json!({"Name": "b", "OperatingSystem": "AMAZON_LINUX_2023"}),
            "ServerSdkVersion",
            json!("4.0.2"),
            json!("5.1.0"),
            "ServerSdkVersion",
        ),
        (
            "AWS::RefactorSpaces::Application",
            json!({"EnvironmentIdentifier": "env-1", "Name": "a",
            "ProxyType": "API_GATEWAY", "ApiGatewayProxy": {"EndpointType": "REGIONAL"}}),
            "ApiGatewayProxy.StageName",
            json!("prod"),
            json!("test"),
            "ApiGatewayProxy.StageName",
        ),
        (
            "AWS::MediaPackage::OriginEndpoint",
            json!({"Id": "e", "ChannelId": "c", "HlsPackage": {
            "Encryption": {"SpekeKeyProvider": {"ResourceId": "r", "SystemIds": ["s"],
              "Url": "https://keys.example.com", "RoleArn": "arn:aws:iam::123456789012:role/k"}}}}),
            "HlsPackage.Encryption.KeyRotationIntervalSeconds",
            json!(60),
            json!(300),
            "HlsPackage.Encryption.KeyRotationIntervalSeconds",
        ),
        (
            "AWS::Rekognition::StreamProcessor",
            json!({"RoleArn": "r",
            "FaceSearchSettings": {"CollectionId": "faces"}}),
            "FaceSearchSettings.FaceMatchThreshold",
            json!(80),
            json!(90),
            "FaceSearchSettings.FaceMatchThreshold",
        ),
        (
            "AWS::ServiceCatalog::CloudFormationProvisionedProduct",
            json!({"ProductName": "p",
            "ProvisioningPreferences": {"StackSetMaxConcurrencyCount": 1}}),
            "ProvisioningPreferences.StackSetOperationType",
            json!("UPDATE"),
            json!("CREATE"),
            "ProvisioningPreferences.StackSetOperationType",
        ),
    ];
    for (t, declared, path, aws, other, surfaces) in cases {
        assert_stated_default(t, declared, path, aws, other, surfaces);
    }
}

#[test]
fn a_default_named_by_the_property_or_its_noun_folds_with_general_knowledge() {
    // "The default `BorrowLimit` is -1, which indicates unlimited
    // borrowing.", "If not specified, the default format is `CSV`." (a
    // list named in the plural), "If the parameter is not specified in the
    // request, the default state is `optional`.", and the two below.
    let cases = [
        (
            "AWS::Batch::QuotaShare",
            json!({"ResourceSharingConfiguration": {"Strategy": "LEND_AND_BORROW"}}),
            "ResourceSharingConfiguration.BorrowLimit",
            json!(-1),
            json!(50),
            "ResourceSharingConfiguration.BorrowLimit",
        ),
        (
            "AWS::Backup::ReportPlan",
            json!({"ReportDeliveryChannel": {"S3BucketName": "reports"},
            "ReportSetting": {"ReportTemplate": "BACKUP_JOB_REPORT"}}),
            "ReportDeliveryChannel.Formats",
            json!(["CSV"]),
            json!(["JSON"]),
            "ReportDeliveryChannel.Formats",
        ),
        (
            "AWS::AutoScaling::LaunchConfiguration",
            json!({"ImageId": "ami-0abc", "InstanceType": "t3.micro",
            "MetadataOptions": {"HttpPutResponseHopLimit": 2}}),
            "MetadataOptions.HttpTokens",
            json!("optional"),
            json!("required"),
            "MetadataOptions.HttpTokens",
        ),
        // "For new services, if a desired count is not specified, a default
        // value of `1` is used." (a CDK service that leaves the count out).
        (
            "AWS::ECS::Service",
            json!({"Cluster": "c", "TaskDefinition": "td", "LaunchType": "FARGATE"}),
            "DesiredCount",
            json!(1),
            json!(3),
            "DesiredCount",
        ),
        // "If no value is entered, the default lease time is 140 seconds."
        // (the last words of the name).
        (
            "AWS::EC2::DHCPOptions",
            json!({"DomainNameServers": ["AmazonProvidedDNS"]}),
            "Ipv6AddressPreferredLeaseTime",
            json!(140),
            json!(600),
            "Ipv6AddressPreferredLeaseTime",
        ),
    ];
    for (t, declared, path, aws, other, surfaces) in cases {
        assert_stated_default(t, declared, path, aws, other, surfaces);
    }
}

/// A CDK node group as synthesized with no version and no instance type.
fn cdk_node_group() -> Value {
    json!({"ClusterName": "Cluster9EE0221C", "Subnets": ["subnet-0a"],
        "NodeRole": "arn:aws:iam::123456789012:role/NgRole",
        "ScalingConfig": {"DesiredSize": 2, "MaxSize": 2, "MinSize": 1}})
}

#[test]
fn a_node_group_runs_its_cluster_s_version_chosen_at_create() {
    // "By default, the Kubernetes version of the cluster is used, ...": a
    // CDK node group declares no version, so AWS takes the cluster's at
    // create. It folds on a first run as a value chosen at create (so
    // `record` snapshots it and a later upgrade out of band surfaces).
    let t = "AWS::EKS::Nodegroup";
    let declared = cdk_node_group();
    let mut live = declared.clone();
    live["Version"] = json!("1.31");
    assert_chosen_at_create(t, declared, live, "Version");
}

#[test]
fn an_auto_scaling_group_counts_capacity_in_units_unless_declared() {
    // "By default, Amazon EC2 Auto Scaling specifies `units`, which
    // translates into number of instances."
    assert_stated_default(
        "AWS::AutoScaling::AutoScalingGroup",
        json!({"MinSize": "1", "MaxSize": "2", "VPCZoneIdentifier": ["subnet-0a"]}),
        "DesiredCapacityType",
        json!("units"),
        json!("vcpu"),
        "DesiredCapacityType",
    );
}

#[test]
fn a_config_rule_evaluates_detectively_unless_declared() {
    // "By default, the value is Detective evaluation mode only." on a list
    // of one-member objects: the list of the one item holding that enum
    // value. Proactive evaluation added out of band surfaces.
    assert_stated_default(
        "AWS::Config::ConfigRule",
        json!({"Source": {"Owner": "AWS", "SourceIdentifier": "S3_BUCKET_VERSIONING_ENABLED"}}),
        "EvaluationModes",
        json!([{"Mode": "DETECTIVE"}]),
        json!([{"Mode": "DETECTIVE"}, {"Mode": "PROACTIVE"}]),
        "EvaluationModes",
    );
}

#[test]
fn an_eks_cluster_takes_the_defaults_stated_for_what_cloudformation_creates() {
    // "If you create a cluster by using the EKS API, AWS SDKs, or AWS
    // CloudFormation , the default is `CONFIG_MAP` ." outranks the
    // console's `API_AND_CONFIG_MAP` in the next sentence; access entries
    // turned on out of band surface.
    let declared = json!({"RoleArn": "arn:aws:iam::123456789012:role/ClusterRole",
        "ResourcesVpcConfig": {"SubnetIds": ["subnet-0a", "subnet-0b"]}});
    assert_stated_default(
        "AWS::EKS::Cluster",
        declared.clone(),
        "AccessConfig",
        json!({"AuthenticationMode": "CONFIG_MAP"}),
        json!({"AuthenticationMode": "API_AND_CONFIG_MAP"}),
        "AccessConfig",
    );
    // "If you don't specify a value here, the default version available in
    // Amazon EKS is used.": the version EKS offered at create, chosen then.
    let mut live = declared.clone();
    live["Version"] = json!("1.33");
    assert_chosen_at_create("AWS::EKS::Cluster", declared, live, "Version");
}

#[test]
fn a_node_group_runs_t3_medium_only_without_a_launch_template() {
    // "If you don't specify an instance type in a launch template or for
    // `instanceTypes` , then `t3.medium` is used, by default.": a CDK node
    // group that names no instance type reads `["t3.medium"]`, which folds;
    // another type set out of band surfaces. Beside a launch template the
    // type comes from the template, so the same value is not folded there.
    let t = "AWS::EKS::Nodegroup";
    let declared = cdk_node_group();
    assert_stated_default(
        t,
        declared.clone(),
        "InstanceTypes",
        json!(["t3.medium"]),
        json!(["t3.large"]),
        "InstanceTypes",
    );
    let mut with_template = declared;
    with_template["LaunchTemplate"] = json!({"Id": "lt-0123456789abcdef0", "Version": "2"});
    assert_eq!(
        general_drift_with(t, &with_template, "InstanceTypes", &json!(["t3.medium"])),
        vec![(Tier::Undeclared, "InstanceTypes".to_string())]
    );
}

#[test]
fn a_launch_template_version_left_out_is_the_template_s_default_chosen_at_create() {
    // "If no version is specified, then the template's default version is
    // used." (EKS node group): the version number EKS resolved at create
    // folds on a first run, so `record` snapshots it and a later move to
    // another version out of band surfaces.
    let t = "AWS::EKS::Nodegroup";
    let declared = json!({"ClusterName": "Cluster9EE0221C", "Subnets": ["subnet-0a"],
        "NodeRole": "arn:aws:iam::123456789012:role/NgRole",
        "LaunchTemplate": {"Id": "lt-0123456789abcdef0"}});
    let mut live = declared.clone();
    live["LaunchTemplate"]["Version"] = json!("1");
    assert_chosen_at_create(t, declared, live, "LaunchTemplate.Version");
}

#[test]
fn an_hdfs_location_without_a_subdirectory_reads_the_root() {
    // "If the subdirectory isn't specified, it will default to `/` ." (the
    // words spell the property): the root folds, a narrower folder set out
    // of band surfaces.
    assert_stated_default(
        "AWS::DataSync::LocationHDFS",
        json!({"NameNodes": [{"Hostname": "namenode.example.com", "Port": 8020}],
            "AuthenticationType": "SIMPLE", "SimpleUser": "hdfs",
            "AgentArns": ["arn:aws:datasync:us-east-1:123456789012:agent/agent-0abc"]}),
        "Subdirectory",
        json!("/"),
        json!("/warehouse"),
        "Subdirectory",
    );
}

#[test]
fn a_spot_compute_environment_bids_the_on_demand_price_unless_declared() {
    // "If you leave this field empty, the default value is 100% of the
    // On-Demand price." (Batch's API model; the percentage names what it
    // is a percentage of): a CDK spot environment without a bid reads 100,
    // which folds; a lower bid set out of band surfaces.
    assert_stated_default(
        "AWS::Batch::ComputeEnvironment",
        json!({"Type": "MANAGED", "ComputeResources": {"Type": "SPOT", "MaxvCpus": 16,
            "InstanceTypes": ["optimal"], "Subnets": ["subnet-0a"],
            "SecurityGroupIds": ["sg-0a"],
            "InstanceRole": "arn:aws:iam::123456789012:instance-profile/BatchInstance"}}),
        "ComputeResources.BidPercentage",
        json!(100),
        json!(60),
        "ComputeResources.BidPercentage",
    );
}

#[test]
fn a_default_supplied_or_set_when_not_set_folds() {
    // "If you don't supply a value, the default is `ENTERPRISE_EDITION`."
    // (Kendra's API model) and "Defaults to PUBLIC when not set." (the tail
    // only restates that nothing was set): AWS's value folds, another
    // surfaces.
    assert_stated_default(
        "AWS::Kendra::Index",
        json!({"Name": "docs", "RoleArn": "arn:aws:iam::123456789012:role/KendraRole"}),
        "Edition",
        json!("ENTERPRISE_EDITION"),
        json!("DEVELOPER_EDITION"),
        "Edition",
    );
    assert_stated_default(
        "AWS::DevOpsAgent::PrivateConnection",
        json!({"Name": "pc", "ConnectionConfiguration": {"ServiceManaged": {
            "HostAddress": "10.0.0.10", "VpcId": "vpc-0a", "SubnetIds": ["subnet-0a"]}}}),
        "ConnectionConfiguration.ServiceManaged.DnsResolution",
        json!("PUBLIC"),
        json!("IN_VPC"),
        "ConnectionConfiguration.ServiceManaged.DnsResolution",
    );
}

#[test]
fn a_queue_created_through_the_api_is_priced_on_demand() {
    // "When you use the API to create a queue, the default is on-demand."
    // (MediaConvert's API model; CloudFormation creates through the API, and
    // the words spell the enum value `ON_DEMAND`): a reserved queue surfaces.
    assert_stated_default(
        "AWS::MediaConvert::Queue",
        json!({"Name": "transcode"}),
        "PricingPlan",
        json!("ON_DEMAND"),
        json!("RESERVED"),
        "PricingPlan",
    );
}

#[test]
fn a_setting_given_by_name_reads_back_its_id_chosen_at_create() {
    // "Specify either `HostedZoneName` or `HostedZoneId` , but not both." /
    // "Either `AvailabilityZone` or `AvailabilityZoneId` must be specified,
    // but not both.": one setting by name or by id; the one left out is
    // AWS's resolution of the one declared, chosen at create (it folds on a
    // first run and `record` keeps it).
    let chosen = |t: &str, declared: Value, path: &str, v: Value| {
        let mut live = declared.clone();
        live[path] = v;
        assert_chosen_at_create(t, declared, live, path);
    };
    chosen(
        "AWS::Route53::RecordSet",
        json!({"HostedZoneName": "example.com.", "Name": "api.example.com.", "Type": "CNAME",
            "TTL": "300", "ResourceRecords": ["origin.example.net"]}),
        "HostedZoneId",
        json!("Z0123456789ABCDEFGHIJ"),
    );
    chosen(
        "AWS::EC2::Volume",
        json!({"AvailabilityZone": "eu-west-1b", "Size": 20, "VolumeType": "gp3"}),
        "AvailabilityZoneId",
        json!("euw1-az3"),
    );
    // Alternatives that are not one setting stay reportable: an alarm
    // switched to a percentile out of band shows it.
    let t = "AWS::CloudWatch::Alarm";
    let declared = json!({"MetricName": "Latency", "Namespace": "App", "Statistic": "Average",
        "Period": 60, "EvaluationPeriods": 1, "Threshold": 1, "ComparisonOperator": "GreaterThanThreshold"});
    assert_eq!(
        general_drift_with(t, &declared, "ExtendedStatistic", &json!("p99")),
        vec![(Tier::Undeclared, "ExtendedStatistic".to_string())]
    );
}

#[test]
fn a_batching_window_defaults_to_none_only_for_the_sources_named() {
    // "*Default ( Kinesis , DynamoDB , Amazon SQS event sources)* : 0" (the
    // per-source list names its services in parentheses): an SQS mapping
    // reads 0, which folds; a window set out of band surfaces. For an MSK
    // source the documented default is "500 ms", which is not taken (not in
    // the property's unit), so there 0 stays reported.
    let esm = "AWS::Lambda::EventSourceMapping";
    let from = |arn: &str| {
        json!({"FunctionName": "arn:aws:lambda:us-east-1:123456789012:function:worker",
            "EventSourceArn": arn, "BatchSize": 10})
    };
    let sqs = from("arn:aws:sqs:us-east-1:123456789012:jobs");
    assert_stated_default(
        esm,
        sqs,
        "MaximumBatchingWindowInSeconds",
        json!(0),
        json!(20),
        "MaximumBatchingWindowInSeconds",
    );
    let msk = from("arn:aws:kafka:us-east-1:123456789012:cluster/events/0a1b2c3d-4e5f");
    assert_eq!(
        general_drift_with(esm, &msk, "MaximumBatchingWindowInSeconds", &json!(0)),
        vec![(
            Tier::Undeclared,
            "MaximumBatchingWindowInSeconds".to_string()
        )]
    );
}

#[test]
fn a_protocol_floor_named_like_a_version_is_not_a_version_track() {
    // `8.0` is the track of `8.0.39`, so an engine read back at its
    // concrete patch folds. CloudFront's `TLSv1` is a protocol floor of
    // its own: lowered from `TLSv1.2_2021` to `TLSv1` out of band, it
    // used to pass as "the same version written shorter".
    let tls = |v: &str| {
        json!({"DistributionConfig": {"Enabled": true,
            "ViewerCertificate": {"SslSupportMethod": "sni-only", "MinimumProtocolVersion": v}}})
    };
    let t = "AWS::CloudFront::Distribution";
    for (declared, live) in [("TLSv1.2_2021", "TLSv1"), ("TLSv1", "TLSv1.1_2016")] {
        let fs = run_general(t, tls(declared), tls(live));
        assert_eq!(
            declared_paths(&fs),
            vec!["DistributionConfig.ViewerCertificate.MinimumProtocolVersion"],
            "{declared} -> {live}"
        );
    }
    let engine = |v: &str| json!({"Engine": "mysql", "EngineVersion": v});
    let fs = run_general("AWS::Example::Database", engine("8.0"), engine("8.0.39"));
    assert!(drift(&fs).is_empty(), "{fs:?}");
    let fs = run_general("AWS::Example::Database", engine("8.0"), engine("8.4.3"));
    assert_eq!(declared_paths(&fs), vec!["EngineVersion"]);
}

#[test]
fn a_policy_statement_standing_alone_compares_as_one_statement() {
    // An EventBridge bus policy holds one statement as its `Statement`
    // property (as CDK's addToResourcePolicy writes it). The resource's own
    // properties were taken for a policy document, so an identical read
    // came back as declared drift; and, compared as an open object, a
    // condition added out of band was only potential drift.
    let t = "AWS::Events::EventBusPolicy";
    let declared = json!({"EventBusName": "orders", "StatementId": "allow-acct",
        "Statement": {"Sid": "allow-acct", "Effect": "Allow", "Action": "events:PutEvents",
            "Principal": {"AWS": "arn:aws:iam::222222222222:root"},
            "Resource": "arn:aws:events:us-east-1:123456789012:event-bus/orders"}});
    let read = |statement: Value| json!({"EventBusName": "orders", "StatementId": "allow-acct", "Statement": statement});
    let same = read(json!({"Sid": "allow-acct", "Effect": "Allow",
        "Action": ["events:PutEvents"], "Principal": {"AWS": "222222222222"},
        "Resource": ["arn:aws:events:us-east-1:123456789012:event-bus/orders"]}));
    for fs in [
        run(t, declared.clone(), same.clone()),
        run_general(t, declared.clone(), same.clone()),
    ] {
        assert!(drift(&fs).is_empty(), "{fs:?}");
    }
    let mut conditioned = same.clone();
    conditioned["Statement"]["Condition"] =
        json!({"StringEquals": {"aws:SourceAccount": "333333333333"}});
    let mut opened = same;
    opened["Statement"]["Principal"] = json!("*");
    for live in [conditioned, opened] {
        let fs = run_general(t, declared.clone(), live);
        let paths = declared_paths(&fs);
        assert_eq!(paths.len(), 1, "{fs:?}");
        assert!(paths[0].starts_with("Statement"), "{fs:?}");
        assert!(fs.iter().all(|f| f.tier != Tier::Undeclared), "{fs:?}");
    }
}

#[test]
fn a_function_named_with_its_alias_or_as_a_partial_arn_is_the_arn_read_back() {
    // Lambda takes `fn:live` (an alias) or `123456789012:function:fn` and
    // the read names the function by its full ARN. The alias alone is no
    // function's name: a mapping moved to `other:live` used to pass for a
    // template naming a function `live`.
    let t = "AWS::Lambda::EventSourceMapping";
    let esm = |f: &str| json!({"FunctionName": f, "BatchSize": 10});
    let arn = |q: &str| format!("arn:aws:lambda:eu-central-1:123456789012:function:{q}");
    for declared in ["fn:live", "123456789012:function:fn:live"] {
        let fs = run(t, esm(declared), esm(&arn("fn:live")));
        assert!(drift(&fs).is_empty(), "{declared}: {fs:?}");
    }
    for (declared, live) in [("live", "other:live"), ("fn", "fn:live"), ("fn:live", "fn")] {
        let fs = run(t, esm(declared), esm(&arn(live)));
        assert_eq!(declared_paths(&fs), vec!["FunctionName"], "{declared}");
    }
}

#[test]
fn a_name_the_stack_minted_for_another_resource_is_not_this_one_s() {
    // A name CloudFormation minted for some resource of this stack used to
    // pass as generated wherever it appeared: an instance profile attached
    // to an instance out of band, or a database moved to another of the
    // stack's parameter groups, was silent. Where the value can change in
    // place it now surfaces; where it cannot (an ingress rule's group) it
    // is still the sibling the template named.
    let fs = run(
        "AWS::EC2::Instance",
        json!({"ImageId": "ami-0123", "InstanceType": "t3.micro"}),
        json!({"ImageId": "ami-0123", "InstanceType": "t3.micro",
               "IamInstanceProfile": "Stack-OtherProfile-ABCDEFGHIJ12"}),
    );
    assert_eq!(
        drift(&fs),
        vec![(Tier::Undeclared, "IamInstanceProfile".to_string())]
    );
    let own = run(
        "AWS::EC2::Instance",
        json!({"ImageId": "ami-0123"}),
        json!({"ImageId": "ami-0123", "Name": "Stack-Res-ABCDEFGHIJ12"}),
    );
    assert!(drift(&own).is_empty(), "{own:?}");
    let schema = create_only(&["GroupName"]);
    let fs = run_schema(
        "AWS::EC2::SecurityGroupIngress",
        schema,
        json!({"GroupId": "sg-0123", "IpProtocol": "tcp"}),
        json!({"GroupId": "sg-0123", "IpProtocol": "tcp",
               "GroupName": "Stack-WebSg-ABCDEFGHIJ12"}),
    );
    assert!(drift(&fs).is_empty(), "{fs:?}");
    assert!(fs
        .iter()
        .any(|f| f.tier == Tier::Generated && f.path == "GroupName"));
}

#[test]
fn a_definition_is_compared_with_its_substitutions_filled() {
    // Step Functions fills each `${key}` of the declared definition from
    // the write-only DefinitionSubstitutions (as SAM and CDK write them)
    // and reads back only the result: the template's text used to be
    // compared as written, a declared drift on every such state machine.
    let t = "AWS::StepFunctions::StateMachine";
    let fn_arn = "arn:aws:lambda:eu-central-1:123456789012:function:worker";
    let text = |arn: &str| {
        format!(
            r#"{{"StartAt":"Call","States":{{"Call":{{"Type":"Task","Resource":"{arn}","End":true}}}}}}"#
        )
    };
    let declared = json!({"DefinitionString": text("${WorkerArn}"),
        "DefinitionSubstitutions": {"WorkerArn": fn_arn}});
    let schema = || SchemaFacts {
        write_only: vec!["DefinitionSubstitutions".into()],
        ..SchemaFacts::default()
    };
    let fs = run_schema(
        t,
        schema(),
        declared.clone(),
        json!({"DefinitionString": text(fn_arn)}),
    );
    assert!(drift(&fs).is_empty(), "{fs:?}");
    let other = fn_arn.replace("worker", "other");
    let fs = run_schema(
        t,
        schema(),
        declared,
        json!({"DefinitionString": text(&other)}),
    );
    assert_eq!(declared_paths(&fs), vec!["DefinitionString"]);
    // A map that is not write-only substitutes nothing.
    let fs = run(
        t,
        json!({"DefinitionString": text("${WorkerArn}"), "DefinitionSubstitutions": {"WorkerArn": fn_arn}}),
        json!({"DefinitionString": text(fn_arn), "DefinitionSubstitutions": {"WorkerArn": fn_arn}}),
    );
    assert_eq!(declared_paths(&fs), vec!["DefinitionString"]);
}

#[test]
fn a_document_read_back_as_yaml_is_compared_as_the_declared_object() {
    // An SSM document in YAML format is stored, and read back, as YAML
    // text of the object the template wrote: it used to be declared drift
    // however equal. A changed or added command still surfaces.
    let t = "AWS::SSM::Document";
    let content = json!({"schemaVersion": "2.2", "mainSteps": [{"action": "aws:runShellScript",
        "name": "run", "inputs": {"runCommand": ["echo hi"]}}]});
    let declared = json!({"Content": content, "DocumentFormat": "YAML"});
    let yaml = |cmd: &str, extra: &str| {
        json!({"DocumentFormat": "YAML", "Content": format!(
            "schemaVersion: '2.2'\nmainSteps:\n- action: aws:runShellScript\n  name: run\n  inputs:\n    runCommand:\n    - {cmd}\n{extra}")})
    };
    assert!(drift(&run(t, declared.clone(), yaml("echo hi", ""))).is_empty());
    let fs = run(t, declared.clone(), yaml("curl x | sh", ""));
    assert_eq!(declared_paths(&fs), vec!["Content"]);
    let fs = run(
        t,
        declared,
        yaml("echo hi", "parameters:\n  Cmd:\n    type: String\n"),
    );
    assert!(
        fs.iter()
            .any(|f| f.tier.is_drift() && f.path.starts_with("Content")),
        "{fs:?}"
    );
}

#[test]
fn a_load_balancer_declared_by_subnet_mappings_reads_its_subnets_back_silently() {
    // An NLB declared with an Elastic IP per subnet reads back `Subnets` as
    // well; an observed echo entry used to drop that list whatever it held.
    let mappings = json!([
        {"SubnetId": "subnet-0aaaaaaaaaaaaaaaa", "AllocationId": "eipalloc-0aaaaaaaaaaaaaaaa"},
        {"SubnetId": "subnet-0bbbbbbbbbbbbbbbb", "AllocationId": "eipalloc-0bbbbbbbbbbbbbbbb"}
    ]);
    let read = |subnets: Value| {
        run_general(
            "AWS::ElasticLoadBalancingV2::LoadBalancer",
            json!({"Type": "network", "SubnetMappings": mappings}),
            json!({"Type": "network", "SubnetMappings": mappings, "Subnets": subnets}),
        )
    };
    let same = read(json!([
        "subnet-0bbbbbbbbbbbbbbbb",
        "subnet-0aaaaaaaaaaaaaaaa"
    ]));
    assert!(!same.iter().any(|f| f.path == "Subnets"), "{same:?}");
    let third = read(json!([
        "subnet-0aaaaaaaaaaaaaaaa",
        "subnet-0bbbbbbbbbbbbbbbb",
        "subnet-0cccccccccccccccc"
    ]));
    assert!(
        third
            .iter()
            .any(|f| f.path == "Subnets" && f.tier == Tier::Undeclared),
        "{third:?}"
    );
}
