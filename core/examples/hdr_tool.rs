//! A small command-line front end to Picollo's HdrHistogram codec and interval log, for
//! checking them against other HdrHistogram implementations from scripts
//! (`scripts/interop_peers.sh` drives it against Python's `hdrh` and `hdr-histogram-js`).
//!
//! ```text
//! hdr_tool encode     [LAYOUT]                      values on stdin -> base64 (compressed V2)
//! hdr_tool report     [LAYOUT]                      values on stdin -> buckets, total, percentiles
//! hdr_tool decode                                   base64 on stdin -> header, then the report
//! hdr_tool log-write  [LAYOUT] [--start-time S] [--base-time B] [--comment TEXT]
//!                                                   values in intervals on stdin -> interval log
//! hdr_tool log-read                                 interval log on stdin -> each interval's report
//!
//! LAYOUT: --digits D (HdrHistogram's layout with D significant digits, 1..=5)
//!       | --relative-error E
//!       | nothing (Picollo's default, 0.1 %)
//!       each optionally with --lowest L (a lowest discernible value: unit 2^floor(log2 L))
//! ```
//!
//! Values on stdin: one `VALUE [COUNT]` per line; `#` lines and blank lines are skipped. For
//! `report` and `log-write`, a line `interval TAG START LENGTH` (TAG `-` for none, times in
//! seconds, START absolute when `--base-time` is given) starts a new histogram.
//!
//! A report is line-oriented, one record per line:
//!
//! ```text
//! total N
//! bucket LOWER HIGHEST COUNT MIDPOINT      (non-empty buckets, in value order)
//! percentile RANK LOWER HIGHEST            (the bucket behind P50, P90, P99, P99.9, P100)
//! max HIGHEST                              (top of the highest non-empty bucket)
//! end
//! ```
//!
//! `decode` prints `header DIGITS LOWEST HIGHEST` first; `log-read` prints `start_time T` and
//! `base_time T` (or `-`), then for each interval `interval LINE TAG START LENGTH MAX DIGITS`
//! followed by its report. Errors go to stderr with exit status 1.
//!
//! `printf '1000 3\n2500\n' | cargo run -q --release -p picollo --example hdr_tool -- encode
//! --digits 3` prints the base64 of a 3-digit histogram of three 1,000s and one 2,500.

use std::io::{self, Read, Write};
use std::process::ExitCode;

use picollo::hdr::{self, LogReader, LogWriter};
use picollo::{Config, Histogram, Percentile};

type Hist = Histogram<u64, Vec<u64>>;

/// Ranks every report lists (HdrHistogram's usual P50, P90, P99, P99.9 and the maximum).
const RANKS: [f64; 5] = [50.0, 90.0, 99.0, 99.9, 100.0];

