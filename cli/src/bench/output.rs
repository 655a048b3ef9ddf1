//! What `picollo bench` writes: the text (a report per command, the comparisons, each
//! ending with its verdict), the interval log (tags `cmdN:METRIC`), the suite every JSON
//! format and the summary are written from, and the failure message.

use std::fmt::Write;

use picollo::hdr::LogWriter;
use picollo_bench::export::{Compared, Entry, Findings, Paired};
use picollo_bench::html::Page;
use picollo_bench::model::document::{Failure as DocumentFailure, Members};
use picollo_bench::{BenchResult, Comparison, MetricKind, Verdict};

use super::saved::{Baseline, Saved};
use super::stage::Start;
use super::{sides, Against, BenchArgs, Measurement, Outcome};
use crate::error::Failure;

/// How a failed command ended: `warm-up run 1 of 2 ended with exit status: 1`, or `…
/// could not start: prog: No such file or directory (os error 2)`.
fn failure_text(outcome: &Outcome, args: &BenchArgs) -> Option<String> {
    let Outcome::Failed {
        run,
        warm_up,
        ended,
    } = outcome
    else {
        return None;
    };
    let (kind, of) = match warm_up {
        true => ("warm-up run", args.warmup),
        false => ("measured run", args.runs),
    };
    Some(format!("{kind} {run} of {of} {ended}"))
}

/// One command's section: its report (each metric in the unit of the largest of `all`,
/// the results shown with it), or why it was not measured.
fn write_section(out: &mut String, m: &Measurement, args: &BenchArgs, all: &[&BenchResult]) {
    match &m.outcome {
        Outcome::Measured { result, .. } => {
            let _ = result.write_report_among(all, out);
        }
        failed => {
            let why = failure_text(failed, args).unwrap_or_default();
            let _ = writeln!(out, "##### {}\n- not measured: {why}", m.name);
        }
    }
}

/// Each command's report, or why it was not measured.
fn write_sections(out: &mut String, measured: &[Measurement], args: &BenchArgs) {
    let all: Vec<&BenchResult> = measured.iter().filter_map(Measurement::result).collect();
    for (i, m) in measured.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        write_section(out, m, args, &all);
    }
}

/// With `--builds`: each side's pooled report (or its builds' failures), then the table of
/// every side's builds.
fn write_sides(out: &mut String, measured: &[Measurement], args: &BenchArgs, k: usize) {
    let sides = sides::sides(measured, args);
    let all: Vec<&BenchResult> = sides.iter().filter_map(|s| s.result.as_ref()).collect();
    for (s, side) in sides.iter().enumerate() {
        if s > 0 {
            out.push('\n');
        }
        match &side.result {
            Some(result) => {
                let _ = result.write_report_among(&all, out);
            }
            None => {
                let _ = writeln!(out, "##### {}\n- not measured: {SIDE_FAILED}", side.name);
                let builds = &measured[s * k..(s + 1) * k];
                builds
                    .iter()
                    .for_each(|m| write_section(out, m, args, &all));
            }
        }
    }
    sides::write_builds(out, measured, k);
}

/// Each command's report (or its failure), then each comparison with its verdict.
pub fn text(
    measured: &[Measurement],
    comparisons: &[(Against, Comparison)],
    args: &BenchArgs,
) -> String {
    let mut out = String::new();
    match args.builds {
        1 => write_sections(&mut out, measured, args),
        k => write_sides(&mut out, measured, args, k as usize),
    }
    if measured.len() > 1 && measured[0].result().is_none() {
        out.push_str("\nNo comparison: the first command, the baseline, was not measured.\n");
    }
    for (_, c) in comparisons {
        let _ = write!(out, "\n{c}");
    }
    out
}

/// The results a comparison compared, where this run holds both: the first command and
/// command `i`, a command's saved result and its new one, side 1 and side `s` (a saved side
/// is pooled only inside its judgement: its comparison is drawn without them).
fn compared<'a>(
    against: Against,
    measured: &'a [Measurement],
    saved: Option<&'a Baseline>,
    sides: &'a [sides::Side],
) -> Option<(&'a BenchResult, &'a BenchResult)> {
    match against {
        Against::First(i) => Some((measured.first()?.result()?, measured.get(i)?.result()?)),
        Against::Saved(i) => {
            let old = saved?.commands.get(i)?.result.as_ref()?;
            Some((old, measured.get(i)?.result()?))
        }
        Against::Side(s) => Some((
            sides.first()?.result.as_ref()?,
            sides.get(s)?.result.as_ref()?,
        )),
        Against::SavedSide(_) => None,
    }
}

