//! Issue 49: a custom resource's provider function is a deployment. The
//! index records the provider functions of a CDK-synthesized template
//! (`fixtures/templates/cdk-custom-resources.json`, aws-cdk-lib 2.276.0: a
//! bucket with an SQS notification, which CDK writes through its
//! `Custom::S3BucketNotifications` handler, and a `CustomResource` behind
//! the CDK Provider framework whose user handler `TagBucket` may write the
//! bucket); a real record's call made with a provider's execution role is
//! then recognised as that custom resource's, and nothing else is.

mod events_support;

use events_support::real_items;
use realdrift_core::declared::DeclaredValue;
use realdrift_core::events::{
    parse_record, provider_rows, Catalog, Cause, DeployerKind, FilterConfig, IndexInput,
    ProviderInput, ProviderRow, ResourceIndex, Screener, Verdict,
};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::PathBuf;

const ACCOUNT: &str = "123837392027";
const REGION: &str = "us-east-1";
const STACK: &str = "CrFixture";

/// The physical id CloudFormation would give a logical id.
fn physical(logical: &str) -> String {
    format!("{STACK}-{logical}-AbC123")
}

fn arn_of(resources: &Value, logical: &str) -> Value {
    let pid = physical(logical);
    match resources[logical]["Type"].as_str() {
        Some("AWS::Lambda::Function") => {
            json!(format!("arn:aws:lambda:{REGION}:{ACCOUNT}:function:{pid}"))
        }
        Some("AWS::IAM::Role") => json!(format!("arn:aws:iam::{ACCOUNT}:role/{pid}")),
        _ => json!({"unresolved": logical}),
    }
}

/// What the scan resolves: `Fn::GetAtt [X, Arn]` -> X's ARN.
fn resolve(v: &Value, resources: &Value) -> Value {
    match v {
        Value::Object(m) if m.len() == 1 && m.contains_key("Fn::GetAtt") => {
            let att = &m["Fn::GetAtt"];
            arn_of(resources, att[0].as_str().unwrap())
        }
        Value::Object(m) => Value::Object(
            m.iter()
                .map(|(k, v)| (k.clone(), resolve(v, resources)))
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(|v| resolve(v, resources)).collect()),
        other => other.clone(),
    }
}

struct Gathered {
    rows: Vec<(String, String, String, BTreeMap<String, DeclaredValue>)>,
}

fn gathered() -> Gathered {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/templates/cdk-custom-resources.json");
    let template: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    let resources = &template["Resources"];
    let mut rows = Vec::new();
    for (logical, r) in resources.as_object().unwrap() {
        let props = resolve(&r["Properties"], resources);
        let declared = match DeclaredValue::from_json(&props) {
            DeclaredValue::Object(m) => m,
            _ => BTreeMap::new(),
        };
        let ty = r["Type"].as_str().unwrap().to_string();
        let pid = if ty == "AWS::S3::Bucket" {
            "stratus-red-team-ctes-bucket-qyxyekjbtk".to_string()
        } else {
            physical(logical)
        };
        rows.push((logical.clone(), ty, pid, declared));
    }
    Gathered { rows }
}

impl Gathered {
    fn providers(&self) -> Vec<ProviderRow> {
        let catalog = Catalog::bundled().unwrap();
        let inputs: Vec<ProviderInput<'_>> = self
            .rows
            .iter()
            .map(|(l, t, p, d)| ProviderInput {
                logical_id: l,
                resource_type: t,
                physical_id: Some(p),
                declared: d,
                live: None,
            })
            .collect();
        provider_rows(&catalog.facts.custom_resources, STACK, &inputs)
    }

    fn index(&self) -> ResourceIndex {
        let catalog = Catalog::bundled().unwrap();
        let mut index = ResourceIndex::build(
            catalog,
            ACCOUNT,
            REGION,
            self.rows.iter().map(|(l, t, p, d)| IndexInput {
                stack: STACK,
                logical_id: l,
                resource_type: t,
                physical_id: p,
                declared: d,
            }),
        );
        index.providers = self.providers();
        index.sort();
        index
    }
}

fn logical_of(prefix: &str, g: &Gathered) -> String {
    g.rows
        .iter()
        .find(|(l, _, _, _)| l.starts_with(prefix))
        .map(|(l, ..)| l.clone())
        .unwrap()
}

#[test]
fn the_index_records_the_notifications_handler_the_provider_framework_and_its_user_handler() {
    let g = gathered();
    let rows: Vec<(String, String, String, Option<String>)> = g
        .providers()
        .into_iter()
        .map(|p| (p.custom_resource, p.function, p.role_arn, p.via))
        .collect();
    let f = |prefix: &str| physical(&logical_of(prefix, &g));
    let role = |prefix: &str| format!("arn:aws:iam::{ACCOUNT}:role/{}", f(prefix));
    let notifications = logical_of("DataNotifications5", &g);
    let mut want = vec![
        (
            notifications,
            f("BucketNotificationsHandler050a0587b7544547bf325f094a3db8347"),
            role("BucketNotificationsHandler050a0587b7544547bf325f094a3db834Role"),
            None,
        ),
        (
            "BucketTags".to_string(),
            f("TagProviderframeworkonEvent9"),
            role("TagProviderframeworkonEventServiceRole"),
            None,
        ),
        (
            "BucketTags".to_string(),
            f("TagBucket5"),
            role("TagBucketServiceRole"),
            Some(f("TagProviderframeworkonEvent9")),
        ),
    ];
    want.sort();
    let mut got = rows;
    got.sort();
    assert_eq!(got, want);
}

