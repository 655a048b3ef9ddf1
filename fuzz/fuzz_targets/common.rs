//! Helpers the fuzz targets share.

use picollo::ValueSelection;

/// A value selection from a fuzzed byte.
pub fn selection(s: u8) -> ValueSelection {
    match s % 4 {
        0 => ValueSelection::Midpoint,
        1 => ValueSelection::Lower,
        2 => ValueSelection::Upper,
        _ => ValueSelection::Interpolated,
    }
}
