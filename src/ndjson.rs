//! The channel's framing: newline-delimited JSON. Handles partial reads,
//! several frames in one read, blank lines and CRLF, and enforces the
//! contract's maximum line length with bounded memory: an over-long line is
//! reported once and skipped without being buffered whole. One bad line
//! never ends the session.

use std::io::{self, Read};

/// What one line of the channel turned out to be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line {
    /// A frame's text, without the line terminator.
    Frame(String),
    /// A line longer than the limit; `length` counts its bytes (without `\n`).
    TooLong { length: usize },
    /// A line that is not UTF-8.
    NotUtf8,
}

/// Splits a byte stream into lines, holding at most `max` bytes of one line.
#[derive(Debug)]
pub struct LineSplitter {
    max: usize,
    pending: Vec<u8>,
    /// Bytes of an over-long line seen so far, while it is being skipped.
    discarding: Option<usize>,
}

impl LineSplitter {
    pub fn new(max: usize) -> Self {
        Self { max, pending: Vec::new(), discarding: None }
    }

    /// Feeds a chunk; returns the lines it completed, in order.
    pub fn push(&mut self, mut chunk: &[u8]) -> Vec<Line> {
        let mut lines = Vec::new();
        while !chunk.is_empty() {
            let newline = chunk.iter().position(|b| *b == b'\n');
            let (part, rest) = match newline {
                Some(i) => (&chunk[..i], Some(&chunk[i + 1..])),
                None => (chunk, None),
            };
            self.take(part);
            match rest {
                Some(rest) => {
                    if let Some(line) = self.end_line() {
                        lines.push(line);
                    }
                    chunk = rest;
                }
                None => break,
            }
        }
        lines
    }

    /// The memory held for the line being read (its buffer's capacity): at
    /// most about twice the limit, however long the line (the fuzz target
    /// `line_splitter` checks this after every chunk).
    pub fn held_bytes(&self) -> usize {
        self.pending.capacity()
    }

    /// Ends the stream: an unterminated last line still counts.
    pub fn finish(&mut self) -> Option<Line> {
        if self.pending.is_empty() && self.discarding.is_none() {
            return None;
        }
        self.end_line()
    }

    fn take(&mut self, part: &[u8]) {
        if let Some(seen) = self.discarding.as_mut() {
            *seen += part.len();
            return;
        }
        // One byte of slack for a trailing `\r`, which is not part of the frame.
        if self.pending.len() + part.len() > self.max + 1 {
            self.discarding = Some(self.pending.len() + part.len());
            self.pending = Vec::new();
        } else {
            self.pending.extend_from_slice(part);
        }
    }

    fn end_line(&mut self) -> Option<Line> {
        if let Some(length) = self.discarding.take() {
            return Some(Line::TooLong { length });
        }
        let mut bytes = std::mem::take(&mut self.pending);
        if bytes.last() == Some(&b'\r') {
            bytes.pop();
        }
        if bytes.len() > self.max {
            return Some(Line::TooLong { length: bytes.len() });
        }
        if bytes.iter().all(|b| matches!(b, b' ' | b'\t' | b'\r')) {
            return None;
        }
        Some(match String::from_utf8(bytes) {
            Ok(text) => Line::Frame(text),
            Err(_) => Line::NotUtf8,
        })
    }
}

/// Reads lines from a byte source (a pipe, stdin) with [`LineSplitter`].
pub struct LineReader<R> {
    inner: R,
    splitter: LineSplitter,
    ready: std::collections::VecDeque<Line>,
    done: bool,
}

impl<R: Read> LineReader<R> {
    pub fn new(inner: R, max: usize) -> Self {
        Self { inner, splitter: LineSplitter::new(max), ready: Default::default(), done: false }
    }

    /// The next line, or `None` at end of input.
    pub fn next_line(&mut self) -> io::Result<Option<Line>> {
        let mut chunk = [0u8; 64 * 1024];
        loop {
            if let Some(line) = self.ready.pop_front() {
                return Ok(Some(line));
            }
            if self.done {
                return Ok(None);
            }
            let n = match self.inner.read(&mut chunk) {
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if n == 0 {
                self.done = true;
                self.ready.extend(self.splitter.finish());
            } else {
                self.ready.extend(self.splitter.push(&chunk[..n]));
            }
        }
    }
}

/// Encodes a frame as exactly one line: its JSON text and a `\n`.
pub fn encode_line<F: crate::Frame>(frame: &F) -> String {
    let mut line = frame.encode();
    line.push('\n');
    line
}
