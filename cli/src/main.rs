//! `picollo`: reports, diffs, `.hgrm` distributions, percentile plots and conversions of
//! HdrHistogram interval logs (format 1.2/1.3, from any HdrHistogram port) and of single
//! V2 histograms (base64 text or raw bytes); and benchmarks of whole commands. See the
//! crate README for examples.

mod bench;
mod convert;
mod diff;
mod emulate;
mod error;
mod hgrm;
mod history;
mod html;
mod input;
mod layouts;
mod merge;
mod plot;
mod report;
mod select;
mod table;

use std::process::ExitCode;

use clap::{Args, CommandFactory, Parser, Subcommand};

use crate::error::{Exit, Failure, EXIT_STATUS_HELP};
use crate::input::Input;
use crate::select::{Filter, Tags};

const INPUT_HELP: &str = "\
Inputs:
  A path, or - for standard input. An input is an interval log (HdrHistogram's format,
  versions 1.2 and 1.3, tagged or not), or a single V2 histogram: its base64 text
  (\"HISTFAAA...\", compressed or not) or its raw bytes. A single histogram counts as one
  untagged interval at time 0.

Selection:
  Without --tag only untagged intervals are used (as HdrHistogram's log processor does).
  --from and --to are seconds after the log's start: its StartTime header, or else the
  start of its first interval. An interval is selected when its start lies in [from, to).";

#[derive(Parser)]
#[command(
    name = "picollo",
    version,
    about = "Reports, diffs, .hgrm, plots and conversions of HdrHistogram interval logs; benchmarks of commands",
    after_help = EXIT_STATUS_HELP
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// The Markdown summary table of the selected intervals, or one row per time window
    #[command(after_help = format!("{INPUT_HELP}\n\n{EXIT_STATUS_HELP}"))]
    Report(ReportArgs),
    /// The diff table (Δ% per percentile, Cohen's d) of two logs, or of two selections of one
    #[command(after_help = format!("{DIFF_HELP}\n\n{INPUT_HELP}\n\n{EXIT_STATUS_HELP}"))]
    Diff(DiffArgs),
    /// HdrHistogram's percentile distribution (.hgrm) of the selected intervals' sum
    #[command(after_help = format!("{HGRM_HELP}\n\n{INPUT_HELP}\n\n{EXIT_STATUS_HELP}"))]
    Hgrm(HgrmArgs),
    /// A percentile plot (PNG or SVG) of one or more logs, like HdrHistogram's plotter
    #[command(after_help = format!("{INPUT_HELP}\n\n{EXIT_STATUS_HELP}"))]
    Plot(PlotArgs),
    /// Re-write a log as a normalized format 1.3 log, summary JSON, OpenMetrics or OTLP/JSON,
    /// or any format of `picollo formats`
    #[command(after_help = format!("{CONVERT_HELP}\n\n{INPUT_HELP}\n\n{EXIT_STATUS_HELP}"))]
    Convert(ConvertArgs),
    /// The library's export formats (`convert --to NAME`), each with its options
    Formats,
    /// Measure whole commands: the distribution of wall, user and system time and of
    /// counters per run, one report per command, compared with the first and a verdict
    #[command(after_help = format!("{}\n\n{EXIT_STATUS_HELP}", bench::BENCH_HELP))]
    Bench(bench::BenchArgs),
    /// K builds of one source in different code layouts (sections shuffled by lld or mold),
    /// for `picollo bench --builds K`
    #[command(after_help = format!("{}\n\n{EXIT_STATUS_HELP}", layouts::LAYOUTS_HELP))]
    Layouts(layouts::LayoutsArgs),
    /// Run a program under QEMU's user mode with Picollo's plugin: exact counts of its
    /// guest instructions (loads, stores, L1D misses), per thread and in total
    #[command(after_help = emulate::EMULATE_HELP)]
    Emulate(emulate::EmulateArgs),
    /// The documents of a suite's shards (--shard I/N) as one run: one document, summary,
    /// set of exports and HTML page, and the run's exit status
    #[command(after_help = merge::MERGE_HELP)]
    Merge(merge::MergeArgs),
    /// A store of runs over commits: add a run's document under its commit, time and
    /// machine; list, show and export them (Apache Otava's CSV, Bencher's format)
    #[command(after_help = history::HISTORY_HELP)]
    History(history::HistoryArgs),
}

/// The tag and time window options most commands share.
#[derive(Args, Clone)]
struct Selection {
    /// Use intervals with this tag (default: untagged intervals only)
    #[arg(long, value_name = "TAG")]
    tag: Option<String>,
    /// Use intervals starting at or after S seconds after the log's start
    #[arg(long, value_name = "S", value_parser = seconds, allow_negative_numbers = true)]
    from: Option<f64>,
    /// Use intervals starting before S seconds after the log's start
    #[arg(long, visible_alias = "until", value_name = "S", value_parser = seconds,
          allow_negative_numbers = true)]
    to: Option<f64>,
}

