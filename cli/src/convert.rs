//! `picollo convert`: an input re-written as a normalized interval log, as summary JSON,
//! as an OpenMetrics exposition, as an OTLP/JSON export request or as the protobuf
//! exposition of Prometheus native histograms.

use std::fmt::Write;

use clap::ValueEnum;
use picollo::export::{self, FORMATS};
use picollo::hdr::{Accumulator, LogWriter};
use picollo::openmetrics::{Bounds, Family, HistogramOptions, OpenMetricsWriter};
use picollo::otlp::{DataPoint, ExponentialHistogram, Metric, Request, Temporality};
use picollo::prometheus::{NativeFamily, NativeHistogram, NativeMetric, NativeOptions};
use picollo::{Config, Histogram};
use serde::Serialize;
use serde_json::ser::Formatter;
use serde_json::value::RawValue;

use crate::error::Failure;
use crate::input::Input;
use crate::select::{for_each_selected, round_micros, Filter};

/// What `convert` writes: one of the targets below, which know intervals and tags, or any
/// format of the library's export table (`Target::Format`), parsed by [`target`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Target {
    /// An interval log, format 1.3 (HdrHistogram's Java, C and Rust readers read it).
    Log,
    /// JSON Lines: one summary object per interval, or per tag with `--sum`.
    Json,
    /// An OpenMetrics text exposition: one histogram family, one point per tag.
    Openmetrics,
    /// One OTLP/JSON `ExportMetricsServiceRequest`: one exponential histogram metric.
    OtlpJson,
    /// Prometheus' protobuf exposition: one native-histogram family, one series per tag.
    PrometheusNative,
    /// A format of the library's export table, by name: the sum of the selected intervals.
    #[value(skip)]
    Format(&'static str),
}

/// The prefix that names a format of the export table whatever convert's own targets are
/// called: `--to format:json` is the table's `json`, `--to json` convert's JSON Lines.
pub const FORMAT_PREFIX: &str = "format:";

/// `--to NAME`: `format:NAME` is always the export table's format; a bare name is one of
/// convert's own targets above when it has that name, else the table's format.
pub fn target(name: &str) -> Result<Target, String> {
    if let Some(table) = name.strip_prefix(FORMAT_PREFIX) {
        return export::format_named(table)
            .map(|f| Target::Format(f.name()))
            .map_err(|e| e.message);
    }
    if let Ok(own) = Target::from_str(name, false) {
        return Ok(own);
    }
    if let Ok(format) = export::format_named(name) {
        return Ok(Target::Format(format.name()));
    }
    let own = own_targets();
    let table = FORMATS.iter().map(|f| reached_as(f.name(), &own));
    let names: Vec<String> = own.iter().cloned().chain(table).collect();
    Err(format!(
        "{name:?} is not a target [possible values: {}]",
        names.join(", ")
    ))
}

/// The names of convert's own targets.
fn own_targets() -> Vec<String> {
    let values = Target::value_variants().iter();
    let values = values.filter_map(|t| t.to_possible_value());
    values.map(|v| v.get_name().to_string()).collect()
}

/// How `--to` reaches the table's format `name`: by its name, or with the prefix where a
/// target of convert's own has that name.
fn reached_as(name: &str, own: &[String]) -> String {
    match own.iter().any(|o| o == name) {
        true => format!("{FORMAT_PREFIX}{name}"),
        false => name.to_string(),
    }
}

/// `picollo formats`: each format of the export table, how `convert --to` reaches it, what
/// it writes, and its options.
pub fn formats_text() -> String {
    let own = own_targets();
    let mut out = format!(
        "convert --to NAME writes the sum of the selected intervals in format NAME, with its\n\
         options as --option NAME=VALUE. Where convert has a target of its own with the\n\
         same name ({}), that target is meant, and the format is --to {FORMAT_PREFIX}NAME;\n\
         --to {FORMAT_PREFIX}NAME always means the format.\n\n",
        own.join(", ")
    );
    for f in FORMATS {
        let about = f.about();
        let kind = if about.binary { "binary" } else { "text" };
        let to = reached_as(f.name(), &own);
        let _ = writeln!(out, "{} ({kind}; --to {to})", f.name());
        let _ = writeln!(out, "    {}", about.description);
        for (option, what) in about.options {
            let _ = writeln!(out, "    --option {option}=...  {what}");
        }
    }
    out
}

