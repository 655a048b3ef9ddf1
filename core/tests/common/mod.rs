//! Shared helpers for the integration tests: deterministic random numbers, the data
//! distributions, and the exact order statistics the percentiles are checked against.
#![allow(dead_code)]

pub mod counting;
pub mod direct;
pub mod protobuf;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Barrier};
use std::thread::JoinHandle;

use picollo::concurrent::{DynHistogram, Mode};
use picollo::{Config, Histogram};

/// The values behind the committed peer fixtures (interop/fixtures/README.md), with their
/// counts.
pub const FIXTURE_VALUES: [(u64, u64); 8] = [
    (0, 1),
    (1, 2),
    (7, 3),
    (1000, 4),
    (1001, 5),
    (123_456, 6),
    (1_000_000_000, 7),
    (1_000_000_000_000, 8),
];

/// Relative error 1 % over 100 ..= 1,000,000: the histograms several threads record into at
/// once.
pub fn contended_config() -> Config {
    Config::new()
        .with_relative_error(0.01)
        .with_range(100, 1_000_000)
}

/// What thread `t` records at step `i`: spread over `0 .. spread + 2`, past both ends of
/// `contended_config`'s range for a spread above it, threads often hitting the same buckets.
pub fn contended_value(t: usize, i: u64, spread: u64) -> u64 {
    let x = (i.wrapping_mul(2_654_435_761) ^ t as u64) % spread;
    x + i % 3
}

/// `n` log-uniform-ish latencies from 10 µs to about 100 ms, in nanoseconds (a fixed
/// xorshift64 stream), in a histogram of range 0 ..= 1 h at `relative_error`.
pub fn xorshift_latencies(relative_error: f64, n: usize) -> Histogram<u64, Vec<u64>> {
    let mut h: Histogram<u64, Vec<u64>> = Config::new()
        .with_relative_error(relative_error)
        .with_range(0, 3_600_000_000_000)
        .build()
        .unwrap();
    let mut x = 0x2545_f491_4f6c_dd1d_u64;
    for _ in 0..n {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let v = 10_000u64 << (x % 14);
        h.record(v + (x >> 40) % v);
    }
    h
}

/// Threads that did their work and stay alive, parked, until released.
pub struct Parked {
    threads: Vec<JoinHandle<()>>,
    release: Arc<Barrier>,
}

impl Parked {
    /// Starts `n` threads, each running what `work(t)` returns (`t` in `0..n`) and then
    /// parking; returns once every one has done its work.
    pub fn after<W: FnOnce() + Send + 'static>(n: usize, mut work: impl FnMut(usize) -> W) -> Self {
        let done = Arc::new(Barrier::new(n + 1));
        let release = Arc::new(Barrier::new(n + 1));
        let threads = (0..n)
            .map(|t| {
                let (work, done, release) = (work(t), done.clone(), release.clone());
                std::thread::spawn(move || {
                    work();
                    done.wait();
                    release.wait();
                })
            })
            .collect();
        done.wait();
        Parked { threads, release }
    }

    /// Lets the threads end, and joins them.
    pub fn release(self) {
        self.release.wait();
        self.threads.into_iter().for_each(|t| t.join().unwrap());
    }
}

/// `body`'s result, run while another thread records an LCG stream (each value shifted
/// right by `shift`) into `h`; the writer stops when `body` returns.
pub fn while_recording<R>(h: &DynHistogram, shift: u32, body: impl FnOnce() -> R) -> R {
    let done = AtomicBool::new(false);
    std::thread::scope(|s| {
        s.spawn(|| {
            let mut v = 1u64;
            while !done.load(Ordering::Relaxed) {
                v = v.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                h.record(v >> shift);
            }
        });
        let result = body();
        done.store(true, Ordering::Relaxed);
        result
    })
}

// SplitMix64 (next_u64, next_f64: uniform in [0, 1) with 53 random bits), the generator
// the benches use too: small, fast, deterministic, good enough to drive property tests.
#[path = "../../benches/splitmix/mod.rs"]
mod splitmix;
pub use splitmix::SplitMix64;

