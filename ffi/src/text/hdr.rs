//! HdrHistogram's V2 encoding: `picollo_histogram_encode_v2`, `_decode_v2` and `_add_v2`,
//! and what the interval log functions share with them (the status of a `V2Error`, a
//! decoded histogram behind a new handle).

use picollo_core::concurrent::{CounterBits, Mode};
use picollo_core::hdr::{self, Deflate, V2Error};

use crate::args::try_slice;
use crate::boundary::boundary;
use crate::buffer::{copy_text, write_bytes, CallerBuffer};
use crate::choice::choice;
use crate::enums::picollo_v2_form;
use crate::error::Failure;
use crate::handle::{set_boxed, try_mut, try_ref};
use crate::histogram::any::{config_error, merge_error, Histogram};
use crate::histogram::picollo_histogram;
use crate::status::picollo_status;

/// The status of a V2 failure: what cannot be written is `UNENCODABLE`, a failed allocation
/// `OUT_OF_MEMORY`, anything else a bad input (`FORMAT_ERROR`).
pub(crate) fn v2_status(e: &V2Error) -> picollo_status {
    match e {
        V2Error::OutOfMemory(_) => picollo_status::OutOfMemory,
        V2Error::CountTooLarge { .. }
        | V2Error::Saturated(_)
        | V2Error::ValueTooLarge(_)
        | V2Error::UnitTooLarge(_) => picollo_status::Unencodable,
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

/// Encodes `h` in HdrHistogram's V2 format in `form` (a `picollo_v2_form`) into `buf`: binary
/// forms whole or not at all, base64 as text (docs/c-api.md, "HdrHistogram formats"). Errors:
/// NULL `h`; `INVALID_ARGUMENT` for an unknown form; `UNENCODABLE`; `BUFFER_TOO_SMALL`.
/// The compressed forms are deflated at level 1 (`picollo_histogram_encode_v2_level` chooses).
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
        // SAFETY: the caller's promises on `buf` and `needed` are this function's.
        unsafe { encode(h, form, Deflate::default(), buf, len, needed) }
    })
}

/// `picollo_histogram_encode_v2` with the compressed forms deflated at zlib `level`: 0 (stored)
/// to 9 (smallest), 10 (miniz's slower extra); 1 is the default, 6 zlib's and HdrHistogram's.
/// Every level decodes alike; the plain form ignores it. Errors: those of `_encode_v2`;
/// `INVALID_ARGUMENT` for a level above 10.
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_encode_v2_level(
    h: *const picollo_histogram,
    form: u32,
    level: u32,
    buf: *mut u8,
    len: usize,
    needed: *mut usize,
) -> picollo_status {
    boundary!({
        let h = try_ref!(h)?;
        let deflate = u8::try_from(level).ok().and_then(Deflate::level);
        let deflate = deflate.ok_or_else(|| {
            Failure::invalid(format_args!(
                "level is {level}: a deflate level is 0 (stored) to 10"
            ))
        })?;
        // SAFETY: the caller's promises on `buf` and `needed` are this function's.
        unsafe { encode(h, form, deflate, buf, len, needed) }
    })
}

/// The V2 encoding of `h` in `form` (compressed at `deflate`) written into the caller's
/// buffer: the body of both encode functions.
///
/// # Safety
/// `buf` is NULL or has `len` writable bytes; `needed` is NULL or writable.
unsafe fn encode(
    h: &Histogram,
    form: u32,
    deflate: Deflate,
    buf: *mut u8,
    len: usize,
    needed: *mut usize,
) -> Result<(), Failure> {
    let form: picollo_v2_form = choice(form, "form")?;
    if form == picollo_v2_form::Base64 {
        let text = h
            .with_view(|view| view.as_view().encode_v2_base64_with(deflate))?
            .map_err(v2_error)?;
        let out = CallerBuffer::new(buf, len, needed, "buf").cast();
        // SAFETY: the caller promises that `buf` is NULL or has `len` writable bytes and
        // `needed` is NULL or writable (this function's `# Safety`).
        return unsafe { copy_text(&text, out) };
    }
    let compressed = form == picollo_v2_form::Compressed;
    let bytes = h
        .with_view(|view| {
            let v = view.as_view();
            match compressed {
                true => v.encode_v2_compressed_with(deflate),
                false => v.encode_v2(),
            }
        })?
        .map_err(v2_error)?;
    write_bytes!(&bytes, buf, len, needed)
}

