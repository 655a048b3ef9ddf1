//! `picollo convert`: an input re-written as a normalized interval log, or as summary JSON.

use std::fmt::Write;

use clap::ValueEnum;
use picollo::hdr::{Accumulator, LogWriter};
use picollo::Histogram;

use crate::error::Failure;
use crate::input::Input;
use crate::select::{round_micros, Filter, Seen};

/// What `convert` writes. More targets will join (each a variant and a function here).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Target {
    /// An interval log, format 1.3 (HdrHistogram's Java, C and Rust readers read it).
    Log,
    /// JSON Lines: one summary object per interval, or per tag with `--sum`.
    Json,
}

/// Convert what `filter` selects of `input` to `target`.
pub fn convert(
    input: &Input,
    filter: &Filter,
    target: Target,
    sum: bool,
) -> Result<String, Failure> {
    match target {
        Target::Log => to_log(input, filter),
        Target::Json if sum => to_json_sums(input, filter),
        Target::Json => to_json(input, filter),
    }
}

fn line_error(input: &Input, line: usize, e: impl std::fmt::Display) -> Failure {
    Failure::format(format!("{}: line {line}: {e}", input.name))
}

/// A format 1.3 log: the version line; `StartTime` and a `BaseTime` equal to it when the
/// input has a `StartTime` (else its `BaseTime`, if any), so that every reader takes the
/// timestamps as relative to the start; the legend; then each selected interval with its
/// tag, its times to the millisecond, its maximum (top of its highest bucket / 10^6, as
/// HdrHistogram's writers) and its histogram re-encoded (compressed V2, base64).
fn to_log(input: &Input, filter: &Filter) -> Result<String, Failure> {
    let mut writer: Option<LogWriter<String>> = None;
    let mut seen = Seen::default();
    let mut intervals = input.intervals();
    while let Some(interval) = intervals.next() {
        let interval = interval?;
        let origin = intervals.origin().expect("known once an interval is read");
        seen.note(&interval, origin);
        if !filter.matches(&interval, origin) {
            continue;
        }
        let log = match &mut writer {
            Some(log) => log,
            None => {
                let mut log = LogWriter::new(String::new());
                let (start, base) = match intervals.header_times() {
                    (Some(s), _) => (Some(s), Some(s)),
                    (None, b) => (None, b),
                };
                log.header(start, base)
                    .map_err(|e| line_error(input, interval.line, e))?;
                writer.insert(log)
            }
        };
        log.interval(
            interval.tag.as_deref(),
            interval.start,
            interval.length,
            &interval.histogram.view(),
        )
        .map_err(|e| line_error(input, interval.line, e))?;
    }
    match writer {
        Some(log) => Ok(log.into_inner()),
        None => Err(seen.nothing_selected(&input.name, filter)),
    }
}

/// One JSON object per selected interval, one per line.
fn to_json(input: &Input, filter: &Filter) -> Result<String, Failure> {
    let mut out = String::new();
    let mut seen = Seen::default();
    let mut intervals = input.intervals();
    while let Some(interval) = intervals.next() {
        let interval = interval?;
        let origin = intervals.origin().expect("known once an interval is read");
        seen.note(&interval, origin);
        if filter.matches(&interval, origin) {
            let start = interval.start - origin;
            let (tag, length) = (interval.tag.as_deref(), interval.length);
            object(&mut out, tag, start, length, 1, &interval.histogram);
        }
    }
    if out.is_empty() {
        return Err(seen.nothing_selected(&input.name, filter));
    }
    Ok(out)
}

/// One JSON object per tag (in order of first appearance): the sum of its selected
/// intervals, from the first start to the last end.
fn to_json_sums(input: &Input, filter: &Filter) -> Result<String, Failure> {
    let mut sums: Vec<(Option<String>, Accumulator)> = Vec::new();
    let mut seen = Seen::default();
    let mut origin = 0.0;
    let mut intervals = input.intervals();
    while let Some(interval) = intervals.next() {
        let interval = interval?;
        origin = intervals.origin().expect("known once an interval is read");
        seen.note(&interval, origin);
        if !filter.matches(&interval, origin) {
            continue;
        }
        let k = match sums.iter().position(|(t, _)| *t == interval.tag) {
            Some(k) => k,
            None => {
                sums.push((interval.tag.clone(), Accumulator::new()));
                sums.len() - 1
            }
        };
        sums[k]
            .1
            .add_interval(&interval)
            .map_err(|e| line_error(input, interval.line, e))?;
    }
    if sums.is_empty() {
        return Err(seen.nothing_selected(&input.name, filter));
    }
    let mut out = String::new();
    for (tag, acc) in &sums {
        let (start, end) = acc.time_span().expect("one interval at least");
        let h = acc.histogram().expect("one interval at least");
        object(
            &mut out,
            tag.as_deref(),
            start - origin,
            end - start,
            acc.intervals(),
            h,
        );
    }
    Ok(out)
}

/// `{"tag":…,"start":…,"length":…,"intervals":…,"summary":{…}}` and a newline. `start` is
/// in seconds after the input's origin (as `--from`/`--to`), times to the microsecond.
fn object(
    out: &mut String,
    tag: Option<&str>,
    start: f64,
    length: f64,
    intervals: usize,
    histogram: &Histogram<u64, Vec<u64>>,
) {
    out.push_str("{\"tag\":");
    match tag {
        Some(t) => json_string(out, t),
        None => out.push_str("null"),
    }
    let _ = write!(
        out,
        ",\"start\":{},\"length\":{},\"intervals\":{intervals},\"summary\":",
        round_micros(start),
        round_micros(length)
    );
    histogram
        .view()
        .summary()
        .write_json(out)
        .expect("a String takes any text");
    out.push_str("}\n");
}

fn json_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_strings_escape_quotes_backslashes_and_controls() {
        let mut out = String::new();
        json_string(&mut out, "a\"b\\c\td");
        assert_eq!(out, r#""a\"b\\c\u0009d""#);
    }
}
