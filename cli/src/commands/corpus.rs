//! `realdrift corpus ...`: replay golden corpus cases through classify.

use crate::replay::{self, jsonl, summary};
use anyhow::Context;
use clap::{Args, Subcommand, ValueEnum};
use realdrift_core::classify::Knowledge;
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// Corpus subcommands.
#[derive(Debug, Subcommand)]
pub enum CorpusCommand {
    /// Replay every *.json case in DIR through classify and print the result.
    ///
    /// Exits 0 whether or not the cases agree; exits 2 when DIR cannot be read.
    Replay(ReplayArgs),
}

/// Arguments of `corpus replay`.
#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// Directory holding the case files (*.json, read in file-name order).
    pub dir: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Jsonl)]
    pub format: Format,
    /// Disable every `observed` fact (defaults and per-type rules seen on
    /// real deploys): shows what the general knowledge (registry schemas,
    /// AWS documentation, API models, shape rules) explains on its own.
    #[arg(long, conflicts_with = "hold_out_stacks")]
    pub without_observed: bool,
    /// Replay each case without the observed known defaults that only its
    /// own stack's deploys support (leave-one-stack-out): an estimate of
    /// how the knowledge holds for a stack the corpus never held.
    #[arg(long)]
    pub hold_out_stacks: bool,
}

/// Output formats of `corpus replay`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// One JSON object per case: {"case", "findings"} or {"case", "error"}.
    Jsonl,
    /// Agreement counts, what differs per disagreeing case, per-tier totals.
    Summary,
}

/// Runs a corpus subcommand.
pub fn run(command: CorpusCommand) -> anyhow::Result<ExitCode> {
    match command {
        CorpusCommand::Replay(args) => replay_command(&args),
    }
}

fn replay_command(args: &ReplayArgs) -> anyhow::Result<ExitCode> {
    let files = replay::case_files(&args.dir)?;
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let written = if args.hold_out_stacks {
        let reports = replay::replay_files_held_out(&files)?;
        write_reports(&mut out, reports, args.format)
    } else {
        let knowledge = if args.without_observed {
            Knowledge::WithoutObserved
        } else {
            Knowledge::All
        };
        write_replay(&mut out, &files, args.format, knowledge)
    };
    match written.and_then(|()| out.flush()) {
        Ok(()) => Ok(ExitCode::SUCCESS),
        // The reader went away (`| head`): nothing more to say to it.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(ExitCode::SUCCESS),
        Err(e) => Err(e).context("writing to standard output"),
    }
}

fn write_replay<W: Write>(
    out: &mut W,
    files: &[PathBuf],
    format: Format,
    knowledge: Knowledge,
) -> io::Result<()> {
    match format {
        Format::Jsonl => {
            for path in files {
                jsonl::write_case(out, &replay::replay_file(path, knowledge))?;
            }
            Ok(())
        }
        Format::Summary => {
            let mut tally = summary::Tally::default();
            for path in files {
                tally.add(&replay::replay_file(path, knowledge));
            }
            summary::write(out, &tally)
        }
    }
}

fn write_reports<W: Write>(
    out: &mut W,
    reports: Vec<replay::CaseReport>,
    format: Format,
) -> io::Result<()> {
    match format {
        Format::Jsonl => reports.iter().try_for_each(|r| jsonl::write_case(out, r)),
        Format::Summary => {
            let mut tally = summary::Tally::default();
            reports.iter().for_each(|r| tally.add(r));
            summary::write(out, &tally)
        }
    }
}
