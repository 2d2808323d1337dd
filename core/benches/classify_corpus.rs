//! Classify throughput over the golden corpus.
//!
//! Every case is loaded and turned into classify inputs once, outside the
//! timed loop; the timed part is classify alone, single-threaded and warm.
//! `corpus_pass` reports cases/second over the whole corpus; `heavy_case`
//! times the largest cases (by file size) one at a time.
//!
//! The corpus is read from `REALDRIFT_CORPUS_DIR`, else `../shared/corpus/cases`
//! beside the repository; without it the benchmark prints a note and times nothing.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use realdrift_core::classify::{classify, ClassifyContext, ResourceInput};
use realdrift_core::corpus::{case_files, context_from_opts, resource_from_case, CorpusCase};
use realdrift_core::schema::SchemaFacts;
use serde_json::Value;
use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

/// How many of the largest cases get their own benchmark.
const HEAVY_CASES: usize = 3;

/// One case's classify inputs, built ahead of timing.
struct Prepared {
    name: String,
    bytes: u64,
    resource: ResourceInput,
    live: Value,
    schema: SchemaFacts,
    ctx: ClassifyContext,
}

impl Prepared {
    fn classify(&self) -> usize {
        classify(&self.resource, &self.live, &self.schema, &self.ctx).len()
    }
}

fn corpus_dir() -> PathBuf {
    if let Ok(d) = std::env::var("REALDRIFT_CORPUS_DIR") {
        return PathBuf::from(d);
    }
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/cases")
}

/// Loads every readable case in the corpus, sorted by file name.
fn load_corpus() -> Vec<Prepared> {
    let dir = corpus_dir();
    let Ok(paths) = case_files(&dir) else {
        eprintln!(
            "note: corpus dir {} unreadable; nothing to bench",
            dir.display()
        );
        return Vec::new();
    };
    let mut cases = Vec::with_capacity(paths.len());
    for path in paths {
        let case = match CorpusCase::load(&path) {
            Ok(c) => c,
            Err(e) => {
                eprintln!("note: skipping {e}");
                continue;
            }
        };
        cases.push(Prepared {
            name: path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
            bytes: std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0),
            resource: resource_from_case(&case),
            ctx: context_from_opts(&case.opts, case.resource.construct_path.as_deref()),
            live: case.live_raw,
            schema: case.schema,
        });
    }
    cases
}

fn bench_classify(c: &mut Criterion) {
    let cases = load_corpus();
    if cases.is_empty() {
        return;
    }
    let findings: usize = cases.iter().map(Prepared::classify).sum();
    eprintln!(
        "corpus: {} cases, {findings} findings per pass",
        cases.len()
    );

    let mut group = c.benchmark_group("classify");
    group
        .measurement_time(Duration::from_secs(5))
        .warm_up_time(Duration::from_secs(1))
        .sample_size(20);

    group.throughput(Throughput::Elements(cases.len() as u64));
    group.bench_function("corpus_pass", |b| {
        b.iter(|| {
            for p in &cases {
                black_box(p.classify());
            }
        })
    });

    let mut heavy: Vec<&Prepared> = cases.iter().collect();
    heavy.sort_by(|a, b| b.bytes.cmp(&a.bytes).then_with(|| a.name.cmp(&b.name)));
    group.throughput(Throughput::Elements(1));
    for p in heavy.into_iter().take(HEAVY_CASES) {
        group.bench_with_input(BenchmarkId::new("heavy_case", &p.name), p, |b, p| {
            b.iter(|| black_box(p.classify()))
        });
    }
    group.finish();
}

