//! `picollo_float_histogram_*`: the histogram of doubles (negative and positive, a zero
//! bucket, NaN and infinities apart, exact extremes and sum). Create, record, reset,
//! merge, facts. Its queries stand beside the integer histogram's, one idea a module:
//! percentiles and summaries in `query`, buckets in `buckets`, queries by value in
//! `lookup`, text in `text`, snapshots in `snapshot`.

use picollo_core::float::{FloatConfig, FloatCounts, FloatHistogram, Mode, Storage};

use crate::args::{create, query, try_slice, StructSized};
use crate::boundary::boundary;
use crate::choice::choice;
use crate::enums::{picollo_float_mode, picollo_float_storage};
use crate::error::Failure;
use crate::handle::{free_boxed, hot_ref, try_ref};
use crate::histogram::any::config_error;
use crate::histogram::types::picollo_float_info;
use crate::status::picollo_status;

/// A histogram of doubles of both signs (opaque; docs/c-api.md, "Float histograms"). Threads:
/// queries on any thread; records as the mode allows; `_free` races no other call.
pub struct picollo_float_histogram {
    _private: [u8; 0],
}

crate::handle::boxed!(picollo_float_histogram => AnyFloat);

/// The histogram behind a handle, of either counter width.
pub(crate) enum AnyFloat {
    U32(FloatHistogram<u32>),
    U64(FloatHistogram<u64>),
}

/// Run the same expression on whichever counter width `$h` has.
macro_rules! each_float {
    ($h:expr, $f:ident => $e:expr) => {
        match $h {
            $crate::float::AnyFloat::U32($f) => $e,
            $crate::float::AnyFloat::U64($f) => $e,
        }
    };
}
pub(crate) use each_float;

/// `merge_floats!(dst, src, op)`: the body of a call that merges the float histogram `src`
/// into `dst` with the core's `FloatHistogram::op`, whatever the two counter widths.
macro_rules! merge_floats {
    ($dst:ident, $src:ident, $op:ident) => {
        // SAFETY: the exported function's `# Safety` section makes the caller promise that
        // `$dst` and `$src` are NULL or live handles.
        unsafe {
            $crate::histogram::merge_into($dst, $src, |d, s| {
                $crate::float::each_float!(d, d => $crate::float::each_float!(s, s => d.$op(s)))
                    .map_err($crate::histogram::any::merge_error)
            })
        }
    };
}
pub(crate) use merge_floats;

impl AnyFloat {
    /// One consistent copy of the counts.
    pub(crate) fn counts(&self) -> Result<FloatCounts, Failure> {
        Ok(each_float!(self, h => h.counts())?)
    }
}

/// Configuration for `picollo_float_histogram_new`: start from `picollo_float_config_default`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct picollo_float_config {
    /// `sizeof(picollo_float_config)` as the caller knows it (docs/c-api.md, "Config structs").
    pub struct_size: u32,
    /// Counter width: 32 or 64 bits.
    pub counter_bits: u32,
    /// Tolerated relative error, e.g. 0.001 for 0.1 %: finite and above 0; clamped to [1e-6, 0.1].
    pub relative_error: f64,
    /// Smallest magnitude kept in buckets, above 0 (subnormals allowed); smaller ones underflow.
    pub min_magnitude: f64,
    /// Largest magnitude kept in buckets, finite, at least `min_magnitude`; larger ones overflow.
    pub max_magnitude: f64,
    /// A `picollo_float_storage` value.
    pub storage: u32,
    /// A `picollo_float_mode` value.
    pub mode: u32,
    /// A `picollo_value_selection` value.
    pub value_selection: u32,
    /// Reserved: must be zero.
    pub reserved: u32,
}

// SAFETY: `#[repr(C)]`, `struct_size: u32` first, integers and floats only.
crate::args::struct_sized!(picollo_float_config);

/// Returns the default configuration: u64 counters, relative error 0.001, every finite
/// magnitude, sparse storage, single writer, midpoints.
#[no_mangle]
pub extern "C" fn picollo_float_config_default() -> picollo_float_config {
    let d = FloatConfig::new();
    picollo_float_config {
        counter_bits: 64,
        relative_error: d.relative_error(),
        min_magnitude: d.min_magnitude(),
        max_magnitude: d.max_magnitude(),
        storage: picollo_float_storage::Sparse as u32,
        mode: picollo_float_mode::SingleWriter as u32,
        ..picollo_float_config::sized()
    }
}