/// Decodes `len` bytes of V2 (plain, compressed or base64) into a new 64-bit single-writer
/// histogram in `*out` (the header's layout, with the unit of its lowest discernible value:
/// `picollo_histogram_get_unit`), for `picollo_histogram_free`. Errors: NULL `out`, or
/// `data` with a length; `FORMAT_ERROR` with the reason; `OUT_OF_MEMORY`.
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

/// Adds the counts of a V2 histogram (as `picollo_histogram_decode_v2` takes) into `h` at bucket
/// midpoints, all or nothing. Errors: `FORMAT_ERROR`; `OUT_OF_MEMORY`. Threads: as records are.
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_add_v2(
    h: *mut picollo_histogram,
    data: *const u8,
    len: usize,
) -> picollo_status {
    boundary!({
        let h = try_ref!(h)?.changeable("picollo_histogram_add_v2")?;
        let data = try_slice!(data, len)?;
        h.add_v2(&blob_of(data)?).map_err(v2_error)
    })
}

#[cfg(test)]
mod tests {
    use std::ptr;

    use picollo_core::{Config, Histogram as CoreHistogram};

    use super::*;
    use crate::enums::picollo_mode;
    use crate::histogram::{picollo_histogram_record, picollo_histogram_record_n};
    use crate::testing::{last_error, Handle, THREE_DIGITS};

    const SW: u32 = picollo_mode::SingleWriter as u32;

    /// A 3-digit histogram with values over several orders of magnitude.
    fn sample(bits: u32, relative_error: f64, mode: u32) -> Handle {
        let h = Handle::new(bits, relative_error, mode);
        for v in (1..5_000u64).map(|i| i * i * 7 + i) {
            // SAFETY: a live handle.
            unsafe { picollo_histogram_record(h.0, v) };
        }
        h
    }

    /// `encode_v2` of `h` in `form` into a buffer of exactly the size asked for.
    fn encode(h: &Handle, form: picollo_v2_form) -> Vec<u8> {
        let mut needed = 0;
        // SAFETY: a size query: NULL buffer of length 0.
        let status = unsafe {
            picollo_histogram_encode_v2(h.0, form as u32, ptr::null_mut(), 0, &mut needed)
        };
        assert_eq!(status, picollo_status::BufferTooSmall);
        let text = form == picollo_v2_form::Base64;
        let mut buf = vec![0u8; needed + usize::from(text)];
        let mut again = 0;
        // SAFETY: `buf` has `buf.len()` writable bytes.
        let status = unsafe {
            picollo_histogram_encode_v2(h.0, form as u32, buf.as_mut_ptr(), buf.len(), &mut again)
        };
        assert_eq!((status, again), (picollo_status::Ok, needed));
        if text {
            assert_eq!(buf.pop(), Some(0));
        }
        buf
    }

    fn decode(data: &[u8]) -> Result<Handle, (picollo_status, String)> {
        let mut out = ptr::null_mut();
        // SAFETY: `data` has `data.len()` readable bytes; `out` is writable.
        let status = unsafe { picollo_histogram_decode_v2(data.as_ptr(), data.len(), &mut out) };
        match status {
            picollo_status::Ok => Ok(Handle::adopt(out)),
            _ => {
                assert!(out.is_null());
                Err((status, last_error()))
            }
        }
    }

