//! OpenMetrics text exposition: histograms as `histogram` (and optionally `summary`)
//! families, several families per exposition, `# EOF` at the end. The writer and its names
//! are here; the options in `options.rs`, the numbers (bounds, cumulative counts, `_sum`) in
//! `buckets.rs`, the sample lines in `text.rs`.

mod buckets;
mod export;
mod options;
mod text;

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::{self, Write};

pub(crate) use self::buckets::cumulative_buckets_checked;
use self::buckets::{coarse_bounds, every_count};
pub use self::buckets::{cumulative_buckets, CumulativeBuckets};
pub(crate) use self::export::OpenMetrics;
pub use self::options::{Bounds, HistogramOptions};
use self::text::Series;
pub use self::text::{escape, write_sample};
pub use super::option::{check_bounds, check_coarse_relative_error, check_unit_ratio, OptionError};
use super::option::{check_labels, check_metric_name, HISTOGRAM_SUFFIXES};
use crate::counter::Counter;
use crate::shape::Shape;
use crate::view::View;

/// Why an exposition could not be written. Nothing is written for the family or point
/// that failed a check (a failed write to the sink is [`OpenMetricsError::Write`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum OpenMetricsError {
    /// A family name that does not match `[a-zA-Z_:][a-zA-Z0-9_:]*`, or that ends with a
    /// suffix the family's own samples use (`_bucket`, `_count`, `_sum`, `_created`,
    /// `_total`, `_info`).
    InvalidMetricName,
    /// A label name that does not match `[a-zA-Z_][a-zA-Z0-9_]*`, starts with `__`
    /// (reserved), or is the family's own label (`le` for histograms, `quantile` for
    /// summaries).
    InvalidLabelName,
    /// The same label name twice in one label set.
    DuplicateLabel,
    /// A unit with characters outside `[a-zA-Z0-9_:]`, or a family name that does not end
    /// with `_` and the unit (OpenMetrics requires the suffix).
    InvalidUnit,
    /// A family name already written in this exposition.
    DuplicateFamily,
    /// Explicit bounds that are not strictly increasing, or a coarse relative error not in
    /// `(0, 1)`.
    InvalidBounds,
    /// Summary quantiles not strictly increasing within `[0, 1]`.
    InvalidQuantiles,
    /// A unit ratio that is not finite and positive.
    InvalidUnitRatio,
    /// A point whose histogram has another layout or range than the family's first point:
    /// derived bounds would differ between points.
    ShapeMismatch,
    /// The sink refused a write.
    Write,
}

impl fmt::Display for OpenMetricsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::InvalidMetricName => "invalid OpenMetrics metric family name",
            Self::InvalidLabelName => "invalid or reserved OpenMetrics label name",
            Self::DuplicateLabel => "duplicate label name in a label set",
            Self::InvalidUnit => "invalid unit, or family name not suffixed with it",
            Self::DuplicateFamily => "metric family already exposed",
            Self::InvalidBounds => "bucket bounds not strictly increasing or bad coarse error",
            Self::InvalidQuantiles => "quantiles not strictly increasing within [0, 1]",
            Self::InvalidUnitRatio => "unit ratio not finite and positive",
            Self::ShapeMismatch => "points of one family need the same layout and range",
            Self::Write => "write to the sink failed",
        })
    }
}

#[cfg(feature = "std")]
impl std::error::Error for OpenMetricsError {}

impl From<fmt::Error> for OpenMetricsError {
    fn from(_: fmt::Error) -> Self {
        OpenMetricsError::Write
    }
}

impl From<OptionError> for OpenMetricsError {
    fn from(e: OptionError) -> Self {
        match e {
            OptionError::UnitRatio(_) => OpenMetricsError::InvalidUnitRatio,
            OptionError::MetricName => OpenMetricsError::InvalidMetricName,
            OptionError::LabelName { .. } => OpenMetricsError::InvalidLabelName,
            OptionError::RepeatedLabelName { .. } => OpenMetricsError::DuplicateLabel,
            _ => OpenMetricsError::InvalidBounds,
        }
    }
}

/// A metric family's metadata: `# TYPE`, `# UNIT` (when not empty), `# HELP` (when not
/// empty).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Family<'a> {
    /// The family name; with a unit it must end with `_<unit>`.
    pub name: &'a str,
    /// The help text (escaped on output).
    pub help: &'a str,
    /// The unit (e.g. `seconds`), or empty.
    pub unit: &'a str,
}

impl<'a> Family<'a> {
    /// A family named `name`, without help or unit.
    pub const fn new(name: &'a str) -> Self {
        Family {
            name,
            help: "",
            unit: "",
        }
    }