/// The tests' draws from the stream.
impl SplitMix64 {
    /// `n` doubles whose magnitudes are log-uniform over `10^lowest .. 10^highest`, every
    /// `negative_every`-th one (from the first) negative.
    pub fn signed_log_uniform(
        &mut self,
        n: usize,
        (lowest, highest): (f64, f64),
        negative_every: usize,
    ) -> Vec<f64> {
        (0..n)
            .map(|i| {
                let m = 10f64.powf(self.next_f64() * (highest - lowest) + lowest);
                if i % negative_every == 0 {
                    -m
                } else {
                    m
                }
            })
            .collect()
    }

    /// A value of random magnitude: every bit width `0..=64` equally likely, so small,
    /// medium and huge values all get probed.
    pub fn any_magnitude(&mut self) -> u64 {
        let bits = self.below(65) as u32;
        match bits {
            0 => 0,
            64 => self.next_u64() | (1 << 63),
            b => (self.next_u64() & ((1u64 << b) - 1)) | (1u64 << (b - 1)),
        }
    }
}

/// .NET's `new Random(seed)` (the legacy subtractive generator that seeded instances still
/// use), so the announcement's getting-started data can be regenerated value for value.
pub struct DotNetRandom {
    state: [i32; 56],
    inext: usize,
    inextp: usize,
}

impl DotNetRandom {
    pub fn new(seed: i32) -> Self {
        const MBIG: i32 = i32::MAX;
        let mut a = [0i32; 56];
        let subtraction = if seed == i32::MIN {
            i32::MAX
        } else {
            seed.abs()
        };
        let mut mj = 161_803_398 - subtraction;
        a[55] = mj;
        let mut mk = 1i32;
        for i in 1..55 {
            let ii = (21 * i) % 55;
            a[ii] = mk;
            mk = mj.wrapping_sub(mk);
            if mk < 0 {
                mk += MBIG;
            }
            mj = a[ii];
        }
        for _ in 1..5 {
            for i in 1..56 {
                a[i] = a[i].wrapping_sub(a[1 + (i + 30) % 55]);
                if a[i] < 0 {
                    a[i] += MBIG;
                }
            }
        }
        DotNetRandom {
            state: a,
            inext: 0,
            inextp: 21,
        }
    }

    /// `Random.NextDouble()`.
    pub fn next_f64(&mut self) -> f64 {
        const MBIG: i32 = i32::MAX;
        let i = if self.inext + 1 >= 56 {
            1
        } else {
            self.inext + 1
        };
        let j = if self.inextp + 1 >= 56 {
            1
        } else {
            self.inextp + 1
        };
        let mut r = self.state[i].wrapping_sub(self.state[j]);
        if r == MBIG {
            r -= 1;
        }
        if r < 0 {
            r += MBIG;
        }
        self.state[i] = r;
        self.inext = i;
        self.inextp = j;
        r as f64 * (1.0 / MBIG as f64)
    }
}

/// The announcement's first getting-started distribution:
/// `20000 + (0.5 − r)·1000 + r²·5000`, the deviation cast to an unsigned integer (negative → 0).
pub fn seed_first(rng: &mut DotNetRandom) -> u64 {
    let dev = (0.5 - rng.next_f64()) * 1000.0 + rng.next_f64().powi(2) * 5000.0;
    20_000 + dev as u64
}

/// The announcement's second distribution: `19000 + (0.5 − r)·500 + r³·10000`.
pub fn seed_second(rng: &mut DotNetRandom) -> u64 {
    let dev = (0.5 - rng.next_f64()) * 500.0 + rng.next_f64().powi(3) * 10_000.0;
    19_000 + dev as u64
}

/// The announcement's histogram: relative error 0.01, u32 counters, range 10,000..30,000.
pub fn seed_config() -> Config {
    Config::new()
        .with_relative_error(0.01)
        .with_range(10_000, 30_000)
}

