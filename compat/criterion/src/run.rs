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
    let mut suite = Suite::new(name).with_meter(|| Box::new(BencherClock::new()));
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
