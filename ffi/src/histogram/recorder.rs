//! `picollo_recorder`: where the calling thread's records of a histogram go, for the record
//! function the header inlines into the caller (`picollo_recorder_record`, C written by hand in
//! `include/picollo_inline.h`, which `picollo.h` includes).

use picollo_core::concurrent::DirectKind;

use crate::boundary::boundary;
use crate::convert::bits_to_c;
use crate::enums::picollo_recorder_kind;
use crate::error::Failure;
use crate::handle::{caller_owned, try_mut, try_ref};
use crate::histogram::{picollo_histogram, picollo_histogram_record_fn, picollo_record_fn};
use crate::status::picollo_status;

caller_owned!(picollo_recorder);

/// The arithmetic of the inline recorder this header compiles in, for
/// `picollo_histogram_get_recorder`: 2 finds a bucket with the layout's unit (`fine_scale`).
/// Headers of ABI 1.13 and older compile in version 1, which knows no unit: the library gives
/// them a direct path only for layouts of unit 1.
pub const PICOLLO_RECORDER_VERSION: u32 = 2;

/// Where the calling thread's records of one histogram go, for `picollo_recorder_record`: plain
/// data, valid as `picollo_histogram_get_recorder` says (docs/c-api.md, "The inline recorder").
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
    /// log2 of the block size times the unit (`block_scale` plus log2 of the unit): values
    /// below twice `1 << fine_scale` lie in unit-wide buckets. ABI 1.14 (zero before).
    pub fine_scale: u32,
}

/// Fills `*out` with where the calling thread's records of `h` go, for the inline
/// `picollo_recorder_record` of a header whose recorder arithmetic is `version` (pass
/// `PICOLLO_RECORDER_VERSION`; docs/c-api.md, "The inline recorder": on which threads and how
/// long it is valid). Errors: NULL `h` or `out`; `UNSUPPORTED` for a version this library does
/// not know (a newer header); `INVALID_ARGUMENT` for 0 or a read-only handle (a bench result's).
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_get_recorder(
    h: *const picollo_histogram,
    version: u32,
    out: *mut picollo_recorder,
) -> picollo_status {
    boundary!({
        let hist = try_ref!(h)?.changeable("picollo_histogram_get_recorder")?;
        let out = try_mut!(out)?;
        let knows_unit = recorder_knows_unit(version)?;
        let shape = hist.shape();
        let layout = shape.layout();
        let path = hist.direct_path();
        let kind = match path.kind {
            // A version-1 header would find the wrong bucket in a layout with a unit.
            _ if !knows_unit && layout.unit_scale() != 0 => picollo_recorder_kind::Call,
            DirectKind::Plain => picollo_recorder_kind::Plain,
            DirectKind::Atomic => picollo_recorder_kind::Atomic,
            DirectKind::Call => picollo_recorder_kind::Call,
        };
        let direct = kind != picollo_recorder_kind::Call;
        *out = picollo_recorder {
            histogram: h.cast_mut(),
            // SAFETY: `h` is a live handle (checked above).
            record: unsafe { picollo_histogram_record_fn(h) },
            cells: if direct {
                path.cells.cast_mut().cast()
            } else {
                core::ptr::null_mut()
            },
            len: shape.len() as u64,
            first_index: shape.first_index() as u64,
            limit: path.limit,
            block_scale: layout.block_scale(),
            counter_bits: bits_to_c(hist.counter_bits()),
            kind: kind as u32,
            fine_scale: layout.block_scale() + layout.unit_scale(),
        };
        Ok(())
    })
}

/// Whether a header of recorder arithmetic `version` finds buckets with the layout's unit.
fn recorder_knows_unit(version: u32) -> Result<bool, Failure> {
    match version {
        1 => Ok(false),
        PICOLLO_RECORDER_VERSION => Ok(true),
        0 => Err(Failure::invalid(
            "version 0: pass PICOLLO_RECORDER_VERSION, the version of your header",
        )),
        _ => Err(Failure::new(
            picollo_status::Unsupported,
            format_args!(
                "recorder version {version} is newer than this library knows \
                 (1..={PICOLLO_RECORDER_VERSION}): the header is newer than the library; \
                 load a library of the header's ABI version or newer"
            ),
        )),
    }
}

