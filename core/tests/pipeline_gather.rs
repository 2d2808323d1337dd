//! `gather` over the in-memory sources, with real corpus `liveRaw` models as
//! the live side: resolve passes, pass 1.5, custom/conditional/not-created
//! resources, deletion, child enumeration, nested stacks, call counts.

use futures_executor::block_on;
use realdrift_core::baseline::{ChildScan, ReadState};
use realdrift_core::classify::classify;
use realdrift_core::corpus::CorpusCase;
use realdrift_core::finding::Finding;
use realdrift_core::pipeline::memory::{
    MemoryChildren, MemoryKms, MemoryReader, MemoryStack, MemoryStacks,
};
use realdrift_core::pipeline::{diff_counts, CallCounter};
use realdrift_core::pipeline::{
    discover_stacks, GatheredStack, LiveChild, Pipeline, PipelineError, ReadOutcome,
    SchemaPrefetch, SourceError, StackDescription, StackResourceRow, Unavailable,
    UnavailableReason,
};
use realdrift_core::schema::InMemorySchemas;
use realdrift_core::{DeclaredValue, Tier};
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::sync::Arc;

const STACK_ID: &str = "arn:aws:cloudformation:us-east-1:111111111111:stack/App/0f0f";

fn case(name: &str) -> CorpusCase {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/cases");
    CorpusCase::load(&dir.join(name)).unwrap()
}

fn row(logical: &str, ty: &str, pid: Option<&str>) -> StackResourceRow {
    StackResourceRow {
        logical_id: logical.into(),
        physical_id: pid.map(str::to_string),
        resource_type: ty.into(),
        status: "CREATE_COMPLETE".into(),
    }
}

struct Fixture {
    queue: CorpusCase,
    function: CorpusCase,
    permission: CorpusCase,
    url: CorpusCase,
    stacks: MemoryStacks,
    reader: MemoryReader,
    children: MemoryChildren,
    schemas: InMemorySchemas,
    counter: CallCounter,
}

/// A stack with a queue, a function, a permission whose FunctionName is
/// `Fn::GetAtt [Fn, Arn]`, a custom resource, a resource behind a false
/// condition, a deleted topic, a nested stack and a resource never created.
fn fixture() -> Fixture {
    let queue = case("AWS__SQS__Queue.WorkQueue.json");
    let function = case("AWS__Lambda__Function.UrlFnE068003E.json");
    let permission = case("AWS__Lambda__Permission.ApiANYpingPingPermission3EC4806D.json");
    let url = case("AWS__Lambda__Url.FnUrl.json");
    let fn_arn = function.live_raw["Arn"].as_str().unwrap().to_string();

    let mut perm_props = permission.resource.declared.clone();
    perm_props.insert("FunctionName".into(), json!({"Fn::GetAtt": ["Fn", "Arn"]}));
    let template = json!({
        "Conditions": {"IsProd": {"Fn::Equals": ["a", "b"]}},
        "Resources": {
            "Queue": {"Type": "AWS::SQS::Queue", "Properties": queue.resource.declared,
                       "Metadata": {"aws:cdk:path": "App/Queue/Resource"}},
            "Fn": {"Type": "AWS::Lambda::Function", "Properties": function.resource.declared},
            "Perm": {"Type": "AWS::Lambda::Permission", "Properties": perm_props},
            "Custom": {"Type": "Custom::Thing", "Properties": {"ServiceToken": "arn:x"}},
            "ProdOnly": {"Type": "AWS::SQS::Queue", "Condition": "IsProd"},
            "Topic": {"Type": "AWS::SNS::Topic"},
            "Nested": {"Type": "AWS::CloudFormation::Stack", "Properties": {"TemplateURL": "https://x"}},
            "NeverCreated": {"Type": "AWS::SNS::Topic"},
            "CDKMetadata": {"Type": "AWS::CDK::Metadata", "Properties": {"Analytics": "v2"}}
        }
    });
    let queue_pid = queue.resource.physical_id.clone().unwrap();
    let fn_pid = function.resource.physical_id.clone().unwrap();
    let perm_pid = permission.resource.physical_id.clone().unwrap();
    let counter = CallCounter::new();
    let stacks = MemoryStacks {
        counter: counter.clone(),
        ..Default::default()
    }
    .with_stack(MemoryStack {
        description: StackDescription {
            name: "App".into(),
            stack_id: STACK_ID.into(),
            status: "CREATE_COMPLETE".into(),
            tags: BTreeMap::from([("team".to_string(), "core".to_string())]),
            ..Default::default()
        },
        template: template.to_string(),
        resources: vec![
            row("Queue", "AWS::SQS::Queue", Some(&queue_pid)),
            row("Fn", "AWS::Lambda::Function", Some(&fn_pid)),
            row("Perm", "AWS::Lambda::Permission", Some(&perm_pid)),
            row("Custom", "Custom::Thing", Some("custom-1")),
            row(
                "Topic",
                "AWS::SNS::Topic",
                Some("arn:aws:sns:us-east-1:111111111111:gone"),
            ),
            row(
                "Nested",
                "AWS::CloudFormation::Stack",
                Some("arn:aws:cloudformation:us-east-1:111111111111:stack/App-Nested/1"),
            ),
            row("CDKMetadata", "AWS::CDK::Metadata", Some("meta")),
            // moto lists resources it could not create as empty rows.
            row("", "", None),
        ],
    });
    let mut reader = MemoryReader {
        counter: counter.clone(),
        ..Default::default()
    }
    .with(
        "AWS::SQS::Queue",
        &queue_pid,
        ReadOutcome::found(queue.live_raw.clone()),
    )
    .with(
        "AWS::Lambda::Function",
        &fn_pid,
        ReadOutcome::found(function.live_raw.clone()),
    )
    .with(
        "AWS::Lambda::Permission",
        &perm_pid,
        ReadOutcome::found(permission.live_raw.clone()),
    )
    .with(
        "AWS::Lambda::Url",
        &fn_arn,
        ReadOutcome::found(url.live_raw.clone()),
    );
    reader
        .needs_declared
        .insert("AWS::Lambda::Permission".into(), "FunctionName".into());
    let children = MemoryChildren {
        parent_types: vec!["AWS::Lambda::Function", "AWS::SQS::Queue"],
        children: BTreeMap::from([
            (
                fn_pid.clone(),
                Ok(vec![
                    LiveChild {
                        resource_type: "AWS::Lambda::Url".into(),
                        identifier: fn_arn.clone(),
                        model: None,
                        owner_lookup_id: Some(fn_arn.clone()),
                    },
                    LiveChild {
                        resource_type: "AWS::Lambda::Alias".into(),
                        identifier: format!("{fn_arn}:managed-elsewhere"),
                        model: Some(json!({"Name": "managed-elsewhere"})),
                        owner_lookup_id: Some(format!("{fn_arn}:managed-elsewhere")),
                    },
                ]),
            ),
            (
                queue_pid.clone(),
                Err(SourceError::AccessDenied("sqs:GetQueueAttributes".into())),
            ),
        ]),
    };
    let schemas = InMemorySchemas::new()
        .with_facts("AWS::SQS::Queue", queue.schema.clone())
        .with_facts("AWS::Lambda::Function", function.schema.clone())
        .with_facts("AWS::Lambda::Permission", permission.schema.clone())
        .with_facts("AWS::Lambda::Url", url.schema.clone());
    Fixture {
        queue,
        function,
        permission,
        url,
        stacks,
        reader,
        children,
        schemas,
        counter,
    }
}

