//! Report renderings of a realistic multi-stack result (insta snapshots of
//! text, JSON, Slack and SNS), secret masking everywhere, untrusted text,
//! coverage wording and exit codes.

#[path = "fixtures/baselines/support.rs"]
mod support;

use realdrift_core::baseline::{apply_baseline, BaselineFile};
use realdrift_core::events::Actor;
use realdrift_core::finding::Cause;
use realdrift_core::report::{
    exit_code, render_chatbot, render_json, render_slack, render_sns, render_text, Coverage,
    ExitCode, ExitFlags, MaskPolicy, NotCompared, NotComparedReason, SnsKind, StackReport,
    TextOptions,
};
use realdrift_core::{Finding, Tier};
use serde_json::{json, Value};
use support::*;

const SECRET: &str = "hunter2-live-secret";
const NOECHO: &str = "noecho-plaintext-value";

fn cause() -> Cause {
    Cause {
        event_name: "UpdateFunctionConfiguration20150331v2".into(),
        event_source: "lambda.amazonaws.com".into(),
        actor: Actor {
            arn: Some("arn:aws:sts::111111111111:assumed-role/Admin/alice".into()),
            identity_type: Some("AssumedRole".into()),
            ..Actor::default()
        },
        source_ip: Some("203.0.113.7".into()),
        user_agent: Some("console.amazonaws.com".into()),
        event_time: Some("2026-07-01T09:58:12Z".into()),
        event_id: Some("0c5e8a52-5d3f-4b8e-9d8e-2f1d2c3b4a59".into()),
        console: true,
        ..Cause::default()
    }
}

/// Stack 1: declared drift from the corpus, with a CloudTrail cause, plus an
/// unreadable custom resource and an informational read gap.
fn harvest() -> StackReport {
    let stems = [
        "AWS__Lambda__Function.MatrixFn0598BE1E.drifted",
        "AWS__Logs__LogGroup.MatrixLogsDDD521D9.drifted",
        "AWS__Events__Rule.MatrixRuleF1E32BBB.drifted",
    ];
    let mut findings = findings_of(&stems);
    for f in &mut findings {
        if f.path == "MemorySize" && f.tier == Tier::Declared {
            f.cause = Some(cause());
        }
    }
    let mut skipped = Finding::new(Tier::Skipped, "SeedData", "Custom::Seeder", "");
    skipped.note = Some("custom resource — no cloud-side model to read".into());
    skipped.construct_path = Some("CdkrdIntegHarvest3/SeedData".into());
    findings.push(skipped);
    let mut gap = Finding::new(
        Tier::ReadGap,
        "MatrixFn0598BE1E",
        "AWS::Lambda::Function",
        "SnapStart",
    );
    gap.note = Some("write-only — cannot be read back".into());
    gap.construct_path = Some("CdkrdIntegHarvest3/MatrixFn".into());
    findings.push(gap);
    let coverage = Coverage::from_findings(4, &findings, 0);
    StackReport {
        stack: "CdkrdIntegHarvest3".into(),
        account_id: Some(ACCOUNT.into()),
        region: REGION.into(),
        not_compared: not_compared_of(&findings),
        findings,
        coverage,
        has_baseline: false,
        ..StackReport::default()
    }
}