/// The announcement's "Histogram Before": a million values of the first distribution and one
/// value of 40,000 (overflow). Returns the histogram and the generator to go on with.
pub fn seed_before() -> (Histogram<u32, Vec<u32>>, DotNetRandom) {
    let mut h = seed_config().build::<u32>().unwrap();
    let mut rng = DotNetRandom::new(0);
    for _ in 0..1_000_000 {
        h.record(seed_first(&mut rng));
    }
    h.record(40_000);
    (h, rng)
}

/// Data distributions for the order-statistics tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dist {
    /// Uniform over `[0, 2^40)`.
    Uniform,
    /// Exponential with mean 10,000.
    Exponential,
    /// `r³ · 7,716,549,600`: most values small, a long thin tail.
    CubeSkew,
    /// Every value 123,456,789.
    Constant,
    /// Half 1,000, half 1,000,000,000 (in random order).
    TwoPoint,
    /// Pareto with α = 0.7 (infinite mean), capped at `u64::MAX`.
    HeavyTail,
    /// Small exact values `0..300`.
    Small,
}

pub const ALL_DISTS: [Dist; 7] = [
    Dist::Uniform,
    Dist::Exponential,
    Dist::CubeSkew,
    Dist::Constant,
    Dist::TwoPoint,
    Dist::HeavyTail,
    Dist::Small,
];

impl Dist {
    pub fn sample(self, rng: &mut SplitMix64) -> u64 {
        match self {
            Dist::Uniform => rng.below(1 << 40),
            Dist::Exponential => (-(1.0 - rng.next_f64()).ln() * 10_000.0) as u64,
            Dist::CubeSkew => (rng.next_f64().powi(3) * 7_716_549_600.0) as u64,
            Dist::Constant => 123_456_789,
            Dist::TwoPoint => {
                if rng.next_u64() & 1 == 0 {
                    1_000
                } else {
                    1_000_000_000
                }
            }
            // `as` saturates: values past 2^64 become u64::MAX.
            Dist::HeavyTail => (1_000.0 / (1.0 - rng.next_f64()).powf(1.0 / 0.7)) as u64,
            Dist::Small => rng.below(300),
        }
    }

    pub fn data(self, n: usize, seed: u64) -> Vec<u64> {
        let mut rng = SplitMix64(seed ^ (self as u64).wrapping_mul(0xA24B_AED4_963E_E407));
        (0..n).map(|_| self.sample(&mut rng)).collect()
    }
}

/// The count a rank points at, `max(1, ceil(rank / 100 · n))`, computed exactly for ranks
/// with at most three decimals (all the standard ranks).
pub fn exact_rank_count(rank: f64, n: u64) -> u64 {
    let milli = (rank * 1000.0).round() as u128;
    assert!(
        ((milli as f64) / 1000.0 - rank).abs() < 1e-9,
        "rank {rank} has more than three decimals"
    );
    let k = (milli * n as u128).div_ceil(100_000) as u64;
    k.max(1)
}

/// The first storage offset whose cumulative count reaches `target`, and that cumulative
/// count: a percentile's bucket found by walking every count (the reference for the walks
/// that skip).
pub fn first_reaching(counts: &[u64], target: u128) -> (usize, u128) {
    let mut cumulative = 0u128;
    let at = counts
        .iter()
        .position(|&c| {
            cumulative += c as u128;
            cumulative >= target
        })
        .expect("the target is at most the total");
    (at, cumulative)
}

/// The k-th smallest (1-based) of sorted data.
pub fn kth(sorted: &[u64], k: u64) -> u64 {
    sorted[(k - 1) as usize]
}

/// Character widths of each line's `|`-separated cells, for alignment checks.
pub fn cells(line: &str) -> Vec<&str> {
    let inner = line
        .strip_prefix('|')
        .and_then(|l| l.strip_suffix('|'))
        .unwrap_or_else(|| panic!("not a table row: {line:?}"));
    inner.split('|').collect()
}

/// The modes whose cells are read with the seqlock protocol (all but the thread-local one).
pub fn seqlock_modes() -> Vec<Mode> {
    let modes = Mode::ALL.iter().copied();
    modes.filter(|&m| m != Mode::ThreadLocal).collect()
}
