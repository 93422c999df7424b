//! Process plumbing: the stdin reader thread's line splitting, the single stdout writer, and
//! the loop that connects them to the engine thread.
//!
//! The reader runs on the main thread and never blocks on the engine: every command goes over
//! a channel, in order, so nothing is dropped while the engine thinks. Stop and quit requests
//! also set shared flags the search polls (see `Signals`).

use super::{Command, Parser};
use crate::engine::{Engine, Signals};
use std::io::{Read, Write};
use std::sync::atomic::Ordering;
use std::sync::{mpsc, Arc};
use std::time::Instant;

/// Longest line kept; the rest of a longer line is dropped (no command is that long).
pub const MAX_LINE: usize = 64 * 1024;

/// A command with the moment it arrived (time limits count from then) and its sequence number.
pub struct Envelope {
    pub cmd: Option<Command>,
    pub seq: u64,
    pub arrived: Instant,
}

/// Splits a byte stream into lines on LF, CR or CRLF (empty lines are left to the parser).
#[derive(Default)]
pub struct LineSplitter {
    line: Vec<u8>,
    overflow: bool,
}

impl LineSplitter {
    /// Feeds bytes, calling `f` with every complete line.
    pub fn push(&mut self, bytes: &[u8], mut f: impl FnMut(&str)) {
        for &b in bytes {
            if b == b'\n' || b == b'\r' {
                self.flush(&mut f);
            } else if self.line.len() < MAX_LINE {
                self.line.push(b);
            } else {
                self.overflow = true;
            }
        }
    }

    /// Ends the stream: a last line without a line ending still counts.
    pub fn finish(&mut self, mut f: impl FnMut(&str)) {
        self.flush(&mut f);
    }

    fn flush(&mut self, f: &mut impl FnMut(&str)) {
        if !self.line.is_empty() {
            f(&String::from_utf8_lossy(&self.line));
        }
        self.line.clear();
        self.overflow = false;
    }
}

/// The only writer of stdout: one line at a time, flushed at once. Write errors (a closed
/// pipe) are ignored: there is nobody left to tell.
pub struct Output {
    sink: Box<dyn Write + Send>,
}

impl Output {
    pub fn new(sink: Box<dyn Write + Send>) -> Output {
        Output { sink }
    }

    pub fn stdout() -> Output {
        Output::new(Box::new(std::io::stdout()))
    }

    pub fn line(&mut self, text: &str) {
        let _ = writeln!(self.sink, "{text}").and_then(|_| self.sink.flush());
    }
}

/// Runs the protocol on stdin/stdout until `END` or end of input.
pub fn serve() {
    let signals = Arc::new(Signals::default());
    let (tx, rx) = mpsc::channel::<Envelope>();
    let engine_signals = Arc::clone(&signals);
    let engine = std::thread::Builder::new()
        .name("engine".into())
        .stack_size(16 << 20)
        .spawn(move || Engine::new(Output::stdout(), engine_signals).run(rx))
        .expect("spawn the engine thread");

    let seq = read_commands(&signals, &tx);
    // End of input: the engine finishes what it was given, then stops.
    let _ = tx.send(Envelope { cmd: None, seq: seq + 1, arrived: Instant::now() });
    signals.latest.store(seq + 1, Ordering::SeqCst);
    drop(tx);
    if engine.join().is_err() {
        log::error!("the engine thread panicked");
    }
}

/// Reads stdin and forwards its commands until `END` or end of input; returns the last
/// sequence number used.
fn read_commands(signals: &Signals, tx: &mpsc::Sender<Envelope>) -> u64 {
    let mut parser = Parser::new();
    let mut splitter = LineSplitter::default();
    let mut seq = 0u64;
    let mut batch = Vec::new();
    let mut buf = vec![0u8; 16 * 1024];
    let mut stdin = std::io::stdin().lock();
    loop {
        let n = match stdin.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => {
                log::warn!("stdin: {e}");
                break;
            }
        };
        splitter.push(&buf[..n], |l| batch.extend(parser.feed(l)));
        if forward(&mut batch, &mut seq, signals, tx) {
            return seq;
        }
    }
    splitter.finish(|l| batch.extend(parser.feed(l)));
    forward(&mut batch, &mut seq, signals, tx);
    seq
}

/// Sends the commands of one read to the engine, in order; returns whether `END` was among
/// them. The quit flag goes up before any of them is sent, so a command read together with
/// `END` can never start a search; what follows `END` is dropped, as it would be unread.
fn forward(batch: &mut Vec<Command>, seq: &mut u64, signals: &Signals, tx: &mpsc::Sender<Envelope>) -> bool {
    let end = batch.iter().position(|c| matches!(c, Command::End));
    if let Some(i) = end {
        batch.truncate(i + 1);
        signals.quit.store(true, Ordering::SeqCst);
    }
    for cmd in batch.drain(..) {
        *seq += 1;
        if matches!(cmd, Command::Stop) {
            signals.stop_upto.store(*seq, Ordering::SeqCst);
        }
        let _ = tx.send(Envelope { cmd: Some(cmd), seq: *seq, arrived: Instant::now() });
        signals.latest.store(*seq, Ordering::SeqCst);
    }
    end.is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(chunks: &[&[u8]]) -> Vec<String> {
        let mut s = LineSplitter::default();
        let mut out = Vec::new();
        for c in chunks {
            s.push(c, |l| out.push(l.to_string()));
        }
        s.finish(|l| out.push(l.to_string()));
        out
    }

    #[test]
    fn all_line_endings() {
        assert_eq!(split(&[b"START 15\r\nBEGIN\r\n"]), ["START 15", "BEGIN"]);
        assert_eq!(split(&[b"START 15\rBEGIN\r"]), ["START 15", "BEGIN"]);
        assert_eq!(split(&[b"START 15\nBEGIN"]), ["START 15", "BEGIN"]);
        assert_eq!(split(&[b"STA", b"RT 15\r", b"\nBEG", b"IN\n"]), ["START 15", "BEGIN"]);
    }

    #[test]
    fn long_lines_are_cut_and_binary_survives() {
        let long = vec![b'A'; MAX_LINE * 3];
        let out = split(&[&long, b"\nEND\n"]);
        assert_eq!(out.len(), 2);
        assert_eq!(out[0].len(), MAX_LINE);
        assert_eq!(out[1], "END");
        let junk = split(&[&[0xff, 0xfe, 0x00, b'\n']]);
        assert_eq!(junk.len(), 1);
    }

    #[test]
    fn end_is_signalled_before_the_commands_read_with_it() {
        let signals = Signals::default();
        let (tx, rx) = mpsc::channel();
        let mut seq = 0;
        let mut batch = vec![Command::About, Command::Begin, Command::End, Command::Restart];
        assert!(forward(&mut batch, &mut seq, &signals, &tx));
        assert!(signals.quit.load(Ordering::SeqCst));
        let sent: Vec<Option<Command>> = rx.try_iter().map(|e| e.cmd).collect();
        assert_eq!(sent, [Some(Command::About), Some(Command::Begin), Some(Command::End)]);
        assert_eq!((seq, signals.latest.load(Ordering::SeqCst)), (3, 3));

        let quiet = Signals::default();
        let mut batch = vec![Command::Stop];
        assert!(!forward(&mut batch, &mut seq, &quiet, &tx));
        assert_eq!(quiet.stop_upto.load(Ordering::SeqCst), 4);
        assert!(!quiet.quit.load(Ordering::SeqCst));
    }
}
