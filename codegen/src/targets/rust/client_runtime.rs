use std::collections::VecDeque;
use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
#[cfg(unix)]
use std::os::unix::net::UnixStream;
use std::path::PathBuf;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use super::coprocess::{self, messages, Frame};

/// How long a call waits for its answer unless the client or the call says otherwise
/// (the contract's `x-coprocess.client.call_timeout_ms`).
pub const DEFAULT_CALL_TIMEOUT: Duration = Duration::from_millis(coprocess::CLIENT_CALL_TIMEOUT_MS);

/// How long the handshake waits for its answer unless the client says otherwise
/// (the contract's `x-coprocess.client.start_timeout_ms`).
pub const DEFAULT_START_TIMEOUT: Duration =
    Duration::from_millis(coprocess::CLIENT_START_TIMEOUT_MS);

/// How long `close` waits for the close method's answer and for the exit before it kills
/// (the contract's `x-coprocess.client.close_timeout_ms`).
pub const DEFAULT_CLOSE_TIMEOUT: Duration =
    Duration::from_millis(coprocess::CLIENT_CLOSE_TIMEOUT_MS);

/// How long a client still reads the output of a coprocess that has exited, when the
/// output does not end with the exit (the contract's `x-coprocess.client.exit_drain_ms`).
pub const EXIT_DRAIN: Duration = Duration::from_millis(coprocess::CLIENT_EXIT_DRAIN_MS);

/// How many of the coprocess's last stderr lines the client keeps
/// (the contract's `x-coprocess.client.stderr_tail_lines`).
pub const STDERR_LINES: usize = coprocess::CLIENT_STDERR_TAIL_LINES;

/// The longest stderr line kept, in bytes (a longer one is cut there).
const STDERR_LINE_BYTES: usize = 4096;

/// How many answer lines the reader thread holds before it waits for a caller.
const LINES_AHEAD: usize = 4;

/// The longest pause between two looks at whether the coprocess has exited.
const EXIT_POLL: Duration = Duration::from_millis(10);

/// How a client spawns, talks to and closes the coprocess.
#[derive(Debug, Clone)]
pub struct ClientOptions {
    /// How long a call waits for its answer (a call's own `timeout` overrides it).
    pub timeout: Duration,
    /// How long the handshake waits for its answer (starting the binary is slower than a call).
    pub start_timeout: Duration,
    /// How long `close` waits for the shutdown answer and the exit before it kills.
    pub close_timeout: Duration,
    /// The coprocess's whole environment (replacing the inherited one), or `None` to inherit.
    pub env: Option<Vec<(String, String)>>,
    /// The coprocess's working directory, or `None` for the current one.
    pub cwd: Option<PathBuf>,
    /// The SDK name the handshake announces.
    pub sdk: String,
    /// The SDK version the handshake announces.
    pub sdk_version: String,
}

impl Default for ClientOptions {
    fn default() -> Self {
        Self {
            timeout: DEFAULT_CALL_TIMEOUT,
            start_timeout: DEFAULT_START_TIMEOUT,
            close_timeout: DEFAULT_CLOSE_TIMEOUT,
            env: None,
            cwd: None,
            sdk: "rust".to_string(),
            sdk_version: "0.0.0".to_string(),
        }
    }
}

/// What went wrong with a call, beside its message.
#[derive(Debug, Clone, PartialEq)]
pub enum ClientErrorKind {
    /// The handshake failed (the contract's message); the coprocess is gone.
    Handshake,
    /// The coprocess answered with a JSON-RPC error; the session goes on.
    Rpc(Box<RpcError>),
    /// The answer broke the protocol (another id, not JSON, too long, not the
    /// result's shape); the session is closed and the coprocess killed.
    Protocol,
    /// No answer within the call's timeout; the session is closed and the coprocess killed.
    Timeout,
    /// A call on a session that was closed (by `close`, or after a timeout or a protocol error).
    Closed,
    /// The coprocess ended before answering (this and every later call).
    Exited(Box<Exit>),
    /// The coprocess could not be started (the message names the path and the reason).
    Spawn,
}

/// A JSON-RPC error answer.
#[derive(Debug, Clone, PartialEq)]
pub struct RpcError {
    /// The JSON-RPC error code.
    pub code: i64,
    /// The code's name in the contract's error-code table, or `None` for another code.
    pub name: Option<&'static str>,
    /// The error's `data`, when it had one.
    pub data: Option<serde_json::Value>,
}

/// How the coprocess ended.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Exit {
    /// Its exit status, when it exited with one.
    pub status: Option<i32>,
    /// The signal that killed it, when one did.
    pub signal: Option<i32>,
    /// Its last stderr lines.
    pub stderr: Vec<String>,
}

/// A call that failed: `method` is its wire name, `message` says what happened.
#[derive(Debug, Clone, PartialEq)]
pub struct ClientError {
    /// What went wrong.
    pub kind: ClientErrorKind,
    /// The wire name of the method the error is about.
    pub method: &'static str,
    /// What happened, naming the method.
    pub message: String,
    /// What the decoder or the stream said, where there is more to say (else empty).
    pub detail: String,
}

impl ClientError {
    fn new(kind: ClientErrorKind, method: &'static str, message: String) -> Self {
        Self {
            kind,
            method,
            message,
            detail: String::new(),
        }
    }

    fn with_detail(mut self, detail: impl std::fmt::Display) -> Self {
        self.detail = detail.to_string();
        self
    }
}

impl std::fmt::Display for ClientError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.detail.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.message, self.detail)
        }
    }
}

impl std::error::Error for ClientError {}

/// The `--server-command` text the binary's shell-style split turns back into
/// `argv`: each argument single-quoted (`'` written `'"'"'`, an empty one `''`).
#[must_use]
pub fn server_command<S: AsRef<str>>(argv: &[S]) -> String {
    let quoted: Vec<String> = argv
        .iter()
        .map(|argument| format!("'{}'", argument.as_ref().replace('\'', "'\"'\"'")))
        .collect();
    quoted.join(" ")
}

/// Why a session closed where no call can see it (the contract words the rest).
mod closed_reason {
    pub const FAILED_HANDSHAKE: &str = "after a failed handshake";
    pub const EXITED: &str = "after the coprocess exited";
}

/// What the reader thread (and, for a spawned coprocess, the exit watcher) hands a caller.
enum Line {
    /// One line, without its newline.
    Text(Vec<u8>),
    /// A line longer than `MAX_LINE_BYTES` (not read further).
    TooLong,
    /// The end of output, or a read error; a last line without its newline is dropped.
    End,
    /// The coprocess exited (whoever still holds its output), and when that was seen.
    Exited(ExitStatus, Instant),
}

