//! realdrift command-line tool: parses arguments, runs one command, and maps
//! its outcome to an exit code (2 on error).

mod baseline_dir;
mod commands;
mod corpus_out;
mod deadline;
mod options;
mod picker;
mod progress;
mod replay;
mod selection;
mod session;
mod sweep;
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
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return usage_error(e),
    };
    // A bug that panics is still an error (exit 2), not a distinct status.
    match std::panic::catch_unwind(|| commands::run(cli.command)) {
        Ok(Ok(code)) => code,
        Ok(Err(e)) => {
            eprintln!("realdrift: error: {}", terminal::error_line(&e));
            ExitCode::from(2)
        }
        Err(_) => ExitCode::from(2),
    }
}

/// A command line clap refused. `check --json` still answers with a JSON
/// document (a script reads stdout); help and version print as usual.
fn usage_error(e: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    let args: Vec<String> = std::env::args().skip(1).collect();
    let json = args.first().is_some_and(|a| a == "check") && args.iter().any(|a| a == "--json");
    if json && !matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
        let message = e.render().to_string();
        let first = message.lines().next().unwrap_or("bad command line");
        let first = first.strip_prefix("error: ").unwrap_or(first);
        commands::check::print_json_error(first);
        let _ = e.print();
        return ExitCode::from(2);
    }
    e.exit()
}
