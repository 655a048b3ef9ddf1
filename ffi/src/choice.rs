//! The one rule by which the C ABI reads an enum or yes/no argument from a `u32`: the value,
//! or `INVALID_ARGUMENT` with a message that names the argument and lists what it may be.

use std::fmt::Write;

use crate::error::Failure;

/// A `#[repr(u32)]` enum of the C ABI that arguments and config fields take as a `u32`,
/// read by [`choice`]. Implemented by [`c_enum!`], which lists every variant with the word
/// a refusal shows it by.
pub(crate) trait CEnum: Copy + 'static {
    /// The C type's name.
    const C_NAME: &'static str;
    /// Every value, in the order of their numbers, with its word.
    const VALUES: &'static [(Self, &'static str)];
    /// The number C passes for this value.
    fn code(self) -> u32;
}

/// `c_enum!(picollo_x: Variant = "word", …)`: the [`CEnum`] of the C enum `picollo_x`, one
/// word per variant. Every variant must be listed: a missing one fails to compile.
macro_rules! c_enum {
    ($c:ident: $($v:ident = $word:literal),+ $(,)?) => {
        impl $crate::choice::CEnum for $c {
            const C_NAME: &'static str = stringify!($c);
            const VALUES: &'static [(Self, &'static str)] = &[$(($c::$v, $word)),+];
            fn code(self) -> u32 {
                self as u32
            }
        }
        const _: fn($c) = |e| match e {
            $($c::$v => ()),+
        };
    };
}
pub(crate) use c_enum;

/// The value of `E` numbered `value`, if any.
fn c_value<E: CEnum>(value: u32) -> Option<E> {
    E::VALUES
        .iter()
        .map(|&(e, _)| e)
        .find(|e| e.code() == value)
}

/// The value of `E` that the argument or config field `name` holds, or the refusal
/// [`unknown_choice`] words: the one rule of every enum argument of the C ABI.
pub(crate) fn choice<E: CEnum>(value: u32, name: &str) -> Result<E, Failure> {
    c_value(value).ok_or_else(|| {
        let values = E::VALUES.iter().map(|&(e, word)| (e.code(), word));
        unknown_choice(name, value, E::C_NAME, values)
    })
}

/// The refusal of `value` for the enum argument `name` of C type `c_name`, listing the
/// values there are: `format 3 is unknown: it must be a picollo_text_format: 0 (table), 1
/// (one line) or 2 (JSON)`.
pub(crate) fn unknown_choice<'a>(
    name: &str,
    value: u32,
    c_name: &str,
    values: impl ExactSizeIterator<Item = (u32, &'a str)>,
) -> Failure {
    let last = values.len().saturating_sub(1);
    let mut list = String::new();
    for (k, (code, word)) in values.enumerate() {
        let separator = match k {
            0 => "",
            k if k == last => " or ",
            _ => ", ",
        };
        let _ = write!(list, "{separator}{code} ({word})");
    }
    Failure::invalid(format_args!(
        "{name} {value} is unknown: it must be a {c_name}: {list}"
    ))
}

/// A `u32` that says yes (1) or no (0), as the argument or config field `name`.
pub(crate) fn flag(value: u32, name: &str) -> Result<bool, Failure> {
    match value {
        0 => Ok(false),
        1 => Ok(true),
        _ => Err(Failure::invalid(format_args!(
            "{name} is {value}: it must be 0 or 1"
        ))),
    }
}
