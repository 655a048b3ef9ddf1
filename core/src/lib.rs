//! Picollo: HDR histograms fast enough for hot loops. The CPU's performance counters and
//! the clocks that record into these histograms are in `picollo-perf`.
//!
//! The core is `#![no_std]` and needs no allocator: a histogram can live in a `static` or on
//! the stack over an array sized by a `const fn` ([`Config::storage_len`]). Feature `alloc`
//! adds `Vec`-backed histograms and snapshots; `std` (default) adds `std::error::Error`.
//!
//! ```
//! use picollo::{Config, Histogram};
//! let mut h: Histogram<u32, Vec<u32>> = Config::new()
//!     .with_relative_error(0.01)
//!     .with_range(10_000, 30_000)
//!     .build()
//!     .unwrap();
//! for v in 20_000..21_000 {
//!     h.record(v);
//! }
//! h.record(40_000); // above the range: counted as overflow, never an error
//! let summary = h.view().summary();
//! assert_eq!(summary.total, 1_000);
//! assert_eq!(summary.overflow, 1);
//! println!("{summary}"); // the Markdown table
//! ```
#![no_std]
#![warn(missing_docs)]

// The crate's README (crates.io's front page) is compiled as a doctest, so its snippet stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

/// Builder methods that set one field each: `pub fn name(mut self, field: T) -> Self`, all
/// of them `const fn` after a leading `const`.
macro_rules! setters {
    (const $($(#[$doc:meta])* fn $name:ident($field:ident: $ty:ty);)+) => {$(
        $(#[$doc])*
        pub const fn $name(mut self, $field: $ty) -> Self {
            self.$field = $field;
            self
        }
    )+};
    ($($(#[$doc:meta])* fn $name:ident($field:ident: $ty:ty);)+) => {$(
        $(#[$doc])*
        pub fn $name(mut self, $field: $ty) -> Self {
            self.$field = $field;
            self
        }
    )+};
}

pub mod batch;
#[cfg(picollo_concurrent)]
pub mod concurrent;
pub mod config;
pub mod counter;
mod cpu;
pub mod cumulative;
#[cfg(picollo_float)]
pub mod float;
mod fmath;
pub mod histogram;
/// The export formats by name: the [`export::Export`] trait each format implements and the
/// one list of them, [`export::FORMATS`] (feature `alloc`).
#[cfg(feature = "alloc")]
pub mod export {
    pub use crate::format::export::*;
}
/// HdrHistogram interoperability: the V2 encoding (plain, compressed, base64) and the
/// interval log.
#[cfg(feature = "alloc")]
pub mod hdr {
    #[doc(inline)]
    pub use crate::format::log::*;
    #[doc(inline)]
    pub use crate::format::v2::*;
}
/// OpenMetrics text exposition of histograms (`histogram` and `summary` families).
#[cfg(feature = "alloc")]
pub mod openmetrics {
    #[doc(inline)]
    pub use crate::format::openmetrics::*;
}
/// OpenTelemetry exponential histograms: OTLP/JSON and OTLP protobuf
/// (`ExportMetricsServiceRequest`).
#[cfg(feature = "alloc")]
pub mod otlp {
    #[doc(inline)]
    pub use crate::format::otlp::*;
}
/// Prometheus native histograms: sparse exponential buckets of integer and floating-point
/// histograms, and their protobuf exposition (delimited `MetricFamily` messages).
#[cfg(feature = "alloc")]
pub mod prometheus {
    #[doc(inline)]
    pub use crate::format::prometheus::*;
}
pub mod iter;
pub mod layout;
/// The Markdown table the reports are laid out as, for tools that write their own.
pub mod text {
    pub use crate::format::table::{write_markdown_table, MAX_COLUMNS};
}
mod lookup;
mod merge;
mod oom;
#[cfg(feature = "alloc")]
mod rebin;

mod format;
pub mod percentile;
mod scan;
pub mod shape;
mod sink;
pub mod snapshot;
mod sum;
pub mod summary;
pub mod view;

pub use batch::BatchPath;
pub use config::{Config, ConfigError, ValueSelection};
pub use counter::Counter;
pub use cumulative::Cumulative;
pub use format::hgrm::{HgrmOptionError, HgrmOptions};
pub use format::numbers::{Grouped, GroupedF64};
pub use histogram::{Histogram, MergeError};
pub use iter::{BucketCount, StepCount};
pub use layout::{Bucket, Layout, Log2, OffsetTerms};
pub use oom::OutOfMemory;
pub use percentile::{rank_to_count, Percentile, QueryError};
pub use shape::{Shape, Slot};
pub use sink::Sink;
pub use snapshot::Snapshot;
pub use summary::{Summary, STANDARD_RANKS};
pub use view::View;
