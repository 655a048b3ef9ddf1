//! HdrHistogram's interval log (format version 1.3): one compressed V2 histogram per line,
//! with its start time, length and maximum, optionally tagged.
//!
//! ```text
//! #[Histogram log format version 1.3]
//! #[StartTime: 1700000000.000 (seconds since epoch), 2023-11-14T22:13:20Z]
//! #[BaseTime: 0.000 (seconds since epoch)]
//! "StartTimestamp","Interval_Length","Interval_Max","Interval_Compressed_Histogram"
//! Tag=api,0.127,1.007,2.769,HISTFAAA...
//! ```
//!
//! Timestamps in interval lines are seconds relative to the base time. As HdrHistogram's
//! readers do, a log without a `BaseTime` header whose timestamps are more than a year before
//! its `StartTime` is taken to be relative to `StartTime`; otherwise they are absolute
//! (seconds since the epoch). The maximum is the interval's largest value divided by a unit
//! ratio (HdrHistogram's default, 10^6, turns nanoseconds into milliseconds).

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::{self, Write};

use crate::counter::Counter;
use crate::format::v2::{self, Decoded, V2Error};
use crate::histogram::Histogram;
use crate::view::{Counts, View};

/// The legend line HdrHistogram writes before the first interval.
pub const LOG_LEGEND: &str =
    "\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\",\"Interval_Compressed_Histogram\"";
/// The unit ratio HdrHistogram's log writers divide the interval maximum by.
pub const DEFAULT_MAX_UNIT_RATIO: f64 = 1e6;

/// Why a log line could not be written or read.
#[derive(Clone, Debug, PartialEq)]
pub struct LogError {
    /// 1-based line number (0 when writing).
    pub line: usize,
    /// What went wrong.
    pub kind: LogErrorKind,
}