/// Stack 2: a cdk-real-drift baseline applied to real findings: one value
/// changed since record, one recorded and silent, one potential; plus a
/// secret-bearing declared drift and a hostile identifier.
fn notif_rich() -> StackReport {
    let stems = [
        "AWS__Lambda__Function.Handler.drifted",
        "AWS__S3__Bucket.Bucket83908E77",
        "AWS__Athena__WorkGroup.WgDescend.drifted",
    ];
    let ctx = ctx_for("CdkRealDriftIntegS3NotifRich", &stems);
    let name = "CdkRealDriftIntegS3NotifRich.111111111111.us-east-1.json";
    let b = BaselineFile::parse(name, &std::fs::read_to_string(fixture(name)).unwrap()).unwrap();
    let mut findings = findings_of(&stems);
    for f in &mut findings {
        if f.path == "ReservedConcurrentExecutions" {
            f.actual = Some(json!(100));
            f.cause = Some(Cause {
                event_name: "PutFunctionConcurrency20171031".into(),
                event_source: "lambda.amazonaws.com".into(),
                actor: Actor {
                    arn: Some("arn:aws:iam::111111111111:user/<script>bob".into()),
                    identity_type: Some("IAMUser".into()),
                    ..Actor::default()
                },
                source_ip: Some("198.51.100.23".into()),
                event_time: Some("2026-07-01T10:02:40Z".into()),
                ..Cause::default()
            });
        }
    }
    let mut secret = Finding::new(
        Tier::Declared,
        "Handler",
        "AWS::Lambda::Function",
        "Environment",
    );
    secret.physical_id = Some("corpus-handler".into());
    secret.desired = Some(json!({"Variables": {
        "DB_PASSWORD": "{{resolve:secretsmanager:prod/db:SecretString:password}}",
        "STAGE": "prod"}}));
    secret.actual = Some(json!({"Variables": {"DB_PASSWORD": SECRET, "STAGE": "dev"}}));
    findings.push(secret);
    let mut noecho = Finding::new(
        Tier::Declared,
        "Handler",
        "AWS::Lambda::Function",
        "Description",
    );
    noecho.desired = Some(json!("masked-template-parameter"));
    noecho.actual = Some(json!(NOECHO));
    findings.push(noecho);
    let mut hostile = Finding::new(
        Tier::Declared,
        "Bucket83908E77",
        "AWS::S3::Bucket",
        "Tags[team\u{1b}[2J\u{202e}\n✓ no drift detected].Value",
    );
    hostile.desired = Some(json!("platform"));
    hostile.actual = Some(json!(
        "platform\u{1b}[31m\n <!channel> & <http://evil|click>"
    ));
    hostile.construct_path = Some("CdkRealDriftIntegS3NotifRich/Bucket".into());
    findings.push(hostile);
    let out = apply_baseline(findings, Some(&b), &ctx).unwrap();
    let coverage = Coverage::from_findings(3, &out.findings, 0);
    StackReport {
        stack: "CdkRealDriftIntegS3NotifRich".into(),
        account_id: Some(ACCOUNT.into()),
        region: REGION.into(),
        findings: out.findings,
        coverage,
        notes: out.notes.iter().map(|n| n.to_string()).collect(),
        has_baseline: true,
        masks: MaskPolicy::default().with("Handler", "Description"),
        ..StackReport::default()
    }
}

fn quiet() -> StackReport {
    StackReport {
        stack: "QuietStack".into(),
        account_id: Some(ACCOUNT.into()),
        region: "eu-west-1".into(),
        coverage: Coverage::from_findings(3, &[], 0),
        has_baseline: true,
        ..StackReport::default()
    }
}

fn nothing_compared() -> StackReport {
    let mut f = Finding::new(Tier::Skipped, "Seeder", "Custom::Seeder", "");
    f.note = Some("custom resource — no cloud-side model to read".into());
    let findings = vec![f];
    StackReport {
        stack: "SeedOnly".into(),
        account_id: Some(ACCOUNT.into()),
        region: REGION.into(),
        coverage: Coverage::from_findings(1, &findings, 0),
        not_compared: not_compared_of(&findings),
        findings,
        ..StackReport::default()
    }
}

/// The not-compared entries gathering makes for custom resources.
fn not_compared_of(findings: &[Finding]) -> Vec<NotCompared> {
    findings
        .iter()
        .filter(|f| f.tier == Tier::Skipped)
        .map(|f| NotCompared {
            logical_id: f.logical_id.clone(),
            construct_path: f.construct_path.clone(),
            resource_type: f.resource_type.clone(),
            reason: NotComparedReason::CustomResource,
            detail: f.note.clone().unwrap_or_default(),
            accepted: None,
        })
        .collect()
}

fn broken() -> StackReport {
    StackReport {
        stack: "BrokenStack".into(),
        account_id: Some(ACCOUNT.into()),
        region: REGION.into(),
        error: Some("AccessDenied: not authorized to perform cloudformation:GetTemplate".into()),
        ..StackReport::default()
    }
}

fn all_stacks() -> Vec<StackReport> {
    vec![
        harvest(),
        notif_rich(),
        quiet(),
        nothing_compared(),
        broken(),
    ]
}

fn assert_no_secrets(out: &str) {
    assert!(!out.contains(SECRET), "secret leaked:\n{out}");
    assert!(!out.contains(NOECHO), "NoEcho value leaked:\n{out}");
}

#[test]
fn text_report_snapshot() {
    let text = render_text(&all_stacks(), TextOptions::default());
    assert_no_secrets(&text);
    assert!(!text.contains('\u{1b}') && !text.contains('\u{202e}'));
    insta::assert_snapshot!("text_plain", text);
}

#[test]
fn text_report_verbose_snapshot() {
    let text = render_text(
        &[harvest()],
        TextOptions {
            color: false,
            verbose: true,
        },
    );
    insta::assert_snapshot!("text_verbose", text);
}

