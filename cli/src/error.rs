//! What can go wrong, and the exit status each kind of failure ends the process with.
//!
//! Usage errors (exit 2) are clap's: it prints them and exits itself. Everything else is a
//! [`Failure`] whose message names the input (and the line, for a log) and the cause.

use std::fmt;
use std::io;

/// Exit status of a failed run (2, usage, is clap's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// A bad argument clap cannot see (a command that cannot be split into words).
    Usage = 2,
    /// A file could not be read or written (also: the plot font could not be loaded).
    Io = 3,
    /// An input is not a log nor a histogram, or a line of it cannot be read.
    Format = 4,
    /// The selection (tag, time window) matched no interval; a baseline compared nothing.
    NoData = 5,
    /// A benchmarked command exited non-zero or was killed.
    Command = 6,
    /// A benchmarked command is slower than its saved baseline (with `--gate`, than the
    /// first command) by the threshold or more.
    Slower = 7,
    /// QEMU or Picollo's plugin could not run a program (`picollo emulate`, `--emulate`).
    Emulator = 8,
    /// `picollo history detect --last N`: a change point's first run is among a
    /// benchmark's last N runs.
    Changed = 10,
}

/// A failure to report on stderr, with its exit status.
#[derive(Debug)]
pub struct Failure {
    /// Which exit status it ends the process with.
    pub exit: Exit,
    /// What happened, naming the input and the cause.
    pub message: String,
}

impl Failure {
    /// A read or write failure on `what` (a path, `<stdin>`, `<stdout>`).
    pub fn io(what: &str, e: &io::Error) -> Self {
        Failure {
            exit: Exit::Io,
            message: format!("{what}: {e}"),
        }
    }

    /// An input that cannot be read as a log or a histogram.
    pub fn format(message: impl Into<String>) -> Self {
        Failure {
            exit: Exit::Format,
            message: message.into(),
        }
    }

    /// A selection that matched nothing.
    pub fn no_data(message: impl Into<String>) -> Self {
        Failure {
            exit: Exit::NoData,
            message: message.into(),
        }
    }

    /// A benchmarked command that failed (the message names it, its run and its status).
    pub fn command(message: impl Into<String>) -> Self {
        Failure {
            exit: Exit::Command,
            message: message.into(),
        }
    }
}

impl Failure {
    /// An output that could not be written: a file (exit 3), a format (exit 4).
    pub fn output(e: picollo_bench::export::OutputError) -> Self {
        use picollo_bench::export::OutputError;
        match e {
            OutputError::Io(what, cause) => Failure::io(&what, &cause),
            e @ OutputError::Format(_) => Failure::format(e.to_string()),
        }
    }

    /// A bad argument (the message names it and says why).
    pub fn usage(message: impl Into<String>) -> Self {
        Failure {
            exit: Exit::Usage,
            message: message.into(),
        }
    }

    /// QEMU or the plugin could not run a program (the message says which and why).
    pub fn emulator(message: impl Into<String>) -> Self {
        Failure {
            exit: Exit::Emulator,
            message: message.into(),
        }
    }

    /// A change point among the last runs of `history detect --last` (the message names
    /// each).
    pub fn changed(message: impl Into<String>) -> Self {
        Failure {
            exit: Exit::Changed,
            message: message.into(),
        }
    }

    /// A benchmarked command slower than its baseline (the message names it and the
    /// verdict).
    pub fn slower(message: impl Into<String>) -> Self {
        Failure {
            exit: Exit::Slower,
            message: message.into(),
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// The exit statuses, as `--help` lists them.
pub const EXIT_STATUS_HELP: &str = "\
Exit status:
  0  success
  2  usage error (unknown option, bad value, missing argument, a command that cannot
     be split into words)
  3  I/O error: an input or output file cannot be read or written, or the plot font
     cannot be loaded
  4  format error: an input is not an interval log nor a V2 histogram, or a line of it
     cannot be read (the message names the file, the line and the cause)
  5  no data: the tag and time window selected no interval; picollo bench --baseline:
     the baseline holds no measured result at the place of any command (nothing compared)
  6  a benchmarked command failed: it exited non-zero or was killed (picollo bench; the
     message names the command, the run and its status); picollo layouts: a link or build
     failed
  7  picollo bench --baseline: a command is slower than its saved result by the threshold
     or more, or counts more of the --metric judged (with --gate: or than the first
     command of the run; the message names it and gives the verdict line)
  8  picollo emulate, picollo bench --emulate: QEMU or Picollo's plugin cannot run the
     program (not found, refused, or no counts written; the message says which)
 10  picollo history detect --last N: a change point's first run is among the last N
     runs of a benchmark (the message names each change)";
