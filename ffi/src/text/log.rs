//! HdrHistogram's interval log: `picollo_log_writer_*` (text produced in memory, drained by
//! the caller), `picollo_log_reader_*` (over a copy of the text, an interval at a time) and
//! `picollo_log_sum`.

use std::borrow::Cow;
use std::ffi::c_char;

use picollo_core::hdr::{
    self, LogError, LogErrorKind, LogPosition, LogReader, LogWriter, Selection,
};

use crate::args::{out, query, sized_out, try_bytes, try_str};
use crate::boundary::boundary;
use crate::buffer::take_text;
use crate::error::Failure;
use crate::handle::{free_boxed, set_boxed, try_mut, try_ref};
use crate::histogram::picollo_histogram;
use crate::status::picollo_status;
use crate::text::hdr::{handle_of, v2_status};

/// The status of a log failure: a line that cannot be read is a `FORMAT_ERROR` (the message
/// starts with "line N: "), a bad writer argument `INVALID_ARGUMENT`, a histogram that
/// cannot be written `UNENCODABLE`.
fn log_error(e: LogError) -> Failure {
    let status = match &e.kind {
        LogErrorKind::V2(v) => v2_status(v),
        _ if e.line > 0 => picollo_status::FormatError,
        LogErrorKind::Write => picollo_status::Panic,
        _ => picollo_status::InvalidArgument,
    };
    Failure::new(status, e)
}

/// A time argument: NaN means none.
fn given(t: f64) -> Option<f64> {
    (!t.is_nan()).then_some(t)
}

/// A tag argument: NULL or "" means none.
fn tag_of(tag: &str) -> Option<&str> {
    (!tag.is_empty()).then_some(tag)
}

/// A log's text: bytes that are not UTF-8 become U+FFFD, so they spoil the line that holds
/// them (a `FORMAT_ERROR` there unless it is a comment), not the whole log.
fn log_text(bytes: &[u8]) -> Cow<'_, str> {
    String::from_utf8_lossy(bytes)
}

// ---------------------------------------------------------------------------------------
// Writer

/// An interval log writer (opaque): HdrHistogram's log format 1.3, into memory (docs/c-api.md,
/// "Interval logs").
pub struct picollo_log_writer {
    _private: [u8; 0],
}

crate::handle::boxed!(picollo_log_writer => LogWriter<String>);

/// Creates a log writer (nothing written, base time 0, max unit ratio 10^6) that the caller
/// frees with `picollo_log_writer_free`.
#[no_mangle]
pub unsafe extern "C" fn picollo_log_writer_new(
    out: *mut *mut picollo_log_writer,
) -> picollo_status {
    boundary!({
        set_boxed(try_mut!(out)?, LogWriter::new(String::new()));
        Ok(())
    })
}

/// Frees a log writer and the text it still holds; NULL is ignored.
#[no_mangle]
pub unsafe extern "C" fn picollo_log_writer_free(w: *mut picollo_log_writer) {
    free_boxed!(w)
}

/// Writes the header: version, `StartTime` and `BaseTime` unless NaN (seconds since the epoch),
/// legend. Errors: NULL `w`; `INVALID_ARGUMENT` (nothing written) for a negative or infinite time.
#[no_mangle]
pub unsafe extern "C" fn picollo_log_writer_header(
    w: *mut picollo_log_writer,
    start_time: f64,
    base_time: f64,
) -> picollo_status {
    boundary!({
        let w = try_mut!(w)?;
        w.header(given(start_time), given(base_time))
            .map_err(log_error)
    })
}

/// Writes `text` as comment lines (`#` before each line). Errors: NULL `w` or `text`; `INVALID_UTF8`.
#[no_mangle]
pub unsafe extern "C" fn picollo_log_writer_comment(
    w: *mut picollo_log_writer,
    text: *const c_char,
) -> picollo_status {
    boundary!({
        let w = try_mut!(w)?;
        let text = try_str!(text)?;
        w.comment(text).map_err(log_error)
    })
}

