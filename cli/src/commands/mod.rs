//! The commands, one module each. Adding a command is one file plus one
//! variant and one dispatch arm here.

pub mod corpus;

use clap::Subcommand;
use std::process::ExitCode;

/// Every top-level command.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Work with golden corpus cases (classify inputs + expected findings).
    #[command(subcommand)]
    Corpus(corpus::CorpusCommand),
}

/// Runs one command; `Ok` carries the command's own exit code.
pub fn run(command: Command) -> anyhow::Result<ExitCode> {
    match command {
        Command::Corpus(c) => corpus::run(c),
    }
}
