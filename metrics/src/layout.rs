//! Which histogram a metric name gets: a [`Layout`] (doubles or integers, relative error,
//! range, mode, classic bucket schema) and the [`Matcher`]s that give one to a name.

use core::fmt;

use picollo::concurrent::{ConcurrentHistogram, Mode};
use picollo::float::{FloatConfig, FloatHistogram};
use picollo::Config;

use crate::registry::HistogramCell;
use picollo::prometheus::{check_schema, schema_for, MAX_SCHEMA, MIN_SCHEMA};

/// How the histograms of a metric are laid out: Picollo's double histogram (both signs,
/// NaN and ±∞ counted apart; [`Layout::new`]) or its integer histogram over scaled values
/// (thread-local shards; [`Layout::integers`]), at a relative error over a range, in a
/// mode, and the schema of the classic buckets the text exposition shows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Layout {
    /// `None`: doubles; `Some(r)`: each value times `r`, rounded, as an integer.
    unit_ratio: Option<f64>,
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
    /// Doubles of both signs: 1 %, magnitudes 1e-9..1e12 (a nanosecond to hours in seconds,
    /// bytes to a terabyte), [`Mode::Interlocked`], classic buckets at schema 1 (bounds
    /// `2^(k/2)`).
    pub const fn new() -> Self {
        Layout {
            unit_ratio: None,
            relative_error: 0.01,
            range: (1e-9, 1e12),
            mode: Mode::Interlocked,
            classic_schema: 1,
        }
    }

    /// Non-negative values kept as integers: each value times `unit_ratio`, rounded (1e9:
    /// seconds kept as nanoseconds), in Picollo's integer histogram in the thread-local
    /// mode (each thread records into its own shard: no contention; a scrape adds the
    /// shards up). The range stays in the facade's units (1e-9..1e12 by default: 1 to
    /// 1e21 units here, clamped to `u64`); negative values and NaN count as 0, +∞ as the
    /// largest. The other defaults are [`Layout::new`]'s.
    pub const fn integers(unit_ratio: f64) -> Self {
        let mut layout = Self::new();
        layout.unit_ratio = Some(unit_ratio);
        layout.mode = Mode::ThreadLocal;
        layout
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

    /// Doubles: [`Mode::Interlocked`] (the default: any number of threads record at once,
    /// atomic adds) or [`Mode::SingleWriter`] (one thread at a time records; exact only
    /// then); the double histogram has no thread-local or approximate mode. Integers: any
    /// mode, [`Mode::ThreadLocal`] by default.
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

    /// The unit ratio of an integer layout; `None` for doubles.
    pub const fn unit_ratio(&self) -> Option<f64> {
        self.unit_ratio
    }

    fn float_config(&self) -> FloatConfig {
        FloatConfig::new()
            .with_relative_error(self.relative_error)
            .with_range(self.range.0, self.range.1)
            .with_mode(self.mode)
    }

    /// The integer configuration: the range times the ratio, at least 1 (saturating
    /// casts: a range beyond `u64` ends at its top).
    fn integer_config(&self, ratio: f64) -> Config {
        let low = ((self.range.0 * ratio).ceil() as u64).max(1);
        let high = (self.range.1 * ratio) as u64;
        Config::new()
            .with_relative_error(self.relative_error)
            .with_range(low, high)
    }

    /// The layout checked: a configuration Picollo accepts (a range with `0 < min ≤ max`,
    /// a mode the kind has), a unit ratio finite and above 0, a classic schema in −4..8.
    pub fn check(&self) -> Result<(), BuildError> {
        let invalid = |why: String| BuildError::InvalidLayout(why);
        let (min, max) = self.range;
        if !(min > 0.0 && min <= max && max.is_finite()) {
            return Err(invalid(format!("range {min}..{max}")));
        }
        match self.unit_ratio {
            None => self.float_config().validate().map(drop),
            Some(r) if r.is_finite() && r > 0.0 => self.integer_config(r).validate().map(drop),
            Some(r) => return Err(invalid(format!("unit ratio {r}"))),
        }
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
    pub(crate) fn histogram(&self) -> HistogramCell {
        // `check` ran when the layout was set; the default layout is valid.
        const CHECKED: &str = "a checked layout";
        match self.unit_ratio {
            None => {
                HistogramCell::Doubles(FloatHistogram::new(self.float_config()).expect(CHECKED))
            }
            Some(ratio) => HistogramCell::Integers {
                h: ConcurrentHistogram::new(self.integer_config(ratio), self.mode).expect(CHECKED),
                ratio,
            },
        }
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
    /// An OTLP endpoint that is not `http://HOST[:PORT][/PATH]`, or a header that HTTP
    /// cannot carry (the reason in words).
    InvalidEndpoint(String),
    /// The OTLP push thread could not start.
    Push(std::io::Error),
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
            Self::InvalidEndpoint(why) => write!(f, "invalid OTLP endpoint: {why}"),
            Self::Push(e) => write!(f, "OTLP push thread: {e}"),
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
