//! github-action-benchmark's custom JSON, smaller is better (its tool
//! `customSmallerIsBetter`): `[{name, unit, value, range, extra}]`. One entry per benchmark
//! for its median time (ns), and one per exact metric (an emulated count, `NAME
//! (Emulated:Instructions)`), which a chart and an alert judge as well as time, and one per
//! metric a comparison of the findings judges (`picollo bench --metric`); the other counters
//! vary with the machine and would alert on noise. `range` is the larger side of
//! the 99 % interval of the median, `extra` the interval itself and what the figure stands
//! on.

use core::fmt::{self, Write};
use std::string::String;
use std::vec::Vec;

use serde::Serialize;

use super::records::write_line;
use super::{charted, median_with_interval, Findings, ResultFormat};
use crate::measure::result::BenchResult;

/// github-action-benchmark's JSON (`github`).
pub struct GithubAction;

/// One entry: a figure of a benchmark, its unit, the half-width of its interval where it has
/// one, and the tooltip.
#[derive(Serialize)]
struct Entry {
    name: String,
    unit: &'static str,
    value: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    range: Option<String>,
    extra: String,
}

/// The tooltip: `99 % interval of the median: [lo, hi] ns; P99 x ns; n runs in r rounds`.
fn extra(r: &BenchResult, index: usize, interval: Option<(f64, f64)>) -> String {
    let unit = r.metrics[index].metric.unit;
    let mut text = match interval {
        Some((lo, hi)) => std::format!("99 % interval of the median: [{lo}, {hi}] {unit}"),
        None => "99 % interval of the median: too few samples".into(),
    };
    if let Some(p99) = r.percentile_at(index, 99.0) {
        let _ = write!(text, "\nP99: {p99} {unit}");
    }
    let op = &r.conditions.operation;
    let _ = write!(
        text,
        "\n{} {op}s in {} rounds, {} {op}(s) a sample",
        r.samples,
        r.rounds.len(),
        r.conditions.batch
    );
    text
}

/// Metric `index` of `r` as an entry, named `name` (time) or `name (METRIC)`.
fn entry(name: &str, r: &BenchResult, index: usize) -> Entry {
    let metric = &r.metrics[index].metric;
    let (value, interval) = median_with_interval(r, index);
    let range = interval.map(|(lo, hi)| {
        // Figures are thousandths of the unit: so is the range, without float dust.
        let half = ((value - lo).max(hi - value) * 1000.0).round() / 1000.0;
        std::format!("± {half}")
    });
    Entry {
        name: match index == r.time_index() {
            true => name.into(),
            false => std::format!("{name} ({})", metric.name),
        },
        unit: metric.unit.as_str(),
        value,
        range,
        extra: extra(r, index, interval),
    }
}

impl ResultFormat for GithubAction {
    fn name(&self) -> &'static str {
        "github"
    }

    fn title(&self) -> &'static str {
        "github-action-benchmark's custom JSON, smaller is better"
    }

    fn write(&self, findings: &Findings<'_>, w: &mut dyn Write) -> fmt::Result {
        let measured = findings.charted();
        let judged = findings.judged_metrics();
        let entries = measured
            .iter()
            .flat_map(|(name, r)| charted(r, &judged).map(move |i| entry(name, r, i)));
        write_line(w, &entries.collect::<Vec<Entry>>())
    }
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    use super::*;
    use crate::export::records::member_names;
    use crate::export::results_for_tests;

    #[test]
    fn each_charted_figure_is_an_entry_with_the_results_own_figures() {
        let results = results_for_tests();
        let findings = Findings::of_results(&results.iter().collect::<Vec<_>>());
        let text = findings.to_text(&GithubAction).unwrap();
        assert!(text.ends_with("]\n") && text.lines().count() == 1, "{text}");
        let raw: Vec<&serde_json::value::RawValue> = serde_json::from_str(&text).unwrap();
        let entries: Vec<Value> = serde_json::from_str(&text).unwrap();
        // parse: time and its exact count (not the task-clock, not the cycles); one: time.
        let (parse, one) = (&results[0], &results[1]);
        let expected = [
            (parse, 0, "parse".into()),
            (parse, 2, "parse (Emulated:Instructions)".into()),
            (one, 0, one.name.clone()),
        ];
        assert_eq!(entries.len(), expected.len(), "{text}");
        for ((e, raw), (r, i, name)) in entries.iter().zip(raw).zip(expected) {
            let metric = &r.metrics[i].metric;
            assert_eq!(e["name"].as_str(), Some(name.as_str()));
            assert_eq!(e["unit"].as_str(), Some(metric.unit.as_str()));
            assert_eq!(e["value"].as_f64(), r.percentile_at(i, 50.0));
            let p99 = r.percentile_at(i, 99.0).unwrap();
            let tooltip = e["extra"].as_str().unwrap();
            assert!(
                tooltip.contains(&std::format!("\nP99: {p99} {}\n", metric.unit)),
                "{e}"
            );
            let keys = match median_with_interval(r, i).1 {
                Some((lo, hi)) => {
                    assert!(tooltip.contains(&std::format!("[{lo}, {hi}]")), "{e}");
                    let value = e["value"].as_f64().unwrap();
                    let half: f64 = e["range"].as_str().unwrap()[3..].parse().unwrap();
                    assert!((half - (value - lo).max(hi - value)).abs() <= 0.0005, "{e}");
                    std::vec!["name", "unit", "value", "range", "extra"]
                }
                None => std::vec!["name", "unit", "value", "extra"],
            };
            assert_eq!(member_names(raw.get()), keys);
        }
    }
}