/// `picollo_histogram_get_recorder(h, 1, out)`: for programs built with headers of ABI 1.13
/// and older, whose inline recorder knows no unit (layouts with a unit get `CALL`). New code
/// calls `picollo_histogram_get_recorder` with `PICOLLO_RECORDER_VERSION`.
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_recorder(
    h: *const picollo_histogram,
    out: *mut picollo_recorder,
) -> picollo_status {
    // SAFETY: forwarded contract.
    unsafe { picollo_histogram_get_recorder(h, 1, out) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::histogram::config::picollo_histogram_config_default;
    use crate::histogram::types::picollo_histogram_info;
    use crate::histogram::{picollo_histogram_free, picollo_histogram_new};
    use picollo_core::Layout;

    /// A histogram of `cfg` and its recorder for a header of `version` (free the histogram
    /// with `picollo_histogram_free`).
    fn histogram_and_recorder(
        cfg: &crate::histogram::config::picollo_histogram_config,
        version: u32,
    ) -> (*mut crate::histogram::picollo_histogram, picollo_recorder) {
        let mut h = std::ptr::null_mut();
        // SAFETY: a valid config and out-pointer.
        let created = unsafe { picollo_histogram_new(cfg, &mut h) };
        assert_eq!(created, picollo_status::Ok);
        let mut r = std::mem::MaybeUninit::<picollo_recorder>::uninit();
        // SAFETY: a live handle and room for a recorder.
        let status = unsafe { picollo_histogram_get_recorder(h, version, r.as_mut_ptr()) };
        assert_eq!(status, picollo_status::Ok);
        // SAFETY: written on success.
        (h, unsafe { r.assume_init() })
    }

    /// The inline record's contract (cells, `first_index`, `limit`, `kind`), with the bucket
    /// found by the library's own layout rebuilt from the recorder's fields: the header's
    /// arithmetic itself is tested in C against the table the layout writes.
    fn record_inline(r: &picollo_recorder, v: u64) {
        let layout = Layout::from_block_scale(r.block_scale)
            .and_then(|l| l.with_unit_scale(r.fine_scale - r.block_scale))
            .unwrap();
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

    fn info(h: *mut crate::histogram::picollo_histogram) -> picollo_histogram_info {
        let mut info = picollo_histogram_info::default();
        // SAFETY: a live handle and a valid out-pointer.
        let status = unsafe { crate::histogram::picollo_histogram_get_info(h, &mut info) };
        assert_eq!(status, picollo_status::Ok);
        info
    }

    #[test]
    fn the_recorder_counts_like_the_library_in_every_width_and_mode() {
        for (bits, mode, unit) in (0..16u32).map(|i| (32 << (i & 1), i / 2 % 4, 1 + 999 * (i / 8)))
        {
            let mut cfg = picollo_histogram_config_default();
            cfg.counter_bits = bits;
            cfg.mode = mode;
            cfg.lowest_discernible = u64::from(unit);
            cfg.min_trackable = 10;
            cfg.max_trackable = 1_000_000;
            let (h, r) = histogram_and_recorder(&cfg, PICOLLO_RECORDER_VERSION);
            let expected_kind = match mode {
                0 | 2 => picollo_recorder_kind::Plain,
                1 => picollo_recorder_kind::Atomic,
                _ => picollo_recorder_kind::Call,
            };
            assert_eq!(r.kind, expected_kind as u32, "mode {mode}");
            let unit_scale = unit.ilog2();
            assert_eq!(
                (r.counter_bits, r.fine_scale),
                (bits, r.block_scale + unit_scale)
            );
            let (twin, _) = histogram_and_recorder(&cfg, PICOLLO_RECORDER_VERSION);
            for v in [
                0, 5, 10, 999, 1_000, 123_456, 262_144, 300_000, 1_000_000, 2_000_000,
            ] {
                record_inline(&r, v);
                // SAFETY: a live handle.
                unsafe { crate::histogram::picollo_histogram_record(twin, v) };
            }
            let (i, t) = (info(h), info(twin));
            assert_eq!(i.total + i.underflow + i.overflow, 10);
            let counts = |i: picollo_histogram_info| (i.total, i.underflow, i.overflow);
            assert_eq!(counts(i), counts(t), "{bits} {mode} {unit}");
            let ranks = [0.0, 30.0, 50.0, 70.0, 100.0];
            let percentiles = |h| {
                let mut out = [crate::histogram::types::picollo_percentile::default(); 5];
                // SAFETY: a live handle, 5 ranks and 5 slots.
                let status = unsafe {
                    crate::histogram::query::picollo_histogram_percentiles(
                        h,
                        ranks.as_ptr(),
                        5,
                        out.as_mut_ptr(),
                    )
                };
                (status, format!("{out:?}"))
            };
            assert_eq!(percentiles(h), percentiles(twin), "{bits} {mode} {unit}");
            // SAFETY: created above, freed once.
            unsafe { picollo_histogram_free(twin) };
            // SAFETY: created above, freed once.
            unsafe { picollo_histogram_free(h) };
        }
    }

    #[test]
    fn a_header_without_the_unit_gets_the_call_kind_for_unit_layouts_only() {
        for unit in [1, 1000] {
            let mut cfg = picollo_histogram_config_default();
            cfg.lowest_discernible = unit;
            let (h, r) = histogram_and_recorder(&cfg, 1);
            let plain = picollo_recorder_kind::Plain as u32;
            let call = picollo_recorder_kind::Call as u32;
            assert_eq!(r.kind, if unit == 1 { plain } else { call });
            assert_eq!(r.cells.is_null(), unit != 1);
            // SAFETY: created above, freed once.
            unsafe { picollo_histogram_free(h) };
        }
    }

    #[test]
    fn an_atomic_add_at_the_limit_is_taken_back_and_recorded_by_the_library() {
        let mut cfg = picollo_histogram_config_default();
        cfg.counter_bits = 32;
        cfg.mode = 1;
        cfg.max_trackable = 1_000_000;
        let (h, r) = histogram_and_recorder(&cfg, PICOLLO_RECORDER_VERSION);
        assert_eq!(r.kind, picollo_recorder_kind::Atomic as u32);
        let info = |h| {
            let i = info(h);
            (i.total, i.saturated)
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
        let cfg = picollo_histogram_config_default();
        let (h, _) = histogram_and_recorder(&cfg, PICOLLO_RECORDER_VERSION);
        for (version, expected) in [
            (0, picollo_status::InvalidArgument),
            (PICOLLO_RECORDER_VERSION + 1, picollo_status::Unsupported),
            (u32::MAX, picollo_status::Unsupported),
        ] {
            // SAFETY: a live handle, valid out-pointer.
            let status = unsafe { picollo_histogram_get_recorder(h, version, r.as_mut_ptr()) };
            assert_eq!(status, expected, "version {version}");
        }
        // SAFETY: created above, freed once.
        unsafe { picollo_histogram_free(h) };
    }
}
