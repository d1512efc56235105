//! Work that is independent runs side by side: the targets, and within the
//! loader and the Rust target their two halves. Results come back in a fixed
//! order, so output and errors never depend on which thread finished first.

use std::path::Path;

use crate::SchemaError;

/// A thread's stack: the main thread's size, since syn and the Rust layout
/// recurse as deep as the code they format.
const STACK: usize = 8 << 20;

/// Runs `side` on a thread of its own (named `codegen-<name>`) while `here`
/// runs on this one, and gives both results; a panic on the thread goes on
/// here. A thread that cannot be started is an error naming `source`.
pub fn join<A: Send, B>(source: &str, name: &str, side: impl FnOnce() -> A + Send, here: impl FnOnce() -> B) -> Result<(A, B), SchemaError> {
    std::thread::scope(|scope| {
        let thread = std::thread::Builder::new().name(format!("codegen-{name}")).stack_size(STACK);
        let handle = thread.spawn_scoped(scope, side).map_err(|e| no_thread(source, name, &e))?;
        let b = here();
        let a = handle.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        Ok((a, b))
    })
}

/// One job of [`all`]: work that can run on another thread.
pub type Job<'a, T> = Box<dyn FnOnce() -> T + Send + 'a>;

/// Runs each job on a thread of its own while `here` runs on this one, and
/// gives the jobs' results in the order of `jobs`, with `here`'s.
pub fn all<'a, T: Send, B>(source: &str, jobs: Vec<(&str, Job<'a, T>)>, here: impl FnOnce() -> B) -> Result<(Vec<T>, B), SchemaError> {
    std::thread::scope(|scope| {
        let mut handles = Vec::with_capacity(jobs.len());
        for (name, job) in jobs {
            let thread = std::thread::Builder::new().name(format!("codegen-{name}")).stack_size(STACK);
            handles.push(thread.spawn_scoped(scope, job).map_err(|e| no_thread(source, name, &e))?);
        }
        let b = here();
        let results = handles.into_iter().map(|handle| handle.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))).collect();
        Ok((results, b))
    })
}

fn no_thread(source: &str, name: &str, error: &std::io::Error) -> SchemaError {
    SchemaError::new(Path::new(source), "", format!("could not start a thread for {name}: {error}"), "free some memory or raise the process limit, then run again")
}
