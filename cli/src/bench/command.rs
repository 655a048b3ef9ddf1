//! One run of one command: `sh -c CMD` (or the command's own words, without a shell)
//! forked and held at a gate while its counters open (a perf group on the child, inherited
//! by all it spawns, enabled by its `exec`), then released, timed by the wall clock until
//! it is reaped, with its user and system time from `wait4`. Its stdin is /dev/null, and so
//! are its stdout and stderr unless shown.

use std::ffi::{c_char, CString, OsStr, OsString};
use std::fs::{File, OpenOptions};
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::ExitStatus;
use std::time::Instant;

use picollo_bench::{counters, Metric, MetricKind, Unit, SCALE};
use picollo_perf::{EmulatedEvent, Event, PerfError, Session, SessionBuilder};

/// The counters every run opens on its command, and what was given up on the way, each
/// a sentence.
pub struct Counters {
    events: Vec<Event>,
    kernel: bool,
    /// With `--emulate`: the emulated counts each run's totals give, after the counters.
    emulated: Vec<EmulatedEvent>,
    /// Why counters are missing or count user space only.
    pub notes: Vec<String>,
}

/// One group on task `pid` (0: this thread), disabled until the task's `exec`, inherited
/// by the tasks it creates.
fn open(events: &[Event], kernel: bool, pid: i32) -> Result<Session, PerfError> {
    let mut b = SessionBuilder::new()
        .with_target(pid, -1)
        .with_kernel(kernel)
        .with_enabled(false)
        .with_inherit(true)
        .with_enable_on_exec(true)
        .with_calibration(false)
        .with_rdpmc(false);
    for &e in events {
        b.add_counter(e)?;
    }
    b.open()
}

impl Counters {
    /// Choose by trial: the harness's software and default hardware counters with kernel
    /// work included; without the hardware ones where the PMU refuses them; then user space
    /// only where the kernel's work may not be counted (`perf_event_paranoid`); then none.
    pub fn choose() -> Self {
        let software: Vec<Event> = counters::software().to_vec();
        let mut all = software.clone();
        all.extend(counters::default_hardware());
        let mut notes = Vec::new();
        let tries = [
            (all, true, "trying software events only"),
            (
                software.clone(),
                true,
                "trying user space only (context switches then read 0)",
            ),
            (
                software,
                false,
                "no counters: wall, user and system time only",
            ),
        ];
        for (events, kernel, fallback) in tries {
            match open(&events, kernel, 0) {
                Ok(_) => {
                    return Counters {
                        events,
                        kernel,
                        emulated: Vec::new(),
                        notes,
                    }
                }
                Err(e) => notes.push(format!("{e}; {fallback}")),
            }
        }
        Counters {
            events: Vec::new(),
            kernel: false,
            emulated: Vec::new(),
            notes,
        }
    }

    /// Under `--emulate`: no perf counters (they would count the emulator), the emulated
    /// counts `emulated` from each run's totals instead.
    pub fn emulated(emulated: Vec<EmulatedEvent>) -> Self {
        let note = "emulated: each command ran under QEMU's user mode with Picollo's plugin; \
                    the Emulated:* counts are its guest's, exact, user space only; time, user \
                    and system are the emulator's";
        Counters {
            events: Vec::new(),
            kernel: false,
            emulated,
            notes: vec![note.into()],
        }
    }

    /// The metrics of a run's row: wall time, user time, system time, then each counter.
    pub fn metrics(&self) -> Vec<Metric> {
        // The process's user and system times are figures beside its wall time, not time
        // on the CPU as task-clock counts it.
        let ns = |name: &str| Metric::new(name, Unit::Nanoseconds, MetricKind::Counter);
        let mut m = vec![Metric::time(), ns("user"), ns("system")];
        let events = self.events.iter().copied();
        let all = events.chain(self.emulated.iter().map(|&e| Event::Emulated(e)));
        m.extend(all.map(Metric::of_event));
        m
    }

    /// The emulated counts a run's row ends with.
    pub fn emulated_events(&self) -> &[EmulatedEvent] {
        &self.emulated
    }

