//! on-change's own time per event over the real CloudTrail records:
//! parse + filter + map + index lookup, no AWS call. Each record is timed
//! alone (warm, single-threaded, `ROUNDS` repetitions, mean per run); the
//! figures are p50 / p95 / max over records, for every record and for the
//! accepted ones (which also resolve against the index).
//!
//! `cargo bench -p realdrift-core --bench events_on_change`
//!
//! The records are read from `REALDRIFT_CLOUDTRAIL_DIR`, else
//! `../shared/cloudtrail` beside the repository.

use realdrift_core::declared::DeclaredValue;
use realdrift_core::events::{
    parse_event, parse_record, Catalog, FilterConfig, IndexInput, IndexView, ResourceIndex,
    Screener, Verdict,
};
use serde_json::Value;
use std::collections::BTreeMap;
use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Repetitions per record.
const ROUNDS: u32 = 200;
/// Filler resources in the index beside the ones the records name.
const FILLER: usize = 2000;

struct Input {
    wrapped: bool,
    bytes: Vec<u8>,
}

fn dir() -> PathBuf {
    std::env::var("REALDRIFT_CLOUDTRAIL_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|_| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/cloudtrail")
        })
}

fn load() -> Vec<Input> {
    let Ok(entries) = std::fs::read_dir(dir()) else {
        eprintln!("note: {} unreadable; nothing to bench", dir().display());
        return Vec::new();
    };
    let mut out = Vec::new();
    for path in entries.filter_map(|e| e.ok().map(|e| e.path())) {
        if path.extension().is_none_or(|x| x != "json") {
            continue;
        }
        let wrapped = path
            .file_name()
            .is_some_and(|n| n == "eventbridge-wrapped_examples.json");
        let Ok(text) = std::fs::read(&path) else {
            continue;
        };
        let Ok(Value::Array(items)) = serde_json::from_slice::<Value>(&text) else {
            continue;
        };
        for item in items {
            if let Ok(bytes) = serde_json::to_vec(&item) {
                out.push(Input { wrapped, bytes });
            }
        }
    }
    out
}

fn parse(i: &Input) -> Option<realdrift_core::events::CloudTrailEvent> {
    if i.wrapped {
        parse_event(&i.bytes).ok()
    } else {
        parse_record(&i.bytes).ok()
    }
}

/// An index naming every resource the accepted records touch, plus filler.
fn build_index(catalog: &Catalog, screener: &Screener<'_>, inputs: &[Input]) -> ResourceIndex {
    let empty: BTreeMap<String, DeclaredValue> = BTreeMap::new();
    let mut rows: Vec<(String, String)> = Vec::new();
    for i in inputs {
        if let Some(Verdict::Accept(a)) = parse(i).map(|e| screener.assess(&e)) {
            for t in &a.touch.targets {
                rows.push((t.resource_type.clone(), t.identifier.clone()));
            }
        }
    }
    for n in 0..FILLER {
        rows.push(("AWS::Lambda::Function".into(), format!("Filler-Fn-{n}")));
    }
    let named: Vec<(String, String, String)> = rows
        .into_iter()
        .enumerate()
        .map(|(n, (t, p))| (format!("R{n}"), t, p))
        .collect();
    ResourceIndex::build(
        catalog,
        "123837392027",
        "us-east-1",
        named.iter().map(|(l, t, p)| IndexInput {
            stack: "Bench",
            logical_id: l,
            resource_type: t,
            physical_id: p,
            declared: &empty,
        }),
    )
}

/// One event end to end; true when it was accepted.
fn once(screener: &Screener<'_>, view: &IndexView<'_>, input: &Input) -> bool {
    let Some(event) = parse(input) else {
        return false;
    };
    match screener.assess(&event) {
        Verdict::Accept(a) => {
            black_box(view.resolve(&a.touch));
            true
        }
        Verdict::Drop(r) => {
            black_box(r);
            false
        }
    }
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn report(label: &str, mut times: Vec<Duration>) {
    times.sort();
    println!(
        "{label:<24} n={:<4} p50={:>8.1?} p95={:>8.1?} max={:>8.1?}",
        times.len(),
        percentile(&times, 0.50),
        percentile(&times, 0.95),
        times.last().copied().unwrap_or_default()
    );
}

fn main() {
    let catalog = match Catalog::bundled() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("{e}");
            return;
        }
    };
    let inputs = load();
    if inputs.is_empty() {
        return;
    }
    let screener = Screener::new(catalog, FilterConfig::new());
    let index = build_index(catalog, &screener, &inputs);
    let started = Instant::now();
    let view = index.view(catalog);
    let view_time = started.elapsed();
    let mut all = Vec::new();
    let mut accepted = Vec::new();
    for input in &inputs {
        let was_accepted = once(&screener, &view, input); // warm-up
        let start = Instant::now();
        for _ in 0..ROUNDS {
            black_box(once(&screener, &view, black_box(input)));
        }
        let per = start.elapsed() / ROUNDS;
        all.push(per);
        if was_accepted {
            accepted.push(per);
        }
    }
    println!(
        "on-change own time per event (parse + filter + map + index lookup), {} records, index of {} resources",
        inputs.len(),
        index.resources.len()
    );
    report("every record", all);
    report("accepted records", accepted);
    println!("index view build (once per container): {view_time:.1?}");
}
