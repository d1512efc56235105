//! The command line: `mcptest exec --connection-server --server-command "<argv>"`.

use std::process::ExitCode;
use std::time::Duration;

use clap::{Parser, Subcommand};

/// How long an upstream request may take when the request does not say
/// (`CallParams.timeout_ms`: "Omitted means the binary's default (30000)").
const DEFAULT_TIMEOUT_MS: u64 = 30_000;

#[derive(Parser, Debug)]
#[command(name = "mcptest", version, about = "mcptest: test MCP servers; `exec --connection-server` is the SDKs' coprocess")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Serve the coprocess protocol on stdin/stdout for one server under test.
    Exec(ExecArgs),
}

#[derive(clap::Args, Debug)]
struct ExecArgs {
    /// Speak the coprocess protocol (newline-delimited JSON-RPC 2.0) on stdin/stdout.
    #[arg(long)]
    connection_server: bool,
    /// The argv of the MCP server under test, split shell-style (never run by a shell).
    #[arg(long, value_name = "ARGV")]
    server_command: String,
    /// Milliseconds to wait for the server: for starting it, and for each request
    /// unless `mcp.call` gives its own `timeout_ms`.
    #[arg(long, value_name = "MS", default_value_t = DEFAULT_TIMEOUT_MS, value_parser = clap::value_parser!(u64).range(1..))]
    timeout_ms: u64,
}

/// What the session needs to know from the command line.
#[derive(Debug, Clone)]
pub struct Config {
    /// The server under test's argv: program first.
    pub server_argv: Vec<String>,
    /// The default wait for the server.
    pub timeout: Duration,
}

/// Parses the command line; on error clap's message is printed and the exit code returned.
pub fn parse() -> Result<Config, ExitCode> {
    let cli = Cli::try_parse().map_err(|e| {
        let _ = e.print();
        ExitCode::from(if e.use_stderr() { 2 } else { 0 })
    })?;
    let Command::Exec(args) = cli.command;
    if !args.connection_server {
        eprintln!("mcptest exec: only --connection-server mode exists; pass it");
        return Err(ExitCode::from(2));
    }
    let server_argv = match shlex::split(&args.server_command) {
        Some(argv) if !argv.is_empty() => argv,
        _ => {
            eprintln!("mcptest exec: --server-command {:?} is not a shell-style argv (empty, or unbalanced quotes)", args.server_command);
            return Err(ExitCode::from(2));
        }
    };
    Ok(Config { server_argv, timeout: Duration::from_millis(args.timeout_ms) })
}