/// One histogram of the input, with the interval fields when the input gave them.
struct Section {
    tag: Option<String>,
    start: f64,
    length: f64,
    histogram: Hist,
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("hdr_tool: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (command, options) = args
        .split_first()
        .ok_or("usage: hdr_tool encode|report|decode|log-write|log-read [options]")?;
    const COMMANDS: [&str; 5] = ["encode", "report", "decode", "log-write", "log-read"];
    if !COMMANDS.contains(&command.as_str()) {
        return Err(format!(
            "unknown command {command:?} (one of {})",
            COMMANDS.join(", ")
        ));
    }
    let opts = Options::parse(options)?;
    let mut input = String::new();
    io::stdin()
        .read_to_string(&mut input)
        .map_err(|e| format!("reading stdin: {e}"))?;
    let mut out = String::new();
    match command.as_str() {
        "encode" => {
            let sections = read_sections(&input, opts.config)?;
            if sections.len() != 1 {
                return Err("encode takes one histogram (no interval lines)".into());
            }
            let text = sections[0]
                .histogram
                .view()
                .encode_v2_base64()
                .map_err(|e| e.to_string())?;
            out.push_str(&text);
            out.push('\n');
        }
        "report" => {
            for s in read_sections(&input, opts.config)? {
                report(&mut out, &s.histogram);
            }
        }
        "decode" => {
            let d = hdr::decode_base64(&input).map_err(|e| e.to_string())?;
            out.push_str(&format!(
                "header {} {} {}\n",
                d.significant_digits, d.lowest_discernible, d.highest_trackable
            ));
            report(&mut out, &d.histogram);
        }
        "log-write" => {
            let sections = read_sections(&input, opts.config)?;
            let mut log = LogWriter::new(&mut out);
            log.header(opts.start_time, opts.base_time)
                .map_err(|e| e.to_string())?;
            if let Some(c) = &opts.comment {
                log.comment(c).map_err(|e| e.to_string())?;
            }
            for s in &sections {
                log.interval(s.tag.as_deref(), s.start, s.length, &s.histogram.view())
                    .map_err(|e| e.to_string())?;
            }
        }
        "log-read" => {
            let mut reader = LogReader::new(&input);
            let mut body = String::new();
            for entry in reader.by_ref() {
                let i = entry.map_err(|e| e.to_string())?;
                body.push_str(&format!(
                    "interval {} {} {} {} {} {}\n",
                    i.line,
                    i.tag.as_deref().unwrap_or("-"),
                    i.start,
                    i.length,
                    i.max,
                    i.significant_digits
                ));
                report(&mut body, &i.histogram);
            }
            let show = |t: Option<f64>| t.map_or("-".to_string(), |t| t.to_string());
            out.push_str(&format!("start_time {}\n", show(reader.start_time())));
            out.push_str(&format!("base_time {}\n", show(reader.base_time())));
            out.push_str(&body);
        }
        _ => unreachable!("commands checked above"),
    }
    io::stdout()
        .write_all(out.as_bytes())
        .map_err(|e| format!("writing stdout: {e}"))
}

/// Command-line options shared by the commands (each uses the ones it needs).
struct Options {
    config: Config,
    start_time: Option<f64>,
    base_time: Option<f64>,
    comment: Option<String>,
}

impl Options {
    fn parse(args: &[String]) -> Result<Options, String> {
        let mut o = Options {
            config: Config::new(),
            start_time: None,
            base_time: None,
            comment: None,
        };
        let mut lowest = 1;
        let mut it = args.iter();
        while let Some(flag) = it.next() {
            let mut value = || it.next().ok_or(format!("{flag} needs a value"));
            match flag.as_str() {
                "--digits" => {
                    let d: usize = number(value()?)?;
                    let g = *hdr::HDR_BLOCK_SCALES
                        .get(d.wrapping_sub(1))
                        .ok_or("--digits must be 1..=5")?;
                    o.config = Config::new().with_relative_error(0.5 / (1u64 << g) as f64);
                }
                "--relative-error" => {
                    o.config = Config::new().with_relative_error(number(value()?)?)
                }
                "--start-time" => o.start_time = Some(number(value()?)?),
                "--base-time" => o.base_time = Some(number(value()?)?),
                "--comment" => o.comment = Some(value()?.clone()),
                "--lowest" => lowest = number(value()?)?,
                _ => return Err(format!("unknown option {flag:?}")),
            }
        }
        o.config = o.config.with_lowest_discernible(lowest);
        o.config.validate().map_err(|e| e.to_string())?;
        Ok(o)
    }
}

fn number<T: std::str::FromStr>(s: &str) -> Result<T, String> {
    s.parse().map_err(|_| format!("not a number: {s:?}"))
}

/// The histograms of a values input (one, or one per `interval` line). Each covers `0` up
/// to its largest value, so a fine layout does not allocate the whole `u64` range.
fn read_sections(input: &str, config: Config) -> Result<Vec<Section>, String> {
    struct Raw {
        tag: Option<String>,
        start: f64,
        length: f64,
        values: Vec<(u64, u64)>,
    }
    let fresh = || Raw {
        tag: None,
        start: 0.0,
        length: 0.0,
        values: Vec::new(),
    };
    let mut raw: Vec<Raw> = Vec::new();
    for (n, line) in input.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        let bad = || format!("line {}: cannot read {line:?}", n + 1);
        if fields[0] == "interval" {
            let [_, tag, start, length] = fields[..] else {
                return Err(bad());
            };
            raw.push(Raw {
                tag: (tag != "-").then(|| tag.to_string()),
                start: start.parse().map_err(|_| bad())?,
                length: length.parse().map_err(|_| bad())?,
                values: Vec::new(),
            });
            continue;
        }
        let pair = match fields[..] {
            [v] => (v.parse().map_err(|_| bad())?, 1),
            [v, c] => (v.parse().map_err(|_| bad())?, c.parse().map_err(|_| bad())?),
            _ => return Err(bad()),
        };
        if raw.is_empty() {
            raw.push(fresh());
        }
        raw.last_mut().expect("pushed above").values.push(pair);
    }
    if raw.is_empty() {
        raw.push(fresh());
    }
    raw.into_iter()
        .map(|r| {
            let top = r.values.iter().map(|&(v, _)| v).max().unwrap_or(0).max(1);
            let mut histogram = Hist::new(config.with_max(top)).map_err(|e| e.to_string())?;
            for (v, c) in r.values {
                histogram.record_n(v, c);
            }
            Ok(Section {
                tag: r.tag,
                start: r.start,
                length: r.length,
                histogram,
            })
        })
        .collect()
}

/// Appends the report of `h` (see the module documentation).
fn report(out: &mut String, h: &Hist) {
    let v = h.view();
    out.push_str(&format!("total {}\n", v.total_count()));
    // The counts slice, scanned directly (millions of counters at 5 digits).
    for (i, &c) in h.counts().iter().enumerate() {
        if c != 0 {
            let b = v.bucket(i).expect("index within the counts");
            out.push_str(&format!(
                "bucket {} {} {c} {}\n",
                b.lower,
                b.highest,
                b.midpoint()
            ));
        }
    }
    if v.total_count() > 0 {
        let mut ps = [Percentile::default(); RANKS.len()];
        v.percentiles(&RANKS, &mut ps)
            .expect("increasing ranks, non-empty histogram");
        for p in ps {
            out.push_str(&format!(
                "percentile {} {} {}\n",
                p.rank, p.lower, p.highest
            ));
        }
        if let Some(max) = v.max_recorded() {
            out.push_str(&format!("max {max}\n"));
        }
    }
    out.push_str("end\n");
}
