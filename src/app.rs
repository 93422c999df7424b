//! The brain process: wires stdin, the protocol front end, the engine thread and stdout.
//!
//! The reader runs on the main thread and never blocks on the engine: every command goes over
//! a channel, in order, so nothing is dropped while the engine thinks. Stop and quit requests
//! also set shared flags the search polls (see `Signals`). The engine thread is the only
//! writer of stdout.

use crate::engine::command::{Command, Envelope, Reply};
use crate::engine::{Engine, Signals};
use crate::protocol::lines::LineSplitter;
use crate::protocol::Parser;
use std::io::{Read, Write};
use std::sync::atomic::Ordering;
use std::sync::{mpsc, Arc};
use std::time::Instant;

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
        .spawn(move || {
            let mut out = Output::stdout();
            Engine::new(Box::new(move |reply: Reply| out.line(&reply.to_string())), engine_signals)
                .answer_all(rx)
        })
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
