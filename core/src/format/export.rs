//! The one table of export formats: each format is a type implementing [`Export`] in its own
//! file, listed once in [`FORMATS`] (in `format/mod.rs`, beside the format's `mod` line). The
//! C ABI's by-name and by-number calls, the Python and C# `to_format` and the CLI's `convert`
//! all find a format here by its name, so a new format is its file, its `mod` line and its
//! line of [`FORMATS`].
//!
//! Options travel as `(name, value)` text pairs, whatever the caller's language: each format
//! lists the names it takes ([`Export::options`]) and reads their values through [`Options`],
//! which refuses a name the format does not take and a value that does not parse.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;
use core::str::FromStr;

use super::option::OptionError;
#[cfg(picollo_float)]
use crate::float::FloatCounts;
use crate::view::View;

pub use super::FORMATS;

/// What a format is: its name, what it writes, the options it takes and whether it writes
/// bytes. One `static` per format, returned by [`Export::about`].
#[derive(Clone, Copy, Debug)]
pub struct About {
    /// The name callers pick it by: lowercase words joined by `-`.
    pub name: &'static str,
    /// One sentence on what it writes.
    pub description: &'static str,
    /// The options it takes, each `(name, what it sets)`; a name ending in `.` takes any
    /// name with that prefix (`label.` for `label.job=api`).
    pub options: &'static [(&'static str, &'static str)],
    /// Whether it writes bytes that are not UTF-8 text (protobuf, V2 binary).
    pub binary: bool,
}

/// What an export appends to: the bytes of the result.
pub type Out<'o> = &'o mut Vec<u8>;

/// What an export returns: nothing more than its bytes, or why it wrote none.
pub type Written = Result<(), ExportError>;

/// One export format: what it is ([`About`]) and what it writes of a histogram. Implemented
/// by a unit type in the format's own file and listed in [`FORMATS`].
pub trait Export: Sync {
    /// Its name, description, options and kind of output.
    fn about(&self) -> &'static About;
    /// The name callers pick it by.
    fn name(&self) -> &'static str {
        self.about().name
    }
    /// Appends the integer histogram `view` to `out`.
    fn integer(&self, view: &View<'_, u64>, options: &Options<'_>, out: Out<'_>) -> Written;
    /// Appends the float histogram `counts` to `out`; by default the format has no float form.
    #[cfg(picollo_float)]
    fn float(&self, counts: &FloatCounts, options: &Options<'_>, out: Out<'_>) -> Written {
        let _ = (counts, options, out);
        Err(ExportError::new(
            ExportErrorKind::Unsupported,
            format!("format {:?} writes integer histograms only", self.name()),
        ))
    }
}

/// The format called `name`.
pub fn format_named(name: &str) -> Result<&'static dyn Export, ExportError> {
    FORMATS
        .iter()
        .copied()
        .find(|f| f.name() == name)
        .ok_or_else(|| {
            let names: Vec<&str> = FORMATS.iter().map(|f| f.name()).collect();
            ExportError::new(
                ExportErrorKind::UnknownFormat,
                format!(
                    "no format is called {name:?} (formats: {})",
                    names.join(", ")
                ),
            )
        })
}

/// The integer histogram `view` in format `name` with `options`.
pub fn export(
    name: &str,
    view: &View<'_, u64>,
    options: &[(&str, &str)],
) -> Result<Vec<u8>, ExportError> {
    written_by(name, options, |f, o, out| f.integer(view, o, out))
}

/// The float histogram `counts` in format `name` with `options`.
#[cfg(picollo_float)]
pub fn export_float(
    name: &str,
    counts: &FloatCounts,
    options: &[(&str, &str)],
) -> Result<Vec<u8>, ExportError> {
    written_by(name, options, |f, o, out| f.float(counts, o, out))
}

/// The bytes `write` appends with the format called `name` and its checked `options`.
fn written_by(
    name: &str,
    options: &[(&str, &str)],
    write: impl FnOnce(&dyn Export, &Options<'_>, Out<'_>) -> Written,
) -> Result<Vec<u8>, ExportError> {
    let format = format_named(name)?;
    let options = Options::new(format, options)?;
    let mut out = Vec::new();
    write(format, &options, &mut out)?;
    Ok(out)
}

/// What went wrong in an export.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExportErrorKind {
    /// No format has the name asked for.
    UnknownFormat,
    /// An option the format does not take, given twice, or with a value it refuses.
    InvalidOption,
    /// The format has no form for this kind of histogram.
    Unsupported,
    /// The histogram holds what the format cannot encode (a count or value too large).
    Unencodable,
    /// Memory for the result could not be allocated.
    OutOfMemory,
}

/// An export failure: its kind and a message naming the format, option or value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExportError {
    /// What went wrong.
    pub kind: ExportErrorKind,
    /// The message, for people.
    pub message: String,
}

