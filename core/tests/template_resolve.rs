//! The fail-closed resolver: every intrinsic, conditions, NoValue, secrets, the GetAtt second pass.

use realdrift_core::template::{
    evaluate_condition, resolve_resource, resolve_value, ResolverContext, Template, TemplateError,
};
use realdrift_core::DeclaredValue;
use serde_json::{json, Value};
use std::collections::BTreeMap;

use DeclaredValue::Unresolved;

fn fixture(name: &str) -> Template {
    let path = format!(
        "{}/tests/fixtures/templates/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    Template::parse(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn ctx() -> ResolverContext {
    let mut c = ResolverContext::new("111111111111", "us-east-1", "App");
    c.stack_id =
        Some("arn:aws:cloudformation:us-east-1:111111111111:stack/App/0f1e2d3c".to_string());
    c
}

fn s(v: &str) -> DeclaredValue {
    DeclaredValue::String(v.to_string())
}

fn dv(v: Value) -> DeclaredValue {
    DeclaredValue::from_json(&v)
}

/// Resolves `raw` inside a template with the given extra sections.
fn eval_in(template: &Template, raw: Value, c: &ResolverContext) -> Option<DeclaredValue> {
    resolve_value(&raw, template, c)
}

fn base_template() -> Template {
    Template::parse(
        &json!({
            "Parameters": {
                "Env": {"Type": "String", "Default": "prod"},
                "Count": {"Type": "Number", "Default": 3},
                "Azs": {"Type": "List<AWS::EC2::AvailabilityZone::Name>", "Default": "a,b"},
                "Secret": {"Type": "String", "NoEcho": "true", "Default": "x"},
                "NoDefault": {"Type": "String"},
                "Ami": {"Type": "AWS::SSM::Parameter::Value<AWS::EC2::Image::Id>",
                        "Default": "/aws/service/ami"}
            },
            "Mappings": {"M": {"prod": {"Size": "large", "List": ["a", "b"]}}},
            "Conditions": {
                "IsProd": {"Fn::Equals": [{"Ref": "Env"}, "prod"]},
                "IsDev": {"Fn::Not": [{"Condition": "IsProd"}]},
                "Unknowable": {"Fn::Equals": [{"Ref": "NoDefault"}, "x"]},
                "LoopA": {"Condition": "LoopB"},
                "LoopB": {"Condition": "LoopA"},
                "CountIs3": {"Fn::Equals": [{"Ref": "Count"}, 3]},
                "AndFalseUnknown": {"Fn::And": [{"Condition": "IsDev"}, {"Condition": "Unknowable"}]},
                "AndTrueUnknown": {"Fn::And": [{"Condition": "IsProd"}, {"Condition": "Unknowable"}]},
                "OrTrueUnknown": {"Fn::Or": [{"Condition": "Unknowable"}, {"Condition": "IsProd"}]},
                "OrFalseUnknown": {"Fn::Or": [{"Condition": "IsDev"}, {"Condition": "Unknowable"}]},
                "Literal": true
            },
            "Resources": {
                "Bucket": {"Type": "AWS::S3::Bucket"},
                "Db": {"Type": "AWS::RDS::DBInstance"}
            }
        })
        .to_string(),
    )
    .unwrap()
}

fn with_live() -> ResolverContext {
    let mut c = ctx();
    c.physical_ids.insert("Bucket".into(), "my-bucket".into());
    c.live_attrs.insert(
        "Bucket".into(),
        json!({"Arn": "arn:aws:s3:::my-bucket", "BucketName": "my-bucket", "Gone": null}),
    );
    c.live_attrs.insert(
        "Db".into(),
        json!({"Endpoint": {"Address": "db.example", "Port": 5432}, "Endpoint.Odd": "exact",
               "Arns": ["x", "y"]}),
    );
    c
}

#[test]
fn pseudo_parameters() {
    let t = base_template();
    let c = ctx();
    let cases = [
        ("AWS::AccountId", s("111111111111")),
        ("AWS::Region", s("us-east-1")),
        ("AWS::Partition", s("aws")),
        ("AWS::URLSuffix", s("amazonaws.com")),
        ("AWS::StackName", s("App")),
        (
            "AWS::StackId",
            s("arn:aws:cloudformation:us-east-1:111111111111:stack/App/0f1e2d3c"),
        ),
        ("AWS::NotificationARNs", Unresolved),
        ("AWS::SomethingNew", Unresolved),
    ];
    for (name, want) in cases {
        assert_eq!(eval_in(&t, json!({"Ref": name}), &c), Some(want), "{name}");
    }
    assert_eq!(eval_in(&t, json!({"Ref": "AWS::NoValue"}), &c), None);
    let empty = ResolverContext::default();
    assert_eq!(
        eval_in(&t, json!({"Ref": "AWS::Region"}), &empty),
        Some(Unresolved)
    );
}

#[test]
fn china_partition() {
    let t = base_template();
    let c = ResolverContext::new("1", "cn-north-1", "S");
    assert_eq!(
        eval_in(
            &t,
            json!({"Fn::Sub": "arn:${AWS::Partition}:s3:::b.${AWS::URLSuffix}"}),
            &c
        ),
        Some(s("arn:aws-cn:s3:::b.amazonaws.com.cn"))
    );
}

#[test]
fn ref_parameters() {
    let t = base_template();
    let mut c = ctx();
    assert_eq!(eval_in(&t, json!({"Ref": "Env"}), &c), Some(s("prod")));
    assert_eq!(eval_in(&t, json!({"Ref": "Count"}), &c), Some(s("3")));
    assert_eq!(
        eval_in(&t, json!({"Ref": "Azs"}), &c),
        Some(dv(json!(["a", "b"])))
    );
    assert_eq!(
        eval_in(&t, json!({"Ref": "NoDefault"}), &c),
        Some(Unresolved)
    );
    assert_eq!(eval_in(&t, json!({"Ref": "Secret"}), &c), Some(Unresolved));
    assert_eq!(
        eval_in(&t, json!({"Ref": "Ami"}), &c),
        Some(Unresolved),
        "SSM default is a key"
    );
    assert_eq!(eval_in(&t, json!({"Ref": ["Env"]}), &c), Some(Unresolved));
    c.parameter_values.insert("Env".into(), "dev".into());
    c.parameter_values.insert("Azs".into(), "x, y ,z".into());
    c.parameter_values.insert("Secret".into(), "****".into());
    c.parameter_values.insert("Ami".into(), "ami-123".into());
    assert_eq!(eval_in(&t, json!({"Ref": "Env"}), &c), Some(s("dev")));
    assert_eq!(
        eval_in(&t, json!({"Ref": "Azs"}), &c),
        Some(dv(json!(["x", "y", "z"])))
    );
    assert_eq!(eval_in(&t, json!({"Ref": "Secret"}), &c), Some(Unresolved));
    assert_eq!(eval_in(&t, json!({"Ref": "Ami"}), &c), Some(s("ami-123")));
}

#[test]
fn ref_resources_need_a_physical_id() {
    let t = base_template();
    assert_eq!(
        eval_in(&t, json!({"Ref": "Bucket"}), &ctx()),
        Some(Unresolved)
    );
    assert_eq!(
        eval_in(&t, json!({"Ref": "Bucket"}), &with_live()),
        Some(s("my-bucket"))
    );
    assert_eq!(
        eval_in(&t, json!({"Ref": "Nope"}), &with_live()),
        Some(Unresolved)
    );
}

#[test]
fn getatt_against_live_attributes() {
    let t = base_template();
    let c = with_live();
    let cases = [
        (
            json!({"Fn::GetAtt": ["Bucket", "Arn"]}),
            s("arn:aws:s3:::my-bucket"),
        ),
        (
            json!({"Fn::GetAtt": "Bucket.Arn"}),
            s("arn:aws:s3:::my-bucket"),
        ),
        (
            json!({"Fn::GetAtt": ["Db", "Endpoint.Address"]}),
            s("db.example"),
        ),
        (json!({"Fn::GetAtt": "Db.Endpoint.Port"}), dv(json!(5432))),
        (json!({"Fn::GetAtt": ["Db", "Endpoint.Odd"]}), s("exact")),
        (json!({"Fn::GetAtt": ["Db", "Arns.1"]}), s("y")),
        (
            json!({"Fn::GetAtt": ["Db", {"Fn::Sub": "Endpoint.${AWS::NoValue}"}]}),
            Unresolved,
        ),
        (json!({"Fn::GetAtt": ["Bucket", "Missing"]}), Unresolved),
        (json!({"Fn::GetAtt": ["Bucket", "Gone"]}), Unresolved),
        (json!({"Fn::GetAtt": ["NotRead", "Arn"]}), Unresolved),
        (json!({"Fn::GetAtt": "NoDot"}), Unresolved),
        (json!({"Fn::GetAtt": ["OnlyOne"]}), Unresolved),
        (json!({"Fn::GetAtt": [{"Ref": "Env"}, "Arn"]}), Unresolved),
    ];
    for (raw, want) in cases {
        assert_eq!(eval_in(&t, raw.clone(), &c), Some(want), "{raw}");
    }
    // The attribute name may come from a parameter.
    let mut c2 = with_live();
    c2.parameter_values
        .insert("NoDefault".into(), "BucketName".into());
    assert_eq!(
        eval_in(
            &t,
            json!({"Fn::GetAtt": ["Bucket", {"Ref": "NoDefault"}]}),
            &c2
        ),
        Some(s("my-bucket"))
    );
    // First pass (no live attributes): unresolved.
    assert_eq!(
        eval_in(&t, json!({"Fn::GetAtt": ["Bucket", "Arn"]}), &ctx()),
        Some(Unresolved)
    );
}

#[test]
fn sub_forms() {
    let t = base_template();
    let c = with_live();
    let cases = [
        (
            json!({"Fn::Sub": "${AWS::Region}-${Env}"}),
            s("us-east-1-prod"),
        ),
        (
            json!({"Fn::Sub": "${Bucket.Arn}/*"}),
            s("arn:aws:s3:::my-bucket/*"),
        ),
        (
            json!({"Fn::Sub": "${Db.Endpoint.Address}:${Db.Endpoint.Port}"}),
            s("db.example:5432"),
        ),
        (
            json!({"Fn::Sub": "${!Literal} and ${!AWS::Region}"}),
            s("${Literal} and ${AWS::Region}"),
        ),
        (json!({"Fn::Sub": "plain"}), s("plain")),
        (
            json!({"Fn::Sub": ["${A}-${B}-${Env}", {"A": "x", "B": {"Ref": "Bucket"}}]}),
            s("x-my-bucket-prod"),
        ),
        (
            json!({"Fn::Sub": ["${Env}", {"Env": "shadowed"}]}),
            s("shadowed"),
        ),
        (json!({"Fn::Sub": ["${N}", {"N": 7}]}), s("7")),
        (json!({"Fn::Sub": "${NoDefault}"}), Unresolved),
        (json!({"Fn::Sub": "${Azs}"}), Unresolved),
        (json!({"Fn::Sub": "${Unknown}"}), Unresolved),
        (json!({"Fn::Sub": "${Bucket.Missing}"}), Unresolved),
        (json!({"Fn::Sub": "${Open"}), Unresolved),
        (
            json!({"Fn::Sub": ["${A}", {"A": {"Ref": "AWS::NoValue"}}]}),
            Unresolved,
        ),
        (json!({"Fn::Sub": ["${A}", {"A": ["list"]}]}), Unresolved),
        (json!({"Fn::Sub": ["${A}", "not-a-map"]}), Unresolved),
        (json!({"Fn::Sub": 5}), Unresolved),
    ];
    for (raw, want) in cases {
        assert_eq!(eval_in(&t, raw.clone(), &c), Some(want), "{raw}");
    }
}

#[test]
fn join_select_split() {
    let t = base_template();
    let c = with_live();
    let cases = [
        (
            json!({"Fn::Join": ["-", ["a", {"Ref": "Env"}, 1, true]]}),
            s("a-prod-1-true"),
        ),
        (json!({"Fn::Join": [",", {"Ref": "Azs"}]}), s("a,b")),
        (json!({"Fn::Join": ["", []]}), s("")),
        (
            json!({"Fn::Join": ["-", ["a", {"Ref": "AWS::NoValue"}, "b"]]}),
            s("a-b"),
        ),
        (
            json!({"Fn::Join": ["-", ["a", {"Ref": "NoDefault"}]]}),
            Unresolved,
        ),
        (json!({"Fn::Join": ["-", ["a", ["nested"]]]}), Unresolved),
        (json!({"Fn::Join": ["-", "notalist"]}), Unresolved),
        (
            json!({"Fn::Join": [{"Ref": "NoDefault"}, ["a"]]}),
            Unresolved,
        ),
        (json!({"Fn::Select": [1, ["a", "b", "c"]]}), s("b")),
        (json!({"Fn::Select": ["2", ["a", "b", "c"]]}), s("c")),
        (json!({"Fn::Select": [0, {"Ref": "Azs"}]}), s("a")),
        (json!({"Fn::Select": [3, ["a", "b", "c"]]}), Unresolved),
        (json!({"Fn::Select": [-1, ["a"]]}), Unresolved),
        (json!({"Fn::Select": [0.5, ["a"]]}), Unresolved),
        (
            json!({"Fn::Select": [0, ["a", {"Ref": "NoDefault"}]]}),
            Unresolved,
        ),
        (json!({"Fn::Select": [0, {"Fn::GetAZs": ""}]}), Unresolved),
        (
            json!({"Fn::Select": [0, {"Fn::GetAtt": ["Db", "Arns"]}]}),
            s("x"),
        ),
        (
            json!({"Fn::Select": [0, [{"k": "v"}]]}),
            dv(json!({"k": "v"})),
        ),
        (
            json!({"Fn::Split": [":", "a:b::c"]}),
            dv(json!(["a", "b", "", "c"])),
        ),
        (
            json!({"Fn::Split": [":", {"Fn::GetAtt": ["Bucket", "Arn"]}]}),
            dv(json!(["arn", "aws", "s3", "", "", "my-bucket"])),
        ),
        (json!({"Fn::Split": ["", "abc"]}), Unresolved),
        (
            json!({"Fn::Split": [",", {"Ref": "NoDefault"}]}),
            Unresolved,
        ),
        (json!({"Fn::Split": [","]}), Unresolved),
    ];
    for (raw, want) in cases {
        assert_eq!(eval_in(&t, raw.clone(), &c), Some(want), "{raw}");
    }
}

#[test]
fn find_in_map_import_base64_cidr_getazs() {
    let t = base_template();
    let mut c = ctx();
    let cases = [
        (
            json!({"Fn::FindInMap": ["M", {"Ref": "Env"}, "Size"]}),
            s("large"),
        ),
        (
            json!({"Fn::FindInMap": ["M", "prod", "List"]}),
            dv(json!(["a", "b"])),
        ),
        (json!({"Fn::FindInMap": ["M", "dev", "Size"]}), Unresolved),
        (
            json!({"Fn::FindInMap": ["Nope", "prod", "Size"]}),
            Unresolved,
        ),
        (
            json!({"Fn::FindInMap": ["M", {"Ref": "NoDefault"}, "Size"]}),
            Unresolved,
        ),
        (
            json!({"Fn::FindInMap": ["M", "dev", "Size", {"DefaultValue": "small"}]}),
            s("small"),
        ),
        (json!({"Fn::FindInMap": ["M", "prod"]}), Unresolved),
        (json!({"Fn::ImportValue": "shared"}), Unresolved),
        (json!({"Fn::Base64": "hello"}), s("aGVsbG8=")),
        (json!({"Fn::Base64": {"Fn::Sub": "${Env}!"}}), s("cHJvZCE=")),
        (json!({"Fn::Base64": {"Ref": "NoDefault"}}), Unresolved),
        (json!({"Fn::Base64": ["x"]}), Unresolved),
        (
            json!({"Fn::Cidr": ["10.0.0.0/16", 2, 8]}),
            dv(json!(["10.0.0.0/24", "10.0.1.0/24"])),
        ),
        (
            json!({"Fn::Cidr": ["10.0.0.0/16", "2", "8"]}),
            dv(json!(["10.0.0.0/24", "10.0.1.0/24"])),
        ),
        (json!({"Fn::Cidr": ["10.0.0.0/24", 9, 5]}), Unresolved),
        (json!({"Fn::Cidr": ["fd00::/56", 2, 64]}), Unresolved),
        (
            json!({"Fn::Cidr": [{"Ref": "NoDefault"}, 2, 8]}),
            Unresolved,
        ),
        (json!({"Fn::GetAZs": ""}), Unresolved),
        (json!({"Fn::GetAZs": {"Ref": "AWS::Region"}}), Unresolved),
        (json!({"Fn::Transform": {"Name": "X"}}), Unresolved),
        (json!({"Fn::Length": [1, 2]}), Unresolved),
        (json!({"Fn::NotAThing": "x"}), Unresolved),
    ];
    for (raw, want) in &cases {
        assert_eq!(eval_in(&t, raw.clone(), &c), Some(want.clone()), "{raw}");
    }
    c.exports = Some(BTreeMap::from([(
        "shared".to_string(),
        "vpc-1".to_string(),
    )]));
    assert_eq!(
        eval_in(&t, json!({"Fn::ImportValue": "shared"}), &c),
        Some(s("vpc-1"))
    );
    assert_eq!(
        eval_in(&t, json!({"Fn::ImportValue": {"Fn::Sub": "sh${!x}"}}), &c),
        Some(Unresolved)
    );
    assert_eq!(
        eval_in(&t, json!({"Fn::ImportValue": "other"}), &c),
        Some(Unresolved)
    );
}

#[test]
fn if_and_conditions() {
    let t = base_template();
    let c = ctx();
    assert_eq!(evaluate_condition("IsProd", &t, &c), Some(true));
    assert_eq!(evaluate_condition("IsDev", &t, &c), Some(false));
    assert_eq!(evaluate_condition("CountIs3", &t, &c), Some(true));
    assert_eq!(evaluate_condition("Unknowable", &t, &c), None);
    assert_eq!(evaluate_condition("LoopA", &t, &c), None);
    assert_eq!(evaluate_condition("Missing", &t, &c), None);
    assert_eq!(evaluate_condition("Literal", &t, &c), None);
    // Kleene logic: a decisive known operand settles And/Or; otherwise unknown.
    assert_eq!(evaluate_condition("AndFalseUnknown", &t, &c), Some(false));
    assert_eq!(evaluate_condition("AndTrueUnknown", &t, &c), None);
    assert_eq!(evaluate_condition("OrTrueUnknown", &t, &c), Some(true));
    assert_eq!(evaluate_condition("OrFalseUnknown", &t, &c), None);

    let cases = [
        (json!({"Fn::If": ["IsProd", "yes", "no"]}), Some(s("yes"))),
        (json!({"Fn::If": ["IsDev", "yes", "no"]}), Some(s("no"))),
        (
            json!({"Fn::If": ["Unknowable", "yes", "no"]}),
            Some(Unresolved),
        ),
        (
            json!({"Fn::If": ["Missing", "yes", "no"]}),
            Some(Unresolved),
        ),
        (
            json!({"Fn::If": ["IsDev", "yes", {"Ref": "AWS::NoValue"}]}),
            None,
        ),
        (
            json!({"Fn::If": ["IsProd", {"Ref": "Env"}, {"Ref": "NoDefault"}]}),
            Some(s("prod")),
        ),
        (json!({"Fn::If": ["IsProd", "x"]}), Some(Unresolved)),
        (
            json!({"Fn::If": [{"Condition": "IsProd"}, "x", "y"]}),
            Some(Unresolved),
        ),
    ];
    for (raw, want) in cases {
        assert_eq!(eval_in(&t, raw.clone(), &c), want, "{raw}");
    }
    let mut dev = ctx();
    dev.parameter_values.insert("Env".into(), "dev".into());
    assert_eq!(evaluate_condition("IsProd", &t, &dev), Some(false));
    assert_eq!(evaluate_condition("IsDev", &t, &dev), Some(true));
}

#[test]
fn novalue_removes_keys_and_elements() {
    let t = base_template();
    let raw = json!({
        "Keep": 1,
        "Drop": {"Ref": "AWS::NoValue"},
        "List": ["a", {"Ref": "AWS::NoValue"}, {"Fn::If": ["IsDev", "x", {"Ref": "AWS::NoValue"}]}, "b"],
        "Nested": {"Inner": {"Fn::If": ["IsProd", {"Ref": "AWS::NoValue"}, 2]}}
    });
    assert_eq!(
        eval_in(&t, raw, &ctx()),
        Some(dv(json!({"Keep": 1, "List": ["a", "b"], "Nested": {}})))
    );
}

#[test]
fn condition_key_in_properties_is_data() {
    let t = base_template();
    let stmt =
        json!({"Condition": {"StringEquals": {"aws:SourceAccount": {"Ref": "AWS::AccountId"}}}});
    assert_eq!(
        eval_in(&t, stmt, &ctx()),
        Some(dv(
            json!({"Condition": {"StringEquals": {"aws:SourceAccount": "111111111111"}}})
        ))
    );
    // Two keys: plain object, each value resolved.
    assert_eq!(
        eval_in(&t, json!({"Ref": "Env", "Other": 1}), &ctx()),
        Some(dv(json!({"Ref": "Env", "Other": 1})))
    );
}

#[test]
fn unresolved_is_distinct_from_any_string() {
    let t = base_template();
    let v = eval_in(
        &t,
        json!({"A": {"Ref": "NoDefault"}, "B": "__cdkrd_corpus_unresolved__"}),
        &ctx(),
    )
    .unwrap();
    let DeclaredValue::Object(o) = v else {
        panic!()
    };
    assert_eq!(o["A"], Unresolved);
    assert_eq!(o["B"], s("__cdkrd_corpus_unresolved__"));
}

#[test]
fn cdk_fixture_first_and_second_pass() {
    let t = fixture("cdk-app.json");
    let mut c = ctx();
    c.physical_ids = BTreeMap::from([
        (
            "Queue4A7E3555".into(),
            "https://sqs.us-east-1.amazonaws.com/111111111111/q".into(),
        ),
        (
            "FnServiceRoleB9001A96".into(),
            "App-FnServiceRole-ABC".into(),
        ),
        ("Vpc".into(), "vpc-1".into()),
    ]);

    let queue = resolve_resource(&t, "Queue4A7E3555", &c).unwrap();
    assert_eq!(queue.resource_type, "AWS::SQS::Queue");
    assert_eq!(queue.construct_path.as_deref(), Some("App/Queue/Resource"));
    assert_eq!(queue.condition_active, Some(true));
    assert_eq!(queue.properties["MessageRetentionPeriod"], dv(json!(30)));
    assert_eq!(queue.properties["VisibilityTimeout"], dv(json!(300)));
    assert!(!queue.properties.contains_key("KmsMasterKeyId"));
    assert_eq!(
        queue.properties["Tags"],
        DeclaredValue::Array(vec![
            dv(json!({"Key": "env", "Value": "prod"})),
            DeclaredValue::Object(BTreeMap::from([
                ("Key".to_string(), s("az")),
                ("Value".to_string(), Unresolved),
            ])),
        ])
    );

    let bucket = resolve_resource(&t, "Bucket83908E77", &c).unwrap();
    assert_eq!(
        bucket.properties["BucketName"],
        s("data-111111111111-us-east-1")
    );
    let queue_arn = |b: &realdrift_core::template::ResolvedResource| {
        let DeclaredValue::Object(n) = &b.properties["NotificationConfiguration"] else {
            panic!()
        };
        let DeclaredValue::Array(q) = &n["QueueConfigurations"] else {
            panic!()
        };
        let DeclaredValue::Object(q0) = &q[0] else {
            panic!()
        };
        q0["Queue"].clone()
    };
    assert_eq!(
        queue_arn(&bucket),
        Unresolved,
        "first pass: no live attributes yet"
    );

    // Second pass with the live model of the queue.
    c.live_attrs.insert(
        "Queue4A7E3555".into(),
        json!({"Arn": "arn:aws:sqs:us-east-1:111111111111:q", "QueueUrl": "https://q"}),
    );
    c.live_attrs.insert(
        "Vpc".into(),
        json!({"CidrBlock": "10.0.0.0/16", "VpcId": "vpc-1"}),
    );
    let bucket = resolve_resource(&t, "Bucket83908E77", &c).unwrap();
    assert_eq!(
        queue_arn(&bucket),
        s("arn:aws:sqs:us-east-1:111111111111:q")
    );

    let role = resolve_resource(&t, "FnServiceRoleB9001A96", &c).unwrap();
    assert_eq!(
        role.properties["ManagedPolicyArns"],
        dv(json!([
            "arn:aws:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole"
        ]))
    );

    let subnet = resolve_resource(&t, "SubnetB", &c).unwrap();
    assert_eq!(subnet.properties["CidrBlock"], s("10.0.1.0/24"));
    assert_eq!(subnet.properties["VpcId"], s("vpc-1"));
    assert_eq!(subnet.properties["AvailabilityZone"], Unresolved);

    let instance = resolve_resource(&t, "Instance", &c).unwrap();
    assert_eq!(
        instance.properties["ImageId"], Unresolved,
        "SSM parameter value unknown"
    );
    assert_eq!(
        instance.properties["UserData"],
        s("IyEvYmluL2Jhc2gKZWNobyBBcHAgPiAvdG1wL3N0YWNrCg==")
    );
    assert_eq!(instance.properties["SubnetId"], Unresolved);
    assert_eq!(
        instance.properties["Tags"],
        DeclaredValue::Array(vec![DeclaredValue::Object(BTreeMap::from([
            ("Key".to_string(), s("Notify")),
            ("Value".to_string(), Unresolved),
        ]))])
    );

    let meta = resolve_resource(&t, "CDKMetadata", &c).unwrap();
    assert_eq!(
        meta.construct_path.as_deref(),
        Some("App/CDKMetadata/Default")
    );

    let extra = resolve_resource(&t, "ExtraPolicy", &c).unwrap();
    assert_eq!(extra.condition_active, Some(true), "IsProd decides the Or");
    assert_eq!(extra.properties["PolicyName"], s("extra-App"));
}

#[test]
fn secret_paths_cover_noecho_and_dynamic_references() {
    let t = fixture("cdk-app.json");
    let mut c = ctx();
    c.parameter_values
        .insert("DbPassword".into(), "****".into());
    let f = resolve_resource(&t, "Fn9270CBC0", &c).unwrap();
    let secrets: Vec<&str> = f.secret_paths.iter().map(String::as_str).collect();
    assert_eq!(
        secrets,
        vec![
            "Environment.Variables.API_KEY",
            "Environment.Variables.DB_PASSWORD"
        ]
    );
    let DeclaredValue::Object(env) = &f.properties["Environment"] else {
        panic!()
    };
    let DeclaredValue::Object(vars) = &env["Variables"] else {
        panic!()
    };
    assert_eq!(vars["DB_PASSWORD"], Unresolved);
    assert_eq!(
        vars["API_KEY"],
        s("{{resolve:secretsmanager:api-key:SecretString:key}}")
    );
    assert_eq!(vars["FIRST_SUBNET"], s("subnet-a"));
}

#[test]
fn secrets_inside_intrinsics_taint_the_whole_output_path() {
    let t = base_template();
    let doc = Template::parse(
        &json!({
            "Parameters": {"Secret": {"Type": "String", "NoEcho": true}},
            "Conditions": {"On": {"Fn::Equals": ["a", "a"]}},
            "Resources": {"R": {"Type": "X", "Properties": {
                "Joined": {"Fn::Join": ["", ["{{resolve:ssm-secure:", "p}}"]]},
                "Built": {"Fn::Join": ["", ["{{", "resolve:ssm:p}}"]]},
                "SubVar": {"Fn::Sub": ["u:${P}", {"P": {"Ref": "Secret"}}]},
                "Branch": {"Fn::If": ["On", {"User": "u", "Pass": "{{resolve:secretsmanager:s}}"}, "x"]},
                "List": ["plain", {"Ref": "Secret"}],
                "Plain": "not secret"
            }}}
        })
        .to_string(),
    )
    .unwrap();
    let _ = t;
    let r = resolve_resource(&doc, "R", &ctx()).unwrap();
    let secrets: Vec<&str> = r.secret_paths.iter().map(String::as_str).collect();
    assert_eq!(
        secrets,
        vec!["Branch.Pass", "Built", "Joined", "List.1", "SubVar"]
    );
    assert_eq!(r.properties["SubVar"], Unresolved);
}

#[test]
fn resource_condition_and_unknown_resource() {
    let t = fixture("handwritten.yaml");
    let c = ctx();
    let r = resolve_resource(&t, "Instance", &c).unwrap();
    assert_eq!(r.condition_active, Some(true));
    assert_eq!(
        resolve_resource(&t, "Nope", &c).unwrap_err(),
        TemplateError::UnknownResource("Nope".into())
    );
}

#[test]
fn yaml_fixture_resolves() {
    let t = fixture("handwritten.yaml");
    let mut c = ctx();
    c.live_attrs.insert(
        "Topic".into(),
        json!({"TopicArn": "arn:aws:sns:us-east-1:111111111111:App-dev-topic", "Nested": {"Attr": "ami-1"}}),
    );
    let topic = resolve_resource(&t, "Topic", &c).unwrap();
    let p = &topic.properties;
    assert_eq!(p["TopicName"], s("App-dev-topic"));
    assert_eq!(
        p["DisplayName"],
        s("alerts-dev ${NotAVar} arn:aws:sns:us-east-1:111111111111:App-dev-topic")
    );
    assert!(!p.contains_key("KmsMasterKeyId"));
    let DeclaredValue::Array(tags) = &p["Tags"] else {
        panic!()
    };
    let value = |i: usize| {
        let DeclaredValue::Object(o) = &tags[i] else {
            panic!()
        };
        o["Value"].clone()
    };
    assert_eq!(value(0), s("t3.micro"));
    assert_eq!(value(1), s("arn"));
    assert_eq!(value(2), Unresolved);
    assert_eq!(value(3), Unresolved);
    assert_eq!(value(4), s("123456789012"));
    assert_eq!(value(7), s("8080"));

    let inst = resolve_resource(&t, "Instance", &c).unwrap();
    let p = &inst.properties;
    assert_eq!(p["UserData"], s("IyEvYmluL2Jhc2gKZWNobyBoaQo="));
    assert_eq!(p["UserDataSub"], s("ZW52PWRldg=="));
    assert_eq!(p["ImageId"], s("ami-1"));
    assert_eq!(p["Cidrs"], dv(json!(["10.0.0.0/25", "10.0.0.128/25"])));
    assert_eq!(p["Nothing"], DeclaredValue::Null);
}

#[test]
fn whole_properties_intrinsic() {
    let t = Template::parse(
        &json!({
            "Conditions": {"On": {"Fn::Equals": ["a", "a"]}},
            "Resources": {
                "A": {"Type": "X", "Properties": {"Fn::If": ["On", {"K": {"Ref": "AWS::Region"}}, {"Ref": "AWS::NoValue"}]}},
                "B": {"Type": "X", "Properties": {"Fn::If": ["On", "str", {}]}}
            }
        })
        .to_string(),
    )
    .unwrap();
    let a = resolve_resource(&t, "A", &ctx()).unwrap();
    assert_eq!(
        a.properties,
        BTreeMap::from([("K".to_string(), s("us-east-1"))])
    );
    assert!(matches!(
        resolve_resource(&t, "B", &ctx()),
        Err(TemplateError::Shape { .. })
    ));
}

#[test]
fn very_deep_values_are_unresolved_not_a_crash() {
    let t = base_template();
    let mut v = json!("leaf");
    for _ in 0..300 {
        v = json!({ "k": v });
    }
    let out = resolve_value(&v, &t, &ctx()).unwrap();
    assert!(!out.is_fully_resolved());
}

#[test]
fn every_unresolved_leaf_says_which_intrinsic_failed() {
    let t = Template::parse(
        &json!({
            "Parameters": {"Pw": {"Type": "String", "NoEcho": true}},
            "Conditions": {"Maybe": {"Fn::Equals": [{"Ref": "AWS::NotificationARNs"}, "x"]}},
            "Resources": {
                "Table": {"Type": "AWS::DynamoDB::Table"},
                "Role": {"Type": "AWS::IAM::Role", "Properties": {
                    "Description": "fixed",
                    "Policies": [{"PolicyName": "p", "PolicyDocument": {"Statement": [{
                        "Effect": "Allow",
                        "Resource": [
                            {"Fn::GetAtt": ["Table", "Arn"]},
                            {"Fn::Join": ["/", [{"Fn::GetAtt": ["Table", "StreamArn"]}, "x"]]},
                            "arn:aws:s3:::fixed"
                        ]}]}}],
                    "Path": {"Fn::If": ["Maybe", "/a/", "/b/"]},
                    "RoleName": {"Fn::ImportValue": "shared-name"},
                    "MaxSessionDuration": {"Ref": "Pw"}
                }}
            }
        })
        .to_string(),
    )
    .unwrap();
    let mut c = ctx();
    c.live_attrs
        .insert("Table".into(), json!({"Arn": "arn:aws:dynamodb:t"}));
    let r = resolve_resource(&t, "Role", &c).unwrap();
    let leaves: Vec<(&str, &str)> = r
        .unresolved
        .iter()
        .map(|(p, w)| (p.as_str(), w.as_str()))
        .collect();
    assert_eq!(
        leaves,
        vec![
            (
                "MaxSessionDuration",
                "Ref Pw: a NoEcho parameter, its value is masked"
            ),
            ("Path", "Fn::If Maybe: the condition cannot be evaluated"),
            (
                "Policies.0.PolicyDocument.Statement.0.Resource.1",
                "Fn::GetAtt Table.StreamArn: the live model of Table has no StreamArn"
            ),
            (
                "RoleName",
                "Fn::ImportValue shared-name: exports unavailable"
            ),
        ]
    );
    // The resolved leaves next to them keep their values.
    let DeclaredValue::Array(policies) = &r.properties["Policies"] else {
        panic!("{:?}", r.properties["Policies"]);
    };
    let text = format!("{:?}", policies[0]);
    assert!(text.contains("arn:aws:dynamodb:t") && text.contains("arn:aws:s3:::fixed"));
    assert_eq!(r.properties["Description"], s("fixed"));
}

#[test]
fn unresolvable_whole_properties_are_an_error_naming_the_failure() {
    let t = Template::parse(
        &json!({
            "Parameters": {"Mode": {"Type": "String"}},
            "Conditions": {"Fast": {"Fn::Equals": [{"Ref": "Mode"}, "fast"]}},
            "Resources": {"Q": {"Type": "AWS::SQS::Queue",
                "Properties": {"Fn::If": ["Fast", {"DelaySeconds": 0}, {"DelaySeconds": 5}]}}}
        })
        .to_string(),
    )
    .unwrap();
    let e = resolve_resource(&t, "Q", &ctx()).unwrap_err();
    assert!(
        e.to_string()
            .contains("Fn::If Fast: the condition cannot be evaluated"),
        "{e}"
    );
}