fn pipeline(f: &Fixture, concurrency: usize) -> Pipeline {
    let mut stacks = f.stacks.clone();
    stacks.owners.insert(
        format!(
            "{}:managed-elsewhere",
            f.function.live_raw["Arn"].as_str().unwrap()
        ),
        "OtherStack".into(),
    );
    Pipeline::new(
        Arc::new(stacks),
        Arc::new(f.reader.clone()),
        Arc::new(f.schemas.clone()),
    )
    .with_children(Arc::new(f.children.clone()))
    .with_kms(Arc::new(MemoryKms::default()))
    .with_counter(f.counter.clone())
    .with_concurrency(concurrency)
}

async fn gather(f: &Fixture, concurrency: usize) -> GatheredStack {
    pipeline(f, concurrency).gather("App").await.unwrap()
}

fn finding_paths(r: &GatheredStack, logical: &str) -> Vec<(Tier, String)> {
    r.findings
        .iter()
        .filter(|x| x.logical_id == logical)
        .map(|x| (x.tier, x.path.clone()))
        .collect()
}

#[test]
fn resources_are_read_once_and_classified_with_their_inputs() {
    block_on(async {
        let f = fixture();
        let r = gather(&f, 16).await;
        assert_eq!(r.stack, "App");
        assert_eq!(r.account.as_deref(), Some("111111111111"));
        assert_eq!(r.region.as_deref(), Some("us-east-1"));
        assert_eq!(r.template_hash.len(), 64);

        // The queue: declared as in the corpus, live as in the corpus, and its
        // findings are exactly what classify says for those inputs.
        let q = r
            .resources
            .iter()
            .find(|x| x.logical_id == "Queue")
            .unwrap();
        assert_eq!(q.read, ReadState::Read);
        assert_eq!(q.live.as_ref(), Some(&f.queue.live_raw));
        assert_eq!(q.construct_path.as_deref(), Some("App/Queue/Resource"));
        let expected_declared: BTreeMap<String, DeclaredValue> = f
            .queue
            .resource
            .declared
            .iter()
            .map(|(k, v)| (k.clone(), DeclaredValue::from_json(v)))
            .collect();
        assert_eq!(q.declared, expected_declared);
        let input = realdrift_core::classify::ResourceInput {
            logical_id: "Queue".into(),
            resource_type: "AWS::SQS::Queue".into(),
            physical_id: q.physical_id.clone(),
            construct_path: q.construct_path.clone(),
            declared: expected_declared,
            sibling_policy_names: Default::default(),
        };
        let direct = classify(&input, &f.queue.live_raw, &f.queue.schema, &r.context);
        let via_pipeline: Vec<_> = r
            .findings
            .iter()
            .filter(|x| x.logical_id == "Queue" && x.tier != Tier::Skipped)
            .cloned()
            .collect();
        assert_eq!(via_pipeline, direct);
        assert_eq!(
            r.context.stack_tags.get("team").map(String::as_str),
            Some("core")
        );
        assert_eq!(r.context.stack_name.as_deref(), Some("App"));

        // One read per resource: no read for custom/metadata/nested/not created.
        let calls = &r.api_calls;
        assert_eq!(calls.get("memory:ReadAWS::SQS::Queue"), Some(&1));
        assert_eq!(calls.get("memory:ReadAWS::Lambda::Function"), Some(&1));
        assert_eq!(calls.get("memory:ReadAWS::Lambda::Permission"), Some(&1));
        assert_eq!(calls.get("memory:ReadAWS::SNS::Topic"), Some(&1));
        assert_eq!(calls.get("memory:ReadAWS::Lambda::Url"), Some(&1));
        assert!(calls.keys().all(|k| !k.contains("Custom")
            && !k.contains("CDK")
            && !k.contains("CloudFormation::Stack")));
        assert_eq!(calls.get("cloudformation:DescribeStacks"), Some(&1));
        assert_eq!(calls.get("cloudformation:GetTemplate"), Some(&1));
        assert_eq!(calls.get("cloudformation:ListStackResources"), Some(&1));
        assert_eq!(
            calls.get("cloudformation:ListExports"),
            None,
            "no Fn::ImportValue in the template"
        );
    })
}