    /// With help text.
    pub const fn with_help(mut self, help: &'a str) -> Self {
        self.help = help;
        self
    }

    /// With a unit (the name must end with `_<unit>`).
    pub const fn with_unit(mut self, unit: &'a str) -> Self {
        self.unit = unit;
        self
    }
}

/// The quantiles a summary family shows by default.
pub const STANDARD_QUANTILES: [f64; 6] = [0.5, 0.9, 0.95, 0.99, 0.999, 1.0];

/// Writes an OpenMetrics text exposition into any `core::fmt::Write` sink (a `String`, a
/// fixed buffer): families one after another, then `# EOF` ([`OpenMetricsWriter::finish`]).
///
/// A histogram family is OpenMetrics' cumulative `histogram`: `<name>_bucket{…,le="…"}`
/// counts at each bound, ending with `le="+Inf"`, then `<name>_count`, `<name>_sum` and
/// (when known) `<name>_created`. Values below the range count in every bucket (they are
/// below every bound); values above it, and records a full bucket could not hold
/// (saturated; their bucket is not known), only in `+Inf`. `_sum` takes every bucket at
/// its midpoint, values below the range at the range's low end and values above it at its
/// high end, and leaves saturated counts out: it is an estimate within the layout's
/// relative error for in-range values.
///
/// OpenMetrics counters and histograms are cumulative: expose a read of the histogram
/// (not a [`Collect`](crate::concurrent::Collect) interval, which is for delta exporters),
/// with `_created` set to when the counting started.
///
/// ```
/// use picollo::openmetrics::{Bounds, Family, HistogramOptions, OpenMetricsWriter};
/// use picollo::{Config, Histogram};
/// let mut h: Histogram<u64, Vec<u64>> = Config::new().with_range(1, 1_000).build().unwrap();
/// h.record(3);
/// h.record(700);
/// let mut w = OpenMetricsWriter::new(String::new());
/// let options = HistogramOptions { bounds: Bounds::Explicit(&[10, 100]), ..Default::default() };
/// w.histogram(&Family::new("rpc_latency"), &options)?
///     .point(&[("method", "get")], &h.view())?;
/// let text = w.finish()?;
/// assert!(text.contains("rpc_latency_bucket{method=\"get\",le=\"10.0\"} 1\n"));
/// assert!(text.contains("rpc_latency_bucket{method=\"get\",le=\"+Inf\"} 2\n"));
/// assert!(text.ends_with("rpc_latency_sum{method=\"get\"} 703.0\n# EOF\n"));
/// # Ok::<(), picollo::openmetrics::OpenMetricsError>(())
/// ```
#[derive(Debug)]
pub struct OpenMetricsWriter<W: Write> {
    out: W,
    families: Vec<String>,
}

impl<W: Write> OpenMetricsWriter<W> {
    /// A writer appending to `out`.
    pub fn new(out: W) -> Self {
        OpenMetricsWriter {
            out,
            families: Vec::new(),
        }
    }

    /// Start a `histogram` family: checks the metadata, writes it, and returns the family,
    /// whose [`FamilyWriter::point`] writes one labelled histogram each.
    pub fn histogram<'w, 'o>(
        &'w mut self,
        family: &Family<'_>,
        options: &HistogramOptions<'o>,
    ) -> Result<FamilyWriter<'w, 'o, W>, OpenMetricsError> {
        options.check()?;
        self.start(family, "histogram", &HISTOGRAM_SUFFIXES)?;
        Ok(FamilyWriter {
            w: self,
            kind: Kind::Histogram(*options),
            name_len: family.name.len(),
            shape: None,
            bounds: Vec::new(),
        })
    }

    /// Start a `summary` family with these `quantiles` (in `[0, 1]`, strictly increasing;
    /// [`STANDARD_QUANTILES`] for the usual ones): `<name>{…,quantile="…"}` values from the
    /// histogram's percentiles (reported with its value selection), then `<name>_count`
    /// (every record), `<name>_sum` (as for histograms) and `<name>_created`. Options
    /// other than the unit ratio and the created time are not used.
    pub fn summary<'w, 'o>(
        &'w mut self,
        family: &Family<'_>,
        quantiles: &'o [f64],
        options: &HistogramOptions<'o>,
    ) -> Result<FamilyWriter<'w, 'o, W>, OpenMetricsError> {
        let increasing = quantiles.windows(2).all(|p| p[0] < p[1]);
        if !increasing || quantiles.iter().any(|q| !(0.0..=1.0).contains(q)) {
            return Err(OpenMetricsError::InvalidQuantiles);
        }
        check_unit_ratio(options.unit_ratio)?;
        self.start(family, "summary", &SUMMARY_SUFFIXES)?;
        Ok(FamilyWriter {
            w: self,
            kind: Kind::Summary(quantiles, *options),
            name_len: family.name.len(),
            shape: None,
            bounds: Vec::new(),
        })
    }

