//! Paired tests for each classify mechanism: the noise it subtracts is
//! suppressed AND a real change next to it is still reported.

mod classify_support;

use classify_support::resource_with_id;
use realdrift_core::classify::{classify, ClassifyContext, ResourceInput, SiblingPolicyNames};
use realdrift_core::schema::SchemaFacts;
use realdrift_core::{Finding, Tier};
use serde_json::{json, Value};
use std::collections::BTreeMap;

fn resource(t: &str, physical_id: &str, declared: Value) -> ResourceInput {
    resource_with_id(t, physical_id, &declared)
}

fn ctx() -> ClassifyContext {
    ClassifyContext {
        account_id: Some("111111111111".into()),
        region: Some("us-east-1".into()),
        stack_name: Some("Stack".into()),
        ..ClassifyContext::default()
    }
}

fn run(r: &ResourceInput, live: Value, schema: &SchemaFacts) -> Vec<Finding> {
    classify(r, &live, schema, &ctx())
}

fn tiers(fs: &[Finding]) -> Vec<(Tier, String)> {
    let mut v: Vec<(Tier, String)> = fs.iter().map(|f| (f.tier, f.path.clone())).collect();
    v.sort();
    v
}

fn only(fs: &[Finding], tier: Tier, path: &str) -> Finding {
    let hits: Vec<&Finding> = fs
        .iter()
        .filter(|f| f.tier == tier && f.path == path)
        .collect();
    assert_eq!(
        hits.len(),
        1,
        "expected one {tier}:{path} in {:?}",
        tiers(fs)
    );
    hits[0].clone()
}

#[test]
fn stringly_typed_scalar_folds_but_a_changed_value_is_drift() {
    let r = resource(
        "AWS::Test::Queue",
        "q",
        json!({"DelaySeconds": 5, "VisibilityTimeout": 30}),
    );
    let fs = run(
        &r,
        json!({"DelaySeconds": "5", "VisibilityTimeout": 60}),
        &SchemaFacts::default(),
    );
    let f = only(&fs, Tier::Declared, "VisibilityTimeout");
    assert_eq!(f.desired, Some(json!(30)));
    assert_eq!(f.actual, Some(json!(60)));
    assert_eq!(fs.len(), 1, "{:?}", tiers(&fs));
}

#[test]
fn policy_representation_folds_but_a_widened_action_is_drift() {
    let declared = json!({"PolicyDocument": {"Version": "2012-10-17", "Statement": [
        {"Effect": "Allow", "Action": "sqs:SendMessage", "Resource": "*",
         "Principal": {"AWS": "arn:aws:iam::111111111111:root"}}]}});
    let same = json!({"PolicyDocument": {"Version": "2012-10-17", "Statement": [
        {"Effect": "Allow", "Action": ["sqs:SendMessage"], "Resource": ["*"],
         "Principal": {"AWS": "111111111111"}}]}});
    let widened = json!({"PolicyDocument": {"Version": "2012-10-17", "Statement": [
        {"Effect": "Allow", "Action": ["sqs:*"], "Resource": ["*"],
         "Principal": {"AWS": "111111111111"}}]}});
    let r = resource("AWS::Test::Policy", "p", declared);
    assert!(run(&r, same, &SchemaFacts::default()).is_empty());
    let fs = run(&r, widened, &SchemaFacts::default());
    assert!(
        fs.iter().any(|f| f.tier == Tier::Declared),
        "{:?}",
        tiers(&fs)
    );
}

#[test]
fn keyed_array_order_folds_but_a_changed_element_is_drift_with_whole_array_revert() {
    let declared = json!({"Origins": [
        {"Id": "b", "Path": "/v1"}, {"Id": "a", "Path": ""}]});
    let r = resource("AWS::Test::Cdn", "d", declared);
    let reordered = json!({"Origins": [{"Id": "a", "Path": ""}, {"Id": "b", "Path": "/v1"}]});
    assert!(run(&r, reordered, &SchemaFacts::default()).is_empty());
    let changed = json!({"Origins": [{"Id": "a", "Path": ""}, {"Id": "b", "Path": "/v2"}]});
    let fs = run(&r, changed, &SchemaFacts::default());
    let f = only(&fs, Tier::Declared, "Origins.1.Path");
    assert!(f.whole_array_revert.is_some());
    assert_eq!(f.actual, Some(json!("/v2")));
}

#[test]
fn id_set_order_folds_but_a_swapped_id_is_drift() {
    let r = resource(
        "AWS::Test::Fn",
        "f",
        json!({"SubnetIds": ["subnet-0aaaaaaaaaaaaaaaa", "subnet-0bbbbbbbbbbbbbbbb"]}),
    );
    let fs = run(
        &r,
        json!({"SubnetIds": ["subnet-0bbbbbbbbbbbbbbbb", "subnet-0aaaaaaaaaaaaaaaa"]}),
        &SchemaFacts::default(),
    );
    assert!(fs.is_empty(), "{:?}", tiers(&fs));
    let fs = run(
        &r,
        json!({"SubnetIds": ["subnet-0bbbbbbbbbbbbbbbb", "subnet-0cccccccccccccccc"]}),
        &SchemaFacts::default(),
    );
    only(&fs, Tier::Declared, "SubnetIds");
}

