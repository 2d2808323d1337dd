//! The commands, one module each. Adding a command is one file plus one
//! variant and one dispatch arm here.

pub mod baselines;
pub mod check;
pub mod corpus;
pub mod coverage;
pub mod ignore;
pub mod record;
pub mod report;
pub mod revert;

use clap::Subcommand;
use std::process::ExitCode;

/// Every top-level command.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check stacks for drift against their templates and baselines.
    ///
    /// Exit 0: no drift (or drift without --fail); 1: confirmed drift with
    /// --fail, or incomplete coverage with --strict; 2: a stack could not be checked.
    Check(check::CheckArgs),
    /// List, per resource type of the stacks, how it is read and what is not compared.
    Coverage(coverage::CoverageArgs),
    /// Record the accepted live-only values of stacks into their baselines.
    Record(record::RecordArgs),
    /// Write the intended values back: plan, choose, apply, verify.
    ///
    /// Exit 0: everything written converged (or nothing was written); 2: a
    /// write failed or did not converge, or a stack could not be checked.
    Revert(revert::RevertArgs),
    /// The view across an Organization: drift per account, region and stack
    /// from the status documents in the hub bucket (text, --json, --html).
    ///
    /// Exit 0: printed; 2: the bucket could not be listed or a status
    /// document could not be read (the others are still shown).
    Report(report::ReportArgs),
    /// Add an ignore rule to ignore.yaml (comments and order are kept).
    Ignore(ignore::IgnoreArgs),
    /// Work with the baselines in S3 (`baselines sync --bucket B`).
    #[command(subcommand)]
    Baselines(baselines::BaselinesCommand),
    /// Work with golden corpus cases (classify inputs + expected findings).
    #[command(subcommand)]
    Corpus(corpus::CorpusCommand),
}

/// Runs one command; `Ok` carries the command's own exit code.
pub fn run(command: Command) -> anyhow::Result<ExitCode> {
    match command {
        Command::Check(a) => check::run(a),
        Command::Coverage(a) => coverage::run(a),
        Command::Record(a) => record::run(a),
        Command::Revert(a) => revert::run(a),
        Command::Report(a) => report::run(a),
        Command::Ignore(a) => ignore::run(a),
        Command::Baselines(c) => baselines::run(c),
        Command::Corpus(c) => corpus::run(c),
    }
}
