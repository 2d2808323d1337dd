//! Mapped (eventSource, eventName) shapes that the real record set does not
//! contain with identifiers are built from the AWS API reference request
//! syntax: `core/tests/fixtures/events/doc-records.json`, one case per
//! shape, each naming the reference page it follows. Every table entry must
//! be shown either by a real record or by one of these.

mod events_support;

use events_support::{real_items, selector, targets};
use realdrift_core::events::{parse_record, Catalog, FilterConfig, Screener, Verdict};
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::BTreeSet;

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct DocCase {
    event_source: String,
    event_name: String,
    doc: String,
    request_parameters: Value,
    #[serde(default)]
    response_elements: Option<Value>,
    #[serde(default)]
    resources: Option<Value>,
    expect: Vec<String>,
    selector: String,
}

#[derive(Deserialize)]
struct DocFile {
    cases: Vec<DocCase>,
}

fn doc_cases() -> Vec<DocCase> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/events/doc-records.json");
    let file: DocFile = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    file.cases
}

/// A successful management write in the watched account, as CloudTrail
/// records one (record contents reference), around the case's parameters.
fn record(case: &DocCase, n: usize) -> Vec<u8> {
    let mut r = json!({
        "eventVersion": "1.09",
        "userIdentity": {
            "type": "AssumedRole",
            "principalId": "AROAEXAMPLE:alice",
            "arn": "arn:aws:sts::111122223333:assumed-role/Admin/alice",
            "accountId": "111122223333",
            "sessionContext": {"sessionIssuer": {"type": "Role", "arn": "arn:aws:iam::111122223333:role/Admin", "userName": "Admin"}}
        },
        "eventTime": format!("2024-05-01T10:00:{:02}Z", n % 60),
        "eventSource": case.event_source,
        "eventName": case.event_name,
        "awsRegion": "us-east-1",
        "sourceIPAddress": "198.51.100.7",
        "userAgent": "aws-cli/2.15.0",
        "requestParameters": case.request_parameters,
        "responseElements": case.response_elements,
        "eventID": format!("doc-{n}"),
        "readOnly": false,
        "eventType": "AwsApiCall",
        "managementEvent": true,
        "recipientAccountId": "111122223333",
        "eventCategory": "Management"
    });
    if let Some(res) = &case.resources {
        r["resources"] = res.clone();
    }
    serde_json::to_vec(&r).unwrap()
}

#[test]
fn doc_built_records_yield_the_expected_identifiers() {
    let catalog = Catalog::bundled().unwrap();
    let config = FilterConfig::new()
        .with_accounts(["111122223333"])
        .with_regions(["us-east-1"]);
    let screener = Screener::new(catalog, config);
    let mut failures = Vec::new();
    for (n, case) in doc_cases().iter().enumerate() {
        assert!(
            case.doc.starts_with("https://docs.aws.amazon.com/"),
            "{}: doc must name the AWS reference page",
            case.event_name
        );
        let event = parse_record(&record(case, n)).unwrap();
        let (got, sel) = match screener.assess(&event) {
            Verdict::Accept(a) => (targets(&a.touch), selector(&a.touch)),
            Verdict::Drop(r) => (Vec::new(), format!("dropped {}", r.as_str())),
        };
        if got != case.expect || sel != case.selector {
            failures.push(format!(
                "{} {} ({}): got {got:?} {sel}, want {:?} {}",
                case.event_source, case.event_name, case.doc, case.expect, case.selector
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_table_entry_is_shown_by_a_real_or_a_doc_record() {
    let catalog = Catalog::bundled().unwrap();
    let screener = Screener::new(catalog, FilterConfig::new());
    let mut shown: BTreeSet<(String, String)> = BTreeSet::new();
    for item in real_items() {
        let event = item.parse().unwrap();
        if screener.map_record(&event).is_ok() {
            let bare = catalog.facts.bare_name(event.record.name()).to_string();
            shown.insert((event.record.source().to_string(), bare));
        }
    }
    let real = shown.len();
    for case in doc_cases() {
        let bare = catalog.facts.bare_name(&case.event_name).to_string();
        assert!(
            catalog.table.get(&case.event_source, &bare).is_some(),
            "doc case {} {} is not a table entry",
            case.event_source,
            case.event_name
        );
        shown.insert((case.event_source.clone(), bare));
    }
    let missing: Vec<String> = catalog
        .table
        .entries()
        .iter()
        .filter(|e| !shown.contains(&(e.event_source.clone(), e.event_name.clone())))
        .map(|e| format!("{} {}", e.event_source, e.event_name))
        .collect();
    assert!(
        missing.is_empty(),
        "table entries shown by no record: {missing:?}"
    );
    assert!(real >= 50, "only {real} entries shown by real records");
}
