//! The check path every entry point shares, over the in-memory sources and
//! store: discovery -> gather -> baseline -> ignore rules -> report, with
//! per-stack error entries, record's view of the findings, masking.

use futures_executor::block_on;
use realdrift_core::baseline::{
    record, save_baseline, BaselineStore, ChildScan, MemoryStore, Precondition, ReadState,
    RecordInput, Selection,
};
use realdrift_core::classify::{ClassifyContext, SiblingPolicyNames};
use realdrift_core::corpus::CorpusCase;
use realdrift_core::ignore::{IgnoreConfig, IgnoreRule};
use realdrift_core::pipeline::memory::{MemoryReader, MemoryStack, MemoryStacks};
use realdrift_core::pipeline::{
    baseline_key, check_gathered, check_stack, check_stacks, gather_selected, recordable_findings,
    CallCounter, CheckError, CheckOptions, CheckRun, Coverage, GatherFailure, GatheredStack,
    Pipeline, ReadOutcome, ResourceRecord, SourceError, StackDescription, StackGather,
    StackResourceRow, IGNORE_KEY,
};
use realdrift_core::report::{
    exit_code, json_value, ExitCode, ExitFlags, NotChecked, StackReport, Verdict,
};
use realdrift_core::schema::InMemorySchemas;
use realdrift_core::{Finding, Tier};
use serde_json::json;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

const STACK_ID: &str = "arn:aws:cloudformation:eu-west-1:111111111111:stack/App/0f0f";
const KEY: &str = "App.111111111111.eu-west-1.json";

/// One stack, one queue: `VisibilityTimeout` drifted from its declared 30
/// to 60, and `MessageRetentionPeriod` set out of band (never declared).
fn pipeline() -> Pipeline {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/cases");
    let queue = CorpusCase::load(&dir.join("AWS__SQS__Queue.WorkQueue.json")).unwrap();
    let pid = queue.resource.physical_id.clone().unwrap();
    let mut live = queue.live_raw.clone();
    live["MessageRetentionPeriod"] = json!(86400);
    let template = json!({"Resources": {"Queue": {
        "Type": "AWS::SQS::Queue",
        "Properties": queue.resource.declared,
        "Metadata": {"aws:cdk:path": "App/Queue/Resource"}
    }}});
    let counter = CallCounter::new();
    let stacks = MemoryStacks {
        counter: counter.clone(),
        ..Default::default()
    }
    .with_stack(MemoryStack {
        description: StackDescription {
            name: "App".into(),
            stack_id: STACK_ID.into(),
            status: "UPDATE_COMPLETE".into(),
            ..Default::default()
        },
        template: template.to_string(),
        resources: vec![StackResourceRow {
            logical_id: "Queue".into(),
            physical_id: Some(pid.clone()),
            resource_type: "AWS::SQS::Queue".into(),
            status: "CREATE_COMPLETE".into(),
        }],
    });
    let reader = MemoryReader::default().with("AWS::SQS::Queue", &pid, ReadOutcome::found(live));
    let schemas = InMemorySchemas::new().with_facts("AWS::SQS::Queue", queue.schema.clone());
    Pipeline::new(Arc::new(stacks), Arc::new(reader), Arc::new(schemas)).with_counter(counter)
}

fn opts() -> CheckOptions {
    CheckOptions {
        show_all: false,
        region: "eu-west-1".into(),
        store_location: "baselines".into(),
    }
}

fn run(store: &MemoryStore, selectors: &[&str], opts: &CheckOptions) -> CheckRun {
    let selectors: Vec<String> = selectors.iter().map(|s| s.to_string()).collect();
    block_on(check_stacks(&pipeline(), store, &selectors, opts)).unwrap()
}

fn tiers(r: &StackReport) -> Vec<(Tier, String, bool)> {
    r.findings
        .iter()
        .map(|f| (f.tier, f.path.clone(), f.unrecorded))
        .collect()
}

#[test]
fn a_missing_stack_is_an_error_entry_and_the_others_are_checked() {
    let store = MemoryStore::new();
    let run = run(&store, &["Missing", "App"], &opts());
    let reports = run.reports();
    assert_eq!(reports.len(), 2);
    assert_eq!(reports[0].stack, "Missing");
    assert_eq!(
        reports[0].error.as_deref(),
        Some("stack Missing: not found in this account and region")
    );
    assert_eq!(reports[0].region, "eu-west-1");
    assert!(run.stacks[0].gathered.is_none());
    let app = &reports[1];
    assert_eq!(app.error, None);
    assert!(!app.has_baseline);
    assert_eq!(
        tiers(app),
        vec![
            (Tier::Declared, "VisibilityTimeout".into(), false),
            (Tier::Undeclared, "MessageRetentionPeriod".into(), true),
        ]
    );
    assert_eq!((app.coverage.total, app.coverage.checked), (1, 1));
    assert!(run.stacks[1]
        .api_calls()
        .contains_key("cloudformation:GetTemplate"));
    assert!(run.notes.is_empty(), "{:?}", run.notes);
}

