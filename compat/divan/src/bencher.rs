//! [`Bencher`]: what a benchmark function that takes one is handed, as divan's is.
//!
//! Picollo's runner times whole batches: it calls a benchmark's work with `k`, the
//! operations of the batch, and times the call. The benchmark function is that work: each
//! batch calls it, and its `bench` runs the closure `k` times. So what the function does
//! before `bench` (its setup) is timed with the batch, once for `k` operations; the inputs
//! `with_inputs` makes, and their drop after `bench_refs`, run paused
//! ([`picollo_bench::paused`]), outside the batch's time, as divan leaves them out; see the
//! guide (docs/bring-your-suite.md).

use std::marker::PhantomData;

use picollo_bench::{black_box, Throughput};

use crate::counter::{Counter, IntoCounter};

/// Which pass a benchmark's function is called for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pass {
    /// Only to learn its counter: `bench` runs nothing.
    Probe,
    /// A batch of this many operations.
    Run(u64),
}

/// What one call of a benchmark's function learned and does.
#[derive(Debug)]
pub(crate) struct State {
    pub pass: Pass,
    /// The first counter the function declared.
    pub counter: Option<Throughput>,
}

impl State {
    pub fn new(pass: Pass) -> State {
        State {
            pass,
            counter: None,
        }
    }

    /// Operations this pass runs (none for a probe).
    fn ops(&self) -> u64 {
        match self.pass {
            Pass::Probe => 0,
            Pass::Run(k) => k,
        }
    }

    fn declare(&mut self, counter: impl Counter) {
        if self.counter.is_none() {
            self.counter = counter.throughput();
        }
    }
}

/// What a benchmark function is handed: its `bench` runs the benchmarked closure.
pub struct Bencher<'a, 'b, C = BencherConfig> {
    state: &'a mut State,
    config: C,
    _b: PhantomData<&'b ()>,
}

/// A [`Bencher`]'s inputs: none, or the function that makes each (`with_inputs`).
pub struct BencherConfig<G = ()> {
    make: G,
}

impl<'a> Bencher<'a, '_> {
    pub(crate) fn new(state: &'a mut State) -> Self {
        Bencher {
            state,
            config: BencherConfig { make: () },
            _b: PhantomData,
        }
    }
}

impl<'a, 'b> Bencher<'a, 'b> {
    /// Run `benched` once an operation; its output goes through [`black_box`].
    pub fn bench<O, B: Fn() -> O>(self, benched: B) {
        self.bench_local(benched)
    }

    /// [`Bencher::bench`] of a closure that may mutate what it holds.
    pub fn bench_local<O, B: FnMut() -> O>(self, mut benched: B) {
        for _ in 0..self.state.ops() {
            black_box(benched());
        }
    }

    /// Each operation is handed an input `make` makes: see [`Bencher::bench_values`].
    pub fn with_inputs<I, G: FnMut() -> I>(self, make: G) -> Bencher<'a, 'b, BencherConfig<G>> {
        Bencher {
            state: self.state,
            config: BencherConfig { make },
            _b: PhantomData,
        }
    }
}

impl<C> Bencher<'_, '_, C> {
    /// Declare what one operation handles: the benchmark's throughput (its first counter).
    pub fn counter<K: IntoCounter>(self, counter: K) -> Self {
        self.state.declare(counter.into_counter());
        self
    }
}

impl<'a, 'b, I, G: FnMut() -> I> Bencher<'a, 'b, BencherConfig<G>> {
    /// Declare what one operation handles from its input (one input is made for it).
    pub fn input_counter<K: IntoCounter, F: Fn(&I) -> K>(mut self, count: F) -> Self {
        if self.state.counter.is_none() {
            let input = (self.config.make)();
            self.state.declare(count(&input).into_counter());
        }
        self
    }

    /// The batch's inputs, made before its first operation, paused (outside its time).
    fn inputs(&mut self) -> Vec<I> {
        let _untimed = picollo_bench::paused();
        let _uncounted = crate::alloc::uncounted();
        let ops = self.state.ops();
        (0..ops).map(|_| (self.config.make)()).collect()
    }

    /// Run `benched` on an input of its own each operation, taken by value.
    pub fn bench_values<O, B: Fn(I) -> O>(self, benched: B) {
        self.bench_local_values(benched)
    }

    /// Run `benched` on an input of its own each operation, by mutable reference; the
    /// inputs are dropped after the batch's last operation.
    pub fn bench_refs<O, B: Fn(&mut I) -> O>(self, benched: B) {
        self.bench_local_refs(benched)
    }

    /// [`Bencher::bench_values`] of a closure that may mutate what it holds.
    pub fn bench_local_values<O, B: FnMut(I) -> O>(mut self, mut benched: B) {
        for input in self.inputs() {
            black_box(benched(input));
        }
    }

    /// [`Bencher::bench_refs`] of a closure that may mutate what it holds.
    pub fn bench_local_refs<O, B: FnMut(&mut I) -> O>(mut self, mut benched: B) {
        let mut inputs = self.inputs();
        for input in &mut inputs {
            black_box(benched(input));
        }
        let _untimed = picollo_bench::paused();
        let _uncounted = crate::alloc::uncounted();
        drop(inputs);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::counter::{BytesCount, ItemsCount};

    #[test]
    fn a_batch_runs_its_operations_and_a_probe_none() {
        for (pass, want) in [(Pass::Run(5), 5), (Pass::Probe, 0)] {
            let mut state = State::new(pass);
            let mut ran = 0;
            Bencher::new(&mut state).bench_local(|| ran += 1);
            assert_eq!(ran, want);
        }
    }

    #[test]
    fn each_operation_gets_its_own_input() {
        let mut state = State::new(Pass::Run(4));
        let (mut made, mut seen) = (0, Vec::new());
        Bencher::new(&mut state)
            .with_inputs(|| {
                made += 1;
                made
            })
            .bench_local_refs(|x: &mut i32| seen.push(*x));
        assert_eq!(seen, [1, 2, 3, 4]);
    }

    #[test]
    fn the_first_counter_is_the_throughput() {
        let mut state = State::new(Pass::Probe);
        Bencher::new(&mut state)
            .counter(BytesCount::new(64u32))
            .counter(ItemsCount::new(2usize))
            .bench(|| 1);
        assert_eq!(state.counter, Some(Throughput::Bytes(64)));
        let mut state = State::new(Pass::Probe);
        Bencher::new(&mut state)
            .with_inputs(|| vec![0u8; 10])
            .input_counter(|v: &Vec<u8>| ItemsCount::new(v.len()))
            .bench_values(|v| v.len());
        assert_eq!(state.counter, Some(Throughput::Elements(10)));
    }
}
