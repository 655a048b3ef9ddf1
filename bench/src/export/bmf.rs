//! Bencher Metric Format: `{benchmark: {measure: {value, lower_value, upper_value}}}`, one
//! measure per metric at its median, its 99 % interval as the lower and upper values. Time
//! is Bencher's built-in `latency` measure (nanoseconds); every other metric a measure of
//! its own, by slug (`hardware-instructions`), which Bencher creates where it is new.

use core::fmt::{self, Write};
use std::string::String;

use serde::Serialize;

use super::records::{write_line, Members};
use super::{median_with_interval, Findings, ResultFormat};
use crate::measure::result::BenchResult;

/// Bencher's JSON (`bmf`).
pub struct Bencher;

/// The longest measure slug Bencher takes.
const SLUG_LIMIT: usize = 64;

/// The measure a metric is written as: `latency` for the time, else its name in lower case
/// with each run of other characters than letters and digits as one `-`.
pub fn measure_slug(r: &BenchResult, index: usize) -> String {
    if index == r.time_index() {
        return "latency".into();
    }
    let name = r.metrics[index].metric.name.to_lowercase();
    let words = name.split(|c: char| !c.is_ascii_alphanumeric());
    let slug: std::vec::Vec<&str> = words.filter(|w| !w.is_empty()).collect();
    slug.join("-").chars().take(SLUG_LIMIT).collect()
}

/// The whole file: each benchmark by name, each of its measures by slug.
type File = Members<String, Members<String, Measure>>;

/// One measure of a benchmark: a metric's median and, where there is one, its 99 %
/// interval.
#[derive(Serialize)]
struct Measure {
    value: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    lower_value: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    upper_value: Option<f64>,
}

/// Metric `index` of `r` as a measure.
fn measure(r: &BenchResult, index: usize) -> Measure {
    let (value, interval) = median_with_interval(r, index);
    Measure {
        value,
        lower_value: interval.map(|(lo, _)| lo),
        upper_value: interval.map(|(_, hi)| hi),
    }
}

impl ResultFormat for Bencher {
    fn name(&self) -> &'static str {
        "bmf"
    }

    fn title(&self) -> &'static str {
        "Bencher Metric Format (JSON)"
    }

    fn write(&self, findings: &Findings<'_>, w: &mut dyn Write) -> fmt::Result {
        write_file(findings, None, w)
    }
}

/// The file of `findings`, each benchmark with the measure of the metric named `metric`
/// only (`None`: every metric's).
pub(crate) fn write_file(
    findings: &Findings<'_>,
    metric: Option<&str>,
    w: &mut dyn Write,
) -> fmt::Result {
    let benchmarks = findings.charted().into_iter().filter_map(|(name, r)| {
        let kept =
            (0..r.metrics.len()).filter(|i| metric.is_none_or(|m| r.metrics[*i].metric.name == m));
        let measures: std::vec::Vec<_> =
            kept.map(|i| (measure_slug(r, i), measure(r, i))).collect();
        // A benchmark without the metric asked for has nothing to chart.
        (metric.is_none() || !measures.is_empty()).then_some((name, Members(measures)))
    });
    let file: File = Members(benchmarks.collect());
    write_line(w, &file)
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    use super::*;
    use crate::export::records::{member, member_names};
    use crate::export::results_for_tests;

    #[test]
    fn each_benchmark_holds_each_metric_at_its_median_and_interval() {
        let results = results_for_tests();
        let findings = Findings::of_results(&results.iter().collect::<std::vec::Vec<_>>());
        let text = findings.to_text(&Bencher).unwrap();
        assert!(text.ends_with("}\n") && text.lines().count() == 1, "{text}");
        let names: std::vec::Vec<String> = results.iter().map(|r| r.name.clone()).collect();
        assert_eq!(member_names(&text), names);
        let file: Value = serde_json::from_str(&text).unwrap();
        let mut with_and_without_interval = [0, 0];
        for r in &results {
            let measures = member(&text, &r.name);
            let slugs: std::vec::Vec<String> =
                (0..r.metrics.len()).map(|i| measure_slug(r, i)).collect();
            assert_eq!(member_names(measures), slugs);
            for (i, slug) in slugs.iter().enumerate() {
                let m = &file[&r.name][slug];
                assert_eq!(m["value"].as_f64(), r.percentile_at(i, 50.0), "{m}");
                let Some((lo, hi)) = median_with_interval(r, i).1 else {
                    assert_eq!(m.as_object().unwrap().len(), 1, "{m}");
                    with_and_without_interval[1] += 1;
                    continue;
                };
                with_and_without_interval[0] += 1;
                let keys = ["value", "lower_value", "upper_value"];
                assert_eq!(member_names(member(measures, slug)), keys);
                assert_eq!(
                    (m["lower_value"].as_f64(), m["upper_value"].as_f64()),
                    (Some(lo), Some(hi))
                );
            }
        }
        assert_eq!(with_and_without_interval, [4, 1]);
    }
}
