//! The line a suite's run redraws on a terminal while a benchmark runs — which benchmark,
//! its round out of the rounds, the time since it started — and the lines that land for
//! good: the live line is cleared before each, so a landed line never shares its row. Where
//! the live line's output is not a terminal (a CI log), nothing of it is written; the
//! landed lines are written all the same.

use std::io::{self, IsTerminal, Stderr, Write};
use std::string::String;
use std::time::Instant;

/// The widest benchmark name the live line shows (a longer one is cut): a live line that
/// wraps cannot be redrawn in place.
const NAME_WIDTH: usize = 40;

/// Erase the row the cursor is on and go back to its start (carriage return, then ANSI's
/// "erase in line", whole line).
const CLEAR: &str = "\r\x1b[2K";

/// A live line on `W` (stderr) where it is a terminal.
pub(crate) struct Progress<W: Write> {
    live: W,
    terminal: bool,
    /// A live line is on the terminal now.
    drawn: bool,
    /// The benchmark running: its name, which of how many (from 1), and when it started.
    benchmark: String,
    which: (usize, usize),
    started: Instant,
    /// What its last look said: `; look 2 of 8: +0.31 % [-1.20 %, 1.83 %]`.
    so_far: String,
}

impl Progress<Stderr> {
    /// The live line on the standard error, drawn where it is a terminal.
    pub(crate) fn stderr() -> Self {
        let err = io::stderr();
        let terminal = err.is_terminal();
        Progress::new(err, terminal)
    }
}

impl<W: Write> Progress<W> {
    /// The live line on `live`, drawn only where `terminal` says it is one.
    pub(crate) fn new(live: W, terminal: bool) -> Self {
        Progress {
            live,
            terminal,
            drawn: false,
            benchmark: String::new(),
            which: (0, 0),
            started: Instant::now(),
            so_far: String::new(),
        }
    }

    /// Benchmark `name`, the `i`th (from 1) of `n`, starts.
    pub(crate) fn start(&mut self, name: &str, (i, n): (usize, usize)) {
        self.benchmark = name.chars().take(NAME_WIDTH).collect();
        self.which = (i, n);
        self.started = Instant::now();
        self.so_far.clear();
        self.draw("starting");
    }

    /// The running benchmark is in round `round` (from 0) of `rounds`.
    pub(crate) fn round(&mut self, round: usize, rounds: usize) {
        let secs = self.started.elapsed().as_secs_f64();
        let at = std::format!("{}/{rounds} rounds ({secs:.1} s){}", round + 1, self.so_far);
        self.draw(&at);
    }

    /// The running benchmark's look `look` of `looks` gave `change` percent in
    /// `[low, high]`: shown on the live line from its next round on.
    pub(crate) fn looked(
        &mut self,
        (look, looks): (usize, usize),
        (change, low, high): (f64, f64, f64),
    ) {
        self.so_far =
            std::format!("; look {look} of {looks}: {change:+.2} % [{low:.2} %, {high:.2} %]");
    }

    /// Write `text` (whole lines) to `out` for good, the live line cleared first.
    pub(crate) fn land(&mut self, out: &mut dyn Write, text: &str) -> io::Result<()> {
        self.clear();
        out.write_all(text.as_bytes())?;
        out.flush()
    }

    /// Take the live line off the terminal.
    pub(crate) fn clear(&mut self) {
        if self.drawn {
            // The live line is a courtesy: a terminal that refuses it does not stop the run.
            let _ = self.live.write_all(CLEAR.as_bytes());
            let _ = self.live.flush();
            self.drawn = false;
        }
    }

    /// Draw the live line: `[i/n] benchmark: what`, over the one before.
    fn draw(&mut self, what: &str) {
        if !self.terminal {
            return;
        }
        let (i, n) = self.which;
        let line = std::format!("{CLEAR}[{i}/{n}] {}: {what}", self.benchmark);
        let _ = self.live.write_all(line.as_bytes());
        let _ = self.live.flush();
        self.drawn = true;
    }
}

impl<W: Write> Drop for Progress<W> {
    /// A run that stops (an error, an early return) leaves no live line behind.
    fn drop(&mut self) {
        self.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::RefCell;
    use std::rc::Rc;
    use std::vec::Vec;

    /// One buffer that several writers share, so that the order of their writes shows.
    #[derive(Clone, Default)]
    struct Shared(Rc<RefCell<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0.borrow_mut().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    impl Shared {
        fn text(&self) -> String {
            String::from_utf8(self.0.borrow().clone()).unwrap()
        }
    }

    /// Two benchmarks' runs as a suite tells them: a start, rounds, a landed line each.
    fn run_two(p: &mut Progress<Shared>, out: &mut dyn Write) {
        for (i, name) in ["sum 1000", "spin 200"].into_iter().enumerate() {
            p.start(name, (i + 1, 2));
            for r in 0..3 {
                p.round(r, 3);
                p.looked((r + 1, 3), (0.5, -1.25, 2.5));
            }
            p.land(out, &std::format!("verdict: {name}\n")).unwrap();
        }
    }

    #[test]
    fn nothing_of_the_live_line_is_written_where_it_is_not_a_terminal() {
        let (err, mut out) = (Shared::default(), Shared::default());
        let mut p = Progress::new(err.clone(), false);
        run_two(&mut p, &mut out);
        p.clear();
        assert_eq!(err.text(), "");
        assert_eq!(out.text(), "verdict: sum 1000\nverdict: spin 200\n");
    }

    #[test]
    fn the_live_line_is_cleared_before_each_landed_line() {
        let both = Shared::default();
        let mut p = Progress::new(both.clone(), true);
        run_two(&mut p, &mut both.clone());
        let text = both.text();
        assert!(text.contains("[1/2] sum 1000: 3/3 rounds ("), "{text:?}");
        // Each round after a look shows the interval so far; a new benchmark starts bare.
        assert!(
            text.contains(" s); look 2 of 3: +0.50 % [-1.25 %, 2.50 %]"),
            "{text:?}"
        );
        assert!(
            text.contains("[2/2] spin 200: 1/3 rounds (")
                && !text.contains("spin 200: 1/3 rounds (0.0 s); look"),
            "{text:?}"
        );
        let fresh = text
            .find("[2/2] spin 200: 1/3 rounds (")
            .expect("the new benchmark's round");
        let drawn = &text[fresh..];
        let drawn = &drawn[..drawn.find(CLEAR).unwrap_or(drawn.len())];
        assert!(!drawn.contains("look"), "{drawn:?}");
        for name in ["sum 1000", "spin 200"] {
            let line = std::format!("verdict: {name}\n");
            let at = text.find(&line).expect("the landed line");
            assert!(text[..at].ends_with(CLEAR), "{text:?}");
        }
        let first = text.find("verdict: sum 1000").unwrap();
        assert!(first < text.find("[2/2] spin 200").unwrap(), "{text:?}");
    }

    #[test]
    fn a_long_name_is_cut_so_the_live_line_does_not_wrap() {
        let err = Shared::default();
        let mut p = Progress::new(err.clone(), true);
        p.start(&"x".repeat(200), (1, 1));
        let shown = err.text().matches('x').count();
        assert_eq!(shown, NAME_WIDTH);
    }
}
