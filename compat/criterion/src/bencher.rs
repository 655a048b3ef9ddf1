//! [`Bencher`]: runs a benchmark's routine the iterations the runner asks for, timing the
//! routine alone (a setup's inputs are made before the clock starts, a large output dropped
//! after it stops).

use std::hint::black_box;

use crate::clock;
use crate::measurement::{Measurement, WallTime};

/// How many inputs a batched routine's setup makes before the clock starts: the inputs of
/// one timed stretch live in memory together.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BatchSize {
    /// Inputs that fit in memory by the thousand: a tenth of the iterations at a time.
    SmallInput,
    /// Large inputs: a thousandth of the iterations at a time.
    LargeInput,
    /// One input at a time, the clock read around each routine call.
    PerIteration,
    /// The iterations in this many stretches.
    NumBatches(u64),
    /// This many iterations a stretch.
    NumIterations(u64),
}

impl BatchSize {
    /// The iterations a stretch of `iters` holds (at least one).
    pub(crate) fn per_stretch(self, iters: u64) -> u64 {
        let of = |parts: u64| iters.div_ceil(parts.max(1));
        let n = match self {
            BatchSize::SmallInput => of(10),
            BatchSize::LargeInput => of(1000),
            BatchSize::PerIteration => 1,
            BatchSize::NumBatches(parts) => of(parts),
            BatchSize::NumIterations(n) => n,
        };
        n.max(1)
    }
}

/// What a benchmark's closure gets: the routine it is handed runs the iterations asked for,
/// and only the routine is timed.
pub struct Bencher<'a, M: Measurement = WallTime> {
    pub(crate) iters: u64,
    pub(crate) timed: bool,
    pub(crate) measurement: &'a M,
}

/// A timed stretch begun: the tick it started at, and the custom measurement's reading.
pub(crate) struct Stretch<I> {
    start: u64,
    measured: Option<I>,
}

impl<'a, M: Measurement> Bencher<'a, M> {
    pub(crate) fn new(iters: u64, measurement: &'a M) -> Self {
        Bencher {
            iters,
            timed: false,
            measurement,
        }
    }

    /// Whether the closure called one of the `iter` methods.
    pub(crate) fn timed(&self) -> bool {
        self.timed
    }

    /// Whether the measurement is one beside time (not [`WallTime`]).
    fn custom(&self) -> bool {
        let m = self.measurement;
        m.picollo_time(&m.zero()).is_none()
    }

    /// A timed stretch starts: the custom measurement read, then the clock.
    pub(crate) fn begin(&self) -> Stretch<M::Intermediate> {
        let measured = self.custom().then(|| self.measurement.start());
        Stretch {
            start: clock::start(),
            measured,
        }
    }

    /// The stretch `s` ends: its time, and its custom measurement's value, added.
    pub(crate) fn end(&self, s: Stretch<M::Intermediate>) {
        clock::add_since(s.start);
        if let Some(i) = s.measured {
            let value = self.measurement.end(i);
            clock::add_measured(self.measurement.to_f64(&value));
        }
    }

    /// What an `iter_custom` routine begun at tick `start` said its iterations cost: a
    /// time where the measurement is time, else the counter's figure, and the time the
    /// routine took by the clock.
    pub(crate) fn add_around(&self, start: u64, value: &M::Value) {
        if let Some(took) = self.measurement.picollo_time(value) {
            clock::add(took);
        } else {
            clock::add_since(start);
            clock::add_measured(self.measurement.to_f64(value));
        }
    }

    /// Time `routine`, its output dropped inside the time.
    pub fn iter<O, R: FnMut() -> O>(&mut self, mut routine: R) {
        self.timed = true;
        let stretch = self.begin();
        for _ in 0..self.iters {
            black_box(routine());
        }
        self.end(stretch);
    }

    /// Time `routine`, its outputs kept and dropped after the time.
    pub fn iter_with_large_drop<O, R: FnMut() -> O>(&mut self, mut routine: R) {
        self.iter_batched(|| (), |()| routine(), BatchSize::SmallInput);
    }

    /// Time `routine` on inputs `setup` made, each input used once; the setup is not timed.
    pub fn iter_batched<I, O, S, R>(&mut self, mut setup: S, mut routine: R, size: BatchSize)
    where
        S: FnMut() -> I,
        R: FnMut(I) -> O,
    {
        self.timed = true;
        self.stretches(size, |n| {
            let inputs: Vec<I> = (0..n).map(|_| setup()).collect();
            let mut outputs = Vec::with_capacity(inputs.len());
            let stretch = self.begin();
            for input in inputs {
                outputs.push(black_box(routine(black_box(input))));
            }
            self.end(stretch);
            drop(outputs);
        });
    }

    /// Time `routine` on a mutable reference to inputs `setup` made; neither the setup nor
    /// dropping the inputs is timed.
    pub fn iter_batched_ref<I, O, S, R>(&mut self, mut setup: S, mut routine: R, size: BatchSize)
    where
        S: FnMut() -> I,
        R: FnMut(&mut I) -> O,
    {
        self.timed = true;
        self.stretches(size, |n| {
            let mut inputs: Vec<I> = (0..n).map(|_| setup()).collect();
            let mut outputs = Vec::with_capacity(inputs.len());
            let stretch = self.begin();
            for input in &mut inputs {
                outputs.push(black_box(routine(black_box(input))));
            }
            self.end(stretch);
            drop(outputs);
            drop(inputs);
        });
    }

    /// [`Bencher::iter_batched`] one input at a time.
    pub fn iter_with_setup<I, O, S, R>(&mut self, setup: S, routine: R)
    where
        S: FnMut() -> I,
        R: FnMut(I) -> O,
    {
        self.iter_batched(setup, routine, BatchSize::PerIteration);
    }

    /// The cost `routine(iters)` says its `iters` iterations had: it measures them itself
    /// (a [`std::time::Duration`] for [`WallTime`]). For a custom measurement, the figure is the
    /// counter's and the time is read around the routine.
    pub fn iter_custom<R: FnMut(u64) -> M::Value>(&mut self, mut routine: R) {
        self.timed = true;
        let start = clock::start();
        let value = routine(self.iters);
        self.add_around(start, &value);
    }

    /// `stretch(n)` for stretches of `size` that add up to the iterations asked for.
    pub(crate) fn stretches(&self, size: BatchSize, mut stretch: impl FnMut(u64)) {
        let per = size.per_stretch(self.iters);
        let mut left = self.iters;
        while left > 0 {
            let n = per.min(left);
            stretch(n);
            left -= n;
        }
    }
}