/// The HTML page (`--html`): the commands not measured and why, every comparison's verdict,
/// then each comparison with both results' figures; with no comparison, each result.
pub fn html(
    measured: &[Measurement],
    comparisons: &[(Against, Comparison)],
    saved: Option<&Baseline>,
    args: &BenchArgs,
) -> String {
    let names: Vec<&str> = measured.iter().map(|m| m.name.as_str()).collect();
    let mut page = Page::new(&format!("picollo bench: {}", names.join(", ")));
    let failed = measured
        .iter()
        .filter_map(|m| Some(format!("{}: {}", m.name, failure_text(&m.outcome, args)?)));
    let failed: Vec<String> = failed.collect();
    if !failed.is_empty() {
        page.heading(2, "Not measured");
        page.list("not-measured", &failed);
    }
    let sides = match args.builds {
        1 => Vec::new(),
        _ => sides::sides(measured, args),
    };
    if comparisons.is_empty() {
        let all: Vec<&BenchResult> = measured.iter().filter_map(Measurement::result).collect();
        for r in &all {
            page.section(&r.name, |page| r.html_into(page, &all));
        }
    }
    let verdicts = comparisons.iter().map(|(_, c)| {
        let mut line = String::new();
        let _ = c.write_verdict(&mut line);
        line
    });
    page.list("verdicts", &verdicts.collect::<Vec<_>>());
    for (against, c) in comparisons {
        let pair = compared(*against, measured, saved, &sides);
        let title = format!("{} against {}", c.b, c.a);
        page.section(&title, |page| c.html_into(page, pair));
    }
    let mut out = String::new();
    let _ = page.write(&mut out);
    out
}

/// The tag of command `i` (0-based) and metric `name`: `cmd1:time`. Spaces and commas,
/// which a tag cannot hold, become `_`.
pub fn tag(i: usize, name: &str) -> String {
    let name: String = name
        .chars()
        .map(|c| if c == ' ' || c == ',' { '_' } else { c })
        .collect();
    format!("cmd{}:{name}", i + 1)
}

/// The interval log: per measured command, one interval per metric over its measured runs.
pub fn log(measured: &[Measurement]) -> Result<String, Failure> {
    let mut text = String::new();
    let mut log = LogWriter::new(&mut text);
    let fail = |e: picollo::hdr::LogError| Failure::format(format!("the log: {e}"));
    log.header(None, None).map_err(fail)?;
    log.comment(
        "picollo bench: tag cmdN:METRIC holds METRIC of each measured run of command N, in \
         thousandths of its unit (picoseconds for time, user and system)",
    )
    .map_err(fail)?;
    for (i, m) in measured.iter().enumerate() {
        let named = match m.name == m.command {
            true => m.command.clone(),
            false => format!("{} ({})", m.name, m.command),
        };
        log.comment(&format!("cmd{}: {named}", i + 1))
            .map_err(fail)?;
    }
    // The earliest first: a reader counts a log's times from its first interval, and every
    // command's intervals then start at 0 or after.
    let mut intervals: Vec<_> = measured
        .iter()
        .enumerate()
        .filter_map(measured_span)
        .collect();
    intervals.sort_by(|a, b| a.2.total_cmp(&b.2));
    for (i, result, start, length) in intervals {
        for metric in &result.metrics {
            let tag = tag(i, &metric.metric.name);
            let view = metric.histogram.view();
            log.interval(Some(&tag), start, length, &view)
                .map_err(fail)?;
        }
    }
    Ok(text)
}

/// Command `i`'s result, start and length, when it was measured.
fn measured_span((i, m): (usize, &Measurement)) -> Option<(usize, &BenchResult, f64, f64)> {
    match &m.outcome {
        Outcome::Measured {
            result,
            start,
            length,
        } => Some((i, result, *start, *length)),
        Outcome::Failed { .. } => None,
    }
}

