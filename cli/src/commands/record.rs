//! `realdrift record [STACK...]`: gather -> ignore rules -> record -> save.
//!
//! A stack that could not be gathered is never recorded: its previous
//! baseline stays as it is. Resources whose read failed or was refused keep
//! their recorded entries unchanged (record carries them forward), and the
//! run says so.

use crate::commands::check::store_location;
use crate::options::{AwsArgs, BaselineArgs, StackArgs};
use crate::picker;
use crate::progress::{self, Progress};
use crate::selection;
use crate::session::{block_on, calls_line, Session};
use crate::terminal::{error_line, escape_message};
use anyhow::{bail, Context};
use clap::Args;
use realdrift_core::baseline::{
    check_record_target, preview, record, save_baseline, BaselineStore, Precondition, RecordInput,
    Selection,
};
use realdrift_core::ignore::IgnoreConfig;
use realdrift_core::pipeline::{
    baseline_key, load_ignores, load_stack_baseline, recordable_findings, GatheredStack,
};
use std::io::IsTerminal;
use std::process::ExitCode;

/// Arguments of `record`.
#[derive(Debug, Args)]
pub struct RecordArgs {
    #[command(flatten)]
    stacks: StackArgs,
    #[command(flatten)]
    aws: AwsArgs,
    #[command(flatten)]
    baseline: BaselineArgs,
    /// Record every new and changed live-only value without asking.
    #[arg(long, short = 'y')]
    yes: bool,
}

/// How values are chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// `--yes`: everything.
    All,
    /// A multiselect on the terminal.
    Ask,
}

/// Runs `record`.
pub fn run(args: RecordArgs) -> anyhow::Result<ExitCode> {
    let mode = if args.yes {
        Mode::All
    } else if std::io::stdin().is_terminal() && std::io::stderr().is_terminal() {
        Mode::Ask
    } else {
        bail!("record needs a terminal to ask which values to record; pass --yes to record every new and changed value");
    };
    block_on(record_all(&args, mode))
}

async fn record_all(args: &RecordArgs, mode: Mode) -> anyhow::Result<ExitCode> {
    let session = Session::open(&args.aws, Progress::new(progress::wanted(false))).await?;
    let store = session.baseline_store(&args.baseline)?;
    let location = store_location(&args.baseline);
    let ignores = load_ignores(store.as_ref(), &location).await?;
    let selectors = &args.stacks.stacks;
    let run = session.gather(selectors).await?;
    let gathered: Vec<String> = run.stacks.iter().map(|g| g.stack.clone()).collect();
    let unchecked = selection::audit(selectors, &gathered);
    // Every selected stack not recorded is a failure: record exits 0 only
    // when everything asked for was written.
    let mut failed = false;
    for why in unchecked.strict_reasons() {
        failed = true;
        eprintln!(
            "realdrift: error: {}: nothing recorded",
            escape_message(&why)
        );
    }
    for n in &run.notes {
        eprintln!("note: {}", escape_message(n));
    }
    let mut accounts = std::collections::BTreeSet::new();
    for g in &run.stacks {
        let outcome = match &g.result {
            Ok(report) => {
                accounts.extend(report.account.clone());
                record_one(report, store.as_ref(), &ignores, &location, mode).await
            }
            Err(e) => Err(anyhow::anyhow!("{e}")),
        };
        match outcome {
            Ok(line) => println!("{}", escape_message(&line)),
            Err(e) => {
                failed = true;
                eprintln!("realdrift: error: {}", error_line(&e));
            }
        }
    }
    let accounts: Vec<String> = accounts.into_iter().collect();
    eprintln!(
        "recorded in: {}",
        escape_message(&session.target_line(&accounts))
    );
    eprintln!("{}", calls_line(&session.calls()));
    Ok(if failed {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    })
}

/// Records one stack; returns the line describing what was written.
async fn record_one(
    g: &GatheredStack,
    store: &dyn BaselineStore,
    ignores: &IgnoreConfig,
    location: &str,
    mode: Mode,
) -> anyhow::Result<String> {
    let ctx = g.run_context();
    let key = baseline_key(&ctx)?;
    let existing = load_stack_baseline(store, &ctx).await?;
    if let Some(b) = &existing {
        // Check refuses a file of another stack, account or region; so does
        // record, which would merge into it and rewrite its identity.
        check_record_target(b, &ctx)
            .with_context(|| format!("stack {}: {location}/{key}: not recorded", g.stack))?;
    }
    let classified = recordable_findings(g, ignores);
    let selection = match mode {
        Mode::All => Selection::All,
        Mode::Ask => {
            let delta = preview(&classified, existing.as_ref(), &ctx);
            let choices = picker::choices(&delta);
            if choices.is_empty() {
                Selection::All
            } else {
                match picker::pick(&g.stack, &choices)? {
                    Some(keys) => Selection::Only(keys),
                    // Cancelling is a choice, not an error.
                    None => {
                        return Ok(format!("{}: cancelled; the baseline is unchanged", g.stack))
                    }
                }
            }
        }
    };
    let out = record(RecordInput {
        classified: &classified,
        existing: existing.as_ref(),
        ctx: &ctx,
        selection: &selection,
        captured_at: &now_iso8601(),
    });
    save_baseline(store, &key, &out.baseline, Precondition::None)
        .await
        .with_context(|| format!("stack {}: writing {location}/{key}", g.stack))?;
    let d = &out.delta;
    if g.coverage.lost > 0 {
        eprintln!(
            "warning: {}: {} read(s) or child listing(s) failed or were refused; entries of what was not read were carried forward unchanged",
            escape_message(&g.stack),
            g.coverage.lost
        );
    }
    Ok(format!(
        "{}: recorded {} new, {} changed, {} unchanged, {} carried forward, {} dropped, {} declined -> {location}/{key}",
        g.stack,
        d.new.len(),
        d.changed.len(),
        d.unchanged.len(),
        d.carried.len(),
        d.dropped.len(),
        d.declined.len()
    ))
}

/// The current UTC time as ISO 8601 (`2026-01-31T12:00:00Z`).
fn now_iso8601() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    iso8601(secs)
}

/// Seconds since the Unix epoch as ISO 8601 UTC (civil-from-days, proleptic Gregorian).
fn iso8601(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iso8601_formats_known_instants() {
        assert_eq!(iso8601(0), "1970-01-01T00:00:00Z");
        assert_eq!(iso8601(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(iso8601(1_767_225_599), "2025-12-31T23:59:59Z");
    }
}