/// The coprocess's output one line at a time, never more than `MAX_LINE_BYTES`
/// plus one buffer's worth held.
struct LineReader<R> {
    reader: BufReader<R>,
    /// The line read so far (kept across a read that timed out).
    line: Vec<u8>,
}

impl<R: Read> LineReader<R> {
    fn new(reader: R) -> Self {
        Self {
            reader: BufReader::with_capacity(1 << 16, reader),
            line: Vec::new(),
        }
    }

    /// The next line, `TooLong` or `End`; a read error (a read timeout among
    /// them) keeps what was read of the line.
    fn next_line(&mut self) -> std::io::Result<Line> {
        loop {
            // At most one byte past the longest line and its newline.
            let room = (coprocess::MAX_LINE_BYTES + 2).saturating_sub(self.line.len());
            let limited = &mut (&mut self.reader).take(room as u64);
            let read = limited.read_until(b'\n', &mut self.line)?;
            let whole = self.line.last() == Some(&b'\n');
            if whole {
                self.line.pop();
            }
            if self.line.len() > coprocess::MAX_LINE_BYTES {
                return Ok(Line::TooLong);
            }
            if whole {
                return Ok(Line::Text(std::mem::take(&mut self.line)));
            }
            if read == 0 {
                return Ok(Line::End);
            }
        }
    }

    /// Takes back a line's buffer once its text is decoded, for the next line
    /// to be read into (no allocation per answer); a buffer larger than the
    /// read buffer is let go.
    fn give_back(&mut self, mut line: Vec<u8>) {
        if self.line.is_empty() && line.capacity() <= self.reader.capacity() {
            line.clear();
            self.line = line;
        }
    }
}

/// The stdout reader thread (over streams, which cannot be read with a
/// timeout): hands over one line at a time until the output ends.
fn read_lines(reader: impl Read, lines: &mpsc::SyncSender<Line>) {
    let mut reader = LineReader::new(reader);
    loop {
        let line = reader.next_line().unwrap_or(Line::End);
        let last = !matches!(line, Line::Text(_));
        if lines.send(line).is_err() || last {
            return;
        }
    }
}

/// Where a call's answer comes from.
enum Answers {
    /// Lines a reader thread (and, for a spawned coprocess, the exit watcher) hands over.
    Handed(Receiver<Line>),
    /// A spawned coprocess's stdout pipe, read by the calling thread itself.
    #[cfg(unix)]
    Pipe(PipeAnswers),
    /// A spawned coprocess's stdout socket, read by the calling thread itself.
    #[cfg(unix)]
    Socket(SocketAnswers),
}

impl Answers {
    /// Takes back the buffer of a line whose text was decoded (see
    /// [`LineReader::give_back`]); lines a reader thread hands over are let go.
    fn give_back(&mut self, line: String) {
        match self {
            Self::Handed(_) => drop(line),
            #[cfg(unix)]
            Self::Pipe(pipe) => pipe.lines.give_back(line.into_bytes()),
            #[cfg(unix)]
            Self::Socket(socket) => socket.lines.give_back(line.into_bytes()),
        }
    }

    /// The next line, or what happened first, waiting no later than `deadline`.
    fn next(&mut self, deadline: Instant) -> Result<Line, RecvTimeoutError> {
        match self {
            Self::Handed(lines) => {
                lines.recv_timeout(deadline.saturating_duration_since(Instant::now()))
            }
            #[cfg(unix)]
            Self::Pipe(pipe) => pipe.next(deadline),
            #[cfg(unix)]
            Self::Socket(socket) => socket.next(deadline),
        }
    }
}

/// A spawned coprocess's stdout as a socket whose reads give up after
/// `EXIT_POLL`: a call costs the calling thread one write and one read (no
/// thread hands it the line), and between two reads that gave up it looks at
/// whether the coprocess has exited (not at the end of its output, which a
/// process it started may hold open).
#[cfg(unix)]
struct SocketAnswers {
    lines: LineReader<UnixStream>,
    exit: ExitTold,
    /// Whether the output ended (it is not read again).
    ended: bool,
}

/// The coprocess's exit as a caller learns it: told once.
#[cfg(unix)]
struct ExitTold {
    child: Arc<Mutex<Child>>,
    /// Whether the exit was told, or cannot be known.
    told: bool,
}

#[cfg(unix)]
impl ExitTold {
    /// `Exited` the first time the exit is seen (`seen`, else from the process).
    fn look(&mut self, seen: Option<ExitStatus>) -> Option<Line> {
        if self.told {
            return None;
        }
        let status = seen.map_or_else(|| lock(&self.child).try_wait(), |status| Ok(Some(status)));
        self.told = !matches!(status, Ok(None));
        match status {
            Ok(Some(status)) => Some(Line::Exited(status, Instant::now())),
            _ => None,
        }
    }
}

#[cfg(unix)]
impl SocketAnswers {
    fn new(stdout: UnixStream, child: Arc<Mutex<Child>>) -> std::io::Result<Self> {
        stdout.set_read_timeout(Some(EXIT_POLL))?;
        Ok(Self {
            lines: LineReader::new(stdout),
            exit: ExitTold { child, told: false },
            ended: false,
        })
    }

    fn next(&mut self, deadline: Instant) -> Result<Line, RecvTimeoutError> {
        let mut pause = Duration::from_millis(1);
        loop {
            if !self.ended {
                match self.lines.next_line() {
                    Ok(line @ (Line::Text(_) | Line::TooLong)) => return Ok(line),
                    Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
                    Ok(_) | Err(_) => {
                        self.ended = true;
                        return Ok(Line::End);
                    }
                }
            }
            if let Some(exited) = self.exit.look(None) {
                return Ok(exited);
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(RecvTimeoutError::Timeout);
            }
            if self.ended {
                // No read to wait in: look at the exit again after a pause.
                thread::sleep(pause.min(left));
                pause = (pause * 2).min(EXIT_POLL);
            }
        }
    }
}

/// A spawned coprocess's stdout as a pipe the calling thread reads with a
/// plain blocking read, as a loop of `write` and `read` would (where the pipe
/// can be opened again by its `/proc/self/fd` path, as on Linux). The client
/// holds no write end, so the output ends when the coprocess's end (and every
/// copy a process it started holds) is closed. A watchdog thread per session
/// looks at whether the coprocess has exited while a call waits, and ends a
/// read that passes the call's deadline (or `EXIT_DRAIN` after the exit) by
/// writing a newline into the pipe through a write end it opens then; the
/// session reads nothing after that, so nothing the coprocess wrote is ever
/// taken for it.
#[cfg(unix)]
struct PipeAnswers {
    lines: LineReader<std::io::PipeReader>,
    watch: Arc<Watch>,
    exit: ExitTold,
    /// Whether the output ended or the watchdog ended a read (it is not read again).
    ended: bool,
}

