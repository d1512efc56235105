//! `mcptest exec --connection-server --server-command "<argv>"`: the binary
//! side of the mcptest coprocess protocol (`schemas/ipc/v2.json`).
//!
//! It spawns the MCP server under test, reads one request line at a time from
//! stdin and writes exactly one response line to stdout. Only protocol frames
//! go to stdout; everything else (logs, the server's stderr) goes to stderr.

mod cache;
mod backend;
mod call;
mod cassette;
mod cli;
mod dispatch;
mod failure;
mod forward;
mod reporter;
mod session;
mod upstream;

use std::process::ExitCode;

fn main() -> ExitCode {
    let config = match cli::parse() {
        Ok(config) => config,
        Err(code) => return code,
    };
    let runtime = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("mcptest: cannot start the async runtime: {e}");
            return ExitCode::from(2);
        }
    };
    match runtime.block_on(session::run(config)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("mcptest: {e}");
            ExitCode::from(1)
        }
    }
}
