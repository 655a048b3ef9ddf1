//! The histograms of a perf session: each counter records into an `Arc<DynHistogram>`
//! that the core session's counter owns; the C ABI session keeps a second `Arc` of each, so
//! the pointer it lends to C (`picollo_perf_session_counter_histogram`) stays valid from
//! `add_*` until the session is freed, before and after open alike.
#![cfg(target_os = "linux")]

use std::sync::Arc;

use picollo_core::concurrent::{CounterBits, Mode};
use picollo_core::Config;

use crate::error::Failure;
use crate::histogram::any::{config_error, Histogram};
use crate::histogram::picollo_histogram;

/// A counter's histogram: 64-bit counters, single writer (the session's thread records;
/// any thread may read through the lent handle).
pub(crate) type SessionHistogram = Arc<Histogram>;

/// A new histogram for one counter.
pub(crate) fn session_histogram(relative_error: f64) -> Result<SessionHistogram, Failure> {
    let config = Config::new().with_relative_error(relative_error);
    let h = Histogram::new(config, CounterBits::U64, Mode::SingleWriter).map_err(config_error)?;
    Ok(Arc::new(h))
}

/// The handle lent to C for `h`: the histogram inside the `Arc`, which lives as long as the
/// session holds the `Arc`.
pub(crate) fn lend(h: &SessionHistogram) -> *mut picollo_histogram {
    Arc::as_ptr(h).cast_mut().cast()
}
