//! Status codes, the thread-local error message, the panic boundary and the pointer
//! helpers. Every exported function goes through these, so the unsafe patterns live here.

use std::cell::RefCell;
use std::ffi::{c_char, CStr, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Result of a fallible Picollo call. `PICOLLO_STATUS_OK` is zero; everything else is an
/// error whose details are in `picollo_last_error_message()`.
#[allow(non_camel_case_types)]
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum picollo_status {
    /// Success.
    Ok = 0,
    /// A required pointer argument was NULL.
    NullPointer = 1,
    /// An argument value is out of its domain (relative error, range, rank, mode…).
    InvalidArgument = 2,
    /// A config struct's `struct_size` does not match this library's.
    StructSize = 3,
    /// The output buffer was too small; the text was truncated, `needed` holds the full size.
    BufferTooSmall = 4,
    /// The histogram holds no value in its range.
    Empty = 5,
    /// The two histograms have different relative errors.
    LayoutMismatch = 6,
    /// A subtraction would make a count negative; nothing was changed.
    WouldGoNegative = 7,
    /// An index or cursor is past the end.
    OutOfRange = 8,
    /// A text argument is not valid UTF-8.
    InvalidUtf8 = 9,
    /// The operation is not supported here (feature, platform, hardware).
    Unsupported = 10,
    /// Permission denied by the operating system.
    PermissionDenied = 11,
    /// An operating-system call failed; the message names it and the errno.
    OsError = 12,
    /// A Rust panic was caught at the boundary: a bug in Picollo, please report it.
    Panic = 13,
}

impl picollo_status {
    /// Static description of the status.
    pub(crate) fn describe(self) -> &'static CStr {
        match self {
            picollo_status::Ok => c"ok",
            picollo_status::NullPointer => c"a required pointer argument is NULL",
            picollo_status::InvalidArgument => c"invalid argument",
            picollo_status::StructSize => c"struct_size does not match this library",
            picollo_status::BufferTooSmall => c"buffer too small: output truncated",
            picollo_status::Empty => c"the histogram holds no value in its range",
            picollo_status::LayoutMismatch => c"histograms have different relative errors",
            picollo_status::WouldGoNegative => c"subtraction would make a count negative",
            picollo_status::OutOfRange => c"index past the end",
            picollo_status::InvalidUtf8 => c"text is not valid UTF-8",
            picollo_status::Unsupported => c"not supported here",
            picollo_status::PermissionDenied => c"permission denied",
            picollo_status::OsError => c"operating-system call failed",
            picollo_status::Panic => c"internal error (panic caught at the C boundary)",
        }
    }
}

thread_local! {
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

/// Record `message` as this thread's last error and return `status`.
pub(crate) fn fail(status: picollo_status, message: impl std::fmt::Display) -> picollo_status {
    let text = message.to_string().replace('\0', " ");
    let text = CString::new(text).unwrap_or_default();
    // `try_with` fails only while the thread is being torn down; the status still reports.
    let _ = LAST_ERROR.try_with(|e| *e.borrow_mut() = text);
    status
}

/// Text for a status code: a static, NUL-terminated string, never NULL (unknown codes
/// give "unknown status").
#[no_mangle]
pub extern "C" fn picollo_status_str(status: u32) -> *const c_char {
    use picollo_status::*;
    const ALL: [picollo_status; 14] = [
        Ok,
        NullPointer,
        InvalidArgument,
        StructSize,
        BufferTooSmall,
        Empty,
        LayoutMismatch,
        WouldGoNegative,
        OutOfRange,
        InvalidUtf8,
        Unsupported,
        PermissionDenied,
        OsError,
        Panic,
    ];
    ALL.iter()
        .find(|s| **s as u32 == status)
        .map_or(c"unknown status", |s| s.describe())
        .as_ptr()
}

/// The message of the last failed call on this thread ("" if none): NUL-terminated, owned by
/// the library, valid until the next Picollo call on the same thread. Never NULL.
#[no_mangle]
pub extern "C" fn picollo_last_error_message() -> *const c_char {
    LAST_ERROR
        .try_with(|e| e.borrow().as_ptr())
        .unwrap_or(c"".as_ptr())
}

/// Run `body` at the C boundary: a panic becomes `PICOLLO_STATUS_PANIC` with a message.
pub(crate) fn guard(body: impl FnOnce() -> picollo_status) -> picollo_status {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(status) => status,
        Err(payload) => {
            let what = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            fail(picollo_status::Panic, format!("internal panic: {what}"))
        }
    }
}

/// Like [`guard`] for calls that return a plain value: a panic yields `fallback`.
pub(crate) fn guard_value<T>(fallback: T, body: impl FnOnce() -> T) -> T {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(v) => v,
        Err(_) => {
            fail(picollo_status::Panic, "internal panic");
            fallback
        }
    }
}

