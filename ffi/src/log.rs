//! HdrHistogram's interval log: `picollo_log_writer_*` (text produced in memory, drained by
//! the caller), `picollo_log_reader_*` (over a copy of the text, an interval at a time) and
//! `picollo_log_sum`.

use std::borrow::Cow;
use std::ffi::c_char;

use picollo_core::hdr::{
    self, LogError, LogErrorKind, LogPosition, LogReader, LogWriter, Selection,
};

use crate::any_histogram::dispatch_view;
use crate::args::{out, sized_out, try_bytes, try_str, StructSized};
use crate::boundary::boundary;
use crate::buffer::write_text;
use crate::error::Failure;
use crate::handle::{free_boxed, set_boxed, try_mut, try_ref, Boxed, Castable};
use crate::hdr::{handle_of, v2_status};
use crate::histogram::picollo_histogram;
use crate::status::picollo_status;

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

/// An interval log writer (opaque): HdrHistogram's log format 1.3, written into memory.
/// Create with `picollo_log_writer_new`, write the header, comments and intervals, move the
/// text out with `picollo_log_writer_take` (as often as wanted: to a file, a socket), free
/// with `picollo_log_writer_free`. A writer is used by one thread at a time.
///
/// ```text
/// #[Histogram log format version 1.3]
/// #[StartTime: 1700000000.000 (seconds since epoch), 2023-11-14T22:13:20Z]
/// #[BaseTime: 1700000000.000 (seconds since epoch)]
/// "StartTimestamp","Interval_Length","Interval_Max","Interval_Compressed_Histogram"
/// Tag=api,0.127,1.007,2.769,HISTFAAA...
/// ```
#[allow(non_camel_case_types)]
pub struct picollo_log_writer {
    _private: [u8; 0],
}

impl Castable for picollo_log_writer {
    type Ownership = Boxed;
    type RustType = LogWriter<String>;
}

/// Creates an interval log writer with nothing written yet, base time 0 and HdrHistogram's
/// max unit ratio of 10^6: on success `*out` holds a handle for `picollo_log_writer_free`.
///
/// # Safety
/// `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn picollo_log_writer_new(
    out: *mut *mut picollo_log_writer,
) -> picollo_status {
    boundary!({
        set_boxed(try_mut!(out)?, LogWriter::new(String::new()));
        Ok(())
    })
}

/// Frees a log writer and the text it still holds. NULL is accepted and ignored.
///
/// # Safety
/// `w` is NULL or a handle from `picollo_log_writer_new` not yet freed.
#[no_mangle]
pub unsafe extern "C" fn picollo_log_writer_free(w: *mut picollo_log_writer) {
    free_boxed!(w)
}

/// Writes the log's header: the version line (`#[Histogram log format version 1.3]`), a
/// `StartTime` line unless `start_time` is NaN, a `BaseTime` line unless `base_time` is NaN,
/// then the legend. Times are seconds since the epoch. With a base time, the starts passed to
/// `picollo_log_writer_interval` later are absolute and written relative to it.
///
/// Errors: NULL `w`; `INVALID_ARGUMENT` (nothing written) for a time that is negative or
/// infinite.
///
/// # Safety
/// `w` is NULL or a live handle used by no other thread during the call.
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

/// Writes a comment line: `#` and `text`; each line break in `text` starts another comment
/// line. Readers skip comments.
///
/// Errors: NULL `w` or `text`; `INVALID_UTF8`.
///
/// # Safety
/// `w` is NULL or a live handle used by no other thread during the call; `text` is NULL or
/// a NUL-terminated string.
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

/// Sets the ratio the `Interval_Max` column is divided by (HdrHistogram's
/// `maxValueUnitRatio`; the default 10^6 turns nanoseconds into milliseconds; 1 writes the
/// maximum in the recorded unit). Applies to the intervals written after it.
///
/// Errors: NULL `w`; `INVALID_ARGUMENT` for a ratio that is not a finite number above 0.
///
/// # Safety
/// `w` is NULL or a live handle used by no other thread during the call.
#[no_mangle]
pub unsafe extern "C" fn picollo_log_writer_set_max_unit_ratio(
    w: *mut picollo_log_writer,
    ratio: f64,
) -> picollo_status {
    boundary!({ try_mut!(w)?.set_max_unit_ratio(ratio).map_err(log_error) })
}