#[test]
fn name_and_arn_fold_only_in_the_same_account() {
    let r = resource("AWS::Test::Esm", "e", json!({"FunctionName": "fn"}));
    let same = json!({"FunctionName": "arn:aws:lambda:us-east-1:111111111111:function:fn"});
    assert!(run(&r, same, &SchemaFacts::default()).is_empty());
    let other_acct = json!({"FunctionName": "arn:aws:lambda:us-east-1:222222222222:function:fn"});
    only(
        &run(&r, other_acct, &SchemaFacts::default()),
        Tier::Declared,
        "FunctionName",
    );
    let other_name =
        json!({"FunctionName": "arn:aws:lambda:us-east-1:111111111111:function:other"});
    only(
        &run(&r, other_name, &SchemaFacts::default()),
        Tier::Declared,
        "FunctionName",
    );
}

#[test]
fn managed_kms_alias_is_strict_when_the_target_is_known() {
    let r = resource(
        "AWS::Test::Secret",
        "s",
        json!({"KmsKeyId": "alias/aws/secretsmanager"}),
    );
    let mut c = ctx();
    let mut targets = BTreeMap::new();
    targets.insert("alias/aws/secretsmanager".to_string(), "k1".to_string());
    c.kms_alias_targets = Some(targets);
    let managed = json!({"KmsKeyId": "arn:aws:kms:us-east-1:111111111111:key/k1"});
    assert!(classify(&r, &managed, &SchemaFacts::default(), &c).is_empty());
    let swapped = json!({"KmsKeyId": "arn:aws:kms:us-east-1:111111111111:key/customer"});
    let fs = classify(&r, &swapped, &SchemaFacts::default(), &c);
    only(&fs, Tier::Declared, "KmsKeyId");
    // The account's listing names no key for this managed alias: the key in
    // use is not shown to be it (before, any own key passed), nor shown to
    // be another (the listing may predate the service's first use).
    let mut other = BTreeMap::new();
    other.insert("alias/aws/rds".to_string(), "k9".to_string());
    c.kms_alias_targets = Some(other);
    let fs = classify(&r, &swapped, &SchemaFacts::default(), &c);
    only(&fs, Tier::Unresolved, "KmsKeyId");
}

#[test]
fn known_default_folds_but_a_changed_default_surfaces() {
    // AWS::IAM::Role MaxSessionDuration = 3600 is a known default (data file).
    let r = resource("AWS::IAM::Role", "role", json!({}));
    let fs = run(
        &r,
        json!({"MaxSessionDuration": 3600}),
        &SchemaFacts::default(),
    );
    only(&fs, Tier::AtDefault, "MaxSessionDuration");
    let fs = run(
        &r,
        json!({"MaxSessionDuration": 7200}),
        &SchemaFacts::default(),
    );
    let f = only(&fs, Tier::Undeclared, "MaxSessionDuration");
    assert_eq!(f.actual, Some(json!(7200)));
}

#[test]
fn schema_default_folds_at_any_depth_but_a_changed_value_surfaces() {
    let schema = SchemaFacts {
        defaults: [("Mode".to_string(), json!("STANDARD"))]
            .into_iter()
            .collect(),
        default_paths: [("Config.Level".to_string(), json!(1))]
            .into_iter()
            .collect(),
        ..SchemaFacts::default()
    };
    let r = resource("AWS::Test::Thing", "t", json!({"Config": {"Name": "x"}}));
    let fs = run(
        &r,
        json!({"Mode": "STANDARD", "Config": {"Name": "x", "Level": 1}}),
        &schema,
    );
    assert_eq!(
        tiers(&fs),
        vec![
            (Tier::AtDefault, "Config.Level".to_string()),
            (Tier::AtDefault, "Mode".to_string())
        ]
    );
    let fs = run(
        &r,
        json!({"Mode": "FAST", "Config": {"Name": "x", "Level": 2}}),
        &schema,
    );
    let f = only(&fs, Tier::Undeclared, "Config.Level");
    assert!(f.nested);
    only(&fs, Tier::Undeclared, "Mode");
}

#[test]
fn minted_names_are_generated_but_a_custom_name_is_undeclared() {
    let r = resource("AWS::Test::Group", "sg-0123456789abcdef0", json!({}));
    let fs = run(
        &r,
        json!({"GroupName": "Stack-Res-AbCdEfGh1234"}),
        &SchemaFacts::default(),
    );
    only(&fs, Tier::Generated, "GroupName");
    let fs = run(
        &r,
        json!({"GroupName": "renamed-by-hand"}),
        &SchemaFacts::default(),
    );
    only(&fs, Tier::Undeclared, "GroupName");
}