/// Turn a `Result` from a body into a status, setting the message on error.
pub(crate) fn status_of(r: Result<(), (picollo_status, String)>) -> picollo_status {
    match r {
        Ok(()) => picollo_status::Ok,
        Err((s, m)) => fail(s, m),
    }
}

/// The error for a NULL argument named `what`.
pub(crate) fn null(what: &str) -> (picollo_status, String) {
    (
        picollo_status::NullPointer,
        format!("argument `{what}` is NULL"),
    )
}

/// `&T` from a C pointer, or an error naming the argument.
///
/// # Safety
/// `p` is NULL or points to a live, properly aligned `T` not mutated for `'a`.
pub(crate) unsafe fn as_ref<'a, T>(
    p: *const T,
    what: &str,
) -> Result<&'a T, (picollo_status, String)> {
    // SAFETY: the caller guarantees p is NULL or valid for 'a; NULL is checked by as_ref.
    unsafe { p.as_ref() }.ok_or_else(|| null(what))
}

/// `&mut T` from a C pointer, or an error naming the argument.
///
/// # Safety
/// `p` is NULL or points to a live, properly aligned `T` not aliased for `'a`.
pub(crate) unsafe fn as_mut<'a, T>(
    p: *mut T,
    what: &str,
) -> Result<&'a mut T, (picollo_status, String)> {
    // SAFETY: the caller guarantees p is NULL or valid and unaliased for 'a.
    unsafe { p.as_mut() }.ok_or_else(|| null(what))
}

/// A slice from a C pointer and length; NULL is accepted only for length 0.
///
/// # Safety
/// If `len > 0`, `p` points to `len` readable, initialised `T`s valid for `'a`.
pub(crate) unsafe fn as_slice<'a, T>(
    p: *const T,
    len: usize,
    what: &str,
) -> Result<&'a [T], (picollo_status, String)> {
    if len == 0 {
        return Ok(&[]);
    }
    if p.is_null() {
        return Err(null(what));
    }
    // SAFETY: p is non-NULL and the caller guarantees len readable elements.
    Ok(unsafe { std::slice::from_raw_parts(p, len) })
}

/// A mutable slice from a C pointer and length; NULL is accepted only for length 0.
///
/// # Safety
/// If `len > 0`, `p` points to `len` writable `T`s valid and unaliased for `'a`.
pub(crate) unsafe fn as_slice_mut<'a, T>(
    p: *mut T,
    len: usize,
    what: &str,
) -> Result<&'a mut [T], (picollo_status, String)> {
    if len == 0 {
        return Ok(&mut []);
    }
    if p.is_null() {
        return Err(null(what));
    }
    // SAFETY: p is non-NULL and the caller guarantees len writable, unaliased elements.
    Ok(unsafe { std::slice::from_raw_parts_mut(p, len) })
}

/// A `&str` from an optional NUL-terminated C string: NULL means "".
///
/// # Safety
/// `p` is NULL or points to a NUL-terminated string valid for `'a`.
pub(crate) unsafe fn as_str<'a>(
    p: *const c_char,
    what: &str,
) -> Result<&'a str, (picollo_status, String)> {
    if p.is_null() {
        return Ok("");
    }
    // SAFETY: p is non-NULL and NUL-terminated per the caller.
    unsafe { CStr::from_ptr(p) }.to_str().map_err(|_| {
        (
            picollo_status::InvalidUtf8,
            format!("argument `{what}` is not valid UTF-8"),
        )
    })
}

/// Write `text` snprintf-style into `buf` (capacity `len`, may be NULL when `len` is 0):
/// as much as fits on a UTF-8 character boundary, then a NUL. `*needed` (if not NULL) gets
/// the full length without the NUL. `BUFFER_TOO_SMALL` when truncated.
///
/// # Safety
/// `buf` is NULL or points to `len` writable bytes; `needed` is NULL or writable.
pub(crate) unsafe fn write_text(
    text: &str,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> picollo_status {
    if !needed.is_null() {
        // SAFETY: non-NULL and writable per the caller.
        unsafe { needed.write(text.len()) };
    }
    if len == 0 || buf.is_null() {
        // The usual way to ask for the size first: (NULL, 0).
        return fail(
            picollo_status::BufferTooSmall,
            format!(
                "buffer of {len} bytes is too small: {} needed",
                text.len() + 1
            ),
        );
    }
    let mut n = text.len().min(len - 1);
    while !text.is_char_boundary(n) {
        n -= 1;
    }
    // SAFETY: buf has len > n writable bytes per the caller; text has n readable bytes.
    unsafe {
        std::ptr::copy_nonoverlapping(text.as_ptr(), buf.cast::<u8>(), n);
        buf.add(n).write(0);
    }
    if n < text.len() {
        fail(
            picollo_status::BufferTooSmall,
            format!(
                "buffer of {len} bytes is too small: {} needed",
                text.len() + 1
            ),
        )
    } else {
        picollo_status::Ok
    }
}
