//! The C enums' numbering, converted to and from the core's enums (the core does not know
//! the C values).

use picollo_core::concurrent::{ApproxPolicy, CounterBits, Mode, Storage};
use picollo_core::ValueSelection;

use crate::choice::choice;
use crate::enums::{picollo_mode, picollo_storage, picollo_value_selection};
use crate::error::Failure;

/// The core value selection of a C one.
fn selection_of(c: picollo_value_selection) -> ValueSelection {
    match c {
        picollo_value_selection::Midpoint => ValueSelection::Midpoint,
        picollo_value_selection::Lower => ValueSelection::Lower,
        picollo_value_selection::Upper => ValueSelection::Upper,
        picollo_value_selection::Interpolated => ValueSelection::Interpolated,
    }
}

/// The core value selection of the argument or config field `name` (`value`), by [`choice`].
pub(crate) fn selection_arg(value: u32, name: &str) -> Result<ValueSelection, Failure> {
    choice(value, name).map(selection_of)
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

/// The core storage of a histogram config's `storage` field (a `picollo_storage`), by
/// [`choice`].
pub(crate) fn storage_arg(storage: u32) -> Result<Storage, Failure> {
    Ok(match choice(storage, "storage")? {
        picollo_storage::Dense => Storage::Dense,
        picollo_storage::Sparse => Storage::Sparse,
    })
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

/// The core mode of the config field `mode`, by [`choice`], with the approximate mode's
/// threshold T (0 means the default, 13).
pub(crate) fn mode_arg(mode: u32, threshold: u32) -> Result<Mode, Failure> {
    choice(mode, "mode").map(|c| mode_of(c, threshold))
}

fn mode_of(c: picollo_mode, threshold: u32) -> Mode {
    match c {
        picollo_mode::SingleWriter => Mode::SingleWriter,
        picollo_mode::Interlocked => Mode::Interlocked,
        picollo_mode::ThreadLocal => Mode::ThreadLocal,
        picollo_mode::Approximate => {
            let p = ApproxPolicy::new();
            Mode::Approximate(match threshold {
                0 => p,
                t => p.with_threshold(t),
            })
        }
    }
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
    use crate::choice::{flag, CEnum};

    fn mode_from_c(mode: u32, threshold: u32) -> Option<Mode> {
        mode_arg(mode, threshold).ok()
    }

    fn selection_from_c(v: u32) -> Option<ValueSelection> {
        selection_arg(v, "selection").ok()
    }

    #[test]
    fn an_unknown_enum_value_is_refused_with_every_value_listed() {
        let refused = |r: Result<ValueSelection, Failure>| {
            let e = r.expect_err("refused");
            assert_eq!(e.status, crate::status::picollo_status::InvalidArgument);
            e.message
        };
        assert_eq!(
            refused(selection_arg(4, "value_selection")),
            "value_selection 4 is unknown: it must be a picollo_value_selection: 0 (midpoint), \
             1 (lower), 2 (upper) or 3 (interpolated)"
        );
        let two = choice::<picollo_storage>(u32::MAX, "storage").expect_err("refused");
        assert_eq!(
            two.message,
            "storage 4294967295 is unknown: it must be a picollo_storage: 0 (dense) or 1 (sparse)"
        );
        for (e, word) in <picollo_mode as CEnum>::VALUES {
            assert_eq!(
                choice::<picollo_mode>(e.code(), "mode").ok(),
                Some(*e),
                "{word}"
            );
        }
        assert!(flag(2, "pinned").is_err() && flag(1, "pinned").unwrap());
    }

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
