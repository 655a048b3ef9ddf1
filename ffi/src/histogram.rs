//! `picollo_histogram_*`: create, record, reset, merge. The queries are in `query`, the
//! text in `histogram_text`, the options in `histogram_config`.

use crate::any_histogram::{config_error, dispatch_view, merge_error, Histogram};
use crate::args::{read_sized, try_slice};
use crate::boundary::boundary;
use crate::convert::{bits_from_c, bits_to_c, mode_to_c, selection_from_c, selection_to_c};
use crate::error::Failure;
use crate::handle::{free_boxed, hot_ref, set_boxed, try_mut, try_ref, Boxed, Castable};
use crate::histogram_config::{parse_config, picollo_histogram_config, picollo_storage};
use crate::status::picollo_status;
use crate::types::picollo_histogram_info;
use picollo_core::concurrent::{GeneralPath, RecordFn};

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
    _private: [u8; 0],
}

impl Castable for picollo_histogram {
    type Ownership = Boxed;
    type RustType = Histogram;
}

/// Creates a histogram: on success `*out` holds a new handle for `picollo_histogram_free`.
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
    boundary!({
        let config = read_sized!(config)?;
        let out = try_mut!(out)?;
        let extremes = config.exact_extremes == 1;
        let (config, bits, mode, storage) = parse_config(&config)?;
        let shape = config.validate().map_err(config_error)?;
        let h = Histogram::with_storage(shape, bits_from_c(bits), mode, storage)
            .map_err(config_error)?;
        set_boxed(out, if extremes { h.with_exact_extremes() } else { h });
        Ok(())
    })
}

/// Frees a histogram. NULL is accepted and ignored. Free each handle exactly once.
///
/// # Safety
/// `h` is NULL or a handle from `picollo_histogram_new` not yet freed.
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_free(h: *mut picollo_histogram) {
    free_boxed!(h)
}

/// Records one value: the hot path. Never fails: values outside the range count as
/// underflow/overflow; a record into a full bucket counts as saturated (see
/// `picollo_histogram_record_n`); a NULL handle is ignored. Threads: see
/// `picollo_histogram`.
///
/// # Safety
/// `h` is NULL or a live handle.
/// cbindgen:prefix=PICOLLO_RECORD_ATTR
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_record(h: *mut picollo_histogram, value: u64) {
    // Only a shared reference: every mode records through atomics or per-thread shards.
    let Some(h) = hot_ref!(h) else {
        return;
    };
    // The single-writer, interlocked and approximate records, and the thread-local one on
    // its fast path, cannot panic: they run without the boundary's frame, through the
    // function chosen for the histogram's width and mode when it was made. The rest (a
    // thread's first record, a thread-local value outside the range) goes through it.
    h.record_or(value, record_guarded);
}

/// The records the fast path hands over, behind the panic guard (so nothing unwinds out of
/// it: it may be `extern "C"`).
extern "C" fn record_guarded(h: &Histogram, value: u64) {
    boundary!({
        h.record(value);
        Ok(())
    })
}

/// The general path of the functions `picollo_histogram_record_fn` hands out.
struct Guarded;

impl GeneralPath for Guarded {
    fn record(h: &Histogram, value: u64) {
        record_guarded(h, value)
    }
}

/// A record function specialised for one histogram's counter width and mode, from
/// `picollo_histogram_record_fn`: `f(h, value)` records like `picollo_histogram_record(h,
/// value)`, without choosing the mode's path on every call.
#[allow(non_camel_case_types)]
pub type picollo_record_fn = Option<unsafe extern "C" fn(h: *mut picollo_histogram, value: u64)>;