/// Sets what the `Interval_Max` column of later intervals is divided by (default 10^6: ns to ms).
/// Errors: NULL `w`; `INVALID_ARGUMENT` for a ratio that is not finite above 0.
#[no_mangle]
pub unsafe extern "C" fn picollo_log_writer_set_max_unit_ratio(
    w: *mut picollo_log_writer,
    ratio: f64,
) -> picollo_status {
    boundary!({ try_mut!(w)?.set_max_unit_ratio(ratio).map_err(log_error) })
}

/// Writes the interval line `[Tag=tag,]start,length,max,histogram` of `h` (`tag` NULL or "": none).
/// Errors (nothing written): NULL `w` or `h`; `INVALID_ARGUMENT`; `INVALID_UTF8`; `UNENCODABLE`.
#[no_mangle]
pub unsafe extern "C" fn picollo_log_writer_interval(
    w: *mut picollo_log_writer,
    h: *const picollo_histogram,
    tag: *const c_char,
    start: f64,
    length: f64,
) -> picollo_status {
    boundary!({
        let w = try_mut!(w)?;
        let h = try_ref!(h)?;
        let tag = tag_of(try_str!(tag, or "")?);
        // Encoded inside the view, written outside: a live view may run its query twice.
        let (encoded, max) = h.with_view(|view| {
            let v = view.as_view();
            (v.encode_v2_base64(), hdr::interval_max(&v))
        })?;
        let encoded = encoded.map_err(crate::text::hdr::v2_error)?;
        w.interval_encoded(tag, start, length, max, &encoded)
            .map_err(log_error)
    })
}

/// Moves the text written so far into `buf` and clears it from the writer. Errors: NULL `w`;
/// `BUFFER_TOO_SMALL`, nothing taken (call again, larger).
#[no_mangle]
pub unsafe extern "C" fn picollo_log_writer_take(
    w: *mut picollo_log_writer,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> picollo_status {
    boundary!({ take_text!(try_mut!(w)?.get_mut(), buf, len, needed) })
}

// ---------------------------------------------------------------------------------------
// Reader

/// An interval log reader (opaque) over its own copy of a log of format 1.2 or 1.3.
pub struct picollo_log_reader {
    _private: [u8; 0],
}

crate::handle::boxed!(picollo_log_reader => Reader);

/// The Rust value behind a `picollo_log_reader`: the text and where the reading stands.
pub(crate) struct Reader {
    text: String,
    at: LogPosition,
    /// The tag of the interval the last `_next` returned.
    tag: Option<String>,
}

impl Reader {
    fn times(&self) -> (Option<f64>, Option<f64>) {
        let r = LogReader::resume(&self.text, self.at);
        (r.start_time(), r.base_time())
    }
}

/// One interval of a log, as `picollo_log_reader_next` reports it.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct picollo_log_interval {
    /// Set by the caller to `sizeof(picollo_log_interval)` before the call (left as is).
    pub struct_size: u32,
    /// Significant digits of the interval's histogram (1 to 5).
    pub significant_digits: u32,
    /// Start in seconds: the line's timestamp plus the log's base time (docs/c-api.md, "Interval logs").
    pub start: f64,
    /// Length in seconds.
    pub length: f64,
    /// The `Interval_Max` column as written (already divided by the writer's unit ratio).
    pub max: f64,
    /// 1-based line number of the interval in the text.
    pub line: u64,
    /// 1 when the line has a tag (`picollo_log_reader_tag`), else 0.
    pub has_tag: u32,
    /// Always 0.
    pub reserved: u32,
}

// SAFETY: `#[repr(C)]`, `struct_size: u32` first, integers and floats only.
crate::args::struct_sized!(picollo_log_interval);

/// Creates in `*out`, for `picollo_log_reader_free`, a reader over a copy of `len` bytes of `text`
/// (no NUL needed; free `text` at will). Errors: NULL `out`, or `text` with a length;
/// `OUT_OF_MEMORY`.
#[no_mangle]
pub unsafe extern "C" fn picollo_log_reader_new(
    text: *const c_char,
    len: usize,
    out: *mut *mut picollo_log_reader,
) -> picollo_status {
    boundary!({
        let bytes = try_bytes!(text, len)?;
        let out = try_mut!(out)?;
        let mut copy = String::new();
        copy.try_reserve_exact(bytes.len())
            .map_err(|_| picollo_core::OutOfMemory { bytes: bytes.len() })?;
        copy.push_str(&log_text(bytes));
        let mut reader = LogReader::new(&copy);
        reader.read_headers();
        let at = reader.position();
        set_boxed(
            out,
            Reader {
                text: copy,
                at,
                tag: None,
            },
        );
        Ok(())
    })
}