#[test]
fn physical_id_echo_and_empty_values_drop_but_a_setting_surfaces() {
    let r = resource("AWS::Test::Role", "my-role", json!({}));
    let fs = run(
        &r,
        json!({"RoleName": "my-role", "Tags": [], "Encrypted": false, "Description": ""}),
        &SchemaFacts::default(),
    );
    assert!(fs.is_empty(), "{:?}", tiers(&fs));
    // A resource's own switch off, where no source states how the type
    // starts, is no unset value.
    let fs = run(&r, json!({"Enabled": false}), &SchemaFacts::default());
    only(&fs, Tier::Undeclared, "Enabled");
    let fs = run(&r, json!({"Versioned": true}), &SchemaFacts::default());
    only(&fs, Tier::Undeclared, "Versioned");
}

#[test]
fn write_only_and_unresolved_are_reported_not_compared() {
    let schema = SchemaFacts {
        write_only: vec!["Password".into()],
        ..SchemaFacts::default()
    };
    let r = resource(
        "AWS::Test::Db",
        "db",
        json!({"Password": "x", "Role": "__cdkrd_corpus_unresolved__",
               "Cfg": {"A": "__cdkrd_corpus_unresolved__"}}),
    );
    let fs = run(
        &r,
        json!({"Role": "arn:other", "Cfg": {"A": "1", "B": "set"}}),
        &schema,
    );
    let f = only(&fs, Tier::ReadGap, "Password");
    assert!(f.write_only);
    only(&fs, Tier::Unresolved, "Role");
    only(&fs, Tier::Unresolved, "Cfg");
    // A live-only sub-key beside an unresolved leaf is still visible.
    let f = only(&fs, Tier::Undeclared, "Cfg.B");
    assert!(f.nested);
}

#[test]
fn removed_collection_is_drift_but_an_unreturned_scalar_is_a_read_gap() {
    let r = resource(
        "AWS::Test::Bucket",
        "b",
        json!({"CorsConfiguration": {"CorsRules": [{"AllowedMethods": ["GET"]}]}, "Port": 5}),
    );
    let fs = run(&r, json!({}), &SchemaFacts::default());
    let f = only(&fs, Tier::Declared, "CorsConfiguration");
    assert!(f.actual.is_none());
    only(&fs, Tier::ReadGap, "Port");
}

#[test]
fn nested_live_only_keys_surface_and_free_form_keys_are_flagged() {
    let schema = SchemaFacts {
        free_form_map_paths: vec!["Environment.Variables".into()],
        ..SchemaFacts::default()
    };
    let r = resource(
        "AWS::Test::Fn",
        "fn",
        json!({"Environment": {"Variables": {"A": "1"}}}),
    );
    let fs = run(
        &r,
        json!({"Environment": {"Variables": {"A": "1", "EXTRA": "oob"}}}),
        &schema,
    );
    let f = only(&fs, Tier::Undeclared, "Environment.Variables.EXTRA");
    assert!(f.nested && f.free_form_key);
    let fs = run(
        &r,
        json!({"Environment": {"Variables": {"A": "1"}}}),
        &schema,
    );
    assert!(fs.is_empty());
}

#[test]
fn sibling_policies_drop_by_name_but_a_rogue_policy_surfaces() {
    let mut r = resource("AWS::Test::Role", "role", json!({}));
    r.sibling_policy_names = SiblingPolicyNames::Known(vec!["Default".into()]);
    let live = json!({"Policies": [
        {"PolicyName": "Default", "PolicyDocument": {"Statement": [{"Effect": "Allow", "Action": "s3:*", "Resource": "*"}]}},
        {"PolicyName": "rogue", "PolicyDocument": {"Statement": [{"Effect": "Allow", "Action": "*", "Resource": "*"}]}}
    ]});
    let fs = run(&r, live.clone(), &SchemaFacts::default());
    let f = only(&fs, Tier::Undeclared, "Policies");
    assert_eq!(
        f.actual.as_ref().and_then(|a| a.as_array()).map(Vec::len),
        Some(1)
    );
    // An unresolvable sibling name keeps everything visible (fail open).
    r.sibling_policy_names = SiblingPolicyNames::Unresolved;
    let fs = run(&r, live, &SchemaFacts::default());
    let f = only(&fs, Tier::Undeclared, "Policies");
    assert_eq!(
        f.actual.as_ref().and_then(|a| a.as_array()).map(Vec::len),
        Some(2)
    );
}

