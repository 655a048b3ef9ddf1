//! Monotonic nanoseconds, TSC ticks, the tick frequency, and exact conversions.

use std::sync::OnceLock;

/// Where [`ticks`] come from.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TickSource {
    /// The CPU's tick clock, at [`tick_frequency`] Hz: the time-stamp counter (rdtsc) on
    /// x86-64, the virtual counter (`cntvct_el0`) on arm64.
    Tsc = 0,
    /// `CLOCK_MONOTONIC` nanoseconds (no native TSC helpers on this build): 1 GHz.
    Monotonic = 1,
}

/// The source of this build.
pub const fn tick_source() -> TickSource {
    if cfg!(picollo_native) {
        TickSource::Tsc
    } else {
        TickSource::Monotonic
    }
}

fn clock_nanos(clock: libc::clockid_t) -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a live, writable timespec; the clock ids we pass exist on Linux.
    let rc = unsafe { libc::clock_gettime(clock, &mut ts) };
    if rc != 0 {
        return 0;
    }
    (ts.tv_sec as u64)
        .saturating_mul(1_000_000_000)
        .saturating_add(ts.tv_nsec as u64)
}

/// `CLOCK_MONOTONIC` in nanoseconds (through the vDSO: no system call).
#[inline]
pub fn monotonic_nanos() -> u64 {
    clock_nanos(libc::CLOCK_MONOTONIC)
}