#[test]
fn recorded_values_go_quiet_and_ignore_rules_come_from_the_store() {
    let store = MemoryStore::new();
    block_on(store.save(
        IGNORE_KEY,
        "ignore:\n  - path: '*.VisibilityTimeout'\n",
        Precondition::None,
    ))
    .unwrap();
    let first = run(&store, &["App"], &opts());
    let g = first.stacks[0].gathered.as_ref().unwrap();
    assert_eq!(
        tiers(&first.stacks[0].report)[0],
        (Tier::Ignored, "VisibilityTimeout".into(), false)
    );

    // record: what is recordable, saved where check looks for it.
    let ignores =
        IgnoreConfig::parse("ignore.yaml", "ignore:\n  - path: '*.VisibilityTimeout'\n").unwrap();
    let ctx = g.run_context();
    let out = record(RecordInput {
        classified: &recordable_findings(g, &ignores),
        existing: None,
        ctx: &ctx,
        selection: &Selection::All,
        captured_at: "2026-01-01T00:00:00Z",
    });
    assert_eq!(baseline_key(&ctx).unwrap(), KEY);
    block_on(save_baseline(
        &store,
        KEY,
        &out.baseline,
        Precondition::IfAbsent,
    ))
    .unwrap();

    let second = run(&store, &["App"], &opts());
    let r = &second.stacks[0].report;
    assert!(r.has_baseline);
    assert_eq!(
        tiers(r),
        vec![(Tier::Ignored, "VisibilityTimeout".into(), false)]
    );

    // Inventory mode lists the recorded value again, as potential drift.
    let all = run(
        &store,
        &["App"],
        &CheckOptions {
            show_all: true,
            ..opts()
        },
    );
    assert!(tiers(&all.stacks[0].report).contains(&(
        Tier::Undeclared,
        "MessageRetentionPeriod".into(),
        true
    )));
}

#[test]
fn a_bad_baseline_is_that_stacks_error_and_a_bad_ignore_file_stops_the_run() {
    let store = MemoryStore::new();
    block_on(store.save(KEY, "{not json", Precondition::None)).unwrap();
    let r = &run(&store, &["App"], &opts()).stacks[0].report;
    let e = r.error.as_deref().unwrap_or_default();
    // The context once, the cause once.
    assert_eq!(
        e,
        format!("stack App: baseline {KEY}: key must be a string at line 1 column 2")
    );
    assert_eq!(r.region, "eu-west-1");

    block_on(store.save(IGNORE_KEY, "ignroe: []\n", Precondition::None)).unwrap();
    let selectors = vec!["App".to_string()];
    let err = block_on(check_stacks(&pipeline(), &store, &selectors, &opts())).unwrap_err();
    assert!(matches!(err, CheckError::Ignores(_)), "{err:?}");
    assert!(err.to_string().contains("baselines/ignore.yaml"), "{err}");
}

/// A hand-built gathered stack: one bucket, a NoEcho-backed declared path.
fn gathered(findings: Vec<Finding>) -> GatheredStack {
    GatheredStack {
        stack: "App".into(),
        stack_id: "arn:aws:cloudformation:us-east-1:123456789012:stack/App/x".into(),
        account: Some("123456789012".into()),
        region: Some("us-east-1".into()),
        template_hash: "h".into(),
        findings,
        coverage: Coverage {
            total: 1,
            checked: 1,
            ..Coverage::default()
        },
        not_compared: vec![],
        api_calls: BTreeMap::new(),
        notes: vec!["a pipeline note".into()],
        resources: vec![ResourceRecord {
            logical_id: "Bucket".into(),
            resource_type: "AWS::S3::Bucket".into(),
            physical_id: Some("b".into()),
            construct_path: None,
            declared: BTreeMap::new(),
            sibling_policy_names: SiblingPolicyNames::None,
            live: Some(json!({})),
            schema: None,
            read: ReadState::Read,
            children: ChildScan::Complete,
            secret_paths: ["MasterPassword".to_string()].into(),
        }],
        context: ClassifyContext::default(),
        added_parents: BTreeMap::new(),
        nested_stacks: vec![],
    }
}

fn undeclared(path: &str) -> Finding {
    let mut f = Finding::new(Tier::Undeclared, "Bucket", "AWS::S3::Bucket", path);
    f.actual = Some(json!("Enabled"));
    f
}