#[test]
fn attribute_bag_compares_declared_keys_and_reports_live_only_keys() {
    let t = "AWS::ElasticLoadBalancingV2::LoadBalancer";
    let r = resource(
        t,
        "lb",
        json!({"LoadBalancerAttributes": [{"Key": "idle_timeout.timeout_seconds", "Value": "120"}]}),
    );
    let live = |idle: &str, drop_invalid: &str| {
        json!({"LoadBalancerAttributes": [
            {"Key": "idle_timeout.timeout_seconds", "Value": idle},
            {"Key": "access_logs.s3.bucket", "Value": ""},
            {"Key": "routing.http.drop_invalid_header_fields.enabled", "Value": drop_invalid}
        ]})
    };
    let fs = run(&r, live("120", "false"), &SchemaFacts::default());
    assert_eq!(
        tiers(&fs),
        vec![(
            Tier::AtDefault,
            "LoadBalancerAttributes[routing.http.drop_invalid_header_fields.enabled]".to_string()
        )]
    );
    let fs = run(&r, live("300", "true"), &SchemaFacts::default());
    let f = only(&fs, Tier::Declared, "LoadBalancerAttributes");
    assert_eq!(
        f.attribute_key.as_deref(),
        Some("idle_timeout.timeout_seconds")
    );
    assert_eq!(
        (f.desired, f.actual),
        (Some(json!("120")), Some(json!("300")))
    );
    only(
        &fs,
        Tier::Undeclared,
        "LoadBalancerAttributes[routing.http.drop_invalid_header_fields.enabled]",
    );
}

#[test]
fn aws_and_stack_tags_are_noise_but_an_added_tag_surfaces() {
    let r = resource("AWS::Test::Queue", "q", json!({}));
    let mut c = ctx();
    c.stack_tags.insert("team".into(), "a".into());
    let noise = json!({"Tags": [
        {"Key": "aws:cloudformation:stack-name", "Value": "Stack"},
        {"Key": "team", "Value": "a"}]});
    assert!(classify(&r, &noise, &SchemaFacts::default(), &c).is_empty());
    let added = json!({"Tags": [{"Key": "team", "Value": "a"}, {"Key": "owner", "Value": "x"}]});
    let fs = classify(&r, &added, &SchemaFacts::default(), &c);
    let f = only(&fs, Tier::Undeclared, "Tags");
    assert_eq!(f.actual, Some(json!([{"Key": "owner", "Value": "x"}])));
}

#[test]
fn managed_fields_strip_everywhere_except_user_maps() {
    let schema = SchemaFacts {
        free_form_map_paths: vec!["Environment.Variables".into()],
        ..SchemaFacts::default()
    };
    let r = resource(
        "AWS::Test::Fn",
        "fn",
        json!({"Environment": {"Variables": {}}}),
    );
    let live = json!({"CreationDate": "t", "Logging": {"CreatedAt": "t"},
        "Environment": {"Variables": {"CreatedAt": "mine"}}});
    let fs = run(&r, live, &schema);
    assert_eq!(
        tiers(&fs),
        vec![(
            Tier::Undeclared,
            "Environment.Variables.CreatedAt".to_string()
        )]
    );
}

#[test]
fn schema_unordered_arrays_fold_reorders_but_not_a_new_element() {
    let schema = SchemaFacts {
        unordered_scalar_paths: vec!["Types".into()],
        ..SchemaFacts::default()
    };
    let r = resource("AWS::Test::Task", "t", json!({"Types": ["EC2", "FARGATE"]}));
    assert!(run(&r, json!({"Types": ["FARGATE", "EC2"]}), &schema).is_empty());
    only(
        &run(&r, json!({"Types": ["FARGATE", "EXTERNAL"]}), &schema),
        Tier::Declared,
        "Types",
    );
}

#[test]
fn property_transform_folds_only_an_exact_reproduction() {
    let schema = SchemaFacts {
        property_transforms: [(
            "/properties/ColumnType".to_string(),
            "$lowercase(ColumnType)".to_string(),
        )]
        .into_iter()
        .map(|(k, v)| (k.trim_start_matches("/properties/").to_string(), v))
        .collect(),
        ..SchemaFacts::default()
    };
    let r = resource("AWS::Test::Table", "t", json!({"ColumnType": "TEXT"}));
    assert!(run(&r, json!({"ColumnType": "text"}), &schema).is_empty());
    only(
        &run(&r, json!({"ColumnType": "int"}), &schema),
        Tier::Declared,
        "ColumnType",
    );
}

#[test]
fn json_text_equals_its_structure_but_not_a_changed_one() {
    let r = resource(
        "AWS::Test::Doc",
        "d",
        json!({"Content": {"a": 1, "b": ["x"]}}),
    );
    let same = json!({"Content": "{\n  \"b\" : [ \"x\" ],\n  \"a\" : 1\n}"});
    assert!(run(&r, same, &SchemaFacts::default()).is_empty());
    let changed = json!({"Content": "{\"a\": 2, \"b\": [\"x\"]}"});
    only(
        &run(&r, changed, &SchemaFacts::default()),
        Tier::Declared,
        "Content",
    );
}