    /// The counters of child `pid` (none when the machine allows none).
    fn open_on(&self, pid: i32) -> io::Result<Option<Session>> {
        if self.events.is_empty() {
            return Ok(None);
        }
        open(&self.events, self.kernel, pid)
            .map(Some)
            .map_err(io::Error::other)
    }
}

/// What one run left.
pub enum Ran {
    /// Its row: every metric's figure in thousandths of the unit (time in picoseconds);
    /// and per counter, the nanoseconds it was enabled and those it ran (counted).
    Measured(Vec<u64>, Vec<(u64, u64)>),
    /// It exited non-zero, was killed, or its program could not start.
    Failed(Ended),
}

/// How a run that did not succeed ended: its status, and why its program could not start
/// when that is the cause (the child's `exec` failed: not found, not executable).
#[derive(Clone, Debug)]
pub struct Ended {
    pub status: ExitStatus,
    pub not_started: Option<String>,
}

impl std::fmt::Display for Ended {
    /// `ended with exit status: 1`, or `could not start: no-such: No such file or
    /// directory (os error 2)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.not_started {
            Some(why) => write!(f, "could not start: {why}"),
            None => write!(f, "ended with {}", self.status),
        }
    }
}

/// Run `argv` once and measure it. Fails when it cannot be forked, counted or waited for.
pub fn run_once(argv: &Argv, counters: &Counters, show_output: bool) -> io::Result<Ran> {
    let null = OpenOptions::new()
        .read(true)
        .write(true)
        .open("/dev/null")?;
    let quiet = if show_output { 1 } else { 3 };
    let (pid, gate, exec_error) = fork_held(argv, &null, quiet)?;
    let session = match counters.open_on(pid) {
        Ok(s) => s,
        Err(e) => {
            drop(gate); // the child sees the gate closed and exits without running
            wait4(pid)?;
            return Err(e);
        }
    };
    let start = Instant::now();
    release(gate)?;
    let (status, usage) = wait4(pid)?;
    let wall = start.elapsed();
    if !status.success() {
        let not_started = exec_errno(&exec_error).map(|e| format!("{}: {e}", argv.program()));
        return Ok(Ran::Failed(Ended {
            status,
            not_started,
        }));
    }
    let ps = |ns: u128| u64::try_from(ns).unwrap_or(u64::MAX).saturating_mul(SCALE);
    let mut row = vec![
        ps(wall.as_nanos()),
        ps(timeval_ns(usage.ru_utime)),
        ps(timeval_ns(usage.ru_stime)),
    ];
    let mut times = Vec::new();
    if let Some(mut s) = session {
        s.read(true).map_err(io::Error::other)?;
        row.extend(s.deltas().map(|d| d.scaled.saturating_mul(SCALE)));
        times.extend(s.deltas().map(|d| (d.enabled, d.running)));
    }
    Ok(Ran::Measured(row, times))
}

fn timeval_ns(t: libc::timeval) -> u128 {
    t.tv_sec as u128 * 1_000_000_000 + t.tv_usec as u128 * 1_000
}

/// The errno the child wrote before it gave up on its `exec` (nothing: the `exec` closed
/// the pipe, or the child never tried).
fn exec_errno(pipe: &OwnedFd) -> Option<io::Error> {
    let mut errno = [0u8; 4];
    // SAFETY: reads at most 4 bytes into a live local from an fd we own; the writer is
    // gone (the child has been reaped), so the read does not block.
    let n = unsafe { libc::read(pipe.as_raw_fd(), errno.as_mut_ptr().cast(), 4) };
    (n == 4).then(|| io::Error::from_raw_os_error(i32::from_ne_bytes(errno)))
}

