//! Picollo behind the [`metrics`] facade: `histogram!("latency", "route" => "/a").record(x)`
//! records into a Picollo histogram of doubles (both signs, a relative error per bucket),
//! counters and gauges into atomics, and a scrape endpoint serves them as OpenMetrics text
//! (classic buckets) or, when the scraper asks for it, as Prometheus native histograms
//! (delimited protobuf).
//!
//! ```no_run
//! use picollo_metrics::{Layout, Matcher, PicolloBuilder};
//! let handle = PicolloBuilder::new()
//!     .with_http_listener(([127, 0, 0, 1], 9000))
//!     .set_layout_for_metric(Matcher::Prefix("db_".into()), Layout::new().with_relative_error(0.001))?
//!     .install()?;
//! metrics::histogram!("latency_seconds", "route" => "/a").record(0.0042);
//! metrics::counter!("requests_total", "route" => "/a").increment(1);
//! print!("{}", handle.render());
//! # Ok::<(), picollo_metrics::BuildError>(())
//! ```
//!
//! A scrape reads every histogram cumulatively (counts since the start, never reset), as
//! Prometheus expects; the guide's page `docs/metrics-rust.md` says what it returns.

// The crate's README (crates.io's front page) is compiled as a doctest, so its snippet stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

mod builder;
mod expose;
mod http;
mod layout;
mod otlp;
mod push;
mod recorder;
mod registry;

pub use builder::PicolloBuilder;
pub use http::{wants_protobuf, OPENMETRICS_CONTENT_TYPE};
pub use layout::{BuildError, Layout, Matcher};
pub use picollo::concurrent::Mode;
pub use picollo::prometheus::PROTOBUF_CONTENT_TYPE;
pub use push::{OtlpPush, OTLP_PROTOBUF_CONTENT_TYPE};
pub use recorder::{PicolloHandle, PicolloRecorder};
pub use registry::Conflict;
