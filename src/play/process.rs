//! The brain's child process: its stdin, a thread that turns its stdout into lines, and a
//! clean shutdown. Knows nothing of the protocol.

use anyhow::{anyhow, Context, Result};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

/// How long a brain gets to exit after `END` before it is killed.
const EXIT_GRACE: Duration = Duration::from_millis(1000);
const EXIT_POLL: Duration = Duration::from_millis(10);

/// What waiting for a line produced.
pub enum Line {
    Text(String),
    Timeout,
    /// The brain closed its stdout (it exited or crashed).
    Closed,
}

pub struct Process {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Process {
    /// Starts `command` (program and arguments). The brain's stderr is passed through only when
    /// `RUST_LOG` is set, so its logging never mixes with the board.
    pub fn spawn(command: &[String]) -> Result<Process> {
        let (program, args) = command.split_first().ok_or_else(|| anyhow!("empty engine command"))?;
        let stderr = if std::env::var_os("RUST_LOG").is_some() { Stdio::inherit() } else { Stdio::null() };
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .with_context(|| format!("cannot start the engine '{}'", command.join(" ")))?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().ok_or_else(|| anyhow!("no stdout pipe to the engine"))?;
        let (tx, lines) = mpsc::channel();
        thread::Builder::new()
            .name("brain-stdout".into())
            .spawn(move || {
                for line in BufReader::new(stdout).lines() {
                    let Ok(line) = line else { break };
                    if tx.send(line).is_err() {
                        break;
                    }
                }
            })
            .context("cannot start the engine reader thread")?;
        Ok(Process { child, stdin, lines })
    }

    /// Sends one line; an error means the brain is gone.
    pub fn send(&mut self, line: &str) -> Result<()> {
        log::debug!("to brain: {line}");
        let stdin = self.stdin.as_mut().ok_or_else(|| anyhow!("the engine's input is closed"))?;
        writeln!(stdin, "{line}").and_then(|_| stdin.flush()).context("the engine is not reading its input")
    }

    /// The next non-empty line, waiting until `deadline`.
    pub fn recv(&mut self, deadline: Instant) -> Line {
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let line = line.trim();
                    log::debug!("from brain: {line}");
                    if !line.is_empty() {
                        return Line::Text(line.to_string());
                    }
                }
                Err(RecvTimeoutError::Timeout) => return Line::Timeout,
                Err(RecvTimeoutError::Disconnected) => return Line::Closed,
            }
        }
    }

    /// Drops lines that arrived late for an earlier command, so they are not taken as answers.
    pub fn drain(&mut self) {
        while let Ok(line) = self.lines.try_recv() {
            log::debug!("late line from brain, dropped: {line}");
        }
    }

    /// Sends `END`, closes the pipe and waits briefly; a brain that does not exit is killed.
    pub fn end(mut self) {
        let _ = self.send("END");
        drop(self.stdin.take());
        let deadline = Instant::now() + EXIT_GRACE;
        while Instant::now() < deadline {
            match self.child.try_wait() {
                Ok(Some(_)) | Err(_) => return,
                Ok(None) => thread::sleep(EXIT_POLL),
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        // After `end` the child is already reaped and this is a no-op; on an error path it makes
        // sure no brain outlives the terminal session.
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}