#[test]
fn version_precision_folds_on_version_properties_only() {
    let r = resource(
        "AWS::RDS::DBInstance",
        "db",
        json!({"EngineVersion": "8.0"}),
    );
    assert!(run(
        &r,
        json!({"EngineVersion": "8.0.45"}),
        &SchemaFacts::default()
    )
    .is_empty());
    only(
        &run(
            &r,
            json!({"EngineVersion": "8.4.1"}),
            &SchemaFacts::default(),
        ),
        Tier::Declared,
        "EngineVersion",
    );
    // By shape: any type's *Version property, within the declared track only.
    let other = resource("AWS::Test::Thing", "t", json!({"EngineVersion": "8.0"}));
    assert!(run(
        &other,
        json!({"EngineVersion": "8.0.45"}),
        &SchemaFacts::default()
    )
    .is_empty());
    only(
        &run(
            &other,
            json!({"EngineVersion": "8.1.2"}),
            &SchemaFacts::default(),
        ),
        Tier::Declared,
        "EngineVersion",
    );
    let label = resource("AWS::Test::Thing", "t", json!({"Label": "8.0"}));
    only(
        &run(&label, json!({"Label": "8.0.45"}), &SchemaFacts::default()),
        Tier::Declared,
        "Label",
    );
}

#[test]
fn cluster_echo_drops_only_equal_values() {
    let r = resource(
        "AWS::RDS::DBInstance",
        "inst-1",
        json!({"DBClusterIdentifier": "c1"}),
    );
    let mut c = ctx();
    c.sibling_facts.insert(
        "clusterEchoModel".into(),
        json!({"inst-1": {"DBSubnetGroupName": "grp-a"}}),
    );
    let live = |g: &str| json!({"DBClusterIdentifier": "c1", "DBSubnetGroupName": g});
    let fs = classify(&r, &live("grp-a"), &SchemaFacts::default(), &c);
    assert!(fs.is_empty(), "{:?}", tiers(&fs));
    let fs = classify(&r, &live("grp-b"), &SchemaFacts::default(), &c);
    only(&fs, Tier::Undeclared, "DBSubnetGroupName");
}

#[test]
fn cross_type_defaults_fold_only_the_known_value() {
    let r = resource("AWS::Unknown::Thing", "t", json!({}));
    let fs = run(
        &r,
        json!({"AutoMinorVersionUpgrade": true, "PreferredMaintenanceWindow": "sun:01:00-sun:02:00"}),
        &SchemaFacts::default(),
    );
    assert_eq!(
        tiers(&fs),
        vec![
            (Tier::AtDefault, "AutoMinorVersionUpgrade".to_string()),
            (Tier::AtDefault, "PreferredMaintenanceWindow".to_string())
        ]
    );
    // A value-independent placement fact needs the schema's create-only mark.
    let fs = run(
        &r,
        json!({"VpcId": "vpc-0123456789abcdef0"}),
        &SchemaFacts::default(),
    );
    only(&fs, Tier::Undeclared, "VpcId");
    let schema = SchemaFacts {
        create_only: vec!["VpcId".into()],
        ..SchemaFacts::default()
    };
    let fs = run(&r, json!({"VpcId": "vpc-0123456789abcdef0"}), &schema);
    only(&fs, Tier::AtDefault, "VpcId");
    // A managed key folds only when it is one of the account's aws/* keys.
    let mut c = ctx();
    c.kms_alias_targets = Some(
        [("alias/aws/rds".to_string(), "k-managed".to_string())]
            .into_iter()
            .collect(),
    );
    let managed = json!({"KmsKeyId": "arn:aws:kms:us-east-1:111111111111:key/k-managed"});
    let fs = classify(&r, &managed, &SchemaFacts::default(), &c);
    only(&fs, Tier::AtDefault, "KmsKeyId");
    let customer = json!({"KmsKeyId": "arn:aws:kms:us-east-1:111111111111:key/k-customer"});
    let fs = classify(&r, &customer, &SchemaFacts::default(), &c);
    only(&fs, Tier::Undeclared, "KmsKeyId");
}

#[test]
fn classify_never_panics_on_odd_input() {
    let r = resource("AWS::Test::X", "", json!({"A": [1, {"B": null}], "C": {}}));
    for live in [
        json!(null),
        json!([]),
        json!("x"),
        json!({"A": "not an array", "C": [1]}),
    ] {
        let _ = run(&r, live, &SchemaFacts::default());
    }
}

#[test]
fn description_stated_defaults_fold_only_their_value() {
    // doc-defaults.json: AWS::ApiGatewayV2::Api BasePath "ignore".
    let r = resource("AWS::ApiGatewayV2::Api", "api", json!({}));
    let fs = run(&r, json!({"BasePath": "ignore"}), &SchemaFacts::default());
    only(&fs, Tier::AtDefault, "BasePath");
    let fs = run(&r, json!({"BasePath": "prepend"}), &SchemaFacts::default());
    only(&fs, Tier::Undeclared, "BasePath");
}

#[test]
fn a_switch_aws_turns_on_surfaces_when_found_off() {
    let r = resource(
        "AWS::SQS::Queue",
        "https://sqs.us-east-1.amazonaws.com/111111111111/q",
        json!({}),
    );
    let fs = run(
        &r,
        json!({"SqsManagedSseEnabled": true}),
        &SchemaFacts::default(),
    );
    only(&fs, Tier::AtDefault, "SqsManagedSseEnabled");
    let fs = run(
        &r,
        json!({"SqsManagedSseEnabled": false}),
        &SchemaFacts::default(),
    );
    only(&fs, Tier::Undeclared, "SqsManagedSseEnabled");
    // An SSE-KMS queue legitimately reads it off.
    let fs = run(
        &r,
        json!({"SqsManagedSseEnabled": false, "KmsMasterKeyId": "alias/aws/sqs"}),
        &SchemaFacts::default(),
    );
    assert!(
        !fs.iter().any(|f| f.path == "SqsManagedSseEnabled"),
        "{:?}",
        tiers(&fs)
    );
}

