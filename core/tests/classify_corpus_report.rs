//! A detailed disagreement report over the golden corpus, for working on
//! classify. Ignored by default (the gate is `corpus_replay`); run with
//! `cargo test -p realdrift-core --test classify_corpus_report -- --ignored --nocapture`.
//! `REALDRIFT_REPORT_FILTER=<substring>` limits it to matching case files.

mod corpus_support;

use corpus_support::case_paths;
use realdrift_core::corpus::{compare_findings, replay_case, CorpusCase};
use realdrift_core::Finding;

fn show(f: &Finding) -> String {
    let mut s = format!("{}:{}", f.tier, f.path);
    if let Some(a) = &f.actual {
        let t = a.to_string();
        s.push_str(&format!(" actual={}", &t[..t.len().min(160)]));
    }
    if let Some(d) = &f.desired {
        let t = d.to_string();
        s.push_str(&format!(" desired={}", &t[..t.len().min(160)]));
    }
    s
}

#[test]
#[ignore]
fn corpus_disagreement_report() {
    let filter = std::env::var("REALDRIFT_REPORT_FILTER").unwrap_or_default();
    let files = case_paths();
    let mut jsonl: Option<std::fs::File> = std::env::var("REALDRIFT_REPORT_JSON")
        .ok()
        .and_then(|p| std::fs::File::create(p).ok());
    let (mut exact, mut total) = (0, 0);
    for p in files {
        let name = p
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if !name.contains(&filter) {
            continue;
        }
        total += 1;
        let case = CorpusCase::load(&p).expect("case loads");
        let got = replay_case(&case);
        let a = compare_findings(&case.expected, &got);
        if std::env::var("REALDRIFT_REPORT_ALL").is_ok() {
            println!("## {name}");
            for f in &got {
                println!("   GOT-ALL {}", show(f));
            }
        }
        if a.is_exact() {
            exact += 1;
            continue;
        }
        println!("== {name}");
        let mut log = |kind: &str, f: &Finding| {
            if let Some(w) = jsonl.as_mut() {
                use std::io::Write;
                let line = serde_json::json!({"case": name, "type": case.resource.resource_type, "kind": kind, "finding": f});
                let _ = writeln!(w, "{line}");
            }
        };
        for k in &a.missing {
            for f in case
                .expected
                .iter()
                .filter(|f| f.tier == k.0 && f.path == k.1)
            {
                println!("   MISSING {}", show(f));
                log("missing", f);
            }
        }
        for k in &a.extra {
            for f in got.iter().filter(|f| f.tier == k.0 && f.path == k.1) {
                println!("   EXTRA   {}", show(f));
                log("extra", f);
            }
        }
        for k in &a.value_mismatch {
            for f in case
                .expected
                .iter()
                .filter(|f| f.tier == k.0 && f.path == k.1)
            {
                println!("   WANT    {}", show(f));
            }
            for f in got.iter().filter(|f| f.tier == k.0 && f.path == k.1) {
                println!("   GOT     {}", show(f));
            }
        }
    }
    println!("corpus: {exact}/{total} exact");
}

/// Average classify time per corpus case (inputs built outside the timing).
/// `cargo test -p realdrift-core --test classify_corpus_report -- --ignored timing --nocapture`
#[test]
#[ignore]
fn timing() {
    use realdrift_core::classify::classify;
    use realdrift_core::corpus::{context_from_opts, resource_from_case};
    let files = case_paths();
    let prepared: Vec<_> = files
        .iter()
        .map(|p| {
            let c = CorpusCase::load(p).expect("case loads");
            let r = resource_from_case(&c);
            let ctx = context_from_opts(&c.opts, c.resource.construct_path.as_deref());
            (r, c.live_raw, c.schema, ctx)
        })
        .collect();
    let rounds = 5;
    let start = std::time::Instant::now();
    let mut n = 0usize;
    for _ in 0..rounds {
        for (r, live, schema, ctx) in &prepared {
            n += classify(r, live, schema, ctx).len();
        }
    }
    let per = start.elapsed().as_secs_f64() * 1e6 / (rounds * prepared.len()) as f64;
    println!("classify: {per:.1} us per case ({n} findings)");
}
