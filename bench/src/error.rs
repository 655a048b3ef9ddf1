//! Why a benchmark could not run.

use std::fmt;
use std::string::{String, ToString};

use picollo::ConfigError;

/// What kind of failure a [`BenchError`] is, for callers that map it to a code (the C
/// ABI's statuses).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum BenchErrorKind {
    /// A setting out of its range.
    Invalid,
    /// A counter would not open or read.
    #[cfg(feature = "perf")]
    Counter(picollo_perf::PerfErrorKind),
    /// The OS refused a placement (pinning, nice).
    Os(std::io::ErrorKind),
    /// The report could not be formatted.
    Format,
}

/// Why a benchmark could not run: a bad setting, a counter that would not open or read,
/// or the OS refusing a placement.
#[derive(Clone, Debug, PartialEq)]
pub struct BenchError {
    kind: BenchErrorKind,
    message: String,
}

impl BenchError {
    /// A setting out of its range.
    pub(crate) fn invalid(what: &str) -> Self {
        BenchError {
            kind: BenchErrorKind::Invalid,
            message: std::format!("invalid setting: {what}"),
        }
    }

    /// An argument that is not one the call takes (a metric neither result has), said in
    /// `message`.
    pub(crate) fn argument(message: String) -> Self {
        BenchError {
            kind: BenchErrorKind::Invalid,
            message,
        }
    }

    /// An OS call that failed while doing `what`.
    pub(crate) fn os(what: &'static str) -> impl Fn(std::io::Error) -> Self {
        move |e| BenchError {
            kind: BenchErrorKind::Os(e.kind()),
            message: std::format!("could not {what}: {e}"),
        }
    }

    /// What kind of failure it is.
    pub fn kind(&self) -> BenchErrorKind {
        self.kind
    }

    /// The message.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for BenchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for BenchError {}

impl From<ConfigError> for BenchError {
    fn from(e: ConfigError) -> Self {
        BenchError {
            kind: BenchErrorKind::Invalid,
            message: std::format!("invalid histogram setting: {e}"),
        }
    }
}

#[cfg(feature = "perf")]
impl From<picollo_perf::PerfError> for BenchError {
    fn from(e: picollo_perf::PerfError) -> Self {
        BenchError {
            kind: BenchErrorKind::Counter(e.kind()),
            message: e.to_string(),
        }
    }
}

impl From<fmt::Error> for BenchError {
    fn from(_: fmt::Error) -> Self {
        BenchError {
            kind: BenchErrorKind::Format,
            message: "formatting failed".to_string(),
        }
    }
}
