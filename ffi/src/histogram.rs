//! `picollo_histogram_*`: create, record, reset, merge.

use picollo::concurrent::Source;
use std::sync::atomic::{AtomicU32, Ordering};

use picollo::concurrent::{ConcurrentHistogram, Mode};
use picollo::{Config, ConfigError, MergeError, ValueSelection, View};

use crate::status::{as_mut, as_ref, as_slice, guard, guard_value, picollo_status, status_of};
use crate::types::{picollo_histogram_info, picollo_mode};

/// Configuration for `picollo_histogram_new`. Start from `picollo_histogram_config_default`
/// (which sets `struct_size`), then change fields.
#[allow(non_camel_case_types)]
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct picollo_histogram_config {
    /// `sizeof(picollo_histogram_config)` as the caller knows it. Smaller than this library's
    /// struct is refused; larger (built against a newer header) is accepted when the fields
    /// this library does not know are zero.
    pub struct_size: u32,
    /// Counter width: 32 or 64 bits.
    pub counter_bits: u32,
    /// Tolerated relative error, e.g. 0.001 for 0.1 %. Must be finite and > 0; values
    /// outside [1e-6, 0.1] are clamped.
    pub relative_error: f64,
    /// Smallest trackable value, to bucket resolution: values sharing its bucket are counted
    /// inside the range, smaller ones as underflow.
    pub min_trackable: u64,
    /// Largest trackable value, to bucket resolution: values sharing its bucket are counted
    /// inside the range, larger ones as overflow.
    pub max_trackable: u64,
    /// A `picollo_value_selection` value.
    pub value_selection: u32,
    /// A `picollo_mode` value: how threads may record (see `picollo_mode`).
    pub mode: u32,
    /// Threshold T of the approximate mode (exact counting below 2^T), 1..62; 0 means 13.
    /// Must be 0 in the other modes.
    pub approx_threshold: u32,
    /// Reserved: must be zero.
    pub reserved: u32,
}

const CONFIG_SIZE: u32 = std::mem::size_of::<picollo_histogram_config>() as u32;

/// The default configuration: u64 counters, relative error 0.001, range 0..UINT64_MAX,
/// midpoint values, single writer.
#[no_mangle]
pub extern "C" fn picollo_histogram_config_default() -> picollo_histogram_config {
    picollo_histogram_config {
        struct_size: CONFIG_SIZE,
        counter_bits: 64,
        relative_error: picollo::layout::DEFAULT_RELATIVE_ERROR,
        min_trackable: 0,
        max_trackable: u64::MAX,
        value_selection: 0,
        mode: picollo_mode::SingleWriter as u32,
        approx_threshold: 0,
        reserved: 0,
    }
}

/// An HDR histogram (opaque). Create with `picollo_histogram_new`, free with
/// `picollo_histogram_free`.
///
/// Threads, by mode (`picollo_histogram_config.mode`, see `picollo_mode`):
/// - every mode: queries (`_percentile*`, `_summary`, `_mean_stdev`, `_bucket`,
///   `_next_bucket*`, `_get_info`, `_table`), `picollo_snapshot_new` / `_update` and
///   `picollo_histogram_add` with this histogram as the source may run on any number of
///   threads at once, while writers record. Each such call first makes one consistent copy
///   of the counts and answers from it, so a batch of percentiles agrees with itself and
///   with the total it reports; totals never exceed what was recorded, and a copy never
///   mixes counts from before and after a reset.
/// - `PICOLLO_MODE_SINGLE_WRITER`: one thread records at a time (`_record*`, `_add` or
///   `_subtract` into it); the caller serialises writers. Reads retry rather than see a
///   half-done reset. `_reset` from the writing thread is exact; from another thread while
///   the writer records, the bucket being incremented may keep its old count + 1 (a plain
///   increment cannot be made safe against a reset): reset from the writer or choose
///   another mode.
/// - `PICOLLO_MODE_INTERLOCKED`, `PICOLLO_MODE_THREAD_LOCAL`, `PICOLLO_MODE_APPROXIMATE`:
///   any number of threads record at once, and `_reset` and `_add` may run on any thread
///   meanwhile. A record racing a reset counts either before it (cleared) or after it,
///   never both and never as "old + 1": after a reset a bucket holds at most what was
///   recorded into it since the reset began. `_subtract` answers `UNSUPPORTED` (use a
///   snapshot with deltas).
/// - thread-local: a thread's first record attaches it (one lock and, unless a shard of an
///   exited thread is waiting, one allocation); when the thread exits its shard is handed
///   to the next thread or folded into the histogram, counts included: nothing is lost and
///   memory follows the number of threads recording at once, not the number ever seen.
///   Writer threads may outlive the histogram (once they have stopped using it).
///
/// `picollo_histogram_set_value_selection` may run on any thread (a query already running
/// keeps the selection it started with). `picollo_histogram_free` must not race any other
/// call on the same handle.
#[allow(non_camel_case_types)]
pub struct picollo_histogram {
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
            $crate::histogram::Inner::U32($h) => $e,
            $crate::histogram::Inner::U64($h) => $e,
        }
    };
}