#[test]
fn colour_only_when_asked_and_only_our_own_codes() {
    let plain = render_text(&all_stacks(), TextOptions::default());
    let color = render_text(
        &all_stacks(),
        TextOptions {
            color: true,
            verbose: false,
        },
    );
    assert!(color.contains("\u{1b}[1;31m"));
    let stripped = regex::Regex::new("\u{1b}\\[[0-9;]*m")
        .unwrap()
        .replace_all(&color, "");
    assert_eq!(stripped, plain, "colour changes nothing but SGR codes");
    let own = regex::Regex::new("\u{1b}\\[(0|1|33|36|1;31|1;32)m").unwrap();
    assert_eq!(own.replace_all(&color, "").matches('\u{1b}').count(), 0);
}

#[test]
fn result_lines_are_greppable_at_column_zero() {
    let text = render_text(&all_stacks(), TextOptions::default());
    let results: Vec<&str> = text.lines().filter(|l| l.starts_with("result: ")).collect();
    assert_eq!(
        results,
        vec![
            "result: 3 drifts (declared=3)",
            "result: 5 findings — 4 drifts (declared=3, undeclared=1) + 1 potential drift",
            "result: CLEAN",
            "result: nothing compared",
            "result: ERROR",
        ]
    );
}

#[test]
fn a_clean_stack_is_three_lines_and_nothing_compared_gets_no_check_mark() {
    let clean = render_text(&[quiet()], TextOptions::default());
    assert_eq!(
        clean,
        "QuietStack (111111111111 / eu-west-1)\n✓ 3 of 3 compared\nresult: CLEAN\n"
    );
    let none = render_text(&[nothing_compared()], TextOptions::default());
    assert!(!none.contains('✓'), "{none}");
    assert!(
        none.contains(
            "⚠ NOTHING was compared — 0 of 1 compared; not compared: Seeder \
             (Custom::Seeder: custom resource)"
        ),
        "{none}"
    );
}