    fn add(h: &Handle, data: &[u8]) -> picollo_status {
        // SAFETY: a live handle; `data` has `data.len()` readable bytes.
        unsafe { picollo_histogram_add_v2(h.0, data.as_ptr(), data.len()) }
    }

    #[test]
    fn every_form_round_trips_bucket_for_bucket() {
        let h = sample(64, THREE_DIGITS, SW);
        let core = h.rust().with_view(|v| v.as_view().encode_v2()).unwrap();
        for form in [
            picollo_v2_form::Plain,
            picollo_v2_form::Compressed,
            picollo_v2_form::Base64,
        ] {
            let bytes = encode(&h, form);
            match form {
                picollo_v2_form::Plain => assert_eq!(bytes, core.clone().unwrap()),
                picollo_v2_form::Compressed => assert_eq!(bytes[..4], [0x1c, 0x84, 0x93, 0x14]),
                picollo_v2_form::Base64 => assert!(bytes.starts_with(b"HISTFAAA")),
            }
            let back = decode(&bytes).unwrap();
            assert_eq!(back.buckets(), h.buckets(), "{form:?}");
            let info = back.rust();
            assert_eq!(info.counter_bits(), CounterBits::U64);
            assert_eq!(info.mode(), Mode::SingleWriter);
            assert_eq!(info.shape().layout().relative_error(), THREE_DIGITS);
        }
        // Base64 with surrounding whitespace and without a NUL.
        let text = format!(
            " \n{}\r\n",
            String::from_utf8(encode(&h, picollo_v2_form::Base64)).unwrap()
        );
        assert_eq!(decode(text.as_bytes()).unwrap().buckets(), h.buckets());
    }

    #[test]
    fn binary_forms_are_written_whole_or_not_at_all() {
        let h = sample(64, THREE_DIGITS, SW);
        for form in [picollo_v2_form::Plain, picollo_v2_form::Compressed] {
            let full = encode(&h, form);
            let mut buf = vec![0xA5u8; full.len() + 8];
            for len in [1, full.len() / 2, full.len() - 1] {
                let mut needed = 0;
                // SAFETY: `buf` has more than `len` writable bytes.
                let status = unsafe {
                    picollo_histogram_encode_v2(
                        h.0,
                        form as u32,
                        buf.as_mut_ptr(),
                        len,
                        &mut needed,
                    )
                };
                assert_eq!(
                    (status, needed),
                    (picollo_status::BufferTooSmall, full.len())
                );
                assert!(buf.iter().all(|&b| b == 0xA5), "written though too small");
            }
            // SAFETY: as above; `needed` may be NULL.
            let status = unsafe {
                picollo_histogram_encode_v2(
                    h.0,
                    form as u32,
                    buf.as_mut_ptr(),
                    buf.len(),
                    ptr::null_mut(),
                )
            };
            assert_eq!(status, picollo_status::Ok);
            assert_eq!(buf[..full.len()], full[..]);
            assert!(buf[full.len()..].iter().all(|&b| b == 0xA5));
            // SAFETY: a NULL buffer with a length is refused before anything is written.
            let status = unsafe {
                picollo_histogram_encode_v2(h.0, form as u32, ptr::null_mut(), 4, ptr::null_mut())
            };
            assert_eq!(status, picollo_status::NullPointer);
        }
        // Base64 follows the text rules: truncated, NUL-terminated, BUFFER_TOO_SMALL.
        let text = encode(&h, picollo_v2_form::Base64);
        let mut buf = vec![0xA5u8; text.len()];
        let mut needed = 0;
        // SAFETY: `buf` has `buf.len()` writable bytes.
        let status = unsafe {
            picollo_histogram_encode_v2(h.0, 2, buf.as_mut_ptr(), buf.len(), &mut needed)
        };
        assert_eq!(
            (status, needed),
            (picollo_status::BufferTooSmall, text.len())
        );
        assert_eq!(buf[..text.len() - 1], text[..text.len() - 1]);
        assert_eq!(buf[text.len() - 1], 0);
        // Unknown form, NULL handle.
        // SAFETY: size queries.
        let status =
            unsafe { picollo_histogram_encode_v2(h.0, 3, ptr::null_mut(), 0, ptr::null_mut()) };
        assert_eq!(status, picollo_status::InvalidArgument);
        assert!(last_error().contains("form 3"), "{}", last_error());
        // SAFETY: a NULL handle is refused.
        let status = unsafe {
            picollo_histogram_encode_v2(ptr::null(), 0, ptr::null_mut(), 0, ptr::null_mut())
        };
        assert_eq!(status, picollo_status::NullPointer);
    }

