//! realdrift command-line tool: parses arguments, runs one command, and maps
//! its outcome to an exit code (2 on error).

mod commands;
mod replay;
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
    match commands::run(cli.command) {
        Ok(code) => code,
        Err(e) => {
            eprintln!(
                "realdrift: error: {}",
                terminal::escape_message(&format!("{e:#}"))
            );
            ExitCode::from(2)
        }
    }
}