/// The cause of a [`LogError`].
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum LogErrorKind {
    /// An interval line does not have the four (or, tagged, five) fields.
    Fields,
    /// A numeric field (named) is not a non-negative decimal number.
    Number(&'static str),
    /// A tag holds a character logs cannot carry (`,`, space, CR, LF) or is empty.
    Tag,
    /// A time or unit ratio given to the writer is negative, NaN or infinite (or the ratio 0).
    Argument(&'static str),
    /// The histogram could not be encoded or decoded.
    V2(V2Error),
    /// The sink refused the text.
    Write,
}

impl fmt::Display for LogError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line > 0 {
            write!(f, "line {}: ", self.line)?;
        }
        match &self.kind {
            LogErrorKind::Fields => {
                f.write_str("an interval line needs [Tag=T,]start,length,max,histogram")
            }
            LogErrorKind::Number(field) => {
                write!(f, "the {field} field is not a non-negative decimal number")
            }
            LogErrorKind::Tag => {
                f.write_str("a tag must be non-empty and hold no comma, space, CR or LF")
            }
            LogErrorKind::Argument(what) => write!(f, "invalid {what}"),
            LogErrorKind::V2(e) => write!(f, "{e}"),
            LogErrorKind::Write => f.write_str("the output refused the text"),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for LogError {}

impl From<fmt::Error> for LogError {
    fn from(_: fmt::Error) -> Self {
        LogError {
            line: 0,
            kind: LogErrorKind::Write,
        }
    }
}

fn arg(what: &'static str) -> LogError {
    LogError {
        line: 0,
        kind: LogErrorKind::Argument(what),
    }
}

/// Whether `tag` can be written in a log.
pub fn valid_tag(tag: &str) -> bool {
    !tag.is_empty() && !tag.contains([',', ' ', '\r', '\n'])
}

/// Writes an interval log into any `fmt::Write` sink (a `String`, a file adapter, a C
/// buffer).
///
/// ```
/// use picollo::hdr::{LogReader, LogWriter};
/// use picollo::Config;
/// let mut h = Config::new().build::<u64>()?;
/// h.record(1_500_000);
/// let mut text = String::new();
/// let mut log = LogWriter::new(&mut text);
/// log.header(Some(1_700_000_000.0), None)?;
/// log.interval(Some("api"), 0.0, 1.0, &h.view())?;
/// let entries: Vec<_> = LogReader::new(&text).collect::<Result<_, _>>()?;
/// assert_eq!(entries[0].tag.as_deref(), Some("api"));
/// assert_eq!(entries[0].histogram.total_count(), 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct LogWriter<W: Write> {
    out: W,
    base_time: f64,
    max_unit_ratio: f64,
}

impl<W: Write> LogWriter<W> {
    /// A writer into `out`, with base time 0 and HdrHistogram's unit ratio of 10^6.
    pub fn new(out: W) -> Self {
        LogWriter {
            out,
            base_time: 0.0,
            max_unit_ratio: DEFAULT_MAX_UNIT_RATIO,
        }
    }

    /// Divide interval maxima by `ratio` (HdrHistogram's `maxValueUnitRatio`).
    pub fn set_max_unit_ratio(&mut self, ratio: f64) -> Result<(), LogError> {
        if !(ratio.is_finite() && ratio > 0.0) {
            return Err(arg("max unit ratio (must be finite and above 0)"));
        }
        self.max_unit_ratio = ratio;
        Ok(())
    }

    /// Write the version line, then `StartTime` (seconds since the epoch) and `BaseTime`
    /// headers when given, then the legend. Interval times passed later are absolute when a
    /// base time is given here, and are written relative to it.
    pub fn header(
        &mut self,
        start_time: Option<f64>,
        base_time: Option<f64>,
    ) -> Result<(), LogError> {
        for t in [start_time, base_time].into_iter().flatten() {
            if !(t.is_finite() && t >= 0.0) {
                return Err(arg("time (must be finite and not negative)"));
            }
        }
        self.out
            .write_str("#[Histogram log format version 1.3]\n")?;
        if let Some(t) = start_time {
            write!(self.out, "#[StartTime: {t:.3} (seconds since epoch), ")?;
            write_utc(&mut self.out, t)?;
            self.out.write_str("]\n")?;
        }
        if let Some(t) = base_time {
            writeln!(self.out, "#[BaseTime: {t:.3} (seconds since epoch)]")?;
            self.base_time = t;
        }
        writeln!(self.out, "{LOG_LEGEND}")?;
        Ok(())
    }

    /// Write a comment line (`#` and the text; line breaks in the text start new comments).
    pub fn comment(&mut self, text: &str) -> Result<(), LogError> {
        for line in text.split(['\n', '\r']) {
            writeln!(self.out, "#{line}")?;
        }
        Ok(())
    }

    /// Write one interval: `start` and `length` in seconds (start absolute when a base time
    /// was set, else as the log's readers should see it), the histogram compressed and in
    /// base64. The maximum written is the top of the highest non-empty bucket divided by the
    /// unit ratio (0 when empty).
    pub fn interval<C: Counter, S: Counts<C> + ?Sized>(
        &mut self,
        tag: Option<&str>,
        start: f64,
        length: f64,
        view: &View<'_, C, S>,
    ) -> Result<(), LogError> {
        let text = view.encode_v2_base64().map_err(|e| LogError {
            line: 0,
            kind: LogErrorKind::V2(e),
        })?;
        self.interval_encoded(tag, start, length, interval_max(view), &text)
    }

    /// Write one interval from an already encoded histogram (base64 of compressed V2) and
    /// its maximum value (before the unit ratio).
    pub fn interval_encoded(
        &mut self,
        tag: Option<&str>,
        start: f64,
        length: f64,
        max_value: u64,
        base64: &str,
    ) -> Result<(), LogError> {
        let relative = start - self.base_time;
        if !(start.is_finite() && relative >= 0.0) {
            return Err(arg(
                "interval start (must be finite and not before the base time)",
            ));
        }
        if !(length.is_finite() && length >= 0.0) {
            return Err(arg("interval length (must be finite and not negative)"));
        }
        if let Some(t) = tag {
            if !valid_tag(t) {
                return Err(LogError {
                    line: 0,
                    kind: LogErrorKind::Tag,
                });
            }
            write!(self.out, "Tag={t},")?;
        }
        writeln!(
            self.out,
            "{relative:.3},{length:.3},{:.3},{base64}",
            max_value as f64 / self.max_unit_ratio
        )?;
        Ok(())
    }

    /// The sink (e.g. the text written so far into a `String`).
    pub fn get_ref(&self) -> &W {
        &self.out
    }

    /// The sink, mutably (e.g. to drain the text written so far). What is written to it
    /// directly lands in the log.
    pub fn get_mut(&mut self) -> &mut W {
        &mut self.out
    }

    /// The sink, back.
    pub fn into_inner(self) -> W {
        self.out
    }
}

/// The value an interval line reports as its maximum: the top of the highest non-empty
/// bucket, as HdrHistogram's `getMaxValue` does; 0 when empty.
pub fn interval_max<C: Counter, S: Counts<C> + ?Sized>(view: &View<'_, C, S>) -> u64 {
    view.max_recorded()
        .map_or(0, |v| view.layout().bucket_of(v).highest)
}

/// `t` seconds since the epoch as `YYYY-MM-DDTHH:MM:SSZ` (UTC).
fn write_utc(w: &mut impl Write, t: f64) -> fmt::Result {
    let secs = t as u64;
    let (days, rem) = (secs / 86_400, secs % 86_400);
    // Civil date from days since 1970-01-01 (proleptic Gregorian, era of 400 years).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    write!(
        w,
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem / 60 % 60,
        rem % 60
    )
}

/// One interval read from a log.
#[derive(Clone, Debug)]
pub struct Interval {
    /// 1-based line number.
    pub line: usize,
    /// The tag, if the line has one.
    pub tag: Option<String>,
    /// Start time in seconds: the line's timestamp plus the log's base time (see the module
    /// documentation), so absolute when the log has a `StartTime` or `BaseTime`.
    pub start: f64,
    /// Interval length in seconds.
    pub length: f64,
    /// The maximum as written (already divided by the writer's unit ratio).
    pub max: f64,
    /// The decoded histogram.
    pub histogram: Histogram<u64, Vec<u64>>,
    /// Significant digits of the encoded histogram.
    pub significant_digits: u32,
}

impl Interval {
    /// End time (`start + length`).
    pub fn end(&self) -> f64 {
        self.start + self.length
    }
}

/// Reads an interval log line by line, yielding each interval or the error of its line.
/// Header values seen so far are available through [`LogReader::start_time`] and
/// [`LogReader::base_time`].
pub struct LogReader<'a> {
    text: &'a str,
    at: LogPosition,
    limits: v2::Limits,
}

