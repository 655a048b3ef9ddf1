//! The two ends a suite's comparison talks to: a worker process (another build's suite, or
//! this one's, started with `--picollo-worker`), or a suite of this process (the same
//! requests and replies, as text, without a process: simulated machines in tests).

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::string::{String, ToString};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use super::exit::SuiteError;
use super::worker::Worker;
use super::Suite;
use crate::model::{Request, TAG};

/// The flag that makes a suite a worker.
pub const WORKER_FLAG: &str = "--picollo-worker";

/// One end of a comparison: it answers each request with a reply line.
pub trait Endpoint {
    /// What the messages call it (`base`, `head`).
    fn label(&self) -> &str;
    /// The text of the answer to `request` (its line less the tag), within `timeout`: an
    /// error where none came (the worker exited, hung, or wrote a line that is not a reply).
    /// [`crate::model::Answer::read`] reads it.
    fn call(&mut self, request: &Request, timeout: Duration) -> Result<String, SuiteError>;
}

/// How long a worker asked to quit is given before it is killed.
const QUIT_WAIT: Duration = Duration::from_secs(2);

/// A worker process.
pub struct Process {
    label: String,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Its exit has been collected (it quit, or it was killed and waited for).
    reaped: bool,
}

impl Process {
    /// `program --picollo-worker` (with `args` before the flag), its replies read from its
    /// standard output; any other line it prints goes to this process's standard error
    /// after its label.
    pub fn spawn(label: &str, program: &Path, args: &[String]) -> Result<Self, SuiteError> {
        let mut child = Command::new(program)
            .args(args)
            .arg(WORKER_FLAG)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| {
                let why = std::format!("{label}: cannot start {}: {e}", program.display());
                SuiteError::worker(why)
            })?;
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| SuiteError::worker("no stdout"))?;
        let (tx, lines) = channel();
        let who = label.to_string();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            while matches!(reader.read_until(b'\n', &mut buf), Ok(n) if n > 0) {
                let line = String::from_utf8_lossy(&buf).trim_end().to_string();
                buf.clear();
                if line.starts_with(TAG) {
                    if tx.send(line).is_err() {
                        return;
                    }
                } else if !line.is_empty() {
                    std::eprintln!("[{who}] {line}");
                }
            }
        });
        let stdin = child.stdin.take();
        Ok(Process {
            label: label.into(),
            child,
            stdin,
            lines,
            reaped: false,
        })
    }

    /// Why the worker stopped answering: how it exited where it did (whichever pipe
    /// noticed first, one message), or `what` it closed while still running.
    fn gone(&mut self, what: &str) -> SuiteError {
        let exited = self.exited();
        let label = &self.label;
        match exited {
            Some(status) => {
                SuiteError::worker(std::format!("{label}: the worker exited: {status}"))
            }
            None => SuiteError::worker(std::format!("{label}: the worker {what} and runs on")),
        }
    }

    /// How the worker exited, waiting for it up to [`QUIT_WAIT`]; `None` where it still
    /// runs.
    fn exited(&mut self) -> Option<std::process::ExitStatus> {
        self.exited_by(Instant::now() + QUIT_WAIT)
    }

    /// How the worker exited, waiting for it until `deadline`; `None` where it still runs.
    fn exited_by(&mut self, deadline: Instant) -> Option<std::process::ExitStatus> {
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                self.reaped = true;
                return Some(status);
            }
            if Instant::now() >= deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Asks the worker to quit (once): the request, then its input closed.
    fn ask_to_quit(&mut self) {
        if let Some(mut s) = self.stdin.take() {
            let _ = send(&mut s, Request::Quit.line());
        }
    }

    /// The worker gone by `deadline`: waited for until then, killed after.
    fn reap_by(&mut self, deadline: Instant) {
        if !self.reaped && self.exited_by(deadline).is_none() {
            self.kill();
        }
    }

    /// Kills the worker and collects its exit.
    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.reaped = true;
    }
}

/// Writes `line` and a newline to a worker's input with SIGPIPE blocked for this thread:
/// a worker that has exited is an error (`EPIPE`, told as its exit), never the signal, which
/// ends a process that leaves it at its default (a C or C++ suite's; Rust, Python and .NET
/// ignore it).
fn send(input: &mut ChildStdin, line: impl core::fmt::Display) -> std::io::Result<()> {
    let _held = PipeSignalHeld::new();
    writeln!(input, "{line}").and_then(|_| input.flush())
}

