//! Reading an input: a file or `-` (stdin), holding an interval log, one base64 V2
//! histogram, or the raw bytes of one V2 histogram (plain or compressed). Which one is
//! decided from the content, not the file name.

use std::io::{IsTerminal, Read};

use indicatif::{ProgressBar, ProgressStyle};
use picollo::hdr::{self, Interval, LogReader};

use crate::error::Failure;

/// Inputs at least this large show a progress bar while they are decoded (when stderr is a
/// terminal).
const PROGRESS_BYTES: usize = 8 << 20;

/// One input, read whole.
pub struct Input {
    /// The name errors and legends use: the path as given, or `<stdin>`.
    pub name: String,
    content: Content,
}

enum Content {
    /// The text of an interval log.
    Log(String),
    /// A single histogram (base64 or raw V2): one untagged interval at time 0, length 0.
    Single(Box<Interval>),
}

impl Input {
    /// Read `path` (`-` for stdin) and tell what it holds.
    pub fn read(path: &str) -> Result<Input, Failure> {
        let (name, bytes) = if path == "-" {
            let mut bytes = Vec::new();
            std::io::stdin()
                .lock()
                .read_to_end(&mut bytes)
                .map_err(|e| Failure::io("<stdin>", &e))?;
            ("<stdin>".to_string(), bytes)
        } else {
            let bytes = std::fs::read(path).map_err(|e| Failure::io(path, &e))?;
            (path.to_string(), bytes)
        };
        let content = detect(&name, bytes)?;
        Ok(Input { name, content })
    }

    /// Whether this input is a single histogram rather than a log.
    pub fn is_single(&self) -> bool {
        matches!(self.content, Content::Single(_))
    }

    /// The intervals, in file order, each decoded when reached.
    pub fn intervals(&self) -> Intervals<'_> {
        match &self.content {
            Content::Log(text) => {
                let progress = (text.len() >= PROGRESS_BYTES && std::io::stderr().is_terminal())
                    .then(|| progress_bar(&self.name, text));
                Intervals {
                    name: &self.name,
                    source: Source::Log(LogReader::new(text)),
                    origin: None,
                    progress,
                }
            }
            Content::Single(interval) => Intervals {
                name: &self.name,
                source: Source::Single(Some(interval)),
                origin: Some(0.0),
                progress: None,
            },
        }
    }
}

fn progress_bar(name: &str, text: &str) -> ProgressBar {
    let lines = text.bytes().filter(|&b| b == b'\n').count() as u64;
    let bar = ProgressBar::new(lines.max(1));
    let style = ProgressStyle::with_template("{msg} [{bar:40}] {pos}/{len} lines ({eta})")
        .expect("the template is valid")
        .progress_chars("=> ");
    bar.set_style(style);
    bar.set_message(name.to_string());
    bar
}

/// The bytes of a V2 blob start with a cookie 0x1c8493xx (big-endian); in base64 that is
/// "HIST". Anything else is taken to be a log.
fn detect(name: &str, bytes: Vec<u8>) -> Result<Content, Failure> {
    if bytes.starts_with(&[0x1c, 0x84, 0x93]) {
        let decoded = hdr::decode(&bytes).map_err(|e| Failure::format(format!("{name}: {e}")))?;
        return Ok(Content::Single(Box::new(single(decoded))));
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        Failure::format(format!(
            "{name}: not an interval log nor a V2 histogram (byte {} is not UTF-8 text)",
            e.utf8_error().valid_up_to()
        ))
    })?;
    let trimmed = text.trim_start_matches('\u{feff}').trim();
    if trimmed.starts_with("HIST") && !trimmed.contains(',') {
        // One base64 histogram, perhaps wrapped over several lines.
        let joined: String = trimmed.split_ascii_whitespace().collect();
        let decoded =
            hdr::decode_base64(&joined).map_err(|e| Failure::format(format!("{name}: {e}")))?;
        return Ok(Content::Single(Box::new(single(decoded))));
    }
    Ok(Content::Log(text))
}

fn single(decoded: hdr::Decoded) -> Interval {
    let max = hdr::interval_max(&decoded.histogram.view()) as f64;
    Interval {
        line: 1,
        tag: None,
        start: 0.0,
        length: 0.0,
        max,
        histogram: decoded.histogram,
        significant_digits: decoded.significant_digits,
    }
}

enum Source<'a> {
    Log(LogReader<'a>),
    Single(Option<&'a Interval>),
}

/// The intervals of an input; errors name the input and the line.
pub struct Intervals<'a> {
    name: &'a str,
    source: Source<'a>,
    origin: Option<f64>,
    progress: Option<ProgressBar>,
}

impl Intervals<'_> {
    /// The time `--from`/`--to` count from: the log's `StartTime`, or else the start of its
    /// first interval (0 for a single histogram). Known once the first interval is read.
    pub fn origin(&self) -> Option<f64> {
        self.origin
    }

    /// The log's `StartTime` and `BaseTime` headers, as read so far.
    pub fn header_times(&self) -> (Option<f64>, Option<f64>) {
        match &self.source {
            Source::Log(r) => (r.start_time(), r.base_time()),
            Source::Single(_) => (None, None),
        }
    }
}

impl Iterator for Intervals<'_> {
    type Item = Result<Interval, Failure>;

    fn next(&mut self) -> Option<Self::Item> {
        let item = match &mut self.source {
            Source::Single(one) => one.take().cloned().map(Ok),
            Source::Log(reader) => {
                let item = reader
                    .next()
                    .map(|r| r.map_err(|e| Failure::format(format!("{}: {e}", self.name))));
                if let Some(Ok(interval)) = &item {
                    if self.origin.is_none() {
                        self.origin = Some(reader.start_time().unwrap_or(interval.start));
                    }
                    if let Some(bar) = &self.progress {
                        bar.set_position(interval.line as u64);
                    }
                }
                item
            }
        };
        if item.is_none() {
            if let Some(bar) = self.progress.take() {
                bar.finish_and_clear();
            }
        }
        item
    }
}

impl Drop for Intervals<'_> {
    fn drop(&mut self) {
        if let Some(bar) = self.progress.take() {
            bar.finish_and_clear();
        }
    }
}