#[test]
fn getatt_targets_resolve_against_live_attributes_then_reread() {
    block_on(async {
        let f = fixture();
        let r = gather(&f, 4).await;
        let perm = r.resources.iter().find(|x| x.logical_id == "Perm").unwrap();
        assert_eq!(
            perm.read,
            ReadState::Read,
            "pass 1.5 re-read the permission"
        );
        assert_eq!(
            perm.declared.get("FunctionName"),
            Some(&DeclaredValue::String(
                f.function.live_raw["Arn"].as_str().unwrap().into()
            ))
        );
        assert_eq!(perm.live.as_ref(), Some(&f.permission.live_raw));
    })
}

#[test]
fn custom_conditional_deleted_nested_and_uncreated_resources() {
    block_on(async {
        let f = fixture();
        let r = gather(&f, 16).await;
        assert_eq!(
            finding_paths(&r, "Custom"),
            vec![(Tier::Skipped, String::new())]
        );
        assert!(
            finding_paths(&r, "ProdOnly").is_empty(),
            "condition false: not expected to exist"
        );
        assert!(r.resources.iter().all(|x| x.logical_id != "ProdOnly"));
        assert_eq!(
            finding_paths(&r, "Topic"),
            vec![(Tier::Deleted, String::new())]
        );
        let topic = r
            .resources
            .iter()
            .find(|x| x.logical_id == "Topic")
            .unwrap();
        assert_eq!(topic.read, ReadState::Deleted);
        assert_eq!(
            finding_paths(&r, "NeverCreated"),
            vec![(Tier::Skipped, String::new())]
        );
        assert!(finding_paths(&r, "CDKMetadata").is_empty());
        assert_eq!(
            r.nested_stacks,
            vec!["arn:aws:cloudformation:us-east-1:111111111111:stack/App-Nested/1".to_string()]
        );
        // checked: Queue, Fn, Perm read, Topic deleted. skipped: Custom,
        // NeverCreated. ProdOnly, CDKMetadata and Nested are not counted.
        assert_eq!(r.coverage.total, 6);
        assert_eq!(r.coverage.checked, 4);
        assert_eq!(r.coverage.skipped, 2);
        // The failed queue enumeration is the one lost piece of coverage.
        assert_eq!(r.coverage.lost, 1);
    })
}

#[test]
fn out_of_band_children_are_added_findings_read_in_full() {
    block_on(async {
        let f = fixture();
        let r = gather(&f, 16).await;
        let added: Vec<_> = r
            .findings
            .iter()
            .filter(|x| x.tier == Tier::Added)
            .collect();
        assert_eq!(
            added.len(),
            1,
            "the alias owned by OtherStack is not reported"
        );
        let url = added[0];
        assert_eq!(url.resource_type, "AWS::Lambda::Url");
        assert_eq!(url.path, "");
        assert_eq!(url.actual.as_ref(), Some(&f.url.live_raw));
        assert!(url.logical_id.starts_with("Fn+Url["));
        assert_eq!(
            r.added_parents.get(&url.logical_id).map(String::as_str),
            Some("Fn")
        );
        let func = r.resources.iter().find(|x| x.logical_id == "Fn").unwrap();
        assert_eq!(func.children, ChildScan::Complete);
        let queue = r
            .resources
            .iter()
            .find(|x| x.logical_id == "Queue")
            .unwrap();
        assert_eq!(queue.children, ChildScan::Failed);
        // The queue was compared: a failed child listing loses coverage of
        // its out-of-band children only, it does not make the queue skipped.
        assert_eq!(queue.read, ReadState::Read);
        assert!(
            !r.findings
                .iter()
                .any(|x| x.logical_id == "Queue" && x.tier == Tier::Skipped),
            "{:?}",
            finding_paths(&r, "Queue")
        );
        assert!(
            r.notes.iter().any(|n| n
                .starts_with("Queue (AWS::SQS::Queue): out-of-band children not checked")
                && n.contains("sqs:GetQueueAttributes")),
            "{:?}",
            r.notes
        );
        // The baseline stage sees the same run.
        let ctx = r.run_context();
        assert_eq!(ctx.identity.account_id, "111111111111");
        assert!(ctx.was_read("Queue"));
        assert_eq!(ctx.added_parents, r.added_parents);
        assert_eq!(
            r.api_calls.get("cloudformation:DescribeStackResources"),
            Some(&2)
        );
    })
}

