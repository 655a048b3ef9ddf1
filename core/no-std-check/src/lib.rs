//! A `#![no_std]` static library with its own panic handler and no allocator. If anything in
//! `picollo` pulled in `std` (or `alloc`), this would not link: `std` brings a second
//! `#[panic_handler]` (E0152) and `alloc` needs a global allocator.
#![no_std]

use core::fmt::Write;
use picollo::{Config, Histogram};

const CONFIG: Config = Config::new()
    .with_relative_error(0.01)
    .with_range(10_000, 30_000);
const LEN: usize = CONFIG.storage_len();

/// A histogram in a `static`, built and sized at compile time.
static mut HISTOGRAM: Histogram<u32, [u32; LEN]> = match Histogram::new_array(CONFIG) {
    Ok(h) => h,
    Err(_) => panic!("the configuration is valid and LEN is its storage length"),
};

#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    loop {}
}

/// Records `n` values from `values` into a stack histogram and writes its table into `out`
/// (capacity `cap`); returns the bytes written, or 0 on failure.
///
/// # Safety
/// `values` must point to `n` readable `u64`s and `out` to `cap` writable bytes.
#[no_mangle]
pub unsafe extern "C" fn nostd_table(values: *const u64, n: usize, out: *mut u8, cap: usize) -> usize {
    // SAFETY: the caller promises `values` points to `n` readable u64s.
    let values = unsafe { core::slice::from_raw_parts(values, n) };
    // SAFETY: the caller promises `out` points to `cap` writable bytes.
    let out = unsafe { core::slice::from_raw_parts_mut(out, cap) };
    let mut h = match Histogram::<u32, [u32; LEN]>::from_storage(CONFIG, [0; LEN]) {
        Ok(h) => h,
        Err(_) => return 0,
    };
    for &v in values {
        h.record(v);
    }
    let mut w = SliceWriter { buf: out, len: 0 };
    match h.view().summary().write_table(&mut w, "no_std") {
        Ok(()) => w.len,
        Err(_) => 0,
    }
}

/// Records `n` values into a histogram whose range ends at `max` (chosen at run time) over
/// an inline `heapless::Vec` of at most 512 counters, and writes its one-line summary into a
/// fixed `heapless::String`, then into `out` (capacity `cap`). Returns the bytes written, or
/// 0 when `max` needs more than 512 counters or the line does not fit.
///
/// # Safety
/// `values` must point to `n` readable `u64`s and `out` to `cap` writable bytes.
#[no_mangle]
pub unsafe extern "C" fn nostd_line(
    values: *const u64,
    n: usize,
    max: u64,
    out: *mut u8,
    cap: usize,
) -> usize {
    // SAFETY: the caller promises `values` points to `n` readable u64s.
    let values = unsafe { core::slice::from_raw_parts(values, n) };
    // SAFETY: the caller promises `out` points to `cap` writable bytes.
    let out = unsafe { core::slice::from_raw_parts_mut(out, cap) };
    let config = Config::new().with_relative_error(0.01).with_range(10_000, max);
    let Ok(mut h) = Histogram::<u32, heapless::Vec<u32, 512>>::new_heapless(config) else {
        return 0;
    };
    for &v in values {
        h.record(v);
    }
    let mut line = heapless::String::<512>::new();
    if h.view().summary().write_line(&mut line, "no_std").is_err() || line.len() > cap {
        return 0;
    }
    out[..line.len()].copy_from_slice(line.as_bytes());
    line.len()
}

/// Records into the histogram held in a `static` and returns its running total (values
/// inside the range recorded so far by every call).
#[no_mangle]
pub extern "C" fn nostd_static_record(v: u64) -> u64 {
    // SAFETY: this check crate is single-threaded by contract; the static is only reached here.
    let h = unsafe { &mut *core::ptr::addr_of_mut!(HISTOGRAM) };
    h.record(v);
    h.total_count()
}

/// The precompiled `core` names Rust's unwinding personality routine in its unwind tables.
/// This crate panics with abort, so nothing ever unwinds and the routine is never called,
/// but a C linker still wants the symbol: a `no_std` static library provides it itself.
#[no_mangle]
pub extern "C" fn rust_eh_personality() {}

struct SliceWriter<'a> {
    buf: &'a mut [u8],
    len: usize,
}

impl Write for SliceWriter<'_> {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        let end = self.len + s.len();
        let dst = self.buf.get_mut(self.len..end).ok_or(core::fmt::Error)?;
        dst.copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}
