//! `picollo_recorder`: where the calling thread's records of a histogram go, for the record
//! function the header inlines into the caller (`picollo_recorder_record`, in the header's
//! trailer: cbindgen copies it from `cbindgen.toml`).

use picollo_core::concurrent::DirectKind;

use crate::boundary::boundary;
use crate::convert::bits_to_c;
use crate::enums::picollo_recorder_kind;
use crate::handle::{caller_owned, try_mut, try_ref};
use crate::histogram::any::Histogram;
use crate::histogram::{picollo_histogram, picollo_histogram_record_fn, picollo_record_fn};
use crate::status::picollo_status;

caller_owned!(picollo_recorder);

/// Where the calling thread's records of one histogram go, for `picollo_recorder_record`: plain
/// data, valid as `picollo_histogram_recorder` says (docs/c-api.md, "The inline recorder").
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct picollo_recorder {
    /// The histogram.
    pub histogram: *mut picollo_histogram,
    /// `picollo_histogram_record_fn(histogram)`: the records the inline path does not take.
    pub record: picollo_record_fn,
    /// The first of `len` counters (`uint32_t` or `uint64_t`, per `counter_bits`); NULL with `CALL`.
    pub cells: *mut core::ffi::c_void,
    /// Number of counters.
    pub len: u64,
    /// Logical index of the first counter's bucket in the whole `u64` layout.
    pub first_index: u64,
    /// A counter at this count or more takes `record` (with `ATOMIC`: the add is taken back first).
    pub limit: u64,
    /// log2 of the layout's block size.
    pub block_scale: u32,
    /// 32 or 64.
    pub counter_bits: u32,
    /// A `picollo_recorder_kind` value.
    pub kind: u32,
    /// Zero.
    pub reserved: u32,
}