#[test]
fn concurrency_does_not_change_the_report() {
    block_on(async {
        let f = fixture();
        let one = gather(&f, 1).await;
        let many = gather(&f, 16).await;
        assert_eq!(one.findings, many.findings);
        assert_eq!(one.resources, many.resources);
        assert_eq!(one.api_calls, many.api_calls);
    })
}

#[test]
fn stack_level_failures_name_the_stack() {
    block_on(async {
        let f = fixture();
        let p = pipeline(&f, 2);
        match p.gather("Missing").await {
            Err(PipelineError::Source {
                stack,
                source: SourceError::StackNotFound(_),
            }) => assert_eq!(stack, "Missing"),
            other => panic!("unexpected {other:?}"),
        }
        let mut stacks = f.stacks.clone();
        let mut bad = stacks.stacks["App"].clone();
        bad.description.name = "Broken".into();
        bad.template = "{ not json".into();
        stacks = stacks.with_stack(bad);
        let p = Pipeline::new(
            Arc::new(stacks),
            Arc::new(f.reader.clone()),
            Arc::new(f.schemas.clone()),
        );
        match p.gather("Broken").await {
            Err(e @ PipelineError::Template { .. }) => assert!(e.to_string().contains("Broken")),
            other => panic!("unexpected {other:?}"),
        }
    })
}

#[test]
fn a_type_without_schema_is_skipped_not_compared() {
    block_on(async {
        let f = fixture();
        let schemas =
            InMemorySchemas::new().with_facts("AWS::Lambda::Function", f.function.schema.clone());
        let p = Pipeline::new(
            Arc::new(f.stacks.clone()),
            Arc::new(f.reader.clone()),
            Arc::new(schemas),
        );
        let r = p.gather("App").await.unwrap();
        let q: Vec<_> = finding_paths(&r, "Queue");
        assert_eq!(q, vec![(Tier::Skipped, String::new())]);
        assert!(r.findings.iter().any(|x| x.logical_id == "Queue"
            && x.note
                .as_deref()
                .unwrap_or("")
                .contains("no registry schema")));
        // Read but not comparable: lost coverage, like the permission's.
        assert_eq!(r.coverage.lost, 2, "{:?}", r.coverage);
    })
}

#[test]
fn imports_fetch_exports_and_managed_aliases_fetch_kms_targets() {
    block_on(async {
        let f = fixture();
        let template = json!({"Resources": {"Q": {"Type": "AWS::SQS::Queue", "Properties": {
        "QueueName": {"Fn::ImportValue": "shared-name"},
        "KmsMasterKeyId": "alias/aws/sqs"}}}});
        let mut stacks = MemoryStacks::default().with_stack(MemoryStack {
            description: StackDescription {
                name: "Imp".into(),
                stack_id: STACK_ID.replace("App", "Imp"),
                status: "CREATE_COMPLETE".into(),
                ..Default::default()
            },
            template: template.to_string(),
            resources: vec![row("Q", "AWS::SQS::Queue", Some("https://q"))],
        });
        stacks
            .exports
            .insert("shared-name".into(), "the-queue".into());
        let reader = MemoryReader::default().with(
            "AWS::SQS::Queue",
            "https://q",
            ReadOutcome::found(json!({"QueueName": "the-queue"})),
        );
        let kms = MemoryKms {
            targets: BTreeMap::from([("alias/aws/sqs".to_string(), "k-1".to_string())]),
            failure: None,
        };
        let p = Pipeline::new(
            Arc::new(stacks),
            Arc::new(reader),
            Arc::new(f.schemas.clone()),
        )
        .with_kms(Arc::new(kms));
        let r = p.gather("Imp").await.unwrap();
        let q = &r.resources[0];
        assert_eq!(
            q.declared.get("QueueName"),
            Some(&DeclaredValue::String("the-queue".into()))
        );
        assert_eq!(
            r.context
                .kms_alias_targets
                .as_ref()
                .and_then(|m| m.get("alias/aws/sqs"))
                .map(String::as_str),
            Some("k-1")
        );
    })
}

#[test]
fn discovery_by_name_glob_and_cdk_metadata() {
    block_on(async {
        let cdk = json!({"Resources": {"CDKMetadata": {"Type": "AWS::CDK::Metadata"}}}).to_string();
        let plain = json!({"Resources": {"Q": {"Type": "AWS::SQS::Queue"}}}).to_string();
        let mk = |name: &str, status: &str, template: &str, parent: Option<&str>| MemoryStack {
            description: StackDescription {
                name: name.into(),
                stack_id: format!("arn:aws:cloudformation:us-east-1:1:stack/{name}/x"),
                status: status.into(),
                parent_id: parent.map(str::to_string),
                ..Default::default()
            },
            template: template.into(),
            resources: vec![],
        };
        let stacks = MemoryStacks::default()
            .with_stack(mk("AppA", "UPDATE_COMPLETE", &cdk, None))
            .with_stack(mk("AppB", "UPDATE_IN_PROGRESS", &cdk, None))
            .with_stack(mk("AppNested", "CREATE_COMPLETE", &cdk, Some("arn:parent")))
            .with_stack(mk("Legacy", "CREATE_COMPLETE", &plain, None))
            .with_stack(mk("Failed", "ROLLBACK_COMPLETE", &cdk, None));
        // Every CDK stack, in any state: whether it is settled is decided
        // when it is gathered, so an unsettled one is an entry, not a remark.
        let all = discover_stacks(&stacks, &[]).await.unwrap();
        assert_eq!(
            all.stacks,
            vec!["AppA".to_string(), "AppB".to_string(), "Failed".to_string()]
        );
        assert!(all.unavailable.is_empty());
        let globbed = discover_stacks(
            &stacks,
            &["App*".to_string(), "Legacy".to_string(), "Nope".to_string()],
        )
        .await
        .unwrap();
        assert_eq!(
            globbed.stacks,
            vec!["AppA".to_string(), "AppB".to_string(), "Legacy".to_string()]
        );
        assert_eq!(
            globbed.unavailable,
            vec![Unavailable {
                stack: "Nope".into(),
                reason: UnavailableReason::NotFound,
            }]
        );
        assert!(discover_stacks(&stacks, &["[".to_string()]).await.is_err());
    })
}