#[test]
fn without_a_baseline_undeclared_values_are_potential_drift() {
    let mut g = gathered(vec![undeclared(
        "AccelerateConfiguration.AccelerationStatus",
    )]);
    g.coverage = Coverage {
        total: 1,
        checked: 1,
        lost: 1,
        ..Coverage::default()
    };
    let r = check_stack(&g, None, &IgnoreConfig::default(), false).unwrap();
    assert!(r.findings[0].unrecorded);
    assert_eq!(
        r.coverage, g.coverage,
        "gathering's coverage is the report's"
    );
    assert_eq!(r.notes, vec!["a pipeline note".to_string()]);
    assert!(!r.has_baseline);
}

#[test]
fn noecho_positions_are_masked_in_the_report() {
    let mut f = Finding::new(
        Tier::Declared,
        "Bucket",
        "AWS::S3::Bucket",
        "MasterPassword",
    );
    f.desired = Some(json!("hunter2-from-noecho"));
    f.actual = Some(json!("changed-out-of-band"));
    let r = check_stack(&gathered(vec![f]), None, &IgnoreConfig::default(), false).unwrap();
    let text = serde_json::to_string(&r.masked_findings()).unwrap();
    assert!(!text.contains("hunter2"), "{text}");
    assert!(!text.contains("changed-out-of-band"), "{text}");
}

#[test]
fn ignore_rules_apply_after_the_baseline_and_before_record() {
    let g = gathered(vec![undeclared(
        "AccelerateConfiguration.AccelerationStatus",
    )]);
    let cfg =
        IgnoreConfig::from_rules(vec![IgnoreRule::new("Bucket.AccelerateConfiguration")]).unwrap();
    let r = check_stack(&g, None, &cfg, false).unwrap();
    assert_eq!(r.findings[0].tier, Tier::Ignored);
    assert_eq!(recordable_findings(&g, &cfg)[0].tier, Tier::Ignored);
}

/// The App stack plus stacks that cannot be compared: one whose last update
/// failed to roll back, one mid-deploy, one whose template cannot be read.
fn troubled_pipeline(selectors_see_unreadable: bool) -> Pipeline {
    let base = pipeline();
    let mut stacks = MemoryStacks::default();
    let app_template = block_on(base.stack_source().get_template("App")).unwrap();
    let app_desc = block_on(base.stack_source().describe_stack("App")).unwrap();
    let app_rows = block_on(base.stack_source().list_stack_resources("App")).unwrap();
    let cdk = json!({"Resources": {"CDKMetadata": {"Type": "AWS::CDK::Metadata"}}}).to_string();
    stacks = stacks.with_stack(MemoryStack {
        description: app_desc,
        template: app_template.replace(
            "\"Resources\"",
            "\"Metadata\":{\"aws:cdk:path\":\"x\"},\"Resources\"",
        ),
        resources: app_rows,
    });
    for (name, status) in [
        ("Stuck", "UPDATE_ROLLBACK_FAILED"),
        ("Deploying", "UPDATE_IN_PROGRESS"),
        ("Unreadable", "CREATE_COMPLETE"),
    ] {
        stacks = stacks.with_stack(MemoryStack {
            description: StackDescription {
                name: name.into(),
                stack_id: STACK_ID.replace("App", name),
                status: status.into(),
                ..Default::default()
            },
            template: cdk.clone(),
            resources: vec![],
        });
    }
    if selectors_see_unreadable {
        stacks.template_failures.insert(
            "Unreadable".into(),
            SourceError::AccessDenied("cloudformation:GetTemplate".into()),
        );
    }
    let queue_pid = block_on(base.stack_source().list_stack_resources("App")).unwrap()[0]
        .physical_id
        .clone()
        .unwrap();
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/cases");
    let queue = CorpusCase::load(&dir.join("AWS__SQS__Queue.WorkQueue.json")).unwrap();
    let reader = MemoryReader::default().with(
        "AWS::SQS::Queue",
        &queue_pid,
        ReadOutcome::found(queue.live_raw.clone()),
    );
    let schemas = InMemorySchemas::new().with_facts("AWS::SQS::Queue", queue.schema.clone());
    Pipeline::new(Arc::new(stacks), Arc::new(reader), Arc::new(schemas))
}

fn strict() -> ExitFlags {
    ExitFlags {
        fail: true,
        strict: true,
    }
}

