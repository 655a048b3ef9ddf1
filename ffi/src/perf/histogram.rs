//! The histograms of a perf session: each counter records into a histogram behind an `Arc`
//! that the Rust session's counter holds; the C ABI session keeps a second `Arc` of each, so
//! the handle it lends to C (`picollo_perf_session_counter_histogram`: records and resets
//! allowed, `picollo_histogram_free` ignored) stays valid
//! from `add_*` until the session is freed, before and after open alike.
#![cfg(target_os = "linux")]

use std::sync::Arc;

use picollo_core::concurrent::{CounterBits, Mode};
use picollo_core::{Config, Sink};

use crate::error::Failure;
use crate::histogram::any::{config_error, Histogram, HistogramHandle};
use crate::histogram::picollo_histogram;

/// A counter's histogram: 64-bit counters, single writer (the session's thread records;
/// any thread may read through the lent handle).
#[derive(Clone)]
pub(crate) struct SessionHistogram(Arc<HistogramHandle>);

/// A new histogram for one counter.
pub(crate) fn session_histogram(relative_error: f64) -> Result<SessionHistogram, Failure> {
    let config = Config::new().with_relative_error(relative_error);
    let h = Histogram::new(config, CounterBits::U64, Mode::SingleWriter).map_err(config_error)?;
    let handle = HistogramHandle::lent(h, "a perf session", false);
    Ok(SessionHistogram(Arc::new(handle)))
}

/// The handle lent to C for `h`: the histogram inside the `Arc`, which lives as long as the
/// session holds the `Arc`.
pub(crate) fn lend(h: &SessionHistogram) -> *mut picollo_histogram {
    Arc::as_ptr(&h.0).cast_mut().cast()
}

impl core::ops::Deref for SessionHistogram {
    type Target = Histogram;
    fn deref(&self) -> &Histogram {
        &self.0
    }
}

/// The session records into the histogram it owns; C reads it through the lent handle.
impl Sink for SessionHistogram {
    fn record(&mut self, value: u64) {
        self.0.record(value);
    }
    fn reset(&mut self) {
        self.0.reset();
    }
    fn mean(&self) -> f64 {
        Sink::mean(&&**self.0)
    }
    fn total(&self) -> u64 {
        Sink::total(&&**self.0)
    }
}
