//! `realdrift check [STACK...]`: core's check path (gather -> baseline ->
//! ignore rules -> report), then rendering and the exit code.

use crate::corpus_out;
use crate::options::{AwsArgs, BaselineArgs, StackArgs, SweepArgs};
use crate::progress::{self, Progress};
use crate::selection::{self, Unchecked};
use crate::session::{block_on, calls_line, Session};
use crate::sweep::{sweep, SweepRun, Swept};
use crate::terminal::{error_line, escape_message};
use anyhow::Context;
use clap::Args;
use realdrift_core::baseline::sort_keys;
use realdrift_core::pipeline::{check_stacks, error_report, CheckOptions, GatheredStack};
use realdrift_core::report::{
    escape_json_text, exit_code, json_value, render_sweep_text, render_text, sweep_exit_code,
    sweep_json_value, type_coverage, type_coverage_json, use_color, ExitFlags, StackReport,
    TextOptions, JSON_SCHEMA,
};
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
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
    #[command(flatten)]
    sweep: SweepArgs,
    /// Print the report as JSON (docs/json-output.md) instead of text.
    #[arg(long)]
    json: bool,
    /// Exit 1 when there is confirmed drift.
    #[arg(long)]
    fail: bool,
    /// Exit 1 when coverage was lost (a stack not checked for its state, a
    /// read refused or failed, a type no reader reads and no accept rule
    /// accepts, a pattern that matched no stack, nothing checked); benign
    /// skips such as custom resources do not count.
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
    #[arg(long, value_name = "DIR", conflicts_with = "sweep_target")]
    record_corpus: Option<PathBuf>,
}

/// What a check run produced, beyond the reports.
struct Checked {
    reports: Vec<StackReport>,
    calls: BTreeMap<String, u64>,
    per_stack_calls: BTreeMap<String, BTreeMap<String, u64>>,
    notes: Vec<String>,
    unchecked: Unchecked,
    target: Value,
    target_line: String,
}

/// Runs `check`. With `--json` every outcome, an error included, is a JSON
/// document on stdout.
pub fn run(args: CheckArgs) -> anyhow::Result<ExitCode> {
    if args.sweep.active() {
        return run_sweep(&args);
    }
    match block_on(gather_and_check(&args)) {
        Ok(checked) => render(&args, checked),
        Err(e) if args.json => {
            let line = error_line(&e);
            print_json_error(&line);
            eprintln!("realdrift: error: {line}");
            Ok(ExitCode::from(2))
        }
        Err(e) => Err(e),
    }
}

/// `check --accounts ...` / `--org`: one report over every account and region.
fn run_sweep(args: &CheckArgs) -> anyhow::Result<ExitCode> {
    let run = SweepRun {
        aws: &args.aws,
        sweep: &args.sweep,
        selectors: &args.stacks.stacks,
        show_all: args.show_all,
        store_location: store_location(&args.baseline),
    };
    match block_on(sweep(&run, &args.baseline)) {
        Ok(swept) => render_sweep(args, &swept),
        Err(e) if args.json => {
            let line = error_line(&e);
            print_json_error(&line);
            eprintln!("realdrift: error: {line}");
            Ok(ExitCode::from(2))
        }
        Err(e) => Err(e),
    }
}

/// Prints the sweep (JSON or text) and returns the worst section's exit code.
fn render_sweep(args: &CheckArgs, swept: &Swept) -> anyhow::Result<ExitCode> {
    let sections = &swept.sections;
    let flags = ExitFlags {
        fail: args.fail,
        strict: args.strict,
    };
    let code = sweep_exit_code(sections, flags).code();
    let mut out = std::io::stdout().lock();
    if args.json {
        let mut doc = sweep_json_value(sections, flags);
        if args.sweep.org {
            let skipped: Vec<Value> = swept
                .skipped
                .iter()
                .map(|(id, state)| json!({"accountId": id, "state": state}))
                .collect();
            if let Some(obj) = doc.as_object_mut() {
                obj.insert("skippedAccounts".into(), json!(skipped));
            }
        }
        let text = serde_json::to_string_pretty(&sort_keys(&doc)).context("encoding the report")?;
        writeln!(out, "{}", escape_json_text(&text))?;
    } else {
        let opts = TextOptions {
            color: use_color(
                std::io::stdout().is_terminal(),
                std::env::var("NO_COLOR").ok().as_deref(),
            ),
            verbose: args.verbose || args.show_all,
        };
        write!(out, "{}", render_sweep_text(sections, opts))?;
        for (id, state) in &swept.skipped {
            eprintln!(
                "note: account {id} not checked: its Organizations state is {}",
                escape_message(state)
            );
        }
        eprintln!(
            "checked: {} account(s), {} section(s)",
            swept.accounts,
            sections.len()
        );
    }
    out.flush()?;
    Ok(ExitCode::from(code as u8))
}

