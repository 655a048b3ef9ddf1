//! The histograms of a perf session: each counter's histogram is owned by the session
//! (`OwnedHistogram`, whose pointer is lent to C) and recorded into by the core session
//! (`LentHistogram`).

use std::ptr::NonNull;

use picollo_core::concurrent::Mode;
use picollo_core::perf::CounterSink;
use picollo_core::Config;

use crate::any_histogram::{config_error, dispatch_view, Histogram};
use crate::error::Failure;
use crate::histogram::picollo_histogram;

/// A histogram owned by a session: allocated once, freed on drop, reached only through
/// its raw pointer (so the pointer lent to C never aliases a live `&mut Box`).
pub(crate) struct OwnedHistogram(NonNull<Histogram>);

impl OwnedHistogram {
    pub(crate) fn new(relative_error: f64) -> Result<Self, Failure> {
        let config = Config::new().with_relative_error(relative_error);
        config.validate().map_err(config_error)?;
        let boxed = Box::new(Histogram::create(config, 64, Mode::SingleWriter)?);
        Ok(OwnedHistogram(NonNull::from(Box::leak(boxed))))
    }

    /// The pointer lent to C (`picollo_perf_session_counter_histogram`).
    pub(crate) fn as_ptr(&self) -> *mut picollo_histogram {
        self.0.as_ptr().cast()
    }

    pub(crate) fn get(&self) -> &Histogram {
        // SAFETY: the pointer came from Box::leak in `new` and stays valid until `drop`;
        // histograms are only ever reached through shared references (they record through
        // atomics).
        unsafe { self.0.as_ref() }
    }
}

impl OwnedHistogram {
    /// A second way in for the core session, which records into it.
    pub(crate) fn lend(&self) -> LentHistogram {
        LentHistogram(self.0)
    }
}

/// The core session's way into a histogram the ffi session owns: the session records
/// deltas into it directly, so each counter has exactly one histogram.
#[derive(Debug)]
pub(crate) struct LentHistogram(NonNull<Histogram>);

impl LentHistogram {
    fn get(&self) -> &Histogram {
        // SAFETY: the OwnedHistogram it was lent from lives in the same picollo_perf_session
        // and is dropped after the core session (field order); histograms are only ever
        // reached through shared references (they record through atomics).
        unsafe { self.0.as_ref() }
    }
}

impl CounterSink for LentHistogram {
    fn record(&mut self, value: u64) {
        self.get().record(value);
    }
    fn reset(&mut self) {
        self.get().reset();
    }
    fn mean(&self) -> f64 {
        self.get().mean()
    }
    fn total(&self) -> u64 {
        self.get()
            .with_view(|view| dispatch_view!(view, v => v.total_count()))
    }
}

impl Drop for OwnedHistogram {
    fn drop(&mut self) {
        // SAFETY: the pointer came from Box::leak and is freed exactly once, here.
        drop(unsafe { Box::from_raw(self.0.as_ptr()) });
    }
}