/// Where a [`LogReader`] stands in its text: the byte offset and number of the next line,
/// and the header times read so far. [`LogReader::position`] takes it and
/// [`LogReader::resume`] goes on from it, so an owner of the text that cannot keep a
/// borrowing reader (a handle in another language) can read a line at a time.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LogPosition {
    offset: usize,
    lines: usize,
    start_time: Option<f64>,
    base_time: Option<f64>,
}

impl LogPosition {
    /// Byte offset of the next line in the text.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// 1-based number of the next line.
    pub fn line(&self) -> usize {
        self.lines + 1
    }
}

impl<'a> LogReader<'a> {
    /// A reader over the whole text of a log.
    pub fn new(text: &'a str) -> Self {
        Self::resume(text, LogPosition::default())
    }

    /// A reader over `text` going on from `at`, a [`LogReader::position`] taken over the same
    /// text (with the default limits; see [`LogReader::with_limits`]). A position that is
    /// not on a character boundary of `text`, or past its end, reads nothing.
    pub fn resume(text: &'a str, at: LogPosition) -> Self {
        LogReader {
            text,
            at,
            limits: v2::Limits::default(),
        }
    }

    /// Where the reader stands, for [`LogReader::resume`].
    pub fn position(&self) -> LogPosition {
        self.at
    }

    /// The same reader with other decoding limits.
    pub fn with_limits(mut self, limits: v2::Limits) -> Self {
        self.limits = limits;
        self
    }

    /// `StartTime` from the header, once read.
    pub fn start_time(&self) -> Option<f64> {
        self.at.start_time
    }

    /// `BaseTime` from the header, once read.
    pub fn base_time(&self) -> Option<f64> {
        self.at.base_time
    }

