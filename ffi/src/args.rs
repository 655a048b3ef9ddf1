//! Arguments that are not handles: arrays, strings, output slots and `struct_size`-prefixed
//! config structs. Each helper states its pointer contract once; the macros apply it to an
//! argument of an exported function, whose `# Safety` section makes the caller promise it.

use std::ffi::{c_char, CStr};

use crate::error::Failure;
use crate::status::picollo_status;

/// A NULL-pointer failure for `p` when `len > 0` (a NULL array is fine when empty). Check
/// every array of a call this way before building any slice from them.
pub(crate) fn require<T>(p: *const T, len: usize, name: &str) -> Result<(), Failure> {
    if len > 0 && p.is_null() {
        return Err(Failure::null(name));
    }
    Ok(())
}

/// An output array of `capacity` elements must have room for the `needed` ones, checked
/// before anything is written to it: else `BUFFER_TOO_SMALL` with the message of `too_small`.
pub(crate) fn check_room(
    capacity: usize,
    needed: usize,
    too_small: impl FnOnce() -> String,
) -> Result<(), Failure> {
    if capacity < needed {
        return Err(Failure::new(picollo_status::BufferTooSmall, too_small()));
    }
    Ok(())
}

/// `len` elements of `T` must fit the address space (`from_raw_parts`'s rule).
fn check_len<T>(len: usize, name: &str) -> Result<(), Failure> {
    if len.saturating_mul(std::mem::size_of::<T>()) > isize::MAX as usize {
        return Err(Failure::invalid(format_args!(
            "argument `{name}`: {len} elements do not fit in memory"
        )));
    }
    Ok(())
}

/// A slice from a C array and its length; NULL is accepted only for length 0.
///
/// # Safety
/// If `len > 0`, `p` points to `len` readable, initialised `T`s valid for `'a`.
pub(crate) unsafe fn slice_from<'a, T>(
    p: *const T,
    len: usize,
    name: &str,
) -> Result<&'a [T], Failure> {
    require(p, len, name)?;
    check_len::<T>(len, name)?;
    if len == 0 {
        return Ok(&[]);
    }
    // SAFETY: `p` is non-NULL, `len` elements fit the address space (checked above), and
    // the caller guarantees they are readable and initialised for 'a.
    Ok(unsafe { std::slice::from_raw_parts(p, len) })
}

/// A mutable slice from a C array and its length; NULL is accepted only for length 0.
///
/// # Safety
/// If `len > 0`, `p` points to `len` writable `T`s, valid and unaliased for `'a`.
pub(crate) unsafe fn slice_mut_from<'a, T>(
    p: *mut T,
    len: usize,
    name: &str,
) -> Result<&'a mut [T], Failure> {
    require(p, len, name)?;
    check_len::<T>(len, name)?;
    if len == 0 {
        return Ok(&mut []);
    }
    // SAFETY: as in `slice_from`, with `len` writable, unaliased elements.
    Ok(unsafe { std::slice::from_raw_parts_mut(p, len) })
}

/// The bytes of a C text given with its length (`const char *text, size_t len`, no NUL
/// needed); NULL is accepted only for length 0.
///
/// # Safety
/// If `len > 0`, `p` points to `len` readable bytes valid for `'a`.
pub(crate) unsafe fn bytes_from<'a>(
    p: *const c_char,
    len: usize,
    name: &str,
) -> Result<&'a [u8], Failure> {
    // SAFETY: forwarded contract; `c_char` and `u8` have the same size and alignment.
    unsafe { slice_from(p.cast::<u8>(), len, name) }
}

/// An optional string field: `None` for NULL, else its text ([`str_from`]'s UTF-8 failure
/// naming `name`).
///
/// # Safety
/// `p` is NULL or points to a NUL-terminated string valid for `'a`.
pub(crate) unsafe fn optional_str<'a>(
    p: *const c_char,
    name: &str,
) -> Result<Option<&'a str>, Failure> {
    match p.is_null() {
        true => Ok(None),
        // SAFETY: `p` is non-NULL and NUL-terminated for 'a, per the caller.
        false => unsafe { str_from(p, name, None) }.map(Some),
    }
}

