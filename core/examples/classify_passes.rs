//! Runs a fixed number of classify passes over the golden corpus, for an
//! instruction count that does not depend on machine load:
//!
//! `valgrind --tool=callgrind --toggle-collect='*classify_in*'
//!   target/release/examples/classify_passes 1`
//!
//! counts every pass, the first one with its one-time costs (compiling the
//! `re:` defaults' patterns). `--toggle-collect='*measured_pass*'` counts
//! only the passes after `warm` uncounted ones, as a warm benchmark sees
//! them. Inputs are built before the passes, as in the `classify_corpus`
//! bench. The corpus is read from `REALDRIFT_CORPUS_DIR`, else
//! `../shared/corpus/cases` beside the repository.
//!
//! Arguments: `[passes (default 1)] [warm (default 0)]`.

use realdrift_core::classify::{classify, ClassifyContext, ResourceInput};
use realdrift_core::corpus::{case_files, context_from_opts, resource_from_case, CorpusCase};
use realdrift_core::schema::SchemaFacts;
use serde_json::Value;
use std::hint::black_box;
use std::path::PathBuf;

fn corpus_dir() -> PathBuf {
    if let Ok(d) = std::env::var("REALDRIFT_CORPUS_DIR") {
        return PathBuf::from(d);
    }
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/cases")
}

type Case = (ResourceInput, Value, SchemaFacts, ClassifyContext);

/// One pass over every case; the number of findings.
fn pass(cases: &[Case]) -> usize {
    cases
        .iter()
        .map(|(resource, live, schema, ctx)| black_box(classify(resource, live, schema, ctx)).len())
        .sum()
}

/// A pass callgrind counts (a name of its own for `--toggle-collect`).
#[inline(never)]
fn measured_pass(cases: &[Case]) -> usize {
    pass(cases)
}

/// The `n`th argument as a count, `default` when absent.
fn arg(n: usize, default: usize) -> Result<usize, std::num::ParseIntError> {
    std::env::args()
        .nth(n)
        .map(|a| a.parse())
        .transpose()
        .map(|a| a.unwrap_or(default))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let passes = arg(1, 1)?;
    let warm = arg(2, 0)?;
    let paths = case_files(&corpus_dir())?;
    let mut cases = Vec::with_capacity(paths.len());
    for path in paths {
        let case = CorpusCase::load(&path)?;
        let resource = resource_from_case(&case);
        let ctx = context_from_opts(&case.opts, case.resource.construct_path.as_deref());
        cases.push((resource, case.live_raw, case.schema, ctx));
    }
    for _ in 0..warm {
        black_box(pass(&cases));
    }
    let mut findings = 0;
    for _ in 0..passes {
        findings += measured_pass(&cases);
    }
    println!(
        "{} cases, {passes} passes, {findings} findings",
        cases.len()
    );
    Ok(())
}
