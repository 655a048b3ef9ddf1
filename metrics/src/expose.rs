//! A scrape's body: the families of the registry as OpenMetrics text (classic buckets) or
//! as Prometheus' delimited protobuf (native histograms beside their classic buckets).
//! The rules of both formats (names, escaping, numbers, the native re-binning and its
//! encoding) are Picollo's own, from `picollo::openmetrics` and `picollo::prometheus`.

use std::fmt::{self, Write};

use picollo::concurrent::ConcurrentSnapshot;
use picollo::openmetrics::{escape, write_sample, CumulativeBuckets};
use picollo::prometheus::{
    bucket_bounds, check_labels, check_metric_name, NativeFamily, NativeHistogram, NativeMetric,
    NativeOptions, OptionError, ScalarFamily, ScalarKind, ScalarMetric,
};

use crate::layout::Layout;
use crate::registry::{Cell, FamilyCopy, HistogramCell, Kind, Labels};

/// Read a histogram's counts (one consistent copy, cumulative: a scrape never resets)
/// into its native form at the layout's schema, with the classic buckets of its classic
/// schema. `None` when the copy could not be made.
pub(crate) fn read(cell: &HistogramCell, layout: &Layout) -> Option<NativeHistogram> {
    match cell {
        HistogramCell::Doubles(h) => {
            let counts = h.counts().ok()?;
            read_at(layout, |o| NativeHistogram::from_float(&counts, o))
        }
        HistogramCell::Integers { h, ratio } => {
            let copy = ConcurrentSnapshot::new(h).ok()?;
            read_at(layout, |o| {
                let o = NativeOptions {
                    unit_ratio: *ratio,
                    ..*o
                };
                NativeHistogram::from_view(&copy.view(), &o)
            })
        }
    }
}

