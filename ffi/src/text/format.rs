//! Every export format by its name (`core`'s table, `picollo::export`):
//! `picollo_histogram_format`, `picollo_float_histogram_format`, the names
//! (`picollo_format_names`) and whether a format writes bytes (`picollo_format_binary`).
//! The summary texts chosen by a `picollo_text_format` number go through the same table.

use std::ffi::c_char;

use picollo_core::export::{self, ExportError, ExportErrorKind, FORMATS};

use crate::args::{out, try_str};
use crate::boundary::boundary;
use crate::buffer::{copy_bytes, copy_text, write_text, CallerBuffer};
use crate::enums::picollo_text_format;
use crate::error::Failure;
use crate::float::{picollo_float_histogram, AnyFloat};
use crate::handle::{try_ref, Castable};
use crate::histogram::any::{config_error, merge_error, AnyView, Histogram};
use crate::histogram::picollo_histogram;
use crate::metrics::{copy_of, picollo_label, try_labels};
use crate::status::picollo_status;

/// What writes the histogram behind a handle of type `H` in a format, by name, with options.
pub(crate) type Export<H> =
    fn(&<H as Castable>::RustType, &str, &[(&str, &str)]) -> Result<Vec<u8>, Failure>;

/// The status of an export failure: a name, option or kind of histogram the format refuses is
/// `INVALID_ARGUMENT`; what the format cannot encode `UNENCODABLE`.
fn export_error(e: ExportError) -> Failure {
    let status = match e.kind {
        ExportErrorKind::UnknownFormat
        | ExportErrorKind::InvalidOption
        | ExportErrorKind::Unsupported => picollo_status::InvalidArgument,
        ExportErrorKind::Unencodable => picollo_status::Unencodable,
        ExportErrorKind::OutOfMemory => picollo_status::OutOfMemory,
    };
    Failure::new(status, e.message)
}

/// `h` in format `name`: one consistent copy of its counts, read as 64-bit counts.
pub(crate) fn integer(h: &Histogram, name: &str, o: &[(&str, &str)]) -> Result<Vec<u8>, Failure> {
    let copy = copy_of(h)?;
    match copy.view() {
        AnyView::U64(v) => export::export(name, &v, o).map_err(export_error),
        AnyView::U32(v) => {
            let zeros = vec![0u64; v.shape().len()];
            let mut wide =
                picollo_core::Histogram::from_shape(v.shape(), zeros).map_err(config_error)?;
            wide.add(&v).map_err(merge_error)?;
            export::export(name, &wide.view(), o).map_err(export_error)
        }
        // A snapshot's view is a copy, never live cells.
        AnyView::LiveU32(_) | AnyView::LiveU64(_) => Err(Failure::new(
            picollo_status::Panic,
            "internal error: a snapshot gave a view of live cells",
        )),
    }
}

/// The float histogram `h` in format `name`, from one consistent copy of its counts.
pub(crate) fn float(h: &AnyFloat, name: &str, o: &[(&str, &str)]) -> Result<Vec<u8>, Failure> {
    export::export_float(name, &h.counts()?, o).map_err(export_error)
}

/// The body of the format functions: the handle `h` written by `write` in the format called
/// `name` with the `options` pairs, into the caller's buffer (text NUL-terminated, bytes
/// whole or not at all).
///
/// # Safety
/// The exported functions' pointer contract for every pointer.
unsafe fn write_format<H: Castable>(
    h: *const H,
    name: *const c_char,
    (options, option_count): (*const picollo_label, usize),
    (buf, len, needed): (*mut u8, usize, *mut usize),
    write: Export<H>,
) -> picollo_status {
    boundary!({
        let h = try_ref!(h)?;
        let name = try_str!(name)?;
        let pairs = try_labels!(options, option_count)?;
        let binary = export::format_named(name)
            .map_err(export_error)?
            .about()
            .binary;
        let bytes = write(h, name, &pairs)?;
        let out = CallerBuffer::new(buf, len, needed, "buf");
        if binary {
            // SAFETY: the caller promises that `buf` is NULL or has `len` writable bytes and
            // `needed` is NULL or writable (the pointer convention).
            return unsafe { copy_bytes(&bytes, out) };
        }
        let text = String::from_utf8(bytes).map_err(|_| {
            Failure::new(
                picollo_status::Panic,
                "internal error: a text format wrote bytes",
            )
        })?;
        // SAFETY: as above.
        unsafe { copy_text(&text, out.cast()) }
    })
}

