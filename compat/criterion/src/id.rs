//! A benchmark's name within its group, and the work one of its iterations does.

use std::fmt::{self, Display};

/// A benchmark's name within a group: a function, a parameter, or both
/// (`function/parameter`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BenchmarkId {
    pub(crate) function: Option<String>,
    pub(crate) parameter: Option<String>,
}

impl BenchmarkId {
    /// Function `function_name` of parameter `parameter` (`sort/100`).
    pub fn new<S: Into<String>, P: Display>(function_name: S, parameter: P) -> BenchmarkId {
        BenchmarkId {
            function: Some(function_name.into()),
            parameter: Some(parameter.to_string()),
        }
    }

    /// A parameter alone: the group holds one function (`sort/100` in group `sort`).
    pub fn from_parameter<P: Display>(parameter: P) -> BenchmarkId {
        BenchmarkId {
            function: None,
            parameter: Some(parameter.to_string()),
        }
    }

    /// The name under the group's: `function/parameter`, or the one of them it has.
    pub(crate) fn under(&self, group: &str) -> String {
        let parts = [
            Some(group),
            self.function.as_deref(),
            self.parameter.as_deref(),
        ];
        let parts: Vec<&str> = parts.into_iter().flatten().collect();
        parts.join("/")
    }
}

impl Display for BenchmarkId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts = [self.function.as_deref(), self.parameter.as_deref()];
        let parts: Vec<&str> = parts.into_iter().flatten().collect();
        f.write_str(&parts.join("/"))
    }
}

/// What names a benchmark within a group: a [`BenchmarkId`], or a function's name.
pub trait IntoBenchmarkId {
    /// This name as a [`BenchmarkId`].
    fn into_benchmark_id(self) -> BenchmarkId;
}

impl IntoBenchmarkId for BenchmarkId {
    fn into_benchmark_id(self) -> BenchmarkId {
        self
    }
}

impl<S: Into<String>> IntoBenchmarkId for S {
    fn into_benchmark_id(self) -> BenchmarkId {
        BenchmarkId {
            function: Some(self.into()),
            parameter: None,
        }
    }
}

/// The work one iteration of a benchmark does: its results carry the rate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Throughput {
    /// Bytes an iteration handles (rates in binary multiples).
    Bytes(u64),
    /// Bytes an iteration handles (criterion writes rates in decimal multiples; Picollo's
    /// reports write bytes one way, so this is [`Throughput::Bytes`] to them).
    BytesDecimal(u64),
    /// Elements (items, records, values) an iteration handles.
    Elements(u64),
    /// Both the elements and the bytes an iteration handles. A Picollo benchmark carries
    /// one rate: this declares the elements (`elem/s`); the bytes are not reported.
    ElementsAndBytes {
        /// The elements an iteration handles: the rate reported.
        elements: u64,
        /// The bytes an iteration handles: accepted, not reported.
        bytes: u64,
    },
}

impl Throughput {
    /// The same work as Picollo's suite declares it.
    pub(crate) fn picollo(self) -> picollo_bench::Throughput {
        match self {
            Throughput::Bytes(n) | Throughput::BytesDecimal(n) => {
                picollo_bench::Throughput::Bytes(n)
            }
            Throughput::Elements(n) | Throughput::ElementsAndBytes { elements: n, .. } => {
                picollo_bench::Throughput::Elements(n)
            }
        }
    }
}