/// What a waiting call and the watchdog share.
#[cfg(unix)]
#[derive(Default)]
struct Watch {
    state: Mutex<Watched>,
    changed: std::sync::Condvar,
}

#[cfg(unix)]
#[derive(Default)]
struct Watched {
    /// The deadline of the call that waits, while one does.
    deadline: Option<Instant>,
    /// Whether a call waited since the watchdog last woke (it sleeps once none did).
    busy: bool,
    /// When the watchdog wakes next (`None`: when a call waits).
    wakes: Option<Instant>,
    /// How the coprocess exited and when the waiting call learnt it, once the watchdog saw it.
    exit: Option<(ExitStatus, Instant)>,
    /// Whether the exit cannot be known (`try_wait` failed).
    unknowable: bool,
    /// Whether the watchdog ended a read (the session reads no more).
    fired: bool,
    /// Whether the session is gone (the watchdog ends).
    stopped: bool,
}

#[cfg(unix)]
impl Watch {
    /// A call waits until `deadline`: wakes the watchdog only when it sleeps
    /// past it (no call waited in the last `EXIT_POLL`, or a shorter timeout).
    fn arm(&self, deadline: Instant) {
        let mut watched = lock(&self.state);
        watched.deadline = Some(deadline);
        watched.busy = true;
        if let Some((_, at)) = &mut watched.exit {
            // An exit seen before this call: its drain counts from the call.
            *at = Instant::now();
        }
        if watched.wakes.is_none_or(|wakes| deadline < wakes) {
            self.changed.notify_one();
        }
    }

    /// The call stops waiting: whether the watchdog ended its read, and the exit it saw.
    fn disarm(&self) -> (bool, Option<(ExitStatus, Instant)>) {
        let mut watched = lock(&self.state);
        watched.deadline = None;
        (watched.fired, watched.exit)
    }

    fn stop(&self) {
        lock(&self.state).stopped = true;
        self.changed.notify_one();
    }
}

/// The path that opens `pipe` again (for writing, a new write end).
#[cfg(unix)]
fn reopen_path(pipe: &std::io::PipeReader) -> String {
    format!("/proc/self/fd/{}", std::os::fd::AsRawFd::as_raw_fd(pipe))
}

/// The watchdog: while a call waits, looks at the exit every `EXIT_POLL`;
/// ends the read once the call's deadline (after an exit, its drain) passes.
/// `wake` is its own read end of the pipe, so that the path it opens is that
/// pipe's however the session ends.
#[cfg(unix)]
fn watch_call(watch: &Watch, child: &Mutex<Child>, wake: std::io::PipeReader) {
    let mut watched = lock(&watch.state);
    loop {
        if watched.stopped {
            return;
        }
        let now = Instant::now();
        let waiting = watched.deadline.is_some();
        if waiting && watched.exit.is_none() && !watched.unknowable {
            match lock(child).try_wait() {
                Ok(Some(status)) => watched.exit = Some((status, now)),
                Ok(None) => {}
                Err(_) => watched.unknowable = true,
            }
        }
        let exit = watched.exit;
        let due = watched
            .deadline
            .map(|deadline| exit.map_or(deadline, |(_, at)| at + EXIT_DRAIN));
        if due.is_some_and(|due| due <= now) {
            watched.fired = true;
            drop(watched);
            end_read(wake);
            return;
        }
        let looking = watched.busy && exit.is_none() && !watched.unknowable;
        let poll = looking.then(|| now + EXIT_POLL);
        watched.wakes = match (due, poll) {
            (Some(due), Some(poll)) => Some(due.min(poll)),
            (due, poll) => due.or(poll),
        };
        watched.busy = waiting;
        watched = match watched.wakes {
            Some(wakes) => {
                let pause = wakes.saturating_duration_since(now);
                let woken = watch.changed.wait_timeout(watched, pause);
                woken.map_or_else(|e| e.into_inner().0, |(watched, _)| watched)
            }
            None => (watch.changed.wait(watched)).unwrap_or_else(PoisonError::into_inner),
        };
    }
}

/// Ends the read that waits on `pipe`: a newline through a write end opened
/// by the pipe's path (the reader takes nothing it reads after this as output).
#[cfg(unix)]
fn end_read(pipe: std::io::PipeReader) {
    let end = std::fs::OpenOptions::new()
        .write(true)
        .open(reopen_path(&pipe));
    drop(pipe);
    if let Ok(mut end) = end {
        let _ = end.write_all(b"\n");
    }
}

#[cfg(unix)]
impl PipeAnswers {
    fn new(stdout: std::io::PipeReader, child: Arc<Mutex<Child>>) -> std::io::Result<Self> {
        let wake = stdout.try_clone()?;
        let watch = Arc::new(Watch::default());
        let (watching, watched) = (Arc::clone(&watch), Arc::clone(&child));
        thread::Builder::new()
            .name("coprocess-watchdog".into())
            .spawn(move || watch_call(&watching, &watched, wake))?;
        Ok(Self {
            lines: LineReader::new(stdout),
            watch,
            exit: ExitTold { child, told: false },
            ended: false,
        })
    }

    fn next(&mut self, deadline: Instant) -> Result<Line, RecvTimeoutError> {
        if self.ended {
            return self.exit_within(deadline);
        }
        self.watch.arm(deadline);
        let line = self.lines.next_line();
        let (fired, exit) = self.watch.disarm();
        if fired {
            self.ended = true;
            return match exit {
                Some((status, at)) => {
                    self.exit.told = true;
                    Ok(Line::Exited(status, at))
                }
                None => Err(RecvTimeoutError::Timeout),
            };
        }
        match line {
            Ok(line @ (Line::Text(_) | Line::TooLong)) => Ok(line),
            Ok(_) | Err(_) => {
                self.ended = true;
                Ok(Line::End)
            }
        }
    }

    /// After the output: the exit (once), as the watchdog saw it or as it
    /// comes before `deadline`.
    fn exit_within(&mut self, deadline: Instant) -> Result<Line, RecvTimeoutError> {
        let mut pause = Duration::from_millis(1);
        loop {
            let seen = lock(&self.watch.state).exit;
            if let Some(exited) = self.exit.look(seen.map(|(status, _)| status)) {
                return Ok(exited);
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(RecvTimeoutError::Timeout);
            }
            thread::sleep(pause.min(left));
            pause = (pause * 2).min(EXIT_POLL);
        }
    }
}

#[cfg(unix)]
impl Drop for PipeAnswers {
    fn drop(&mut self) {
        self.watch.stop();
    }
}

/// How the coprocess's answers are read: a stream a reader thread reads, or
/// (a spawned coprocess on Unix) a pipe or socket the calling thread reads.
enum Output {
    Stream(Box<dyn Read + Send>),
    #[cfg(unix)]
    Pipe(std::io::PipeReader),
    #[cfg(unix)]
    Socket(UnixStream),
}

