//! Which histogram a metric name gets: a [`Layout`] (relative error, range of magnitudes,
//! mode, classic bucket schema) and the [`Matcher`]s that give one to a name.

use core::fmt;

use picollo::concurrent::Mode;
use picollo::float::{FloatConfig, FloatHistogram};
use picollo::prometheus::{check_schema, schema_for, MAX_SCHEMA, MIN_SCHEMA};

/// How the histograms of a metric are laid out: Picollo's double histogram (both signs,
/// NaN and ±∞ counted apart) at a relative error over a range of magnitudes, in a mode,
/// and the schema of the classic buckets the text exposition shows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Layout {
    relative_error: f64,
    range: (f64, f64),
    mode: Mode,
    classic_schema: i32,
}

impl Default for Layout {
    fn default() -> Self {
        Self::new()
    }
}

impl Layout {
    /// 1 %, magnitudes 1e-9..1e12 (a nanosecond to hours in seconds, bytes to a terabyte),
    /// [`Mode::Interlocked`], classic buckets at schema 1 (bounds `2^(k/2)`).
    pub const fn new() -> Self {
        Layout {
            relative_error: 0.01,
            range: (1e-9, 1e12),
            mode: Mode::Interlocked,
            classic_schema: 1,
        }
    }

    /// The relative error of every value's bucket (Picollo clamps it to `[1e-6, 0.1]`).
    pub const fn with_relative_error(mut self, relative_error: f64) -> Self {
        self.relative_error = relative_error;
        self
    }

    /// The magnitudes kept in buckets, for both signs (`0 < min ≤ max`); nonzero values
    /// below count as underflow (exported in the zero bucket), above as overflow (left out
    /// of the buckets and the count, as Picollo's native export does).
    pub const fn with_range(mut self, min: f64, max: f64) -> Self {
        self.range = (min, max);
        self
    }

    /// [`Mode::Interlocked`] (the default: any number of threads record at once, atomic
    /// adds) or [`Mode::SingleWriter`] (one thread at a time records; cheaper, and exact
    /// only then). The double histogram has no thread-local or approximate mode.
    pub const fn with_mode(mut self, mode: Mode) -> Self {
        self.mode = mode;
        self
    }

    /// The schema of the classic buckets (`le` bounds `2^(k·2^-schema)`), −4..8: the text
    /// exposition writes one bucket per such interval that holds a value.
    pub const fn with_classic_schema(mut self, schema: i32) -> Self {
        self.classic_schema = schema;
        self
    }

    /// The relative error asked for.
    pub const fn relative_error(&self) -> f64 {
        self.relative_error
    }

    /// The classic buckets' schema.
    pub const fn classic_schema(&self) -> i32 {
        self.classic_schema
    }

    /// The native histograms' schema: the coarsest whose error is within the layout's.
    pub fn native_schema(&self) -> i32 {
        schema_for(self.relative_error)
    }

    /// The Picollo configuration.
    pub fn config(&self) -> FloatConfig {
        FloatConfig::new()
            .with_relative_error(self.relative_error)
            .with_range(self.range.0, self.range.1)
            .with_mode(self.mode)
    }

    /// The layout checked: the configuration Picollo accepts, a classic schema in −4..8
    /// no finer than the native one.
    pub fn check(&self) -> Result<(), BuildError> {
        let invalid = |why: String| BuildError::InvalidLayout(why);
        self.config()
            .validate()
            .map_err(|e| invalid(format!("{e:?}")))?;
        check_schema(self.classic_schema).map_err(|_| {
            invalid(format!(
                "classic schema {} outside {MIN_SCHEMA}..={MAX_SCHEMA}",
                self.classic_schema
            ))
        })?;
        Ok(())
    }

    /// A new histogram of this layout.
    pub(crate) fn histogram(&self) -> FloatHistogram<u64> {
        // `check` ran when the layout was set; the default layout is valid.
        FloatHistogram::new(self.config()).expect("a checked layout")
    }
}

/// Which metric names a layout is for, as the name is given to the `metrics` macros.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Matcher {
    /// This name only.
    Full(String),
    /// Names starting with this.
    Prefix(String),
    /// Names ending with this.
    Suffix(String),
}

impl Matcher {
    /// Whether `name` is one of this matcher's.
    pub fn matches(&self, name: &str) -> bool {
        match self {
            Matcher::Full(s) => name == s,
            Matcher::Prefix(s) => name.starts_with(s.as_str()),
            Matcher::Suffix(s) => name.ends_with(s.as_str()),
        }
    }
}

/// Why a builder refused a setting or could not install.
#[derive(Debug)]
#[non_exhaustive]
pub enum BuildError {
    /// A layout Picollo refuses (the reason in words).
    InvalidLayout(String),
    /// The same matcher given twice with different layouts.
    ConflictingMatcher(Matcher),
    /// A global recorder was installed already.
    RecorderInstalled,
    /// The HTTP listener could not bind.
    Listener(std::io::Error),
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::InvalidLayout(why) => write!(f, "invalid histogram layout: {why}"),
            Self::ConflictingMatcher(m) => {
                write!(f, "matcher {m:?} already has another layout")
            }
            Self::RecorderInstalled => f.write_str("a global metrics recorder is installed"),
            Self::Listener(e) => write!(f, "HTTP listener: {e}"),
        }
    }
}

impl std::error::Error for BuildError {}

/// The layouts by matcher, in the order given, and the layout of every other name.
#[derive(Clone, Debug, Default)]
pub(crate) struct Layouts {
    pub(crate) default: Layout,
    pub(crate) by_matcher: Vec<(Matcher, Layout)>,
}

impl Layouts {
    /// Add a matcher's layout; the same matcher again is accepted only with the same one.
    pub(crate) fn set(&mut self, matcher: Matcher, layout: Layout) -> Result<(), BuildError> {
        layout.check()?;
        match self.by_matcher.iter().find(|(m, _)| *m == matcher) {
            Some((_, l)) if *l == layout => Ok(()),
            Some(_) => Err(BuildError::ConflictingMatcher(matcher)),
            None => {
                self.by_matcher.push((matcher, layout));
                Ok(())
            }
        }
    }

    /// The layout of `name`: a [`Matcher::Full`] first, then the first matcher given that
    /// matches, else the default; with it, the other matchers that match with another
    /// layout (a conflict the recorder reports).
    pub(crate) fn resolve(&self, name: &str) -> (Layout, Vec<Matcher>) {
        let matching = || self.by_matcher.iter().filter(|(m, _)| m.matches(name));
        let chosen = matching()
            .find(|(m, _)| matches!(m, Matcher::Full(_)))
            .or_else(|| matching().next())
            .map_or(self.default, |(_, l)| *l);
        let others = matching()
            .filter(|(_, l)| *l != chosen)
            .map(|(m, _)| m.clone())
            .collect();
        (chosen, others)
    }
}