/// Frees a log reader; NULL is ignored.
#[no_mangle]
pub unsafe extern "C" fn picollo_log_reader_free(r: *mut picollo_log_reader) {
    free_boxed!(r)
}

/// Reads the next interval into `*info` and, unless `out` is NULL, its counts into a new
/// histogram in `*out` for `picollo_histogram_free`. Errors: NULL `r` or `info`; `STRUCT_SIZE`;
/// `OUT_OF_RANGE` at the end; `FORMAT_ERROR` ("line N: …", line skipped); `OUT_OF_MEMORY`.
/// Safety: `info->struct_size` is set by the caller.
#[no_mangle]
pub unsafe extern "C" fn picollo_log_reader_next(
    r: *mut picollo_log_reader,
    info: *mut picollo_log_interval,
    out: *mut *mut picollo_histogram,
) -> picollo_status {
    boundary!({
        let r = try_mut!(r)?;
        r.tag = None;
        let (info, struct_size) = sized_out!(info)?;
        let out = try_mut!(out).ok();
        let mut reader = LogReader::resume(&r.text, r.at);
        let entry = reader.next();
        let next = reader.position();
        let Some(entry) = entry else {
            r.at = next;
            return Err(Failure::out_of_range("the log has no more intervals"));
        };
        let interval = entry.map_err(log_error).inspect_err(|f| {
            if f.status != picollo_status::OutOfMemory {
                r.at = next;
            }
        })?;
        let handle = match out {
            Some(_) => Some(handle_of(&interval.histogram)?),
            None => None,
        };
        r.at = next;
        out!(
            info,
            picollo_log_interval {
                struct_size,
                significant_digits: interval.significant_digits,
                start: interval.start,
                length: interval.length,
                max: interval.max,
                line: interval.line as u64,
                has_tag: u32::from(interval.tag.is_some()),
                reserved: 0,
            }
        )?;
        if let (Some(out), Some(handle)) = (out, handle) {
            set_boxed(out, handle);
        }
        r.tag = interval.tag;
        Ok(())
    })
}

