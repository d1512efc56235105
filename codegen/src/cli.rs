//! The `codegen` command line: a thin front-end over the library.

use clap::{Parser, Subcommand};

pub use crate::generate::{run, Args};

// The whole command line: generation (the default, `Args`) or a subcommand.
/// Generates the coprocess protocol pin and strict frame types of every mcptest
/// SDK from the contract schema; `diff` tells what a contract change breaks,
/// `bump` moves the contract to its next version.
#[derive(Debug, Parser)]
#[command(name = "codegen", version, args_conflicts_with_subcommands = true)]
pub struct Cli {
    #[command(flatten)]
    pub generate: Args,
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Prints every change between two contracts, each classified as
    /// breaks-old-sdk, breaks-old-binary, breaks-source or compatible
    /// (docs/diff.md). Exit codes: 0 nothing breaks, 1 something does, 2 bad
    /// input. Writes nothing.
    Diff(crate::diff::command::DiffArgs),
    /// Moves the contract to the next protocol version: the schema's version
    /// and history row (edited in place), then everything generated, the
    /// released version's contract kept beside the lock. Exit codes: 0 done,
    /// 2 bad input (the schema is left as it was).
    Bump(crate::bump::BumpArgs),
}

pub fn main() -> i32 {
    let cli = Cli::parse();
    match &cli.command {
        None => run(&cli.generate),
        Some(Command::Diff(args)) => crate::diff::command::run(args),
        Some(Command::Bump(args)) => crate::bump::run(args),
    }
}