#[test]
fn corpus_values_used_here_are_json_objects() {
    let f = fixture();
    for c in [&f.queue, &f.function, &f.permission, &f.url] {
        assert!(matches!(c.live_raw, Value::Object(_)));
    }
}

#[test]
fn gather_many_follows_nested_stacks_and_survives_failures() {
    block_on(async {
        let f = fixture();
        let mut stacks = f.stacks.clone();
        let nested_id = "arn:aws:cloudformation:us-east-1:111111111111:stack/App-Nested/1";
        stacks = stacks.with_stack(MemoryStack {
            description: StackDescription {
                name: "App-Nested".into(),
                stack_id: nested_id.into(),
                status: "CREATE_COMPLETE".into(),
                parent_id: Some(STACK_ID.into()),
                ..Default::default()
            },
            template: json!({"Resources": {"T": {"Type": "AWS::SNS::Topic"}}}).to_string(),
            resources: vec![row(
                "T",
                "AWS::SNS::Topic",
                Some("arn:aws:sns:us-east-1:111111111111:n"),
            )],
        });
        let p = Pipeline::new(
            Arc::new(stacks),
            Arc::new(f.reader.clone()),
            Arc::new(f.schemas.clone()),
        );
        let out = p
            .gather_many(&["Missing".to_string(), "App".to_string()])
            .await;
        assert_eq!(out.len(), 3);
        assert!(matches!(&out[0], Err(PipelineError::Source { stack, .. }) if stack == "Missing"));
        assert_eq!(out[1].as_ref().unwrap().stack, "App");
        let nested = out[2].as_ref().unwrap();
        assert_eq!(nested.stack, "App-Nested");
        assert_eq!(
            nested
                .findings
                .iter()
                .filter(|x| x.tier == Tier::Deleted)
                .count(),
            1
        );
    })
}

#[test]
fn gather_futures_can_be_spawned() {
    fn assert_send<T: Send>(_: &T) {}
    let f = fixture();
    let p = pipeline(&f, 2);
    let names = vec!["App".to_string()];
    let one = p.gather("App");
    assert_send(&one);
    let many = p.gather_many(&names);
    assert_send(&many);
}

/// A DescribeType stand-in that cannot fetch anything.
struct FailingPrefetch;

impl SchemaPrefetch for FailingPrefetch {
    fn prefetch<'a>(
        &'a self,
        types: &'a [String],
    ) -> futures_util::future::BoxFuture<'a, BTreeMap<String, String>> {
        let failed = types
            .iter()
            .map(|t| {
                (
                    t.clone(),
                    format!("DescribeType {t}: Throttling: slow down"),
                )
            })
            .collect();
        Box::pin(async move { failed })
    }
}

#[test]
fn a_schema_fetch_error_is_lost_coverage_naming_the_error() {
    block_on(async {
        let f = fixture();
        let schemas =
            InMemorySchemas::new().with_facts("AWS::Lambda::Function", f.function.schema.clone());
        let p = Pipeline::new(
            Arc::new(f.stacks.clone()),
            Arc::new(f.reader.clone()),
            Arc::new(schemas),
        )
        .with_schema_prefetch(Arc::new(FailingPrefetch));
        let r = p.gather("App").await.unwrap();
        let note = r
            .findings
            .iter()
            .find(|x| x.logical_id == "Queue")
            .and_then(|x| x.note.clone())
            .unwrap_or_default();
        assert!(
            note.contains("no registry schema") && note.contains("Throttling: slow down"),
            "{note}"
        );
        assert_eq!(r.coverage.lost, 2, "{:?}", r.coverage);
    })
}

