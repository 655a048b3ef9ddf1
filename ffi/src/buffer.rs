//! Text into caller buffers, snprintf-style, and binary outputs that are written whole or
//! not at all.

use std::ffi::c_char;

use crate::error::Failure;

/// Write `text` into `buf` (capacity `len`, NULL allowed only when `len` is 0): as much as
/// fits on a UTF-8 character boundary, then a NUL. `*needed` (if not NULL) gets the full
/// length without the NUL, even when the text does not fit (`BUFFER_TOO_SMALL`). A NULL
/// `buf` with a length is a caller's mistake, not a size query: a NULL-pointer failure
/// naming `buf_name`, with nothing written.
///
/// # Safety
/// `buf` is NULL or points to `len` writable bytes; `needed` is NULL or writable.
pub(crate) unsafe fn copy_text(
    text: &str,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
    buf_name: &str,
) -> Result<(), Failure> {
    // SAFETY: `needed` is NULL or writable per the caller.
    unsafe { announce(buf.is_null(), len, needed, text.len(), buf_name) }?;
    if len == 0 {
        // The usual way to ask for the size first: (NULL, 0).
        return Err(Failure::buffer_too_small(len, text.len() + 1));
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
        return Err(Failure::buffer_too_small(len, text.len() + 1));
    }
    Ok(())
}

/// The start of every copy into a caller's buffer: a NULL `buf` with a length is refused
/// (naming `buf_name`) before anything is written; otherwise `*needed`, if not NULL, gets
/// `size`.
///
/// # Safety
/// `needed` is NULL or writable.
unsafe fn announce(
    buf_is_null: bool,
    len: usize,
    needed: *mut usize,
    size: usize,
    buf_name: &str,
) -> Result<(), Failure> {
    if buf_is_null && len > 0 {
        return Err(Failure::null(buf_name));
    }
    if !needed.is_null() {
        // SAFETY: non-NULL and writable per the caller.
        unsafe { needed.write(size) };
    }
    Ok(())
}

/// `write_text!(text, buf, len, needed)`: [`copy_text`] on the buffer arguments of the
/// exported function.
macro_rules! write_text {
    ($text:expr, $buf:expr, $len:expr, $needed:expr) => {
        // SAFETY: the exported function's `# Safety` section makes the caller promise that
        // `$buf` is NULL or has `$len` writable bytes and `$needed` is NULL or writable.
        unsafe { $crate::buffer::copy_text($text, $buf, $len, $needed, stringify!($buf)) }
    };
}
pub(crate) use write_text;

/// `take_text!(text, buf, len, needed)`: the pending text of a writer, `text` (a
/// `&mut String`), moved into the caller's buffer: [`write_text!`], then `text` cleared only
/// when all of it fit (a buffer too small takes nothing; call again, larger).
macro_rules! take_text {
    ($text:expr, $buf:expr, $len:expr, $needed:expr) => {{
        let text: &mut String = $text;
        $crate::buffer::write_text!(text, $buf, $len, $needed).map(|()| text.clear())
    }};
}
pub(crate) use take_text;

/// Write `bytes` into `buf` (capacity `len`, NULL allowed only when `len` is 0) whole, or
/// nothing when they do not fit (binary data is useless truncated): `BUFFER_TOO_SMALL`.
/// `*needed` (if not NULL) gets the byte count either way, so `(NULL, 0)` asks for the size.
/// A NULL `buf` with a length is a NULL-pointer failure naming `buf_name`.
///
/// # Safety
/// `buf` is NULL or points to `len` writable bytes; `needed` is NULL or writable.
pub(crate) unsafe fn copy_bytes(
    bytes: &[u8],
    buf: *mut u8,
    len: usize,
    needed: *mut usize,
    buf_name: &str,
) -> Result<(), Failure> {
    // SAFETY: `needed` is NULL or writable per the caller.
    unsafe { announce(buf.is_null(), len, needed, bytes.len(), buf_name) }?;
    if len < bytes.len() {
        return Err(Failure::buffer_too_small(len, bytes.len()));
    }
    if !bytes.is_empty() {
        // SAFETY: buf is non-NULL here (len >= bytes.len() > 0) and has len writable bytes
        // per the caller; bytes has bytes.len() readable ones.
        unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), buf, bytes.len()) };
    }
    Ok(())
}

/// `write_bytes!(bytes, buf, len, needed)`: [`copy_bytes`] on the buffer arguments of the
/// exported function.
macro_rules! write_bytes {
    ($bytes:expr, $buf:expr, $len:expr, $needed:expr) => {
        // SAFETY: the exported function's `# Safety` section makes the caller promise that
        // `$buf` is NULL or has `$len` writable bytes and `$needed` is NULL or writable.
        unsafe { $crate::buffer::copy_bytes($bytes, $buf, $len, $needed, stringify!($buf)) }
    };
}
pub(crate) use write_bytes;
