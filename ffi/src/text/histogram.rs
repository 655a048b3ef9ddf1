//! Text of a histogram into caller buffers: `picollo_histogram_table`,
//! `picollo_histogram_text` and `picollo_float_histogram_text`, which pick the format by a
//! `picollo_text_format` (through the export table, `text/format.rs`), and
//! `picollo_histogram_hgrm`, HdrHistogram's percentile distribution.

use std::ffi::c_char;

use picollo_core::HgrmOptions;

use crate::args::try_str;
use crate::boundary::boundary;
use crate::buffer::write_text;
use crate::choice::choice;
use crate::enums::picollo_text_format;
use crate::error::Failure;
use crate::float::picollo_float_histogram;
use crate::handle::{try_ref, Castable};
use crate::histogram::picollo_histogram;
use crate::status::picollo_status;
use crate::text::fmt_internal;
use crate::text::format::{self, Export};

/// The body of the text functions of a histogram: the histogram behind `h` in the export
/// format that the `picollo_text_format` number `format` names, under `title` (NULL: ""),
/// written by `write` into the buffer arguments.
///
/// # Safety
/// The exported function's pointer contract for `h`, `title` and the buffer.
pub(crate) unsafe fn histogram_text<H: Castable>(
    h: *const H,
    format: u32,
    title: *const c_char,
    (buf, len, needed): (*mut c_char, usize, *mut usize),
    write: Export<H>,
) -> picollo_status {
    boundary!({
        let h = try_ref!(h)?;
        let (name, titled) = choice::<picollo_text_format>(format, "format")?.export_name();
        let title = try_str!(title, or "")?;
        let option = titled.map(|option| (option, title));
        let bytes = write(h, name, option.as_slice())?;
        let text = String::from_utf8(bytes).map_err(|_| fmt_internal(std::fmt::Error))?;
        write_text!(&text, buf, len, needed)
    })
}