/// The native histogram at the layout's schema, with the classic buckets of the one at
/// its classic schema.
fn read_at(
    layout: &Layout,
    native_at: impl Fn(&NativeOptions<'_>) -> Result<NativeHistogram, OptionError>,
) -> Option<NativeHistogram> {
    let at = |schema| {
        let options = NativeOptions {
            schema: Some(schema),
            ..Default::default()
        };
        native_at(&options).ok()
    };
    let mut native = at(layout.native_schema())?;
    native.classic = Some(classic_buckets(&at(layout.classic_schema())?));
    Some(native)
}

/// The classic buckets of a coarse native histogram: an `le` bound at the upper end of
/// each non-empty bucket (negative buckets by falling magnitude, the zero bucket at its
/// threshold, positive buckets), each with the count at or below it, then `+Inf` with every
/// value. Counts only grow between scrapes, so a bound once shown stays.
pub(crate) fn classic_buckets(coarse: &NativeHistogram) -> CumulativeBuckets {
    let mut buckets = Vec::new();
    let mut seen = 0u64;
    let negative = &coarse.negative;
    for (k, &c) in negative
        .counts
        .iter()
        .enumerate()
        .rev()
        .filter(|(_, &c)| c > 0)
    {
        seen += c;
        let (lower, _) = bucket_bounds(negative.offset + k as i32, coarse.schema);
        buckets.push((-lower, seen));
    }
    if coarse.zero_count > 0 {
        seen += coarse.zero_count;
        buckets.push((coarse.zero_threshold, seen));
    }
    let positive = &coarse.positive;
    for (k, &c) in positive.counts.iter().enumerate().filter(|(_, &c)| c > 0) {
        seen += c;
        let (_, upper) = bucket_bounds(positive.offset + k as i32, coarse.schema);
        buckets.push((upper, seen));
    }
    buckets.push((f64::INFINITY, coarse.count));
    CumulativeBuckets {
        buckets,
        sum: coarse.sum,
    }
}

/// A counter's OpenMetrics family name and sample name: `x_total` is family `x`, sample
/// `x_total`; any other `x` is family `x`, sample `x_total` (also its protobuf name).
pub(crate) fn counter_names(name: &str) -> (&str, String) {
    let family = name.strip_suffix("_total").unwrap_or(name);
    (family, format!("{family}_total"))
}

/// A family name checked for its kind (a histogram's by the native family's own rule: not
/// ending with a suffix of its samples), then its label names; or why it cannot be exposed.
pub(crate) fn check_family(f: &FamilyCopy) -> Result<(), OptionError> {
    match f.kind {
        Kind::Histogram(_) => NativeFamily {
            name: &f.name,
            help: "",
            metrics: &[],
        }
        .check(),
        _ => check_metric_name(&f.name, &[]).map(drop),
    }?;
    f.series
        .iter()
        .try_for_each(|(labels, _)| check_labels(&pairs(labels), "le"))
}

fn pairs(labels: &Labels) -> Vec<(&str, &str)> {
    labels
        .iter()
        .map(|(n, v)| (n.as_str(), v.as_str()))
        .collect()
}

/// The OpenMetrics text of `families` (checked by [`check_family`]), ending with `# EOF`.
pub(crate) fn text(families: &[FamilyCopy]) -> String {
    let mut out = String::new();
    for f in families {
        // A String sink never refuses a write.
        let _ = text_family(&mut out, f);
    }
    out.push_str("# EOF\n");
    out
}

fn text_family(out: &mut String, f: &FamilyCopy) -> fmt::Result {
    let (family, counter_sample) = counter_names(&f.name);
    let (name, kind) = match f.kind {
        Kind::Counter => (family, "counter"),
        Kind::Gauge => (f.name.as_str(), "gauge"),
        Kind::Histogram(_) => (f.name.as_str(), "histogram"),
    };
    writeln!(out, "# TYPE {name} {kind}")?;
    if !f.help.is_empty() {
        write!(out, "# HELP {name} ")?;
        escape(out, &f.help)?;
        out.push('\n');
    }
    for (labels, cell) in &f.series {
        let labels = pairs(labels);
        match (cell, f.kind) {
            (Cell::Counter(c), _) => {
                let v = c.0.load(std::sync::atomic::Ordering::Relaxed);
                write_sample(out, &counter_sample, &labels, None, v as f64)?;
            }
            (Cell::Gauge(g), _) => write_sample(out, name, &labels, None, g.value())?,
            (Cell::Histogram(h), Kind::Histogram(layout)) => {
                let Some(native) = read(h, &layout) else {
                    continue;
                };
                text_histogram(out, name, &labels, &native)?;
            }
            _ => {}
        }
    }
    Ok(())
}

fn text_histogram(
    out: &mut String,
    name: &str,
    labels: &[(&str, &str)],
    native: &NativeHistogram,
) -> fmt::Result {
    let bucket = format!("{name}_bucket");
    for &(le, cumulative) in native.classic.iter().flat_map(|c| &c.buckets) {
        write_sample(out, &bucket, labels, Some(("le", le)), cumulative as f64)?;
    }
    write_sample(
        out,
        &format!("{name}_count"),
        labels,
        None,
        native.count as f64,
    )?;
    write_sample(out, &format!("{name}_sum"), labels, None, native.sum)
}

/// The delimited protobuf body of `families` (checked by [`check_family`]): one
/// `MetricFamily` each, histograms native with their classic buckets.
pub(crate) fn protobuf(families: &[FamilyCopy]) -> Vec<u8> {
    let mut out = Vec::new();
    for f in families {
        // Checked already: a family that fails its check was left out.
        let _ = protobuf_family(&mut out, f);
    }
    out
}

fn protobuf_family(out: &mut Vec<u8>, f: &FamilyCopy) -> Result<(), OptionError> {
    let labels: Vec<Vec<(&str, &str)>> = f.series.iter().map(|(l, _)| pairs(l)).collect();
    match f.kind {
        Kind::Counter | Kind::Gauge => {
            let metrics: Vec<ScalarMetric<'_>> = f
                .series
                .iter()
                .zip(&labels)
                .map(|((_, cell), labels)| ScalarMetric {
                    labels,
                    value: scalar_value(cell),
                })
                .collect();
            let (kind, name) = match f.kind {
                Kind::Counter => (ScalarKind::Counter, counter_names(&f.name).1),
                _ => (ScalarKind::Gauge, f.name.clone()),
            };
            let family = ScalarFamily {
                name: &name,
                help: &f.help,
                kind,
                metrics: &metrics,
            };
            family.write_delimited(out)
        }
        Kind::Histogram(layout) => {
            let reads: Vec<(usize, NativeHistogram)> = (f.series.iter().enumerate())
                .filter_map(|(k, (_, cell))| match cell {
                    Cell::Histogram(h) => Some((k, read(h, &layout)?)),
                    _ => None,
                })
                .collect();
            let metrics: Vec<NativeMetric<'_>> = (reads.iter())
                .map(|(k, r)| NativeMetric {
                    labels: &labels[*k],
                    histogram: r,
                })
                .collect();
            let family = NativeFamily {
                name: &f.name,
                help: &f.help,
                metrics: &metrics,
            };
            family.write_delimited(out)
        }
    }
}

fn scalar_value(cell: &Cell) -> f64 {
    match cell {
        Cell::Counter(c) => c.0.load(std::sync::atomic::Ordering::Relaxed) as f64,
        Cell::Gauge(g) => g.value(),
        Cell::Histogram(_) => f64::NAN,
    }
}
