//! Why a benchmark could not run.

use std::fmt;
use std::string::{String, ToString};

use crate::ConfigError;

/// Why a benchmark could not run: a bad setting, a counter that would not open or read,
/// or the OS refusing a placement.
#[derive(Clone, Debug, PartialEq)]
pub struct BenchError {
    message: String,
}

impl BenchError {
    /// A setting out of its range.
    pub(crate) fn invalid(what: &str) -> Self {
        BenchError {
            message: std::format!("invalid setting: {what}"),
        }
    }

    /// An OS call that failed while doing `what`.
    pub(crate) fn os(what: &'static str) -> impl Fn(std::io::Error) -> Self {
        move |e| BenchError {
            message: std::format!("could not {what}: {e}"),
        }
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
            message: std::format!("invalid histogram setting: {e}"),
        }
    }
}

#[cfg(feature = "perf")]
impl From<crate::perf::PerfError> for BenchError {
    fn from(e: crate::perf::PerfError) -> Self {
        BenchError {
            message: e.to_string(),
        }
    }
}

impl From<fmt::Error> for BenchError {
    fn from(_: fmt::Error) -> Self {
        BenchError {
            message: "formatting failed".to_string(),
        }
    }
}
