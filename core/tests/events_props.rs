//! Fuzzing the on-change path with proptest (cargo-fuzz needs a nightly
//! toolchain; the project builds on stable): arbitrary bytes, arbitrary
//! JSON, CloudTrail-shaped JSON and mutated real records go through parse,
//! filter, map, index resolution and coalescing. Nothing may panic, and
//! what an event yields stays bounded (the parser refuses input over
//! `MAX_EVENT_BYTES`, pointer reads stop at `MAX_VALUES_PER_POINTER`).
//!
//! 256 cases per property by default. A million inputs per property:
//!
//! ```sh
//! PROPTEST_CASES=1000000 cargo test --release -p realdrift-core --test events_props
//! ```

mod events_support;

use proptest::prelude::*;
use realdrift_core::declared::DeclaredValue;
use realdrift_core::events::{
    coalesce, event_from_value, parse_event, parse_record, Catalog, CloudTrailEvent, FilterConfig,
    IndexInput, ResourceIndex, Screener, Verdict, MAX_EVENT_BYTES, MAX_VALUES_PER_POINTER,
};
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// Real records (bare), parsed once.
fn real_values() -> &'static [Value] {
    static V: OnceLock<Vec<Value>> = OnceLock::new();
    V.get_or_init(|| {
        events_support::real_items()
            .iter()
            .map(|i| {
                let v: Value = serde_json::from_slice(&i.bytes).unwrap();
                if i.wrapped {
                    v["detail"].clone()
                } else {
                    v
                }
            })
            .collect()
    })
}

/// An index holding resources the real records and the generators name.
fn index() -> &'static ResourceIndex {
    static I: OnceLock<ResourceIndex> = OnceLock::new();
    I.get_or_init(|| {
        let catalog = Catalog::bundled().unwrap();
        let empty = BTreeMap::new();
        let mut bucket = BTreeMap::new();
        bucket.insert("Bucket".to_string(), DeclaredValue::String("test".into()));
        let rows: [(&str, &str, &str, &BTreeMap<String, DeclaredValue>); 6] = [
            ("B", "AWS::S3::Bucket", "test", &empty),
            ("P", "AWS::S3::BucketPolicy", "p", &bucket),
            (
                "R",
                "AWS::IAM::Role",
                "stratus-red-team-backdoor-r-role",
                &empty,
            ),
            (
                "F",
                "AWS::Lambda::Function",
                "stratus-red-team-backdoor-f-func",
                &empty,
            ),
            (
                "Q",
                "AWS::SQS::Queue",
                "https://sqs.us-east-1.amazonaws.com/123456789123/tmp",
                &empty,
            ),
            (
                "S",
                "AWS::EC2::SecurityGroup",
                "sg-04cfb7a4712d75b00",
                &empty,
            ),
        ];
        ResourceIndex::build(
            catalog,
            "123837392027",
            "us-east-1",
            rows.iter().map(|(l, t, p, d)| IndexInput {
                stack: "S",
                logical_id: l,
                resource_type: t,
                physical_id: p,
                declared: d,
            }),
        )
    })
}

/// Runs one parsed event through everything after parsing.
fn exercise(event: &CloudTrailEvent) {
    let catalog = Catalog::bundled().unwrap();
    let config = FilterConfig::new()
        .with_revert_role(catalog, "arn:aws:iam::123837392027:role/realdrift-revert")
        .unwrap();
    let screener = Screener::new(catalog, config);
    let _ = screener.map_record(event);
    if let Verdict::Accept(a) = screener.assess(event) {
        // Bounded output: at most MAX_VALUES_PER_POINTER values per
        // identifier spec and type (a few specs, at most two types each).
        assert!(a.touch.targets.len() <= 8 * MAX_VALUES_PER_POINTER);
        let view = index().view(catalog);
        let hits = view.resolve(&a.touch);
        assert!(hits.len() <= index().resources.len());
        let out = coalesce(std::slice::from_ref(&a), std::slice::from_ref(&view));
        assert!(out.resources.len() + out.unmatched.len() >= 1);
        let _ = serde_json::to_string(&out).unwrap();
    }
}