/// Returns the record function of `h`'s counter width and mode, for callers that record
/// many values into one histogram: calling it saves the dispatch over width and mode that
/// `picollo_histogram_record` makes on each call (one indirect jump, about a fifth of a
/// call on x86-64; the dense single-writer and thread-local modes without exact extremes,
/// run inline there after a few bit tests, save less). Same guarantees as `picollo_histogram_record` (never fails; values
/// outside the range count as underflow/overflow; threads: see `picollo_histogram`).
///
/// Call the function only with `h` itself (or another live handle of the same counter
/// width and mode), never NULL: it reaches the histogram without checking the handle.
/// For a NULL `h`, returns a function that records nothing. Never returns NULL.
///
/// # Safety
/// `h` is NULL or a live handle.
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_record_fn(
    h: *const picollo_histogram,
) -> picollo_record_fn {
    let Some(h) = hot_ref!(h) else {
        return Some(record_nothing);
    };
    let f: RecordFn = h.record_fn::<Guarded>();
    // SAFETY: a `picollo_histogram *` points to the `Histogram` behind the handle, and
    // `&T` and `*mut T` pass alike (the same ABI for function pointers); the caller of the
    // returned function promises a live handle of this width and mode (the `RecordFn`
    // contract), as documented above.
    Some(unsafe {
        std::mem::transmute::<RecordFn, unsafe extern "C" fn(*mut picollo_histogram, u64)>(f)
    })
}

/// What `picollo_histogram_record_fn(NULL)` returns.
unsafe extern "C" fn record_nothing(_: *mut picollo_histogram, _: u64) {}

/// Records `count` occurrences of `value` (`count = 0` does nothing). A bucket saturates
/// (never wraps) and the excess is counted in `saturated`: at its counter's maximum
/// (UINT32_MAX or UINT64_MAX) in the single-writer and thread-local modes, at that maximum
/// − 2^22 (4,290,772,991 for 32-bit counters) in the interlocked and approximate modes,
/// whose lock-free adds need the margin. Underflow, overflow and saturated counts stop at
/// UINT64_MAX. A NULL handle is ignored.
///
/// # Safety
/// As `picollo_histogram_record`.
/// cbindgen:prefix=PICOLLO_RECORD_ATTR
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_record_n(
    h: *mut picollo_histogram,
    value: u64,
    count: u64,
) {
    boundary!({
        try_ref!(h)?.record_n(value, count);
        Ok(())
    })
}

/// Records `value` with coordinated-omission correction: also records `value − k·interval`
/// for k ≥ 1 while at least `interval` (HdrHistogram's definition). `interval = 0` records
/// `value` only. Cost is bounded by the number of buckets. A NULL handle is ignored.
///
/// # Safety
/// As `picollo_histogram_record`.
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_record_corrected(
    h: *mut picollo_histogram,
    value: u64,
    expected_interval: u64,
) {
    boundary!({
        try_ref!(h)?.record_corrected(value, expected_interval);
        Ok(())
    })
}

/// Records `n` values from an array in one call (for bindings where a call per value costs
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
    boundary!({
        let h = try_ref!(h)?;
        h.record_many(try_slice!(values, n)?);
        Ok(())
    })
}

/// Clears all counts (buckets, underflow, overflow, saturated). From any thread; see
/// `picollo_histogram` for what concurrent writers and readers see.
///
/// # Safety
/// `h` is NULL or a live handle.
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_reset(h: *mut picollo_histogram) -> picollo_status {
    boundary!({
        try_ref!(h)?.reset();
        Ok(())
    })
}

/// Chooses how buckets report values (a `picollo_value_selection`). Threads: see
/// `picollo_histogram`.
///
/// # Safety
/// `h` is NULL or a live handle.
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_set_value_selection(
    h: *mut picollo_histogram,
    selection: u32,
) -> picollo_status {
    boundary!({
        let h = try_ref!(h)?;
        let s = selection_from_c(selection).ok_or_else(|| {
            Failure::invalid(format_args!("value selection {selection} is unknown"))
        })?;
        h.set_value_selection(s);
        Ok(())
    })
}

/// Writes the counts, range, layout and footprint of a histogram to `*out`.
///
/// # Safety
/// `h` is NULL or a live handle; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_get_info(
    h: *const picollo_histogram,
    out: *mut picollo_histogram_info,
) -> picollo_status {
    boundary!({
        let h = try_ref!(h)?;
        let out = try_mut!(out)?;
        *out = info_of(h)?;
        Ok(())
    })
}