impl Selection {
    fn filter(&self) -> Filter {
        check_window(self.from, self.to);
        Filter {
            tags: Tags::from_arg(self.tag.as_deref(), Tags::Untagged),
            from: self.from,
            to: self.to,
        }
    }
}

/// `--unit-ratio` of the commands that show values.
#[derive(Args)]
struct UnitRatio {
    /// Divide values by R (1000 shows nanoseconds as microseconds)
    #[arg(long, value_name = "R", default_value_t = 1.0, value_parser = positive,
          allow_negative_numbers = true)]
    unit_ratio: f64,
}

#[derive(Args)]
struct ReportArgs {
    /// The log (or histogram) to report on; - for stdin
    log: String,
    #[command(flatten)]
    selection: Selection,
    /// One row per window of S seconds (from --from, or the log's start) instead of one table
    #[arg(long, value_name = "S", value_parser = positive, allow_negative_numbers = true)]
    interval: Option<f64>,
    /// Also write an HTML page to FILE: per tag (every tag without --tag) the percentile
    /// spectrum and each interval's P50, P99 and max over time
    #[arg(long, value_name = "FILE")]
    html: Option<String>,
    #[command(flatten)]
    scale: UnitRatio,
}

const DIFF_HELP: &str = "\
Two selections:
  `picollo diff A B` compares two inputs with the same selection (--tag, --from, --to).
  `picollo diff A --a-to 60 --b-from 60` compares two windows of one input, and
  `picollo diff A --a-tag api --b-tag db` two of its tags. Each --a-*/--b-* option
  overrides the shared one for its side. Columns are headed by what differs between the
  sides (file name, tag, window), the title names both selections in full. Δ% is
  (B − A) / A; Cohen's d is (mean B − mean A) over the pooled sample standard deviation.";

#[derive(Args)]
struct DiffArgs {
    /// The baseline log (A); - for stdin
    a: String,
    /// The log compared with it (B); when left out, B is A with its own --b-* selection
    b: Option<String>,
    #[command(flatten)]
    selection: Selection,
    /// Tag of A's intervals (overrides --tag)
    #[arg(long, value_name = "TAG")]
    a_tag: Option<String>,
    /// Tag of B's intervals (overrides --tag)
    #[arg(long, value_name = "TAG")]
    b_tag: Option<String>,
    /// Start of A's window, seconds (overrides --from)
    #[arg(long, value_name = "S", value_parser = seconds, allow_negative_numbers = true)]
    a_from: Option<f64>,
    /// End of A's window, seconds (overrides --to)
    #[arg(long, value_name = "S", value_parser = seconds, allow_negative_numbers = true)]
    a_to: Option<f64>,
    /// Start of B's window, seconds (overrides --from)
    #[arg(long, value_name = "S", value_parser = seconds, allow_negative_numbers = true)]
    b_from: Option<f64>,
    /// End of B's window, seconds (overrides --to)
    #[arg(long, value_name = "S", value_parser = seconds, allow_negative_numbers = true)]
    b_to: Option<f64>,
    /// Also write an HTML page to FILE: both sides' percentile spectra and the diff table
    #[arg(long, value_name = "FILE")]
    html: Option<String>,
    #[command(flatten)]
    scale: UnitRatio,
}

