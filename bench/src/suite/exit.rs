//! How a suite ends: its exit statuses (those of `picollo bench` where the cause is the
//! same) and the failures that carry one.

use core::fmt;
use std::string::String;

/// A suite's exit status.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Exit {
    /// Every benchmark ran (and none compared slower).
    #[default]
    Ok = 0,
    /// A bad argument: an unknown flag, a value that does not parse, two benchmarks of one
    /// name, a name with a control character.
    Usage = 2,
    /// A file could not be read or written.
    Io = 3,
    /// A saved baseline that is not one a suite wrote.
    Format = 4,
    /// The filter matched no benchmark, or two builds share none.
    NoMatch = 5,
    /// A benchmark failed: it panicked (threw), or its measurement did.
    Failed = 6,
    /// A benchmark compared slower by the threshold or more.
    Slower = 7,
    /// A comparison was not settled in its budget, and `--unsettled fail` fails it.
    Unsettled = 8,
    /// The other build's worker failed: it would not start, exited, hung past the timeout,
    /// answered what is not a reply, or speaks another protocol version.
    Worker = 9,
}

/// A failure that ends a suite, with its exit status.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuiteError {
    /// The exit status it ends the suite with.
    pub exit: Exit,
    /// What happened.
    pub message: String,
}

impl SuiteError {
    /// A failure of kind `exit`.
    pub fn new(exit: Exit, message: impl Into<String>) -> Self {
        SuiteError {
            exit,
            message: message.into(),
        }
    }

    /// A bad argument.
    pub fn usage(message: impl Into<String>) -> Self {
        SuiteError::new(Exit::Usage, message)
    }

    /// A worker that failed.
    pub fn worker(message: impl Into<String>) -> Self {
        SuiteError::new(Exit::Worker, message)
    }

    /// A benchmark that failed.
    pub fn failed(message: impl Into<String>) -> Self {
        SuiteError::new(Exit::Failed, message)
    }

    /// A file that could not be read or written.
    pub fn io(path: &std::path::Path, e: &std::io::Error) -> Self {
        SuiteError::new(Exit::Io, std::format!("{}: {e}", path.display()))
    }
}

impl fmt::Display for SuiteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for SuiteError {}