#[test]
fn a_stack_skipped_for_its_state_is_a_counted_entry() {
    let store = MemoryStore::new();
    let p = troubled_pipeline(false);
    let selectors = vec!["Stuck".to_string()];
    let run = block_on(check_stacks(&p, &store, &selectors, &opts())).unwrap();
    let reports = run.reports();
    assert_eq!(reports.len(), 1, "reported, never 'no stacks matched'");
    let r = &reports[0];
    assert_eq!(r.stack, "Stuck");
    assert_eq!(
        r.not_checked,
        Some(NotChecked {
            status: "UPDATE_ROLLBACK_FAILED".into()
        })
    );
    assert_eq!(r.error, None);
    assert_eq!(r.summary().verdict(), Verdict::NotChecked);
    assert!(!r.coverage_complete());
    assert!(run.notes.is_empty(), "{:?}", run.notes);
    assert_eq!(exit_code(&reports, strict()), ExitCode::Fail);
    // Without --strict it is reported but does not fail (it is not drift).
    assert_eq!(exit_code(&reports, ExitFlags::default()), ExitCode::Ok);
    let doc = json_value(&reports, strict());
    assert_eq!(doc["stacks"][0]["status"], "notChecked");
    assert_eq!(doc["stacks"][0]["coverage"]["complete"], false);
    assert_eq!(doc["summary"]["notChecked"], 1);
    assert_eq!(doc["exitCode"], 1);
}

#[test]
fn every_cdk_stack_includes_unsettled_and_unreadable_ones() {
    let store = MemoryStore::new();
    let p = troubled_pipeline(true);
    let run = block_on(check_stacks(&p, &store, &[], &opts())).unwrap();
    let by_name: BTreeMap<String, StackReport> = run
        .reports()
        .into_iter()
        .map(|r| (r.stack.clone(), r))
        .collect();
    assert_eq!(
        by_name.keys().cloned().collect::<Vec<_>>(),
        ["App", "Deploying", "Stuck", "Unreadable"]
    );
    assert_eq!(
        by_name["Deploying"].summary().verdict(),
        Verdict::NotChecked
    );
    let unreadable = &by_name["Unreadable"];
    assert_eq!(unreadable.summary().verdict(), Verdict::Error);
    assert!(
        unreadable
            .error
            .as_deref()
            .unwrap_or_default()
            .contains("cloudformation:GetTemplate"),
        "{unreadable:?}"
    );
    assert!(by_name["App"].error.is_none() && by_name["App"].not_checked.is_none());
    let reports = run.reports();
    assert_eq!(exit_code(&reports, ExitFlags::default()), ExitCode::Error);
}

#[test]
fn a_missing_named_stack_is_a_typed_failure() {
    let selectors = vec!["Missing".to_string()];
    let gathered = block_on(gather_selected(&pipeline(), &selectors)).unwrap();
    assert!(matches!(
        &gathered.stacks[0].result,
        Err(GatherFailure::NotFound { stack }) if stack == "Missing"
    ));
    let r = check_report(&gathered.stacks[0]);
    assert_eq!(r.summary().verdict(), Verdict::Error);
    assert!(!r.coverage_complete(), "an errored stack is never complete");
    assert_eq!(
        exit_code(std::slice::from_ref(&r), ExitFlags::default()),
        ExitCode::Error
    );
    assert_eq!(
        json_value(&[r], strict())["stacks"][0]["coverage"]["complete"],
        false
    );
}

fn check_report(entry: &StackGather) -> StackReport {
    block_on(check_gathered(
        entry,
        &MemoryStore::new(),
        &IgnoreConfig::default(),
        &opts(),
    ))
}