    /// Read the lines before the next interval line (version, `StartTime` and `BaseTime`
    /// headers, comments, the legend, blank lines), so that [`LogReader::start_time`] and
    /// [`LogReader::base_time`] report a log's header before its first interval is read.
    pub fn read_headers(&mut self) {
        loop {
            let before = self.at;
            match self.next_line() {
                Some((_, line)) if self.header_line(line) => {}
                Some(_) => {
                    self.at = before;
                    return;
                }
                None => return,
            }
        }
    }

    /// The next line (without its line ending) and its number.
    fn next_line(&mut self) -> Option<(usize, &'a str)> {
        let rest = self.text.get(self.at.offset..)?;
        if rest.is_empty() {
            return None;
        }
        let (line, used) = match rest.find('\n') {
            Some(i) => (&rest[..i], i + 1),
            None => (rest, rest.len()),
        };
        self.at.offset += used;
        self.at.lines += 1;
        Some((self.at.lines, line.trim_end_matches('\r')))
    }

    /// Whether `line` is not an interval (blank, the legend, a comment or header), taking
    /// the time of a `StartTime` or `BaseTime` header.
    fn header_line(&mut self, line: &str) -> bool {
        if line.trim().is_empty() || line.starts_with('"') {
            return true;
        }
        if !line.starts_with('#') {
            return false;
        }
        if let Some(t) = header_number(line, "StartTime") {
            self.at.start_time = Some(t);
        } else if let Some(t) = header_number(line, "BaseTime") {
            self.at.base_time = Some(t);
        }
        true
    }

    fn parse_interval(&self, line_no: usize, line: &str) -> Result<Interval, LogError> {
        let err = |kind| LogError {
            line: line_no,
            kind,
        };
        let (tag, rest) = match line.strip_prefix("Tag=") {
            Some(r) => {
                let (t, rest) = r.split_once(',').ok_or(err(LogErrorKind::Fields))?;
                if !valid_tag(t) {
                    return Err(err(LogErrorKind::Tag));
                }
                (Some(String::from(t)), rest)
            }
            None => (None, line),
        };
        let mut f = rest.splitn(4, ',');
        let mut number = |name| -> Result<f64, LogError> {
            let s = f.next().ok_or(err(LogErrorKind::Fields))?.trim();
            parse_decimal(s).ok_or(err(LogErrorKind::Number(name)))
        };
        let stamp = number("start timestamp")?;
        let length = number("interval length")?;
        let max = number("interval max")?;
        let text = f.next().ok_or(err(LogErrorKind::Fields))?;
        let Decoded {
            histogram,
            significant_digits,
            ..
        } = v2::decode_base64_with_limits(text, &self.limits)
            .map_err(|e| err(LogErrorKind::V2(e)))?;
        let base = match (self.at.base_time, self.at.start_time) {
            (Some(b), _) => b,
            (None, Some(s)) if stamp < s - 365.0 * 24.0 * 3600.0 => s,
            _ => 0.0,
        };
        Ok(Interval {
            line: line_no,
            tag,
            start: stamp + base,
            length,
            max,
            histogram,
            significant_digits,
        })
    }
}

/// A plain non-negative decimal (`12`, `12.5`, `.5`): what logs hold; no sign, exponent,
/// `inf` or `nan`.
fn parse_decimal(s: &str) -> Option<f64> {
    let ok = !s.is_empty()
        && s.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        && s.bytes().filter(|&b| b == b'.').count() <= 1
        && s.bytes().any(|b| b.is_ascii_digit());
    if ok {
        s.parse().ok().filter(|v: &f64| v.is_finite())
    } else {
        None
    }
}

/// The number in a `#[Name: 123.456 ...]` header line.
fn header_number(line: &str, name: &str) -> Option<f64> {
    let rest = line
        .strip_prefix("#[")?
        .strip_prefix(name)?
        .strip_prefix(':')?;
    let rest = rest.trim_start();
    let end = rest
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(rest.len());
    parse_decimal(&rest[..end])
}

impl Iterator for LogReader<'_> {
    type Item = Result<Interval, LogError>;

    fn next(&mut self) -> Option<Self::Item> {
        while let Some((number, line)) = self.next_line() {
            if !self.header_line(line) {
                return Some(self.parse_interval(number, line));
            }
        }
        None
    }
}

