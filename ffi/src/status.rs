//! `picollo_status`: the result of every fallible call, and its text.

use std::ffi::{c_char, CStr};

/// Result of a fallible call: `PICOLLO_STATUS_OK` (0), or an error explained by
/// `picollo_last_error_message()`.
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
    /// Memory for a histogram, a copy of its counts or a result ran out; nothing was changed.
    OutOfMemory = 14,
    /// Not a V2 histogram, not base64, or an unreadable interval log line (the message says which).
    FormatError = 15,
    /// The format cannot hold the histogram (saturated, or over 2^63 − 1 in V2); none written.
    Unencodable = 16,
}

/// The text of every status, one line each, in the order of their values. The `match` in
/// `describe` makes the compiler check that every status has a line; the assertions below
/// check that `ALL[i]` has the value `i`, so `picollo_status_str` can index it.
macro_rules! status_texts {
    ($($status:ident => $text:literal,)*) => {
        impl picollo_status {
            /// Every status, in the order of their values.
            const ALL: &'static [picollo_status] = &[$(picollo_status::$status),*];

            /// Static description of the status.
            pub(crate) fn describe(self) -> &'static CStr {
                match self {
                    $(picollo_status::$status => $text,)*
                }
            }
        }
    };
}

status_texts! {
    Ok => c"ok",
    NullPointer => c"a required pointer argument is NULL",
    InvalidArgument => c"invalid argument",
    StructSize => c"struct_size does not match this library",
    BufferTooSmall => c"buffer too small: output truncated",
    Empty => c"the histogram holds no value in its range",
    LayoutMismatch => c"histograms have different relative errors",
    WouldGoNegative => c"subtraction would make a count negative",
    OutOfRange => c"index past the end",
    InvalidUtf8 => c"text is not valid UTF-8",
    Unsupported => c"not supported here",
    PermissionDenied => c"permission denied",
    OsError => c"operating-system call failed",
    Panic => c"internal error (panic caught at the C boundary)",
    OutOfMemory => c"out of memory",
    FormatError => c"the input is not in the expected format",
    Unencodable => c"the histogram cannot be written in that format",
}

const _: () = {
    let mut i = 0;
    while i < picollo_status::ALL.len() {
        assert!(picollo_status::ALL[i] as usize == i);
        i += 1;
    }
};

/// Returns the text of a status code: a static, NUL-terminated string, never NULL
/// ("unknown status" for a code this library does not know).
#[no_mangle]
pub extern "C" fn picollo_status_str(status: u32) -> *const c_char {
    picollo_status::ALL
        .get(status as usize)
        .map_or(c"unknown status", |s| s.describe())
        .as_ptr()
}