impl Target {
    /// Whether the target is a metric export (`openmetrics`, `otlp-json`,
    /// `prometheus-native`).
    pub fn is_metric(self) -> bool {
        matches!(
            self,
            Target::Openmetrics | Target::OtlpJson | Target::PrometheusNative
        )
    }
}

/// The name used when `--name` is not given (OpenMetrics appends `_<unit>` to it when a
/// unit is given).
pub const DEFAULT_NAME: &str = "picollo_histogram";

/// How a metric export (`openmetrics`, `otlp-json`) names and shapes its metric.
pub struct MetricOptions {
    /// The family (OpenMetrics) or metric (OTLP) name.
    pub name: String,
    /// `# HELP` (OpenMetrics) or the description (OTLP); may be empty.
    pub help: String,
    /// `# UNIT` (OpenMetrics, a suffix of the name) or the UCUM unit (OTLP); may be empty.
    pub unit: String,
    /// Recorded values are divided by this.
    pub unit_ratio: f64,
    /// OpenMetrics bucket bounds: explicit (recorded units), else derived at this coarse
    /// relative error.
    pub bounds: Option<Vec<u64>>,
    /// The coarse relative error when no explicit bounds are given.
    pub coarse: f64,
    /// OTLP: one delta point per interval instead of one cumulative point per tag.
    pub delta: bool,
    /// Prometheus native: the schema (`None`: from the relative error).
    pub schema: Option<i32>,
    /// A format of the export table: its options, `(name, value)`.
    pub options: Vec<(String, String)>,
}

impl MetricOptions {
    fn openmetrics(&self) -> (Family<'_>, HistogramOptions<'_>) {
        let family = Family::new(&self.name)
            .with_help(&self.help)
            .with_unit(&self.unit);
        let bounds = match &self.bounds {
            Some(b) => Bounds::Explicit(b),
            None => Bounds::Coarse(self.coarse),
        };
        let options = HistogramOptions {
            bounds,
            unit_ratio: self.unit_ratio,
            created_unix_nanos: None,
        };
        (family, options)
    }

    /// Check the OpenMetrics name, unit, bounds and ratio before any input is read: the
    /// message of what is wrong, for a usage error.
    pub fn check_openmetrics(&self) -> Result<(), String> {
        let (family, options) = self.openmetrics();
        let mut scratch = OpenMetricsWriter::new(String::new());
        match scratch.histogram(&family, &options) {
            Ok(_) => Ok(()),
            Err(e) => Err(format!(
                "--name {:?}, --unit {:?}: {e} (OpenMetrics names match \
                 [a-zA-Z_:][a-zA-Z0-9_:]*, end with _<unit> when a unit is given, and do not \
                 end in _bucket, _count, _sum, _created, _total or _info)",
                self.name, self.unit
            )),
        }
    }
}

impl MetricOptions {
    /// Check the Prometheus name and the schema and unit ratio before any input is read.
    pub fn check_prometheus_native(&self) -> Result<(), String> {
        let options = NativeOptions {
            schema: self.schema,
            unit_ratio: self.unit_ratio,
            classic: None,
        };
        options
            .check()
            .map_err(|e| format!("--schema/--unit-ratio: {e}"))?;
        let family = NativeFamily {
            name: &self.name,
            help: &self.help,
            metrics: &[],
        };
        family
            .check()
            .map_err(|e| format!("--name {:?}: {e}", self.name))
    }
}

