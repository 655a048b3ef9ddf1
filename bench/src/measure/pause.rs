//! Untimed stretches inside a batch: [`pause`] and [`resume`], called from a benchmark's body
//! on the thread that runs it, keep a per-thread total of paused ticks (the time meter's own
//! clock) that [`ClockMeter`](super::meter::ClockMeter) reads at a batch's start and end and
//! subtracts from the batch's time. Pausing while paused and resuming while running do
//! nothing; a batch that ends paused leaves its time out up to its end, and the next batch
//! starts running. Perf counters and other sources count paused work (docs/suites.md).

use core::cell::Cell;

use picollo_perf::time::{ticks_begin, ticks_end};

/// The paused ticks of one thread: their running total, and since when it is paused.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Ledger {
    /// Ticks of the pauses that ended.
    total: u64,
    /// The tick the pause under way began at; `None` while running.
    since: Option<u64>,
    /// How many pauses began (wrapping): a run that saw it grow paused at least once.
    pauses: u64,
}

impl Ledger {
    /// Paused from tick `now`, unless paused already (then the first pause stands).
    pub(crate) fn pause(&mut self, now: u64) {
        if self.since.is_none() {
            self.since = Some(now);
            self.pauses = self.pauses.wrapping_add(1);
        }
    }

    /// Running again from tick `now`: the pause under way adds its ticks (none while
    /// running).
    pub(crate) fn resume(&mut self, now: u64) {
        if let Some(since) = self.since.take() {
            self.total = self.total.wrapping_add(now.wrapping_sub(since));
        }
    }

    /// The total paused ticks up to tick `now`, a pause under way ended there (so that the
    /// next batch starts running).
    pub(crate) fn settle(&mut self, now: u64) -> u64 {
        self.resume(now);
        self.total
    }

    /// Running, with the total as it stands: a batch starts here, whatever came before.
    pub(crate) fn start(&mut self) -> u64 {
        self.since = None;
        self.total
    }
}

thread_local! {
    /// This thread's paused ticks.
    static LEDGER: Cell<Ledger> = const {
        Cell::new(Ledger {
            total: 0,
            since: None,
            pauses: 0,
        })
    };
}

/// `f` on this thread's ledger; nothing once the thread's locals are gone (its exit).
fn with_ledger<T: Default>(f: impl FnOnce(&mut Ledger) -> T) -> T {
    LEDGER
        .try_with(|cell| {
            let mut ledger = cell.get();
            let out = f(&mut ledger);
            cell.set(ledger);
            out
        })
        .unwrap_or_default()
}

/// Stops the clock of the batch running on this thread: what runs from here to
/// [`resume`] (or to the batch's end) is left out of its time. Pausing while paused does
/// nothing. Its cost is one tick read (`rdtscp; lfence`), and a pause/resume pair leaves
/// about 20 ns in the batch's time (docs/suites.md, "Untimed stretches"). Perf counters
/// still count what runs paused.
///
/// ```
/// # let mut inputs = vec![3u64, 1, 2];
/// picollo_bench::pause();
/// inputs.sort(); // setup, untimed
/// picollo_bench::resume();
/// ```
#[inline]
pub fn pause() {
    let now = ticks_end();
    with_ledger(|l| l.pause(now));
}

/// Starts again the clock [`pause`] stopped (`lfence; rdtsc`); resuming while running does
/// nothing.
#[inline]
pub fn resume() {
    let now = ticks_begin();
    with_ledger(|l| l.resume(now));
}

/// Paused until dropped: [`pause`] now, [`resume`] when the guard goes (a panic's unwinding
/// included).
///
/// ```
/// let input = {
///     let _untimed = picollo_bench::paused();
///     vec![7u8; 4096] // built outside the batch's time
/// };
/// # drop(input);
/// ```
#[must_use = "the pause ends when the guard is dropped"]
pub fn paused() -> Paused {
    pause();
    Paused { _private: () }
}

/// The guard [`paused`] returns: resumes the clock when dropped.
#[derive(Debug)]
pub struct Paused {
    _private: (),
}

impl Drop for Paused {
    fn drop(&mut self) {
        resume();
    }
}

/// This thread's paused ticks up to tick `now` (a pause under way ended there): what a
/// batch's time leaves out is its growth from [`started`].
pub(crate) fn paused_until(now: u64) -> u64 {
    with_ledger(|l| l.settle(now))
}

/// How many pauses this thread began (wrapping): a run compares it before and after.
pub(crate) fn pauses() -> u64 {
    with_ledger(|l| l.pauses)
}

/// This thread's paused ticks as a batch starts, running.
pub(crate) fn started() -> u64 {
    with_ledger(Ledger::start)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pair_adds_the_ticks_between_them() {
        let mut l = Ledger::default();
        let at_start = l.start();
        l.pause(100);
        l.resume(130);
        l.pause(200);
        l.resume(205);
        assert_eq!(l.settle(300) - at_start, 35);
    }

    #[test]
    fn pausing_while_paused_keeps_the_first_pause_and_resuming_while_running_does_nothing() {
        let mut l = Ledger::default();
        l.resume(50);
        l.pause(100);
        l.pause(120);
        l.resume(150);
        l.resume(170);
        assert_eq!(l.settle(400), 50);
        assert_eq!(l.pauses, 1, "the second pause began none");
    }

    #[test]
    fn a_batch_ending_paused_leaves_out_up_to_its_end_and_the_next_starts_running() {
        let mut l = Ledger::default();
        let first = l.start();
        l.pause(100);
        let end = l.settle(180);
        assert_eq!(end - first, 80);
        let second = l.start();
        assert_eq!(l.settle(500) - second, 0, "the second batch ran unpaused");
    }

    #[test]
    fn a_pause_left_open_outside_a_batch_is_dropped_as_the_next_starts() {
        let mut l = Ledger::default();
        l.pause(10);
        let at_start = l.start();
        assert_eq!(l.settle(1_000) - at_start, 0);
    }

    #[test]
    fn the_total_wraps_without_losing_a_difference() {
        let mut l = Ledger {
            total: u64::MAX - 5,
            ..Ledger::default()
        };
        let at_start = l.start();
        l.pause(u64::MAX - 2);
        l.resume(7);
        assert_eq!(l.settle(9).wrapping_sub(at_start), 10);
    }
}
