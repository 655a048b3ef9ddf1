//! criterion's command line in the suite runner's words.
//!
//! `criterion_main!` hands the runner the whole command line, so every flag of a suite
//! works; criterion's own flags, which CI scripts pass, are translated first:
//!
//! | criterion | the runner |
//! |---|---|
//! | `--save-baseline NAME`, `-s` | `--save NAME` |
//! | `--baseline NAME`, `-b`, `--baseline-lenient NAME` | `--baseline NAME` |
//! | `--measurement-time SECS` | `--budget SECS` |
//! | `--warm-up-time SECS` | `--warmup SECS` |
//! | `--noise-threshold F` (a fraction) | `--threshold P` (a percentage, F × 100) |
//! | `-c WHEN` | `--color WHEN` (read and ignored) |
//! | `--noplot`, `-n`, `--discard-baseline`, `--quick`, `--ignored`, `--sample-size N`, `--nresamples N`, `--confidence-level F`, `--significance-level F`, `--plotting-backend B`, `--output-format F` | dropped: the runner chooses these |
//!
//! `--bench`, `--test`, `--list`, `--exact`, `--verbose`, `--quiet` and a FILTER mean the
//! same to both and pass as they are (a FILTER is a substring to the runner, where
//! criterion reads a regular expression: `--regex RE` takes one). Refused, each with the
//! replacement: `--profile-time`, `--load-baseline`, and the runner's `--counters` and
//! `--read-path` (a criterion bench is timed by its Bencher: time alone).

/// What a criterion flag becomes.
enum Rule {
    /// Dropped (with its value, where it takes one).
    Drop { valued: bool },
    /// This runner flag, with the value where it takes one.
    Rename { to: &'static str, valued: bool },
    /// `--threshold`, the fraction as a percentage.
    Percent,
    /// Refused with this message.
    Refuse(&'static str),
}

/// The rule of criterion flag `flag`; `None`: it passes as it is.
fn rule(flag: &str) -> Option<Rule> {
    let drop = |valued| Some(Rule::Drop { valued });
    let rename = |to, valued| Some(Rule::Rename { to, valued });
    match flag {
        "--noplot" | "-n" | "--discard-baseline" | "--quick" | "--ignored" => drop(false),
        "--sample-size" | "--nresamples" | "--confidence-level" | "--significance-level"
        | "--plotting-backend" | "--output-format" => drop(true),
        "--save-baseline" | "-s" => rename("--save", true),
        "--baseline" | "-b" | "--baseline-lenient" => rename("--baseline", true),
        "--measurement-time" => rename("--budget", true),
        "--warm-up-time" => rename("--warmup", true),
        "-c" => rename("--color", true),
        "--noise-threshold" => Some(Rule::Percent),
        "--profile-time" => Some(Rule::Refuse(
            "--profile-time: Picollo's runner does not loop a benchmark for a profiler; run the bench under the profiler with --bench --budget SECS FILTER",
        )),
        "--load-baseline" => Some(Rule::Refuse(
            "--load-baseline: Picollo judges this run against a saved one: --baseline NAME (saved with --save NAME, which --save-baseline NAME becomes)",
        )),
        "--counters" | "--read-path" => Some(Rule::Refuse(
            "--counters and --read-path: a criterion bench is timed by its Bencher, time alone; a picollo_bench suite reads counters",
        )),
        _ => None,
    }
}

/// The command line `args` (without the program's name) in the runner's words; the message
/// of a flag refused, or of a value missing or unreadable.
pub fn translate(args: &[String]) -> Result<Vec<String>, String> {
    let mut out = Vec::with_capacity(args.len());
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        if arg == "--" {
            out.push(arg.clone());
            out.extend(rest.by_ref().cloned());
            break;
        }
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with('-') => (f, Some(v.to_string())),
            _ => (arg.as_str(), None),
        };
        let Some(rule) = rule(flag) else {
            out.push(arg.clone());
            continue;
        };
        let mut value = || match inline.clone() {
            Some(v) => Ok(v),
            None => rest
                .next()
                .cloned()
                .ok_or_else(|| format!("a value is required for {flag}")),
        };
        match rule {
            Rule::Drop { valued: false } => {}
            Rule::Drop { valued: true } => drop(value()?),
            Rule::Rename { to, valued } => {
                out.push(to.to_string());
                if valued {
                    out.push(value()?);
                }
            }
            Rule::Percent => {
                out.push("--threshold".into());
                out.push(percent(&value()?)?);
            }
            Rule::Refuse(why) => return Err(why.into()),
        }
    }
    Ok(out)
}

/// criterion's noise threshold, a fraction (0.02), as the runner's percentage (2).
fn percent(fraction: &str) -> Result<String, String> {
    match fraction.parse::<f64>() {
        Ok(f) if f.is_finite() && f >= 0.0 => Ok(format!("{}", f * 100.0)),
        _ => Err(format!(
            "--noise-threshold {fraction:?}: a fraction of 0 or more (0.02 for 2 %)"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::translate;

    fn t(args: &[&str]) -> Result<Vec<String>, String> {
        let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        translate(&args)
    }

    #[test]
    fn criterions_flags_become_the_runners_and_the_runners_pass_as_they_are() {
        let got = t(&[
            "--bench",
            "--noplot",
            "--save-baseline",
            "main",
            "--sample-size=50",
            "--measurement-time",
            "2",
            "--warm-up-time=0.5",
            "--noise-threshold",
            "0.05",
            "-b",
            "old",
            "--against",
            "../a",
            "fib",
            "--",
            "-s",
        ]);
        let want = [
            "--bench",
            "--save",
            "main",
            "--budget",
            "2",
            "--warmup",
            "0.5",
            "--threshold",
            "5",
            "--baseline",
            "old",
            "--against",
            "../a",
            "fib",
            "--",
            "-s",
        ];
        assert_eq!(got.unwrap(), want);
    }

    #[test]
    fn a_refused_flag_names_its_replacement_and_a_missing_value_its_flag() {
        let e = t(&["--profile-time", "5"]).unwrap_err();
        assert!(
            e.contains("--profile-time") && e.contains("--budget"),
            "{e}"
        );
        let e = t(&["--load-baseline=x"]).unwrap_err();
        assert!(e.contains("--baseline NAME"), "{e}");
        let e = t(&["--counters", "cycles"]).unwrap_err();
        assert!(e.contains("time alone"), "{e}");
        assert_eq!(
            t(&["--save-baseline"]).unwrap_err(),
            "a value is required for --save-baseline"
        );
        assert!(t(&["--noise-threshold", "x"])
            .unwrap_err()
            .contains("fraction"));
    }
}