/// Convert what `filter` selects of `input` to `target` (`metric` for the metric targets):
/// text, or bytes for `prometheus-native`.
pub fn convert(
    input: &Input,
    filter: &Filter,
    target: Target,
    sum: bool,
    metric: &MetricOptions,
) -> Result<Vec<u8>, Failure> {
    let text = match target {
        Target::Format(name) => return to_format(input, filter, name, &metric.options),
        Target::Log => to_log(input, filter),
        Target::Json if sum => to_json_sums(input, filter),
        Target::Json => to_json(input, filter),
        Target::Openmetrics => to_openmetrics(input, filter, metric),
        Target::OtlpJson if metric.delta => to_otlp_deltas(input, filter, metric),
        Target::OtlpJson => to_otlp_sums(input, filter, metric),
        Target::PrometheusNative => return to_prometheus_native(input, filter, metric),
    };
    text.map(String::into_bytes)
}

/// The sum of every selected interval (all tags) in the export table's format `name`, with
/// the format's `options`.
fn to_format(
    input: &Input,
    filter: &Filter,
    name: &str,
    options: &[(String, String)],
) -> Result<Vec<u8>, Failure> {
    let h = crate::select::sum(input, filter)?.histogram;
    let pairs: Vec<(&str, &str)> = options
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    export::export(name, &h.view(), &pairs).map_err(|e| Failure::usage(format!("--to {name}: {e}")))
}

fn line_error(input: &Input, line: usize, e: impl std::fmt::Display) -> Failure {
    Failure::format(format!("{}: line {line}: {e}", input.name))
}

/// A format 1.3 log: the version line; `StartTime` and a `BaseTime` equal to it when the
/// input has a `StartTime` (else its `BaseTime`, if any), so that every reader takes the
/// timestamps as relative to the start; the legend; then each selected interval with its
/// tag, its times to the millisecond, its maximum (top of its highest bucket / 10^6, as
/// HdrHistogram's writers) and its histogram re-encoded (compressed V2, base64).
fn to_log(input: &Input, filter: &Filter) -> Result<String, Failure> {
    let mut writer: Option<LogWriter<String>> = None;
    for_each_selected(input, filter, |intervals, interval, _| {
        let log = match &mut writer {
            Some(log) => log,
            None => {
                let mut log = LogWriter::new(String::new());
                let (start, base) = match intervals.header_times() {
                    (Some(s), _) => (Some(s), Some(s)),
                    (None, b) => (None, b),
                };
                log.header(start, base)
                    .map_err(|e| line_error(input, interval.line, e))?;
                writer.insert(log)
            }
        };
        log.interval(
            interval.tag.as_deref(),
            interval.start,
            interval.length,
            &interval.histogram.view(),
        )
        .map_err(|e| line_error(input, interval.line, e))
    })?;
    Ok(writer.map(LogWriter::into_inner).unwrap_or_default())
}

/// One JSON object per selected interval, one per line.
fn to_json(input: &Input, filter: &Filter) -> Result<String, Failure> {
    let mut out = String::new();
    for_each_selected(input, filter, |_, interval, origin| {
        let start = interval.start - origin;
        let (tag, length) = (interval.tag.as_deref(), interval.length);
        object(&mut out, tag, start, length, 1, &interval.histogram);
        Ok(())
    })?;
    Ok(out)
}

/// The selected intervals summed per tag, tags in order of first appearance.
struct Sums {
    /// Each tag (`None`: untagged) and the sum of its selected intervals.
    tags: Vec<(Option<String>, Accumulator)>,
    /// The time `--from`/`--to` count from.
    origin: f64,
    /// Whether the log has a `StartTime` or `BaseTime` header (its times are absolute).
    absolute: bool,
}

fn sums(input: &Input, filter: &Filter) -> Result<Sums, Failure> {
    let mut tags: Vec<(Option<String>, Accumulator)> = Vec::new();
    let walk = for_each_selected(input, filter, |_, interval, _| {
        let k = match tags.iter().position(|(t, _)| *t == interval.tag) {
            Some(k) => k,
            None => {
                tags.push((interval.tag.clone(), Accumulator::new()));
                tags.len() - 1
            }
        };
        tags[k]
            .1
            .add_interval(&interval)
            .map_err(|e| line_error(input, interval.line, e))
    })?;
    Ok(Sums {
        tags,
        origin: walk.origin,
        absolute: !matches!(walk.header_times, (None, None)),
    })
}

