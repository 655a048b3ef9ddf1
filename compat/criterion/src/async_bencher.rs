//! [`AsyncBencher`]: [`Bencher`]'s routines as futures, each stretch of iterations run to its
//! end by an [`AsyncExecutor`] (`Bencher::to_async`). The clock is read inside the future,
//! around the awaited routines alone, as for the Bencher.

use std::future::Future;
use std::hint::black_box;

use crate::measurement::{Measurement, WallTime};
use crate::{AsyncExecutor, BatchSize, Bencher};

/// A [`Bencher`] whose routines return futures, awaited on executor `A`.
pub struct AsyncBencher<'a, 'b, A: AsyncExecutor, M: Measurement = WallTime> {
    b: &'b mut Bencher<'a, M>,
    executor: A,
}

impl<'a, M: Measurement> Bencher<'a, M> {
    /// This Bencher's routines as futures, run on `executor` (`FuturesExecutor`, or
    /// `&runtime` of a runtime that implements [`AsyncExecutor`]).
    pub fn to_async<'b, A: AsyncExecutor>(&'b mut self, executor: A) -> AsyncBencher<'a, 'b, A, M> {
        AsyncBencher { b: self, executor }
    }
}

impl<A: AsyncExecutor, M: Measurement> AsyncBencher<'_, '_, A, M> {
    /// Time `routine`'s future, awaited, its output dropped inside the time.
    pub fn iter<O, R, F>(&mut self, mut routine: R)
    where
        R: FnMut() -> F,
        F: Future<Output = O>,
    {
        self.b.timed = true;
        let (b, iters) = (&*self.b, self.b.iters);
        self.executor.block_on(async {
            let stretch = b.begin();
            for _ in 0..iters {
                black_box(routine().await);
            }
            b.end(stretch);
        });
    }

    /// The cost the future of `routine(iters)` says its `iters` iterations had (as
    /// `Bencher::iter_custom`).
    pub fn iter_custom<R, F>(&mut self, mut routine: R)
    where
        R: FnMut(u64) -> F,
        F: Future<Output = M::Value>,
    {
        self.b.timed = true;
        let (b, iters) = (&*self.b, self.b.iters);
        let start = crate::clock::start();
        let value = self.executor.block_on(routine(iters));
        b.add_around(start, &value);
    }

    /// Time `routine`'s futures, their outputs kept and dropped after the time.
    pub fn iter_with_large_drop<O, R, F>(&mut self, mut routine: R)
    where
        R: FnMut() -> F,
        F: Future<Output = O>,
    {
        self.iter_batched(|| (), |()| routine(), BatchSize::SmallInput);
    }

    /// [`AsyncBencher::iter_batched`] one input at a time.
    pub fn iter_with_setup<I, O, S, R, F>(&mut self, setup: S, routine: R)
    where
        S: FnMut() -> I,
        R: FnMut(I) -> F,
        F: Future<Output = O>,
    {
        self.iter_batched(setup, routine, BatchSize::PerIteration);
    }

    /// Time `routine`'s futures on inputs `setup` made, each input used once; the setup is
    /// not timed.
    pub fn iter_batched<I, O, S, R, F>(&mut self, mut setup: S, mut routine: R, size: BatchSize)
    where
        S: FnMut() -> I,
        R: FnMut(I) -> F,
        F: Future<Output = O>,
    {
        self.b.timed = true;
        let (b, executor) = (&*self.b, &self.executor);
        b.stretches(size, |n| {
            let inputs: Vec<I> = (0..n).map(|_| setup()).collect();
            let mut outputs = Vec::with_capacity(inputs.len());
            executor.block_on(async {
                let stretch = b.begin();
                for input in inputs {
                    outputs.push(black_box(routine(black_box(input)).await));
                }
                b.end(stretch);
            });
            drop(outputs);
        });
    }

    /// Time `routine`'s futures on a mutable reference to inputs `setup` made; neither the
    /// setup nor dropping the inputs is timed.
    pub fn iter_batched_ref<I, O, S, R, F>(&mut self, mut setup: S, mut routine: R, size: BatchSize)
    where
        S: FnMut() -> I,
        R: FnMut(&mut I) -> F,
        F: Future<Output = O>,
    {
        self.b.timed = true;
        let (b, executor) = (&*self.b, &self.executor);
        b.stretches(size, |n| {
            let mut inputs: Vec<I> = (0..n).map(|_| setup()).collect();
            let mut outputs = Vec::with_capacity(inputs.len());
            executor.block_on(async {
                let stretch = b.begin();
                for input in &mut inputs {
                    outputs.push(black_box(routine(black_box(input)).await));
                }
                b.end(stretch);
            });
            drop(outputs);
            drop(inputs);
        });
    }
}