    /// `encode_v2_level` of `h` in `form` at `level`: the status and what was written.
    fn encode_at(h: &Handle, form: picollo_v2_form, level: u32) -> (picollo_status, Vec<u8>) {
        let mut buf = vec![0u8; 1 << 20];
        let mut needed = 0;
        // SAFETY: `buf` has `buf.len()` writable bytes.
        let status = unsafe {
            picollo_histogram_encode_v2_level(
                h.0,
                form as u32,
                level,
                buf.as_mut_ptr(),
                buf.len(),
                &mut needed,
            )
        };
        buf.truncate(needed);
        (status, buf)
    }

    #[test]
    fn the_deflate_level_is_the_callers_and_every_level_decodes_alike() {
        let h = sample(64, THREE_DIGITS, SW);
        let core = |level| {
            let deflate = Deflate::level(level).unwrap();
            h.rust()
                .with_view(|v| v.as_view().encode_v2_compressed_with(deflate))
                .unwrap()
                .unwrap()
        };
        let mut sizes = Vec::new();
        for level in 0..=10u8 {
            let (status, blob) = encode_at(&h, picollo_v2_form::Compressed, level.into());
            assert_eq!(status, picollo_status::Ok, "level {level}");
            assert_eq!(blob, core(level), "level {level}: not the library's blob");
            assert_eq!(
                decode(&blob).unwrap().buckets(),
                h.buckets(),
                "level {level}"
            );
            let (status, text) = encode_at(&h, picollo_v2_form::Base64, level.into());
            assert_eq!(status, picollo_status::Ok);
            assert_eq!(
                decode(&text).unwrap().buckets(),
                h.buckets(),
                "level {level}"
            );
            sizes.push(blob.len());
        }
        assert!(
            sizes[0] > sizes[1] && sizes[1] > sizes[9],
            "sizes by level: {sizes:?}"
        );
        // Level 1 is what encode_v2 writes; the plain form ignores the level.
        assert_eq!(
            encode_at(&h, picollo_v2_form::Compressed, 1).1,
            encode(&h, picollo_v2_form::Compressed)
        );
        let plain = encode(&h, picollo_v2_form::Plain);
        assert_eq!(
            encode_at(&h, picollo_v2_form::Plain, 9),
            (picollo_status::Ok, plain)
        );
        for level in [11, 256, u32::MAX] {
            for form in [picollo_v2_form::Plain, picollo_v2_form::Compressed] {
                let (status, _) = encode_at(&h, form, level);
                assert_eq!(status, picollo_status::InvalidArgument, "level {level}");
                assert!(
                    last_error().contains(&format!("level is {level}")),
                    "{}",
                    last_error()
                );
            }
        }
        // SAFETY: a NULL handle is refused.
        let status = unsafe {
            picollo_histogram_encode_v2_level(
                ptr::null(),
                0,
                1,
                ptr::null_mut(),
                0,
                ptr::null_mut(),
            )
        };
        assert_eq!(status, picollo_status::NullPointer);
    }