#[test]
fn a_function_outside_the_stack_or_an_unresolved_token_gives_no_row() {
    let mut g = gathered();
    for (l, _, _, d) in g.rows.iter_mut() {
        if l == "BucketTags" {
            d.insert(
                "ServiceToken".into(),
                DeclaredValue::String(format!(
                    "arn:aws:lambda:{REGION}:{ACCOUNT}:function:elsewhere"
                )),
            );
        }
        if l.starts_with("DataNotifications") {
            d.insert("ServiceToken".into(), DeclaredValue::Unresolved);
        }
    }
    assert_eq!(g.providers(), vec![]);
}

/// A real S3 write record (invictus-ir PutBucketTagging) made, instead of
/// by an IAM user, with the Lambda session shape of a real record
/// (Cloud Custodian's function: `assumed-role/<role>/<function>`).
fn provider_record(role: &str, function: &str) -> Vec<u8> {
    let item = real_items()
        .into_iter()
        .find(|i| i.selector == "b58e2c0b-f75b-4f05-a0e9-15e9b9bfecef")
        .unwrap();
    let mut record: Value = serde_json::from_slice(&item.bytes).unwrap();
    let session = real_items()
        .into_iter()
        .find(|i| {
            i.file == "cloud-custodian_cwe-fixtures.json" && {
                let v: Value = serde_json::from_slice(&i.bytes).unwrap();
                v["userIdentity"]["arn"]
                    .as_str()
                    .is_some_and(|a| a.ends_with("/custodian-net-change-encryption"))
            }
        })
        .unwrap();
    let text = String::from_utf8(session.bytes)
        .unwrap()
        .replace("644160558196", ACCOUNT)
        .replace("CloudCustodianRole", role)
        .replace("custodian-net-change-encryption", function);
    let session: Value = serde_json::from_str(&text).unwrap();
    record["userIdentity"] = session["userIdentity"].clone();
    record["userAgent"] = session["userAgent"].clone();
    serde_json::to_vec(&record).unwrap()
}

fn accepted_cause(bytes: &[u8]) -> Cause {
    let catalog = Catalog::bundled().unwrap();
    let screener = Screener::new(catalog, FilterConfig::new());
    match screener.assess(&parse_record(bytes).unwrap()) {
        Verdict::Accept(a) => {
            assert!(a.cause.through.is_none(), "not CloudFormation's own call");
            a.cause
        }
        Verdict::Drop(r) => panic!("dropped: {r:?}"),
    }
}

#[test]
fn a_call_with_the_user_handlers_role_is_the_custom_resources_naming_it_and_its_stack() {
    let g = gathered();
    let index = g.index();
    let catalog = Catalog::bundled().unwrap();
    let handler = physical(&logical_of("TagBucket5", &g));
    let role = physical(&logical_of("TagBucketServiceRole", &g));
    let cause = accepted_cause(&provider_record(&role, &handler));
    let d = index
        .provider_of(catalog, &cause)
        .expect("a provider's call");
    assert_eq!(d.kind, DeployerKind::CustomResource);
    assert_eq!(d.stack.as_deref(), Some(STACK));
    let p = d.provider.unwrap();
    assert_eq!(p.custom_resources, vec!["BucketTags".to_string()]);
    assert_eq!(p.functions, vec![handler]);
}

#[test]
fn a_call_with_any_other_role_or_by_a_user_is_not_a_providers() {
    let g = gathered();
    let index = g.index();
    let catalog = Catalog::bundled().unwrap();
    // The real Cloud Custodian session: a Lambda function, but not a provider.
    let other = accepted_cause(&provider_record("CloudCustodianRole", "custodian-fn"));
    assert_eq!(index.provider_of(catalog, &other), None);
    // The real record as recorded: an IAM user.
    let item = real_items()
        .into_iter()
        .find(|i| i.selector == "b58e2c0b-f75b-4f05-a0e9-15e9b9bfecef")
        .unwrap();
    assert_eq!(
        index.provider_of(catalog, &accepted_cause(&item.bytes)),
        None
    );
    // The provider's role name in another account is another role.
    let handler = physical(&logical_of("TagBucket5", &g));
    let role = physical(&logical_of("TagBucketServiceRole", &g));
    let text = String::from_utf8(provider_record(&role, &handler))
        .unwrap()
        .replace(&format!("iam::{ACCOUNT}:role"), "iam::999999999999:role");
    assert_eq!(
        index.provider_of(catalog, &accepted_cause(text.as_bytes())),
        None
    );
}

#[test]
fn the_index_keeps_provider_rows_through_its_json() {
    let index = gathered().index();
    let text = index.to_json();
    let back = ResourceIndex::from_json("index/x.json", text.as_bytes()).unwrap();
    assert_eq!(back.providers.len(), 3);
    assert_eq!(back, index);
    // An index written before providers existed still loads.
    let old = json!({"schemaVersion": 1, "accountId": ACCOUNT, "region": REGION, "resources": []});
    let old = ResourceIndex::from_json("index/x.json", old.to_string().as_bytes()).unwrap();
    assert!(old.providers.is_empty());
}