/// A view of either counter width, for the query functions.
pub(crate) enum AnyView<'a> {
    U32(View<'a, u32>),
    U64(View<'a, u64>),
}

macro_rules! dispatch_view {
    ($view:expr, $v:ident => $e:expr) => {
        match $view {
            $crate::histogram::AnyView::U32($v) => $e,
            $crate::histogram::AnyView::U64($v) => $e,
        }
    };
}
pub(crate) use dispatch_view;

impl picollo_histogram {
    /// A histogram of `bits`-wide counters counting in `mode`.
    pub(crate) fn create(config: Config, bits: u32, mode: Mode) -> Result<Self, Failure> {
        let inner = if bits == 32 {
            Inner::U32(ConcurrentHistogram::new(config, mode).map_err(config_error)?)
        } else {
            Inner::U64(ConcurrentHistogram::new(config, mode).map_err(config_error)?)
        };
        Ok(picollo_histogram {
            inner,
            selection: AtomicU32::new(crate::convert::selection_to_c(config.value_selection())),
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

    pub(crate) fn record_n(&self, v: u64, n: u64) {
        dispatch!(&self.inner, h => h.record_n(v, n));
    }

    pub(crate) fn reset(&self) {
        dispatch!(&self.inner, h => h.reset());
    }

    /// Mean over bucket midpoints (NaN when empty).
    pub(crate) fn mean(&self) -> f64 {
        self.with_view(|view| dispatch_view!(view, v => v.mean()))
    }

    pub(crate) fn selection(&self) -> ValueSelection {
        crate::convert::selection_from_c(self.selection.load(Ordering::Relaxed)).unwrap_or_default()
    }

    /// Number of counters (buckets) in storage.
    pub(crate) fn storage_len(&self) -> usize {
        dispatch!(&self.inner, h => h.storage_len())
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

pub(crate) type Failure = (picollo_status, String);

fn invalid(message: impl std::fmt::Display) -> Failure {
    (picollo_status::InvalidArgument, message.to_string())
}

pub(crate) fn config_error(e: ConfigError) -> Failure {
    invalid(e)
}

pub(crate) fn merge_error(e: MergeError) -> Failure {
    let status = match e {
        MergeError::LayoutMismatch { .. } => picollo_status::LayoutMismatch,
        MergeError::WouldGoNegative { .. } => picollo_status::WouldGoNegative,
        MergeError::Unsupported => picollo_status::Unsupported,
        _ => picollo_status::InvalidArgument,
    };
    (status, e.to_string())
}

/// Read a caller's config, honouring its `struct_size`: smaller than this library's struct is
/// refused; larger (a caller built against a newer header) is accepted only when every byte
/// this library does not know is zero, as the kernel does for `perf_event_attr`.
///
/// # Safety
/// `config` is NULL or points to `config->struct_size` readable bytes (at least 4).
pub(crate) unsafe fn read_config(
    config: *const picollo_histogram_config,
) -> Result<picollo_histogram_config, Failure> {
    if config.is_null() {
        return Err(crate::status::null("config"));
    }
    // Read only the size first: a caller's older, smaller struct must not be read past.
    // SAFETY: config is non-NULL and its first field, a u32, is always readable.
    let struct_size = unsafe { config.cast::<u32>().read() };
    let size = struct_size as usize;
    let ours = CONFIG_SIZE as usize;
    if size < ours {
        return Err(struct_size_error(struct_size));
    }
    if size > ours {
        // SAFETY: the caller promises struct_size readable bytes.
        let extra =
            unsafe { std::slice::from_raw_parts(config.cast::<u8>().add(ours), size - ours) };
        if extra.iter().any(|&b| b != 0) {
            return Err(struct_size_error(struct_size));
        }
    }
    // SAFETY: at least sizeof(picollo_histogram_config) readable bytes, checked above.
    Ok(unsafe { config.read() })
}

fn struct_size_error(size: u32) -> Failure {
    (
        picollo_status::StructSize,
        format!(
            "struct_size is {size} but this library's picollo_histogram_config has {CONFIG_SIZE} \
             bytes (a larger struct is accepted only if the fields this library does not know \
             are zero): initialise it with picollo_histogram_config_default()"
        ),
    )
}

/// Validate a C config into a core `Config`, the counter width and the mode.
pub(crate) fn parse_config(cfg: &picollo_histogram_config) -> Result<(Config, u32, Mode), Failure> {
    if cfg.counter_bits != 32 && cfg.counter_bits != 64 {
        return Err(invalid(format!(
            "counter_bits is {}: it must be 32 or 64",
            cfg.counter_bits
        )));
    }
    let selection = crate::convert::selection_from_c(cfg.value_selection).ok_or_else(|| {
        invalid(format!(
            "value_selection is {}: it must be 0 (midpoint), 1 (lower), 2 (upper) or 3 \
             (interpolated)",
            cfg.value_selection
        ))
    })?;
    if cfg.mode != picollo_mode::Approximate as u32 && cfg.approx_threshold != 0 {
        return Err(invalid(format!(
            "approx_threshold is {} but mode {} is not the approximate mode (3): it must be 0",
            cfg.approx_threshold, cfg.mode
        )));
    }
    if cfg.approx_threshold > 62 {
        return Err(invalid(format!(
            "approx_threshold is {}: it must be 1..62 (0 for the default, 13)",
            cfg.approx_threshold
        )));
    }
    let mode = crate::convert::mode_from_c(cfg.mode, cfg.approx_threshold).ok_or_else(|| {
        invalid(format!(
            "mode is {}: it must be 0 (single writer), 1 (interlocked), 2 (thread-local) or \
             3 (approximate)",
            cfg.mode
        ))
    })?;
    if cfg.reserved != 0 {
        return Err(invalid("reserved must be zero"));
    }
    let config = Config::new()
        .with_relative_error(cfg.relative_error)
        .with_range(cfg.min_trackable, cfg.max_trackable)
        .with_value_selection(selection);
    config.validate().map_err(config_error)?;
    Ok((config, cfg.counter_bits, mode))
}

/// Create a histogram. On success `*out` holds a new handle for `picollo_histogram_free`.
///
/// Errors: NULL `config` or `out`; `STRUCT_SIZE` if `config->struct_size` is not this
/// library's size; `INVALID_ARGUMENT` for a relative error that is NaN, infinite, zero or
/// negative, `min_trackable > max_trackable`, counter bits other than 32/64, an unknown
/// value selection or mode, an approximate threshold outside 1..62 or given in another mode.
///
/// # Safety
/// `config` is NULL or points to a config of `config->struct_size` readable bytes; `out` is
/// NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_new(
    config: *const picollo_histogram_config,
    out: *mut *mut picollo_histogram,
) -> picollo_status {
    guard(|| {
        status_of((|| {
            // SAFETY: per this function's contract.
            let cfg = unsafe { read_config(config) }?;
            // SAFETY: per this function's contract.
            let out = unsafe { as_mut(out, "out") }?;
            let (config, bits, mode) = parse_config(&cfg)?;
            *out = Box::into_raw(Box::new(picollo_histogram::create(config, bits, mode)?));
            Ok(())
        })())
    })
}

/// Free a histogram. NULL is accepted and ignored. Free each handle exactly once.
///
/// # Safety
/// `h` is NULL or a handle from `picollo_histogram_new` not yet freed.
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_free(h: *mut picollo_histogram) {
    if !h.is_null() {
        // SAFETY: h came from Box::into_raw in picollo_histogram_new and is freed once.
        drop(unsafe { Box::from_raw(h) });
    }
}

/// Record one value. Never fails: values outside the range count as underflow/overflow; a
/// NULL handle is ignored. The hot path. Thread-safe in the interlocked, thread-local and
/// approximate modes; in the single-writer mode, one recording thread at a time.
///
/// # Safety
/// `h` is NULL or a live handle (see `picollo_histogram` for threads).
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_record(h: *mut picollo_histogram, value: u64) {
    // SAFETY: per this function's contract; NULL gives None. Only a shared reference is
    // made: every mode records through atomics.
    let Some(h) = (unsafe { h.as_ref() }) else {
        return;
    };
    // The single-writer record is a few wrapping integer operations and one load + store:
    // it cannot panic, so it runs inline without the guard's frame. The other modes go
    // through the guard.
    match &h.inner {
        Inner::U32(ConcurrentHistogram::SingleWriter(s)) => s.record(value),
        Inner::U64(ConcurrentHistogram::SingleWriter(s)) => s.record(value),
        _ => record_guarded(h, value),
    }
}

#[inline(never)]
fn record_guarded(h: &picollo_histogram, value: u64) {
    guard_value((), || h.record(value));
}

/// Record `count` occurrences of `value` (`count = 0` does nothing). A bucket saturates at
/// its counter's maximum; the excess is counted in `saturated`. NULL handle is ignored.
///
/// # Safety
/// As `picollo_histogram_record`.
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_record_n(
    h: *mut picollo_histogram,
    value: u64,
    count: u64,
) {
    guard_value((), || {
        // SAFETY: per this function's contract; NULL gives None. Only a shared reference
        // is made: every mode records through atomics.
        if let Some(h) = unsafe { h.as_ref() } {
            h.record_n(value, count);
        }
    })
}

/// Record `value` with coordinated-omission correction: also records `value − k·interval`
/// for k ≥ 1 while at least `interval` (HdrHistogram's definition). `interval = 0` records
/// `value` only. Cost is bounded by the number of buckets. NULL handle is ignored.
///
/// # Safety
/// As `picollo_histogram_record`.
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_record_corrected(
    h: *mut picollo_histogram,
    value: u64,
    expected_interval: u64,
) {
    guard_value((), || {
        // SAFETY: per this function's contract; NULL gives None. Only a shared reference
        // is made: every mode records through atomics.
        if let Some(h) = unsafe { h.as_ref() } {
            dispatch!(&h.inner, h => h.record_corrected(value, expected_interval));
        }
    })
}

/// Record `n` values from an array in one call (for bindings where a call per value costs
/// more than the record itself). `values` may be NULL only when `n` is 0.
///
/// # Safety
/// `h` as in `picollo_histogram_record`; `values` points to `n` readable `uint64_t`.
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_record_many(
    h: *mut picollo_histogram,
    values: *const u64,
    n: usize,
) -> picollo_status {
    guard(|| {
        status_of((|| {
            // SAFETY: per this function's contract.
            let h = unsafe { as_ref(h, "h") }?;
            // SAFETY: per this function's contract.
            let values = unsafe { as_slice(values, n, "values") }?;
            dispatch!(&h.inner, h => values.iter().for_each(|&v| h.record(v)));
            Ok(())
        })())
    })
}

/// Clear all counts (buckets, underflow, overflow, saturated). From any thread; see
/// `picollo_histogram` for what concurrent writers and readers see.
///
/// # Safety
/// `h` is NULL or a live handle.
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_reset(h: *mut picollo_histogram) -> picollo_status {
    guard(|| {
        status_of((|| {
            // SAFETY: per this function's contract.
            let h = unsafe { as_ref(h, "h") }?;
            h.reset();
            Ok(())
        })())
    })
}

/// Choose how buckets report values (a `picollo_value_selection`).
///
/// # Safety
/// `h` is NULL or a live handle not used by another thread during the call.
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_set_value_selection(
    h: *mut picollo_histogram,
    selection: u32,
) -> picollo_status {
    guard(|| {
        status_of((|| {
            // SAFETY: per this function's contract.
            let h = unsafe { as_ref(h, "h") }?;
            let s = crate::convert::selection_from_c(selection)
                .ok_or_else(|| invalid(format!("value selection {selection} is unknown")))?;
            h.selection
                .store(crate::convert::selection_to_c(s), Ordering::Relaxed);
            Ok(())
        })())
    })
}

/// Counts, range, layout and footprint of a histogram.
///
/// # Safety
/// `h` is NULL or a live handle; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_get_info(
    h: *const picollo_histogram,
    out: *mut picollo_histogram_info,
) -> picollo_status {
    guard(|| {
        status_of((|| {
            // SAFETY: per this function's contract.
            let h = unsafe { as_ref(h, "h") }?;
            // SAFETY: per this function's contract.
            let out = unsafe { as_mut(out, "out") }?;
            *out = info_of(h);
            Ok(())
        })())
    })
}

fn info_of(h: &picollo_histogram) -> picollo_histogram_info {
    let (mode, threshold, footprint) = dispatch!(&h.inner, c => {
        let (mode, threshold) = crate::convert::mode_to_c(c.mode());
        (mode, threshold, c.footprint_in_bytes())
    });
    let bits = match h.inner {
        Inner::U32(_) => 32,
        Inner::U64(_) => 64,
    };
    h.with_view(|view| {
        dispatch_view!(view, v => {
            let (min, max) = v.range();
            picollo_histogram_info {
                total: v.total_count(),
                underflow: v.underflow_count(),
                overflow: v.overflow_count(),
                saturated: v.saturated_count(),
                min_trackable: min,
                max_trackable: max,
                storage_len: v.counts().len() as u64,
                footprint_bytes: footprint as u64,
                block_size: v.layout().block_size(),
                relative_error: v.layout().relative_error(),
                counter_bits: bits,
                mode: mode as u32,
                value_selection: crate::convert::selection_to_c(v.value_selection()),
                approx_threshold: threshold,
            }
        })
    })
}

/// Add every count of `src` into `dst` (same relative error, any range, counter width and
/// mode): counts outside `dst`'s range go to its underflow/overflow. `LAYOUT_MISMATCH` when
/// the relative errors differ. `dst` and `src` may not be the same handle. `src` is read
/// as one consistent copy; the counts land in `dst` like records (from any thread in the
/// concurrent modes).
///
/// # Safety
/// Both are NULL or live handles.
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_add(
    dst: *mut picollo_histogram,
    src: *const picollo_histogram,
) -> picollo_status {
    merge(dst, src, true)
}

/// Subtract every count of `src` from `dst` (for deltas). `WOULD_GO_NEGATIVE` (and no
/// change) when some count of `dst` is smaller than `src`'s. Single-writer mode only, from
/// the writing thread: the other modes answer `UNSUPPORTED` (use a snapshot with deltas).
///
/// # Safety
/// As `picollo_histogram_add`.
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_subtract(
    dst: *mut picollo_histogram,
    src: *const picollo_histogram,
) -> picollo_status {
    merge(dst, src, false)
}

fn merge(dst: *mut picollo_histogram, src: *const picollo_histogram, add: bool) -> picollo_status {
    guard(|| {
        status_of((|| {
            if std::ptr::eq(dst, src) && !dst.is_null() {
                return Err(invalid("dst and src are the same histogram"));
            }
            // SAFETY: live handles per the callers' contract; only shared references.
            let dst = unsafe { as_ref(dst, "dst") }?;
            // SAFETY: as above.
            let src = unsafe { as_ref(src, "src") }?;
            let r = src.with_view(|view| {
                dispatch!(&dst.inner, d => dispatch_view!(view, s => {
                    if add { d.add(&s) } else { d.subtract(&s) }
                }))
            });
            r.map_err(merge_error)
        })())
    })
}