#[test]
fn oai_principal_spellings_fold_but_another_identity_is_drift() {
    let r = resource(
        "AWS::S3::BucketPolicy",
        "b",
        json!({"PolicyDocument": {"Statement": [{"Effect": "Allow", "Action": "s3:GetObject",
            "Resource": "arn:aws:s3:::b/*", "Principal": {"CanonicalUser": "canon-1"}}]}}),
    );
    let mut c = ctx();
    c.sibling_facts
        .insert("oaiCanonicalIds".into(), json!({"E1": "canon-1"}));
    let live = |oai: &str| {
        json!({"PolicyDocument": {"Statement": [{"Effect": "Allow", "Action": "s3:GetObject",
            "Resource": "arn:aws:s3:::b/*",
            "Principal": {"AWS": format!("arn:aws:iam::cloudfront:user/CloudFront Origin Access Identity {oai}")}}]}})
    };
    assert!(classify(&r, &live("E1"), &SchemaFacts::default(), &c).is_empty());
    let fs = classify(&r, &live("E2"), &SchemaFacts::default(), &c);
    assert!(
        fs.iter().any(|f| f.tier == Tier::Declared),
        "{:?}",
        tiers(&fs)
    );
}

#[test]
fn a_propagated_stack_tag_changed_on_the_resource_surfaces() {
    let r = resource("AWS::Test::Queue", "q", json!({}));
    let mut c = ctx();
    c.stack_tags.insert("env".into(), "prod".into());
    let fs = classify(
        &r,
        &json!({"Tags": [{"Key": "env", "Value": "dev"}]}),
        &SchemaFacts::default(),
        &c,
    );
    only(&fs, Tier::Undeclared, "Tags");
}

#[test]
fn conditional_defaults_fold_only_for_their_configuration() {
    // RDS: 5432 is the postgres default port but not the mysql one.
    let pg = resource("AWS::RDS::DBInstance", "db", json!({"Engine": "postgres"}));
    let fs = run(
        &pg,
        json!({"Engine": "postgres", "Port": "5432"}),
        &SchemaFacts::default(),
    );
    only(&fs, Tier::AtDefault, "Port");
    let my = resource("AWS::RDS::DBInstance", "db", json!({"Engine": "mysql"}));
    let fs = run(
        &my,
        json!({"Engine": "mysql", "Port": "5432"}),
        &SchemaFacts::default(),
    );
    only(&fs, Tier::Undeclared, "Port");
    // A `null` alternative means "absent": backups default to 1 day on a
    // source instance, 0 on a read replica.
    let fs = run(
        &my,
        json!({"Engine": "mysql", "BackupRetentionPeriod": 0}),
        &SchemaFacts::default(),
    );
    only(&fs, Tier::Undeclared, "BackupRetentionPeriod");
    let fs = run(
        &my,
        json!({"Engine": "mysql", "BackupRetentionPeriod": 1}),
        &SchemaFacts::default(),
    );
    only(&fs, Tier::AtDefault, "BackupRetentionPeriod");
    // ELBv2: a 5 s health-check timeout is the HTTP default, not the TCP one.
    let tcp = resource(
        "AWS::ElasticLoadBalancingV2::TargetGroup",
        "tg",
        json!({"Protocol": "TCP", "Port": 80}),
    );
    let live = |t: u64| json!({"Protocol": "TCP", "Port": 80, "HealthCheckTimeoutSeconds": t});
    let fs = run(&tcp, live(10), &SchemaFacts::default());
    only(&fs, Tier::AtDefault, "HealthCheckTimeoutSeconds");
    let fs = run(&tcp, live(5), &SchemaFacts::default());
    only(&fs, Tier::Undeclared, "HealthCheckTimeoutSeconds");
}

#[test]
fn defaults_conditioned_on_a_keyed_option_follow_that_option() {
    // Elastic Beanstalk: MaxSize 1 is the single-instance default, 4 the
    // load-balanced one; the condition reads the EnvironmentType option.
    let env = |t: &str| json!({"Namespace": "aws:elasticbeanstalk:environment", "OptionName": "EnvironmentType", "Value": t});
    let max = |n: &str| json!({"ResourceName": "AWSEBAutoScalingGroup", "Namespace": "aws:autoscaling:asg", "OptionName": "MaxSize", "Value": n});
    let r = resource(
        "AWS::ElasticBeanstalk::Environment",
        "env",
        json!({"OptionSettings": [env("SingleInstance")]}),
    );
    let path = "OptionSettings[aws:autoscaling:asg|MaxSize]";
    let fs = run(
        &r,
        json!({"OptionSettings": [env("SingleInstance"), max("1")]}),
        &SchemaFacts::default(),
    );
    only(&fs, Tier::AtDefault, path);
    let fs = run(
        &r,
        json!({"OptionSettings": [env("SingleInstance"), max("4")]}),
        &SchemaFacts::default(),
    );
    only(&fs, Tier::Undeclared, path);
    // Internal template parameters fold whatever the platform derived.
    let tp = json!({"Namespace": "aws:cloudformation:template:parameter", "OptionName": "HooksPkgUrl", "Value": "https://example/hooks.tar.gz"});
    let fs = run(
        &r,
        json!({"OptionSettings": [env("SingleInstance"), tp]}),
        &SchemaFacts::default(),
    );
    only(
        &fs,
        Tier::AtDefault,
        "OptionSettings[aws:cloudformation:template:parameter|HooksPkgUrl]",
    );
}

