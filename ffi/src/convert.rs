//! The C enums' numbering, converted to and from the core's enums (the core does not know
//! the C values).

use picollo_core::concurrent::{ApproxPolicy, CounterBits, Mode};
use picollo_core::ValueSelection;

use crate::error::Failure;
use crate::types::{picollo_mode, picollo_value_selection};

/// The core value selection for a C `picollo_value_selection` value.
pub(crate) fn selection_from_c(v: u32) -> Option<ValueSelection> {
    Some(match v {
        x if x == picollo_value_selection::Midpoint as u32 => ValueSelection::Midpoint,
        x if x == picollo_value_selection::Lower as u32 => ValueSelection::Lower,
        x if x == picollo_value_selection::Upper as u32 => ValueSelection::Upper,
        x if x == picollo_value_selection::Interpolated as u32 => ValueSelection::Interpolated,
        _ => return None,
    })
}

/// The core value selection of the argument or config field `name` (`value`), or the failure
/// that lists the values it may take: the one rule of every value selection the C ABI takes.
pub(crate) fn selection_arg(value: u32, name: &str) -> Result<ValueSelection, Failure> {
    selection_from_c(value).ok_or_else(|| {
        Failure::invalid(format_args!(
            "{name} is {value}: it must be 0 (midpoint), 1 (lower), 2 (upper) or 3 \
             (interpolated)"
        ))
    })
}

/// The C `picollo_value_selection` value of a core value selection.
pub(crate) fn selection_to_c(s: ValueSelection) -> u32 {
    let c = match s {
        ValueSelection::Lower => picollo_value_selection::Lower,
        ValueSelection::Upper => picollo_value_selection::Upper,
        ValueSelection::Interpolated => picollo_value_selection::Interpolated,
        _ => picollo_value_selection::Midpoint,
    };
    c as u32
}

/// A config's `counter_bits`, which must be 32 or 64.
pub(crate) fn config_counter_bits(counter_bits: u32) -> Result<u32, Failure> {
    if counter_bits != 32 && counter_bits != 64 {
        return Err(Failure::invalid(format_args!(
            "counter_bits is {counter_bits}: it must be 32 or 64"
        )));
    }
    Ok(counter_bits)
}

/// A config's `storage` field: 0 is `dense`, 1 is `sparse` (the integer and the float
/// histograms' storage kinds).
pub(crate) fn config_storage<S>(storage: u32, (dense, sparse): (S, S)) -> Result<S, Failure> {
    match storage {
        0 => Ok(dense),
        1 => Ok(sparse),
        s => Err(Failure::invalid(format_args!(
            "storage is {s}: it must be 0 (dense) or 1 (sparse)"
        ))),
    }
}

/// The counter width for `counter_bits`, which [`config_counter_bits`] limited to 32 or 64.
pub(crate) fn bits_from_c(bits: u32) -> CounterBits {
    if bits == 32 {
        CounterBits::U32
    } else {
        CounterBits::U64
    }
}

/// `counter_bits` of a counter width.
pub(crate) fn bits_to_c(bits: CounterBits) -> u32 {
    match bits {
        CounterBits::U32 => 32,
        CounterBits::U64 => 64,
    }
}

/// The core mode for a C `picollo_mode` value and, for the approximate mode, its threshold
/// T (0 means the default, 13).
pub(crate) fn mode_from_c(mode: u32, threshold: u32) -> Option<Mode> {
    Some(match mode {
        x if x == picollo_mode::SingleWriter as u32 => Mode::SingleWriter,
        x if x == picollo_mode::Interlocked as u32 => Mode::Interlocked,
        x if x == picollo_mode::ThreadLocal as u32 => Mode::ThreadLocal,
        x if x == picollo_mode::Approximate as u32 => {
            let p = ApproxPolicy::new();
            Mode::Approximate(if threshold == 0 {
                p
            } else {
                p.with_threshold(threshold)
            })
        }
        _ => return None,
    })
}

/// The C mode of a core mode, and its approximate threshold (0 in the other modes).
pub(crate) fn mode_to_c(mode: Mode) -> (picollo_mode, u32) {
    match mode {
        Mode::Interlocked => (picollo_mode::Interlocked, 0),
        Mode::ThreadLocal => (picollo_mode::ThreadLocal, 0),
        Mode::Approximate(p) => (picollo_mode::Approximate, p.threshold()),
        _ => (picollo_mode::SingleWriter, 0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes_round_trip_through_their_c_values() {
        assert_eq!(mode_from_c(0, 0), Some(Mode::SingleWriter));
        assert_eq!(mode_from_c(1, 0), Some(Mode::Interlocked));
        assert_eq!(mode_from_c(2, 0), Some(Mode::ThreadLocal));
        let Some(Mode::Approximate(p)) = mode_from_c(3, 0) else {
            panic!()
        };
        assert_eq!(p.threshold(), 13);
        let Some(Mode::Approximate(p)) = mode_from_c(3, 10) else {
            panic!()
        };
        assert_eq!(p.threshold(), 10);
        assert_eq!(mode_from_c(4, 0), None);
        for c in 0..4 {
            let mode = mode_from_c(c, if c == 3 { 10 } else { 0 }).unwrap();
            let (back, threshold) = mode_to_c(mode);
            assert_eq!((back as u32, threshold), (c, if c == 3 { 10 } else { 0 }));
        }
    }

    #[test]
    fn value_selections_round_trip_through_their_c_values() {
        for c in 0..4 {
            assert_eq!(selection_to_c(selection_from_c(c).unwrap()), c);
        }
        assert_eq!(selection_from_c(4), None);
    }
}