/// Strings that look like what CloudTrail carries, plus noise.
fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "[a-zA-Z0-9:/._|*-]{0,40}",
        Just("arn:aws:iam::123837392027:role/a/b/stratus-red-team-backdoor-r-role".to_string()),
        Just("arn:aws:sts::123837392027:assumed-role/realdrift-revert/x".to_string()),
        Just(
            "arn:aws:lambda:us-east-1:123837392027:function:stratus-red-team-backdoor-f-func:7"
                .to_string()
        ),
        Just("https://sqs.us-east-1.amazonaws.com/123456789123/tmp".to_string()),
        Just("cloudformation.amazonaws.com".to_string()),
        Just("sg-04cfb7a4712d75b00".to_string()),
        Just("test".to_string()),
        Just("UpdateFunctionCode20150331v2".to_string()),
    ]
}

const KEYS: &[&str] = &[
    "eventSource",
    "eventName",
    "eventType",
    "readOnly",
    "errorCode",
    "awsRegion",
    "recipientAccountId",
    "userIdentity",
    "sessionContext",
    "sessionIssuer",
    "arn",
    "type",
    "invokedBy",
    "requestParameters",
    "responseElements",
    "resources",
    "ARN",
    "bucketName",
    "functionName",
    "roleName",
    "policyName",
    "policyArn",
    "queueUrl",
    "topicArn",
    "groupId",
    "items",
    "resourceId",
    "subscriptionArn",
    "statementId",
    "qualifier",
    "detail",
    "detail-type",
    "managementEvent",
    "sourceIPAddress",
    "userAgent",
    "insightDetails",
    "eventID",
    "eventTime",
];

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<f64>().prop_map(|f| json!(f)),
        text().prop_map(Value::String),
    ];
    leaf.prop_recursive(5, 64, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..8).prop_map(Value::Array),
            prop::collection::vec((prop::sample::select(KEYS), inner), 0..8).prop_map(|kv| {
                Value::Object(
                    kv.into_iter()
                        .map(|(k, v)| (k.to_string(), v))
                        .collect::<Map<_, _>>(),
                )
            }),
        ]
    })
}

/// A CloudTrail-shaped record whose API is a table entry and whose other
/// fields are arbitrary.
fn shaped_record() -> impl Strategy<Value = Value> {
    let catalog = Catalog::bundled().unwrap();
    let entries: Vec<(String, String)> = catalog
        .table
        .entries()
        .iter()
        .map(|e| (e.event_source.clone(), e.event_name.clone()))
        .collect();
    (
        prop::sample::select(entries),
        json_value(),
        json_value(),
        json_value(),
        prop::option::of(any::<bool>()),
        json_value(),
    )
        .prop_map(|((source, name), req, resp, identity, read_only, resources)| {
            json!({
                "eventSource": source, "eventName": name, "eventType": "AwsApiCall",
                "readOnly": read_only, "awsRegion": "us-east-1", "recipientAccountId": "123837392027",
                "requestParameters": req, "responseElements": resp, "userIdentity": identity,
                "resources": resources
            })
        })
}

/// Every JSON path of a value (capped), for picking a mutation point.
fn paths(v: &Value, prefix: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    if out.len() > 2000 {
        return;
    }
    out.push(prefix.clone());
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                prefix.push(k.clone());
                paths(x, prefix, out);
                prefix.pop();
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                prefix.push(i.to_string());
                paths(x, prefix, out);
                prefix.pop();
            }
        }
        _ => {}
    }
}