fn parse_config(cfg: &picollo_float_config) -> Result<(FloatConfig, u32), Failure> {
    let counter_bits = crate::convert::config_counter_bits(cfg.counter_bits)?;
    let storage = match choice(cfg.storage, "storage")? {
        picollo_float_storage::Dense => Storage::Dense,
        picollo_float_storage::Sparse => Storage::Sparse,
    };
    let mode = match choice(cfg.mode, "mode")? {
        picollo_float_mode::SingleWriter => Mode::SingleWriter,
        picollo_float_mode::Interlocked => Mode::Interlocked,
    };
    let selection = crate::convert::selection_arg(cfg.value_selection, "value_selection")?;
    if cfg.reserved != 0 {
        return Err(Failure::invalid("reserved must be 0"));
    }
    let config = FloatConfig::new()
        .with_relative_error(cfg.relative_error)
        .with_range(cfg.min_magnitude, cfg.max_magnitude)
        .with_storage(storage)
        .with_mode(mode)
        .with_value_selection(selection);
    config.validate().map_err(config_error)?;
    Ok((config, counter_bits))
}

/// Creates a float histogram from `config` in `*out`, for `picollo_float_histogram_free`.
/// Errors: NULL `config` or `out`; `STRUCT_SIZE`; `INVALID_ARGUMENT` for a field outside the
/// domain its comment in `picollo_float_config` gives; `OUT_OF_MEMORY` (dense counters).
#[no_mangle]
pub unsafe extern "C" fn picollo_float_histogram_new(
    config: *const picollo_float_config,
    out: *mut *mut picollo_float_histogram,
) -> picollo_status {
    create!(
        config,
        out = |c| {
            let (config, bits) = parse_config(&c)?;
            match bits {
                32 => AnyFloat::U32(FloatHistogram::new(config).map_err(config_error)?),
                _ => AnyFloat::U64(FloatHistogram::new(config).map_err(config_error)?),
            }
        }
    )
}

/// Frees a float histogram; NULL is ignored. Free each handle exactly once.
#[no_mangle]
pub unsafe extern "C" fn picollo_float_histogram_free(h: *mut picollo_float_histogram) {
    free_boxed!(h)
}

/// Records one value. Never fails: NaN and ±∞ are counted apart, magnitudes outside the range
/// as underflow/overflow, a full bucket as saturated; NULL is ignored.
/// cbindgen:prefix=PICOLLO_RECORD_ATTR
#[no_mangle]
pub unsafe extern "C" fn picollo_float_histogram_record(
    h: *mut picollo_float_histogram,
    value: f64,
) {
    // Every path of a float record is integer and float operations and atomic adds, or
    // (once per sparse block) a fallible allocation: nothing can panic.
    if let Some(h) = hot_ref!(h) {
        each_float!(h, h => h.record(value));
    }
}

/// Records one `float` (converted exactly). As `picollo_float_histogram_record`.
#[no_mangle]
pub unsafe extern "C" fn picollo_float_histogram_record_f32(
    h: *mut picollo_float_histogram,
    value: f32,
) {
    if let Some(h) = hot_ref!(h) {
        each_float!(h, h => h.record_f32(value));
    }
}

/// Records `count` occurrences of `value` (0 does nothing); a full bucket saturates.
/// cbindgen:prefix=PICOLLO_RECORD_ATTR
#[no_mangle]
pub unsafe extern "C" fn picollo_float_histogram_record_n(
    h: *mut picollo_float_histogram,
    value: f64,
    count: u64,
) {
    boundary!({
        let h = try_ref!(h)?;
        each_float!(h, h => h.record_n(value, count));
        Ok(())
    })
}

/// Records the `n` doubles of `values` in one call (`values` may be NULL when `n` is 0).
#[no_mangle]
pub unsafe extern "C" fn picollo_float_histogram_record_many(
    h: *mut picollo_float_histogram,
    values: *const f64,
    n: usize,
) -> picollo_status {
    boundary!({
        let h = try_ref!(h)?;
        let values = try_slice!(values, n)?;
        each_float!(h, h => h.record_many(values));
        Ok(())
    })
}

