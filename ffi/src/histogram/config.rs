//! `picollo_histogram_config`: the options of `picollo_histogram_new`.

use picollo_core::concurrent::{Mode, Storage};
use picollo_core::Config;

use crate::args::StructSized;
use crate::enums::{picollo_mode, picollo_storage};
use crate::error::Failure;
use crate::histogram::any::config_error;

/// Configuration for `picollo_histogram_new`, from `picollo_histogram_config_default`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct picollo_histogram_config {
    /// `sizeof(picollo_histogram_config)` as the caller knows it (docs/c-api.md, "Config structs").
    pub struct_size: u32,
    /// Counter width: 32 or 64 bits.
    pub counter_bits: u32,
    /// Tolerated relative error, e.g. 0.001 for 0.1 %: finite and above 0; clamped to [1e-6, 0.1].
    pub relative_error: f64,
    /// Smallest trackable value, to bucket resolution (smaller values count as underflow).
    pub min_trackable: u64,
    /// Largest trackable value, to bucket resolution (larger values count as overflow).
    pub max_trackable: u64,
    /// A `picollo_value_selection` value.
    pub value_selection: u32,
    /// A `picollo_mode` value: how threads may record (see `picollo_mode`).
    pub mode: u32,
    /// Threshold T of the approximate mode (exact below 2^T), 1..62, 0 for 13; 0 in other modes.
    pub approx_threshold: u32,
    /// A `picollo_storage` value: dense (0, the default) or sparse (1; not thread-local). ABI 1.6.
    pub storage: u32,
    /// 1: keep the exact extremes (`picollo_histogram_exact_extremes`); 0 (the default). ABI 1.7.
    pub exact_extremes: u32,
    /// Zero.
    pub reserved: u32,
    /// HdrHistogram's lowest discernible value L: the lowest buckets are 2^floor(log2 L) wide;
    /// 0 or 1 (the default): exact integers at the bottom (docs/c-api.md). ABI 1.11.
    pub lowest_discernible: u64,
}

// SAFETY: `#[repr(C)]`, `struct_size: u32` first, integers and a float only. ABI 1.0 to
// 1.6 ended the struct with `storage` (before 1.6 `reserved`), ABI 1.7 to 1.10 with
// `reserved`.
crate::args::struct_sized!(picollo_histogram_config, older: [exact_extremes, lowest_discernible]);

/// Returns the default configuration: u64 counters, relative error 0.001, range 0..UINT64_MAX,
/// midpoint values, single writer, dense storage, lowest discernible value 1.
#[no_mangle]
pub extern "C" fn picollo_histogram_config_default() -> picollo_histogram_config {
    picollo_histogram_config {
        counter_bits: 64,
        relative_error: picollo_core::layout::DEFAULT_RELATIVE_ERROR,
        max_trackable: u64::MAX,
        mode: picollo_mode::SingleWriter as u32,
        storage: picollo_storage::Dense as u32,
        lowest_discernible: 1,
        ..picollo_histogram_config::sized()
    }
}

/// Validate a C config into a core `Config`, the counter width, the mode and the storage.
pub(crate) fn parse_config(
    cfg: &picollo_histogram_config,
) -> Result<(Config, u32, Mode, Storage), Failure> {
    check_fields(cfg)?;
    let selection = crate::convert::selection_arg(cfg.value_selection, "value_selection")?;
    check_approx(cfg)?;
    let mode = crate::convert::mode_arg(cfg.mode, cfg.approx_threshold)?;
    let storage = crate::convert::storage_arg(cfg.storage)?;
    let config = Config::new()
        .with_relative_error(cfg.relative_error)
        .with_range(cfg.min_trackable, cfg.max_trackable)
        .with_value_selection(selection)
        .with_lowest_discernible(cfg.lowest_discernible.max(1));
    config.validate().map_err(config_error)?;
    Ok((config, cfg.counter_bits, mode, storage))
}

/// The fields with a fixed set of values: exact_extremes and reserved, counter_bits.
fn check_fields(cfg: &picollo_histogram_config) -> Result<(), Failure> {
    if cfg.exact_extremes > 1 || cfg.reserved != 0 {
        return Err(Failure::invalid(format!(
            "exact_extremes is {} and reserved {}: exact_extremes must be 0 or 1, reserved 0",
            cfg.exact_extremes, cfg.reserved
        )));
    }
    crate::convert::config_counter_bits(cfg.counter_bits).map(|_| ())
}

/// approx_threshold: 0 outside the approximate mode, at most 62.
fn check_approx(cfg: &picollo_histogram_config) -> Result<(), Failure> {
    if cfg.mode != picollo_mode::Approximate as u32 && cfg.approx_threshold != 0 {
        return Err(Failure::invalid(format!(
            "approx_threshold is {} but mode {} is not the approximate mode (3): it must be 0",
            cfg.approx_threshold, cfg.mode
        )));
    }
    if cfg.approx_threshold > 62 {
        return Err(Failure::invalid(format!(
            "approx_threshold is {}: it must be 1..62 (0 for the default, 13)",
            cfg.approx_threshold
        )));
    }
    Ok(())
}