fn at<'a>(v: &'a mut Value, path: &[String]) -> Option<&'a mut Value> {
    let mut cur = v;
    for seg in path {
        cur = match cur {
            Value::Object(m) => m.get_mut(seg)?,
            Value::Array(a) => a.get_mut(seg.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(cur)
}

/// Replaces, removes, wraps or empties the value at a chosen path.
fn mutate(v: &mut Value, pick: usize, op: u8, new: Value) {
    let mut all = Vec::new();
    paths(v, &mut Vec::new(), &mut all);
    let path = all[pick % all.len()].clone();
    match op % 4 {
        0 => {
            if let Some(x) = at(v, &path) {
                *x = new;
            }
        }
        1 => {
            if let Some((last, parent)) = path.split_last() {
                match at(v, parent) {
                    Some(Value::Object(m)) => {
                        m.remove(last);
                    }
                    Some(Value::Array(a)) => {
                        if let Ok(i) = last.parse::<usize>() {
                            if i < a.len() {
                                a.remove(i);
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
        2 => {
            if let Some(x) = at(v, &path) {
                *x = Value::Array(vec![x.take(), new]);
            }
        }
        _ => {
            if let Some(x) = at(v, &path) {
                *x = match x {
                    Value::Object(_) => json!({}),
                    Value::Array(_) => json!([]),
                    Value::String(_) => json!(""),
                    _ => Value::Null,
                };
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::default())]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        if let Ok(e) = parse_event(&bytes) { exercise(&e); }
        if let Ok(e) = parse_record(&bytes) { exercise(&e); }
    }

    #[test]
    fn arbitrary_json_never_panics(v in json_value()) {
        let bytes = serde_json::to_vec(&v).unwrap();
        if let Ok(e) = parse_record(&bytes) { exercise(&e); }
        if let Ok(e) = event_from_value(v) { exercise(&e); }
    }

    #[test]
    fn shaped_records_never_panic(r in shaped_record()) {
        let bytes = serde_json::to_vec(&r).unwrap();
        let e = parse_record(&bytes).unwrap();
        exercise(&e);
        let wrapped = json!({"detail-type": "AWS API Call via CloudTrail", "detail": r});
        let e = parse_event(&serde_json::to_vec(&wrapped).unwrap()).unwrap();
        exercise(&e);
    }

    #[test]
    fn mutated_real_records_never_panic(
        which in any::<prop::sample::Index>(),
        edits in prop::collection::vec((any::<usize>(), any::<u8>(), json_value()), 1..6),
        cut in any::<prop::sample::Index>(),
    ) {
        let records = real_values();
        let mut r = records[which.index(records.len())].clone();
        for (pick, op, new) in edits {
            mutate(&mut r, pick, op, new);
        }
        let bytes = serde_json::to_vec(&r).unwrap();
        if let Ok(e) = parse_record(&bytes) { exercise(&e); }
        // A truncated message (a strict prefix of an object) is malformed
        // JSON: an error naming it, never a panic.
        let end = cut.index(bytes.len());
        prop_assert!(parse_record(&bytes[..end]).is_err());
        let wrapped = json!({"detail-type": "AWS API Call via CloudTrail", "source": "aws.x", "detail": r});
        if let Ok(e) = parse_event(&serde_json::to_vec(&wrapped).unwrap()) { exercise(&e); }
    }
}

#[test]
fn input_over_the_cap_is_refused_without_parsing() {
    // A valid event padded past the cap: refused by size, whatever it holds.
    let mut body = serde_json::to_vec(
        &json!({"detail-type": "x", "detail": {"eventSource": "s", "eventName": "n"}}),
    )
    .unwrap();
    body.resize(MAX_EVENT_BYTES + 1, b' ');
    assert!(parse_event(&body).is_err());
    // Deeply nested JSON hits the recursion limit, not the stack.
    let deep = format!(
        "{{\"detail-type\":\"x\",\"detail\":{}}}",
        "[".repeat(50_000)
    );
    assert!(parse_event(deep.as_bytes()).is_err());
}
