//! `criterion_main!`'s body: the groups' benchmarks as one Picollo suite, run as the
//! command line says.

use std::process::ExitCode;

use picollo_bench::suite::{Exit, Mode, Suite};

use crate::registry::{self, Entry};
use crate::BencherClock;

/// Run the benchmarks `groups` register as suite `name` (the bench target's crate), as the
/// process's command line says, criterion's flags translated; the exit status is the
/// suite's (2 for a use criterion refuses too, or a flag refused).
pub fn main(name: &str, groups: &'static [fn()]) -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let exit = match (registry::collect(groups), crate::args::translate(&args)) {
        (Err(errors), _) => refused(&errors),
        (_, Err(why)) => refused(&[why]),
        (Ok(entries), Ok(args)) => match suite(name, groups, &entries) {
            Ok(mut suite) => suite.main_args(&args, Mode::Once),
            Err(why) => refused(&[why]),
        },
    };
    ExitCode::from(exit as u8)
}

/// Each of `errors` on the standard error: a usage error.
fn refused(errors: &[String]) -> Exit {
    for e in errors {
        eprintln!("error: {e}");
    }
    Exit::Usage
}

/// The suite of `entries`, each benchmark's work a replay of its group, timed by its
/// Bencher; the message of a throughput of 0.
fn suite(name: &str, groups: &'static [fn()], entries: &[Entry]) -> Result<Suite<'static>, String> {
    let counter = counter(entries)?;
    let mut suite = Suite::new(name).with_meter(move || match &counter {
        Some(name) => Box::new(BencherClock::measuring(name.clone())),
        None => Box::new(BencherClock::new()),
    });
    for entry in entries {
        let replayed = entry.clone();
        suite.bench_batched(&entry.name, move |k| registry::replay(groups, &replayed, k));
        if let Some(t) = entry.throughput {
            let declared = suite.set_throughput(&entry.name, t.picollo());
            declared.map_err(|e| format!("benchmark {:?}: {}", entry.name, e.message))?;
        }
    }
    Ok(suite)
}

/// The counter the benchmarks' custom measurement writes, where one has one; the message
/// where two measurements of different types are brought (the suite carries one counter).
fn counter(entries: &[Entry]) -> Result<Option<String>, String> {
    let mut counters = entries
        .iter()
        .filter_map(|e| Some((&e.name, e.counter.as_ref()?)));
    let Some((_, first)) = counters.next() else {
        return Ok(None);
    };
    match counters.find(|(_, c)| *c != first) {
        Some((name, other)) => Err(format!(
            "benchmark {name:?} reads {other}, an earlier one {first}: a criterion bench program here reads one custom measurement (its figures are one counter beside time); put the other in a bench target of its own"
        )),
        None => Ok(Some(first.clone())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(name: &str, counter: Option<&str>) -> Entry {
        Entry {
            name: name.into(),
            throughput: None,
            counter: counter.map(String::from),
            group: 0,
            index: 0,
        }
    }

    #[test]
    fn one_custom_measurement_is_the_counter_and_a_second_is_refused() {
        let time = entry("a", None);
        let calls = entry("b", Some("measurement:Calls"));
        let bytes = entry("c", Some("measurement:Bytes"));
        assert_eq!(counter(std::slice::from_ref(&time)), Ok(None));
        let same = [time.clone(), calls.clone(), calls.clone()];
        assert_eq!(counter(&same), Ok(Some("measurement:Calls".into())));
        let e = counter(&[calls, time, bytes]).unwrap_err();
        assert!(
            e.contains("\"c\" reads measurement:Bytes, an earlier one measurement:Calls"),
            "{e}"
        );
    }
}
