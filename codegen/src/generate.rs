//! Generation, the command line's default: the contract loaded, every target
//! and the page rendered, the lock updated, and the output root written (or,
//! with `--check`, compared). `codegen bump` regenerates through it too.

use std::path::PathBuf;

use clap::Parser;

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