    fn start(
        &mut self,
        family: &Family<'_>,
        kind: &str,
        suffixes: &[&str],
    ) -> Result<(), OpenMetricsError> {
        let name = check_metric_name(family.name, suffixes)?;
        if !family.unit.is_empty() {
            let unit_ok = family
                .unit
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b':');
            let suffixed = name
                .strip_suffix(family.unit)
                .is_some_and(|rest| rest.ends_with('_'));
            if !unit_ok || !suffixed {
                return Err(OpenMetricsError::InvalidUnit);
            }
        }
        if self.families.iter().any(|f| f == name) {
            return Err(OpenMetricsError::DuplicateFamily);
        }
        self.families.push(String::from(name));
        writeln!(self.out, "# TYPE {name} {kind}")?;
        if !family.unit.is_empty() {
            writeln!(self.out, "# UNIT {name} {}", family.unit)?;
        }
        if !family.help.is_empty() {
            write!(self.out, "# HELP {name} ")?;
            escape(&mut self.out, family.help)?;
            self.out.write_char('\n')?;
        }
        Ok(())
    }

    /// Write `# EOF` and give the sink back; nothing can be added after it.
    pub fn finish(mut self) -> Result<W, OpenMetricsError> {
        self.out.write_str("# EOF\n")?;
        Ok(self.out)
    }
}

/// Suffixes a summary family's name may not end with (its samples', and other types').
const SUMMARY_SUFFIXES: [&str; 5] = ["_count", "_sum", "_created", "_total", "_info"];

#[derive(Clone, Copy, Debug)]
enum Kind<'o> {
    Histogram(HistogramOptions<'o>),
    Summary(&'o [f64], HistogramOptions<'o>),
}

/// One family being written: add its points (label sets), then drop it (or start the next
/// family on the writer).
#[derive(Debug)]
pub struct FamilyWriter<'w, 'o, W: Write> {
    w: &'w mut OpenMetricsWriter<W>,
    kind: Kind<'o>,
    name_len: usize,
    /// The first point's shape: every point of a family must share it.
    shape: Option<Shape>,
    /// The bounds, derived once for the family.
    bounds: Vec<u64>,
}

impl<W: Write> FamilyWriter<'_, '_, W> {
    /// Write one histogram of the family with these labels (names checked, values
    /// escaped; no `le`/`quantile`, no duplicates). Every point of a family must have the
    /// same layout and range (as its bounds must be the same). Label sets are not compared
    /// between points: giving the same one twice is the caller's error.
    pub fn point<C: Counter>(
        &mut self,
        labels: &[(&str, &str)],
        view: &View<'_, C>,
    ) -> Result<&mut Self, OpenMetricsError> {
        self.check_labels(labels)?;
        self.check_shape(view.shape())?;
        let (Kind::Histogram(options) | Kind::Summary(_, options)) = self.kind;
        let series = Series {
            name: &self.w.families[self.w.families.len() - 1][..self.name_len],
            labels,
            view,
            options,
            all: every_count(view),
        };
        let out = &mut self.w.out;
        match self.kind {
            Kind::Histogram(_) => series.buckets(out, &self.bounds)?,
            Kind::Summary(quantiles, _) => series.quantiles(out, quantiles)?,
        }
        series.totals(out)?;
        Ok(self)
    }

    /// Label names as OpenMetrics allows them, none the family's own (`le`, `quantile`),
    /// none twice.
    fn check_labels(&self, labels: &[(&str, &str)]) -> Result<(), OpenMetricsError> {
        let own = match self.kind {
            Kind::Histogram(_) => "le",
            Kind::Summary(..) => "quantile",
        };
        Ok(check_labels(labels, own)?)
    }

    /// The first point fixes the family's shape (and derives its bounds from it); every
    /// later point must have the same buckets.
    fn check_shape(&mut self, shape: Shape) -> Result<(), OpenMetricsError> {
        match self.shape {
            Some(s) if !s.same_buckets(&shape) => return Err(OpenMetricsError::ShapeMismatch),
            Some(_) => {}
            None => {
                if let Kind::Histogram(o) = self.kind {
                    self.bounds = match o.bounds {
                        Bounds::Explicit(b) => b.to_vec(),
                        Bounds::Coarse(e) => coarse_bounds(&shape, e),
                    };
                }
                self.shape = Some(shape);
            }
        }
        Ok(())
    }
}
