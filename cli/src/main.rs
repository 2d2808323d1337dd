//! realdrift command-line tool: parses arguments, runs one command, and maps
//! its outcome to an exit code (2 on error).

mod baseline_dir;
mod commands;
mod corpus_out;
mod options;
mod picker;
mod progress;
mod replay;
mod session;
mod terminal;

use clap::Parser;
use std::process::ExitCode;

/// Finds drift between AWS CDK / CloudFormation stacks and what really runs.
#[derive(Debug, Parser)]
#[command(name = "realdrift", version, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: commands::Command,
}

fn main() -> ExitCode {
    // A panic message may quote untrusted input: print it escaped, on one line.
    std::panic::set_hook(Box::new(|info| {
        eprintln!(
            "realdrift: panic: {}",
            terminal::escape_message(&info.to_string())
        );
    }));
    let cli = Cli::parse();
    // A bug that panics is still an error (exit 2), not a distinct status.
    match std::panic::catch_unwind(|| commands::run(cli.command)) {
        Ok(Ok(code)) => code,
        Ok(Err(e)) => {
            eprintln!(
                "realdrift: error: {}",
                terminal::escape_message(&format!("{e:#}"))
            );
            ExitCode::from(2)
        }
        Err(_) => ExitCode::from(2),
    }
}
