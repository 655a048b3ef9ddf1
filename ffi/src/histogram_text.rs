//! Text of a histogram into caller buffers: `picollo_histogram_table`.

use std::ffi::c_char;

use crate::any_histogram::dispatch_view;
use crate::args::try_str;
use crate::boundary::boundary;
use crate::buffer::write_text;
use crate::handle::try_ref;
use crate::histogram::picollo_histogram;
use crate::status::picollo_status;
use crate::text::{fmt_internal, rendered};

/// Writes the Markdown table of a histogram's summary into `buf` (`##### title` heading
/// unless `title` is NULL or empty). Buffer rules as `picollo_summary_table`.
///
/// # Safety
/// `h` is NULL or a live handle; other arguments as `picollo_summary_table`.
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_table(
    h: *const picollo_histogram,
    title: *const c_char,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> picollo_status {
    boundary!({
        let h = try_ref!(h)?;
        let title = try_str!(title, or "")?;
        let summary = h.with_view(|view| dispatch_view!(view, v => v.summary()));
        let text = rendered(|out| summary.write_table(out, title)).map_err(fmt_internal)?;
        write_text!(&text, buf, len, needed)
    })
}
