//! Work that is independent runs side by side: the targets (on a worker per
//! core), and within the loader and the Rust target their two halves.
//! Results come back in a fixed order, so output and errors never depend on
//! which thread finished first.

use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};

use crate::SchemaError;

/// A thread's stack: the main thread's size, since the loader, syn and the
/// layouts recurse as deep as the schema nests and the code they format.
/// All of the work runs on threads of this size, never on the caller's,
/// whose stack may be smaller (a test's thread has 2 MiB) and whose frames'
/// depth depends on how the dependencies were built.
const STACK: usize = 8 << 20;

/// Runs `side` and `here` on two threads of their own (named
/// `codegen-<name>` and the caller's name, or `codegen-here`), and gives both
/// results; a panic on either goes on in the caller. A thread that cannot be
/// started is an error naming `source`.
pub fn join<A: Send, B: Send>(source: &str, name: &str, side: impl FnOnce() -> A + Send, here: impl FnOnce() -> B + Send) -> Result<(A, B), SchemaError> {
    std::thread::scope(|scope| {
        let thread = std::thread::Builder::new().name(format!("codegen-{name}")).stack_size(STACK);
        let handle = thread.spawn_scoped(scope, side).map_err(|e| no_thread(source, name, &e))?;
        let b = on_own_stack(source, scope, here)?;
        let a = handle.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        Ok((a, b))
    })
}

/// Runs `work` on a thread of [`STACK`] bytes, named as the calling thread
/// is (or `codegen-here`), and waits for it; a panic there goes on here.
fn on_own_stack<'scope, T: Send + 'scope>(source: &str, scope: &'scope std::thread::Scope<'scope, '_>, work: impl FnOnce() -> T + Send + 'scope) -> Result<T, SchemaError> {
    let name = std::thread::current().name().map_or_else(|| "codegen-here".to_string(), str::to_string);
    let thread = std::thread::Builder::new().name(name).stack_size(STACK);
    let handle = thread.spawn_scoped(scope, work).map_err(|e| no_thread(source, "here", &e))?;
    Ok(handle.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
}

/// One job of [`all`]: work that can run on another thread.
pub type Job<'a, T> = Box<dyn FnOnce() -> T + Send + 'a>;

/// Runs the jobs on a few threads while `here` runs on this one, and gives
/// the jobs' results in the order of `jobs`, with `here`'s.
///
/// As many workers as the machine has cores each take the next job not yet
/// taken, in the order of `jobs` (so the longest should come first), and
/// one more thread runs `here`; this one only waits for them. A thread per
/// job would run them all at once: on a 2-core machine that is no faster,
/// and each thread's allocator heap touches fresh pages of its own (on
/// v2.json, a peak of about 90 MB resident instead of 65, and CPU time spent
/// zeroing it).
pub fn all<'a, T: Send, B: Send>(source: &str, jobs: Vec<(&str, Job<'a, T>)>, here: impl FnOnce() -> B + Send) -> Result<(Vec<T>, B), SchemaError> {
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get()).min(jobs.len());
    let queue: Vec<Mutex<Option<Job<'a, T>>>> = jobs.into_iter().map(|(_, job)| Mutex::new(Some(job))).collect();
    let results: Vec<Mutex<Option<T>>> = queue.iter().map(|_| Mutex::new(None)).collect();
    let next = AtomicUsize::new(0);
    let work = || loop {
        let at = next.fetch_add(1, Ordering::Relaxed);
        let Some(slot) = queue.get(at) else { break };
        let job = lock(slot).take();
        if let Some(job) = job {
            let value = job();
            *lock(&results[at]) = Some(value);
        }
    };
    let here = std::thread::scope(|scope| {
        let mut handles = Vec::with_capacity(workers);
        for worker in 1..=workers {
            let thread = std::thread::Builder::new().name(format!("codegen-worker-{worker}")).stack_size(STACK);
            handles.push(thread.spawn_scoped(scope, work).map_err(|e| no_thread(source, &format!("worker {worker}"), &e))?);
        }
        let b = on_own_stack(source, scope, here)?;
        for handle in handles {
            handle.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        }
        Ok(b)
    })?;
    // Every job ran: the queue was drained, and a job's panic went on above.
    let results = results.into_iter().filter_map(|slot| slot.into_inner().unwrap_or_else(PoisonError::into_inner)).collect();
    Ok((results, here))
}

/// A slot's lock: no job runs while holding one, so none is left poisoned.
fn lock<V>(mutex: &Mutex<V>) -> MutexGuard<'_, V> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

fn no_thread(source: &str, name: &str, error: &std::io::Error) -> SchemaError {
    SchemaError::new(Path::new(source), "", format!("could not start a thread for {name}: {error}"), "free some memory or raise the process limit, then run again")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// More jobs than workers, finishing out of order: every job runs once,
    /// and the results come back in the order of the jobs.
    #[test]
    fn all_gives_every_result_in_job_order() {
        let ran = AtomicUsize::new(0);
        let jobs: Vec<(&str, Job<'_, usize>)> = (0..24)
            .map(|i| {
                let ran = &ran;
                let job: Job<'_, usize> = Box::new(move || {
                    std::thread::sleep(std::time::Duration::from_micros(((24 - i) % 5) as u64 * 300));
                    ran.fetch_add(1, Ordering::Relaxed);
                    i * i
                });
                ("job", job)
            })
            .collect();
        let (results, here) = all("test.json", jobs, || "here").unwrap();
        assert_eq!(results, (0..24).map(|i| i * i).collect::<Vec<_>>());
        assert_eq!(here, "here");
        assert_eq!(ran.load(Ordering::Relaxed), 24);
    }

    /// A job's panic goes on in the caller, as it would on one thread.
    #[test]
    fn a_job_panic_reaches_the_caller() {
        let jobs: Vec<(&str, Job<'_, u8>)> = vec![("fine", Box::new(|| 1)), ("bad", Box::new(|| panic!("job failed")))];
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| all("test.json", jobs, || ())));
        let message = caught.expect_err("the panic reaches the caller");
        assert_eq!(message.downcast_ref::<&str>(), Some(&"job failed"));
    }
}