/// The members only a command's entry of the document has: its tag and text, then its runs
/// apart (`earlier`'s, `--append`, and this run's), or why it failed.
fn command_members(
    i: usize,
    m: &Measurement,
    args: &BenchArgs,
    earlier: Option<&Saved>,
    probe: f64,
) -> Members {
    let mut members = match &m.outcome {
        Outcome::Measured { result, .. } => {
            picollo_bench::saved::runs_apart_members(result, earlier.map(|e| &e.saved), probe)
        }
        Outcome::Failed {
            run,
            warm_up,
            ended,
        } => Members {
            failed: Some(DocumentFailure {
                run: *run as u64,
                warm_up: *warm_up,
                status: ended.status.to_string(),
                code: ended.status.code(),
                not_started: ended.not_started.clone(),
                message: failure_text(&m.outcome, args).unwrap_or_default(),
            }),
            ..Members::default()
        },
    };
    members.tag = Some(format!("cmd{}", i + 1));
    members.command = Some(m.command.clone());
    members
}

/// What a comparison compares, as the document's `baseline` and `tag` (`cmd1`, `cmd2`).
fn comparison_labels(against: Against) -> (String, String) {
    let i = against.index() + 1;
    match against {
        Against::First(_) => ("cmd1".to_string(), format!("cmd{i}")),
        Against::Saved(_) => (format!("saved:cmd{i}"), format!("cmd{i}")),
        Against::Side(_) => ("side1".to_string(), format!("side{i}")),
        Against::SavedSide(_) => (format!("saved:side{i}"), format!("side{i}")),
    }
}

/// Why a side of `--builds` has no result.
const SIDE_FAILED: &str = "a build failed";

/// What every format writes of this run: each command (its result, or why it failed), each
/// side of `--builds` (`sides`: what the formats other than the document list) and each
/// comparison; at the document's top `"builds": K` and under `--emulate` `"emulated"`:
/// how the programs started ([`Start`]), for a gate against a saved run. With `--save
/// --append`, `earlier` holds each command as saved before this run, with its runs apart;
/// `probe` is the run's speed probe (ns; NaN: none), saved with them.
pub fn suite<'a>(
    (measured, comparisons, probe): (&'a [Measurement], &[(Against, Comparison)], f64),
    sides: &'a [sides::Side],
    args: &BenchArgs,
    earlier: &[Saved],
) -> Findings<'a> {
    let entries = measured.iter().enumerate().map(|(i, m)| Entry {
        name: m.name.clone(),
        result: m.result(),
        failed: failure_text(&m.outcome, args),
        members: command_members(i, m, args, earlier.get(i), probe),
    });
    let compared = comparisons.iter().map(|(against, c)| {
        let (baseline, tag) = comparison_labels(*against);
        Compared {
            comparison: c.clone(),
            baseline: Some(baseline),
            tag: Some(tag),
            fails_gate: against.gates(c, args.gate),
        }
    });
    let side_entries = sides.iter().map(|side| Entry {
        name: side.name.clone(),
        result: side.result.as_ref(),
        failed: side.result.is_none().then(|| SIDE_FAILED.into()),
        members: Members::default(),
    });
    Findings {
        entries: entries.collect(),
        sides: side_entries.collect(),
        comparisons: compared.collect(),
        paired: paired(measured, sides, comparisons),
        with_bases: args.ci.export_base,
        builds: Some(args.builds as u64),
        emulated: args.emulate.map(|_| Start::here().record()),
    }
}

/// Each comparison as the pair the dashboards chart. Two sides of `--builds` are two builds
/// of one benchmark: the head under its own name, the base (side 1) only with
/// `--export-base`. Commands compared with the first are benchmarks of their own, each
/// charted, the first too; a command compared with its saved run is a head whose base is not
/// in this run.
fn paired<'a>(
    measured: &'a [Measurement],
    sides: &'a [sides::Side],
    comparisons: &[(Against, Comparison)],
) -> Vec<Paired<'a>> {
    let each = comparisons.iter().filter_map(|(against, _)| {
        let (base, head) = match *against {
            Against::Saved(i) => (None, measured.get(i)?.result()?),
            Against::SavedSide(s) => (None, sides.get(s)?.result.as_ref()?),
            Against::First(_) => return None,
            Against::Side(_) => {
                let (base, head) = compared(*against, measured, None, sides)?;
                (Some(base), head)
            }
        };
        let name = head.name.clone();
        Some(Paired { name, base, head })
    });
    each.collect()
}