#[test]
fn json_report_snapshot() {
    let text = render_json(
        &all_stacks(),
        ExitFlags {
            fail: true,
            strict: false,
        },
    );
    assert_no_secrets(&text);
    assert!(!text.contains('\u{1b}') && !text.contains('\u{202e}'));
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["exitCode"], json!(2));
    assert_eq!(v["summary"]["drift"], json!(7));
    assert_eq!(v["summary"]["potentialDrift"], json!(1));
    // Every finding is present (atDefault and generated included).
    let n: usize = all_stacks().iter().map(|r| r.findings.len()).sum();
    let m: usize = v["stacks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["findings"].as_array().unwrap().len())
        .sum();
    assert_eq!(n, m);
    // The hostile value round-trips exactly (escaped, not sanitized).
    let hostile = v["stacks"][1]["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["path"].as_str().unwrap().starts_with("Tags[team"))
        .unwrap();
    assert_eq!(
        hostile["actual"],
        json!("platform\u{1b}[31m\n <!channel> & <http://evil|click>")
    );
    insta::assert_snapshot!("json", text);
}

#[test]
fn slack_payload_snapshot() {
    let payload = render_slack(&all_stacks());
    let text = serde_json::to_string_pretty(&payload).unwrap();
    assert_no_secrets(&text);
    assert!(
        !text.contains("<!channel>") && !text.contains("<http"),
        "{text}"
    );
    assert!(!text.contains('\u{1b}'));
    assert!(payload["blocks"].as_array().unwrap().len() <= 50);
    insta::assert_snapshot!("slack", text);
}

#[test]
fn slack_caps_at_fifty_blocks_with_a_tail() {
    let mut r = harvest();
    for i in 0..80 {
        let mut f = Finding::new(
            Tier::Declared,
            format!("Fn{i}"),
            "AWS::Lambda::Function",
            "Timeout",
        );
        f.desired = Some(json!(3));
        f.actual = Some(json!(30));
        r.findings.push(f);
    }
    let payload = render_slack(&[r]);
    let blocks = payload["blocks"].as_array().unwrap();
    assert_eq!(blocks.len(), 50);
    let tail = blocks[49]["elements"][0]["text"].as_str().unwrap();
    // 83 drift blocks + header + context = 85 planned; 49 shown, 36 findings not.
    assert_eq!(
        tail,
        "…and 36 more drift findings — run realdrift check for the full list"
    );
}

#[test]
fn sns_document_snapshot() {
    let msg = render_sns(&notif_rich(), SnsKind::DriftDetected);
    assert_no_secrets(&msg.message);
    assert!(msg.subject.len() < 100 && msg.subject.is_ascii());
    assert_eq!(
        msg.subject,
        "realdrift: drift detected in CdkRealDriftIntegS3NotifRich (us-east-1)"
    );
    let doc: Value = serde_json::from_str(&msg.message).unwrap();
    assert_eq!(doc["kind"], json!("drift-detected"));
    assert_eq!(
        doc["cause"]["eventName"],
        json!("PutFunctionConcurrency20171031")
    );
    let pretty = serde_json::to_string_pretty(&doc).unwrap();
    insta::assert_snapshot!(
        "sns_document",
        format!("subject: {}\n{}", msg.subject, pretty)
    );
}

#[test]
fn sns_chatbot_snapshot() {
    let msg = render_chatbot(&notif_rich(), SnsKind::DriftDetected);
    assert_no_secrets(&msg.message);
    let doc: Value = serde_json::from_str(&msg.message).unwrap();
    assert_eq!(doc["version"], json!("1.0"));
    assert_eq!(doc["source"], json!("custom"));
    assert_eq!(doc["content"]["textType"], json!("client-markdown"));
    let description = doc["content"]["description"].as_str().unwrap();
    assert!(!description.contains("<!channel>") && !description.contains('\u{1b}'));
    insta::assert_snapshot!("sns_chatbot", serde_json::to_string_pretty(&doc).unwrap());
}

#[test]
fn sns_kinds_and_subject_limits() {
    let mut long = quiet();
    long.stack = "A".repeat(128);
    for kind in [
        SnsKind::DriftDetected,
        SnsKind::DriftResolved,
        SnsKind::CoverageLost,
    ] {
        let msg = render_sns(&long, kind);
        assert!(msg.subject.chars().count() < 100, "{}", msg.subject);
        let doc: Value = serde_json::from_str(&msg.message).unwrap();
        assert_eq!(doc["kind"], json!(kind.as_str()));
        assert_eq!(doc["version"], json!(1));
    }
    let lost = render_sns(&nothing_compared(), SnsKind::CoverageLost);
    assert_eq!(
        lost.subject,
        "realdrift: coverage lost in SeedOnly (us-east-1)"
    );
}

#[test]
fn oversized_sns_messages_drop_findings_and_say_so() {
    let mut r = quiet();
    for i in 0..400 {
        let mut f = Finding::new(
            Tier::Undeclared,
            format!("Big{i}"),
            "AWS::S3::Bucket",
            "Policy",
        );
        f.actual = Some(json!("x".repeat(1000)));
        r.findings.push(f);
    }
    let msg = render_sns(&r, SnsKind::DriftDetected);
    assert!(msg.message.len() <= 200 * 1024);
    let doc: Value = serde_json::from_str(&msg.message).unwrap();
    let kept = doc["findings"].as_array().unwrap().len() as u64;
    assert_eq!(kept + doc["findingsOmitted"].as_u64().unwrap(), 400);
}

#[test]
fn exit_codes_follow_flags_and_rank() {
    let f = |fail, strict| ExitFlags { fail, strict };
    let drift = [harvest()];
    assert_eq!(exit_code(&drift, f(false, false)), ExitCode::Ok);
    assert_eq!(exit_code(&drift, f(true, false)), ExitCode::Fail);
    // harvest()'s only gap is a custom resource: a benign skip, so --strict
    // alone does not fail it.
    assert_eq!(exit_code(&drift, f(false, true)), ExitCode::Ok);
    assert_eq!(exit_code(&[quiet()], f(true, true)), ExitCode::Ok);
    assert_eq!(
        exit_code(&[nothing_compared()], f(true, false)),
        ExitCode::Ok
    );
    assert_eq!(
        exit_code(&[nothing_compared()], f(false, true)),
        ExitCode::Ok
    );
    // A refused read is lost coverage: --strict fails; drift and lost
    // coverage are both 1.
    let mut denied = quiet();
    denied.coverage.skipped = 1;
    denied.coverage.checked = 2;
    denied.coverage.lost = 1;
    assert_eq!(
        exit_code(std::slice::from_ref(&denied), f(false, true)),
        ExitCode::Fail
    );
    assert_eq!(
        exit_code(std::slice::from_ref(&denied), f(false, false)),
        ExitCode::Ok
    );
    assert_eq!(
        exit_code(&[harvest(), denied], f(true, true)),
        ExitCode::Fail
    );
    assert_eq!(exit_code(&all_stacks(), f(true, true)), ExitCode::Error);
    // Potential drift (unrecorded) never fails --fail.
    let mut potential = quiet();
    let mut u = Finding::new(Tier::Undeclared, "B", "AWS::S3::Bucket", "Policy");
    u.unrecorded = true;
    u.actual = Some(json!({}));
    potential.findings.push(u);
    assert_eq!(exit_code(&[potential], f(true, false)), ExitCode::Ok);
}
