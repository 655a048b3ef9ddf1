//! HdrHistogram's V2 encoding: `picollo_histogram_encode_v2`, `_decode_v2` and `_add_v2`,
//! and what the interval log functions share with them (the status of a `V2Error`, a
//! decoded histogram behind a new handle).

use picollo_core::concurrent::{CounterBits, Mode};
use picollo_core::hdr::{self, V2Error};

use crate::any_histogram::{config_error, dispatch_view, merge_error, Histogram};
use crate::args::try_slice;
use crate::boundary::boundary;
use crate::buffer::{copy_text, write_bytes};
use crate::error::Failure;
use crate::handle::{set_boxed, try_mut, try_ref};
use crate::histogram::picollo_histogram;
use crate::status::picollo_status;

/// A form of HdrHistogram's V2 encoding (`picollo_histogram_encode_v2`).
#[allow(non_camel_case_types)]
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum picollo_v2_form {
    /// Uncompressed V2 bytes (cookie 0x1c849313).
    Plain = 0,
    /// zlib-compressed V2 bytes (cookie 0x1c849314), what HdrHistogram's
    /// `encodeIntoCompressedByteBuffer` writes.
    Compressed = 1,
    /// The base64 text of the compressed form (`"HISTFAAA..."`), what interval logs carry
    /// and HdrHistogram's `encode()` functions return.
    Base64 = 2,
}

impl picollo_v2_form {
    fn from_u32(form: u32) -> Result<Self, Failure> {
        Ok(match form {
            0 => picollo_v2_form::Plain,
            1 => picollo_v2_form::Compressed,
            2 => picollo_v2_form::Base64,
            _ => {
                return Err(Failure::invalid(format_args!(
                    "form {form} is unknown: it must be a picollo_v2_form (0 plain, 1 \
                     compressed, 2 base64)"
                )))
            }
        })
    }
}

/// The status of a V2 failure: what cannot be written is `UNENCODABLE`, a failed allocation
/// `OUT_OF_MEMORY`, anything else a bad input (`FORMAT_ERROR`).
pub(crate) fn v2_status(e: &V2Error) -> picollo_status {
    match e {
        V2Error::OutOfMemory(_) => picollo_status::OutOfMemory,
        V2Error::CountTooLarge { .. } | V2Error::Saturated(_) | V2Error::ValueTooLarge(_) => {
            picollo_status::Unencodable
        }
        _ => picollo_status::FormatError,
    }
}

/// A V2 failure with its status (see [`v2_status`]) and the core's message.
pub(crate) fn v2_error(e: V2Error) -> Failure {
    Failure::new(v2_status(&e), e)
}

/// A decoded histogram (or a log's sum) as the value of a new handle: same layout and range,
/// 64-bit counters, single-writer mode.
pub(crate) fn handle_of(h: &picollo_core::Histogram<u64, Vec<u64>>) -> Result<Histogram, Failure> {
    let handle = Histogram::with_shape(h.shape(), CounterBits::U64, Mode::SingleWriter)
        .map_err(config_error)?;
    handle.add_view(&h.view()).map_err(merge_error)?;
    Ok(handle)
}

/// The V2 blob a caller passed: binary, or the base64 text of one.
fn blob_of(data: &[u8]) -> Result<std::borrow::Cow<'_, [u8]>, Failure> {
    hdr::binary_or_base64(data).map_err(v2_error)
}