fn info_of(h: &Histogram) -> Result<picollo_histogram_info, Failure> {
    let (mode, threshold) = mode_to_c(h.mode());
    let (bits, footprint) = (bits_to_c(h.counter_bits()), h.footprint_in_bytes());
    let info = h.with_view(|view| {
        dispatch_view!(view, v => {
            let (min, max) = v.range();
            picollo_histogram_info {
                total: v.total_count(),
                underflow: v.underflow_count(),
                overflow: v.overflow_count(),
                saturated: v.saturated_count(),
                min_trackable: min,
                max_trackable: max,
                storage_len: v.shape().len() as u64,
                footprint_bytes: footprint as u64,
                block_size: v.layout().block_size(),
                relative_error: v.layout().relative_error(),
                counter_bits: bits,
                mode: mode as u32,
                value_selection: selection_to_c(v.value_selection()),
                approx_threshold: threshold,
            }
        })
    })?;
    Ok(info)
}

/// Writes to `*out` how `h` keeps its counters: a `picollo_storage` value (what
/// `picollo_histogram_config.storage` asked for).
///
/// # Safety
/// `h` is NULL or a live handle; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_get_storage(
    h: *const picollo_histogram,
    out: *mut u32,
) -> picollo_status {
    boundary!({
        let storage = match try_ref!(h)?.storage() {
            picollo_core::concurrent::Storage::Dense => picollo_storage::Dense,
            picollo_core::concurrent::Storage::Sparse => picollo_storage::Sparse,
        };
        crate::args::out!(out, storage as u32)
    })
}

/// Writes the exact smallest and largest value recorded in `h`'s range to `*min` and
/// `*max`, for a histogram made with `picollo_histogram_config.exact_extremes = 1`: every
/// value recorded in the range (saturated records too; not underflow or overflow values)
/// since creation or the last reset, through any record function. Merges bring the
/// source's exact extremes when it keeps them, else the bounds of its lowest and highest
/// non-empty buckets (a V2 blob added, its bucket midpoints). Subtract and collect leave
/// them. Either out-pointer may be NULL.
///
/// Errors: NULL `h`; `UNSUPPORTED` when `h` does not keep exact extremes; `EMPTY` when no
/// value was recorded in its range (nothing written then).
///
/// # Safety
/// `h` is NULL or a live handle; `min` and `max` are NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_exact_extremes(
    h: *const picollo_histogram,
    min: *mut u64,
    max: *mut u64,
) -> picollo_status {
    boundary!({
        let h = try_ref!(h)?;
        if !h.tracks_extremes() {
            return Err(Failure::new(
                picollo_status::Unsupported,
                "this histogram keeps no exact extremes: create it with \
                 picollo_histogram_config.exact_extremes = 1",
            ));
        }
        let Some((lo, hi)) = h.exact_extremes() else {
            return Err(Failure::new(
                picollo_status::Empty,
                "no value was recorded in the histogram's range",
            ));
        };
        crate::args::out!(min?, lo)?;
        crate::args::out!(max?, hi)
    })
}

/// Adds every count of `src` into `dst` (same relative error, any range, counter width and
/// mode): counts outside `dst`'s range go to its underflow/overflow. `LAYOUT_MISMATCH` when
/// the relative errors differ. `dst` and `src` may not be the same handle. `src` is read
/// as one consistent copy; the counts land in `dst` like records (threads: see
/// `picollo_histogram`).
///
/// # Safety
/// Both are NULL or live handles.
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_add(
    dst: *mut picollo_histogram,
    src: *const picollo_histogram,
) -> picollo_status {
    // SAFETY: forwarded contract: both are NULL or live handles.
    unsafe { merge(dst, src, true) }
}

/// Subtracts every count of `src` from `dst` (for deltas). `WOULD_GO_NEGATIVE` (and no
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
    // SAFETY: forwarded contract: both are NULL or live handles.
    unsafe { merge(dst, src, false) }
}

/// The body of `picollo_histogram_add` and `_subtract`.
///
/// # Safety
/// As `picollo_histogram_add`.
unsafe fn merge(
    dst: *mut picollo_histogram,
    src: *const picollo_histogram,
    add: bool,
) -> picollo_status {
    boundary!({
        if std::ptr::eq(dst, src) && !dst.is_null() {
            return Err(Failure::invalid("dst and src are the same histogram"));
        }
        let (dst, src) = (try_ref!(dst)?, try_ref!(src)?);
        match add {
            true => dst.add(src),
            false => dst.subtract(src),
        }
        .map_err(merge_error)
    })
}