/// One JSON object per tag (in order of first appearance): the sum of its selected
/// intervals, from the first start to the last end.
fn to_json_sums(input: &Input, filter: &Filter) -> Result<String, Failure> {
    let sums = sums(input, filter)?;
    let mut out = String::new();
    for (tag, acc) in &sums.tags {
        let (start, end) = acc.time_span().expect("one interval at least");
        let h = acc.histogram().expect("one interval at least");
        object(
            &mut out,
            tag.as_deref(),
            start - sums.origin,
            end - start,
            acc.intervals(),
            h,
        );
    }
    Ok(out)
}

/// The tags' sums over one common layout and range (the first tag's precision, the union
/// of the ranges), as the points of one OpenMetrics family must share their buckets.
/// A sum of another precision is re-binned at its buckets' midpoints.
fn common_buckets(input: &Input, sums: &Sums) -> Result<Vec<Histogram<u64, Vec<u64>>>, Failure> {
    let hists: Vec<&Histogram<u64, Vec<u64>>> = sums
        .tags
        .iter()
        .map(|(_, acc)| acc.histogram().expect("one interval at least"))
        .collect();
    let first = hists[0].config();
    let lo = hists.iter().map(|h| h.config().min_trackable()).min();
    let hi = hists.iter().map(|h| h.config().max_trackable()).max();
    let config: Config = first.with_range(lo.unwrap_or(1), hi.unwrap_or(2));
    let mut out = Vec::with_capacity(hists.len());
    for h in hists {
        let mut common =
            Histogram::new(config).map_err(|e| Failure::format(format!("{}: {e}", input.name)))?;
        if common.layout() == h.layout() {
            common
                .add(&h.view())
                .map_err(|e| Failure::format(format!("{}: {e}", input.name)))?;
        } else {
            for b in h.view().buckets().filter(|b| b.count != 0) {
                common.record_n(b.value, b.count);
            }
        }
        out.push(common);
    }
    Ok(out)
}

/// An OpenMetrics exposition: one histogram family, one point per tag (label `tag`;
/// untagged intervals without it) holding the sum of the tag's selected intervals, then
/// `# EOF`. `_created` is the earliest selected start when the log's times are absolute
/// (it has a `StartTime` or `BaseTime` header).
fn to_openmetrics(input: &Input, filter: &Filter, m: &MetricOptions) -> Result<String, Failure> {
    let sums = sums(input, filter)?;
    let hists = common_buckets(input, &sums)?;
    let (family, mut options) = m.openmetrics();
    if sums.absolute {
        options.created_unix_nanos = sums
            .tags
            .iter()
            .filter_map(|(_, acc)| acc.time_span())
            .map(|(start, _)| unix_nanos(start))
            .min();
    }
    let failed =
        |e: picollo::openmetrics::OpenMetricsError| Failure::format(format!("{}: {e}", input.name));
    let mut w = OpenMetricsWriter::new(String::new());
    {
        let mut f = w.histogram(&family, &options).map_err(failed)?;
        for ((tag, _), h) in sums.tags.iter().zip(&hists) {
            let labels: &[(&str, &str)] = match tag {
                Some(t) => &[("tag", t.as_str())],
                None => &[],
            };
            f.point(labels, &h.view()).map_err(failed)?;
        }
    }
    w.finish().map_err(failed)
}