/// Writes `h` in the export format called `name` (`picollo_format_names` lists them) with
/// `option_count` options given as (name, value) strings, into `buf`: text formats as
/// NUL-terminated text, binary ones (`picollo_format_binary`) as bytes, whole or not at all
/// (docs/c-api.md, "Formats by name"). Errors: NULL `h` or `name`, or options with a count;
/// `INVALID_UTF8`; `INVALID_ARGUMENT` for an unknown format, an option the format does not
/// take or a value it refuses (the message names it); `UNENCODABLE`; `OUT_OF_MEMORY`;
/// `BUFFER_TOO_SMALL`.
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_format(
    h: *const picollo_histogram,
    name: *const c_char,
    options: *const picollo_label,
    option_count: usize,
    buf: *mut u8,
    len: usize,
    needed: *mut usize,
) -> picollo_status {
    let (o, out) = ((options, option_count), (buf, len, needed));
    // SAFETY: forwarded contract.
    unsafe { write_format(h, name, o, out, |h, name, o| integer(h, name, o)) }
}

/// Writes the histogram of doubles `h` in the export format called `name`, as
/// `picollo_histogram_format` does. Errors: those of `picollo_histogram_format`, and
/// `INVALID_ARGUMENT` for a format with no form for doubles.
#[no_mangle]
pub unsafe extern "C" fn picollo_float_histogram_format(
    h: *const picollo_float_histogram,
    name: *const c_char,
    options: *const picollo_label,
    option_count: usize,
    buf: *mut u8,
    len: usize,
    needed: *mut usize,
) -> picollo_status {
    let (o, out) = ((options, option_count), (buf, len, needed));
    // SAFETY: forwarded contract.
    unsafe { write_format(h, name, o, out, float) }
}

