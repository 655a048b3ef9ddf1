//! `Histogram`: the Rust value behind a `picollo_histogram` handle, a concurrent histogram
//! of either counter width. The exported functions use only its methods.

use std::sync::atomic::{AtomicU32, Ordering};

use picollo_core::concurrent::{ConcurrentHistogram, Mode};
use picollo_core::{Config, ConfigError, MergeError, ValueSelection, View};

use crate::error::Failure;
use crate::status::picollo_status;

/// A concurrent histogram of 32- or 64-bit counters and the value selection its queries use.
pub(crate) struct Histogram {
    pub(crate) inner: Inner,
    /// The value selection queries use (changeable after creation).
    selection: AtomicU32,
}

pub(crate) enum Inner {
    U32(ConcurrentHistogram<u32>),
    U64(ConcurrentHistogram<u64>),
}

/// Run the same expression on whichever counter width the histogram has.
macro_rules! dispatch {
    ($inner:expr, $h:ident => $e:expr) => {
        match $inner {
            $crate::any_histogram::Inner::U32($h) => $e,
            $crate::any_histogram::Inner::U64($h) => $e,
        }
    };
}

/// A view of either counter width, for the query functions.
pub(crate) enum AnyView<'a> {
    U32(View<'a, u32>),
    U64(View<'a, u64>),
}

/// Run the same expression on whichever counter width the view has.
macro_rules! dispatch_view {
    ($view:expr, $v:ident => $e:expr) => {
        match $view {
            $crate::any_histogram::AnyView::U32($v) => $e,
            $crate::any_histogram::AnyView::U64($v) => $e,
        }
    };
}
pub(crate) use dispatch_view;

impl Histogram {
    /// A histogram of `bits`-wide counters counting in `mode`.
    pub(crate) fn create(config: Config, bits: u32, mode: Mode) -> Result<Self, Failure> {
        let inner = if bits == 32 {
            Inner::U32(ConcurrentHistogram::new(config, mode).map_err(config_error)?)
        } else {
            Inner::U64(ConcurrentHistogram::new(config, mode).map_err(config_error)?)
        };
        Ok(Histogram {
            inner,
            selection: AtomicU32::new(config.value_selection() as u32),
        })
    }

    #[inline(always)]
    pub(crate) fn record(&self, v: u64) {
        // The single-writer mode is matched out first so its few instructions inline here;
        // the other modes take a call.
        match &self.inner {
            Inner::U32(ConcurrentHistogram::SingleWriter(h)) => h.record(v),
            Inner::U64(ConcurrentHistogram::SingleWriter(h)) => h.record(v),
            Inner::U32(h) => h.record(v),
            Inner::U64(h) => h.record(v),
        }
    }

    /// Record `v` if the histogram is in the single-writer mode, whose record is a few
    /// wrapping integer operations and one load + store that cannot panic; false (nothing
    /// recorded) in the other modes.
    #[inline(always)]
    pub(crate) fn record_single_writer(&self, v: u64) -> bool {
        match &self.inner {
            Inner::U32(ConcurrentHistogram::SingleWriter(h)) => h.record(v),
            Inner::U64(ConcurrentHistogram::SingleWriter(h)) => h.record(v),
            _ => return false,
        }
        true
    }

    pub(crate) fn record_n(&self, v: u64, n: u64) {
        dispatch!(&self.inner, h => h.record_n(v, n));
    }

    pub(crate) fn record_corrected(&self, v: u64, expected_interval: u64) {
        dispatch!(&self.inner, h => h.record_corrected(v, expected_interval));
    }

    pub(crate) fn record_many(&self, values: &[u64]) {
        dispatch!(&self.inner, h => values.iter().for_each(|&v| h.record(v)));
    }

    pub(crate) fn reset(&self) {
        dispatch!(&self.inner, h => h.reset());
    }

    /// Mean over bucket midpoints (NaN when empty).
    pub(crate) fn mean(&self) -> f64 {
        self.with_view(|view| dispatch_view!(view, v => v.mean()))
    }

    pub(crate) fn selection(&self) -> ValueSelection {
        ValueSelection::from_u32(self.selection.load(Ordering::Relaxed)).unwrap_or_default()
    }

    pub(crate) fn set_selection(&self, selection: ValueSelection) {
        self.selection.store(selection as u32, Ordering::Relaxed);
    }

    /// Number of counters (buckets) in storage.
    pub(crate) fn storage_len(&self) -> usize {
        dispatch!(&self.inner, h => h.storage_len())
    }

    /// Counter width in bits: 32 or 64.
    pub(crate) fn counter_bits(&self) -> u32 {
        match self.inner {
            Inner::U32(_) => 32,
            Inner::U64(_) => 64,
        }
    }

    pub(crate) fn mode(&self) -> Mode {
        dispatch!(&self.inner, h => h.mode())
    }

    pub(crate) fn footprint_in_bytes(&self) -> usize {
        dispatch!(&self.inner, h => h.footprint_in_bytes())
    }

    /// Add (or subtract) every count of `src` into this histogram, from one consistent copy
    /// of `src`.
    pub(crate) fn merge_from(&self, src: &Histogram, add: bool) -> Result<(), MergeError> {
        src.with_view(|view| {
            dispatch!(&self.inner, d => dispatch_view!(view, s => {
                if add { d.add(&s) } else { d.subtract(&s) }
            }))
        })
    }

    /// Run `f` on a consistent copy of the counts (allocated for the call).
    pub(crate) fn with_view<R>(&self, f: impl FnOnce(AnyView<'_>) -> R) -> R {
        let selection = self.selection();
        match &self.inner {
            Inner::U32(h) => {
                let mut scratch = vec![0u32; h.storage_len()];
                let view = match h.read_into(&mut scratch) {
                    Ok(v) => v,
                    Err(_) => unreachable!("the scratch has the storage length"),
                };
                f(AnyView::U32(view.with_value_selection(selection)))
            }
            Inner::U64(h) => {
                let mut scratch = vec![0u64; h.storage_len()];
                let view = match h.read_into(&mut scratch) {
                    Ok(v) => v,
                    Err(_) => unreachable!("the scratch has the storage length"),
                };
                f(AnyView::U64(view.with_value_selection(selection)))
            }
        }
    }
}

pub(crate) fn config_error(e: ConfigError) -> Failure {
    Failure::invalid(e)
}

pub(crate) fn merge_error(e: MergeError) -> Failure {
    let status = match e {
        MergeError::LayoutMismatch { .. } => picollo_status::LayoutMismatch,
        MergeError::WouldGoNegative { .. } => picollo_status::WouldGoNegative,
        MergeError::Unsupported => picollo_status::Unsupported,
    };
    Failure::new(status, e)
}