/// A `&str` from a NUL-terminated C string; NULL gives `when_null` (None: a NULL-pointer
/// failure).
///
/// # Safety
/// `p` is NULL or points to a NUL-terminated string valid for `'a`.
pub(crate) unsafe fn str_from<'a>(
    p: *const c_char,
    name: &str,
    when_null: Option<&'static str>,
) -> Result<&'a str, Failure> {
    if p.is_null() {
        return when_null.ok_or_else(|| Failure::null(name));
    }
    // SAFETY: `p` is non-NULL and NUL-terminated for 'a, per the caller.
    unsafe { CStr::from_ptr(p) }.to_str().map_err(|_| {
        Failure::new(
            picollo_status::InvalidUtf8,
            format_args!("argument `{name}` is not valid UTF-8"),
        )
    })
}

/// Write `value` to an output slot; NULL is a failure naming it when `required`, else the
/// value is dropped.
///
/// # Safety
/// `p` is NULL or points to a writable `T`.
pub(crate) unsafe fn write_out<T>(
    p: *mut T,
    value: T,
    name: &str,
    required: bool,
) -> Result<(), Failure> {
    if p.is_null() {
        return if required {
            Err(Failure::null(name))
        } else {
            Ok(())
        };
    }
    // SAFETY: `p` is non-NULL and writable, per the caller. `write` does not drop the old
    // value, which may be uninitialised caller memory.
    unsafe { p.write(value) };
    Ok(())
}

/// A `#[repr(C)]` config struct whose first field is `struct_size: u32`, the size of the
/// struct as the caller knows it, so that the struct can grow.
///
/// # Safety
/// Implementors are `#[repr(C)]`, start with a `u32` `struct_size` field, and every bit
/// pattern is a valid value (integers and floats only).
pub(crate) unsafe trait StructSized: Copy {
    /// The C name of the struct (a config struct's `<NAME>_default()` initialises it).
    const NAME: &'static str;
    /// The sizes the struct had in older ABIs, accepted from callers built against those
    /// headers: the fields added since read as zero.
    const OLDER_SIZES: &'static [usize] = &[];

    /// This library's struct with `struct_size` set to its size and every other field zero
    /// (0, 0.0, NULL): what a config struct's `<NAME>_default()` starts from.
    fn sized() -> Self {
        // SAFETY: every bit pattern, all zeros included, is a valid value (the trait's
        // contract).
        let mut value: Self = unsafe { std::mem::zeroed() };
        let size = std::mem::size_of::<Self>() as u32;
        // SAFETY: the struct is `#[repr(C)]` and starts with its `u32` `struct_size` (the
        // trait's contract), so its first 4 bytes are that field.
        unsafe { std::ptr::from_mut(&mut value).cast::<u32>().write(size) };
        value
    }
}

/// Declare a config struct [`StructSized`] under its C name: `struct_sized!(picollo_x);`, or
/// `struct_sized!(picollo_x, older: [field, …]);` where older ABIs ended the struct before
/// each of those fields (its [`StructSized::OLDER_SIZES`]). The invocation carries the
/// `// SAFETY:` argument that the struct meets the trait's contract.
macro_rules! struct_sized {
    ($t:ident) => {
        $crate::args::struct_sized!($t, older: []);
    };
    ($t:ident, older: [$($field:ident),* $(,)?]) => {
        // SAFETY: the `// SAFETY:` comment above the invocation argues the contract for `$t`.
        unsafe impl $crate::args::StructSized for $t {
            const NAME: &'static str = stringify!($t);
            const OLDER_SIZES: &'static [usize] = &[$(std::mem::offset_of!($t, $field)),*];
        }
    };
}
pub(crate) use struct_sized;

/// The largest `struct_size` looked at (a page, as the kernel caps `perf_event_attr`): a
/// garbage size must not make the library scan memory.
pub(crate) const MAX_STRUCT_SIZE: usize = 4096;

