//! divan's command line, told to Picollo's runner: the flags that mean the same pass as
//! they are, those with a Picollo equivalent become it, and those about how divan samples
//! are read, said to be ignored on the standard error, and dropped. divan's environment
//! variables (`DIVAN_MIN_TIME`, ...) stand for their flags where the command line lacks
//! them, as divan reads them ([`with_env`]).

use picollo_bench::suite::WORKER_FLAG;
use picollo_bench::Throughput;

/// Flags of divan that take a value and that Picollo's runner has no use for: it sizes
/// samples and batches itself, reads one clock, measures on one thread, and prints its own
/// units.
const IGNORED: [&str; 9] = [
    "--sample-count",
    "--sample-size",
    "--color",
    "--timer",
    "--threads",
    "--bytes-format",
    "--sort",
    "--sortr",
    "--cycles-count",
];

/// divan's environment variables and the flag each stands for.
const VARIABLES: [(&str, &str); 15] = [
    ("DIVAN_SAMPLE_COUNT", "--sample-count"),
    ("DIVAN_SAMPLE_SIZE", "--sample-size"),
    ("DIVAN_MIN_TIME", "--min-time"),
    ("DIVAN_MAX_TIME", "--max-time"),
    ("DIVAN_SKIP_EXT_TIME", "--skip-ext-time"),
    ("DIVAN_ITEMS_COUNT", "--items-count"),
    ("DIVAN_BYTES_COUNT", "--bytes-count"),
    ("DIVAN_CHARS_COUNT", "--chars-count"),
    ("DIVAN_CYCLES_COUNT", "--cycles-count"),
    ("DIVAN_THREADS", "--threads"),
    ("DIVAN_TIMER", "--timer"),
    ("DIVAN_COLOR", "--color"),
    ("DIVAN_BYTES_FORMAT", "--bytes-format"),
    ("DIVAN_SORT", "--sort"),
    ("DIVAN_SORTR", "--sortr"),
];

/// The command line `args` after the flags divan's variables stand for (`var(NAME)`: the
/// variable's value, where set), each where `args` lacks its flag (the command line wins,
/// as in divan); an error that names a variable of no value divan reads. A variable read is
/// said on the standard error, once, by `tell`.
pub(crate) fn with_env(
    args: &[String],
    var: impl Fn(&str) -> Option<String>,
    tell: impl Fn(&str),
) -> Result<Vec<String>, String> {
    let given = |flag: &str| {
        let with_value = std::format!("{flag}=");
        args.iter().any(|a| a == flag || a.starts_with(&with_value))
    };
    let mut out = Vec::new();
    for (name, flag) in VARIABLES {
        let Some(value) = var(name).filter(|_| !given(flag)) else {
            continue;
        };
        let flags = match (flag, value.as_str()) {
            ("--skip-ext-time", "true" | "") => vec![flag.to_string()],
            ("--skip-ext-time", "false") => vec![],
            ("--skip-ext-time", _) => {
                return Err(std::format!("{name}={value:?}: true or false"));
            }
            _ => vec![flag.to_string(), value.clone()],
        };
        // Each variable's flags translated alone, so that an error names the variable.
        translate_told(&flags, &|_| ()).map_err(|e| std::format!("{name}={value:?}: {e}"))?;
        tell(&std::format!(
            "picollo-divan: {name}={value} read as {}",
            flags.join(" ")
        ));
        out.extend(flags);
    }
    out.extend(args.iter().cloned());
    Ok(out)
}

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
    translate_told(args, &ignored)
}

/// [`translate`], each flag ignored said by `ignored(flag)`.
fn translate_told(args: &[String], ignored: &dyn Fn(&str)) -> Result<Line, String> {
    let mut line = Line::default();
    let (mut max_time, mut min_time) = (None, None);
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
            "--max-time" => max_time = Some(seconds(&flag, &value()?)?),
            "--min-time" => min_time = Some(seconds(&flag, &value()?)?),
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
    // divan's --max-time has priority over --min-time; either is each benchmark's budget,
    // put first so that the runner's own --budget, read last, wins.
    if let Some(budget) = max_time.or(min_time) {
        line.args.splice(0..0, ["--budget".to_string(), budget]);
    }
    Ok(line)
}

/// The seconds of `--min-time` or `--max-time`, as they are; an error for what is not a
/// number of seconds above 0.
fn seconds(flag: &str, value: &str) -> Result<String, String> {
    match value.parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 => Ok(value.to_string()),
        _ => Err(std::format!("{flag} {value:?}: seconds, a number above 0")),
    }
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
         batches itself, on one thread and one clock (--budget SECS sets each benchmark's time)"
    );
}