/// A security group of `n` ingress rules read back in reverse order: the
/// unordered-list matching at its worst for an unchanged list.
fn reversed_rules(n: usize) -> Prepared {
    let rules: Vec<Value> = (0..n)
        .map(|i| {
            serde_json::json!({"IpProtocol": "tcp", "FromPort": 1000 + i, "ToPort": 1000 + i,
                "CidrIp": format!("10.{}.{}.0/24", i / 256, i % 256)})
        })
        .collect();
    let declared = serde_json::json!({"GroupDescription": "bench", "SecurityGroupIngress": rules});
    let mut live = declared.clone();
    if let Some(a) = live["SecurityGroupIngress"].as_array_mut() {
        a.reverse();
    }
    let case = serde_json::json!({"corpusVersion": 1,
        "resource": {"logicalId": "Sg", "resourceType": "AWS::EC2::SecurityGroup",
            "physicalId": "sg-0123456789abcdef0", "declared": declared},
        "liveRaw": live,
        "schema": {"unorderedObjectArrayPaths": ["SecurityGroupIngress"]}});
    let case: CorpusCase = serde_json::from_value(case).unwrap_or_else(|e| panic!("{e}"));
    Prepared {
        name: format!("reversed_rules_{n}"),
        bytes: 0,
        resource: resource_from_case(&case),
        ctx: context_from_opts(&case.opts, None),
        live: case.live_raw,
        schema: case.schema,
    }
}

/// `n` ingress rules from one source, told apart by their ports only, read
/// back reversed, with the bundled schema: every pairing attempt reaches
/// the ports, where the schema states a transform.
fn reversed_rules_with_transforms(n: usize) -> Prepared {
    use realdrift_core::schema::{BundledSchemas, SchemaSource};
    let mut p = reversed_rules(n);
    let rules: Vec<Value> = (0..n)
        .map(|i| {
            serde_json::json!({"IpProtocol": "6", "FromPort": 1000 + i, "ToPort": 1000 + i,
                "CidrIp": "10.0.0.0/8"})
        })
        .collect();
    let live: Vec<Value> = rules
        .iter()
        .rev()
        .map(|r| {
            let mut r = r.clone();
            r["IpProtocol"] = Value::from("tcp");
            r
        })
        .collect();
    p.resource.declared.insert(
        "SecurityGroupIngress".into(),
        realdrift_core::DeclaredValue::from_corpus_json(&Value::Array(rules)),
    );
    p.live["SecurityGroupIngress"] = Value::Array(live);
    p.schema = BundledSchemas::shared()
        .ok()
        .and_then(|b| b.facts("AWS::EC2::SecurityGroup").ok().flatten())
        .map(|f| (*f).clone())
        .unwrap_or_default();
    p.name = format!("reversed_rules_with_transforms_{n}");
    p
}

/// Unordered lists an unchanged template reads back in another order.
fn bench_unordered(c: &mut Criterion) {
    let mut group = c.benchmark_group("unordered");
    group
        .measurement_time(Duration::from_secs(5))
        .warm_up_time(Duration::from_secs(1))
        .sample_size(20);
    for n in [50, 500] {
        let p = reversed_rules(n);
        let drift = classify(&p.resource, &p.live, &p.schema, &p.ctx)
            .iter()
            .filter(|f| f.tier.is_drift())
            .count();
        assert_eq!(drift, 0, "a reordered unordered list is no drift");
        group.bench_with_input(BenchmarkId::new("reversed_rules", n), &p, |b, p| {
            b.iter(|| black_box(p.classify()))
        });
        let p = reversed_rules_with_transforms(n);
        let drift = classify(&p.resource, &p.live, &p.schema, &p.ctx)
            .iter()
            .filter(|f| f.tier.is_drift())
            .count();
        assert_eq!(drift, 0, "protocol numbers read back by name are no drift");
        group.bench_with_input(
            BenchmarkId::new("reversed_rules_with_transforms", n),
            &p,
            |b, p| b.iter(|| black_box(p.classify())),
        );
    }
    group.finish();
}

/// Parsing the bundled knowledge: paid once per process (a Lambda cold
/// start), and growing with every mined table.
fn bench_load_knowledge(c: &mut Criterion) {
    let mut group = c.benchmark_group("knowledge");
    group
        .measurement_time(Duration::from_secs(5))
        .warm_up_time(Duration::from_secs(1))
        .sample_size(20);
    group.bench_function("load", |b| {
        b.iter(|| {
            black_box(
                realdrift_core::normalize::aws_facts::load()
                    .map(|_| ())
                    .is_ok(),
            )
        })
    });
    group.finish();
}

criterion_group!(
    benches,
    bench_classify,
    bench_unordered,
    bench_load_knowledge
);
criterion_main!(benches);