/// The stderr reader: keeps the last `STDERR_LINES` lines; says when it is done.
fn read_stderr(stream: impl Read, tail: &Mutex<VecDeque<String>>, done: &mpsc::Sender<()>) {
    let mut reader = BufReader::new(stream);
    let mut line = Vec::new();
    loop {
        line.clear();
        let mut limited = (&mut reader).take(STDERR_LINE_BYTES as u64);
        match limited.read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => break,
            Ok(_) => {
                let text = String::from_utf8_lossy(&line);
                let mut kept = lock(tail);
                if kept.len() == STDERR_LINES {
                    kept.pop_front();
                }
                kept.push_back(text.trim_end_matches(['\r', '\n']).to_string());
            }
        }
    }
    let _ = done.send(());
}

/// The exit watcher: says when the coprocess has exited, from the process itself
/// (not from the end of its output, which a process it started may hold open).
fn watch_exit(child: &Mutex<Child>, events: &mpsc::SyncSender<Line>) {
    let mut pause = Duration::from_millis(1);
    loop {
        let status = lock(child).try_wait();
        match status {
            Ok(Some(status)) => {
                let _ = events.send(Line::Exited(status, Instant::now()));
                return;
            }
            Ok(None) => {
                thread::sleep(pause);
                pause = (pause * 2).min(EXIT_POLL);
            }
            Err(_) => return,
        }
    }
}

/// The reader thread for `reader` (and, for a spawned coprocess, the exit watcher).
fn handed(
    reader: Box<dyn Read + Send>,
    child: Option<&Arc<Mutex<Child>>>,
) -> std::io::Result<Answers> {
    let (sender, lines) = mpsc::sync_channel(LINES_AHEAD);
    let watching = child.map(|child| {
        let (child, exits) = (Arc::clone(child), sender.clone());
        thread::Builder::new()
            .name("coprocess-exit".into())
            .spawn(move || watch_exit(&child, &exits))
    });
    let reading = thread::Builder::new()
        .name("coprocess-stdout".into())
        .spawn(move || read_lines(reader, &sender));
    reading.and(watching.transpose())?;
    Ok(Answers::Handed(lines))
}

/// The client's end of a spawned coprocess's stdout and the coprocess's end:
/// on Unix a pipe where its path opens it again (its watchdog ends a read
/// through it), else a socket pair (the client reads its end with a
/// timeout); off Unix a pipe.
#[cfg(unix)]
fn stdout_pair() -> std::io::Result<(Option<Output>, Stdio)> {
    let (ours, theirs) = std::io::pipe()?;
    // The write end this opens is closed at once: the client holds none.
    let path = reopen_path(&ours);
    if std::fs::OpenOptions::new().write(true).open(path).is_ok() {
        return Ok((Some(Output::Pipe(ours)), Stdio::from(theirs)));
    }
    let (ours, theirs) = UnixStream::pair()?;
    let theirs = std::os::fd::OwnedFd::from(theirs);
    Ok((Some(Output::Socket(ours)), Stdio::from(theirs)))
}