/// Fills `*out` with where the calling thread's records of `h` go, for `picollo_recorder_record`
/// (docs/c-api.md, "The inline recorder": on which threads and how long it is valid). Errors:
/// NULL `h` or `out`.
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_recorder(
    h: *const picollo_histogram,
    out: *mut picollo_recorder,
) -> picollo_status {
    boundary!({
        let hist: &Histogram = try_ref!(h)?;
        let out = try_mut!(out)?;
        let shape = hist.shape();
        let path = hist.direct_path();
        let kind = match path.kind {
            DirectKind::Plain => picollo_recorder_kind::Plain,
            DirectKind::Atomic => picollo_recorder_kind::Atomic,
            DirectKind::Call => picollo_recorder_kind::Call,
        };
        *out = picollo_recorder {
            histogram: h.cast_mut(),
            // SAFETY: `h` is a live handle (checked above).
            record: unsafe { picollo_histogram_record_fn(h) },
            cells: path.cells.cast_mut().cast(),
            len: shape.len() as u64,
            first_index: shape.first_index() as u64,
            limit: path.limit,
            block_scale: shape.layout().block_scale(),
            counter_bits: bits_to_c(hist.counter_bits()),
            kind: kind as u32,
            reserved: 0,
        };
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::histogram::config::picollo_histogram_config_default;
    use crate::histogram::types::picollo_histogram_info;
    use crate::histogram::{picollo_histogram_free, picollo_histogram_new};
    use picollo_core::Layout;

    /// A histogram of `cfg` and its recorder (free the histogram with `picollo_histogram_free`).
    fn histogram_and_recorder(
        cfg: &crate::histogram::config::picollo_histogram_config,
    ) -> (*mut crate::histogram::picollo_histogram, picollo_recorder) {
        let mut h = std::ptr::null_mut();
        // SAFETY: a valid config and out-pointer.
        let created = unsafe { picollo_histogram_new(cfg, &mut h) };
        assert_eq!(created, picollo_status::Ok);
        let mut r = std::mem::MaybeUninit::<picollo_recorder>::uninit();
        // SAFETY: a live handle and room for a recorder.
        let status = unsafe { picollo_histogram_recorder(h, r.as_mut_ptr()) };
        assert_eq!(status, picollo_status::Ok);
        // SAFETY: written on success.
        (h, unsafe { r.assume_init() })
    }

    /// What the header's inline function does, in Rust: the test that the fields say what
    /// it needs.
    fn record_inline(r: &picollo_recorder, v: u64) {
        let layout = Layout::from_block_scale(r.block_scale).unwrap();
        let offset = (layout.index(v) as u64).wrapping_sub(r.first_index);
        if offset < r.len && r.kind != picollo_recorder_kind::Call as u32 {
            macro_rules! count {
                ($atomic:ty) => {{
                    // SAFETY: `offset < len` counters of this width, live while the
                    // histogram is (the recorder's contract).
                    let cell = unsafe { &*(r.cells as *const $atomic).add(offset as usize) };
                    let relaxed = std::sync::atomic::Ordering::Relaxed;
                    if r.kind == picollo_recorder_kind::Plain as u32 {
                        let c = cell.load(relaxed);
                        if (c as u64) < r.limit {
                            cell.store(c + 1, relaxed);
                            return;
                        }
                    } else {
                        if (cell.fetch_add(1, relaxed) as u64) < r.limit {
                            return;
                        }
                        cell.fetch_sub(1, relaxed);
                    }
                }};
            }
            match r.counter_bits {
                32 => count!(std::sync::atomic::AtomicU32),
                _ => count!(std::sync::atomic::AtomicU64),
            }
        }
        // SAFETY: the recorder's own handle.
        unsafe { (r.record.unwrap())(r.histogram, v) }
    }

    #[test]
    fn the_recorder_counts_like_the_library_in_every_width_and_mode() {
        for bits in [32, 64] {
            for mode in 0..4u32 {
                let mut cfg = picollo_histogram_config_default();
                cfg.counter_bits = bits;
                cfg.mode = mode;
                cfg.min_trackable = 10;
                cfg.max_trackable = 1_000_000;
                let (h, r) = histogram_and_recorder(&cfg);
                let expected_kind = match mode {
                    0 | 2 => picollo_recorder_kind::Plain,
                    1 => picollo_recorder_kind::Atomic,
                    _ => picollo_recorder_kind::Call,
                };
                assert_eq!(r.kind, expected_kind as u32, "mode {mode}");
                assert_eq!((r.counter_bits, r.reserved), (bits, 0));
                for v in [0, 5, 10, 999, 1_000, 123_456, 1_000_000, 2_000_000] {
                    record_inline(&r, v);
                }
                let mut info = picollo_histogram_info::default();
                // SAFETY: a live handle and a valid out-pointer.
                unsafe { crate::histogram::picollo_histogram_get_info(h, &mut info) };
                assert_eq!(
                    (info.total, info.underflow, info.overflow),
                    (5, 2, 1),
                    "bits {bits} mode {mode}"
                );
                // SAFETY: created above, freed once.
                unsafe { picollo_histogram_free(h) };
            }
        }
    }

    #[test]
    fn an_atomic_add_at_the_limit_is_taken_back_and_recorded_by_the_library() {
        let mut cfg = picollo_histogram_config_default();
        cfg.counter_bits = 32;
        cfg.mode = 1;
        cfg.max_trackable = 1_000_000;
        let (h, r) = histogram_and_recorder(&cfg);
        assert_eq!(r.kind, picollo_recorder_kind::Atomic as u32);
        let info = |h| {
            let mut info = picollo_histogram_info::default();
            // SAFETY: a live handle and a valid out-pointer.
            unsafe { crate::histogram::picollo_histogram_get_info(h, &mut info) };
            (info.total, info.saturated)
        };
        // Just below the limit: the inline add keeps; at it and past it, the add is taken
        // back and the library counts the record (still in the bucket below the ceiling).
        // SAFETY: a live handle.
        unsafe { crate::histogram::picollo_histogram_record_n(h, 777, r.limit - 1) };
        for _ in 0..3 {
            record_inline(&r, 777);
        }
        assert_eq!(info(h), (r.limit + 2, 0));
        // Fill the bucket to its ceiling: further records count as saturated, and the
        // bucket's cell ends at the ceiling, not above it.
        // SAFETY: a live handle.
        unsafe { crate::histogram::picollo_histogram_record_n(h, 777, u64::from(u32::MAX)) };
        let (total, saturated) = info(h);
        for _ in 0..5 {
            record_inline(&r, 777);
        }
        assert_eq!(info(h), (total, saturated + 5));
        // SAFETY: created above, freed once.
        unsafe { picollo_histogram_free(h) };
    }

    #[test]
    fn bad_arguments_are_refused() {
        let mut r = std::mem::MaybeUninit::<picollo_recorder>::uninit();
        // SAFETY: NULL handle, valid out-pointer.
        let status = unsafe { picollo_histogram_recorder(std::ptr::null(), r.as_mut_ptr()) };
        assert_eq!(status, picollo_status::NullPointer);
    }
}