/// Writes one interval line: `[Tag=tag,]start,length,max,histogram` with the histogram `h`
/// in base64 of compressed V2 (see `picollo_histogram_encode_v2`) and as its max the highest
/// value of its highest non-empty bucket divided by the max unit ratio (0 when empty).
/// `start` and `length` are seconds; when the header gave a base time, `start` is absolute
/// (seconds since the epoch) and is written relative to the base time, else it is written
/// as given. `tag` NULL or "" writes no tag. `h` is read as one consistent copy.
///
/// Errors: NULL `w` or `h`; `INVALID_ARGUMENT` for a start before the base time (or NaN,
/// infinite), a negative or non-finite length, a tag holding a comma, space, CR or LF;
/// `INVALID_UTF8` for a tag that is not UTF-8; `UNENCODABLE` as
/// `picollo_histogram_encode_v2`. On error nothing is written.
///
/// # Safety
/// `w` is NULL or a live handle used by no other thread during the call; `h` is NULL or a
/// live handle; `tag` is NULL or a NUL-terminated string.
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
        let (encoded, max) = h.with_view(
            |view| dispatch_view!(view, v => (v.encode_v2_base64(), hdr::interval_max(&v))),
        )?;
        let encoded = encoded.map_err(crate::hdr::v2_error)?;
        w.interval_encoded(tag, start, length, max, &encoded)
            .map_err(log_error)
    })
}

/// Moves the text written so far into `buf` and clears it from the writer: at most
/// `len − 1` bytes and a NUL; `*needed` (if not NULL) receives the pending length without the
/// NUL, so `(NULL, 0)` asks for the size. On `BUFFER_TOO_SMALL` nothing is taken (`buf` holds
/// a truncated copy): call again with a larger buffer. With nothing pending, a buffer of
/// at least 1 byte receives "".
///
/// Errors: NULL `w`; `BUFFER_TOO_SMALL`; `NULL_POINTER` for a NULL `buf` with a non-zero
/// `len`.
///
/// # Safety
/// `w` is NULL or a live handle used by no other thread during the call; `buf` is NULL or
/// has `len` writable bytes; `needed` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn picollo_log_writer_take(
    w: *mut picollo_log_writer,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> picollo_status {
    boundary!({
        let w = try_mut!(w)?;
        write_text!(w.get_ref(), buf, len, needed)?;
        w.get_mut().clear();
        Ok(())
    })
}

// ---------------------------------------------------------------------------------------
// Reader

/// An interval log reader (opaque) over its own copy of a log's text: create with
/// `picollo_log_reader_new`, call `picollo_log_reader_next` for each interval, free with
/// `picollo_log_reader_free`. Reads HdrHistogram logs of format 1.2 and 1.3 from any
/// implementation. A reader is used by one thread at a time.
#[allow(non_camel_case_types)]
pub struct picollo_log_reader {
    _private: [u8; 0],
}