/// The notes of the attributes' options that are accepted and ignored (`threads = [1, 4]`,
/// `min_time = 1`): one for `threads`, one for the rest.
pub(crate) fn ignored_options(options: &[&str]) -> Vec<String> {
    let (threads, rest): (Vec<&str>, Vec<&str>) = options.iter().partition(|o| **o == "threads");
    let note = |names: &[&str], why: &str| {
        let listed: Vec<String> = names.iter().map(|n| std::format!("`{n}`")).collect();
        let (noun, verb) = match names.len() {
            1 => ("option", "is"),
            _ => ("options", "are"),
        };
        let listed = listed.join(", ");
        std::format!(
            "picollo-divan: {noun} {listed} of #[divan::bench] {verb} accepted and ignored: {why}"
        )
    };
    let mut notes = Vec::new();
    if !threads.is_empty() {
        notes.push(note(
            &threads,
            "Picollo's runner measures a benchmark on one thread",
        ));
    }
    if !rest.is_empty() {
        let why = "Picollo's runner sizes samples and batches itself (--budget SECS sets each benchmark's time)";
        notes.push(note(&rest, why));
    }
    notes
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
        assert_eq!(l.args, ["--budget", "0.2", "--bench", "sort"]);
        let l = line(&["--min-time", "3", "--bench", "--budget", "0.1"]).unwrap();
        assert_eq!(l.args, ["--budget", "3", "--bench", "--budget", "0.1"]);
        let l = line(&["--min-time", "3", "--max-time", "0.5"]).unwrap();
        assert_eq!(l.args, ["--budget", "0.5"]);
        assert!(line(&["--min-time", "-1"]).unwrap_err().contains("above 0"));
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

    /// [`with_env`] of `args` with the variables `vars`: the line, and what it told.
    fn env(args: &[&str], vars: &[(&str, &str)]) -> (Result<Vec<String>, String>, Vec<String>) {
        let told = std::cell::RefCell::new(Vec::new());
        let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        let var = |n: &str| {
            vars.iter()
                .find(|(k, _)| *k == n)
                .map(|(_, v)| v.to_string())
        };
        let out = with_env(&args, var, |t| told.borrow_mut().push(t.to_string()));
        (out, told.into_inner())
    }

    #[test]
    fn divans_variables_stand_for_their_flags_where_the_command_line_lacks_them() {
        let vars = [
            ("DIVAN_MIN_TIME", "0.3"),
            ("DIVAN_ITEMS_COUNT", "7"),
            ("DIVAN_SKIP_EXT_TIME", "true"),
            ("DIVAN_TIMER", "tsc"),
            ("OTHER", "x"),
        ];
        let (out, told) = env(&["--bench", "--items-count=9"], &vars);
        let out = out.unwrap();
        let want = [
            "--min-time",
            "0.3",
            "--skip-ext-time",
            "--timer",
            "tsc",
            "--bench",
            "--items-count=9",
        ];
        assert_eq!(out, want);
        assert_eq!(
            told[0],
            "picollo-divan: DIVAN_MIN_TIME=0.3 read as --min-time 0.3"
        );
        assert_eq!(told.len(), 3);
        let l = translate(&out).unwrap();
        assert_eq!(l.args, ["--budget", "0.3", "--bench"]);
        assert_eq!(l.counter, Some(Throughput::Elements(9)));
        let (out, _) = env(&[], &[("DIVAN_SKIP_EXT_TIME", "false")]);
        assert!(out.unwrap().is_empty());
    }

    #[test]
    fn a_variable_of_a_bad_value_is_named() {
        let (out, told) = env(&["--list"], &[("DIVAN_MAX_TIME", "soon")]);
        assert_eq!(
            out.unwrap_err(),
            "DIVAN_MAX_TIME=\"soon\": --max-time \"soon\": seconds, a number above 0"
        );
        assert!(told.is_empty());
        let (out, _) = env(&[], &[("DIVAN_BYTES_COUNT", "0")]);
        assert!(out
            .unwrap_err()
            .starts_with("DIVAN_BYTES_COUNT=\"0\": --bytes-count"));
        let (out, _) = env(&[], &[("DIVAN_SKIP_EXT_TIME", "maybe")]);
        assert!(out.unwrap_err().contains("true or false"));
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