/// Tick readers: the native TSC read named, or [`monotonic_nanos`] without `native/`.
macro_rules! ticks {
    ($($(#[$doc:meta])* $name:ident => $native:ident;)+) => {$(
        $(#[$doc])*
        #[inline]
        pub fn $name() -> u64 {
            #[cfg(picollo_native)]
            return crate::native::$native();
            #[cfg(not(picollo_native))]
            return monotonic_nanos();
        }
    )+};
}

ticks! {
    /// Ticks now, unserialized (the cheapest read).
    ticks => ticks;
    /// Ticks at the start of a region: earlier instructions complete first (`lfence; rdtsc`,
    /// or `isb; mrs cntvct_el0`).
    ticks_begin => ticks_begin;
    /// Ticks at the end of a region: the region completes first and later instructions wait
    /// (`rdtscp; lfence`, or `isb; mrs cntvct_el0; isb`).
    ticks_end => ticks_end;
}

/// Ticks and the CPU they were read on: `rdtscp` and its IA32_TSC_AUX (which Linux sets to
/// the CPU number) on x86-64; the end-of-region ticks and `sched_getcpu` elsewhere.
#[inline]
pub fn ticks_and_cpu() -> (u64, u32) {
    #[cfg(all(picollo_native, target_arch = "x86_64"))]
    {
        let (t, aux) = crate::native::rdtscp();
        (t, aux & 0xFFF)
    }
    #[cfg(not(all(picollo_native, target_arch = "x86_64")))]
    {
        let t = ticks_end();
        // SAFETY: no arguments, no memory.
        let cpu = unsafe { libc::sched_getcpu() };
        (t, cpu.max(0) as u32)
    }
}

/// Ticks per second: 10^9 for the monotonic source; `cntfrq_el0` for arm64's virtual
/// counter; for x86-64's TSC, measured once against `CLOCK_MONOTONIC_RAW` over ~20 ms (the
/// first call takes that long).
pub fn tick_frequency() -> u64 {
    static FREQUENCY: OnceLock<u64> = OnceLock::new();
    *FREQUENCY.get_or_init(|| match tick_source() {
        TickSource::Monotonic => 1_000_000_000,
        TickSource::Tsc => cpu_tick_frequency(),
    })
}

/// The frequency arm64 states in `cntfrq_el0` (measured when it states 0).
#[cfg(all(picollo_native, target_arch = "aarch64"))]
fn cpu_tick_frequency() -> u64 {
    match crate::native::tick_frequency() {
        0 => measure_tsc_frequency(),
        hz => hz,
    }
}

/// The TSC's frequency, measured.
#[cfg(not(all(picollo_native, target_arch = "aarch64")))]
fn cpu_tick_frequency() -> u64 {
    measure_tsc_frequency()
}

fn measure_tsc_frequency() -> u64 {
    // Bracket each clock read by two tick reads and keep the tightest bracket: the clock
    // read sits between them.
    let sample = || {
        let mut best = (u64::MAX, 0, 0);
        for _ in 0..5 {
            let t0 = ticks_begin();
            let ns = clock_nanos(libc::CLOCK_MONOTONIC_RAW);
            let t1 = ticks_end();
            let width = t1.wrapping_sub(t0);
            if width < best.0 {
                best = (width, t0 + width / 2, ns);
            }
        }
        (best.1, best.2)
    };
    let (t0, n0) = sample();
    std::thread::sleep(std::time::Duration::from_millis(20));
    let (t1, n1) = sample();
    let (dt, dn) = (t1.wrapping_sub(t0), n1.wrapping_sub(n0));
    if dn == 0 || dt == 0 {
        return 1_000_000_000; // a clock that did not move: pretend 1 GHz rather than divide by 0
    }
    u64::try_from(dt as u128 * 1_000_000_000 / dn as u128).unwrap_or(u64::MAX)
}

/// Consecutive reads [`tick_step`] takes.
const STEP_READS: usize = 20_000;

/// The clock's step: the least amount by which [`ticks`] moves, in ticks. A tick clock may
/// count in steps of many ticks (some hosts update the time-stamp counter tens of ticks at
/// a time, a few nanoseconds apart; a coarse `CLOCK_MONOTONIC` counts in microseconds), and
/// a time is then known only to within that step, whatever the frequency says. Measured once
/// (the first call takes about a millisecond) from consecutive reads a varying distance
/// apart ([`step_of`]); 1 for a clock that moves by every tick.
pub fn tick_step() -> u64 {
    static STEP: OnceLock<u64> = OnceLock::new();
    *STEP.get_or_init(|| {
        let mut deltas = Vec::with_capacity(STEP_READS);
        let mut previous = ticks();
        for i in 0..STEP_READS {
            // A varying wait between reads, so that a read that always costs the same number
            // of ticks is not taken for a step.
            for j in 0..i % 13 {
                std::hint::black_box(j);
            }
            let now = ticks();
            deltas.push(now.wrapping_sub(previous));
            previous = now;
        }
        step_of(&deltas)
    })
}

/// The step of a clock from the differences of its consecutive reads, taken a varying
/// distance apart: the largest `s` such that nearly all differences above 0 (98 % of them)
/// lie within a tick of a multiple of `s`, tried for each difference that makes up 1 % of
/// them or more and its neighbours, from 4 (below, every difference is within a tick of a
/// multiple); 1 where none is. A clock that moves by every tick gives
/// differences spread over every value, of which no large `s` holds most; one that moves in
/// steps gives multiples of its step, give or take the tick by which a step may fall short
/// where its length is not a whole number of ticks.
pub fn step_of(deltas: &[u64]) -> u64 {
    let moved: Vec<u64> = deltas.iter().copied().filter(|&d| d > 0).collect();
    let mut sorted = moved.clone();
    sorted.sort_unstable();
    let common = sorted
        .chunk_by(|x, y| x == y)
        .filter(|run| run.len() * 100 >= moved.len())
        .map(|run| run[0]);
    let candidates = common.flat_map(|d| [d - 1, d, d + 1]);
    let holds = |s: u64| {
        let near = moved.iter().filter(|&&d| (d % s).min(s - d % s) <= 1);
        s >= 4 && near.count() * 100 >= moved.len() * 98
    };
    candidates.filter(|&s| holds(s)).max().unwrap_or(1)
}

/// `ticks × per_second / frequency`, exact (rounded down) and saturating, for any `ticks`:
/// whole seconds and the remainder are converted separately, so nothing overflows before
/// the result itself would (10^6 s at 5 GHz is fine).
#[inline]
pub fn convert_ticks(ticks: u64, frequency: u64, per_second: u64) -> u64 {
    if frequency == 0 {
        return 0;
    }
    let (seconds, rest) = (ticks / frequency, ticks % frequency);
    let fraction = match rest.checked_mul(per_second) {
        Some(p) => p / frequency,
        None => (rest as u128 * per_second as u128 / frequency as u128) as u64,
    };
    seconds.saturating_mul(per_second).saturating_add(fraction)
}

/// Ticks → nanoseconds at [`tick_frequency`].
#[inline]
pub fn ticks_to_nanos(ticks: u64) -> u64 {
    convert_ticks(ticks, tick_frequency(), 1_000_000_000)
}

/// Ticks → microseconds at [`tick_frequency`].
#[inline]
pub fn ticks_to_micros(ticks: u64) -> u64 {
    convert_ticks(ticks, tick_frequency(), 1_000_000)
}

/// Ticks → milliseconds at [`tick_frequency`].
#[inline]
pub fn ticks_to_millis(ticks: u64) -> u64 {
    convert_ticks(ticks, tick_frequency(), 1_000)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clock_of_coarse_steps_is_told_from_one_of_fine_ones() {
        // A counter moving about 25.96 ticks at a time (steps of 26, now and then 25, and a
        // correction of 1), read at varying distances: the reads of a host seen here.
        let mut coarse: Vec<u64> = (0..900).map(|i| 26 * (1 + i % 2)).collect();
        coarse.extend(
            [1; 45]
                .iter()
                .chain(&[25; 40])
                .chain(&[51; 5])
                .chain(&[0; 9]),
        );
        assert_eq!(step_of(&coarse), 26);
        // A few differences that are no multiple (an interrupt between two reads) change
        // nothing; many do.
        coarse.extend([700, 1234, 9999]);
        assert_eq!(step_of(&coarse), 26);
        coarse.extend([37; 60]);
        assert_eq!(step_of(&coarse), 1);
        // Reads that cost 20 to 34 ticks of a clock that moves by every tick.
        let fine: Vec<u64> = (0..1000).map(|i| 20 + i % 15).collect();
        assert_eq!(step_of(&fine), 1);
        // A clock that did not move between reads, and no reads at all.
        assert_eq!(step_of(&[0; 50]), 1);
        assert_eq!(step_of(&[]), 1);
        // Steps of 1 µs (a coarse CLOCK_MONOTONIC in nanoseconds), with reads inside a step.
        let micro: Vec<u64> = (0..1000).map(|i| 1000 * (i % 4)).collect();
        assert_eq!(step_of(&micro), 1000);
    }

    #[test]
    fn this_clock_has_a_step() {
        let step = tick_step();
        // Whatever the host, a step is at least a tick and far below a millisecond.
        assert!(step >= 1 && convert_ticks(step, tick_frequency(), 1_000_000_000) < 1_000_000);
        println!(
            "tick step: {step} ticks ({} ps)",
            convert_ticks(step, tick_frequency(), 1_000_000_000_000)
        );
    }

    #[test]
    fn conversion_does_not_overflow_at_a_million_seconds() {
        for freq in [
            1_000_000_000u64,
            2_999_999_998,
            3_700_000_000,
            5_000_000_000,
        ] {
            let ticks = freq * 1_000_000 + freq / 2; // 10^6 s and a half
            assert_eq!(
                convert_ticks(ticks, freq, 1_000_000_000),
                1_000_000_500_000_000
            );
            assert_eq!(convert_ticks(ticks, freq, 1_000_000), 1_000_000_500_000);
            assert_eq!(convert_ticks(ticks, freq, 1_000), 1_000_000_500);
            // The naive ticks × 10^9 overflows u64 here: that is the bug we avoid.
            assert!(ticks.checked_mul(1_000_000_000).is_none());
        }
    }

    #[test]
    fn conversion_is_exact_against_128_bit_math() {
        let freq = 2_445_406_000u64;
        for ticks in [
            0,
            1,
            999,
            freq - 1,
            freq,
            freq + 1,
            123_456_789_012_345,
            u64::MAX,
        ] {
            let exact = ticks as u128 * 1_000_000_000 / freq as u128;
            let expect = u64::try_from(exact).unwrap_or(u64::MAX);
            assert_eq!(convert_ticks(ticks, freq, 1_000_000_000), expect, "{ticks}");
        }
        assert_eq!(
            convert_ticks(u64::MAX, 1, 1_000_000_000),
            u64::MAX,
            "saturates"
        );
        assert_eq!(convert_ticks(5, 0, 1_000), 0, "no division by zero");
    }

    #[test]
    fn clocks_move_forward_and_the_frequency_is_plausible() {
        let (n0, t0) = (monotonic_nanos(), ticks());
        std::thread::sleep(std::time::Duration::from_millis(2));
        let (n1, t1) = (monotonic_nanos(), ticks());
        assert!(n1 > n0 && t1 > t0);
        let f = tick_frequency();
        assert!((1_000_000..=20_000_000_000).contains(&f), "{f} Hz");
        // Two ms of ticks convert to about 2 ms (sleep never returns early; half is slack for a
        // frequency measured on a busy machine).
        assert!(
            ticks_to_micros(t1 - t0) >= 1_000,
            "{}",
            ticks_to_micros(t1 - t0)
        );
    }
}