fn render(args: &CheckArgs, c: Checked) -> anyhow::Result<ExitCode> {
    let flags = ExitFlags {
        fail: args.fail,
        strict: args.strict,
    };
    let strict_reasons = if args.strict {
        c.unchecked.strict_reasons()
    } else {
        Vec::new()
    };
    let mut code = exit_code(&c.reports, flags).code();
    if !strict_reasons.is_empty() {
        code = code.max(1);
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut err = std::io::stderr().lock();
    if args.json {
        let mut doc = json_value(&c.reports, flags);
        add_calls(&mut doc, &c.calls, &c.per_stack_calls, &c.notes);
        if let Some(obj) = doc.as_object_mut() {
            obj.insert("exitCode".into(), json!(code));
            obj.insert("target".into(), c.target.clone());
            obj.insert("strictFailures".into(), json!(strict_reasons));
            let table = type_coverage(&c.reports, &realdrift_aws::read_route);
            obj.insert("coverage".into(), type_coverage_json(&table));
        }
        let text = serde_json::to_string_pretty(&sort_keys(&doc)).context("encoding the report")?;
        writeln!(out, "{}", escape_json_text(&text))?;
    } else {
        for n in &c.notes {
            writeln!(err, "note: {}", escape_message(n))?;
        }
        let opts = TextOptions {
            color: use_color(
                std::io::stdout().is_terminal(),
                std::env::var("NO_COLOR").ok().as_deref(),
            ),
            verbose: args.verbose || args.show_all,
        };
        let text = render_text(&c.reports, opts);
        write!(out, "{text}")?;
        if !text.is_empty() && !text.ends_with('\n') {
            writeln!(out)?;
        }
        for r in &strict_reasons {
            writeln!(err, "strict: {}", escape_message(r))?;
        }
        writeln!(err, "checked: {}", escape_message(&c.target_line))?;
        writeln!(err, "{}", calls_line(&c.calls))?;
    }
    out.flush()?;
    Ok(ExitCode::from(code as u8))
}

async fn gather_and_check(args: &CheckArgs) -> anyhow::Result<Checked> {
    let session = Session::open(&args.aws, Progress::new(progress::wanted(args.json))).await?;
    let store = session.baseline_store(&args.baseline)?;
    let opts = CheckOptions {
        show_all: args.show_all,
        region: session.clients.region.clone().unwrap_or_default(),
        store_location: store_location(&args.baseline),
    };
    let selectors = &args.stacks.stacks;
    let checked = check_stacks(&session.pipeline, store.as_ref(), selectors, &opts).await;
    session.progress.finish();
    let run = checked?;
    let mut reports = Vec::new();
    let mut per_stack = BTreeMap::new();
    let mut notes = Vec::new();
    for s in run.stacks {
        let mut report = s.report;
        if let Some(g) = &s.gathered {
            per_stack.insert(g.stack.clone(), g.api_calls.clone());
            if let Some(dir) = &args.record_corpus {
                if let Err(e) = record_corpus(dir, g, &mut notes) {
                    let region = g.region.as_deref().unwrap_or(&opts.region);
                    report = error_report(&g.stack, region, error_line(&e));
                }
            }
        }
        reports.push(report);
    }
    let gathered: Vec<String> = reports.iter().map(|r| r.stack.clone()).collect();
    let unchecked = selection::audit(selectors, &gathered);
    notes.extend(run.notes);
    if reports.is_empty() {
        notes.push("no stacks matched (no selector: every CDK stack in the region)".into());
    }
    let accounts: Vec<String> = reports
        .iter()
        .filter_map(|r| r.account_id.clone())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let target = json!({
        "accounts": accounts,
        "region": session.clients.region,
        "profile": session.profile,
    });
    Ok(Checked {
        target_line: session.target_line(&accounts),
        reports,
        calls: session.calls(),
        per_stack_calls: per_stack,
        notes,
        unchecked,
        target,
    })
}

/// `--record-corpus`: writes the stack's corpus cases and notes where.
fn record_corpus(dir: &Path, g: &GatheredStack, notes: &mut Vec<String>) -> anyhow::Result<()> {
    let files = corpus_out::write_stack(dir, g)?;
    notes.push(format!(
        "{}: wrote {} corpus case(s) to {}",
        g.stack,
        files.len(),
        dir.display()
    ));
    Ok(())
}

/// The JSON document of a run that failed as a whole (exit 2): the report
/// schema with no stacks and the error, so `--json` always prints JSON.
pub fn print_json_error(message: &str) {
    let doc = json!({
        "schema": JSON_SCHEMA,
        "exitCode": 2,
        "error": message,
        "summary": {
            "stacks": 0,
            "drift": 0,
            "potentialDrift": 0,
            "incompleteStacks": 0,
            "errors": 1,
        },
        "stacks": [],
        "notes": [],
    });
    let text = serde_json::to_string_pretty(&sort_keys(&doc)).unwrap_or_else(|_| "null".into());
    println!("{}", escape_json_text(&text));
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