/// Where `program` is: itself when it holds a `/`, or the first executable file of its
/// name in `PATH`; an error that says why not (not found, not executable, no such file).
pub fn find_program(program: &str) -> Result<std::path::PathBuf, String> {
    use std::os::unix::fs::PermissionsExt;
    let executable = |p: &std::path::Path| {
        std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    };
    if program.contains('/') {
        let path = std::path::PathBuf::from(program);
        return match (path.exists(), executable(&path)) {
            (false, _) => Err("no such file".into()),
            (true, false) => Err("not an executable file".into()),
            (true, true) => Ok(path),
        };
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    let dirs = std::env::split_paths(&path);
    match dirs.map(|d| d.join(program)).find(|p| executable(p)) {
        Some(found) => Ok(found),
        None => Err("not found in PATH".into()),
    }
}

/// A command line as `execvp` takes it, built before the fork (the child may not
/// allocate).
pub struct Argv {
    _strings: Vec<CString>,
    pointers: Vec<*const c_char>,
    _environment: Vec<CString>,
    environment: Vec<*const c_char>,
    /// The path `_` names in the environment, where picollo chose the path programs start
    /// from (`picollo bench --emulate`).
    started_as: Option<OsString>,
}

/// The environment of a run: picollo's own, less [`ENV_PAD`]; where it holds `_` (which a
/// shell sets to the path of the program it starts) and `started_as` is given, `_` names it.
pub fn environment(started_as: Option<&OsStr>) -> Vec<(OsString, OsString)> {
    let own = std::env::vars_os().filter(|(k, _)| k != ENV_PAD);
    let named = |(k, v): (OsString, OsString)| match started_as {
        Some(path) if k == "_" => (k, path.to_os_string()),
        _ => (k, v),
    };
    own.map(named).collect()
}

/// The variable whose length each run draws (`--env-pad`): what the environment's size
/// moves (the stack's start and alignment) is then spread over the runs.
pub const ENV_PAD: &str = "PICOLLO_ENV_PAD";

impl Argv {
    /// The words of `command`: `SHELL -c COMMAND`; without a shell, the command's words
    /// split as a POSIX shell splits them (quotes and backslashes; no expansion, no
    /// operators). Fails when the quotes do not close, or there is no word.
    pub fn words(command: &str, shell: Option<&str>) -> io::Result<Vec<String>> {
        let invalid = |why: &str| io::Error::new(io::ErrorKind::InvalidInput, why.to_string());
        let words = match shell {
            Some(shell) => vec![shell.to_string(), "-c".into(), command.into()],
            None => shell_words::split(command).map_err(|_| invalid("its quotes do not close"))?,
        };
        match words.first().is_none_or(|w| w.is_empty()) {
            true => Err(invalid("there is no command to run")),
            false => Ok(words),
        }
    }

    /// A command line of these words (the first is the program). Fails when a word holds
    /// a NUL byte, or there is no word.
    pub fn from_words(words: Vec<String>) -> io::Result<Self> {
        let invalid = |why: &str| io::Error::new(io::ErrorKind::InvalidInput, why.to_string());
        if words.first().is_none_or(|w| w.is_empty()) {
            return Err(invalid("there is no command to run"));
        }
        let strings = words.into_iter().map(CString::new);
        let strings: Vec<CString> = strings
            .collect::<Result<_, _>>()
            .map_err(|_| invalid("the command holds a NUL byte"))?;
        let mut pointers: Vec<*const c_char> = strings.iter().map(|s| s.as_ptr()).collect();
        pointers.push(std::ptr::null());
        let mut argv = Argv {
            _strings: strings,
            pointers,
            _environment: Vec::new(),
            environment: Vec::new(),
            started_as: None,
        };
        argv.pad_environment(None);
        Ok(argv)
    }

    /// `_` in the environment names `path` (where a program named by its path starts,
    /// under `picollo bench --emulate`), as it names the program a shell starts.
    pub fn started_as(&mut self, path: &Path) {
        self.started_as = Some(path.as_os_str().to_os_string());
        self.pad_environment(None);
    }

    /// The environment of the next runs: [`environment`], and with `Some(n)`, [`ENV_PAD`]
    /// set to `n` bytes.
    pub fn pad_environment(&mut self, pad: Option<usize>) {
        use std::os::unix::ffi::OsStrExt;
        let own = environment(self.started_as.as_deref());
        let pair = |(k, v): (OsString, OsString)| {
            let mut bytes = k.as_bytes().to_vec();
            bytes.push(b'=');
            bytes.extend_from_slice(v.as_bytes());
            CString::new(bytes).ok()
        };
        let mut env: Vec<CString> = own.into_iter().filter_map(pair).collect();
        if let Some(n) = pad {
            let padded = format!("{ENV_PAD}={}", "x".repeat(n));
            env.push(CString::new(padded).expect("no NUL byte"));
        }
        self.environment = env.iter().map(|s| s.as_ptr()).collect();
        self.environment.push(std::ptr::null());
        self._environment = env;
    }

    /// The program: the shell, or the command's first word.
    fn program(&self) -> std::borrow::Cow<'_, str> {
        self._strings[0].to_string_lossy()
    }
}