/// Which intervals of a log to sum: a tag (`None`: untagged lines only, as HdrHistogram's
/// log processor does without `-tag`) and a time window (intervals that *start* inside
/// `[from, to)`, in the same seconds as [`Interval::start`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Selection<'s> {
    /// Tag to select; `None` selects untagged intervals.
    pub tag: Option<&'s str>,
    /// Earliest start, inclusive.
    pub from: Option<f64>,
    /// Latest start, exclusive.
    pub to: Option<f64>,
}

impl Selection<'_> {
    /// Whether `interval` is selected.
    pub fn matches(&self, interval: &Interval) -> bool {
        interval.tag.as_deref() == self.tag
            && self.from.is_none_or(|f| interval.start >= f)
            && self.to.is_none_or(|t| interval.start < t)
    }
}

/// A running sum of decoded histograms whose range grows as needed, so intervals with
/// different ranges add without any count landing in overflow. Histograms of another
/// precision are re-binned at their buckets' midpoints into the first one's precision.
#[derive(Clone, Debug, Default)]
pub struct Accumulator {
    sum: Option<Histogram<u64, Vec<u64>>>,
    intervals: usize,
    first_start: Option<f64>,
    last_end: Option<f64>,
}

impl Accumulator {
    /// An empty sum.
    pub fn new() -> Self {
        Self::default()
    }

    /// Add one interval.
    pub fn add_interval(&mut self, interval: &Interval) -> Result<(), V2Error> {
        self.add(&interval.histogram)?;
        self.first_start = Some(
            self.first_start
                .map_or(interval.start, |s| s.min(interval.start)),
        );
        self.last_end = Some(
            self.last_end
                .map_or(interval.end(), |e| e.max(interval.end())),
        );
        Ok(())
    }

    /// Add one histogram.
    pub fn add(&mut self, h: &Histogram<u64, Vec<u64>>) -> Result<(), V2Error> {
        self.intervals += 1;
        let top = h.config().max_trackable();
        let grow = match &self.sum {
            None => true,
            Some(s) => s.config().max_trackable() < top,
        };
        if grow {
            let config = match &self.sum {
                Some(s) => s.config().with_max(top),
                None => h.config(),
            };
            let mut bigger = Histogram::new(config).map_err(|e| match e {
                crate::ConfigError::OutOfMemory { bytes } => {
                    V2Error::OutOfMemory(crate::OutOfMemory { bytes })
                }
                _ => V2Error::BadHeader("no Picollo layout for this range"),
            })?;
            if let Some(old) = &self.sum {
                bigger
                    .add(&old.view())
                    .map_err(|_| V2Error::BadHeader("merge of equal layouts failed"))?;
            }
            self.sum = Some(bigger);
        }
        let sum = self.sum.as_mut().expect("set above");
        if sum.layout() == h.layout() {
            sum.add(&h.view())
                .map_err(|_| V2Error::BadHeader("merge of equal layouts failed"))?;
        } else {
            for b in h.view().buckets().filter(|b| b.count != 0) {
                sum.record_n(b.value, b.count);
            }
        }
        Ok(())
    }

    /// The sum so far (`None` before the first histogram).
    pub fn histogram(&self) -> Option<&Histogram<u64, Vec<u64>>> {
        self.sum.as_ref()
    }

    /// The sum, taken out.
    pub fn into_histogram(self) -> Option<Histogram<u64, Vec<u64>>> {
        self.sum
    }

    /// Number of histograms added.
    pub fn intervals(&self) -> usize {
        self.intervals
    }

    /// Earliest start and latest end of the intervals added, if any.
    pub fn time_span(&self) -> Option<(f64, f64)> {
        Some((self.first_start?, self.last_end?))
    }
}

/// Sum the intervals of `log` that `selection` picks; `Ok(None)` when none matches. A line
/// that cannot be read is an error naming it.
pub fn sum_log(log: &str, selection: &Selection<'_>) -> Result<Option<Accumulator>, LogError> {
    let mut acc = Accumulator::new();
    for entry in LogReader::new(log) {
        let interval = entry?;
        if selection.matches(&interval) {
            acc.add_interval(&interval).map_err(|e| LogError {
                line: interval.line,
                kind: LogErrorKind::V2(e),
            })?;
        }
    }
    Ok((acc.intervals() > 0).then_some(acc))
}
