//! Labels (OpenMetrics) and attributes (OTLP): name and value pairs from C strings.

use std::ffi::c_char;

use crate::args::str_from;
use crate::error::Failure;
use crate::handle::caller_owned;

caller_owned!(picollo_label);

/// A label (OpenMetrics) or attribute (OTLP): a name and a value, both NUL-terminated UTF-8
/// strings, neither NULL.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct picollo_label {
    /// The name.
    pub name: *const c_char,
    /// The value.
    pub value: *const c_char,
}

/// The labels of an array as string pairs, checked: no NULL, valid UTF-8.
///
/// # Safety
/// Every name and value of `labels` is NULL or a NUL-terminated string valid for `'a`.
pub(crate) unsafe fn label_pairs<'a>(
    labels: &[picollo_label],
    what: &str,
) -> Result<Vec<(&'a str, &'a str)>, Failure> {
    let mut pairs = Vec::new();
    pairs
        .try_reserve_exact(labels.len())
        .map_err(|_| picollo_core::OutOfMemory {
            bytes: labels.len() * std::mem::size_of::<(&str, &str)>(),
        })?;
    for (i, label) in labels.iter().enumerate() {
        let (name, value) = (format!("{what}[{i}].name"), format!("{what}[{i}].value"));
        // SAFETY: NULL or NUL-terminated for 'a, per the caller.
        let name = unsafe { str_from(label.name, &name, None) }?;
        // SAFETY: as above.
        let value = unsafe { str_from(label.value, &value, None) }?;
        pairs.push((name, value));
    }
    Ok(pairs)
}

/// `try_labels!(labels, count)`: the label array argument of an exported function.
macro_rules! try_labels {
    ($p:expr, $len:expr) => {
        $crate::args::try_slice!($p, $len).and_then(|labels| {
            // SAFETY: the exported function's `# Safety` section makes the caller promise that
            // every name and value of the array is a NUL-terminated string.
            unsafe { $crate::metrics::labels::label_pairs(labels, stringify!($p)) }
        })
    };
}
pub(crate) use try_labels;
