//! A metric named as a person types it: its whole name (`Hardware:Instructions`), or, where
//! one metric alone answers to it, its name or the part after its class without regard to
//! case or separators (`instructions`, `page-faults`, `software:pagefaults`).

use std::string::String;
use std::vec::Vec;

use crate::error::BenchError;
use crate::measure::meter::Metric;

/// Letters and digits of `name`, lower case: `page-faults`, `PageFaults` and `pagefaults`
/// alike.
fn folded(name: &str) -> String {
    let kept = name.chars().filter(char::is_ascii_alphanumeric);
    kept.map(|c| c.to_ascii_lowercase()).collect()
}

/// `name` answers to `metric`: its whole name, or the part after its class, folded.
fn answers(metric: &Metric, name: &str) -> bool {
    let short = metric.name.split_once(':').map(|(_, rest)| rest);
    let wanted = folded(name);
    folded(&metric.name) == wanted || short.is_some_and(|s| folded(s) == wanted)
}

/// The names of `metrics`, joined by commas.
fn listed(metrics: &[Metric]) -> String {
    let names: Vec<&str> = metrics.iter().map(|m| m.name.as_str()).collect();
    names.join(", ")
}

/// The index among `metrics` of the one named `name` (see the module).
///
/// # Errors
/// No metric answers to `name`, or several do: the message names them, or every metric.
pub fn find_metric(metrics: &[Metric], name: &str) -> Result<usize, BenchError> {
    if let Some(i) = metrics.iter().position(|m| m.name == name) {
        return Ok(i);
    }
    let matching: Vec<usize> = (0..metrics.len())
        .filter(|&i| answers(&metrics[i], name))
        .collect();
    match matching[..] {
        [i] => Ok(i),
        [] => Err(BenchError::argument(std::format!(
            "no metric {name:?} among {}",
            listed(metrics)
        ))),
        _ => {
            let several: Vec<Metric> = matching.iter().map(|&i| metrics[i].clone()).collect();
            Err(BenchError::argument(std::format!(
                "{name:?} names {}: give the whole name",
                listed(&several)
            )))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::measure::meter::{MetricKind, Unit};

    fn metrics(names: &[&str]) -> Vec<Metric> {
        let m = |n: &&str| Metric::new(n, Unit::Events, MetricKind::Counter);
        names.iter().map(m).collect()
    }

    #[test]
    fn a_metric_answers_to_its_name_and_its_short_form_in_any_case() {
        let all = metrics(&["time", "Software:PageFaults", "Hardware:Instructions"]);
        for (name, index) in [
            ("time", 0),
            ("Software:PageFaults", 1),
            ("page-faults", 1),
            ("software:pagefaults", 1),
            ("INSTRUCTIONS", 2),
            ("hardware_instructions", 2),
        ] {
            assert_eq!(find_metric(&all, name).ok(), Some(index), "{name}");
        }
    }

    #[test]
    fn an_unknown_or_ambiguous_name_says_what_there_is() {
        let all = metrics(&["time", "Hardware:Instructions", "Emulated:Instructions"]);
        let unknown = find_metric(&all, "cycles").unwrap_err();
        assert_eq!(
            unknown.message(),
            "no metric \"cycles\" among time, Hardware:Instructions, Emulated:Instructions"
        );
        let several = find_metric(&all, "instructions").unwrap_err();
        assert_eq!(
            several.message(),
            "\"instructions\" names Hardware:Instructions, Emulated:Instructions: give the \
             whole name"
        );
        assert_eq!(find_metric(&all, "Emulated:Instructions").ok(), Some(2));
    }
}
