//! `realdrift check [STACK...]`: gather -> baseline -> ignore rules -> report -> exit code.

use crate::corpus_out;
use crate::options::{AwsArgs, BaselineArgs, StackArgs};
use crate::progress::{self, Progress};
use crate::session::{block_on, calls_line, Gathered, Session};
use crate::stages::{self, CheckOptions};
use anyhow::Context;
use clap::Args;
use realdrift_core::baseline::{sort_keys, BaselineStore};
use realdrift_core::ignore::IgnoreConfig;
use realdrift_core::report::{
    escape_json_text, exit_code, json_value, render_text, use_color, ExitFlags, StackReport,
    TextOptions,
};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    #[command(flatten)]
    stacks: StackArgs,
    #[command(flatten)]
    aws: AwsArgs,
    #[command(flatten)]
    baseline: BaselineArgs,
    /// Print the report as JSON (docs/json-output.md) instead of text.
    #[arg(long)]
    json: bool,
    /// Exit 1 when there is confirmed drift.
    #[arg(long)]
    fail: bool,
    /// Exit 1 when coverage is incomplete (a resource was not compared).
    #[arg(long)]
    strict: bool,
    /// Inventory mode: ignore the baseline and list every live-only value
    /// (as potential drift); informational tiers are listed in full.
    #[arg(long)]
    show_all: bool,
    /// List the informational tiers (ignored, skipped, ...) in full.
    #[arg(long)]
    verbose: bool,
    /// Also write each read resource's classify inputs and findings as a
    /// corpus case into DIR (replay with `realdrift corpus replay DIR`).
    #[arg(long, value_name = "DIR")]
    record_corpus: Option<PathBuf>,
}

/// Runs `check`.
pub fn run(args: CheckArgs) -> anyhow::Result<ExitCode> {
    let flags = ExitFlags {
        fail: args.fail,
        strict: args.strict,
    };
    let (reports, calls, per_stack_calls, notes) = block_on(gather_and_check(&args))?;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut err = std::io::stderr().lock();
    if args.json {
        let mut doc = json_value(&reports, flags);
        add_calls(&mut doc, &calls, &per_stack_calls, &notes);
        let text = serde_json::to_string_pretty(&sort_keys(&doc)).context("encoding the report")?;
        writeln!(out, "{}", escape_json_text(&text))?;
    } else {
        for n in &notes {
            writeln!(err, "note: {}", crate::terminal::escape_message(n))?;
        }
        let opts = TextOptions {
            color: use_color(
                std::io::stdout().is_terminal(),
                std::env::var("NO_COLOR").ok().as_deref(),
            ),
            verbose: args.verbose || args.show_all,
        };
        let text = render_text(&reports, opts);
        write!(out, "{text}")?;
        if !text.is_empty() && !text.ends_with('\n') {
            writeln!(out)?;
        }
        writeln!(err, "{}", calls_line(&calls))?;
    }
    out.flush()?;
    Ok(ExitCode::from(exit_code(&reports, flags).code() as u8))
}

type Checked = (
    Vec<StackReport>,
    BTreeMap<String, u64>,
    BTreeMap<String, BTreeMap<String, u64>>,
    Vec<String>,
);

async fn gather_and_check(args: &CheckArgs) -> anyhow::Result<Checked> {
    let session = Session::open(&args.aws, Progress::new(progress::wanted(args.json))).await?;
    let store = session.baseline_store(&args.baseline)?;
    let location = store_location(&args.baseline);
    let ignores = stages::load_ignores(store.as_ref(), &location).await?;
    let run = session.gather(&args.stacks.stacks).await?;
    let region = session.clients.region.clone().unwrap_or_default();
    let mut reports = Vec::new();
    let mut per_stack = BTreeMap::new();
    let mut notes = run.notes;
    for g in run.stacks {
        if let Ok(r) = &g.result {
            per_stack.insert(r.stack.clone(), r.api_calls.clone());
        }
        let report = check_one(&g, store.as_ref(), &ignores, args, &region, &mut notes).await;
        reports.push(report);
    }
    if reports.is_empty() {
        notes.push("no stacks matched (no selector: every CDK stack in the region)".into());
    }
    Ok((reports, session.calls(), per_stack, notes))
}

/// check's stages for one gathered stack; any failure becomes that stack's error.
async fn check_one(
    g: &Gathered,
    store: &dyn BaselineStore,
    ignores: &IgnoreConfig,
    args: &CheckArgs,
    region: &str,
    notes: &mut Vec<String>,
) -> StackReport {
    let gathered = match &g.result {
        Ok(r) => r,
        Err(e) => return stages::error_report(&g.stack, region, e.clone()),
    };
    let region = gathered.region.as_deref().unwrap_or(region);
    if let Some(dir) = &args.record_corpus {
        match corpus_out::write_stack(dir, gathered) {
            Ok(files) => notes.push(format!(
                "{}: wrote {} corpus case(s) to {}",
                gathered.stack,
                files.len(),
                dir.display()
            )),
            Err(e) => return stages::error_report(&g.stack, region, format!("{e:#}")),
        }
    }
    let ctx = gathered.run_context();
    let result = stages::load_stack_baseline(store, &ctx)
        .await
        .and_then(|b| {
            stages::check_stack(
                gathered,
                b.as_ref(),
                ignores,
                CheckOptions {
                    show_all: args.show_all,
                },
            )
        });
    match result {
        Ok(r) => r,
        Err(e) => stages::error_report(&g.stack, region, format!("{e:#}")),
    }
}

/// How the baseline location is named in messages.
pub fn store_location(b: &BaselineArgs) -> String {
    match &b.baseline_s3 {
        Some(url) => url.trim_end_matches('/').to_string(),
        None => b.baseline_dir.display().to_string(),
    }
}

/// Adds the run's AWS calls to the JSON document (a field added within v1).
fn add_calls(
    doc: &mut Value,
    calls: &BTreeMap<String, u64>,
    per_stack: &BTreeMap<String, BTreeMap<String, u64>>,
    notes: &[String],
) {
    let total: u64 = calls.values().sum();
    if let Some(obj) = doc.as_object_mut() {
        obj.insert(
            "awsCalls".into(),
            json!({"total": total, "byOperation": calls}),
        );
        obj.insert("notes".into(), json!(notes));
    }
    if let Some(stacks) = doc.get_mut("stacks").and_then(Value::as_array_mut) {
        for s in stacks {
            let name = s.get("stack").and_then(Value::as_str).unwrap_or_default();
            let c = per_stack.get(name).cloned().unwrap_or_default();
            let total: u64 = c.values().sum();
            if let Some(obj) = s.as_object_mut() {
                obj.insert("awsCalls".into(), json!({"total": total, "byOperation": c}));
            }
        }
    }
}