const HGRM_HELP: &str = "\
Output:
  What HdrHistogram's outputPercentileDistribution(ticks, unitRatio, csv) prints for the
  same counts (byte for byte as hdr-histogram-js for histograms of 1 to 5 significant
  digits, as logs hold): a row per percentile tick with the highest value of the bucket it
  lands in, the percentile, the count so far and 1/(1-percentile), then the footer with
  mean, standard deviation, max, total count, buckets and sub-buckets. HdrHistogram's
  plotter and the `picollo plot` of a log draw the same curve.";

#[derive(Args)]
struct HgrmArgs {
    /// The log (or histogram) to print; - for stdin
    log: String,
    #[command(flatten)]
    selection: Selection,
    /// Divide values (and mean, deviation, max) by R
    #[arg(long, value_name = "R", default_value_t = 1.0, value_parser = positive,
          allow_negative_numbers = true)]
    unit_ratio: f64,
    /// Percentile rows per half of the distance left to 100 %
    #[arg(long, value_name = "N", default_value_t = 5,
          value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    ticks: u32,
    /// Comma-separated values instead of padded columns (no footer)
    #[arg(long)]
    csv: bool,
}

#[derive(Args)]
struct PlotArgs {
    /// The logs (or histograms) to plot, one curve each (per --tag); - for stdin
    #[arg(required = true)]
    logs: Vec<String>,
    /// Output file: .png or .svg
    #[arg(short, long, value_name = "OUT")]
    output: String,
    /// Plot intervals with this tag; repeat for one curve per tag (default: untagged)
    #[arg(long = "tag", value_name = "TAG")]
    tags: Vec<String>,
    /// Use intervals starting at or after S seconds after the log's start
    #[arg(long, value_name = "S", value_parser = seconds, allow_negative_numbers = true)]
    from: Option<f64>,
    /// Use intervals starting before S seconds after the log's start
    #[arg(long, visible_alias = "until", value_name = "S", value_parser = seconds,
          allow_negative_numbers = true)]
    to: Option<f64>,
    #[command(flatten)]
    scale: UnitRatio,
    /// The values' unit after --unit-ratio, named on the value axis (`value (µs)`); without
    /// it the axis says `value`, or `value / R`
    #[arg(long, value_name = "NAME")]
    unit: Option<String>,
    /// Title above the plot
    #[arg(long, default_value = "Percentile distribution")]
    title: String,
    /// Width in pixels
    #[arg(long, default_value_t = 1200, value_parser = clap::value_parser!(u32).range(200..=10_000))]
    width: u32,
    /// Height in pixels
    #[arg(long, default_value_t = 700, value_parser = clap::value_parser!(u32).range(150..=10_000))]
    height: u32,
    /// TrueType font for the text (default: $PICOLLO_FONT, else DejaVu Sans from
    /// fonts-dejavu-core)
    #[arg(long, value_name = "TTF")]
    font: Option<String>,
}