/// The exit message when some command failed: which, on which run, with what status.
pub fn failures(measured: &[Measurement], args: &BenchArgs) -> Option<String> {
    let failed: Vec<String> = measured
        .iter()
        .enumerate()
        .filter_map(|(i, m)| {
            let why = failure_text(&m.outcome, args)?;
            Some(format!(
                "command {} ({:?}) not measured: {why}",
                i + 1,
                m.name
            ))
        })
        .collect();
    // What a command wrote helps only one that started.
    let started = |m: &Measurement| match &m.outcome {
        Outcome::Failed { ended, .. } => ended.not_started.is_none(),
        Outcome::Measured { .. } => false,
    };
    let hint = match !args.show_output && measured.iter().any(started) {
        true => " (--show-output shows what the commands write)",
        false => "",
    };
    (!failed.is_empty()).then(|| failed.join("; ") + hint)
}

/// A gate against `baseline` (where given) that compared nothing: no measured result at the
/// place of any command. No data, rather than a pass.
pub fn nothing_compared(
    gated: &[(Against, Comparison)],
    baseline: Option<&str>,
) -> Result<(), Failure> {
    match (baseline, gated.is_empty()) {
        (Some(path), true) => Err(Failure::no_data(format!(
            "{path} holds no measured result at the place of any command of this run: \
             nothing was compared (save the baseline again from these commands)"
        ))),
        _ => Ok(()),
    }
}

/// A note on stderr for each command the gate could not judge (too few runs apart in its
/// baseline, or runs apart spread past the noise floor's bound): the gate passes it, and
/// says so.
pub fn unjudged(gated: &[(Against, Comparison)]) {
    let unjudged =
        |c: &Comparison| matches!(c.verdict, Verdict::NotEnoughRunsApart | Verdict::NotJudged);
    for (a, c) in gated.iter().filter(|(_, c)| unjudged(c)) {
        let runs = c.apart.as_ref().map_or(0, |x| x.runs);
        if c.verdict == Verdict::NotJudged {
            let mut line = String::new();
            let _ = c.write_verdict(&mut line);
            eprintln!(
                "picollo bench: {} not judged against its baseline (the gate passes it): {line}",
                a.label()
            );
            continue;
        }
        if c.apart.as_ref().is_some_and(|x| x.floored) {
            eprintln!(
                "picollo bench: {} not judged against its baseline: floored at 0, nothing to \
                 judge (its runs lie below what was subtracted, the shell's start; measure more \
                 work a run, or pass --shell=none)",
                a.label()
            );
            continue;
        }
        eprintln!(
            "picollo bench: {} not judged against its baseline: it holds {runs} run(s) apart \
             and the spread between runs needs {} (add runs with --save FILE --append)",
            a.label(),
            picollo_bench::rules::RUNS_APART_NEEDED
        );
    }
}

/// The exit message when a command is slower than its saved result (with `--gate`
/// (`interleaved`), than the first command or side) by the threshold or more (or counts
/// more of the judged metric): which, and its verdict line.
pub fn slower(compared: &[(Against, Comparison)], interleaved: bool) -> Option<String> {
    let failing = compared.iter().filter(|(a, c)| a.gates(c, interleaved));
    let failing = failing.map(|(a, c)| {
        let mut line = String::new();
        let _ = c.write_verdict(&mut line);
        let (what, base) = (a.label(), a.base_label());
        match c.metric.kind {
            MetricKind::Time => format!("{what} is slower than {base}: {line}"),
            _ => format!("{what} counts more {} than {base}: {line}", c.metric.name),
        }
    });
    let lines: Vec<String> = failing.collect();
    (!lines.is_empty()).then(|| lines.join("; "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_number_commands_from_1_and_replace_what_a_tag_cannot_hold() {
        assert_eq!(tag(0, "time"), "cmd1:time");
        assert_eq!(tag(11, "Software:TaskClock"), "cmd12:Software:TaskClock");
        assert_eq!(tag(1, "a b,c"), "cmd2:a_b_c");
        assert!(picollo::hdr::valid_tag(&tag(2, "x, y")));
    }
}
