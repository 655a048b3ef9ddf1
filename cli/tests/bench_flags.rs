//! The flags `picollo bench` shares with a suite (`picollo_bench::flags`): its help shows
//! each with the suite's words (bench/tests/suite.rs checks a suite's help the same way).

mod common;

use clap::Args;
use common::picollo;
use picollo_bench::flags::{CiFlags, GateFlags};

/// Each shared flag: its `--long <VALUE>` as help shows it, and its help text.
fn shared_flags() -> Vec<(String, String)> {
    let command = CiFlags::augment_args(GateFlags::augment_args(clap::Command::new("flags")));
    let each = command.get_arguments().map(|a| {
        let long = format!("--{}", a.get_long().unwrap());
        let shown = match (a.get_action().takes_values(), a.get_value_names()) {
            (true, Some(v)) => format!("{long} <{}>", v[0]),
            _ => long,
        };
        (shown, a.get_help().unwrap().to_string())
    });
    each.collect()
}

#[test]
fn bench_help_and_h_show_the_flags_a_suite_shares_and_exit_0() {
    for flag in ["--help", "-h"] {
        let run = picollo(&["bench", flag], None);
        assert_eq!(run.code, Some(0), "{}", run.stderr);
        assert!(
            run.stdout.contains("Usage: picollo bench"),
            "{}",
            run.stdout
        );
        let shared = shared_flags();
        assert_eq!(shared.len(), 7);
        for (shown, says) in shared {
            assert!(run.stdout.contains(&shown), "{shown} not in bench {flag}");
            assert!(run.stdout.contains(&says), "{says:?} not in bench {flag}");
        }
    }
}