/// Read a caller's config honouring its `struct_size`: smaller than this library's struct
/// is accepted when it is one of the struct's [`StructSized::OLDER_SIZES`] (a caller built
/// against an older header), the fields it does not have reading as zero; larger (a caller
/// built against a newer header) is accepted only when every byte this library does not
/// know is zero, as the kernel does for `perf_event_attr`, and only up to
/// [`MAX_STRUCT_SIZE`].
///
/// # Safety
/// `p` is NULL or points to `p->struct_size` readable bytes (at least 4).
pub(crate) unsafe fn read_sized_from<T: StructSized>(
    p: *const T,
    name: &str,
) -> Result<T, Failure> {
    if p.is_null() {
        return Err(Failure::null(name));
    }
    // Read only the size first: a caller's older, smaller struct must not be read past.
    // SAFETY: `p` is non-NULL and its first field, a u32, is always readable.
    let struct_size = unsafe { p.cast::<u32>().read() };
    let (size, ours) = (struct_size as usize, std::mem::size_of::<T>());
    let name = T::NAME;
    if size > MAX_STRUCT_SIZE {
        return Err(Failure::struct_size(format_args!(
            "struct_size is {struct_size}, more than the {MAX_STRUCT_SIZE} bytes any \
             {name} may have: initialise it with {name}_default()"
        )));
    }
    let extra_zero = || {
        // SAFETY: size > ours here, and the caller promises struct_size readable bytes.
        let extra = unsafe { std::slice::from_raw_parts(p.cast::<u8>().add(ours), size - ours) };
        extra.iter().all(|&b| b == 0)
    };
    if (size < ours && !T::OLDER_SIZES.contains(&size)) || (size > ours && !extra_zero()) {
        return Err(Failure::struct_size(format_args!(
            "struct_size is {struct_size} but this library's {name} has {ours} bytes (a \
             larger struct is accepted only if the fields this library does not know are \
             zero, a smaller one only at a size older headers gave it: {:?}): initialise \
             it with {name}_default()",
            T::OLDER_SIZES
        )));
    }
    if size < ours {
        let mut value = std::mem::MaybeUninit::<T>::zeroed();
        // SAFETY: the caller promises `size` readable bytes at `p`; `value` has room for
        // `ours > size` bytes; the two do not overlap.
        unsafe {
            std::ptr::copy_nonoverlapping(p.cast::<u8>(), value.as_mut_ptr().cast::<u8>(), size)
        };
        // SAFETY: every byte is initialised (zeroed, then partly copied) and any bit
        // pattern is a valid T (the `StructSized` contract).
        return Ok(unsafe { value.assume_init() });
    }
    // SAFETY: at least size_of::<T>() readable bytes (checked above); any bit pattern is a
    // valid T (the `StructSized` contract).
    Ok(unsafe { p.read() })
}

/// An output struct whose first field, `struct_size`, the caller sets to the size it knows
/// (`sizeof` in its header), so that the struct can grow: a smaller size is refused (the
/// library would write past the caller's struct); a larger one (a caller built against a
/// newer header) is accepted, and only this library's fields are written. Returns the
/// pointer and the caller's `struct_size`. Check it before doing any work; write it with
/// `out!` once the call has succeeded.
///
/// # Safety
/// `p` is NULL or points to a writable struct whose first 4 bytes, `struct_size`, are
/// initialised, and which has `struct_size` writable bytes.
pub(crate) unsafe fn sized_out_from<T: StructSized>(
    p: *mut T,
    name: &str,
) -> Result<(*mut T, u32), Failure> {
    if p.is_null() {
        return Err(Failure::null(name));
    }
    // SAFETY: `p` is non-NULL and its first field, a u32, is initialised per the caller.
    let struct_size = unsafe { p.cast::<u32>().read() };
    let ours = std::mem::size_of::<T>();
    if (struct_size as usize) < ours {
        return Err(Failure::struct_size(format_args!(
            "{name}->struct_size is {struct_size} but this library's {} has {ours} bytes: \
             set it to sizeof({})",
            T::NAME,
            T::NAME
        )));
    }
    Ok((p, struct_size))
}

/// `try_slice!(p, len)`: [`slice_from`] on an argument of the exported function.
macro_rules! try_slice {
    ($p:expr, $len:expr) => {
        // SAFETY: the exported function's `# Safety` section makes the caller promise that
        // `$p` points to `$len` readable elements (or is NULL when `$len` is 0).
        unsafe { $crate::args::slice_from($p, $len, stringify!($p)) }
    };
}
pub(crate) use try_slice;

/// `try_slice_mut!(p, len)`: [`slice_mut_from`] on an argument of the exported function.
macro_rules! try_slice_mut {
    ($p:expr, $len:expr) => {
        // SAFETY: the exported function's `# Safety` section makes the caller promise that
        // `$p` points to `$len` writable, unaliased elements (or is NULL when `$len` is 0).
        unsafe { $crate::args::slice_mut_from($p, $len, stringify!($p)) }
    };
}
pub(crate) use try_slice_mut;

/// `try_str!(p)`: a required string argument; `try_str!(p, or "")`: NULL means `""`.
macro_rules! try_str {
    (@ $p:expr, $when_null:expr) => {
        // SAFETY: the exported function's `# Safety` section makes the caller promise that
        // `$p` is NULL or a NUL-terminated string.
        unsafe { $crate::args::str_from($p, stringify!($p), $when_null) }
    };
    ($p:expr) => {
        $crate::args::try_str!(@ $p, None)
    };
    ($p:expr, or $default:literal) => {
        $crate::args::try_str!(@ $p, Some($default))
    };
}
pub(crate) use try_str;

