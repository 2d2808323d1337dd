//! `realdrift coverage [STACK...]`: per resource type of the selected
//! stacks, how it is read (Cloud Control, a per-type reader, not at all),
//! how many of its resources were compared, which were not and why, and
//! which declared paths the read could not verify. It runs the same check
//! as `realdrift check`, so what it says is what a check compares.

use super::check::store_location;
use crate::options::{AwsArgs, BaselineArgs, StackArgs};
use crate::progress::{self, Progress};
use crate::session::{block_on, Session};
use anyhow::Context;
use clap::Args;
use realdrift_aws::read_route;
use realdrift_core::baseline::sort_keys;
use realdrift_core::pipeline::{check_stacks, CheckOptions};
use realdrift_core::report::{
    escape_json_text, render_type_coverage, sanitize_identifier, type_coverage, type_coverage_json,
    StackReport,
};
use std::io::Write;
use std::process::ExitCode;

/// Arguments of `coverage`.
#[derive(Debug, Args)]
pub struct CoverageArgs {
    #[command(flatten)]
    stacks: StackArgs,
    #[command(flatten)]
    aws: AwsArgs,
    #[command(flatten)]
    baseline: BaselineArgs,
    /// Print the table as JSON (the `coverage` section of `check --json`).
    #[arg(long)]
    json: bool,
}

/// Runs `coverage`: exit 0, or 2 when a stack could not be checked.
pub fn run(args: CoverageArgs) -> anyhow::Result<ExitCode> {
    let reports = block_on(check(&args))?;
    let table = type_coverage(&reports, &read_route);
    let mut out = std::io::stdout().lock();
    if args.json {
        let text = serde_json::to_string_pretty(&sort_keys(&type_coverage_json(&table)))
            .context("encoding the coverage table")?;
        writeln!(out, "{}", escape_json_text(&text))?;
    } else {
        write!(out, "{}", render_type_coverage(&table))?;
    }
    let mut err = std::io::stderr().lock();
    let mut code = 0;
    for r in &reports {
        if let Some(e) = &r.error {
            writeln!(
                err,
                "realdrift: {}: {}",
                sanitize_identifier(&r.stack),
                sanitize_identifier(e)
            )?;
            code = 2;
        } else if let Some(nc) = &r.not_checked {
            let line = format!("{}: not checked: {nc}", r.stack);
            writeln!(err, "note: {}", sanitize_identifier(&line))?;
        }
    }
    Ok(ExitCode::from(code))
}

async fn check(args: &CoverageArgs) -> anyhow::Result<Vec<StackReport>> {
    let session = Session::open(&args.aws, Progress::new(progress::wanted(args.json))).await?;
    let store = session.baseline_store(&args.baseline)?;
    let opts = CheckOptions {
        show_all: false,
        region: session.clients.region.clone().unwrap_or_default(),
        store_location: store_location(&args.baseline),
    };
    let run = check_stacks(
        &session.pipeline,
        store.as_ref(),
        &args.stacks.stacks,
        &opts,
    )
    .await;
    session.progress.finish();
    Ok(run?.reports())
}