#[cfg(not(unix))]
fn stdout_pair() -> std::io::Result<(Option<Output>, Stdio)> {
    Ok((None, Stdio::piped()))
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The state one request at a time goes through.
struct Session {
    writer: Option<Box<dyn Write + Send>>,
    answers: Answers,
    child: Option<Arc<Mutex<Child>>>,
    stderr_done: Option<Receiver<()>>,
    /// How the coprocess exited and when the client learnt it, once it has.
    status: Option<(ExitStatus, Instant)>,
    next_id: i64,
    /// `next_id` as JSON writes it, kept in step.
    next_id_text: IdText,
    closed: Option<&'static str>,
    /// Set once the coprocess ended: its status and stderr, for every later call.
    exit: Option<Exit>,
    /// How long to wait for the exit status once the output ended.
    close_timeout: Duration,
    stderr: Arc<Mutex<VecDeque<String>>>,
    /// The request lines of the methods called so far, laid out once each.
    request_lines: Vec<RequestLine>,
    /// The last request line's buffer, written into again by the next call
    /// (one that grew past [`LINE_BUFFER_KEPT`] is let go).
    line_buffer: Vec<u8>,
    /// How a success answer is laid out, learnt from the first one.
    answer_layout: Option<AnswerLayout>,
    /// Whether the layout was looked for (it is, once).
    answer_layout_sought: bool,
}

/// The largest request line buffer a session keeps for the next call.
const LINE_BUFFER_KEPT: usize = 64 * 1024;

/// One method's request line laid out once: the generated encoder's text of a
/// request whose id and params are markers, cut at them, so that a call writes
/// its id and its params' text between the parts and encodes no envelope.
struct RequestLine {
    method: &'static str,
    with_params: bool,
    /// Before the id; between the id and the params (or to the end); after them.
    parts: [String; 3],
}

impl RequestLine {
    const ID_MARK: &'static str = "\u{1}id";
    const PARAMS_MARK: &'static str = "\u{1}params";

    /// The layout, or `None` when the encoder's text does not hold the markers.
    fn of(method: &'static str, with_params: bool) -> Option<Self> {
        let request = coprocess::RoleRequestOf {
            jsonrpc: coprocess::RoleJsonRpcVersion::default(),
            id: coprocess::RoleRequestId::String(Self::ID_MARK.to_string()),
            method: method.to_string(),
            params: with_params.then(|| serde_json::Value::from(Self::PARAMS_MARK)),
        };
        let text = request.encode();
        let id = serde_json::to_string(Self::ID_MARK).ok()?;
        let (head, rest) = text.split_once(&id)?;
        let (middle, tail) = if with_params {
            let params = serde_json::to_string(Self::PARAMS_MARK).ok()?;
            rest.split_once(&params)?
        } else {
            (rest, "")
        };
        Some(Self {
            method,
            with_params,
            parts: [head.to_string(), middle.to_string(), tail.to_string()],
        })
    }

    /// The request line of call `id` with `params`, written into `buffer`
    /// (emptied first); `None` when they do not encode.
    fn write<P: serde::Serialize>(
        &self,
        mut line: Vec<u8>,
        id: &IdText,
        params: Option<&P>,
    ) -> Option<Vec<u8>> {
        let [head, middle, tail] = &self.parts;
        line.clear();
        line.reserve(head.len() + middle.len() + tail.len() + 64);
        line.extend_from_slice(head.as_bytes());
        line.extend_from_slice(id.as_bytes());
        line.extend_from_slice(middle.as_bytes());
        if let Some(params) = params {
            serde_json::to_writer(&mut line, params).ok()?;
        }
        line.extend_from_slice(tail.as_bytes());
        Some(line)
    }
}

/// An integer id as JSON writes it (no allocation).
#[derive(Clone, Copy)]
struct IdText {
    /// The sign and the digits, right-aligned.
    bytes: [u8; 20],
    start: usize,
}

impl IdText {
    fn of(id: i64) -> Self {
        let mut bytes = [0u8; 20];
        let mut start = bytes.len();
        let mut rest = id.unsigned_abs();
        loop {
            start -= 1;
            bytes[start] = b'0' + u8::try_from(rest % 10).unwrap_or(0);
            rest /= 10;
            if rest == 0 {
                break;
            }
        }
        if id < 0 {
            start -= 1;
            bytes[start] = b'-';
        }
        Self { bytes, start }
    }

    /// Becomes the text of `next`, this one's integer plus one: its last
    /// digits counted up in place (a negative one is written anew).
    fn advance(&mut self, next: i64) {
        if self.bytes[self.start] == b'-' {
            *self = Self::of(next);
            return;
        }
        for digit in self.bytes[self.start..].iter_mut().rev() {
            if *digit < b'9' {
                *digit += 1;
                return;
            }
            *digit = b'0';
        }
        // All nines: one digit more.
        self.start -= 1;
        self.bytes[self.start] = b'1';
    }

    fn as_bytes(&self) -> &[u8] {
        &self.bytes[self.start..]
    }
}

/// How a success answer's line is laid out around its id and its result:
/// the generated encoder's text of the session's first success answer, its
/// id and result replaced by markers, cut at them. An answer to call `id`
/// laid out so is that envelope with the call's id, its other members as
/// the first answer had them: only its result is left to decode, as the
/// text between the parts (which the whole answer's decode would read the
/// same, one container deeper).
struct AnswerLayout {
    /// Before the id; between the id and the result; after the result.
    parts: [String; 3],
}

impl AnswerLayout {
    const ID_MARK: &'static str = "\u{1}id";
    const RESULT_MARK: &'static str = "\u{1}result";
    /// The containers around the result in its answer: the envelope object.
    const RESULT_DEPTH: usize = 1;

    /// The layout of success answer `text`, or `None` when the encoder's
    /// text does not hold the markers in that order.
    fn of(text: &str) -> Option<Self> {
        let decoded = coprocess::RoleSuccessResponseOf::<serde_json::Value>::decode(text);
        let mut answer = decoded.ok()?;
        answer.id = coprocess::RoleRequestId::String(Self::ID_MARK.to_string());
        answer.result = serde_json::Value::from(Self::RESULT_MARK);
        let text = answer.encode();
        let id = serde_json::to_string(Self::ID_MARK).ok()?;
        let result = serde_json::to_string(Self::RESULT_MARK).ok()?;
        let (head, rest) = text.split_once(&id)?;
        let (middle, tail) = rest.split_once(&result)?;
        Some(Self {
            parts: [head.to_string(), middle.to_string(), tail.to_string()],
        })
    }

    /// The result's text in `text` when it is laid out as a success answer
    /// to call `id`.
    fn result_of<'t>(&self, text: &'t str, id: &IdText) -> Option<&'t str> {
        let [head, middle, tail] = &self.parts;
        let rest = text.strip_prefix(head.as_str())?;
        let rest = rest.as_bytes().strip_prefix(id.as_bytes())?;
        // The id's digits are ASCII: what follows them starts a character.
        let rest = text.get(text.len() - rest.len()..)?;
        rest.strip_prefix(middle.as_str())?
            .strip_suffix(tail.as_str())
    }

    /// The result of `text`, decoded as `R` when `text` is laid out as a
    /// success answer to call `id` and its result decodes: what the decode
    /// of the whole answer gives. `None` sends the answer to that decode
    /// (which says what is wrong, if anything is).
    fn decode<R: Frame>(&self, text: &str, id: &IdText) -> Option<R> {
        let result = self.result_of(text, id)?;
        coprocess::strict::enclosed(Self::RESULT_DEPTH, || R::decode(result))?.ok()
    }
}

/// A session with the mcptest coprocess: spawn (or any pair of byte
/// streams), handshake, then one typed method per method-table entry. One
/// request is in flight at a time (callers on other threads wait their
/// turn); every answer is checked; a failed call returns a [`ClientError`]
/// saying what happened and naming the method. Dropping it closes it.
pub struct CoprocessClient {
    session: Mutex<Session>,
    stderr: Arc<Mutex<VecDeque<String>>>,
    timeout: Duration,
    close_timeout: Duration,
    handshake: coprocess::RoleHandshakeResult,
}

impl CoprocessClient {
    /// Starts `<binary> exec --connection-server --server-command <argv>` and
    /// handshakes.
    ///
    /// # Errors
    ///
    /// A [`ClientError`]: `Spawn` when the binary cannot be started,
    /// `Handshake` with the contract's message (the coprocess is then gone),
    /// or what the handshake call met.
    pub fn spawn<S: AsRef<str>>(
        binary: impl AsRef<std::ffi::OsStr>,
        server_argv: &[S],
        options: &ClientOptions,
    ) -> Result<Self, ClientError> {
        let mut command = Command::new(binary);
        command
            .args(["exec", "--connection-server", "--server-command"])
            .arg(server_command(server_argv))
            .stdin(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(env) = &options.env {
            command.env_clear().envs(env.iter().map(|(k, v)| (k, v)));
        }
        if let Some(cwd) = &options.cwd {
            command.current_dir(cwd);
        }
        let path = command.get_program().to_string_lossy().into_owned();
        let spawn_error = |reason: String| {
            let method = coprocess::methods::ROLE_HANDSHAKE_METHOD;
            let message = messages::render_client_spawn_failed(method, &path, &reason);
            ClientError::new(ClientErrorKind::Spawn, method, message)
        };
        let (output, stdout) = stdout_pair().map_err(|e| spawn_error(os_reason(&e)))?;
        let spawned = command.stdout(stdout).spawn();
        // The command holds the coprocess's end of its stdout: the output ends only once it is gone.
        drop(command);
        let mut child = spawned.map_err(|e| spawn_error(os_reason(&e)))?;
        let piped = child.stdout.take();
        let output = output.or_else(|| piped.map(|stdout| Output::Stream(Box::new(stdout))));
        let (Some(output), Some(stdin), Some(stderr)) =
            (output, child.stdin.take(), child.stderr.take())
        else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(spawn_error("the coprocess has no pipes".to_string()));
        };
        let tail = Arc::new(Mutex::new(VecDeque::new()));
        let (done, stderr_done) = mpsc::channel();
        let kept = Arc::clone(&tail);
        let reading = thread::Builder::new()
            .name("coprocess-stderr".into())
            .spawn(move || read_stderr(stderr, &kept, &done));
        if let Err(e) = reading {
            let _ = child.kill();
            let _ = child.wait();
            return Err(spawn_error(e.to_string()));
        }
        let streams = (Box::new(stdin) as Box<dyn Write + Send>, Some(stderr_done));
        Self::start(output, streams, Some(child), options, tail)
    }