/// Records the `n` floats of `values`, each converted exactly (NULL when `n` is 0), through the
/// same batch path as `picollo_float_histogram_record_many`.
#[no_mangle]
pub unsafe extern "C" fn picollo_float_histogram_record_many_f32(
    h: *mut picollo_float_histogram,
    values: *const f32,
    n: usize,
) -> picollo_status {
    boundary!({
        let h = try_ref!(h)?;
        let values = try_slice!(values, n)?;
        // Widened a stack chunk at a time (exactly), so no allocation is made.
        let mut wide = [0f64; WIDEN_CHUNK];
        for chunk in values.chunks(WIDEN_CHUNK) {
            let wide = &mut wide[..chunk.len()];
            wide.iter_mut()
                .zip(chunk)
                .for_each(|(w, &x)| *w = f64::from(x));
            each_float!(h, h => h.record_many(wide));
        }
        Ok(())
    })
}

/// How many floats `picollo_float_histogram_record_many_f32` widens at a time (4 KiB of doubles).
const WIDEN_CHUNK: usize = 512;

/// Clears every count, the sum and the extremes (single writer: from the writing thread).
#[no_mangle]
pub unsafe extern "C" fn picollo_float_histogram_reset(
    h: *mut picollo_float_histogram,
) -> picollo_status {
    boundary!({
        each_float!(try_ref!(h)?, h => h.reset());
        Ok(())
    })
}

/// Chooses how buckets report values (a `picollo_value_selection`); any thread.
#[no_mangle]
pub unsafe extern "C" fn picollo_float_histogram_set_value_selection(
    h: *mut picollo_float_histogram,
    selection: u32,
) -> picollo_status {
    boundary!({
        let h = try_ref!(h)?;
        let s = crate::convert::selection_arg(selection, "selection")?;
        each_float!(h, h => h.set_value_selection(s));
        Ok(())
    })
}

/// Adds every count, special count, sum and extreme of `src` into `dst` (same relative error,
/// `dst` not `src`). Errors: `LAYOUT_MISMATCH`. Threads: into `dst` as records are.
#[no_mangle]
pub unsafe extern "C" fn picollo_float_histogram_add(
    dst: *mut picollo_float_histogram,
    src: *const picollo_float_histogram,
) -> picollo_status {
    merge_floats!(dst, src, add)
}

/// Writes the facts of `h` to `*out`, from one consistent copy.
#[no_mangle]
pub unsafe extern "C" fn picollo_float_histogram_get_info(
    h: *const picollo_float_histogram,
    out: *mut picollo_float_info,
) -> picollo_status {
    query!(h, out = |h| float_info(h)?)
}

/// The facts of `h`, from one consistent copy.
fn float_info(h: &AnyFloat) -> Result<picollo_float_info, Failure> {
    let counts = h.counts()?;
    let (bits, footprint) = match h {
        AnyFloat::U32(f) => (32, f.footprint_in_bytes()),
        AnyFloat::U64(f) => (64, f.footprint_in_bytes()),
    };
    let shape = counts.shape();
    let config = shape.config();
    Ok(picollo_float_info {
        total: counts.total_count(),
        zero: counts.zero_count(),
        nan: counts.nan_count(),
        positive_infinity: counts.positive_infinity_count(),
        negative_infinity: counts.negative_infinity_count(),
        underflow: counts.underflow_count(),
        overflow: counts.overflow_count(),
        saturated: counts.saturated_count(),
        sum: counts.sum(),
        min: counts.min().unwrap_or(f64::NAN),
        max: counts.max().unwrap_or(f64::NAN),
        min_magnitude: shape.range().0,
        max_magnitude: shape.range().1,
        relative_error: shape.layout().relative_error(),
        buckets_per_octave: shape.layout().buckets_per_octave() as u64,
        storage_len: shape.len() as u64,
        footprint_bytes: footprint as u64,
        counter_bits: bits,
        // A float histogram is single-writer or interlocked: its config was checked.
        mode: match config.mode() {
            Mode::Interlocked => picollo_float_mode::Interlocked as u32,
            _ => picollo_float_mode::SingleWriter as u32,
        },
        storage: match config.storage() {
            Storage::Dense => picollo_float_storage::Dense as u32,
            Storage::Sparse => picollo_float_storage::Sparse as u32,
        },
        value_selection: crate::convert::selection_to_c(counts.value_selection()),
    })
}
