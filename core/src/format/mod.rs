//! Output formats, one file each: the Markdown summary table, the diff table, the one-line
//! summary, JSON and HdrHistogram's `.hgrm` percentile distribution; the metrics exports
//! (OpenMetrics text, OTLP, Prometheus native histograms) over the protobuf wire primitives. Every format writes
//! through `core::fmt::Write` from stack buffers (no allocation), so the caller picks the
//! sink: a `String`, a fixed `heapless::String`, a C buffer. The Markdown and diff tables
//! are written once for integer and floating-point summaries, over [`domain::Domain`]. The
//! formats callers reach by name implement `export::Export` and are listed in [`FORMATS`].

#[cfg(feature = "alloc")]
mod csv;
pub(crate) mod diff;
pub(crate) mod domain;
#[cfg(feature = "alloc")]
pub(crate) mod export;
mod fixed;
#[cfg(feature = "alloc")]
mod hdr_v2;
pub(crate) mod hgrm;
pub(crate) mod json;
mod line;
#[cfg(feature = "alloc")]
pub(crate) mod log;
pub(crate) mod markdown;
#[cfg(feature = "alloc")]
mod markdown_export;
pub(crate) mod numbers;
#[cfg(feature = "alloc")]
pub(crate) mod openmetrics;
#[cfg(feature = "alloc")]
mod option;
#[cfg(feature = "alloc")]
pub(crate) mod otlp;
#[cfg(feature = "alloc")]
pub(crate) mod prometheus;
#[cfg(feature = "alloc")]
mod protobuf;
pub(crate) mod table;
#[cfg(feature = "alloc")]
pub(crate) mod v2;

/// Every export format, in the order `picollo formats` and the bindings list them: a new
/// format is a file here, its `mod` line above and its line below.
#[cfg(feature = "alloc")]
pub static FORMATS: &[&dyn export::Export] = &[
    &markdown_export::MarkdownTable,
    &line::Line,
    &json::Json,
    &hgrm::Hgrm,
    &hdr_v2::V2Binary,
    &hdr_v2::V2Base64,
    &csv::Csv,
    &openmetrics::OpenMetrics,
    &otlp::OtlpJson,
    &otlp::OtlpProtobuf,
    &prometheus::PrometheusNative,
];