    /// A session over a pair of byte streams (an in-process double, a
    /// socket): answers are read from `reader`, requests written to `writer`.
    /// Handshakes before it returns.
    ///
    /// # Errors
    ///
    /// A [`ClientError`]: `Handshake` with the contract's message, or what
    /// the handshake call met.
    pub fn over_streams(
        reader: impl Read + Send + 'static,
        writer: impl Write + Send + 'static,
        options: &ClientOptions,
    ) -> Result<Self, ClientError> {
        let tail = Arc::new(Mutex::new(VecDeque::new()));
        let streams = (Box::new(writer) as Box<dyn Write + Send>, None);
        Self::start(
            Output::Stream(Box::new(reader)),
            streams,
            None,
            options,
            tail,
        )
    }

    fn start(
        output: Output,
        (writer, stderr_done): (Box<dyn Write + Send>, Option<Receiver<()>>),
        child: Option<Child>,
        options: &ClientOptions,
        stderr: Arc<Mutex<VecDeque<String>>>,
    ) -> Result<Self, ClientError> {
        let child = child.map(|child| Arc::new(Mutex::new(child)));
        let answers = match output {
            Output::Stream(reader) => handed(reader, child.as_ref()),
            #[cfg(unix)]
            Output::Pipe(pipe) => match &child {
                Some(child) => PipeAnswers::new(pipe, Arc::clone(child)).map(Answers::Pipe),
                None => handed(Box::new(pipe), None),
            },
            #[cfg(unix)]
            Output::Socket(socket) => match &child {
                Some(child) => SocketAnswers::new(socket, Arc::clone(child)).map(Answers::Socket),
                None => handed(Box::new(socket), None),
            },
        };
        let answers = match answers {
            Ok(answers) => answers,
            Err(e) => {
                if let Some(child) = &child {
                    let mut child = lock(child);
                    let _ = child.kill();
                    let _ = child.wait();
                }
                let method = coprocess::methods::ROLE_HANDSHAKE_METHOD;
                let message = format!("{method}: the coprocess could not be started");
                return Err(
                    ClientError::new(ClientErrorKind::Spawn, method, message).with_detail(e)
                );
            }
        };
        let mut session = Session {
            writer: Some(writer),
            answers,
            child,
            stderr_done,
            status: None,
            next_id: 1,
            next_id_text: IdText::of(1),
            closed: None,
            exit: None,
            close_timeout: options.close_timeout,
            stderr: Arc::clone(&stderr),
            request_lines: Vec::new(),
            line_buffer: Vec::new(),
            answer_layout: None,
            answer_layout_sought: false,
        };
        let handshake = match session.handshake(options) {
            Ok(handshake) => handshake,
            Err(error) => {
                session.finish(Duration::ZERO);
                return Err(error);
            }
        };
        Ok(Self {
            session: Mutex::new(session),
            stderr,
            timeout: options.timeout,
            close_timeout: options.close_timeout,
            handshake,
        })
    }

    /// What the binary answered to the handshake (its protocol and binary version).
    #[must_use]
    pub fn handshake_result(&self) -> &coprocess::RoleHandshakeResult {
        &self.handshake
    }

    /// The coprocess's exit status once it has exited (`None` before, when
    /// killed by a signal, or over streams).
    #[must_use]
    pub fn exit_status(&self) -> Option<i32> {
        let session = lock(&self.session);
        let child = session.child.as_ref()?;
        let status = lock(child).try_wait().ok().flatten();
        status.and_then(|s| s.code())
    }

    /// The last lines the coprocess wrote to stderr (at most [`STDERR_LINES`]).
    #[must_use]
    pub fn stderr_tail(&self) -> Vec<String> {
        lock(&self.stderr).iter().cloned().collect()
    }

    /// Sends the close method (where the contract has one), waits a bounded time
    /// for the exit, then kills. Idempotent; later calls fail as closed.
    pub fn close(&self) {
        let deadline = Instant::now() + self.close_timeout;
        let mut session = lock(&self.session);
        if session.closed.is_none() && session.exit.is_none() {
            session.closed = Some(messages::CLIENT_CLOSED_BY_CLOSE);
            if let Some(method) = SHUTDOWN {
                let id = session.take_id();
                let request = coprocess::RoleRequest {
                    jsonrpc: coprocess::RoleJsonRpcVersion::default(),
                    id: coprocess::RoleRequestId::Integer(id),
                    method: method.to_string(),
                    params: None,
                };
                let line = request.encode().into_bytes();
                let _ = session.exchange(method, line, self.close_timeout);
            }
        }
        let grace = deadline.saturating_duration_since(Instant::now());
        session.finish(grace);
    }

    /// Sends `method` with `params` and decodes its answer as `R`: what every
    /// typed method calls (`method` names a method-table entry whose params
    /// are `P` and whose result is `R`).
    ///
    /// # Errors
    ///
    /// A [`ClientError`] saying what happened and naming the method.
    pub fn request<P, R>(
        &self,
        method: &'static str,
        params: Option<P>,
        timeout: Option<Duration>,
    ) -> Result<R, ClientError>
    where
        P: serde::de::DeserializeOwned + serde::Serialize,
        R: Frame + serde::de::DeserializeOwned,
    {
        let mut session = lock(&self.session);
        session.check_open(method)?;
        // Written once, into the request line and the answer's expected layout.
        let (id, id_text) = session.take_id_text();
        let line = session
            .request_line(method, &id_text, params.as_ref())
            .unwrap_or_else(|| {
                let request = coprocess::RoleRequestOf {
                    jsonrpc: coprocess::RoleJsonRpcVersion::default(),
                    id: coprocess::RoleRequestId::Integer(id),
                    method: method.to_string(),
                    params,
                };
                request.encode().into_bytes()
            });
        let timeout = timeout.unwrap_or(self.timeout);
        let text = session.answer(method, line, timeout)?;
        let laid_out = session.answer_layout.as_ref();
        if let Some(result) = laid_out.and_then(|layout| layout.decode::<R>(&text, &id_text)) {
            session.answers.give_back(text);
            session.answered(method);
            return Ok(result);
        }
        let response = match coprocess::RoleResponseOf::<R>::decode(&text) {
            Ok(response) => response,
            Err(e) => return Err(session.broken(method, id, &text, R::TYPE_NAME, &e)),
        };
        let success = matches!(response, coprocess::RoleResponseOf::RoleSuccessResponse(_));
        if success && !session.answer_layout_sought {
            session.answer_layout_sought = true;
            session.answer_layout = AnswerLayout::of(&text);
        }
        session.answers.give_back(text);
        let answered = match &response {
            coprocess::RoleResponseOf::RoleSuccessResponse(success) => Some(&success.id),
            coprocess::RoleResponseOf::RoleErrorResponse(failure) => failure.id.as_ref(),
        };
        session.check_id(method, id, answered)?;
        match response {
            coprocess::RoleResponseOf::RoleSuccessResponse(success) => {
                session.answered(method);
                Ok(success.result)
            }
            coprocess::RoleResponseOf::RoleErrorResponse(failure) => {
                let error = failure.error;
                let name = coprocess::ERROR_CODES
                    .iter()
                    .find(|known| known.code == error.code)
                    .map(|known| known.name);
                let kind = ClientErrorKind::Rpc(Box::new(RpcError {
                    code: error.code,
                    name,
                    data: error.data,
                }));
                Err(ClientError::new(kind, method, error.message))
            }
        }
    }
}

