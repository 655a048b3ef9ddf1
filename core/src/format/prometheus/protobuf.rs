//! The protobuf exposition of native histograms: length-delimited
//! `io.prometheus.client.MetricFamily` messages (proto2, so every field is written, defaults
//! included), encoded by hand over the wire primitives of `format/protobuf.rs`.

use alloc::vec::Vec;

use super::{ExponentialBuckets, NativeHistogram, OptionError};
use crate::format::option::{check_labels, check_metric_name, HISTOGRAM_SUFFIXES};
use crate::format::protobuf::{
    bytes_field, delimited, double_field, message, varint_field, zigzag,
};

/// The HTTP content type of the exposition (`Content-Type` of a scrape's answer; Prometheus
/// asks for it in its `Accept` header when native histograms are on).
pub const PROTOBUF_CONTENT_TYPE: &str =
    "application/vnd.google.protobuf; proto=io.prometheus.client.MetricFamily; encoding=delimited";

/// `MetricType.COUNTER`, `.GAUGE` and `.HISTOGRAM`.
const COUNTER: u64 = 0;
const GAUGE: u64 = 1;
const HISTOGRAM: u64 = 4;

/// One series of a family: its labels and its histogram.
#[derive(Clone, Copy, Debug)]
pub struct NativeMetric<'a> {
    /// The labels (names as [`check_labels`] allows, not `le`; values any text).
    pub labels: &'a [(&'a str, &'a str)],
    /// The counts.
    pub histogram: &'a NativeHistogram,
}

/// A `MetricFamily` of type `HISTOGRAM`: a name, help text and its series.
#[derive(Clone, Copy, Debug)]
pub struct NativeFamily<'a> {
    /// The family name (as [`check_metric_name`] allows, not ending with `_bucket`, `_count`,
    /// `_sum`, `_created`, `_total` or `_info`).
    pub name: &'a str,
    /// The help text.
    pub help: &'a str,
    /// The series. Label sets are not compared between them: the same one twice is the
    /// caller's error.
    pub metrics: &'a [NativeMetric<'a>],
}

impl NativeFamily<'_> {
    /// The name, then each series' label names.
    pub fn check(&self) -> Result<(), OptionError> {
        check_metric_name(self.name, &HISTOGRAM_SUFFIXES)?;
        self.metrics
            .iter()
            .try_for_each(|m| check_labels(m.labels, "le"))
    }

    /// Appends the family to `out` as one message of a delimited stream (its length as a
    /// varint, then the message): a scrape's body is such messages one after another.
    ///
    /// # Errors
    /// [`NativeFamily::check`]'s; nothing is written then.
    pub fn write_delimited(&self, out: &mut Vec<u8>) -> Result<(), OptionError> {
        self.check()?;
        delimited(out, |f| {
            bytes_field(f, 1, self.name.as_bytes());
            bytes_field(f, 2, self.help.as_bytes());
            varint_field(f, 3, HISTOGRAM);
            for m in self.metrics {
                message(f, 4, |metric| encode_metric(metric, m));
            }
        });
        Ok(())
    }
}

fn encode_metric(out: &mut Vec<u8>, m: &NativeMetric<'_>) {
    encode_labels(out, m.labels);
    message(out, 7, |h| encode_histogram(h, m.histogram));
}

/// `Metric.label`: one `LabelPair` per label.
fn encode_labels(out: &mut Vec<u8>, labels: &[(&str, &str)]) {
    for (name, value) in labels {
        message(out, 1, |pair| {
            bytes_field(pair, 1, name.as_bytes());
            bytes_field(pair, 2, value.as_bytes());
        });
    }
}

/// What a [`ScalarFamily`] holds: its `MetricType` and the `Metric` field of its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScalarKind {
    /// `COUNTER` (type 0, `Metric.counter`): a total that only grows.
    Counter,
    /// `GAUGE` (type 1, `Metric.gauge`): a value that goes up and down.
    Gauge,
}

