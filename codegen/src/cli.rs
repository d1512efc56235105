//! The `codegen` command line: a thin front-end over the library.

use std::path::PathBuf;

use clap::{Parser, Subcommand};

use crate::emit::{self, Status};
use crate::lock::{Lock, LOCK_PATH};
use crate::root::OutputRoot;
use crate::targets;

/// Generates the coprocess protocol pin and strict frame types of every mcptest
/// SDK from the contract schema.
#[derive(Debug, Parser)]
#[command(name = "codegen", version)]
pub struct Args {
    /// The contract schema.
    #[arg(long, default_value = "schemas/ipc/v2.json")]
    pub schema: PathBuf,
    /// The output root (for example an SDK monorepo checkout).
    #[arg(long, default_value = "generated")]
    pub out: PathBuf,
    /// Compare with the output root instead of writing; exit 1 on drift.
    #[arg(long)]
    pub check: bool,
}

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

/// Exit codes: 0 done / in sync, 1 drift found by `--check`, 2 bad schema or refused.
pub fn run(args: &Args) -> i32 {
    let source = args.schema.to_string_lossy().replace('\\', "/");
    let root = OutputRoot::new(&args.out);
    let result = crate::load::load(&args.schema, &source).and_then(|(contract, _)| {
        let mut files = targets::generate(&contract)?;
        let previous = Lock::read(&root)?;
        let mut listed: Vec<String> = files.keys().cloned().collect();
        listed.push(LOCK_PATH.to_string());
        listed.sort();
        let lock = previous.updated(&contract, &args.schema, listed)?;
        files.extend(lock.contract_files());
        files.insert(LOCK_PATH.to_string(), lock.render());
        let plan = emit::plan(&root, &files, &previous.files)?;
        Ok((files, plan))
    });
    let (files, plan) = match result {
        Ok(ok) => ok,
        Err(error) => {
            eprintln!("error: {error}");
            eprintln!("nothing was written under {}", args.out.display());
            return 2;
        }
    };
    if args.check {
        let drift = emit::drift(&args.out, &files, &plan);
        if drift.is_empty() {
            println!("{} is in sync with {} ({} files)", args.out.display(), source, files.len());
            return 0;
        }
        for line in drift {
            eprintln!("{line}");
        }
        return 1;
    }
    match emit::write(&root, &files, &plan) {
        Ok(report) => {
            for line in report {
                println!("{line}");
            }
            let changed = plan.iter().filter(|(_, s)| *s != Status::Unchanged).count();
            println!("{changed} changed, {} unchanged", plan.len() - changed);
            0
        }
        Err(error) => {
            eprintln!("error: {error}");
            2
        }
    }
}

pub fn main() -> i32 {
    let cli = Cli::parse();
    match &cli.command {
        None => run(&cli.generate),
        Some(Command::Diff(args)) => crate::diff::command::run(args),
        Some(Command::Bump(args)) => crate::bump::run(args),
    }
}
