//! Helpers for the unit tests that drive the exported functions.

use std::ffi::{c_char, CStr};
use std::ptr;

use crate::error::picollo_last_error_message;
use crate::histogram::any::Histogram;
use crate::histogram::config::picollo_histogram_config_default;
use crate::histogram::{picollo_histogram, picollo_histogram_free, picollo_histogram_new};
use crate::status::picollo_status;

/// Relative error of HdrHistogram's 3 significant digits (block size 1024).
pub(crate) const THREE_DIGITS: f64 = 0.5 / 1024.0;

/// A histogram handle, freed on drop.
pub(crate) struct Handle(pub(crate) *mut picollo_histogram);

/// A new handle from a `_new` that takes only its output slot (the writers), made or the
/// test fails.
pub(crate) fn made<T>(new: unsafe extern "C" fn(*mut *mut T) -> picollo_status) -> *mut T {
    let mut p = ptr::null_mut();
    // SAFETY: a writable output slot, as every such `_new` takes.
    let status = unsafe { new(&mut p) };
    assert_eq!(status, picollo_status::Ok);
    p
}

impl Handle {
    /// A new histogram of the default config with these fields.
    pub(crate) fn new(counter_bits: u32, relative_error: f64, mode: u32) -> Handle {
        let mut config = picollo_histogram_config_default();
        config.counter_bits = counter_bits;
        config.relative_error = relative_error;
        config.mode = mode;
        let mut h = ptr::null_mut();
        // SAFETY: valid config and output slot.
        let status = unsafe { picollo_histogram_new(&config, &mut h) };
        assert_eq!(status, picollo_status::Ok);
        Handle(h)
    }

    /// Take ownership of a handle a call returned.
    pub(crate) fn adopt(h: *mut picollo_histogram) -> Handle {
        assert!(!h.is_null());
        Handle(h)
    }

    /// The Rust value behind the handle.
    pub(crate) fn rust(&self) -> &Histogram {
        // SAFETY: a live handle from `picollo_histogram_new` (or a function returning one)
        // points to a `Histogram` (`Castable`).
        unsafe { &*self.0.cast::<Histogram>() }
    }

    /// Every non-empty bucket as (lowest value, count), and the underflow and overflow.
    pub(crate) fn buckets(&self) -> (Vec<(u64, u64)>, u64, u64) {
        self.rust()
            .with_view(|view| {
                let v = view.as_view();
                (
                    v.buckets()
                        .filter(|b| b.count != 0)
                        .map(|b| (b.lower, b.count))
                        .collect(),
                    v.underflow_count(),
                    v.overflow_count(),
                )
            })
            .unwrap()
    }

    pub(crate) fn total(&self) -> u64 {
        self.rust().total_count().unwrap()
    }
}

impl Drop for Handle {
    fn drop(&mut self) {
        // SAFETY: the handle is live and freed once, here.
        unsafe { picollo_histogram_free(self.0) }
    }
}

/// The message of the last failed call on this thread.
pub(crate) fn last_error() -> String {
    // SAFETY: the library returns a NUL-terminated string valid until the next call.
    unsafe { CStr::from_ptr(picollo_last_error_message()) }
        .to_string_lossy()
        .into_owned()
}

/// The text a writer of the buffer protocol produces, asked for its size first.
pub(crate) fn text_of(
    mut write: impl FnMut(*mut c_char, usize, *mut usize) -> picollo_status,
) -> String {
    let mut needed = usize::MAX;
    assert_eq!(
        write(ptr::null_mut(), 0, &mut needed),
        picollo_status::BufferTooSmall
    );
    let mut buf = vec![0x55 as c_char; needed + 1];
    let mut again = 0;
    assert_eq!(
        write(buf.as_mut_ptr(), buf.len(), &mut again),
        picollo_status::Ok
    );
    assert_eq!(again, needed);
    assert_eq!(buf[needed], 0);
    // SAFETY: NUL-terminated at `needed`, checked above.
    let text = unsafe { CStr::from_ptr(buf.as_ptr()) };
    assert_eq!(text.to_bytes().len(), needed);
    text.to_str().expect("UTF-8").to_string()
}