/// One series of a [`ScalarFamily`]: its labels and its value.
#[derive(Clone, Copy, Debug)]
pub struct ScalarMetric<'a> {
    /// The labels (names as [`check_labels`] allows; values any text).
    pub labels: &'a [(&'a str, &'a str)],
    /// The value.
    pub value: f64,
}

/// A `MetricFamily` of counters or gauges, beside the histogram families of
/// [`NativeFamily`] in one delimited body (a scrape answered in protobuf holds every
/// family of the endpoint in that form).
#[derive(Clone, Copy, Debug)]
pub struct ScalarFamily<'a> {
    /// The family name (as [`check_metric_name`] allows; a counter's usually ends with
    /// `_total`, as the Prometheus clients write it in this format).
    pub name: &'a str,
    /// The help text.
    pub help: &'a str,
    /// Counter or gauge.
    pub kind: ScalarKind,
    /// The series.
    pub metrics: &'a [ScalarMetric<'a>],
}

impl ScalarFamily<'_> {
    /// The name, then each series' label names.
    pub fn check(&self) -> Result<(), OptionError> {
        check_metric_name(self.name, &[])?;
        self.metrics
            .iter()
            .try_for_each(|m| check_labels(m.labels, ""))
    }

    /// Appends the family to `out` as one message of a delimited stream.
    ///
    /// # Errors
    /// [`ScalarFamily::check`]'s; nothing is written then.
    pub fn write_delimited(&self, out: &mut Vec<u8>) -> Result<(), OptionError> {
        self.check()?;
        let (kind, field) = match self.kind {
            ScalarKind::Counter => (COUNTER, 3),
            ScalarKind::Gauge => (GAUGE, 2),
        };
        delimited(out, |f| {
            bytes_field(f, 1, self.name.as_bytes());
            bytes_field(f, 2, self.help.as_bytes());
            varint_field(f, 3, kind);
            for m in self.metrics {
                message(f, 4, |metric| {
                    encode_labels(metric, m.labels);
                    message(metric, field, |v| double_field(v, 1, m.value));
                });
            }
        });
        Ok(())
    }
}

fn encode_histogram(out: &mut Vec<u8>, h: &NativeHistogram) {
    varint_field(out, 1, h.count);
    double_field(out, 2, h.sum);
    // The classic buckets' finite bounds (`+Inf` is `sample_count`).
    for &(le, cumulative) in h.classic.iter().flat_map(|c| &c.buckets) {
        if le.is_finite() {
            message(out, 3, |b| {
                varint_field(b, 1, cumulative);
                double_field(b, 2, le);
            });
        }
    }
    varint_field(out, 5, zigzag(i64::from(h.schema)));
    double_field(out, 6, h.zero_threshold);
    varint_field(out, 7, h.zero_count);
    encode_run(out, [9, 10], &h.negative);
    encode_run(out, [12, 13], &h.positive);
    if h.negative.counts.is_empty() && h.positive.counts.is_empty() {
        // A no-op span: the histogram is native even with nothing in its buckets.
        encode_span(out, 12, (0, 0));
    }
}

/// The spans (field `fields[0]`) and deltas (`fields[1]`) of a run of buckets.
fn encode_run(out: &mut Vec<u8>, [span_field, delta_field]: [u32; 2], run: &ExponentialBuckets) {
    let mut previous_end = None;
    let mut previous_count = 0u64;
    for (start, counts) in spans(run) {
        // The first offset is the first index; later ones the gap after the previous span.
        let offset = previous_end.map_or(start, |end| start - end);
        encode_span(out, span_field, (offset, counts.len() as u32));
        previous_end = Some(start + counts.len() as i32);
        for &c in counts {
            // The first count as is, then each as a change from the one before (wrapping,
            // as the reader sums them).
            let delta = (c as i64).wrapping_sub(previous_count as i64);
            varint_field(out, delta_field, zigzag(delta));
            previous_count = c;
        }
    }
}