const CONVERT_HELP: &str = "\
Targets:
  log   A format 1.3 interval log: version line, StartTime and an equal BaseTime when the
        input has a StartTime (so every reader takes the timestamps as relative to it),
        the legend, then each selected interval with its tag, times to the millisecond,
        maximum (top of its highest bucket / 10^6, as HdrHistogram's writers) and its
        histogram re-encoded as compressed V2 in base64. Reads peers' logs (1.2, six
        decimals, absolute or relative times) and writes what every HdrHistogram reads.
  json  JSON Lines: one object per selected interval, or with --sum one per tag (the sum
        of its intervals): {\"tag\": string or null, \"start\": seconds after the log's
        start, \"length\": seconds, \"intervals\": count, \"summary\": {...}}, the summary
        being the object of picollo's Summary::write_json (totals, mean, stDev, precision
        and 16 percentiles with their buckets).
  openmetrics
        An OpenMetrics text exposition: one histogram family (--name, default
        picollo_histogram, or picollo_histogram_<unit> with --unit; --help-text), one
        point per tag (label tag=\"...\"; untagged intervals without it) holding the sum
        of the tag's selected intervals, then # EOF. Bucket bounds (le) are derived from
        the layout at --coarse E (default 0.05; every count exact), or given with --bounds
        in recorded units. --unit-ratio divides le and _sum. _created is the earliest
        selected start when the log has a StartTime or BaseTime.
  otlp-json
        One OTLP/JSON ExportMetricsServiceRequest holding one exponential histogram metric
        (--name, --help-text as its description, --unit in UCUM, e.g. ms). Cumulative: one
        point per tag (attribute tag), the sum of its selected intervals, from its first
        start to its last end. With --delta: one delta point per selected interval.
        Times are the log's (absolute with a StartTime or BaseTime header) in Unix
        nanoseconds, to the microsecond.
  prometheus-native
        Prometheus' protobuf exposition (what a scrape with native histograms reads;
        content type application/vnd.google.protobuf; proto=io.prometheus.client.
        MetricFamily; encoding=delimited): one native-histogram family (--name,
        --help-text), one series per tag (label tag) holding the sum of the tag's
        selected intervals. --schema S (-4..8) sets the buckets' base 2^(2^-S); by
        default the coarsest schema within the histogram's relative error. --unit-ratio
        divides values (1e9 exports nanoseconds as seconds). Binary: use -o.

  any format of `picollo formats` (e.g. csv: the buckets as lower,upper,count)
        The sum of the selected intervals, every tag together, in that format of the
        library's export table, with its options given as --option NAME=VALUE. A bare
        name is one of the targets above when it names one (json, openmetrics, otlp-json,
        prometheus-native: per interval or per tag, with convert's own flags); the
        table's format of that name is --to format:NAME (format:json, the summary object
        of the sum; format:openmetrics --option name=..., one point). format:NAME always
        means the table's format.

Unlike the other commands, convert keeps every interval, tagged or not, unless --tag is
given. The window's end is --until (--to names the target).";

#[derive(Args)]
struct ConvertArgs {
    /// The log (or histogram) to convert; - for stdin
    log: String,
    /// What to write: a target below, or a format of `picollo formats`
    #[arg(long, value_name = "TARGET", value_parser = convert::target)]
    to: convert::Target,
    /// Output file (default: stdout)
    #[arg(short, long, value_name = "OUT")]
    output: Option<String>,
    /// Keep only intervals with this tag (default: every interval)
    #[arg(long, value_name = "TAG")]
    tag: Option<String>,
    /// Keep intervals starting at or after S seconds after the log's start
    #[arg(long, value_name = "S", value_parser = seconds, allow_negative_numbers = true)]
    from: Option<f64>,
    /// Keep intervals starting before S seconds after the log's start
    #[arg(long, value_name = "S", value_parser = seconds, allow_negative_numbers = true)]
    until: Option<f64>,
    /// JSON: one object per tag, the sum of its intervals, instead of one per interval
    #[arg(long)]
    sum: bool,
    /// OpenMetrics/OTLP: the metric name (default picollo_histogram[_<unit>])
    #[arg(long, value_name = "NAME")]
    name: Option<String>,
    /// OpenMetrics/OTLP: the help text (OTLP: the description)
    #[arg(long, value_name = "TEXT")]
    help_text: Option<String>,
    /// OpenMetrics/OTLP: the unit (OpenMetrics: the name must end with _<unit>)
    #[arg(long, value_name = "UNIT")]
    unit: Option<String>,
    /// OpenMetrics/OTLP: divide values by R (1e9 exports nanoseconds as seconds)
    #[arg(long, value_name = "R", value_parser = positive, allow_negative_numbers = true)]
    unit_ratio: Option<f64>,
    /// OpenMetrics: bucket bounds derived at this relative error, in (0, 1) [default: 0.05]
    #[arg(long, value_name = "E", value_parser = coarse, conflicts_with = "bounds",
          allow_negative_numbers = true)]
    coarse: Option<f64>,
    /// OpenMetrics: explicit bucket bounds, in recorded units, strictly increasing (a,b,c)
    #[arg(long, value_name = "LIST", value_parser = bound_list)]
    bounds: Option<BoundList>,
    /// OTLP: one delta point per interval instead of one cumulative point per tag
    #[arg(long)]
    delta: bool,
    /// Prometheus native: the schema, -4..8 [default: the coarsest within the relative error]
    #[arg(long, value_name = "S", allow_negative_numbers = true)]
    schema: Option<i32>,
    /// A format of `picollo formats`: one of its options (repeatable)
    #[arg(long = "option", value_name = "NAME=VALUE", value_parser = option_pair)]
    options: Vec<(String, String)>,
}

