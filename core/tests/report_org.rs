//! The Organization view: members' status documents (from corpus drift with
//! a CloudTrail cause) written to a store, read back with an unreadable one,
//! aggregated, and rendered as JSON, text and a self-contained HTML page.

#[path = "fixtures/baselines/support.rs"]
mod support;

use futures_executor::block_on;
use realdrift_core::baseline::{sort_keys, BaselineStore, MemoryStore, Precondition};
use realdrift_core::events::Actor;
use realdrift_core::finding::Cause;
use realdrift_core::report::{
    html_escape, is_confirmed_drift, read_statuses, render_org_html, render_org_text, write_status,
    Coverage, OrgView, StackReport, ORG_REPORT_SCHEMA,
};
use realdrift_core::watch::DriftEntry;
use support::*;

const ALICE: &str = "arn:aws:sts::111111111111:assumed-role/Admin/alice";
const T1: u64 = 1_780_000_000_000;
const T2: u64 = T1 + 86_400_000;

fn report(stack: &str, region: &str) -> StackReport {
    StackReport {
        stack: stack.into(),
        account_id: None,
        region: region.into(),
        findings: findings_of(&[
            "AWS__Lambda__Function.MatrixFn0598BE1E.drifted",
            "AWS__Logs__LogGroup.MatrixLogsDDD521D9.drifted",
        ]),
        coverage: Coverage {
            total: 3,
            checked: 2,
            ..Coverage::default()
        },
        ..StackReport::default()
    }
}

/// The report's confirmed drift as the state holds it; the MemorySize one
/// explained by a CloudTrail event of alice's.
fn drift_of(report: &StackReport) -> Vec<DriftEntry> {
    report
        .findings
        .iter()
        .filter(|f| is_confirmed_drift(f))
        .map(|f| {
            let mut finding = f.clone();
            if finding.path == "MemorySize" {
                finding.cause = Some(Cause {
                    event_name: "UpdateFunctionConfiguration20150331v2".into(),
                    event_source: "lambda.amazonaws.com".into(),
                    actor: Actor {
                        arn: Some(ALICE.into()),
                        ..Actor::default()
                    },
                    ..Cause::default()
                });
            }
            DriftEntry {
                finding,
                observed_change: false,
                parent: None,
            }
        })
        .collect()
}

#[test]
fn first_seen_survives_rechecks_and_resolved_drift_leaves() {
    let store = MemoryStore::new();
    let r = report("Payments", "eu-west-1");
    let drift = drift_of(&r);
    assert!(drift.len() >= 2, "the corpus cases drift");
    let first = block_on(write_status(&store, &r, "111111111111", &drift, T1)).expect("write");
    assert_eq!(first.drift, drift.len());
    assert_eq!(first.oldest_drift_ms(), Some(T1));
    assert_eq!(first.actors.get(ALICE), Some(&1));

    // A day later one drift is resolved: the rest keep their first-seen time.
    let rest = &drift[1..];
    let second = block_on(write_status(&store, &r, "111111111111", rest, T2)).expect("write");
    assert_eq!(second.drift, rest.len());
    assert_eq!(second.checked_at_ms, T2);
    assert!(second.drift_since_ms.values().all(|t| *t == T1));
    assert_eq!(second.drift_since_ms.len(), rest.len());
}

fn hub() -> MemoryStore {
    let store = MemoryStore::new();
    let payments = report("Payments", "eu-west-1");
    block_on(write_status(
        &store,
        &payments,
        "111111111111",
        &drift_of(&payments),
        T1,
    ))
    .expect("write");
    let mut clean = report("Web<script>alert(1)</script>", "us-east-1");
    clean.findings.clear();
    block_on(write_status(&store, &clean, "222222222222", &[], T2)).expect("write");
    block_on(store.save(
        "org/333333333333/eu-west-1/Broken.json",
        "{not json",
        Precondition::None,
    ))
    .expect("save");
    store
}

#[test]
fn the_view_aggregates_accounts_and_names_an_unreadable_document() {
    let entries = block_on(read_statuses(&hub())).expect("list");
    let view = OrgView::gather(entries);
    let doc = view.json();
    assert_eq!(doc["schema"], ORG_REPORT_SCHEMA);
    assert_eq!(doc["summary"]["accounts"], 2);
    assert_eq!(doc["summary"]["stacks"], 2);
    assert_eq!(doc["summary"]["driftedStacks"], 1);
    assert_eq!(doc["accounts"][1]["drift"], 0);
    assert_eq!(doc["oldestDrift"]["stack"], "Payments");
    assert_eq!(doc["oldestDrift"]["since"], "2026-05-28T20:26:40Z");
    assert_eq!(doc["actors"][0]["actor"], ALICE);
    assert_eq!(
        doc["errors"][0]["key"],
        "org/333333333333/eu-west-1/Broken.json"
    );
    // Sorted as the CLI prints it: key order must not hang on whether
    // serde_json's preserve_order is unified into this build.
    insta::assert_json_snapshot!("org_report_json", sort_keys(&doc));
}

#[test]
fn text_and_html_escape_member_names() {
    let view = OrgView::gather(block_on(read_statuses(&hub())).expect("list"));
    let text = render_org_text(&view);
    assert!(text.contains("DRIFT eu-west-1 Payments"), "{text}");
    assert!(text.contains("error: org/333333333333/eu-west-1/Broken.json"));
    let html = render_org_html(&view);
    assert!(!html.contains("<script>"), "untrusted names are escaped");
    assert!(html.contains("Web&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(html.contains("<tr class=\"drift\"><td>eu-west-1</td><td>Payments</td>"));
    for external in ["src=", "href=", "http://", "https://", "@import"] {
        assert!(!html.contains(external), "self-contained: {external}");
    }
}

#[test]
fn html_escape_covers_markup_quotes_and_controls() {
    assert_eq!(
        html_escape("a&b<c>\"d\"'e'\u{1b}[31m"),
        "a&amp;b&lt;c&gt;&quot;d&quot;&#39;e&#39; [31m"
    );
}

#[test]
fn text_escapes_terminal_controls_in_member_names() {
    let store = MemoryStore::new();
    let mut r = report("Evil\u{1b}]0;pwned\u{7}", "eu-west-1");
    r.findings.clear();
    block_on(write_status(&store, &r, "111111111111", &[], T1)).expect("write");
    let text = render_org_text(&OrgView::gather(
        block_on(read_statuses(&store)).expect("list"),
    ));
    assert!(
        !text.contains('\u{1b}') && !text.contains('\u{7}'),
        "{text:?}"
    );
}