fn encode_span(out: &mut Vec<u8>, field: u32, (offset, length): (i32, u32)) {
    message(out, field, |s| {
        varint_field(s, 1, zigzag(i64::from(offset)));
        varint_field(s, 2, u64::from(length));
    });
}

/// The spans of a run, `(first index, counts)`: a gap of more than two empty buckets ends a
/// span (a new span costs more than two zero counts), shorter ones are written as zeros.
fn spans(run: &ExponentialBuckets) -> impl Iterator<Item = (i32, &[u64])> {
    let counts = &run.counts[..];
    let mut k = 0;
    core::iter::from_fn(move || {
        while k < counts.len() && counts[k] == 0 {
            k += 1;
        }
        if k == counts.len() {
            return None;
        }
        let start = k;
        let mut end = k + 1;
        loop {
            let next = counts[end..].iter().position(|&c| c != 0).map(|g| end + g);
            match next {
                Some(j) if j - end <= 2 => end = j + 1,
                _ => break,
            }
        }
        k = end;
        Some((run.offset + start as i32, &counts[start..end]))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_counter_family_is_a_metric_family_with_a_counter_value() {
        let labels = [("a", "b")];
        let metrics = [ScalarMetric {
            labels: &labels,
            value: 1.0,
        }];
        let family = ScalarFamily {
            name: "up_total",
            help: "",
            kind: ScalarKind::Counter,
            metrics: &metrics,
        };
        let mut out = Vec::new();
        family.write_delimited(&mut out).unwrap();
        let mut expected = alloc::vec![35, 0x0a, 8];
        expected.extend_from_slice(b"up_total");
        // help "", type COUNTER (0), metric {label {a, b}, counter {value 1.0}}.
        expected.extend_from_slice(&[0x12, 0, 0x18, 0, 0x22, 19, 0x0a, 6, 0x0a, 1, b'a']);
        expected.extend_from_slice(&[0x12, 1, b'b', 0x1a, 9, 0x09]);
        expected.extend_from_slice(&1.0f64.to_le_bytes());
        assert_eq!(out, expected);
        // A gauge holds its value in field 2; bad names are refused, nothing written.
        let gauge = ScalarFamily {
            kind: ScalarKind::Gauge,
            ..family
        };
        let mut g = Vec::new();
        gauge.write_delimited(&mut g).unwrap();
        assert_eq!((g[14], g[25]), (1, 0x12));
        let bad = ScalarFamily {
            name: "1up",
            ..family
        };
        let mut none = Vec::new();
        assert!(bad.write_delimited(&mut none).is_err() && none.is_empty());
    }

    #[test]
    fn gaps_of_more_than_two_empty_buckets_split_spans() {
        let run = ExponentialBuckets {
            offset: -3,
            counts: alloc::vec![0, 5, 0, 0, 2, 0, 0, 0, 7, 1, 0],
        };
        let got: Vec<(i32, Vec<u64>)> = spans(&run).map(|(s, c)| (s, c.to_vec())).collect();
        assert_eq!(
            got,
            alloc::vec![(-2, alloc::vec![5, 0, 0, 2]), (5, alloc::vec![7, 1])]
        );
    }

    #[test]
    fn deltas_run_across_spans_and_offsets_are_gaps() {
        let run = ExponentialBuckets {
            offset: -2,
            counts: alloc::vec![5, 0, 0, 0, 7, 1],
        };
        let mut out = Vec::new();
        encode_run(&mut out, [12, 13], &run);
        // span {offset -2 (zigzag 3), length 1}, delta 5 (10), span {gap 3 (6), length 2},
        // deltas +2 (4), −6 (11).
        let expected = [
            0x62, 4, 0x08, 3, 0x10, 1, 0x68, 10, 0x62, 4, 0x08, 6, 0x10, 2, 0x68, 4, 0x68, 11,
        ];
        assert_eq!(out, expected);
    }
}