/// `out!(p, value)`: write a required output slot (a NULL `p` fails, naming it);
/// `out!(p?, value)`: an optional one (NULL skips the write). Call it once the call has
/// succeeded: outputs are written only on success.
macro_rules! out {
    (@ $p:expr, $value:expr, $required:expr) => {
        // SAFETY: the exported function's `# Safety` section makes the caller promise that
        // `$p` is NULL or writable.
        unsafe { $crate::args::write_out($p, $value, stringify!($p), $required) }
    };
    ($p:ident ?, $value:expr) => {
        $crate::args::out!(@ $p, $value, false)
    };
    ($p:expr, $value:expr) => {
        $crate::args::out!(@ $p, $value, true)
    };
}
pub(crate) use out;

/// `read_sized!(config)`: [`read_sized_from`] on an argument of the exported function.
macro_rules! read_sized {
    ($p:expr) => {
        // SAFETY: the exported function's `# Safety` section makes the caller promise that
        // `$p` is NULL or points to `$p->struct_size` readable bytes.
        unsafe { $crate::args::read_sized_from($p, stringify!($p)) }
    };
}
pub(crate) use read_sized;

/// `try_bytes!(p, len)`: [`bytes_from`] on an argument of the exported function.
macro_rules! try_bytes {
    ($p:expr, $len:expr) => {
        // SAFETY: the exported function's `# Safety` section makes the caller promise that
        // `$p` points to `$len` readable bytes (or is NULL when `$len` is 0).
        unsafe { $crate::args::bytes_from($p, $len, stringify!($p)) }
    };
}
pub(crate) use try_bytes;

/// `sized_out!(p)`: [`sized_out_from`] on an argument of the exported function.
macro_rules! sized_out {
    ($p:expr) => {
        // SAFETY: the exported function's `# Safety` section makes the caller promise that
        // `$p` is NULL or a writable struct with `struct_size` set and that many bytes.
        unsafe { $crate::args::sized_out_from($p, stringify!($p)) }
    };
}
pub(crate) use sized_out;

/// The body of a query that writes one value to an output slot. `query!(h, |h| value => out)`
/// checks the handle `h`, computes `value` (which may use `?`), then writes it to the
/// required slot `out`; `query!(h, out = |h| value)` checks `out` before computing;
/// `query!(h, new out = |h| value)` stores `value` boxed as a new handle in `*out`;
/// `query!(h, |h| text => text(buf, len, needed))` writes the `&str` `text` into the caller's
/// buffer (`write_text!`).
macro_rules! query {
    ($h:ident, |$v:ident| $text:expr => text($buf:ident, $len:ident, $needed:ident)) => {
        $crate::boundary::boundary!({
            let $v = $crate::handle::try_ref!($h)?;
            $crate::buffer::write_text!($text, $buf, $len, $needed)
        })
    };
    ($h:ident, |$v:ident| $value:expr => $out:ident) => {
        $crate::boundary::boundary!({
            let $v = $crate::handle::try_ref!($h)?;
            let value = $value;
            $crate::args::out!($out, value)
        })
    };
    ($h:ident, new $out:ident = |$v:ident| $value:expr) => {
        $crate::boundary::boundary!({
            let $v = $crate::handle::try_ref!($h)?;
            let $out = $crate::handle::try_mut!($out)?;
            $crate::handle::set_boxed($out, $value);
            Ok(())
        })
    };
    ($h:ident, $out:ident = |$v:ident| $value:expr) => {
        $crate::boundary::boundary!({
            let $v = $crate::handle::try_ref!($h)?;
            let $out = $crate::handle::try_mut!($out)?;
            *$out = $value;
            Ok(())
        })
    };
}
pub(crate) use query;

/// The body of a `_new` from a config struct: `create!(config, out = |c| value)` reads the
/// sized struct `config` (as `read_sized!`) into `c`, checks the output slot `out`, then
/// stores `value` (which may use `?`) boxed as a new handle in `*out`.
macro_rules! create {
    ($config:ident, $out:ident = |$c:ident| $value:expr) => {
        $crate::boundary::boundary!({
            let $c = $crate::args::read_sized!($config)?;
            let $out = $crate::handle::try_mut!($out)?;
            $crate::handle::set_boxed($out, $value);
            Ok(())
        })
    };
}
pub(crate) use create;
