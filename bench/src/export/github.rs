//! github-action-benchmark's custom JSON, smaller is better (its tool
//! `customSmallerIsBetter`): `[{name, unit, value, range, extra}]`. One entry per benchmark
//! for its median time (ns), and one per exact metric (an emulated count, `NAME
//! (Emulated:Instructions)`), which a chart and an alert judge as well as time, and one per
//! metric a comparison of the suite judges (`picollo bench --metric`); the other counters
//! vary with the machine and would alert on noise. `range` is the larger side of
//! the 99 % interval of the median, `extra` the interval itself and what the figure stands
//! on.

use core::fmt::{self, Write};

use picollo::text::{comma_separated, json_f64, json_string};

use super::{charted, median_with_interval, Export, Suite};
use crate::measure::result::BenchResult;

/// github-action-benchmark's JSON (`github`).
pub struct GithubAction;

/// The tooltip: `99 % interval of the median: [lo, hi] ns; P99 x ns; n runs in r rounds`.
fn extra(r: &BenchResult, index: usize, interval: Option<(f64, f64)>) -> std::string::String {
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

/// One entry: metric `index` of `r`, named `name` (time) or `name (METRIC)`.
fn write_entry(w: &mut dyn Write, name: &str, r: &BenchResult, index: usize) -> fmt::Result {
    let metric = &r.metrics[index].metric;
    let (value, interval) = median_with_interval(r, index);
    w.write_str("{\"name\":")?;
    match index == r.time_index() {
        true => json_string(w, name)?,
        false => json_string(w, &std::format!("{name} ({})", metric.name))?,
    }
    w.write_str(",\"unit\":")?;
    json_string(w, metric.unit.as_str())?;
    w.write_str(",\"value\":")?;
    json_f64(w, value)?;
    if let Some((lo, hi)) = interval {
        // Figures are thousandths of the unit: so is the range, without float dust.
        let half = ((value - lo).max(hi - value) * 1000.0).round() / 1000.0;
        w.write_str(",\"range\":")?;
        json_string(w, &std::format!("± {half}"))?;
    }
    w.write_str(",\"extra\":")?;
    json_string(w, &extra(r, index, interval))?;
    w.write_str("}")
}

impl Export for GithubAction {
    fn name(&self) -> &'static str {
        "github"
    }

    fn title(&self) -> &'static str {
        "github-action-benchmark's custom JSON, smaller is better"
    }

    fn write(&self, suite: &Suite<'_>, w: &mut dyn Write) -> fmt::Result {
        let measured = suite.measured();
        let judged = suite.judged_metrics();
        let entries = measured
            .iter()
            .flat_map(|(name, r)| charted(r, &judged).map(move |i| (name.as_str(), *r, i)));
        w.write_str("[")?;
        comma_separated(w, entries, |w, (name, r, i)| write_entry(w, name, r, i))?;
        w.write_str("]\n")
    }
}