#[test]
fn a_read_target_that_stays_unresolved_is_lost_coverage() {
    block_on(async {
        let f = fixture();
        let mut stacks = f.stacks.clone();
        let mut app = stacks.stacks["App"].clone();
        // An attribute the function's live model does not have: FunctionName
        // stays unresolved after the second pass, so the permission is never read.
        app.template = app
            .template
            .replace(r#"["Fn","Arn"]"#, r#"["Fn","NoSuchAttribute"]"#);
        assert!(app.template.contains("NoSuchAttribute"));
        stacks = stacks.with_stack(app);
        let p = Pipeline::new(
            Arc::new(stacks),
            Arc::new(f.reader.clone()),
            Arc::new(f.schemas.clone()),
        );
        let r = p.gather("App").await.unwrap();
        let perm: Vec<_> = r
            .findings
            .iter()
            .filter(|x| x.logical_id == "Perm" && x.tier == Tier::Skipped)
            .collect();
        assert_eq!(perm.len(), 1, "{:?}", finding_paths(&r, "Perm"));
        assert!(perm[0]
            .note
            .as_deref()
            .unwrap_or_default()
            .contains("read target unresolved"));
        // The custom resource and the never-created topic are benign skips;
        // only the permission's read is lost.
        assert_eq!((r.coverage.skipped, r.coverage.lost), (3, 1));
    })
}

/// One stack, two queues read from the corpus model: properties that cannot
/// be resolved as a whole, and one unresolvable leaf inside a property.
fn unresolved_stack() -> (Pipeline, GatheredStack) {
    let queue = case("AWS__SQS__Queue.WorkQueue.json");
    let template = json!({
        "Parameters": {"Mode": {"Type": "String"}},
        "Conditions": {"Fast": {"Fn::Equals": [{"Ref": "Mode"}, "fast"]}},
        "Resources": {
            "Whole": {"Type": "AWS::SQS::Queue",
                "Properties": {"Fn::If": ["Fast", {"DelaySeconds": 0}, {"DelaySeconds": 5}]}},
            "Leaf": {"Type": "AWS::SQS::Queue", "Properties": {
                "VisibilityTimeout": 30,
                "RedrivePolicy": {
                    "deadLetterTargetArn": {"Fn::GetAtt": ["Elsewhere", "Arn"]},
                    "maxReceiveCount": 3
                }
            }}
        }
    });
    let stacks = MemoryStacks::default().with_stack(MemoryStack {
        description: StackDescription {
            name: "Unres".into(),
            stack_id: STACK_ID.replace("App", "Unres"),
            status: "CREATE_COMPLETE".into(),
            ..Default::default()
        },
        template: template.to_string(),
        resources: vec![
            row("Whole", "AWS::SQS::Queue", Some("https://whole")),
            row("Leaf", "AWS::SQS::Queue", Some("https://leaf")),
        ],
    });
    let reader = MemoryReader::default()
        .with(
            "AWS::SQS::Queue",
            "https://whole",
            ReadOutcome::found(queue.live_raw.clone()),
        )
        .with(
            "AWS::SQS::Queue",
            "https://leaf",
            ReadOutcome::found(queue.live_raw.clone()),
        );
    let schemas = InMemorySchemas::new().with_facts("AWS::SQS::Queue", queue.schema.clone());
    let p = Pipeline::new(Arc::new(stacks), Arc::new(reader), Arc::new(schemas));
    let g = block_on(p.gather("Unres")).unwrap();
    (p, g)
}

#[test]
fn properties_that_fail_to_resolve_are_unresolved_never_an_empty_template() {
    let (_, g) = unresolved_stack();
    let whole: Vec<_> = g
        .findings
        .iter()
        .filter(|f| f.logical_id == "Whole")
        .collect();
    assert_eq!(whole.len(), 1, "{whole:?}");
    assert_eq!(
        (whole[0].tier, whole[0].path.as_str()),
        (Tier::Unresolved, "")
    );
    assert!(
        whole[0]
            .note
            .as_deref()
            .unwrap_or_default()
            .contains("Fn::If Fast: the condition cannot be evaluated"),
        "{whole:?}"
    );
    let rec = g
        .resources
        .iter()
        .find(|r| r.logical_id == "Whole")
        .unwrap();
    assert_eq!(rec.read, ReadState::NotRead, "its entries are not judged");
    assert!(g.notes.is_empty(), "a finding, not a note: {:?}", g.notes);
    assert_eq!((g.coverage.checked, g.coverage.lost), (1, 1));
}

#[test]
fn an_unresolved_finding_names_the_failed_intrinsic_at_the_leaf() {
    let (_, g) = unresolved_stack();
    let leaf: Vec<_> = g
        .findings
        .iter()
        .filter(|f| f.logical_id == "Leaf" && f.tier == Tier::Unresolved)
        .collect();
    assert_eq!(leaf.len(), 1, "{leaf:?}");
    assert_eq!(leaf[0].path, "RedrivePolicy.deadLetterTargetArn");
    assert_eq!(
        leaf[0].note.as_deref(),
        Some("Fn::GetAtt Elsewhere.Arn: Elsewhere was not read")
    );
}

#[test]
fn the_second_resolve_pass_decides_and_its_error_is_reported() {
    let queue = case("AWS__SQS__Queue.WorkQueue.json");
    // Properties taken whole from a sibling's live attribute: unknown in the
    // first pass; in the second it resolves (an object) or fails (a string).
    let template = json!({"Resources": {
        "Src": {"Type": "AWS::SQS::Queue"},
        "Good": {"Type": "AWS::SQS::Queue", "Properties": {"Fn::GetAtt": ["Src", "Shape"]}},
        "Bad": {"Type": "AWS::SQS::Queue", "Properties": {"Fn::GetAtt": ["Src", "QueueUrl"]}}
    }});
    let mut src = queue.live_raw.clone();
    src["QueueUrl"] = json!("https://src");
    src["Shape"] = json!({"VisibilityTimeout": queue.live_raw["VisibilityTimeout"]});
    let stacks = MemoryStacks::default().with_stack(MemoryStack {
        description: StackDescription {
            name: "Two".into(),
            stack_id: STACK_ID.replace("App", "Two"),
            status: "CREATE_COMPLETE".into(),
            ..Default::default()
        },
        template: template.to_string(),
        resources: vec![
            row("Src", "AWS::SQS::Queue", Some("https://src")),
            row("Good", "AWS::SQS::Queue", Some("https://good")),
            row("Bad", "AWS::SQS::Queue", Some("https://bad")),
        ],
    });
    let reader = MemoryReader::default()
        .with("AWS::SQS::Queue", "https://src", ReadOutcome::found(src))
        .with(
            "AWS::SQS::Queue",
            "https://good",
            ReadOutcome::found(queue.live_raw.clone()),
        )
        .with(
            "AWS::SQS::Queue",
            "https://bad",
            ReadOutcome::found(queue.live_raw.clone()),
        );
    let schemas = InMemorySchemas::new().with_facts("AWS::SQS::Queue", queue.schema.clone());
    let p = Pipeline::new(Arc::new(stacks), Arc::new(reader), Arc::new(schemas));
    let g = block_on(p.gather("Two")).unwrap();
    let good = g.resources.iter().find(|r| r.logical_id == "Good").unwrap();
    assert_eq!(good.read, ReadState::Read);
    assert!(good.declared.contains_key("VisibilityTimeout"));
    let bad: Vec<_> = g
        .findings
        .iter()
        .filter(|f| f.logical_id == "Bad")
        .collect();
    assert_eq!(bad.len(), 1, "{bad:?}");
    assert_eq!(bad[0].tier, Tier::Unresolved);
    assert!(
        bad[0]
            .note
            .as_deref()
            .unwrap_or_default()
            .contains("does not resolve to an object"),
        "the second pass's error: {bad:?}"
    );
}

/// Makes the reader return `live` for the fixture's function, with the
/// reader's own word that `gap` (path, why) could not be read.
fn read_function_as(f: &mut Fixture, live: serde_json::Value, gap: Option<(&str, &str)>) {
    let fn_pid = f.function.resource.physical_id.clone().unwrap();
    let mut model = realdrift_core::pipeline::LiveModel::new(live);
    if let Some((path, why)) = gap {
        model.gaps.insert(path.into(), why.into());
    }
    f.reader = std::mem::take(&mut f.reader).with(
        "AWS::Lambda::Function",
        &fn_pid,
        ReadOutcome::Found(model),
    );
}

#[test]
fn a_supplement_read_that_failed_is_a_read_gap_and_lost_coverage() {
    block_on(async {
        let mut f = fixture();
        let live = f.function.live_raw.clone();
        read_function_as(
            &mut f,
            live,
            Some(("Code", "code digest not checked: denied")),
        );
        let before = gather(&fixture(), 16).await.coverage.lost;
        let r = gather(&f, 16).await;
        let gaps: Vec<_> = r
            .findings
            .iter()
            .filter(|x| x.logical_id == "Fn" && x.tier == Tier::ReadGap && x.path == "Code")
            .collect();
        assert_eq!(gaps.len(), 1, "{:?}", finding_paths(&r, "Fn"));
        assert!(gaps[0]
            .note
            .as_deref()
            .unwrap_or_default()
            .contains("code digest not checked: denied"));
        assert_eq!(r.coverage.lost, before + 1);
    })
}

#[test]
fn a_value_a_failed_supplement_left_out_is_unread_not_removed() {
    // Lambda's read returns a set Handler whenever it is set, so its absence
    // is a removal; but a reader that says it could not read the path only
    // left it out.
    block_on(async {
        let mut f = fixture();
        let mut live = f.function.live_raw.clone();
        live.as_object_mut().unwrap().remove("Handler");
        read_function_as(
            &mut f,
            live.clone(),
            Some(("Handler", "handler not checked: denied")),
        );
        let at = |r: &GatheredStack| {
            r.findings
                .iter()
                .filter(|x| x.logical_id == "Fn" && x.path == "Handler")
                .map(|x| x.tier)
                .collect::<Vec<_>>()
        };
        assert_eq!(at(&gather(&f, 16).await), vec![Tier::ReadGap]);
        // Without the reader's word, the missing value is a removal.
        read_function_as(&mut f, live, None);
        assert_eq!(at(&gather(&f, 16).await), vec![Tier::Declared]);
    })
}

/// The corpus security group with two rules added by sibling ingress
/// resources (a self reference and a prefix list), as CDK writes them.
fn sg_stack(with_siblings: bool) -> GatheredStack {
    let sg = case("AWS__EC2__SecurityGroup.SgD4954771.protocols.json");
    let sg_id = sg.resource.physical_id.clone().unwrap();
    let mut resources = json!({"SgD4954771": {"Type": "AWS::EC2::SecurityGroup",
        "Properties": sg.resource.declared,
        "Metadata": {"aws:cdk:path": "CdkRealDriftIntegSgProto/Sg"}}});
    if with_siblings {
        resources["SelfRef"] = json!({"Type": "AWS::EC2::SecurityGroupIngress", "Properties": {
            "GroupId": {"Fn::GetAtt": ["SgD4954771", "GroupId"]}, "IpProtocol": "tcp",
            "FromPort": 9000, "ToPort": 9000, "Description": "self ref",
            "SourceSecurityGroupId": {"Fn::GetAtt": ["SgD4954771", "GroupId"]}}});
        resources["FromList"] = json!({"Type": "AWS::EC2::SecurityGroupIngress", "Properties": {
            "GroupId": {"Fn::GetAtt": ["SgD4954771", "GroupId"]}, "IpProtocol": "tcp",
            "FromPort": 3306, "ToPort": 3306, "Description": "mysql from prefix list",
            "SourcePrefixListId": "pl-0767c9e96a31aed5a"}});
    }
    let stacks = MemoryStacks::default().with_stack(MemoryStack {
        description: StackDescription {
            name: "CdkRealDriftIntegSgProto".into(),
            stack_id: STACK_ID.replace("App", "CdkRealDriftIntegSgProto"),
            status: "CREATE_COMPLETE".into(),
            ..Default::default()
        },
        template: json!({"Resources": resources}).to_string(),
        resources: vec![
            row("SgD4954771", "AWS::EC2::SecurityGroup", Some(&sg_id)),
            row(
                "SelfRef",
                "AWS::EC2::SecurityGroupIngress",
                Some("sgr-self"),
            ),
            row(
                "FromList",
                "AWS::EC2::SecurityGroupIngress",
                Some("sgr-list"),
            ),
        ],
    });
    let reader = MemoryReader::default()
        .with(
            "AWS::EC2::SecurityGroup",
            &sg_id,
            ReadOutcome::found(sg.live_raw.clone()),
        )
        .with(
            "AWS::EC2::SecurityGroupIngress",
            "sgr-self",
            ReadOutcome::skipped("not under test"),
        )
        .with(
            "AWS::EC2::SecurityGroupIngress",
            "sgr-list",
            ReadOutcome::skipped("not under test"),
        );
    let schemas = InMemorySchemas::new().with_facts("AWS::EC2::SecurityGroup", sg.schema.clone());
    let p = Pipeline::new(Arc::new(stacks), Arc::new(reader), Arc::new(schemas));
    block_on(p.gather("CdkRealDriftIntegSgProto")).unwrap()
}

#[test]
fn sibling_facts_come_from_the_stack_and_match_the_corpus_replay() {
    let sg = case("AWS__EC2__SecurityGroup.SgD4954771.protocols.json");
    let g = sg_stack(true);
    assert_eq!(
        g.context.sibling_facts.get("siblingSgRules"),
        sg.opts.get("siblingSgRules"),
        "the live run computes what the corpus replay passes in"
    );
    let findings: Vec<_> = g
        .findings
        .iter()
        .filter(|f| f.logical_id == "SgD4954771")
        .cloned()
        .collect();
    assert_eq!(
        findings, sg.expected,
        "the rules the siblings own are not drift"
    );
    // Without the sibling resources the same live rules are out of band.
    let alone = sg_stack(false);
    assert!(
        alone
            .findings
            .iter()
            .any(|f| f.tier.is_drift() && f.path.starts_with("SecurityGroupIngress")),
        "{:?}",
        alone.findings
    );
}

#[test]
fn a_scoped_gather_reads_only_the_selected_resources() {
    block_on(async {
        let f = fixture();
        let full = gather(&f, 16).await;
        let before = f.reader.counter.snapshot();
        let only = BTreeSet::from(["Fn".to_string()]);
        let r = pipeline(&f, 16).gather_only("App", &only).await.unwrap();
        let mut reads = diff_counts(&before, &f.reader.counter.snapshot());
        reads.retain(|k, _| k.starts_with("memory:"));
        assert_eq!(
            reads,
            BTreeMap::from([
                ("memory:ReadAWS::Lambda::Function".to_string(), 1),
                ("memory:ReadAWS::Lambda::Url".to_string(), 1),
            ]),
            "the selected function and its out-of-band URL; not the queue nor the permission"
        );
        // Its findings are those of the full gather, out-of-band children included.
        let owned = |g: &GatheredStack| -> Vec<Finding> {
            g.findings
                .iter()
                .filter(|x| {
                    x.logical_id == "Fn"
                        || g.added_parents
                            .get(&x.logical_id)
                            .is_some_and(|p| p == "Fn")
                })
                .cloned()
                .collect()
        };
        assert_eq!(owned(&r), owned(&full));
        assert_eq!(r.findings, owned(&r), "nothing of the other resources");
        assert_eq!((r.coverage.total, r.coverage.checked), (1, 1));
        // Every declared resource stays known (declared children are never `added`).
        assert_eq!(r.resources.len(), full.resources.len());
        let queue = r
            .resources
            .iter()
            .find(|x| x.logical_id == "Queue")
            .unwrap();
        assert_eq!(queue.read, ReadState::NotRead);
        assert!(r.nested_stacks.is_empty());

        // The permission's FunctionName is `Fn::GetAtt [Fn, Arn]`: the
        // function is read too, so it resolves as in a full gather.
        let only = BTreeSet::from(["Perm".to_string()]);
        let r = pipeline(&f, 16).gather_only("App", &only).await.unwrap();
        let perm = r.resources.iter().find(|x| x.logical_id == "Perm").unwrap();
        let full_perm = full
            .resources
            .iter()
            .find(|x| x.logical_id == "Perm")
            .unwrap();
        assert_eq!(perm.declared, full_perm.declared);
        assert_eq!(perm.read, ReadState::Read);
        assert!(
            r.findings.iter().all(|x| x.logical_id == "Perm"),
            "{:?}",
            r.findings
        );
        assert_eq!(r.coverage.total, 1);
    })
}