/// The queue stack plus a CodeBuild project (the corpus's, declared as CDK
/// wrote it) that Cloud Control answers UnsupportedActionException for, and
/// a custom resource.
fn pipeline_with_unreadable() -> Pipeline {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/cases");
    let queue = CorpusCase::load(&dir.join("AWS__SQS__Queue.WorkQueue.json")).unwrap();
    let build = CorpusCase::load(&dir.join("AWS__CodeBuild__Project.Build45A36621.json")).unwrap();
    let qid = queue.resource.physical_id.clone().unwrap();
    let bid = build.resource.physical_id.clone().unwrap();
    let template = json!({"Resources": {
        "Queue": {"Type": "AWS::SQS::Queue", "Properties": queue.resource.declared},
        "Build45A36621": {"Type": "AWS::CodeBuild::Project",
            "Properties": build.resource.declared,
            "Metadata": {"aws:cdk:path": "App/Pipeline/Build/Resource"}},
        "Seeder": {"Type": "Custom::Seeder", "Properties": {"ServiceToken": "arn:aws:lambda:eu-west-1:111111111111:function:seed"}}
    }});
    let row = |id: &str, t: &str, pid: &str| StackResourceRow {
        logical_id: id.into(),
        physical_id: Some(pid.into()),
        resource_type: t.into(),
        status: "CREATE_COMPLETE".into(),
    };
    let stacks = MemoryStacks::default().with_stack(MemoryStack {
        description: StackDescription {
            name: "App".into(),
            stack_id: STACK_ID.into(),
            status: "UPDATE_COMPLETE".into(),
            ..Default::default()
        },
        template: template.to_string(),
        resources: vec![
            row("Queue", "AWS::SQS::Queue", &qid),
            row("Build45A36621", "AWS::CodeBuild::Project", &bid),
            row("Seeder", "Custom::Seeder", "seed-1"),
        ],
    });
    let reader = MemoryReader::default()
        .with(
            "AWS::SQS::Queue",
            &qid,
            ReadOutcome::found(queue.live_raw.clone()),
        )
        .with(
            "AWS::CodeBuild::Project",
            &bid,
            ReadOutcome::unsupported(
                "Cloud Control cannot read AWS::CodeBuild::Project: \
                 Resource type AWS::CodeBuild::Project does not support READ action",
            ),
        );
    let schemas = InMemorySchemas::new().with_facts("AWS::SQS::Queue", queue.schema.clone());
    Pipeline::new(Arc::new(stacks), Arc::new(reader), Arc::new(schemas))
}

fn check_unreadable(store: &MemoryStore) -> StackReport {
    let selectors = vec!["App".to_string()];
    let run = block_on(check_stacks(
        &pipeline_with_unreadable(),
        store,
        &selectors,
        &opts(),
    ))
    .unwrap();
    run.reports().remove(0)
}

#[test]
fn a_type_no_reader_reads_is_lost_coverage_and_named_in_the_report() {
    let r = check_unreadable(&MemoryStore::new());
    assert_eq!((r.coverage.total, r.coverage.checked), (3, 1));
    // The CodeBuild project is lost; the custom resource stays benign.
    assert_eq!(r.coverage.lost, 1);
    let strict = ExitFlags {
        fail: false,
        strict: true,
    };
    assert_eq!(exit_code(std::slice::from_ref(&r), strict), ExitCode::Fail);
    let text = realdrift_core::report::render_text(
        std::slice::from_ref(&r),
        realdrift_core::report::TextOptions::default(),
    );
    assert!(
        text.contains(
            "1 of 3 compared; not compared: Pipeline/Build (AWS::CodeBuild::Project: \
             no reader for the type), Seeder (Custom::Seeder: custom resource)"
        ),
        "{text}"
    );
    let doc = json_value(std::slice::from_ref(&r), strict);
    let listed = &doc["stacks"][0]["coverage"]["notCompared"];
    assert_eq!(listed[0]["reason"], "noReader", "{listed}");
    assert_eq!(listed[1]["reason"], "customResource", "{listed}");
}

#[test]
fn an_accept_rule_turns_an_unreadable_type_into_accepted_coverage() {
    let store = MemoryStore::new();
    let ignore = "accept:\n  # no Cloud Control read handler; rebuilt by the pipeline\n  \
                  - type: AWS::CodeBuild::*\n    reason: rebuilt by the pipeline on deploy\n";
    block_on(store.save(IGNORE_KEY, ignore, Precondition::None)).unwrap();
    let r = check_unreadable(&store);
    assert_eq!((r.coverage.lost, r.coverage.accepted), (0, 1));
    let strict = ExitFlags {
        fail: false,
        strict: true,
    };
    assert_eq!(exit_code(std::slice::from_ref(&r), strict), ExitCode::Ok);
    assert_eq!(
        r.not_compared[0].accepted.as_deref(),
        Some("rebuilt by the pipeline on deploy")
    );
    let text = realdrift_core::report::render_text(
        std::slice::from_ref(&r),
        realdrift_core::report::TextOptions::default(),
    );
    assert!(
        text.contains("(AWS::CodeBuild::Project: no reader for the type, accepted)"),
        "{text}"
    );
    let skipped = r
        .findings
        .iter()
        .find(|f| f.logical_id == "Build45A36621")
        .unwrap();
    assert!(skipped
        .note
        .as_deref()
        .unwrap()
        .starts_with("accepted as not compared (rebuilt by the pipeline on deploy)"));
    // An accept rule scoped to another stack accepts nothing here.
    let other = "accept:\n  - type: AWS::CodeBuild::Project\n    reason: r\n    stack: Other\n";
    block_on(store.save(IGNORE_KEY, other, Precondition::None)).unwrap();
    assert_eq!(check_unreadable(&store).coverage.lost, 1);
}