impl Session {
    /// Sends the handshake and checks its answer; a failure ends it all.
    fn handshake(
        &mut self,
        options: &ClientOptions,
    ) -> Result<coprocess::RoleHandshakeResult, ClientError> {
        let method = coprocess::methods::ROLE_HANDSHAKE_METHOD;
        let id = self.take_id();
        let request_id = coprocess::RoleRequestId::Integer(id);
        let line = coprocess::handshake_request(
            request_id,
            Some(&options.sdk),
            Some(&options.sdk_version),
        );
        // The start's own timeout: starting the binary is slower than a call.
        let timeout = options.start_timeout;
        let answer = self.answer(method, line.into_bytes(), timeout);
        let result = answer.and_then(|text| match handshake_id(&text) {
            Ok(answered) => self.check_id(method, id, answered.as_ref()).map(|()| text),
            Err(e) => Err(self.broken(method, id, &text, "RoleHandshakeResult", &e)),
        });
        let text = match result {
            Ok(text) => text,
            Err(error) => {
                self.finish(Duration::ZERO);
                return Err(error);
            }
        };
        match coprocess::check_handshake_response(&text) {
            Ok(result) => Ok(result),
            Err(failure) => {
                self.closed = Some(closed_reason::FAILED_HANDSHAKE);
                self.finish(Duration::ZERO);
                Err(ClientError::new(
                    ClientErrorKind::Handshake,
                    method,
                    failure.message,
                ))
            }
        }
    }

    /// Writes one request line and reads its answer's text (the line, as UTF-8);
    /// a timeout ends the self.
    fn answer(
        &mut self,
        method: &'static str,
        line: Vec<u8>,
        timeout: Duration,
    ) -> Result<String, ClientError> {
        let text = self.exchange(method, line, timeout);
        match text {
            Err(error) if error.kind == ClientErrorKind::Timeout => {
                self.closed = Some(messages::CLIENT_CLOSED_AFTER_TIMEOUT);
                self.finish(Duration::ZERO);
                Err(error)
            }
            other => other,
        }
    }

    /// Writes `line` and waits up to `timeout` for the next line of output.
    fn exchange(
        &mut self,
        method: &'static str,
        mut line: Vec<u8>,
        timeout: Duration,
    ) -> Result<String, ClientError> {
        line.push(b'\n');
        let written = match self.writer.as_mut() {
            Some(writer) => writer
                .write_all(&line)
                .and_then(|()| writer.flush())
                .is_ok(),
            None => false,
        };
        if !written {
            return Err(self.ended(method));
        }
        if line.capacity() <= LINE_BUFFER_KEPT {
            self.line_buffer = line;
        }
        let deadline = Instant::now() + timeout;
        loop {
            // Once the coprocess has exited, only what it wrote before is still read.
            let until = self.status.map_or(deadline, |(_, at)| at + EXIT_DRAIN);
            match self.answers.next(until) {
                Ok(Line::Exited(status, at)) => self.status = Some((status, at)),
                Err(RecvTimeoutError::Timeout) if self.status.is_some() => {
                    return Err(self.ended(method))
                }
                other => return self.received(method, other, timeout),
            }
        }
    }

    /// What one line (or the lack of one) makes of a call's answer.
    fn received(
        &mut self,
        method: &'static str,
        line: Result<Line, RecvTimeoutError>,
        timeout: Duration,
    ) -> Result<String, ClientError> {
        match line {
            Ok(Line::Text(bytes)) => match String::from_utf8(bytes) {
                Ok(text) => Ok(text),
                Err(e) => {
                    let error =
                        self.protocol_error(messages::render_client_not_json(method), method);
                    Err(error.with_detail(e))
                }
            },
            Ok(Line::TooLong) => {
                let message = messages::render_client_too_long(
                    method,
                    &coprocess::MAX_LINE_BYTES.to_string(),
                );
                Err(self.protocol_error(message, method))
            }
            Ok(Line::End | Line::Exited(..)) | Err(RecvTimeoutError::Disconnected) => {
                Err(self.ended(method))
            }
            Err(RecvTimeoutError::Timeout) => {
                let ms = timeout.as_millis().to_string();
                let message = if self.child.is_some() {
                    messages::render_client_timeout(method, &ms)
                } else {
                    messages::render_client_timeout_streams(method, &ms)
                };
                Err(ClientError::new(ClientErrorKind::Timeout, method, message))
            }
        }
    }

    /// The coprocess exited or closed its output: wait (bounded) for its status
    /// and stderr.
    fn ended(&mut self, method: &'static str) -> ClientError {
        if self.status.is_none() && self.child.is_some() {
            // The output ended first: the exit follows, or the coprocess lives on.
            let deadline = Instant::now() + self.close_timeout;
            while let Ok(line) = self.answers.next(deadline) {
                if let Line::Exited(status, at) = line {
                    self.status = Some((status, at));
                    break;
                }
            }
        }
        if let (Some(done), Some((_, at))) = (&self.stderr_done, self.status) {
            let until = at + EXIT_DRAIN;
            let _ = done.recv_timeout(until.saturating_duration_since(Instant::now()));
        }
        let status = self.status.map(|(status, _)| status);
        let code = status.and_then(|status| status.code());
        let signal = status.and_then(signal_of);
        let stderr: Vec<String> = lock(&self.stderr)
            .iter()
            .filter(|line| !line.is_empty())
            .cloned()
            .collect();
        self.exit = Some(Exit {
            status: code,
            signal,
            stderr,
        });
        self.closed = Some(closed_reason::EXITED);
        self.finish(Duration::ZERO);
        self.exited(method)
    }