/// A pipe whose ends close on `exec`: (read end, write end).
fn cloexec_pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0 as RawFd; 2];
    // SAFETY: `fds` is a live array of two fds for the kernel to fill.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: pipe2 succeeded: both fds are open and ours alone.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

/// Fork a child that waits for one byte on a pipe, then runs `argv` with its standard
/// fds below `quiet` (0: stdin, 1: stdout, 2: stderr) on `null`: the pid, the pipe's write
/// end (the gate), and the read end of a pipe where the child writes its errno when its
/// `exec` fails. A gate closed without a byte makes the child exit with 127 without running
/// anything.
fn fork_held(argv: &Argv, null: &File, quiet: RawFd) -> io::Result<(i32, OwnedFd, OwnedFd)> {
    let (wait_end, gate) = cloexec_pipe()?;
    let (errors, error_end) = cloexec_pipe()?;
    // SAFETY: the child runs only async-signal-safe calls (close, read, dup2, execvpe,
    // write, _exit) on memory prepared before the fork, so it is sound in a threaded
    // process too.
    match unsafe { libc::fork() } {
        -1 => Err(io::Error::last_os_error()),
        // SAFETY: in the child, as above; the fds and `argv` are live copies.
        0 => unsafe {
            let fds = [
                wait_end.as_raw_fd(),
                gate.as_raw_fd(),
                error_end.as_raw_fd(),
            ];
            held_child(fds, null.as_raw_fd(), quiet, argv)
        },
        pid => Ok((pid, gate, errors)),
    }
}

/// The child's side of [`fork_held`] (`fds`: the gate's read and write ends, the errno
/// pipe's write end); never returns. A program that cannot be executed (not found, not
/// executable) ends it with 127, as a shell does, after writing the errno.
///
/// # Safety
/// Call only in a freshly forked child, with open fds and a live `argv`.
unsafe fn held_child(
    [wait_end, gate, error_end]: [RawFd; 3],
    null: RawFd,
    quiet: RawFd,
    argv: &Argv,
) -> ! {
    let mut byte = 0u8;
    // SAFETY: plain fd calls on fds the child holds; `byte` and `errno` are live for the
    // read and the write; `argv` is NUL-terminated strings and null-terminated arrays,
    // all live.
    unsafe {
        libc::close(gate);
        if libc::read(wait_end, (&mut byte as *mut u8).cast(), 1) == 1 {
            for fd in 0..quiet {
                libc::dup2(null, fd);
            }
            libc::execvpe(
                argv.pointers[0],
                argv.pointers.as_ptr(),
                argv.environment.as_ptr(),
            );
            let errno = (*libc::__errno_location()).to_ne_bytes();
            libc::write(error_end, errno.as_ptr().cast(), 4);
        }
        libc::_exit(127)
    }
}

/// Let the held child go on to its `exec`.
fn release(gate: OwnedFd) -> io::Result<()> {
    // SAFETY: one byte from a live local to an fd we own.
    let n = unsafe { libc::write(gate.as_raw_fd(), [1u8].as_ptr().cast(), 1) };
    if n != 1 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// Reap child `pid` and take its resource usage (its own and its reaped descendants').
fn wait4(pid: i32) -> io::Result<(ExitStatus, libc::rusage)> {
    let mut status: libc::c_int = 0;
    // SAFETY: rusage is plain integers and timevals: all zeroes is a valid value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: `status` and `usage` are live and writable for the call.
        let rc = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        if rc == pid {
            return Ok((ExitStatus::from_raw(status), usage));
        }
        let e = io::Error::last_os_error();
        if e.kind() != io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
}