/// The protobuf exposition of one native-histogram family (`--name`, `--help-text`), one
/// series per tag (label `tag`; untagged intervals without it) holding the sum of the tag's
/// selected intervals, at `--schema` or the schema of each sum's relative error.
fn to_prometheus_native(
    input: &Input,
    filter: &Filter,
    m: &MetricOptions,
) -> Result<Vec<u8>, Failure> {
    let sums = sums(input, filter)?;
    let failed =
        |e: picollo::prometheus::OptionError| Failure::format(format!("{}: {e}", input.name));
    let options = NativeOptions {
        schema: m.schema,
        unit_ratio: m.unit_ratio,
        classic: None,
    };
    let hists = sums
        .tags
        .iter()
        .map(|(_, acc)| {
            let h = acc.histogram().expect("one interval at least");
            NativeHistogram::from_view(&h.view(), &options).map_err(failed)
        })
        .collect::<Result<Vec<_>, Failure>>()?;
    let labels: Vec<Vec<(&str, &str)>> = sums
        .tags
        .iter()
        .map(|(tag, _)| tag.as_deref().map(|t| ("tag", t)).into_iter().collect())
        .collect();
    let metrics: Vec<NativeMetric<'_>> = labels
        .iter()
        .zip(&hists)
        .map(|(labels, histogram)| NativeMetric { labels, histogram })
        .collect();
    let mut out = Vec::new();
    NativeFamily {
        name: &m.name,
        help: &m.help,
        metrics: &metrics,
    }
    .write_delimited(&mut out)
    .map_err(failed)?;
    Ok(out)
}

/// Seconds since the epoch as nanoseconds, to the microsecond (logs hold milliseconds or
/// microseconds; the float's own error would show in the last digits otherwise); 0 for
/// times at or before the epoch.
fn unix_nanos(s: f64) -> u64 {
    if s.is_nan() || s <= 0.0 {
        return 0;
    }
    let whole = s.floor();
    let micros = ((s - whole) * 1e6).round() as u64;
    (whole as u64)
        .saturating_mul(1_000_000_000)
        .saturating_add(micros * 1_000)
}

/// One point of an OTLP export before it is borrowed into a [`DataPoint`].
struct OtlpPoint {
    tag: Option<String>,
    start: u64,
    time: u64,
    histogram: ExponentialHistogram,
}

/// The request holding `points` as one exponential histogram metric, as one JSON line.
fn otlp_request(points: &[OtlpPoint], temporality: Temporality, m: &MetricOptions) -> String {
    let attributes: Vec<Vec<(&str, &str)>> = points
        .iter()
        .map(|p| p.tag.as_deref().map(|t| ("tag", t)).into_iter().collect())
        .collect();
    let data: Vec<DataPoint<'_>> = points
        .iter()
        .zip(&attributes)
        .map(|(p, a)| DataPoint {
            attributes: a,
            start_time_unix_nano: p.start,
            time_unix_nano: p.time,
            histogram: &p.histogram,
        })
        .collect();
    let metric = Metric {
        name: &m.name,
        description: &m.help,
        unit: &m.unit,
        temporality,
        points: &data,
    };
    let request = Request {
        resource: &[],
        scope_name: "picollo-cli",
        scope_version: env!("CARGO_PKG_VERSION"),
        metrics: &[metric],
    };
    let mut out = request.to_json();
    out.push('\n');
    out
}

/// OTLP/JSON, cumulative: one point per tag (attribute `tag`; untagged intervals without
/// it), the sum of its selected intervals, from the first start to the last end.
fn to_otlp_sums(input: &Input, filter: &Filter, m: &MetricOptions) -> Result<String, Failure> {
    let sums = sums(input, filter)?;
    let points = sums
        .tags
        .iter()
        .map(|(tag, acc)| {
            let (start, end) = acc.time_span().expect("one interval at least");
            let h = acc.histogram().expect("one interval at least");
            Ok(OtlpPoint {
                tag: tag.clone(),
                start: unix_nanos(start),
                time: unix_nanos(end),
                histogram: exponential(input, &h.view(), m)?,
            })
        })
        .collect::<Result<Vec<_>, Failure>>()?;
    Ok(otlp_request(&points, Temporality::Cumulative, m))
}

