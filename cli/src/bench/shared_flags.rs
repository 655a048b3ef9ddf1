//! The flags `picollo bench` shares with a suite ([`picollo_bench::flags`]), read by both
//! parsers: the same values, and the same refusals in the same words.

use clap::Parser;
use picollo_bench::suite::Args;

use super::BenchArgs;
use crate::{Cli, Command};

/// `picollo bench ARGS true`, read; where it is refused, clap's text.
fn cli(args: &[&str]) -> Result<BenchArgs, String> {
    let argv = ["picollo", "bench"].iter().chain(args).chain(&["true"]);
    match Cli::try_parse_from(argv) {
        Ok(Cli {
            command: Command::Bench(b),
        }) => Ok(b),
        Ok(_) => unreachable!("picollo bench reads as bench"),
        Err(e) => Err(e.render().to_string()),
    }
}

/// A suite's `ARGS`, read; where they are refused, the suite's message.
fn suite(args: &[&str]) -> Result<Args, String> {
    let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    Args::parse("suite", &args).map_err(|e| e.message)
}

#[test]
fn each_shared_flag_reads_the_same_value_in_a_suite_and_in_picollo_bench() {
    let args = [
        "--threshold",
        "2.5",
        "--metric",
        "instructions",
        "--seed",
        "42",
        "--save",
        "main",
        "--append",
        "--export",
        "bmf=b.json",
        "--export=github=-",
        "--summary",
        "s.md",
    ];
    let (c, s) = (cli(&args).unwrap(), suite(&args).unwrap());
    assert_eq!(c.judge.threshold, Some(2.5));
    let gate = (
        c.judge.threshold,
        c.judge.metric.as_deref(),
        c.judge.seed,
        c.judge.append,
    );
    assert_eq!(gate, (s.threshold, s.metric.as_deref(), s.seed, s.append));
    assert_eq!(c.ci.exports.len(), 2);
    assert_eq!(c.ci.exports, s.ci.exports);
    assert_eq!(c.ci.summary, s.ci.summary);
    let (c, s) = (cli(&[]).unwrap(), suite(&[]).unwrap());
    assert_eq!((c.judge.threshold, s.threshold), (None, None));
    assert_eq!(c.judge.threshold(), picollo_bench::DEFAULT_THRESHOLD);
}

#[test]
fn each_shared_flag_refuses_a_bad_value_with_the_same_message_in_both() {
    let bad: [&[&str]; 7] = [
        &["--threshold=-1"],
        &["--threshold", "inf"],
        &["--seed=x"],
        &["--export", "bmf"],
        &["--export", "bmf="],
        &["--export", "nope=x.json"],
        &["--append"],
    ];
    for args in bad {
        let (c, s) = (cli(args).err().expect("refused"), suite(args).unwrap_err());
        let first = |t: &str| t.lines().next().unwrap_or_default().to_string();
        assert_eq!(first(&c), format!("error: {}", first(&s)), "{args:?}");
    }
    let c = cli(&["--threshold=-1"]).err().expect("refused");
    assert!(c.contains("\"-1\" is not a percentage of 0 or more"), "{c}");
}