#[test]
fn a_default_derived_from_a_sibling_setting_follows_it() {
    // Cognito mirrors TemporaryPasswordValidityDays into the legacy
    // UnusedAccountValidityDays.
    let r = resource(
        "AWS::Cognito::UserPool",
        "pool",
        json!({
            "Policies": {"PasswordPolicy": {"TemporaryPasswordValidityDays": 3}},
            "AdminCreateUserConfig": {"AllowAdminCreateUserOnly": true}
        }),
    );
    let live = |days: u64| {
        json!({
            "Policies": {"PasswordPolicy": {"TemporaryPasswordValidityDays": 3}},
            "AdminCreateUserConfig": {"AllowAdminCreateUserOnly": true, "UnusedAccountValidityDays": days}
        })
    };
    let path = "AdminCreateUserConfig.UnusedAccountValidityDays";
    let fs = run(&r, live(3), &SchemaFacts::default());
    assert!(
        fs.iter()
            .all(|f| f.tier == Tier::AtDefault || f.path != path),
        "{:?}",
        tiers(&fs)
    );
    assert!(
        !fs.iter().any(|f| f.tier == Tier::Undeclared),
        "{:?}",
        tiers(&fs)
    );
    let fs = run(&r, live(7), &SchemaFacts::default());
    assert!(
        fs.iter()
            .any(|f| f.tier == Tier::Undeclared && f.path.starts_with("AdminCreateUserConfig")),
        "{:?}",
        tiers(&fs)
    );
    // CodeBuild: 15 minutes is the Lambda-compute default only.
    let cb = |t: &str| json!({"Environment": {"Type": t, "ComputeType": "BUILD_GENERAL1_SMALL", "Image": "img"}});
    let r = resource("AWS::CodeBuild::Project", "p", cb("LINUX_CONTAINER"));
    let mut l = cb("LINUX_CONTAINER");
    l["TimeoutInMinutes"] = json!(15);
    only(
        &run(&r, l.clone(), &SchemaFacts::default()),
        Tier::Undeclared,
        "TimeoutInMinutes",
    );
    l["TimeoutInMinutes"] = json!(60);
    only(
        &run(&r, l, &SchemaFacts::default()),
        Tier::AtDefault,
        "TimeoutInMinutes",
    );
}

#[test]
fn an_aws_materialized_husk_element_folds_but_a_configured_one_surfaces() {
    // A Site-to-Site VPN always has two tunnels: declaring one makes AWS add
    // the second with only its inside CIDR set.
    let declared = json!({"VpnTunnelOptionsSpecifications": [
        {"TunnelInsideCidr": "169.254.10.0/30", "PreSharedKey": "k"}
    ], "Type": "ipsec.1"});
    let r = resource("AWS::EC2::VPNConnection", "vpn-1", declared);
    let mine = json!({"TunnelInsideCidr": "169.254.10.0/30", "PreSharedKey": "k"});
    let husk = json!({"TunnelInsideCidr": "169.254.99.0/30", "LogOptions": {}, "IKEVersions": []});
    let path = "VpnTunnelOptionsSpecifications[169.254.99.0/30]";
    let fs = run(
        &r,
        json!({"Type": "ipsec.1", "VpnTunnelOptionsSpecifications": [mine.clone(), husk]}),
        &SchemaFacts::default(),
    );
    only(&fs, Tier::AtDefault, path);
    assert_eq!(fs.len(), 1, "{:?}", tiers(&fs));
    let configured =
        json!({"TunnelInsideCidr": "169.254.99.0/30", "Phase1DHGroupNumbers": [{"Value": 2}]});
    let fs = run(
        &r,
        json!({"Type": "ipsec.1", "VpnTunnelOptionsSpecifications": [mine, configured]}),
        &SchemaFacts::default(),
    );
    let f = only(&fs, Tier::Undeclared, path);
    assert!(f.nested);
}