/// `--option NAME=VALUE`.
fn option_pair(s: &str) -> Result<(String, String), String> {
    match s.split_once('=') {
        Some((name, value)) if !name.is_empty() => Ok((name.into(), value.into())),
        _ => Err(format!("{s:?} is not NAME=VALUE")),
    }
}

impl ConvertArgs {
    /// The metric options, after checking they suit the target (usage errors otherwise).
    fn metric(&self) -> convert::MetricOptions {
        self.refuse_options_of_other_targets();
        let target = self.to;
        let unit = self.unit.clone().unwrap_or_default();
        let name = match (&self.name, target) {
            (Some(n), _) => n.clone(),
            (None, convert::Target::Openmetrics) if !unit.is_empty() => {
                format!("{}_{unit}", convert::DEFAULT_NAME)
            }
            (None, _) => convert::DEFAULT_NAME.to_string(),
        };
        let metric = convert::MetricOptions {
            name,
            help: self.help_text.clone().unwrap_or_default(),
            unit,
            unit_ratio: self.unit_ratio.unwrap_or(1.0),
            bounds: self.bounds.clone().map(|b| b.0),
            coarse: self.coarse.unwrap_or(0.05),
            delta: self.delta,
            schema: self.schema,
            options: self.options.clone(),
        };
        if target == convert::Target::Openmetrics {
            if let Err(message) = metric.check_openmetrics() {
                usage(&message);
            }
        }
        if target == convert::Target::PrometheusNative {
            if let Err(message) = metric.check_prometheus_native() {
                usage(&message);
            }
        }
        metric
    }

    /// Exit with a usage error when an option of another target is given.
    fn refuse_options_of_other_targets(&self) {
        let target = self.to;
        let given = [
            ("--name", self.name.is_some()),
            ("--help-text", self.help_text.is_some()),
            ("--unit", self.unit.is_some()),
            ("--unit-ratio", self.unit_ratio.is_some()),
        ];
        if !target.is_metric() {
            if let Some((option, _)) = given.iter().find(|(_, g)| *g) {
                // --unit is refused for prometheus-native below, with its own message.
                let native = match *option {
                    "--unit" => "",
                    _ => " (and prometheus-native)",
                };
                usage(&format!(
                    "{option} applies to --to openmetrics or otlp-json only{native}"
                ));
            }
        }
        if target == convert::Target::PrometheusNative && self.unit.is_some() {
            usage("--unit applies to --to openmetrics or otlp-json only (name the unit in --name)");
        }
        if self.schema.is_some() && target != convert::Target::PrometheusNative {
            usage("--schema applies to --to prometheus-native only");
        }
        if target != convert::Target::Openmetrics
            && (self.bounds.is_some() || self.coarse.is_some())
        {
            usage("--bounds and --coarse apply to --to openmetrics only");
        }
        if self.delta && target != convert::Target::OtlpJson {
            usage("--delta applies to --to otlp-json only");
        }
        if !self.options.is_empty() && !matches!(target, convert::Target::Format(_)) {
            usage("--option applies to the formats of `picollo formats` only");
        }
    }
}

/// `--bounds a,b,c`: bucket bounds, strictly increasing.
#[derive(Clone)]
struct BoundList(Vec<u64>);