/// Writes the Markdown table of `h`'s summary into `buf`, headed `##### title` unless NULL or "".
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_table(
    h: *const picollo_histogram,
    title: *const c_char,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> picollo_status {
    // SAFETY: forwarded contract: the same arguments.
    unsafe {
        picollo_histogram_text(
            h,
            picollo_text_format::Table as u32,
            title,
            buf,
            len,
            needed,
        )
    }
}

/// Writes `h`'s summary into `buf` in `format` (a `picollo_text_format`), with `title` (may be
/// NULL). Errors: NULL `h`; `INVALID_ARGUMENT` for a format; `INVALID_UTF8`; `BUFFER_TOO_SMALL`.
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_text(
    h: *const picollo_histogram,
    format: u32,
    title: *const c_char,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> picollo_status {
    let write: Export<picollo_histogram> = |h, name, o| format::integer(h, name, o);
    // SAFETY: forwarded contract.
    unsafe { histogram_text(h, format, title, (buf, len, needed), write) }
}

/// Writes `h`'s summary into `buf` in `format` (a `picollo_text_format`), with `title` (may be
/// NULL), as `picollo_histogram_text` does.
#[no_mangle]
pub unsafe extern "C" fn picollo_float_histogram_text(
    h: *const picollo_float_histogram,
    format: u32,
    title: *const c_char,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> picollo_status {
    // SAFETY: forwarded contract.
    unsafe { histogram_text(h, format, title, (buf, len, needed), format::float) }
}

/// Writes HdrHistogram's `.hgrm` percentile distribution of `h` into `buf`. Errors: NULL `h`;
/// `INVALID_ARGUMENT` for ticks outside 1..10000 or a bad `unit_ratio`; `BUFFER_TOO_SMALL`.
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_hgrm(
    h: *const picollo_histogram,
    ticks_per_half_distance: u32,
    unit_ratio: f64,
    csv: u32,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> picollo_status {
    boundary!({
        let h = try_ref!(h)?;
        let options = HgrmOptions {
            ticks_per_half_distance,
            unit_ratio,
            csv: csv != 0,
        }
        .check()
        .map_err(Failure::invalid)?;
        let text = h.with_view(|view| view.as_view().to_hgrm(&options))?;
        write_text!(&text, buf, len, needed)
    })
}

#[cfg(test)]
mod tests {
    use std::ffi::CStr;
    use std::ptr;

    use super::*;
    use crate::histogram::config::picollo_histogram_config_default;
    use crate::histogram::query::picollo_histogram_summary;
    use crate::histogram::types::picollo_summary;
    use crate::histogram::{
        picollo_histogram_free, picollo_histogram_new, picollo_histogram_record,
    };
    use crate::text::{picollo_summary_json, picollo_summary_line};

    /// The text one writer puts into a large buffer.
    fn text(write: impl FnOnce(*mut c_char, usize) -> picollo_status) -> String {
        let mut buf = vec![0 as c_char; 1 << 16];
        assert_eq!(write(buf.as_mut_ptr(), buf.len()), picollo_status::Ok);
        // SAFETY: the writer NUL-terminated the buffer.
        let s = unsafe { CStr::from_ptr(buf.as_ptr()) };
        s.to_str().expect("UTF-8").to_string()
    }

    #[test]
    fn every_format_matches_its_own_function() {
        let config = picollo_histogram_config_default();
        let mut h = ptr::null_mut();
        let title = c"latency".as_ptr();
        // SAFETY: valid pointers throughout; the handle is freed once.
        unsafe {
            assert_eq!(picollo_histogram_new(&config, &mut h), picollo_status::Ok);
            for v in 1..=1000 {
                picollo_histogram_record(h, v * 37);
            }
            let mut summary = std::mem::zeroed::<picollo_summary>();
            assert_eq!(
                picollo_histogram_summary(h, &mut summary),
                picollo_status::Ok
            );
            let of = |format: picollo_text_format| {
                text(|buf, len| {
                    picollo_histogram_text(h, format as u32, title, buf, len, ptr::null_mut())
                })
            };
            let table =
                text(|buf, len| picollo_histogram_table(h, title, buf, len, ptr::null_mut()));
            let line = text(|b, l| picollo_summary_line(&summary, title, b, l, ptr::null_mut()));
            let json = text(|b, l| picollo_summary_json(&summary, b, l, ptr::null_mut()));
            assert_eq!(of(picollo_text_format::Table), table);
            assert_eq!(of(picollo_text_format::OneLine), line);
            assert_eq!(of(picollo_text_format::Json), json);

            let mut needed = 0;
            let status = picollo_histogram_text(h, 3, title, ptr::null_mut(), 0, &mut needed);
            assert_eq!(status, picollo_status::InvalidArgument);
            let status =
                picollo_histogram_text(ptr::null(), 0, title, ptr::null_mut(), 0, &mut needed);
            assert_eq!(status, picollo_status::NullPointer);
            let status = picollo_histogram_text(h, 2, title, ptr::null_mut(), 0, &mut needed);
            assert_eq!(
                (status, needed),
                (picollo_status::BufferTooSmall, json.len())
            );
            picollo_histogram_free(h);
        }
    }

    #[test]
    fn hgrm_is_the_cores_text_with_its_options_checked() {
        use picollo_core::{Config, HgrmOptions, Histogram as CoreHistogram};

        use crate::testing::{last_error, text_of, Handle, THREE_DIGITS};

        let h = Handle::new(32, THREE_DIGITS, 0);
        let mut core: CoreHistogram<u64, Vec<u64>> = Config::new()
            .with_relative_error(THREE_DIGITS)
            .build()
            .unwrap();
        for v in (1..20_000u64).map(|i| i * 97 % 1_000_003) {
            // SAFETY: a live handle.
            unsafe { picollo_histogram_record(h.0, v) };
            core.record(v);
        }
        for (ticks, ratio, csv) in [(5, 1.0, 0), (1, 1000.0, 0), (3, 1e6, 1), (20, 0.5, 7)] {
            let text = text_of(|buf, len, needed| {
                // SAFETY: the buffer arguments come from `text_of`.
                unsafe { picollo_histogram_hgrm(h.0, ticks, ratio, csv, buf, len, needed) }
            });
            let options = HgrmOptions {
                ticks_per_half_distance: ticks,
                unit_ratio: ratio,
                csv: csv != 0,
            };
            assert_eq!(text, core.view().to_hgrm(&options));
            assert_eq!(text.starts_with("\"Value\""), csv != 0);
        }
        let mut needed = 0;
        for (ticks, ratio, why) in [
            (0, 1.0, "ticks_per_half_distance is 0"),
            (10_001, 1.0, "ticks_per_half_distance is 10001"),
            (u32::MAX, 1.0, "1 to 10000"),
            (5, 0.0, "unit_ratio 0.0"),
            (5, -1.0, "unit_ratio -1.0"),
            (5, f64::NAN, "unit_ratio NaN"),
            (5, f64::INFINITY, "unit_ratio inf"),
        ] {
            // SAFETY: a size query.
            let status = unsafe {
                picollo_histogram_hgrm(h.0, ticks, ratio, 0, ptr::null_mut(), 0, &mut needed)
            };
            assert_eq!(status, picollo_status::InvalidArgument, "{why}");
            assert!(last_error().contains(why), "{} lacks {why}", last_error());
        }
        // A huge ratio is valid (every value prints as 0).
        // SAFETY: a size query.
        let status =
            unsafe { picollo_histogram_hgrm(h.0, 5, 1e300, 0, ptr::null_mut(), 0, &mut needed) };
        assert_eq!(status, picollo_status::BufferTooSmall);
        // SAFETY: a NULL handle is refused.
        let status = unsafe {
            picollo_histogram_hgrm(ptr::null(), 5, 1.0, 0, ptr::null_mut(), 0, &mut needed)
        };
        assert_eq!(status, picollo_status::NullPointer);
    }
}
