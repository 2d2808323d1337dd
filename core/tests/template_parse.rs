//! Template parsing: JSON and YAML bodies, short tags, positions of errors, shape errors.

use realdrift_core::template::{parse_document, template_hash, Template, TemplateError};
use serde_json::{json, Value};

fn fixture(name: &str) -> String {
    let path = format!(
        "{}/tests/fixtures/templates/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path).unwrap()
}

fn yaml(text: &str) -> Value {
    parse_document(text).unwrap()
}

#[test]
fn cdk_json_fixture_has_its_sections() {
    let t = Template::parse(&fixture("cdk-app.json")).unwrap();
    assert_eq!(t.parameters.len(), 4);
    assert!(t.parameters["DbPassword"].no_echo);
    assert!(t.parameters["Subnets"].is_list());
    assert!(t.parameters["BootstrapVersion"].is_ssm_lookup());
    assert_eq!(t.conditions.len(), 6);
    assert_eq!(t.resources.len(), 10);
    let fun = &t.resources["Fn9270CBC0"];
    assert_eq!(fun.resource_type, "AWS::Lambda::Function");
    assert_eq!(fun.construct_path.as_deref(), Some("App/Fn/Resource"));
    assert_eq!(
        fun.depends_on,
        vec![
            "FnServiceRoleDefaultPolicyC6A839BF",
            "FnServiceRoleB9001A96"
        ]
    );
    assert_eq!(
        t.resources["ExtraPolicy"].condition.as_deref(),
        Some("IsProdOrUnknownAz")
    );
    assert_eq!(
        t.resources["Queue4A7E3555"].deletion_policy,
        Some(json!("Delete"))
    );
    assert_eq!(t.resources["Vpc"].construct_path, None);
    assert!(t.outputs.contains_key("QueueUrl"));
}

#[test]
fn yaml_fixture_converts_every_short_tag() {
    let t = Template::parse(&fixture("handwritten.yaml")).unwrap();
    assert_eq!(t.format_version.as_deref(), Some("2010-09-09"));
    assert_eq!(
        t.conditions["IsProd"],
        json!({"Fn::Equals": [{"Ref": "Env"}, "prod"]})
    );
    assert_eq!(
        t.conditions["IsDev"],
        json!({"Fn::Not": [{"Condition": "IsProd"}]})
    );
    assert_eq!(
        t.conditions["Both"],
        json!({"Fn::And": [{"Condition": "IsDev"}, {"Fn::Equals": [{"Ref": "AWS::Region"}, "eu-west-1"]}]})
    );
    assert_eq!(
        t.conditions["Either"],
        json!({"Fn::Or": [{"Condition": "IsProd"}, {"Condition": "IsDev"}]})
    );
    let topic = &t.resources["Topic"];
    assert_eq!(topic.construct_path.as_deref(), Some("Hand/Topic"));
    let p = &topic.properties;
    assert_eq!(
        p["TopicName"],
        json!({"Fn::Sub": "${AWS::StackName}-${Env}-topic"})
    );
    assert_eq!(
        p["DisplayName"],
        json!({"Fn::Sub": ["${Prefix} ${!NotAVar} ${Topic.TopicArn}",
            {"Prefix": {"Fn::Join": ["-", ["alerts", {"Ref": "Env"}]]}}]})
    );
    assert_eq!(
        p["KmsMasterKeyId"],
        json!({"Fn::If": ["IsProd", "alias/prod", {"Ref": "AWS::NoValue"}]})
    );
    let tags = p["Tags"].as_array().unwrap();
    assert_eq!(
        tags[0]["Value"],
        json!({"Fn::FindInMap": ["Sizes", {"Ref": "Env"}, "Instance"]})
    );
    assert_eq!(
        tags[1]["Value"],
        json!({"Fn::Select": [0, {"Fn::Split": [":", {"Fn::GetAtt": ["Topic", "TopicArn"]}]}]})
    );
    assert_eq!(tags[2]["Value"], json!({"Fn::ImportValue": "shared-name"}));
    assert_eq!(
        tags[3]["Value"],
        json!({"Fn::Select": [0, {"Fn::GetAZs": ""}]})
    );
    assert_eq!(tags[4]["Value"], json!("123456789012"));
    assert_eq!(
        tags[5]["Value"],
        json!("012345678901"),
        "a leading zero keeps the text"
    );
    assert_eq!(
        tags[6]["Value"],
        json!("yes"),
        "YAML 1.2: yes is not a boolean"
    );
    let inst = &t.resources["Instance"];
    assert_eq!(inst.condition.as_deref(), Some("Either"));
    assert_eq!(inst.depends_on, vec!["Topic"]);
    let p = &inst.properties;
    assert_eq!(
        p["UserData"],
        json!({"Fn::Base64": "#!/bin/bash\necho hi\n"})
    );
    assert_eq!(
        p["UserDataSub"],
        json!({"Fn::Base64": {"Fn::Sub": "env=${Env}"}})
    );
    assert_eq!(
        p["ImageId"],
        json!({"Fn::GetAtt": ["Topic", "Nested.Attr"]})
    );
    assert_eq!(p["Cidrs"], json!({"Fn::Cidr": ["10.0.0.0/24", 2, 7]}));
    assert_eq!(p["Enabled"], json!(true));
    assert_eq!(p["Count"], json!(3));
    assert_eq!(p["Ratio"], json!(0.5));
    assert_eq!(p["Nothing"], Value::Null);
    assert_eq!(p["Block"], json!("folded text\n"));
    assert_eq!(p["Anchored"], json!({"Key": "v"}));
    assert_eq!(p["Aliased"], json!({"Key": "v"}));
    assert_eq!(t.outputs["TopicArn"], json!({"Value": {"Ref": "Topic"}}));
}

#[test]
fn getatt_short_form_splits_at_first_dot() {
    assert_eq!(
        yaml("v: !GetAtt Db.Endpoint.Address"),
        json!({"v": {"Fn::GetAtt": ["Db", "Endpoint.Address"]}})
    );
    assert_eq!(
        yaml("v: !GetAtt [Db, Endpoint.Port]"),
        json!({"v": {"Fn::GetAtt": ["Db", "Endpoint.Port"]}})
    );
}

#[test]
fn each_short_tag_has_its_long_form() {
    let cases = [
        ("!Ref X", json!({"Ref": "X"})),
        ("!Sub 'a-${X}'", json!({"Fn::Sub": "a-${X}"})),
        ("!If [C, 1, 2]", json!({"Fn::If": ["C", 1, 2]})),
        ("!Join ['', [a, b]]", json!({"Fn::Join": ["", ["a", "b"]]})),
        (
            "!Select ['1', [a, b]]",
            json!({"Fn::Select": ["1", ["a", "b"]]}),
        ),
        ("!Split [',', 'a,b']", json!({"Fn::Split": [",", "a,b"]})),
        (
            "!FindInMap [M, K, V]",
            json!({"Fn::FindInMap": ["M", "K", "V"]}),
        ),
        ("!ImportValue Name", json!({"Fn::ImportValue": "Name"})),
        ("!Base64 text", json!({"Fn::Base64": "text"})),
        (
            "!Cidr [10.0.0.0/16, 2, 8]",
            json!({"Fn::Cidr": ["10.0.0.0/16", 2, 8]}),
        ),
        ("!GetAZs ''", json!({"Fn::GetAZs": ""})),
        ("!GetAZs", json!({"Fn::GetAZs": ""})),
        ("!Condition C", json!({"Condition": "C"})),
        ("!Equals [a, b]", json!({"Fn::Equals": ["a", "b"]})),
        (
            "!And [!Condition A, !Condition B]",
            json!({"Fn::And": [{"Condition": "A"}, {"Condition": "B"}]}),
        ),
        (
            "!Or [!Condition A, !Condition B]",
            json!({"Fn::Or": [{"Condition": "A"}, {"Condition": "B"}]}),
        ),
        (
            "!Not [!Condition A]",
            json!({"Fn::Not": [{"Condition": "A"}]}),
        ),
        ("!Ref 123", json!({"Ref": "123"})),
        (
            "!Transform {Name: X}",
            json!({"Fn::Transform": {"Name": "X"}}),
        ),
    ];
    for (src, want) in cases {
        assert_eq!(yaml(&format!("v: {src}")), json!({ "v": want }), "{src}");
    }
}

#[test]
fn nested_short_tags() {
    let want = json!({"v": {"Fn::Base64": {"Fn::Sub": "${AWS::Region}"}}});
    assert_eq!(yaml("v: !Base64\n  Fn::Sub: '${AWS::Region}'"), want);
    assert_eq!(yaml("v:\n  Fn::Base64: !Sub '${AWS::Region}'"), want);
    // A YAML node carries one tag; CloudFormation forbids `!Base64 !Sub` too.
    assert!(matches!(
        parse_document("v: !Base64 !Sub x"),
        Err(TemplateError::Yaml { line: 1, .. })
    ));
}

#[test]
fn scalar_typing_and_core_tags() {
    let v = yaml(
        "a: '123'\nb: 123\nc: \"true\"\nd: true\ne: !!str 42\nf: !!int '7'\ng: 1.0e2\nh: 2012-10-17\ni: null\nj: ! 5\n",
    );
    assert_eq!(
        v,
        json!({"a": "123", "b": 123, "c": "true", "d": true, "e": "42", "f": 7,
               "g": 100.0, "h": "2012-10-17", "i": null, "j": "5"})
    );
}

#[test]
fn json_detection_and_flow_yaml_fallback() {
    assert_eq!(parse_document(" {\"a\": [1]} ").unwrap(), json!({"a": [1]}));
    // Not JSON, but valid flow YAML.
    assert_eq!(parse_document("{a: b}").unwrap(), json!({"a": "b"}));
    assert_eq!(
        parse_document("\u{feff}{\"a\": 1}").unwrap(),
        json!({"a": 1})
    );
}

#[test]
fn malformed_json_names_line_and_column() {
    let err = Template::parse("{\n  \"Resources\": {\n    \"A\": [,]\n  }\n}").unwrap_err();
    match &err {
        TemplateError::Json {
            line,
            column,
            message,
        } => {
            assert_eq!(*line, 3);
            assert_eq!(*column, 11);
            assert!(!message.contains("at line"), "{message}");
        }
        other => panic!("expected a JSON error, got {other:?}"),
    }
    assert!(err.to_string().contains("line 3, column 11"), "{err}");
}

#[test]
fn malformed_yaml_names_line_and_column() {
    let err = Template::parse("Resources:\n  A:\n    Type: [unclosed\n  B: x\n").unwrap_err();
    let TemplateError::Yaml { line, .. } = err else {
        panic!("expected a YAML error, got {err:?}");
    };
    assert!((3..=5).contains(&line), "line {line}");

    let err = Template::parse("Resources:\n  A: 1\n   bad: 2\n").unwrap_err();
    assert!(
        matches!(err, TemplateError::Yaml { line: 3, .. }),
        "{err:?}"
    );
}

#[test]
fn duplicate_yaml_keys_are_refused_with_position() {
    let err = Template::parse("Resources:\n  A:\n    Type: X\n  A:\n    Type: Y\n").unwrap_err();
    match err {
        TemplateError::Yaml {
            line,
            column,
            message,
        } => {
            assert_eq!((line, column), (4, 3));
            assert!(message.contains("duplicate"), "{message}");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn refused_yaml_features() {
    for (src, needle) in [
        ("a: 1\n---\nb: 2\n", "more than one"),
        ("? [a, b]\n: c\n", "complex"),
        ("a: !!set {x}\n", "unsupported tag"),
        ("a: *nope\n", ""),
    ] {
        let err = parse_document(src).unwrap_err();
        assert!(matches!(err, TemplateError::Yaml { .. }), "{src}: {err:?}");
        assert!(err.to_string().contains(needle), "{src}: {err}");
    }
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let deep = format!("{}1{}", "{\"a\":".repeat(5000), "}".repeat(5000));
    assert!(matches!(
        parse_document(&deep),
        Err(TemplateError::Json { .. })
    ));
    let deep_yaml = format!("a: {}1{}", "[".repeat(5000), "]".repeat(5000));
    assert!(matches!(
        parse_document(&deep_yaml),
        Err(TemplateError::Yaml { .. })
    ));
}

#[test]
fn alias_bombs_are_refused() {
    let mut src = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 1..10 {
        let prev = i - 1;
        src.push_str(&format!(
            "a{i}: &a{i} [*a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}]\n"
        ));
    }
    let err = parse_document(&src).unwrap_err();
    assert!(err.to_string().contains("too large"), "{err}");
}

#[test]
fn shape_errors_name_the_place() {
    let cases = [
        ("", "empty"),
        ("   \n", "empty"),
        ("[1, 2]", "(template)"),
        ("Description: x\n", "Resources"),
        ("Resources: [a]\n", "Resources"),
        ("Resources:\n  Bucket: 5\n", "Resources.Bucket"),
        (
            "Resources:\n  Bucket:\n    Properties: {}\n",
            "Resources.Bucket",
        ),
        (
            "Resources:\n  Bucket:\n    Type: X\n    Properties: [1]\n",
            "Resources.Bucket.Properties",
        ),
        (
            "Resources:\n  Bucket:\n    Type: X\n    DependsOn: {a: b}\n",
            "Resources.Bucket.DependsOn",
        ),
        ("Parameters:\n  P: 1\nResources: {}\n", "Parameters.P"),
        (
            "Parameters:\n  P: {Default: 1}\nResources: {}\n",
            "Parameters.P",
        ),
    ];
    for (src, needle) in cases {
        let err = Template::parse(src).unwrap_err();
        assert!(err.to_string().contains(needle), "{src:?} -> {err}");
    }
}

#[test]
fn template_hash_is_hex_sha256_of_the_body() {
    assert_eq!(
        template_hash(""),
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    );
    assert_eq!(
        template_hash("abc"),
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
    assert_ne!(template_hash("{}"), template_hash("{} "));
}