fn bound_list(s: &str) -> Result<BoundList, String> {
    let mut bounds = Vec::new();
    for part in s.split(',') {
        let part = part.trim();
        match part.parse::<u64>() {
            Ok(b) => bounds.push(b),
            Err(_) => {
                return Err(format!(
                    "{part:?} is not a bound (bounds are whole numbers in recorded units, \
                     separated by commas)"
                ))
            }
        }
    }
    if let Some(w) = bounds.windows(2).find(|w| w[0] >= w[1]) {
        return Err(format!(
            "bounds must be strictly increasing ({} is followed by {})",
            w[0], w[1]
        ));
    }
    Ok(BoundList(bounds))
}

fn coarse(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v > 0.0 && v < 1.0 => Ok(v),
        _ => Err(format!("{s:?} is not a relative error in (0, 1)")),
    }
}

fn seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(v),
        _ => Err(format!("{s:?} is not a number of seconds")),
    }
}

fn positive(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 => Ok(v),
        _ => Err(format!("{s:?} is not a finite number above 0")),
    }
}

/// A usage error, printed and exited with by clap (status 2).
fn usage(message: &str) -> ! {
    Cli::command()
        .error(clap::error::ErrorKind::ArgumentConflict, message)
        .exit()
}

fn check_window(from: Option<f64>, to: Option<f64>) {
    if let (Some(f), Some(t)) = (from, to) {
        if f >= t {
            usage(&format!(
                "the window is empty: from {f} s is not before to {t} s"
            ));
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Command::Emulate(args) = &cli.command {
        // The program's own exit status, or the emulator's failure.
        return match emulate::run(args) {
            Ok(code) => ExitCode::from(code.clamp(0, 255) as u8),
            Err(failure) => {
                eprintln!("picollo: {failure}");
                ExitCode::from(failure.exit as u8)
            }
        };
    }
    match run(cli.command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            eprintln!("picollo: {failure}");
            ExitCode::from(failure.exit as u8)
        }
    }
}

fn run(command: Command) -> Result<(), Failure> {
    match command {
        Command::Report(args) => run_report(args),
        Command::Diff(args) => run_diff(args),
        Command::Hgrm(args) => {
            let filter = args.selection.filter();
            let input = Input::read(&args.log)?;
            let options = picollo::HgrmOptions {
                ticks_per_half_distance: args.ticks,
                unit_ratio: args.unit_ratio,
                csv: args.csv,
            };
            emit(&hgrm::hgrm(&input, &filter, &options)?, None)
        }
        Command::Plot(args) => run_plot(args),
        Command::Bench(args) => bench::run(&args),
        Command::Layouts(args) => layouts::run(&args),
        Command::Merge(args) => merge::run(&args),
        Command::History(args) => history::run(&args),
        Command::Formats => emit(&convert::formats_text(), None),
        Command::Emulate(_) => unreachable!("main runs picollo emulate itself"),
        Command::Convert(args) => {
            check_window(args.from, args.until);
            let filter = Filter {
                tags: Tags::from_arg(args.tag.as_deref(), Tags::All),
                from: args.from,
                to: args.until,
            };
            if args.sum && args.to != convert::Target::Json {
                usage("--sum applies to --to json only");
            }
            let metric = args.metric();
            let input = Input::read(&args.log)?;
            let text = convert::convert(&input, &filter, args.to, args.sum, &metric)?;
            emit_bytes(&text, args.output.as_deref())
        }
    }
}

fn run_report(args: ReportArgs) -> Result<(), Failure> {
    let filter = args.selection.filter();
    let input = Input::read(&args.log)?;
    if let Some(path) = &args.html {
        report_html(&args, &input, path)?;
    }
    let text = match args.interval {
        Some(s) => report::windows(&input, &filter, s, args.scale.unit_ratio),
        None => report::whole(&input, &filter, args.scale.unit_ratio),
    };
    match text {
        // The page drew every tag; the table had none untagged to show.
        Err(f) if f.exit == Exit::NoData && args.html.is_some() => {
            eprintln!("picollo: no table: {}; the page shows every tag", f.message);
            Ok(())
        }
        text => emit(&text?, None),
    }
}

/// `picollo report --html FILE`: the page (of every tag unless --tag picks one), written
/// also when the selection is empty (it then says so, and the failure follows).
fn report_html(args: &ReportArgs, input: &Input, path: &str) -> Result<(), Failure> {
    let mut filter = args.selection.filter();
    if args.selection.tag.is_none() {
        filter.tags = Tags::All;
    }
    match html::report(input, &filter, args.scale.unit_ratio) {
        Ok(page) => emit(&page, Some(path)),
        Err((page, failure)) => {
            emit(&page, Some(path))?;
            Err(failure)
        }
    }
}

fn run_diff(args: DiffArgs) -> Result<(), Failure> {
    let shared = args.selection.filter();
    let side = |tag: &Option<String>, from: Option<f64>, to: Option<f64>| {
        let from = from.or(shared.from);
        let to = to.or(shared.to);
        check_window(from, to);
        Filter {
            tags: tag
                .as_deref()
                .map_or(shared.tags.clone(), |t| Tags::Only(t.to_string())),
            from,
            to,
        }
    };
    let fa = side(&args.a_tag, args.a_from, args.a_to);
    let fb = side(&args.b_tag, args.b_from, args.b_to);
    let a = Input::read(&args.a)?;
    let same = args.b.as_ref().is_none_or(|b| *b == args.a);
    if args.b.is_none() && fa == fb {
        usage(
            "with one input, tell the two selections apart with --a-tag/--b-tag, \
             --a-from/--a-to or --b-from/--b-to",
        );
    }
    let b_input;
    let b = match (&args.b, same) {
        (Some(path), false) => {
            b_input = Input::read(path)?;
            &b_input
        }
        _ => &a,
    };
    let (text, page) = diff::diff(
        &diff::Side {
            input: &a,
            filter: fa,
        },
        &diff::Side {
            input: b,
            filter: fb,
        },
        args.scale.unit_ratio,
        args.html.is_some(),
    )?;
    if let (Some(path), Some(page)) = (&args.html, page) {
        emit(&page, Some(path))?;
    }
    emit(&text, None)
}

fn run_plot(args: PlotArgs) -> Result<(), Failure> {
    check_window(args.from, args.to);
    let Some(format) = plot::Format::of(&args.output) else {
        usage(&format!(
            "{}: the output must end in .png or .svg",
            args.output
        ));
    };
    if args.logs.iter().filter(|p| *p == "-").count() > 1 {
        usage("standard input (-) can be read once only");
    }
    let tags: Vec<Tags> = match args.tags.is_empty() {
        true => vec![Tags::Untagged],
        false => args.tags.iter().map(|t| Tags::Only(t.clone())).collect(),
    };
    let mut series = Vec::new();
    for path in &args.logs {
        let input = Input::read(path)?;
        let file = std::path::Path::new(&input.name)
            .file_name()
            .map_or(input.name.clone(), |f| f.to_string_lossy().into_owned());
        for tags in &tags {
            let filter = Filter {
                tags: tags.clone(),
                from: args.from,
                to: args.to,
            };
            let selected = select::sum(&input, &filter)?;
            let tag = match tags {
                Tags::Only(t) => t.as_str(),
                _ => "",
            };
            let name = match (args.logs.len() > 1, args.tags.len() > 1) {
                (true, true) => format!("{file} {tag}"),
                (false, true) => tag.to_string(),
                _ => file.clone(),
            };
            series.push(plot::Series { name, selected });
        }
    }
    let opts = plot::Options {
        title: &args.title,
        unit_ratio: args.scale.unit_ratio,
        unit: args.unit.as_deref(),
        size: (args.width, args.height),
        font: args.font.as_deref(),
    };
    plot::plot(&series, &args.output, format, &opts)
}

/// Write `text` to `path`, or to stdout. A closed stdout (`| head`) ends the program
/// quietly, as it does for other filters.
fn emit(text: &str, path: Option<&str>) -> Result<(), Failure> {
    emit_bytes(text.as_bytes(), path)
}

/// [`emit`] for bytes (the binary conversions).
fn emit_bytes(text: &[u8], path: Option<&str>) -> Result<(), Failure> {
    let path = std::path::Path::new(path.unwrap_or("-"));
    picollo_bench::export::emit(text, path).map_err(Failure::output)
}