/// Writes the names of the export formats into `buf`, one per line (each line ends with
/// `\n`), in the library's order. Errors: `BUFFER_TOO_SMALL`.
#[no_mangle]
pub unsafe extern "C" fn picollo_format_names(
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> picollo_status {
    boundary!({
        let names: String = FORMATS.iter().map(|f| format!("{}\n", f.name())).collect();
        write_text!(&names, buf, len, needed)
    })
}

/// Sets `*binary` to 1 when the format called `name` writes bytes that are not text (read
/// them by length), else 0. Errors: NULL `name` or `binary`; `INVALID_UTF8`;
/// `INVALID_ARGUMENT` for an unknown format.
#[no_mangle]
pub unsafe extern "C" fn picollo_format_binary(
    name: *const c_char,
    binary: *mut u32,
) -> picollo_status {
    boundary!({
        let name = try_str!(name)?;
        let format = export::format_named(name).map_err(export_error)?;
        out!(binary, u32::from(format.about().binary))
    })
}

impl picollo_text_format {
    /// The export format this number names, and the option its title sets.
    pub(crate) fn export_name(self) -> (&'static str, Option<&'static str>) {
        match self {
            picollo_text_format::Table => ("table", Some("title")),
            picollo_text_format::OneLine => ("line", Some("name")),
            picollo_text_format::Json => ("json", None),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::ptr;

    use picollo_core::{Config, Histogram as CoreHistogram};

    use super::*;
    use crate::enums::picollo_v2_form;
    use crate::histogram::picollo_histogram_record;
    use crate::testing::{last_error, text_of, Handle, THREE_DIGITS};
    use crate::text::picollo_histogram_encode_v2;

    /// `h` in format `name` with `options`, read as text through the buffer protocol.
    fn formatted(h: &Handle, name: &std::ffi::CStr, options: &[picollo_label]) -> String {
        text_of(|buf, len, needed| {
            // SAFETY: live handle, NUL-terminated name, an array of its length, the buffer
            // arguments of `text_of`.
            unsafe {
                let o = (options.as_ptr(), options.len());
                picollo_histogram_format(h.0, name.as_ptr(), o.0, o.1, buf.cast(), len, needed)
            }
        })
    }

    #[test]
    fn csv_by_name_is_the_cores_bucket_iteration_for_both_widths() {
        let mut core: CoreHistogram<u64, Vec<u64>> = Config::new()
            .with_relative_error(THREE_DIGITS)
            .build()
            .unwrap();
        let handles = [
            Handle::new(32, THREE_DIGITS, 0),
            Handle::new(64, THREE_DIGITS, 1),
        ];
        for v in (1..5_000u64).map(|i| i * 7919 % 100_003) {
            core.record(v);
            for h in &handles {
                // SAFETY: a live handle.
                unsafe { picollo_histogram_record(h.0, v) };
            }
        }
        let mut rows = String::from("lower,upper,count\n");
        for b in core.view().buckets().filter(|b| b.count != 0) {
            rows += &format!("{},{},{}\n", b.lower, b.highest, b.count);
        }
        for h in &handles {
            assert_eq!(formatted(h, c"csv", &[]), rows);
        }
    }

    /// `(name, value)` pairs as the C ABI's labels.
    fn labels(pairs: &[(&std::ffi::CStr, &std::ffi::CStr)]) -> Vec<picollo_label> {
        let label = |&(k, v): &(&std::ffi::CStr, &std::ffi::CStr)| picollo_label {
            name: k.as_ptr(),
            value: v.as_ptr(),
        };
        pairs.iter().map(label).collect()
    }

    #[test]
    fn openmetrics_by_name_is_the_typed_calls_text_for_both_widths() {
        use crate::metrics::{picollo_histogram_openmetrics, picollo_openmetrics_options_default};
        for bits in [32, 64] {
            let h = Handle::new(bits, THREE_DIGITS, 0);
            for v in (1..3_000u64).map(|i| i * 7919 % 1_000_003) {
                // SAFETY: a live handle.
                unsafe { picollo_histogram_record(h.0, v) };
            }
            let point = labels(&[(c"host", c"a")]);
            let mut o = picollo_openmetrics_options_default();
            (o.unit_ratio, o.coarse_relative_error, o.summary) = (1e6, 0.1, 1);
            let typed = text_of(|buf, len, needed| {
                // SAFETY: live handle, NUL-terminated strings, arrays of their lengths,
                // the buffer arguments of `text_of`.
                unsafe {
                    let (name, unit) = (c"lat_ms".as_ptr(), c"ms".as_ptr());
                    let l = (point.as_ptr(), point.len());
                    picollo_histogram_openmetrics(
                        h.0,
                        name,
                        ptr::null(),
                        unit,
                        l.0,
                        l.1,
                        &o,
                        buf,
                        len,
                        needed,
                    )
                }
            });
            let options = labels(&[
                (c"name", c"lat_ms"),
                (c"unit", c"ms"),
                (c"unit_ratio", c"1e6"),
                (c"coarse_relative_error", c"0.1"),
                (c"summary", c"true"),
                (c"label.host", c"a"),
            ]);
            assert_eq!(
                formatted(&h, c"openmetrics", &options),
                typed,
                "{bits} bits"
            );
        }
    }

    #[test]
    fn binary_formats_are_bytes_and_refusals_say_why() {
        let h = Handle::new(64, THREE_DIGITS, 0);
        // SAFETY: a live handle.
        unsafe { picollo_histogram_record(h.0, 12_345) };
        let mut by_name = vec![0u8; 4096];
        let mut by_form = vec![0u8; 4096];
        let (mut n, mut m, mut binary) = (0, 0, 7);
        // SAFETY: live handle, NUL-terminated strings, buffers of their lengths.
        unsafe {
            let status = picollo_histogram_format(
                h.0,
                c"hdr-v2".as_ptr(),
                ptr::null(),
                0,
                by_name.as_mut_ptr(),
                by_name.len(),
                &mut n,
            );
            assert_eq!(status, picollo_status::Ok);
            let form = picollo_v2_form::Compressed as u32;
            let len = by_form.len();
            let status = picollo_histogram_encode_v2(h.0, form, by_form.as_mut_ptr(), len, &mut m);
            assert_eq!(status, picollo_status::Ok);
            assert_eq!(by_name[..n], by_form[..m]);
            let status = picollo_format_binary(c"hdr-v2".as_ptr(), &mut binary);
            assert_eq!((status, binary), (picollo_status::Ok, 1));
            let status = picollo_format_binary(c"csv".as_ptr(), &mut binary);
            assert_eq!((status, binary), (picollo_status::Ok, 0));
            let status = picollo_format_binary(c"zip".as_ptr(), &mut binary);
            assert_eq!(status, picollo_status::InvalidArgument);
        }
        let names = text_of(|buf, len, needed| {
            // SAFETY: the buffer arguments of `text_of`.
            unsafe { picollo_format_names(buf, len, needed) }
        });
        let names: Vec<&str> = names.lines().collect();
        assert!(
            names.contains(&"csv") && names.contains(&"hdr-v2"),
            "{names:?}"
        );
        for (name, option, why) in [
            (c"zip", None, "no format is called \"zip\""),
            (c"csv", Some((c"title", c"x")), "takes no option \"title\""),
            (c"hgrm", Some((c"csv", c"maybe")), "\"maybe\" is not a bool"),
        ] {
            let labels: Vec<picollo_label> = option
                .map(|(k, v)| picollo_label {
                    name: k.as_ptr(),
                    value: v.as_ptr(),
                })
                .into_iter()
                .collect();
            let mut needed = 0;
            // SAFETY: live handle, NUL-terminated strings, an array of its length.
            let status = unsafe {
                let o = (labels.as_ptr(), labels.len());
                picollo_histogram_format(
                    h.0,
                    name.as_ptr(),
                    o.0,
                    o.1,
                    ptr::null_mut(),
                    0,
                    &mut needed,
                )
            };
            assert_eq!(status, picollo_status::InvalidArgument, "{why}");
            assert!(last_error().contains(why), "{} lacks {why}", last_error());
        }
    }
}
