//! divan's command line, told to Picollo's runner: the flags that mean the same pass as
//! they are, those with a Picollo equivalent become it, and those about how divan samples
//! are read, said to be ignored on the standard error, and dropped.

use picollo_bench::suite::WORKER_FLAG;
use picollo_bench::Throughput;

/// Flags of divan that take a value and that Picollo's runner has no use for: it sizes
/// samples and batches itself, reads one clock, measures on one thread, and prints its own
/// units.
const IGNORED: [&str; 9] = [
    "--sample-count",
    "--sample-size",
    "--min-time",
    "--timer",
    "--threads",
    "--bytes-format",
    "--sort",
    "--sortr",
    "--cycles-count",
];

/// Which benchmarks marked ignored run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Ignored {
    /// None of them (divan's default).
    #[default]
    Skip,
    /// Only them (`--ignored`).
    Only,
    /// Them too (`--include-ignored`).
    Include,
}

/// The command line, translated.
#[derive(Debug, Default)]
pub(crate) struct Line {
    /// What Picollo's runner is handed.
    pub args: Vec<String>,
    /// `--skip` patterns: regular expressions (whole names with `--exact`).
    pub skip: Vec<String>,
    pub exact: bool,
    pub ignored: Ignored,
    /// `--items-count`, `--bytes-count`, `--chars-count`: every benchmark's throughput.
    pub counter: Option<Throughput>,
    /// The runner's worker: every benchmark is registered, as the other side may ask.
    pub worker: bool,
}

/// `args` (without the program's name) as Picollo's runner reads them; an error for a flag
/// without its value or a count that is no number.
pub(crate) fn translate(args: &[String]) -> Result<Line, String> {
    let mut line = Line::default();
    let mut rest = args.iter().cloned();
    while let Some(arg) = rest.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_string(), Some(v.to_string())),
            _ => (arg.clone(), None),
        };
        let mut value = || {
            let why = || std::format!("{flag} needs a value");
            inline.clone().or_else(|| rest.next()).ok_or_else(why)
        };
        match flag.as_str() {
            "--skip" => line.skip.push(value()?),
            "--ignored" => line.ignored = Ignored::Only,
            "--include-ignored" => line.ignored = Ignored::Include,
            "--max-time" => line.args.extend(["--budget".into(), value()?]),
            "--items-count" | "--chars-count" => {
                line.counter = Some(Throughput::Elements(count(&flag, &value()?)?))
            }
            "--bytes-count" => line.counter = Some(Throughput::Bytes(count(&flag, &value()?)?)),
            "--skip-ext-time" => ignored(&flag),
            f if IGNORED.contains(&f) => {
                value()?;
                ignored(f);
            }
            _ => {
                line.exact |= arg == "--exact";
                line.worker |= arg == WORKER_FLAG;
                line.args.push(arg);
            }
        }
    }
    Ok(line)
}

/// A count of `--items-count` and its kind.
fn count(flag: &str, value: &str) -> Result<u64, String> {
    match value.parse::<u64>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(std::format!("{flag} {value:?}: a whole number above 0")),
    }
}

fn ignored(flag: &str) {
    std::eprintln!(
        "picollo-divan: {flag} is accepted and ignored: Picollo's runner sizes samples and \
         batches itself (--budget SECS sets each benchmark's time)"
    );
}

/// Whether `--skip` leaves benchmark `name` out.
pub(crate) fn skipped(line: &Line, name: &str) -> Result<bool, String> {
    for pattern in &line.skip {
        let hit = match line.exact {
            true => name == pattern,
            false => regex_lite::Regex::new(pattern)
                .map_err(|e| std::format!("--skip {pattern:?}: {e}"))?
                .is_match(name),
        };
        if hit {
            return Ok(true);
        }
    }
    Ok(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(args: &[&str]) -> Result<Line, String> {
        translate(&args.iter().map(|a| a.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn divan_flags_become_picollo_flags_or_go() {
        let l = line(&["--bench", "--sample-count", "5", "--max-time=0.2", "sort"]).unwrap();
        assert_eq!(l.args, ["--bench", "--budget", "0.2", "sort"]);
        let l = line(&["--skip-ext-time", "--timer=tsc", "--ignored", "--exact"]).unwrap();
        assert_eq!(
            (l.args, l.ignored, l.exact),
            (vec!["--exact".into()], Ignored::Only, true)
        );
    }

    #[test]
    fn skip_patterns_are_regular_expressions_or_exact_names() {
        let l = line(&["--skip", "^sort::.*::1$"]).unwrap();
        assert!(skipped(&l, "sort::u8::1").unwrap());
        assert!(!skipped(&l, "sort::u8::10").unwrap());
        let l = line(&["--exact", "--skip", "sort"]).unwrap();
        assert!(skipped(&l, "sort").unwrap() && !skipped(&l, "sort::u8").unwrap());
        assert!(skipped(&line(&["--skip", "("]).unwrap(), "x").is_err());
    }

    #[test]
    fn counts_and_values_are_checked() {
        let l = line(&["--bytes-count", "64"]).unwrap();
        assert_eq!(l.counter, Some(Throughput::Bytes(64)));
        assert!(line(&["--items-count", "many"])
            .unwrap_err()
            .contains("--items-count"));
        assert_eq!(line(&["--skip"]).unwrap_err(), "--skip needs a value");
    }
}