/// Encodes `h` in HdrHistogram's V2 format, in the `form` given (a `picollo_v2_form`), so
/// that any HdrHistogram implementation (Java, C, Rust, Python `hdrh`, JavaScript, .NET)
/// can decode it.
///
/// - `PICOLLO_V2_FORM_PLAIN`, `PICOLLO_V2_FORM_COMPRESSED`: binary bytes, no NUL. `*needed`
///   (if not NULL) receives the byte count; when `len` is smaller, `BUFFER_TOO_SMALL` and
///   nothing is written (a truncated blob is useless). `(NULL, 0)` asks for the size.
/// - `PICOLLO_V2_FORM_BASE64`: the base64 text of the compressed form, written like every
///   text function: at most `len − 1` bytes and a NUL, `*needed` = the length without the
///   NUL, `BUFFER_TOO_SMALL` when truncated, `(NULL, 0)` asks for the size.
///
/// Layouts: a histogram whose relative error is that of HdrHistogram's 1 to 5 significant
/// digits (block size 16, 128, 1024, 16384, 131072; e.g. relative error 0.5/1024 for 3
/// digits) encodes bucket for bucket; any other layout encodes at the nearest finer
/// HdrHistogram layout, each count at its bucket's midpoint. Underflow and overflow counts
/// are written as values just outside the trackable range.
///
/// Errors: NULL `h`; `INVALID_ARGUMENT` for an unknown form; `UNENCODABLE` (nothing
/// written) for saturated counts, a bucket count above 2^63 − 1 or a non-empty bucket above
/// 2^63 − 1; `BUFFER_TOO_SMALL`; `NULL_POINTER` for a NULL `buf` with a non-zero `len`.
///
/// # Safety
/// `h` is NULL or a live handle; `buf` is NULL or has `len` writable bytes; `needed` is NULL
/// or writable.
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_encode_v2(
    h: *const picollo_histogram,
    form: u32,
    buf: *mut u8,
    len: usize,
    needed: *mut usize,
) -> picollo_status {
    boundary!({
        let h = try_ref!(h)?;
        let form = picollo_v2_form::from_u32(form)?;
        if form == picollo_v2_form::Base64 {
            let text = h
                .with_view(|view| dispatch_view!(view, v => v.encode_v2_base64()))?
                .map_err(v2_error)?;
            // SAFETY: the caller promises that `buf` is NULL or has `len` writable bytes and
            // `needed` is NULL or writable (this function's `# Safety`).
            return unsafe { copy_text(&text, buf.cast(), len, needed, "buf") };
        }
        let compressed = form == picollo_v2_form::Compressed;
        let bytes = h
            .with_view(|view| {
                dispatch_view!(view, v => match compressed {
                    true => v.encode_v2_compressed(),
                    false => v.encode_v2(),
                })
            })?
            .map_err(v2_error)?;
        write_bytes!(&bytes, buf, len, needed)
    })
}

/// Decodes an HdrHistogram V2 histogram into a new histogram: on success `*out` holds a
/// handle for `picollo_histogram_free` (64-bit counters, single-writer mode).
///
/// `data` holds `len` bytes (no NUL terminator is needed): plain V2, compressed V2 (told apart
/// by their cookie), or the base64 text of either: data whose first byte is not that of an
/// HdrHistogram cookie (0x1c; 0x0c for a `DoubleHistogram`, refused) is read as base64, with
/// surrounding ASCII whitespace ignored. The histogram has the layout of the header's significant digits
/// (relative error 2^-5, 2^-8, 2^-11, 2^-15 or 2^-18 for 1 to 5 digits) and covers 0 up to
/// the header's highest trackable value at least; every count of the input is kept.
///
/// Errors: NULL `out`, NULL `data` with a non-zero `len`; `FORMAT_ERROR` for anything that
/// is not a V2 histogram (the message says why: bad base64, unknown cookie, an older
/// encoding, a `DoubleHistogram`, truncated or corrupt data, a range beyond the decoder's
/// limit of 2^23 counters); `OUT_OF_MEMORY`.
///
/// # Safety
/// `data` is NULL or points to `len` readable bytes; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_decode_v2(
    data: *const u8,
    len: usize,
    out: *mut *mut picollo_histogram,
) -> picollo_status {
    boundary!({
        let data = try_slice!(data, len)?;
        let out = try_mut!(out)?;
        let decoded = hdr::decode(&blob_of(data)?).map_err(v2_error)?;
        set_boxed(out, handle_of(&decoded.histogram)?);
        Ok(())
    })
}

/// Adds the counts of an HdrHistogram V2 histogram (the forms `picollo_histogram_decode_v2`
/// accepts) into `h`, whatever its layout, counter width and mode: each HdrHistogram
/// bucket's count is recorded at the bucket's midpoint, landing in `h`'s bucket of that value
/// (or its underflow/overflow), like `picollo_histogram_record_n` (threads: see
/// `picollo_histogram`). Exact when the layouts match. The input is checked whole first: on
/// error nothing was added.
///
/// Errors: NULL `h`, NULL `data` with a non-zero `len`; `FORMAT_ERROR` as
/// `picollo_histogram_decode_v2`; `OUT_OF_MEMORY` for a compressed input that cannot be
/// inflated.
///
/// # Safety
/// `h` is NULL or a live handle; `data` is NULL or points to `len` readable bytes.
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_add_v2(
    h: *mut picollo_histogram,
    data: *const u8,
    len: usize,
) -> picollo_status {
    boundary!({
        let h = try_ref!(h)?;
        let data = try_slice!(data, len)?;
        h.add_v2(&blob_of(data)?).map_err(v2_error)
    })
}