    /// Why an answer that did not decode is broken, in the order the checks
    /// go: not JSON, another id, not the result's shape. Ends the session.
    fn broken(
        &mut self,
        method: &'static str,
        id: i64,
        text: &str,
        type_name: &str,
        error: &coprocess::DecodeError,
    ) -> ClientError {
        let parsed = coprocess::strict::check_text(text, coprocess::MAX_DEPTH)
            .map_err(|(_, problem)| problem)
            .and_then(|checked| {
                serde_json::from_str::<serde_json::Value>(&checked).map_err(|e| e.to_string())
            });
        let value = match parsed {
            Ok(value) => value,
            Err(problem) => {
                return self
                    .protocol_error(messages::render_client_not_json(method), method)
                    .with_detail(problem)
            }
        };
        if let Some(got) = value.as_object().and_then(|object| object.get("id")) {
            if got.as_i64() != Some(id) {
                let got = got.to_string();
                return self.protocol_error(
                    messages::render_client_wrong_id(method, &got, &id.to_string()),
                    method,
                );
            }
        }
        self.protocol_error(
            messages::render_client_undecodable(method, type_name),
            method,
        )
        .with_detail(error)
    }

    /// Checks that an answer carries the request's id; ends the session if not.
    fn check_id(
        &mut self,
        method: &'static str,
        id: i64,
        answered: Option<&coprocess::RoleRequestId>,
    ) -> Result<(), ClientError> {
        if matches!(answered, Some(coprocess::RoleRequestId::Integer(got)) if *got == id) {
            return Ok(());
        }
        let got = answered.map_or_else(|| "null".to_string(), coprocess::RoleRequestId::encode);
        let message = messages::render_client_wrong_id(method, &got, &id.to_string());
        Err(self.protocol_error(message, method))
    }

    /// Request `id` of `method` with `params`, written into the method's laid-out
    /// line; `None` when the line cannot be laid out (the request is then encoded).
    fn request_line<P: serde::Serialize>(
        &mut self,
        method: &'static str,
        id: &IdText,
        params: Option<&P>,
    ) -> Option<Vec<u8>> {
        let with_params = params.is_some();
        let laid_out = self
            .request_lines
            .iter()
            .position(|line| line.with_params == with_params && line.method == method);
        let index = match laid_out {
            Some(index) => index,
            None => {
                let line = RequestLine::of(method, with_params)?;
                self.request_lines.push(line);
                self.request_lines.len() - 1
            }
        };
        let buffer = std::mem::take(&mut self.line_buffer);
        self.request_lines[index].write(buffer, id, params)
    }

    /// A call of `method` was answered with success.
    fn answered(&mut self, method: &'static str) {
        if Some(method) == SHUTDOWN {
            // The coprocess ends the session after answering: close only waits.
            self.closed = Some(messages::CLIENT_CLOSED_AFTER_SHUTDOWN);
        }
    }

    fn take_id(&mut self) -> i64 {
        self.take_id_text().0
    }

    /// The next request's id and its text.
    fn take_id_text(&mut self) -> (i64, IdText) {
        let (id, text) = (self.next_id, self.next_id_text);
        self.next_id += 1;
        self.next_id_text.advance(self.next_id);
        (id, text)
    }

    fn check_open(&self, method: &'static str) -> Result<(), ClientError> {
        if self.exit.is_some() {
            return Err(self.exited(method));
        }
        match self.closed {
            Some(reason) => {
                let message = messages::render_client_closed(method, reason);
                Err(ClientError::new(ClientErrorKind::Closed, method, message))
            }
            None => Ok(()),
        }
    }

    fn exited(&self, method: &'static str) -> ClientError {
        let exit = self.exit.clone().unwrap_or_default();
        let ending = match (exit.status, exit.signal) {
            (Some(status), _) => messages::render_client_exited(method, &status.to_string()),
            (None, Some(signal)) => messages::render_client_killed(method, &signal.to_string()),
            (None, None) => messages::render_client_output_closed(method),
        };
        let message = if exit.stderr.is_empty() {
            ending
        } else {
            messages::render_client_stderr_tail(&ending, &exit.stderr.join("\n"))
        };
        ClientError::new(ClientErrorKind::Exited(Box::new(exit)), method, message)
    }

    /// Ends the session after a broken answer: closed, the coprocess killed.
    fn protocol_error(&mut self, message: String, method: &'static str) -> ClientError {
        self.closed = Some(messages::CLIENT_CLOSED_AFTER_PROTOCOL_ERROR);
        self.finish(Duration::ZERO);
        ClientError::new(ClientErrorKind::Protocol, method, message)
    }

    /// Closes the input, waits up to `grace` for the exit, then kills.
    fn finish(&mut self, grace: Duration) {
        self.writer = None;
        if let Some(child) = &self.child {
            let mut child = lock(child);
            if wait_until(&mut child, Instant::now() + grace).is_none() {
                let _ = child.kill();
                let _ = child.wait();
            }
        }
    }
}

/// The id of the handshake's answer, once a success's result decodes as the
/// handshake's result (an error answer's id as it is).
fn handshake_id(text: &str) -> Result<Option<coprocess::RoleRequestId>, coprocess::DecodeError> {
    match coprocess::RoleResponse::decode(text)? {
        coprocess::RoleResponse::RoleSuccessResponse(success) => {
            coprocess::RoleHandshakeResult::from_value(success.result)?;
            Ok(Some(success.id))
        }
        coprocess::RoleResponse::RoleErrorResponse(failure) => Ok(failure.id),
    }
}

/// The child's exit status once it exits, waiting no later than `deadline`.
fn wait_until(child: &mut Child, deadline: Instant) -> Option<std::process::ExitStatus> {
    let mut pause = Duration::from_millis(1);
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Some(status),
            Ok(None) if Instant::now() < deadline => {
                thread::sleep(pause.min(deadline.saturating_duration_since(Instant::now())));
                pause = (pause * 2).min(Duration::from_millis(20));
            }
            _ => return None,
        }
    }
}

/// The operating system's reason for `error`, as its `strerror` words it,
/// lower-cased at the start (`no such file or directory`).
fn os_reason(error: &std::io::Error) -> String {
    let text = error.to_string();
    let words = match error.raw_os_error() {
        Some(code) => text
            .strip_suffix(&format!(" (os error {code})"))
            .unwrap_or(&text),
        None => &text,
    };
    let mut chars = words.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_lowercase().chain(chars).collect()
    })
}

#[cfg(unix)]
fn signal_of(status: std::process::ExitStatus) -> Option<i32> {
    std::os::unix::process::ExitStatusExt::signal(&status)
}

#[cfg(not(unix))]
fn signal_of(_: std::process::ExitStatus) -> Option<i32> {
    None
}

impl Drop for CoprocessClient {
    fn drop(&mut self) {
        self.close();
    }
}