#[test]
fn service_rewritten_scalars_fold_only_on_their_paths() {
    // Budgets stores "100" as "100.0"; a different amount is drift.
    let r = resource(
        "AWS::Budgets::Budget",
        "b",
        json!({"Budget": {"BudgetLimit": {"Amount": "100", "Unit": "USD"}}}),
    );
    let live = |a: &str| json!({"Budget": {"BudgetLimit": {"Amount": a, "Unit": "USD"}}});
    assert!(run(&r, live("100.0"), &SchemaFacts::default()).is_empty());
    only(
        &run(&r, live("150.0"), &SchemaFacts::default()),
        Tier::Declared,
        "Budget.BudgetLimit.Amount",
    );
    // SES event types: upper-cased and reordered by the service.
    let r = resource(
        "AWS::SES::ConfigurationSetEventDestination",
        "d",
        json!({"EventDestination": {"MatchingEventTypes": ["send", "bounce"]}}),
    );
    let live = |t: Value| json!({"EventDestination": {"MatchingEventTypes": t}});
    assert!(run(&r, live(json!(["BOUNCE", "SEND"])), &SchemaFacts::default()).is_empty());
    assert!(!run(
        &r,
        live(json!(["BOUNCE", "REJECT"])),
        &SchemaFacts::default()
    )
    .is_empty());
    // SSM: Intelligent-Tiering picks a concrete tier.
    let r = resource(
        "AWS::SSM::Parameter",
        "p",
        json!({"Tier": "Intelligent-Tiering"}),
    );
    assert!(run(&r, json!({"Tier": "Standard"}), &SchemaFacts::default()).is_empty());
    let r = resource("AWS::SSM::Parameter", "p", json!({"Tier": "Standard"}));
    only(
        &run(&r, json!({"Tier": "Advanced"}), &SchemaFacts::default()),
        Tier::Declared,
        "Tier",
    );
}

#[test]
fn processor_parameters_compare_by_name() {
    let p = |n: &str, v: &str| json!({"ParameterName": n, "ParameterValue": v});
    let dest = |params: Value| {
        json!({"ExtendedS3DestinationConfiguration": {"BucketARN": "arn:aws:s3:::b",
            "ProcessingConfiguration": {"Enabled": true, "Processors": [{"Type": "Lambda", "Parameters": params}]}}})
    };
    let r = resource(
        "AWS::KinesisFirehose::DeliveryStream",
        "s",
        dest(json!([p(
            "LambdaArn",
            "arn:aws:lambda:us-east-1:111111111111:function:f"
        )])),
    );
    let live = |retries: &str, arn: &str| {
        dest(json!([p("NumberOfRetries", retries), p("LambdaArn", arn)]))
    };
    let fs = run(
        &r,
        live("3", "arn:aws:lambda:us-east-1:111111111111:function:f"),
        &SchemaFacts::default(),
    );
    assert_eq!(
        tiers(&fs),
        vec![(
            Tier::Undeclared,
            "ExtendedS3DestinationConfiguration.ProcessingConfiguration.Processors.0.Parameters[NumberOfRetries]".to_string()
        )]
    );
    let fs = run(
        &r,
        live("3", "arn:aws:lambda:us-east-1:111111111111:function:g"),
        &SchemaFacts::default(),
    );
    assert!(
        fs.iter().any(|f| f.tier == Tier::Declared),
        "{:?}",
        tiers(&fs)
    );
}

#[test]
fn a_name_echoed_from_a_declared_arn_folds_but_another_name_surfaces() {
    let arn = "arn:aws:glue:us-east-1:111111111111:registry/reg-a";
    let r = resource(
        "AWS::Glue::Schema",
        "arn:aws:glue:us-east-1:111111111111:schema/reg-a/s",
        json!({"Name": "s", "Registry": {"Arn": arn}}),
    );
    let live = |n: &str| json!({"Name": "s", "Registry": {"Arn": arn, "Name": n}});
    only(
        &run(&r, live("reg-a"), &SchemaFacts::default()),
        Tier::AtDefault,
        "Registry.Name",
    );
    only(
        &run(&r, live("reg-b"), &SchemaFacts::default()),
        Tier::Undeclared,
        "Registry.Name",
    );
}

#[test]
fn an_imported_keys_comment_ec2_replaces_folds_but_another_key_is_drift() {
    // EC2 keeps an imported public key with the key pair's name as comment.
    let key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIEj7azlDjVHAsSxgcpCRZ3oWnTm0nAFM64y9jd22ioI1";
    let r = resource(
        "AWS::EC2::KeyPair",
        "deploy-key",
        json!({"KeyName": "deploy-key", "PublicKeyMaterial": format!("{key} me@laptop")}),
    );
    let live = |material: String| json!({"KeyName": "deploy-key", "PublicKeyMaterial": material});
    let fs = run(
        &r,
        live(format!("{key} deploy-key")),
        &SchemaFacts::default(),
    );
    assert!(
        fs.iter().all(|f| f.tier != Tier::Declared),
        "{:?}",
        tiers(&fs)
    );
    let other = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIPx9OtherKeyOtherKeyOtherKeyOtherKeyOth";
    let fs = run(
        &r,
        live(format!("{other} deploy-key")),
        &SchemaFacts::default(),
    );
    only(&fs, Tier::Declared, "PublicKeyMaterial");
}
