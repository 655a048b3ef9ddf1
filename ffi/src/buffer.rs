//! Text into caller buffers, snprintf-style, and binary outputs that are written whole or
//! not at all.

use std::ffi::c_char;

use crate::error::Failure;

/// A caller's output buffer: `len` writable elements at `buf` (NULL allowed only when `len`
/// is 0), the slot `needed` for the size of the output (NULL: not wanted), and the
/// argument's name for the NULL-pointer message.
pub(crate) struct CallerBuffer<'a, T> {
    buf: *mut T,
    len: usize,
    needed: *mut usize,
    name: &'a str,
}

impl<'a, T> CallerBuffer<'a, T> {
    /// The buffer arguments `buf`, `len` and `needed` of an exported function, `buf` named
    /// `name`.
    pub(crate) fn new(buf: *mut T, len: usize, needed: *mut usize, name: &'a str) -> Self {
        CallerBuffer {
            buf,
            len,
            needed,
            name,
        }
    }

    /// The same buffer seen as elements of another byte type (`c_char` and `u8`).
    pub(crate) fn cast<U>(self) -> CallerBuffer<'a, U> {
        CallerBuffer::new(self.buf.cast(), self.len, self.needed, self.name)
    }

    /// The start of every copy into a caller's buffer: a NULL `buf` with a length is refused
    /// (naming it) before anything is written; otherwise `*needed`, if not NULL, gets `size`.
    ///
    /// # Safety
    /// `needed` is NULL or writable.
    unsafe fn announce(&self, size: usize) -> Result<(), Failure> {
        if self.buf.is_null() && self.len > 0 {
            return Err(Failure::null(self.name));
        }
        if !self.needed.is_null() {
            // SAFETY: non-NULL and writable per the caller.
            unsafe { self.needed.write(size) };
        }
        Ok(())
    }
}

/// Write `text` into `out` as much as fits on a UTF-8 character boundary, then a NUL.
/// `*needed` (if not NULL) gets the full length without the NUL, even when the text does not
/// fit (`BUFFER_TOO_SMALL`). A NULL `buf` with a length is a caller's mistake, not a size
/// query: a NULL-pointer failure naming it, with nothing written.
///
/// # Safety
/// `out.buf` is NULL or points to `out.len` writable bytes; `out.needed` is NULL or writable.
pub(crate) unsafe fn copy_text(text: &str, out: CallerBuffer<'_, c_char>) -> Result<(), Failure> {
    // SAFETY: `needed` is NULL or writable per the caller.
    unsafe { out.announce(text.len()) }?;
    let (buf, len) = (out.buf, out.len);
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

/// `write_with!(copy, data, buf, len, needed)`: [`copy_text`] or [`copy_bytes`] (`copy`) of
/// `data` into the buffer arguments of the exported function, named by `buf`.
macro_rules! write_with {
    ($copy:ident, $data:expr, $buf:expr, $len:expr, $needed:expr) => {
        // SAFETY: the exported function's `# Safety` section makes the caller promise that
        // `$buf` is NULL or has `$len` writable bytes and `$needed` is NULL or writable.
        unsafe {
            let out = $crate::buffer::CallerBuffer::new($buf, $len, $needed, stringify!($buf));
            $crate::buffer::$copy($data, out)
        }
    };
}
pub(crate) use write_with;

/// `write_text!(text, buf, len, needed)`: [`copy_text`] on the buffer arguments of the
/// exported function.
macro_rules! write_text {
    ($($args:tt)*) => {
        $crate::buffer::write_with!(copy_text, $($args)*)
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

/// Write `bytes` into `out` whole, or nothing when they do not fit (binary data is useless
/// truncated): `BUFFER_TOO_SMALL`. `*needed` (if not NULL) gets the byte count either way, so
/// `(NULL, 0)` asks for the size. A NULL `buf` with a length is a NULL-pointer failure.
///
/// # Safety
/// `out.buf` is NULL or points to `out.len` writable bytes; `out.needed` is NULL or writable.
pub(crate) unsafe fn copy_bytes(bytes: &[u8], out: CallerBuffer<'_, u8>) -> Result<(), Failure> {
    // SAFETY: `needed` is NULL or writable per the caller.
    unsafe { out.announce(bytes.len()) }?;
    if out.len < bytes.len() {
        return Err(Failure::buffer_too_small(out.len, bytes.len()));
    }
    if !bytes.is_empty() {
        // SAFETY: buf is non-NULL here (len >= bytes.len() > 0) and has len writable bytes
        // per the caller; bytes has bytes.len() readable ones.
        unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), out.buf, bytes.len()) };
    }
    Ok(())
}

/// `write_bytes!(bytes, buf, len, needed)`: [`copy_bytes`] on the buffer arguments of the
/// exported function.
macro_rules! write_bytes {
    ($($args:tt)*) => {
        $crate::buffer::write_with!(copy_bytes, $($args)*)
    };
}
pub(crate) use write_bytes;
