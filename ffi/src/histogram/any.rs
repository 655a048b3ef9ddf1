//! The Rust value behind a `picollo_histogram` handle is the core's `DynHistogram` (counter
//! width and mode chosen at run time); this module names it for the exported functions and
//! turns its errors into statuses.

use picollo_core::{ConfigError, MergeError};

use crate::error::Failure;
use crate::status::picollo_status;

pub(crate) use picollo_core::concurrent::{DynHistogram as Histogram, DynView as AnyView};

pub(crate) fn config_error(e: ConfigError) -> Failure {
    match e {
        ConfigError::OutOfMemory { .. } => Failure::new(picollo_status::OutOfMemory, e),
        _ => Failure::invalid(e),
    }
}

pub(crate) fn merge_error(e: MergeError) -> Failure {
    let status = match e {
        MergeError::LayoutMismatch { .. } | MergeError::UnitMismatch { .. } => {
            picollo_status::LayoutMismatch
        }
        MergeError::WouldGoNegative { .. } => picollo_status::WouldGoNegative,
        MergeError::Unsupported => picollo_status::Unsupported,
        MergeError::OutOfMemory { .. } => picollo_status::OutOfMemory,
        _ => picollo_status::InvalidArgument,
    };
    Failure::new(status, e)
}

/// The Rust value behind a `picollo_histogram` handle: the histogram, and who lends it when
/// the caller does not own it. `picollo_histogram_free` leaves a lent handle to its owner
/// ([`HistogramHandle::freeable`]). A read-only one (a bench result's) is also refused by the
/// calls that change a histogram ([`HistogramHandle::changeable`]) and ignored by the records
/// that return nothing; a perf session's counter histograms take records and resets.
///
/// `repr(C)` with the histogram first: a handle's address is its histogram's, which the
/// record functions `picollo_histogram_record_fn` hands out take as `&Histogram`.
#[repr(C)]
pub(crate) struct HistogramHandle {
    histogram: Histogram,
    /// `None`: the caller owns the handle; else what lends it, for the messages.
    lender: Option<&'static str>,
    read_only: bool,
}

// A handle's address is its histogram's, whose first word is its record function (the
// header's `picollo_histogram_record_inline` reads it there).
const _: () = assert!(std::mem::offset_of!(HistogramHandle, histogram) == 0);

impl HistogramHandle {
    /// A handle the caller owns and frees.
    pub(crate) fn owned(histogram: Histogram) -> Self {
        HistogramHandle {
            histogram,
            lender: None,
            read_only: false,
        }
    }

    /// A handle that `lender` (e.g. "a bench result") owns and lends out, read-only or not.
    pub(crate) fn lent(histogram: Histogram, lender: &'static str, read_only: bool) -> Self {
        HistogramHandle {
            // The records of a read-only one are dropped by its record function: the record
            // calls test nothing.
            histogram: if read_only {
                histogram.ignoring_records()
            } else {
                histogram
            },
            lender: Some(lender),
            read_only,
        }
    }

    /// The histogram, for a call that changes it (`what`); `INVALID_ARGUMENT` for a
    /// read-only one.
    pub(crate) fn changeable(&self, what: &str) -> Result<&Histogram, Failure> {
        match self.lender {
            Some(lender) if self.read_only => Err(Failure::invalid(format_args!(
                "{what}: the histogram is lent by {lender} and read-only (copy it with \
                 picollo_histogram_add into a histogram of your own to change it)"
            ))),
            _ => Ok(&self.histogram),
        }
    }

    /// `Ok` for a handle the caller owns and frees; `INVALID_ARGUMENT` for a lent one.
    pub(crate) fn freeable(&self) -> Result<(), Failure> {
        match self.lender {
            None => Ok(()),
            Some(lender) => Err(Failure::invalid(format_args!(
                "picollo_histogram_free: the histogram is lent by {lender}, which frees it \
                 (the call did nothing)"
            ))),
        }
    }
}

/// A new histogram becomes a handle its caller owns.
impl From<Histogram> for HistogramHandle {
    fn from(histogram: Histogram) -> Self {
        HistogramHandle::owned(histogram)
    }
}

impl core::ops::Deref for HistogramHandle {
    type Target = Histogram;
    #[inline(always)]
    fn deref(&self) -> &Histogram {
        &self.histogram
    }
}