impl ExportError {
    /// An error of `kind` saying `message`.
    pub fn new(kind: ExportErrorKind, message: impl Into<String>) -> Self {
        ExportError {
            kind,
            message: message.into(),
        }
    }

    /// An invalid option, with the format's own error as the message.
    pub fn option(e: impl fmt::Display) -> Self {
        ExportError::new(ExportErrorKind::InvalidOption, format!("{e}"))
    }
}

impl fmt::Display for ExportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

#[cfg(feature = "std")]
impl std::error::Error for ExportError {}

impl From<OptionError> for ExportError {
    /// A metrics option the format's rules refuse (a name, label, bound, scale or ratio).
    fn from(e: OptionError) -> Self {
        ExportError::option(e)
    }
}

/// The options of one export, checked against the names its format takes.
#[derive(Clone, Copy, Debug)]
pub struct Options<'a> {
    format: &'static str,
    pairs: &'a [(&'a str, &'a str)],
}

impl<'a> Options<'a> {
    /// `pairs` for `format`: each name one the format takes, and given once.
    pub fn new(format: &dyn Export, pairs: &'a [(&'a str, &'a str)]) -> Result<Self, ExportError> {
        let taken = format.about().options;
        let takes = |name: &str| {
            taken.iter().any(|&(t, _)| match t.strip_suffix('.') {
                Some(prefix) => name.len() > t.len() && name.starts_with(t) && !prefix.is_empty(),
                None => t == name,
            })
        };
        for (k, &(name, _)) in pairs.iter().enumerate() {
            if !takes(name) {
                let names: Vec<&str> = taken.iter().map(|&(t, _)| t).collect();
                return Err(ExportError::option(format_args!(
                    "format {:?} takes no option {name:?} (its options: {})",
                    format.name(),
                    if names.is_empty() {
                        "none".into()
                    } else {
                        names.join(", ")
                    }
                )));
            }
            if pairs[..k].iter().any(|&(earlier, _)| earlier == name) {
                return Err(ExportError::option(format_args!(
                    "option {name:?} is given twice"
                )));
            }
        }
        Ok(Options {
            format: format.name(),
            pairs,
        })
    }

    /// The value of option `name`, if given.
    pub fn get(&self, name: &str) -> Option<&'a str> {
        self.pairs
            .iter()
            .find(|&&(k, _)| k == name)
            .map(|&(_, v)| v)
    }

    /// The value of option `name`, which the format needs.
    pub fn required(&self, name: &str) -> Result<&'a str, ExportError> {
        self.get(name).ok_or_else(|| {
            ExportError::option(format_args!(
                "format {:?} needs option {name:?}",
                self.format
            ))
        })
    }

    /// The value of option `name` parsed as a `T`, or `default` when not given.
    pub fn parse<T: FromStr>(&self, name: &str, default: T) -> Result<T, ExportError> {
        match self.get(name) {
            None => Ok(default),
            Some(text) => self.parsed(name, text),
        }
    }

    /// The value of option `name` parsed as a `T`; `None` when not given or `auto`.
    pub fn parse_or_auto<T: FromStr>(&self, name: &str) -> Result<Option<T>, ExportError> {
        match self.get(name) {
            Some(text) if text.trim() != "auto" => self.parsed(name, text).map(Some),
            _ => Ok(None),
        }
    }

    /// The value of option `name` parsed as a list of `T` separated by commas; empty when
    /// not given.
    pub fn parse_list<T: FromStr>(&self, name: &str) -> Result<Vec<T>, ExportError> {
        let text = self.get(name).unwrap_or("");
        let items = text.split(',').filter(|t| !t.trim().is_empty());
        items.map(|t| self.parsed(name, t)).collect()
    }

    /// `text`, the value of option `name`, parsed as a `T`.
    fn parsed<T: FromStr>(&self, name: &str, text: &str) -> Result<T, ExportError> {
        text.trim().parse().map_err(|_| {
            ExportError::option(format_args!(
                "option {name:?} of format {:?}: {text:?} is not a {}",
                self.format,
                core::any::type_name::<T>()
            ))
        })
    }

    /// The options whose names start with `prefix` (e.g. `label.`), the prefix taken off.
    pub fn with_prefix(&self, prefix: &str) -> Vec<(&'a str, &'a str)> {
        let strip = |&(k, v): &(&'a str, &'a str)| k.strip_prefix(prefix).map(|k| (k, v));
        self.pairs.iter().filter_map(strip).collect()
    }
}

/// The text `write` appends, as bytes at the end of `out`.
pub(crate) fn text_into(
    out: &mut Vec<u8>,
    write: impl FnOnce(&mut String) -> fmt::Result,
) -> Result<(), ExportError> {
    let mut text = String::new();
    write(&mut text).map_err(|_| {
        ExportError::new(
            ExportErrorKind::Unencodable,
            "the text could not be written",
        )
    })?;
    out.extend_from_slice(text.as_bytes());
    Ok(())
}