/// `view` re-binned for OTLP at the scale of its relative error.
fn exponential(
    input: &Input,
    view: &picollo::View<'_, u64>,
    m: &MetricOptions,
) -> Result<ExponentialHistogram, Failure> {
    ExponentialHistogram::from_view(view, m.unit_ratio)
        .map_err(|e| Failure::format(format!("{}: {e}", input.name)))
}

/// OTLP/JSON, delta: one point per selected interval, in log order.
fn to_otlp_deltas(input: &Input, filter: &Filter, m: &MetricOptions) -> Result<String, Failure> {
    let mut points = Vec::new();
    for_each_selected(input, filter, |_, interval, _| {
        points.push(OtlpPoint {
            tag: interval.tag.clone(),
            start: unix_nanos(interval.start),
            time: unix_nanos(interval.end()),
            histogram: exponential(input, &interval.histogram.view(), m)?,
        });
        Ok(())
    })?;
    Ok(otlp_request(&points, Temporality::Delta, m))
}

/// One line of `--to json`: the interval's (or the tag's sum's) tag, its start in seconds
/// after the input's origin (as `--from`/`--until`) and its length, both to the microsecond,
/// how many intervals it holds, and its summary (core's JSON object, as core writes it).
#[derive(Serialize)]
struct Line<'a> {
    tag: Option<&'a str>,
    start: f64,
    length: f64,
    intervals: usize,
    summary: &'a RawValue,
}

/// serde_json's compact text, but a double as Rust's `Display` writes it: a whole number
/// without a fraction (`"length":2`) and never an exponent (`0.000005`, where serde_json
/// writes `5e-6`).
struct PlainNumbers;

impl Formatter for PlainNumbers {
    fn write_f64<W: ?Sized + std::io::Write>(&mut self, w: &mut W, v: f64) -> std::io::Result<()> {
        // Only finite doubles reach it (serde_json writes the others as `null`), and their
        // `Display` text is a JSON number.
        write!(w, "{v}")
    }
}

/// `{"tag":…,"start":…,"length":…,"intervals":…,"summary":{…}}` and a newline ([`Line`]).
fn object(
    out: &mut String,
    tag: Option<&str>,
    start: f64,
    length: f64,
    intervals: usize,
    histogram: &Histogram<u64, Vec<u64>>,
) {
    let mut summary = String::new();
    let view = histogram.view();
    view.summary()
        .write_json(&mut summary)
        .expect("a String takes any text");
    let summary = RawValue::from_string(summary).expect("core's summary is a JSON object");
    let line = Line {
        tag,
        start: round_micros(start),
        length: round_micros(length),
        intervals,
        summary: &summary,
    };
    let mut text = Vec::new();
    let mut serializer = serde_json::Serializer::with_formatter(&mut text, PlainNumbers);
    line.serialize(&mut serializer).expect("a line has no map");
    out.push_str(std::str::from_utf8(&text).expect("serde_json writes UTF-8"));
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A histogram of `values`.
    fn histogram(values: &[u64]) -> Histogram<u64, Vec<u64>> {
        let mut h = Histogram::new(Config::default()).unwrap();
        for &v in values {
            h.record(v);
        }
        h
    }

    #[test]
    fn a_line_escapes_its_tag_and_writes_seconds_without_an_exponent() {
        let h = histogram(&[1, 2, 3]);
        let mut summary = String::new();
        h.view().summary().write_json(&mut summary).unwrap();
        let mut out = String::new();
        object(&mut out, Some("a\"b\\c\td\u{1}"), 0.0000564, 2.0, 3, &h);
        let head = "{\"tag\":\"a\\\"b\\\\c\\td\\u0001\",\"start\":0.000056,\"length\":2,";
        assert_eq!(
            out,
            std::format!("{head}\"intervals\":3,\"summary\":{summary}}}\n")
        );
        out.clear();
        object(&mut out, None, 1.5, 1e-6, 1, &h);
        assert!(
            out.starts_with("{\"tag\":null,\"start\":1.5,\"length\":0.000001,"),
            "{out}"
        );
    }
}
