//! The sample lines of a point: `<name><suffix>{labels} value`, values and label values as
//! OpenMetrics writes them.

use core::fmt::{self, Write};

use super::buckets::{for_each_cumulative, scaled, sum};
use super::HistogramOptions;
use crate::counter::Counter;
use crate::view::View;

/// One point of a family: the name and labels every sample line starts with, the view
/// its values come from, the family's options and the count of every value in the view.
pub(super) struct Series<'a, 'v, C: Counter> {
    pub(super) name: &'a str,
    pub(super) labels: &'a [(&'a str, &'a str)],
    pub(super) view: &'a View<'v, C>,
    pub(super) options: HistogramOptions<'a>,
    pub(super) all: u64,
}

impl<C: Counter> Series<'_, '_, C> {
    /// `<name><suffix>{labels,extra}` (no braces when there is no label at all).
    fn start<W: Write>(
        &self,
        out: &mut W,
        suffix: &str,
        extra: Option<(&str, Value<'_>)>,
    ) -> fmt::Result {
        write!(out, "{}{suffix}", self.name)?;
        write_labels(out, self.labels, extra)
    }

    /// The `_bucket` lines: the cumulative count at each bound, then `+Inf` with every
    /// value.
    pub(super) fn buckets<W: Write>(&self, out: &mut W, bounds: &[u64]) -> fmt::Result {
        for_each_cumulative(self.view, bounds, |bound, cumulative| {
            let le = Value::F(scaled(bound, &self.options));
            self.start(out, "_bucket", Some(("le", le)))?;
            writeln!(out, " {cumulative}")
        })?;
        self.start(out, "_bucket", Some(("le", Value::S("+Inf"))))?;
        writeln!(out, " {}", self.all)
    }

    /// A summary's `quantile` lines: each quantile's value, NaN with no value in range.
    pub(super) fn quantiles<W: Write>(&self, out: &mut W, quantiles: &[f64]) -> fmt::Result {
        let mut value = [0u64; 1];
        for &q in quantiles {
            self.start(out, "", Some(("quantile", Value::F(q))))?;
            match self.view.percentile_values(&[q * 100.0], &mut value) {
                Ok(()) => {
                    out.write_char(' ')?;
                    write_f64(out, value[0] as f64 / self.options.unit_ratio)?;
                    out.write_char('\n')?;
                }
                // No in-range values: OpenMetrics' NaN.
                Err(_) => out.write_str(" NaN\n")?,
            }
        }
        Ok(())
    }

    /// `_count` (every value), `_sum` and, when the options know it, `_created`.
    pub(super) fn totals<W: Write>(&self, out: &mut W) -> fmt::Result {
        self.start(out, "_count", None)?;
        writeln!(out, " {}", self.all)?;
        self.start(out, "_sum", None)?;
        out.write_char(' ')?;
        write_f64(out, sum(self.view) / self.options.unit_ratio)?;
        out.write_char('\n')?;
        if let Some(ns) = self.options.created_unix_nanos {
            self.start(out, "_created", None)?;
            out.write_char(' ')?;
            write_seconds(out, ns)?;
            out.write_char('\n')?;
        }
        Ok(())
    }
}

/// Nanoseconds as seconds with the fraction's trailing zeros dropped (at least one digit
/// after the point): `1700000000.123`, `5.0`.
fn write_seconds<W: Write>(out: &mut W, ns: u64) -> fmt::Result {
    let mut fraction = ns % 1_000_000_000;
    let mut digits = 9;
    while digits > 1 && fraction % 10 == 0 {
        fraction /= 10;
        digits -= 1;
    }
    write!(out, "{}.{fraction:0digits$}", ns / 1_000_000_000)
}

enum Value<'a> {
    F(f64),
    S(&'a str),
}

/// One sample line, `<name>{labels,extra} value` and a newline, label values escaped and
/// numbers written as the histogram families write theirs: for expositions that write
/// other families (counters, gauges, histograms of doubles) by the same rules. Names are
/// not checked here: check them once with [`check_metric_name`](crate::prometheus::check_metric_name)
/// and [`check_labels`](crate::prometheus::check_labels).
pub fn write_sample<W: Write>(
    out: &mut W,
    name: &str,
    labels: &[(&str, &str)],
    extra: Option<(&str, f64)>,
    value: f64,
) -> fmt::Result {
    out.write_str(name)?;
    write_labels(out, labels, extra.map(|(n, v)| (n, Value::F(v))))?;
    out.write_char(' ')?;
    write_f64(out, value)?;
    out.write_char('\n')
}

fn write_labels<W: Write>(
    out: &mut W,
    labels: &[(&str, &str)],
    last: Option<(&str, Value<'_>)>,
) -> fmt::Result {
    if labels.is_empty() && last.is_none() {
        return Ok(());
    }
    out.write_char('{')?;
    for (k, (name, value)) in labels.iter().enumerate() {
        if k > 0 {
            out.write_char(',')?;
        }
        write!(out, "{name}=\"")?;
        escape(out, value)?;
        out.write_char('"')?;
    }
    if let Some((name, value)) = last {
        if !labels.is_empty() {
            out.write_char(',')?;
        }
        write!(out, "{name}=\"")?;
        match value {
            Value::F(v) => write_f64(out, v)?,
            Value::S(s) => out.write_str(s)?,
        }
        out.write_char('"')?;
    }
    out.write_char('}')
}

/// A float as OpenMetrics writes it: the shortest digits that round-trip, always with a
/// fraction or an exponent (`10.0`, `0.005`, `1e-7`), `+Inf`/`-Inf`/`NaN` otherwise.
fn write_f64<W: Write>(out: &mut W, v: f64) -> fmt::Result {
    if v.is_nan() {
        out.write_str("NaN")
    } else if v.is_infinite() {
        out.write_str(if v > 0.0 { "+Inf" } else { "-Inf" })
    } else {
        write!(out, "{v:?}")
    }
}

/// Escape a label value or help text: backslash, double quote and newline.
pub fn escape<W: Write>(out: &mut W, s: &str) -> fmt::Result {
    let mut rest = s;
    while let Some(k) = rest.find(['\\', '"', '\n']) {
        out.write_str(&rest[..k])?;
        out.write_str(match rest.as_bytes()[k] {
            b'\\' => "\\\\",
            b'"' => "\\\"",
            _ => "\\n",
        })?;
        rest = &rest[k + 1..];
    }
    out.write_str(rest)
}