    #[test]
    fn saturated_counts_are_unencodable() {
        let h = Handle::new(32, THREE_DIGITS, SW);
        // SAFETY: a live handle.
        unsafe { picollo_histogram_record_n(h.0, 10, u64::MAX) };
        for form in 0..3 {
            let mut needed = 7;
            // SAFETY: a size query.
            let status =
                unsafe { picollo_histogram_encode_v2(h.0, form, ptr::null_mut(), 0, &mut needed) };
            assert_eq!((status, needed), (picollo_status::Unencodable, 7));
            assert!(last_error().contains("saturated"), "{}", last_error());
        }
    }

    #[test]
    fn garbage_and_truncated_input_is_a_format_error() {
        let h = sample(64, THREE_DIGITS, SW);
        let plain = encode(&h, picollo_v2_form::Plain);
        let compressed = encode(&h, picollo_v2_form::Compressed);
        let text = encode(&h, picollo_v2_form::Base64);
        let mut corrupt = compressed.clone();
        corrupt[20] ^= 0xff;
        let cases: [(&[u8], &str); 8] = [
            (b"", "truncated"),
            (b"not base64 at all!", "base64"),
            (&text[..text.len() - 3], "base64"),
            (&plain[..plain.len() - 1], "length"),
            (&plain[..20], "truncated"),
            (&compressed[..compressed.len() - 5], "length"),
            (&corrupt, "zlib"),
            (&[0x1c, 0x84, 0x93, 0x09, 0, 0, 0, 0], "V1"),
        ];
        for (data, why) in cases {
            let (status, message) = decode(data).err().expect("decoded garbage");
            assert_eq!(status, picollo_status::FormatError, "{message}");
            assert!(message.contains(why), "{message} lacks {why}");
            let target = Handle::new(64, THREE_DIGITS, SW);
            assert_eq!(add(&target, data), picollo_status::FormatError);
            assert_eq!(target.total(), 0);
        }
        // NULL data with a length, NULL output.
        let mut out = ptr::null_mut();
        // SAFETY: NULL pointers are refused.
        unsafe {
            assert_eq!(
                picollo_histogram_decode_v2(ptr::null(), 1, &mut out),
                picollo_status::NullPointer
            );
            assert_eq!(
                picollo_histogram_decode_v2(plain.as_ptr(), plain.len(), ptr::null_mut()),
                picollo_status::NullPointer
            );
            assert_eq!(
                picollo_histogram_add_v2(ptr::null_mut(), plain.as_ptr(), plain.len()),
                picollo_status::NullPointer
            );
        }
        assert!(out.is_null());
    }

    #[test]
    fn add_v2_rebins_into_any_layout_and_mode_as_the_core_does() {
        let src = sample(64, THREE_DIGITS, SW);
        let compressed = encode(&src, picollo_v2_form::Compressed);
        let text = encode(&src, picollo_v2_form::Base64);
        let coarse = 0.01;
        let mut want: CoreHistogram<u64, Vec<u64>> =
            Config::new().with_relative_error(coarse).build().unwrap();
        want.add_v2(&compressed).unwrap();
        want.add_v2(&compressed).unwrap();
        let want: Vec<_> = want
            .view()
            .buckets()
            .filter(|b| b.count != 0)
            .map(|b| (b.lower, b.count))
            .collect();
        for mode in [
            SW,
            picollo_mode::Interlocked as u32,
            picollo_mode::ThreadLocal as u32,
        ] {
            let dst = Handle::new(32, coarse, mode);
            assert_eq!(add(&dst, &compressed), picollo_status::Ok);
            assert_eq!(add(&dst, &text), picollo_status::Ok);
            assert_eq!(dst.buckets(), (want.clone(), 0, 0));
        }
        // Same layout: exact, and adds to what is there.
        let dst = sample(64, THREE_DIGITS, SW);
        assert_eq!(
            add(&dst, &encode(&src, picollo_v2_form::Plain)),
            picollo_status::Ok
        );
        let doubled: Vec<_> = src.buckets().0.iter().map(|&(v, c)| (v, 2 * c)).collect();
        assert_eq!(dst.buckets(), (doubled, 0, 0));
    }
}