/// SIGPIPE blocked for this thread until dropped; one raised meanwhile by this thread's
/// writes is taken (not delivered) where none was pending before.
struct PipeSignalHeld {
    old: libc::sigset_t,
    pending_before: bool,
}

/// The signal set of SIGPIPE alone.
fn pipe_signal() -> libc::sigset_t {
    // SAFETY: sigset_t is plain data (all zeros a valid value) that sigemptyset then
    // initialises through a valid pointer.
    unsafe {
        let mut set: libc::sigset_t = core::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, libc::SIGPIPE);
        set
    }
}

impl PipeSignalHeld {
    fn new() -> Self {
        let pipe = pipe_signal();
        // SAFETY: sigset_t is plain data (all zeros a valid value); the calls get valid
        // pointers to sets on this stack.
        unsafe {
            let mut old: libc::sigset_t = core::mem::zeroed();
            let mut pending: libc::sigset_t = core::mem::zeroed();
            libc::pthread_sigmask(libc::SIG_BLOCK, &pipe, &mut old);
            libc::sigpending(&mut pending);
            let pending_before = libc::sigismember(&pending, libc::SIGPIPE) == 1;
            PipeSignalHeld {
                old,
                pending_before,
            }
        }
    }
}

impl Drop for PipeSignalHeld {
    fn drop(&mut self) {
        let pipe = pipe_signal();
        // SAFETY: valid pointers to sets on this stack; a zero timeout makes sigtimedwait
        // take a pending SIGPIPE or return at once (EAGAIN); the mask is restored as it was.
        unsafe {
            if !self.pending_before {
                let now = libc::timespec {
                    tv_sec: 0,
                    tv_nsec: 0,
                };
                libc::sigtimedwait(&pipe, core::ptr::null_mut(), &now);
            }
            libc::pthread_sigmask(libc::SIG_SETMASK, &self.old, core::ptr::null_mut());
        }
    }
}

/// Stops worker processes together: each is asked to quit, then all share one wait of
/// [`QUIT_WAIT`] before those still running are killed (one by one, six hung workers took
/// 2 s each to give up on).
pub fn stop_all(workers: &mut [Process]) {
    workers.iter_mut().for_each(Process::ask_to_quit);
    let deadline = Instant::now() + QUIT_WAIT;
    for w in workers {
        w.reap_by(deadline);
    }
}

impl Endpoint for Process {
    fn label(&self) -> &str {
        &self.label
    }

    fn call(&mut self, request: &Request, timeout: Duration) -> Result<String, SuiteError> {
        let sent = self.stdin.as_mut().map(|s| send(s, request.line()));
        if !matches!(sent, Some(Ok(()))) {
            return Err(self.gone("closed its input"));
        }
        let line = match self.lines.recv_timeout(timeout) {
            Ok(line) => line,
            Err(RecvTimeoutError::Disconnected) => return Err(self.gone("closed its output")),
            Err(RecvTimeoutError::Timeout) => {
                self.kill();
                let secs = timeout.as_secs_f64();
                let why = std::format!("{}: no reply within {secs:.1} s: killed", self.label);
                return Err(SuiteError::worker(why));
            }
        };
        reply_text(&self.label, &line)
    }
}

/// The text of reply line `line` (its tag taken off); an error naming `label` where it has
/// no tag.
fn reply_text(label: &str, line: &str) -> Result<String, SuiteError> {
    match line.strip_prefix(TAG) {
        Some(text) => Ok(text.into()),
        None => Err(SuiteError::worker(std::format!(
            "{label}: not a reply: {line}"
        ))),
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        stop_all(core::slice::from_mut(self));
    }
}

/// A suite of this process as an endpoint: each request and reply goes through its text,
/// as to a process.
pub struct Local<'s, 'a> {
    label: String,
    worker: Worker<'s, 'a>,
}

impl<'s, 'a> Local<'s, 'a> {
    /// `suite`, answering as `label`.
    pub fn new(label: &str, suite: &'s mut Suite<'a>) -> Self {
        Local {
            label: label.into(),
            worker: Worker::new(suite),
        }
    }
}

impl Endpoint for Local<'_, '_> {
    fn label(&self) -> &str {
        &self.label
    }

    fn call(&mut self, request: &Request, _: Duration) -> Result<String, SuiteError> {
        match self.worker.handle(&request.line()) {
            Some(answer) => reply_text(&self.label, &answer.line()),
            None => Err(SuiteError::worker(std::format!("{}: quit", self.label))),
        }
    }
}
