//! Property tests: parsing and resolving never panic on arbitrary input.

use proptest::prelude::*;
use realdrift_core::template::{
    parse_document, resolve_resource, resolve_value, sibling_policy_names, ResolverContext,
    Template,
};
use serde_json::{json, Map, Value};

/// YAML-ish text: fragments that exercise indentation, flow, tags, anchors and quoting.
fn yamlish() -> impl Strategy<Value = String> {
    let fragment = prop_oneof![
        Just("\n".to_string()),
        Just("  ".to_string()),
        Just("- ".to_string()),
        Just(": ".to_string()),
        Just("Resources:".to_string()),
        Just("Type: AWS::S3::Bucket".to_string()),
        Just("!Ref ".to_string()),
        Just("!GetAtt a.b".to_string()),
        Just("!Sub '${X}'".to_string()),
        Just("!If [".to_string()),
        Just("!!str ".to_string()),
        Just("!!binary ".to_string()),
        Just("!<tag:x> ".to_string()),
        Just("%TAG ! tag:x:\n---\n".to_string()),
        Just("&a ".to_string()),
        Just("*a".to_string()),
        Just("[".to_string()),
        Just("]".to_string()),
        Just("{".to_string()),
        Just("}".to_string()),
        Just(", ".to_string()),
        Just("? ".to_string()),
        Just("|\n".to_string()),
        Just(">-\n".to_string()),
        Just("'".to_string()),
        Just("\"".to_string()),
        Just("#".to_string()),
        Just("---\n".to_string()),
        Just("...\n".to_string()),
        Just("\t".to_string()),
        "[a-zA-Z0-9_.:~-]{0,6}",
    ];
    prop::collection::vec(fragment, 0..40).prop_map(|v| v.concat())
}

/// Intrinsic names, known and unknown.
const FUNCTIONS: [&str; 18] = [
    "Ref",
    "Fn::GetAtt",
    "Fn::Sub",
    "Fn::Join",
    "Fn::Select",
    "Fn::Split",
    "Fn::If",
    "Fn::FindInMap",
    "Fn::ImportValue",
    "Fn::Base64",
    "Fn::Cidr",
    "Fn::GetAZs",
    "Fn::Equals",
    "Fn::And",
    "Fn::Or",
    "Fn::Not",
    "Condition",
    "Fn::Unknown",
];

/// Names likely to hit parameters, resources, conditions, mappings and pseudo parameters.
fn name() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("P".to_string()),
        Just("L".to_string()),
        Just("S".to_string()),
        Just("R".to_string()),
        Just("C".to_string()),
        Just("Loop".to_string()),
        Just("M".to_string()),
        Just("AWS::NoValue".to_string()),
        Just("AWS::Region".to_string()),
        Just("AWS::NotificationARNs".to_string()),
        Just("R.Arn".to_string()),
        Just("${P}-${R.Arn}-${!x}".to_string()),
        Just("{{resolve:ssm:x}}".to_string()),
        Just("10.0.0.0/16".to_string()),
        "[a-z0-9${}.:/!]{0,8}",
    ]
}

/// Arbitrary JSON with intrinsics nested anywhere.
fn value_with_intrinsics() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        (-1e9f64..1e9).prop_map(|f| json!(f)),
        (0u64..10).prop_map(|n| json!(n)),
        name().prop_map(Value::String),
    ];
    leaf.prop_recursive(6, 96, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::btree_map("[A-Za-z:]{1,6}", inner.clone(), 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect::<Map<_, _>>())),
            (prop::sample::select(FUNCTIONS.to_vec()), inner.clone()).prop_map(|(f, arg)| {
                let mut m = Map::new();
                m.insert(f.to_string(), arg);
                Value::Object(m)
            }),
            (
                prop::sample::select(FUNCTIONS.to_vec()),
                prop::collection::vec(inner, 0..5)
            )
                .prop_map(|(f, args)| {
                    let mut m = Map::new();
                    m.insert(f.to_string(), Value::Array(args));
                    Value::Object(m)
                }),
        ]
    })
}

fn template_with(props: Value, condition: Value) -> Template {
    let doc = json!({
        "Parameters": {
            "P": {"Type": "String", "Default": "p"},
            "L": {"Type": "CommaDelimitedList", "Default": "a,b"},
            "S": {"Type": "String", "NoEcho": true}
        },
        "Mappings": {"M": {"k": {"v": "x"}}},
        "Conditions": {"C": condition, "Loop": {"Condition": "Loop"}},
        "Resources": {
            "R": {"Type": "AWS::IAM::Role", "Properties": props.clone()},
            "Pol": {"Type": "AWS::IAM::Policy", "Condition": "C",
                    "Properties": {"PolicyName": props, "Roles": [{"Ref": "R"}]}}
        }
    });
    Template::from_value(doc).unwrap_or_default()
}

fn context() -> ResolverContext {
    let mut c = ResolverContext::new("111111111111", "us-east-1", "S");
    c.physical_ids.insert("R".into(), "role".into());
    c.live_attrs.insert(
        "R".into(),
        json!({"Arn": "arn:aws:iam::1:role/r", "List": [1, 2]}),
    );
    c
}

proptest! {
    // 256 cases by default (fast); PROPTEST_CASES raises it for a soak run.
    #![proptest_config(ProptestConfig::default())]

    #[test]
    fn parse_never_panics_on_any_string(text in any::<String>()) {
        let _ = Template::parse(&text);
    }

    #[test]
    fn yaml_reader_never_panics_on_yamlish_text(text in yamlish()) {
        let _ = parse_document(&text);
        let _ = Template::parse(&format!("Resources:\n  A:\n    Type: X\n    Properties:\n      P: {text}"));
    }

    #[test]
    fn resolver_never_panics(v in value_with_intrinsics(), cond in value_with_intrinsics()) {
        let props = match &v {
            Value::Object(_) => v.clone(),
            _ => json!({"Prop": v.clone()}),
        };
        let t = template_with(props, cond);
        let c = context();
        let _ = resolve_value(&v, &t, &c);
        if t.resources.contains_key("R") {
            let r = resolve_resource(&t, "R", &c).unwrap_or_default();
            let raw = &t.resources["R"].properties;
            let whole_intrinsic = raw.len() == 1
                && raw.keys().all(|k| k == "Ref" || k.starts_with("Fn::"));
            if !whole_intrinsic {
                // A secret path always starts at a declared property.
                for p in &r.secret_paths {
                    let top = p.split('.').next().unwrap_or("");
                    prop_assert!(raw.contains_key(top), "{} not under {:?}", p, raw.keys());
                }
            }
            let _ = sibling_policy_names(&t, &c);
        }
    }

    #[test]
    fn plain_json_resolves_to_itself(v in plain_json()) {
        // No intrinsic anywhere: resolution is the identity.
        let t = Template::default();
        let out = resolve_value(&v, &t, &ResolverContext::default());
        prop_assert_eq!(out.and_then(|d| d.to_json()), Some(v));
    }

    #[test]
    fn json_round_trips_through_parse_document(v in plain_json()) {
        let text = serde_json::to_string(&json!({"Resources": {}, "X": v})).unwrap();
        let doc = parse_document(&text).unwrap();
        prop_assert_eq!(&doc["X"], &v);
    }
}

/// JSON with no intrinsic-looking objects (no single `Ref`/`Fn::*` key objects).
fn plain_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        "[a-z ]{0,8}".prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 48, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::btree_map("[a-z]{1,5}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect::<Map<_, _>>())),
        ]
    })
}