/// Writes the tag of the interval the last `picollo_log_reader_next` returned into `buf` ("" when
/// none or after a failed call).
#[no_mangle]
pub unsafe extern "C" fn picollo_log_reader_tag(
    r: *const picollo_log_reader,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> picollo_status {
    query!(r, |r| r.tag.as_deref().unwrap_or("") => text(buf, len, needed))
}

/// Writes the `StartTime` and `BaseTime` headers read so far (NaN when absent) to `*start_time`
/// and `*base_time`; either may be NULL.
#[no_mangle]
pub unsafe extern "C" fn picollo_log_reader_times(
    r: *const picollo_log_reader,
    start_time: *mut f64,
    base_time: *mut f64,
) -> picollo_status {
    boundary!({
        let (start, base) = try_ref!(r)?.times();
        out!(start_time?, start.unwrap_or(f64::NAN))?;
        out!(base_time?, base.unwrap_or(f64::NAN))
    })
}

// ---------------------------------------------------------------------------------------
// Sum

/// Sums the intervals of log `text` tagged `tag` (NULL or "": untagged) that start in
/// `[from, to)` (NaN: open) into a new histogram in `*out`, for `picollo_histogram_free`.
/// Errors: NULL `out`, or `text` with a length; `INVALID_UTF8`; `EMPTY` when none matches;
/// `FORMAT_ERROR`; `OUT_OF_MEMORY`.
#[no_mangle]
pub unsafe extern "C" fn picollo_log_sum(
    text: *const c_char,
    len: usize,
    tag: *const c_char,
    from: f64,
    to: f64,
    out: *mut *mut picollo_histogram,
) -> picollo_status {
    boundary!({
        let bytes = try_bytes!(text, len)?;
        let tag = tag_of(try_str!(tag, or "")?);
        let out = try_mut!(out)?;
        let selection = Selection {
            tag,
            from: given(from),
            to: given(to),
        };
        let sum = hdr::sum_log(&log_text(bytes), &selection).map_err(log_error)?;
        let Some(sum) = sum.as_ref().and_then(|s| s.histogram()) else {
            return Err(Failure::new(
                picollo_status::Empty,
                format_args!(
                    "no interval of the log matches: {} starting in [{:?}, {:?})",
                    tag.map_or("untagged intervals".to_string(), |t| format!("tag {t:?}")),
                    selection.from.unwrap_or(f64::NEG_INFINITY),
                    selection.to.unwrap_or(f64::INFINITY),
                ),
            ));
        };
        set_boxed(out, handle_of(sum)?);
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use std::ffi::CString;
    use std::ptr;

    use super::*;
    use crate::histogram::picollo_histogram_record;
    use crate::testing::{last_error, made, text_of, Handle, THREE_DIGITS};

    const T0: f64 = 1_700_000_000.0;

    struct Writer(*mut picollo_log_writer);

    impl Writer {
        fn new() -> Writer {
            Writer(made(picollo_log_writer_new))
        }

        fn interval(
            &self,
            h: &Handle,
            tag: Option<&str>,
            start: f64,
            length: f64,
        ) -> picollo_status {
            let tag = tag.map(|t| CString::new(t).unwrap());
            let tag = tag.as_ref().map_or(ptr::null(), |t| t.as_ptr());
            // SAFETY: live handles, a NUL-terminated tag or NULL.
            unsafe { picollo_log_writer_interval(self.0, h.0, tag, start, length) }
        }

        fn take(&self) -> String {
            // SAFETY: the buffer arguments come from `text_of`.
            text_of(|buf, len, needed| unsafe { picollo_log_writer_take(self.0, buf, len, needed) })
        }
    }

    impl Drop for Writer {
        fn drop(&mut self) {
            // SAFETY: freed once, here.
            unsafe { picollo_log_writer_free(self.0) }
        }
    }

    struct Reader(*mut picollo_log_reader);

    impl Reader {
        fn new(text: &[u8]) -> Reader {
            let mut r = ptr::null_mut();
            // SAFETY: `text` has `text.len()` readable bytes; a writable slot.
            let status =
                unsafe { picollo_log_reader_new(text.as_ptr().cast(), text.len(), &mut r) };
            assert_eq!(status, picollo_status::Ok);
            Reader(r)
        }

        /// The next interval, its tag and histogram, or the status and message.
        #[allow(clippy::type_complexity)]
        fn next(&self) -> Result<(picollo_log_interval, String, Handle), (picollo_status, String)> {
            let mut info = picollo_log_interval {
                struct_size: std::mem::size_of::<picollo_log_interval>() as u32,
                ..Default::default()
            };
            let mut h = ptr::null_mut();
            // SAFETY: a live reader, a sized struct and a writable slot.
            let status = unsafe { picollo_log_reader_next(self.0, &mut info, &mut h) };
            let message = last_error();
            // SAFETY: the buffer arguments come from `text_of`.
            let tag = text_of(|buf, len, needed| unsafe {
                picollo_log_reader_tag(self.0, buf, len, needed)
            });
            match status {
                picollo_status::Ok => Ok((info, tag, Handle::adopt(h))),
                _ => {
                    assert!(h.is_null() && tag.is_empty());
                    Err((status, message))
                }
            }
        }

        fn times(&self) -> (f64, f64) {
            let (mut start, mut base) = (0.0, 0.0);
            // SAFETY: a live reader and writable outputs.
            let status = unsafe { picollo_log_reader_times(self.0, &mut start, &mut base) };
            assert_eq!(status, picollo_status::Ok);
            (start, base)
        }
    }

    impl Drop for Reader {
        fn drop(&mut self) {
            // SAFETY: freed once, here.
            unsafe { picollo_log_reader_free(self.0) }
        }
    }

    fn histogram(values: impl IntoIterator<Item = u64>) -> Handle {
        let h = Handle::new(64, THREE_DIGITS, 0);
        for v in values {
            // SAFETY: a live handle.
            unsafe { picollo_histogram_record(h.0, v) };
        }
        h
    }

    fn sum(
        text: &str,
        tag: Option<&str>,
        from: f64,
        to: f64,
    ) -> Result<Handle, (picollo_status, String)> {
        let tag = tag.map(|t| CString::new(t).unwrap());
        let mut out = ptr::null_mut();
        // SAFETY: `text` has `text.len()` readable bytes; the tag is NULL or NUL-terminated.
        let status = unsafe {
            picollo_log_sum(
                text.as_ptr().cast(),
                text.len(),
                tag.as_ref().map_or(ptr::null(), |t| t.as_ptr()),
                from,
                to,
                &mut out,
            )
        };
        match status {
            picollo_status::Ok => Ok(Handle::adopt(out)),
            _ => {
                assert!(out.is_null());
                Err((status, last_error()))
            }
        }
    }

    /// A log: header at T0 (start and base), a comment, then `api` and untagged intervals.
    fn sample_log(a: &Handle, b: &Handle) -> String {
        let w = Writer::new();
        // SAFETY: a live writer and a NUL-terminated comment.
        unsafe {
            assert_eq!(picollo_log_writer_header(w.0, T0, T0), picollo_status::Ok);
            assert_eq!(
                picollo_log_writer_comment(w.0, c"made by the ffi tests".as_ptr()),
                picollo_status::Ok
            );
            assert_eq!(
                picollo_log_writer_set_max_unit_ratio(w.0, 1.0),
                picollo_status::Ok
            );
        }
        assert_eq!(w.interval(a, None, T0, 1.0), picollo_status::Ok);
        assert_eq!(
            w.interval(b, Some("api"), T0 + 1.0, 2.5),
            picollo_status::Ok
        );
        assert_eq!(w.interval(a, Some(""), T0 + 3.0, 1.0), picollo_status::Ok);
        w.take()
    }

    #[test]
    fn a_written_log_reads_back_with_times_tags_and_counts() {
        let a = histogram(1_000..2_000);
        let b = histogram([5, 70_000, 9_000_000]);
        let text = sample_log(&a, &b);
        assert!(
            text.starts_with("#[Histogram log format version 1.3]\n"),
            "{text}"
        );
        assert!(text.contains("\n#made by the ffi tests\n"), "{text}");
        assert!(text.contains("\nTag=api,1.000,2.500,"), "{text}");

        let r = Reader::new(text.as_bytes());
        // The header is read at creation.
        assert_eq!(r.times(), (T0, T0));
        let (info, tag, h) = r.next().unwrap();
        assert_eq!(
            info.struct_size as usize,
            std::mem::size_of::<picollo_log_interval>()
        );
        assert_eq!((info.start, info.length, info.line), (T0, 1.0, 6));
        assert_eq!(
            (info.significant_digits, info.has_tag, tag.as_str()),
            (3, 0, "")
        );
        assert_eq!(info.max, 1999.0);
        assert_eq!(h.buckets(), a.buckets());
        let (info, tag, h) = r.next().unwrap();
        assert_eq!(
            (info.start, info.length, info.has_tag, tag.as_str()),
            (T0 + 1.0, 2.5, 1, "api")
        );
        assert_eq!(h.buckets(), b.buckets());
        assert!(
            info.max >= 9_000_000.0 && info.max < 9_010_000.0,
            "{}",
            info.max
        );
        let (info, tag, _) = r.next().unwrap();
        assert_eq!((info.start, info.has_tag, tag.as_str()), (T0 + 3.0, 0, ""));
        for _ in 0..2 {
            let (status, message) = r.next().err().unwrap();
            assert_eq!(status, picollo_status::OutOfRange, "{message}");
        }
        // Nothing pending after a take; a log without headers has no times.
        let w = Writer::new();
        assert_eq!(w.take(), "");
        let bare = Reader::new(b"");
        let (start, base) = bare.times();
        assert!(start.is_nan() && base.is_nan());
    }

    #[test]
    fn take_consumes_only_what_it_delivers() {
        let w = Writer::new();
        // SAFETY: a live writer.
        let status = unsafe { picollo_log_writer_header(w.0, f64::NAN, f64::NAN) };
        assert_eq!(status, picollo_status::Ok);
        let mut needed = 0;
        let mut small = [0x55 as c_char; 8];
        // SAFETY: `small` has 8 writable bytes.
        let status =
            unsafe { picollo_log_writer_take(w.0, small.as_mut_ptr(), small.len(), &mut needed) };
        assert_eq!(status, picollo_status::BufferTooSmall);
        assert_eq!(small[7], 0);
        let text = w.take();
        assert_eq!(text.len(), needed);
        assert_eq!(
            text,
            "#[Histogram log format version 1.3]\n\"StartTimestamp\",\"Interval_Length\",\
             \"Interval_Max\",\"Interval_Compressed_Histogram\"\n"
        );
        // Bad arguments write nothing.
        let h = histogram([1]);
        // SAFETY: a live writer.
        unsafe {
            assert_eq!(
                picollo_log_writer_header(w.0, -1.0, f64::NAN),
                picollo_status::InvalidArgument
            );
            assert_eq!(
                picollo_log_writer_header(w.0, f64::INFINITY, f64::NAN),
                picollo_status::InvalidArgument
            );
            assert_eq!(
                picollo_log_writer_set_max_unit_ratio(w.0, 0.0),
                picollo_status::InvalidArgument
            );
            assert_eq!(
                picollo_log_writer_comment(w.0, ptr::null()),
                picollo_status::NullPointer
            );
        }
        assert_eq!(
            w.interval(&h, Some("a,b"), 0.0, 1.0),
            picollo_status::InvalidArgument
        );
        assert!(last_error().contains("tag"), "{}", last_error());
        assert_eq!(
            w.interval(&h, None, -1.0, 1.0),
            picollo_status::InvalidArgument
        );
        assert_eq!(
            w.interval(&h, None, 0.0, f64::NAN),
            picollo_status::InvalidArgument
        );
        let saturated = Handle::new(32, THREE_DIGITS, 0);
        // SAFETY: a live handle.
        unsafe { crate::histogram::picollo_histogram_record_n(saturated.0, 3, u64::MAX) };
        assert_eq!(
            w.interval(&saturated, None, 0.0, 1.0),
            picollo_status::Unencodable
        );
        assert_eq!(w.take(), "");
    }

    #[test]
    fn a_bad_line_is_named_and_the_reader_goes_on() {
        let a = histogram([10, 20, 30]);
        let b = histogram([40]);
        let good = sample_log(&a, &b);
        let mut lines: Vec<&str> = good.lines().collect();
        // Line 7 (the `api` interval) loses its histogram's tail; a line 8 of garbage follows.
        let cut = &lines[6][..lines[6].len() - 4];
        lines[6] = cut;
        lines.insert(7, "1.0,2.0,x,HISTFAAA");
        let text = lines.join("\n");
        let r = Reader::new(text.as_bytes());
        assert_eq!(r.next().unwrap().0.line, 6);
        let (status, message) = r.next().err().unwrap();
        assert_eq!(status, picollo_status::FormatError);
        assert!(message.starts_with("line 7: "), "{message}");
        let (status, message) = r.next().err().unwrap();
        assert_eq!(status, picollo_status::FormatError);
        assert!(
            message.starts_with("line 8: ") && message.contains("interval max"),
            "{message}"
        );
        let (info, _, h) = r.next().unwrap();
        assert_eq!((info.line, h.total()), (9, 3));
        assert_eq!(r.next().err().unwrap().0, picollo_status::OutOfRange);
        // The sum stops at the first bad line.
        let (status, message) = sum(&text, None, f64::NAN, f64::NAN).err().unwrap();
        assert_eq!(status, picollo_status::FormatError);
        assert!(message.starts_with("line 7: "), "{message}");
        // Bytes that are not UTF-8 spoil only their line.
        let mut bytes = good.clone().into_bytes();
        let at = good.find("made by").unwrap();
        bytes[at] = 0xff;
        let r = Reader::new(&bytes);
        assert_eq!(r.next().unwrap().0.line, 6);
    }

    #[test]
    fn next_checks_its_arguments_before_reading() {
        let text = sample_log(&histogram([1]), &histogram([2]));
        let r = Reader::new(text.as_bytes());
        let mut info = picollo_log_interval {
            struct_size: 8,
            ..Default::default()
        };
        // SAFETY: a live reader; `info` is writable.
        let status = unsafe { picollo_log_reader_next(r.0, &mut info, ptr::null_mut()) };
        assert_eq!(status, picollo_status::StructSize);
        assert!(
            last_error().contains("sizeof(picollo_log_interval)"),
            "{}",
            last_error()
        );
        // SAFETY: a NULL info is refused.
        let status = unsafe { picollo_log_reader_next(r.0, ptr::null_mut(), ptr::null_mut()) };
        assert_eq!(status, picollo_status::NullPointer);
        // Nothing was read: the first interval is still next. `out` NULL skips the histogram.
        info.struct_size = std::mem::size_of::<picollo_log_interval>() as u32 + 8;
        // SAFETY: a live reader; `info` is writable (a larger struct_size is accepted, and
        // only this library's fields are written).
        let status = unsafe { picollo_log_reader_next(r.0, &mut info, ptr::null_mut()) };
        assert_eq!((status, info.line), (picollo_status::Ok, 6));
        assert_eq!(r.next().unwrap().0.line, 7);
        let mut start = 7.0;
        // SAFETY: either output may be NULL.
        let status = unsafe { picollo_log_reader_times(r.0, &mut start, ptr::null_mut()) };
        assert_eq!((status, start), (picollo_status::Ok, T0));
    }

    #[test]
    fn sums_select_by_tag_and_window() {
        let a = histogram(1_000..1_100);
        let b = histogram([5, 70_000]);
        let text = sample_log(&a, &b);
        let untagged = sum(&text, None, f64::NAN, f64::NAN).unwrap();
        assert_eq!(untagged.total(), 200);
        let doubled: Vec<_> = a.buckets().0.iter().map(|&(v, c)| (v, 2 * c)).collect();
        assert_eq!(untagged.buckets(), (doubled, 0, 0));
        assert_eq!(
            sum(&text, Some(""), f64::NAN, f64::NAN).unwrap().total(),
            200
        );
        assert_eq!(
            sum(&text, Some("api"), f64::NAN, f64::NAN)
                .unwrap()
                .buckets(),
            b.buckets()
        );
        // Starts in [from, to): the first untagged interval starts at T0, the second at T0+3.
        assert_eq!(sum(&text, None, T0 + 0.5, f64::NAN).unwrap().total(), 100);
        assert_eq!(sum(&text, None, f64::NAN, T0 + 3.0).unwrap().total(), 100);
        assert_eq!(sum(&text, None, T0, T0 + 3.000_001).unwrap().total(), 200);
        for (tag, from, to) in [
            (Some("db"), f64::NAN, f64::NAN),
            (None, T0 + 4.0, f64::NAN),
            (Some("api"), T0, T0 + 1.0),
        ] {
            let (status, message) = sum(&text, tag, from, to).err().unwrap();
            assert_eq!(status, picollo_status::Empty);
            assert!(message.contains("no interval"), "{message}");
        }
        assert_eq!(
            sum("", None, f64::NAN, f64::NAN).err().unwrap().0,
            picollo_status::Empty
        );
        // SAFETY: NULL text with a length and a NULL output are refused.
        unsafe {
            let mut out = ptr::null_mut();
            assert_eq!(
                picollo_log_sum(ptr::null(), 1, ptr::null(), 0.0, 1.0, &mut out),
                picollo_status::NullPointer
            );
            assert_eq!(
                picollo_log_sum(
                    text.as_ptr().cast(),
                    text.len(),
                    ptr::null(),
                    0.0,
                    1.0,
                    ptr::null_mut()
                ),
                picollo_status::NullPointer
            );
        }
    }
}