impl Castable for picollo_log_reader {
    type Ownership = Boxed;
    type RustType = Reader;
}

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
#[allow(non_camel_case_types)]
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct picollo_log_interval {
    /// Set by the caller to `sizeof(picollo_log_interval)` before the call (left as is).
    pub struct_size: u32,
    /// Significant digits of the interval's histogram (1 to 5).
    pub significant_digits: u32,
    /// Start in seconds: the line's timestamp plus the log's base time, so absolute (since the
    /// epoch) when the log has a `BaseTime`, or a `StartTime` and timestamps more than a year
    /// before it (then relative to it), as HdrHistogram's readers do; else as written.
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
unsafe impl StructSized for picollo_log_interval {
    const NAME: &'static str = "picollo_log_interval";
}

/// Creates a reader over a copy of `text` (`len` bytes; no NUL terminator needed; bytes that
/// are not UTF-8 spoil only their line), and reads the header lines before the first
/// interval, so `picollo_log_reader_times` knows them at once. On success `*out` holds a
/// handle for `picollo_log_reader_free`; the caller's text may be freed.
///
/// Errors: NULL `out`; NULL `text` with a non-zero `len`; `OUT_OF_MEMORY`.
///
/// # Safety
/// `text` is NULL or points to `len` readable bytes; `out` is NULL or writable.
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

/// Frees a log reader. NULL is accepted and ignored.
///
/// # Safety
/// `r` is NULL or a handle from `picollo_log_reader_new` not yet freed.
#[no_mangle]
pub unsafe extern "C" fn picollo_log_reader_free(r: *mut picollo_log_reader) {
    free_boxed!(r)
}

/// Reads the next interval: fills `*info` and, unless `out` is NULL, stores in `*out` a new
/// histogram of the interval's counts (64-bit counters, single-writer mode, the layout of its
/// significant digits) to free with `picollo_histogram_free`. With `out` NULL the histogram
/// is decoded (to check the line) but not kept. Comment, header, legend and blank lines
/// are skipped (`StartTime` and `BaseTime` headers update `picollo_log_reader_times`).
///
/// At the end of the log: `OUT_OF_RANGE`, nothing written. A line that cannot be read:
/// `FORMAT_ERROR`, with a message starting "line N: " that says why; nothing is written and
/// the reader moves past the line, so the next call goes on with the lines after it.
///
/// Errors: NULL `r` or `info`; `STRUCT_SIZE` when `info->struct_size` is less than
/// `sizeof(picollo_log_interval)`; `OUT_OF_RANGE`; `FORMAT_ERROR`; `OUT_OF_MEMORY` (the
/// reader stays on the line, so a later call tries it again).
///
/// # Safety
/// `r` is NULL or a live handle used by no other thread during the call; `info` is NULL or a
/// writable `picollo_log_interval` with `struct_size` set; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn picollo_log_reader_next(
    r: *mut picollo_log_reader,
    info: *mut picollo_log_interval,
    out: *mut *mut picollo_histogram,
) -> picollo_status {
    boundary!({
        let r = try_mut!(r)?;
        let (info, struct_size) = sized_out!(info)?;
        let out = try_mut!(out).ok();
        r.tag = None;
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

/// Writes the tag of the interval the last `picollo_log_reader_next` returned into `buf`
/// ("" when it had none, before the first call, and after a call that failed). Buffer rules
/// as `picollo_summary_table`.
///
/// # Safety
/// `r` is NULL or a live handle; `buf` is NULL or has `len` writable bytes; `needed` is NULL
/// or writable.
#[no_mangle]
pub unsafe extern "C" fn picollo_log_reader_tag(
    r: *const picollo_log_reader,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> picollo_status {
    boundary!({
        let r = try_ref!(r)?;
        write_text!(r.tag.as_deref().unwrap_or(""), buf, len, needed)
    })
}

/// Writes the `StartTime` and `BaseTime` headers read so far (seconds since the epoch; NaN
/// when absent) to `*start_time` and `*base_time`; either may be NULL. The headers before
/// the first interval are read by `picollo_log_reader_new`; one further down counts once
/// `picollo_log_reader_next` has passed it.
///
/// # Safety
/// `r` is NULL or a live handle; the outputs are NULL or writable.
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

/// Sums the intervals of a log (`text`, `len` bytes, no NUL needed) that match: those tagged
/// `tag` (NULL or "": the untagged ones, as HdrHistogram's log processor does without `-tag`)
/// that start in `[from, to)` seconds (the starts `picollo_log_reader_next` reports; NaN
/// leaves that end open). On success `*out` holds a new histogram (64-bit counters,
/// single-writer mode) to free with `picollo_histogram_free`: the layout of the first match,
/// a range wide enough for every match (intervals of other precisions are re-binned at their
/// buckets' midpoints).
///
/// Errors: NULL `out`; NULL `text` with a non-zero `len`; `INVALID_UTF8` for a tag that is
/// not UTF-8; `EMPTY` (nothing written) when no interval matches; `FORMAT_ERROR` for the
/// first line that cannot be read (the message starts "line N: "); `OUT_OF_MEMORY`.
///
/// # Safety
/// `text` is NULL or points to `len` readable bytes; `tag` is NULL or a NUL-terminated
/// string; `out` is NULL or writable.
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
