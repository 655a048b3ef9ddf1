//! Every record path counts every value where the plain record does: a drawn configuration
//! (relative error, unit, range, width, mode, storage, exact extremes) and values, recorded
//! through `DynHistogram::record`, its `record_fn`, the portable record function,
//! `record_n`, `record_many`, `record_corrected` (interval 0) and the direct path (what the
//! C header's inline recorder does with it), must leave the same counters, the same
//! underflow, overflow and saturated counts and the same exact extremes; and `record` the
//! same as the plain single-threaded `Histogram`'s.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
#[path = "../../core/tests/common/direct.rs"]
mod direct;

use direct::{counts_of_dyn, record_direct, Counts};
use picollo::concurrent::{ApproxPolicy, CounterBits, DynHistogram, Mode, Storage};
use picollo::Config;

#[derive(Arbitrary, Debug)]
struct Input {
    /// Relative error 1e-6 · 10^(5 · error / 65535).
    error: u16,
    /// Lowest discernible value, masked to 0..2^24 (0 and 1 mean unit 1).
    lowest: u32,
    min: u64,
    wide: bool,
    mode: u8,
    sparse: bool,
    extremes: bool,
    values: Vec<(u64, u8)>,
}

fn config(input: &Input) -> Config {
    let e = 1e-6 * 10f64.powf(5.0 * f64::from(input.error) / 65535.0);
    let lowest = u64::from(input.lowest & 0xFF_FFFF).max(1);
    let mut c = Config::new()
        .with_relative_error(e)
        .with_lowest_discernible(lowest)
        .with_range(input.min, u64::MAX);
    while c.storage_len() > 1 << 14 {
        let max = c.max_trackable();
        c = c.with_range(input.min, input.min + (max - input.min) / 4);
    }
    c
}

fn mode(input: &Input) -> Mode {
    match input.mode % 4 {
        0 => Mode::SingleWriter,
        1 => Mode::Interlocked,
        2 => Mode::ThreadLocal,
        _ => Mode::Approximate(ApproxPolicy::new().with_threshold(20)),
    }
}

fn record(path: usize, h: &DynHistogram, values: &[(u64, u64)]) {
    let (f, portable) = (h.record_fn(), h.portable_record_fn());
    let repeated = || values.iter().flat_map(|&(v, n)| (0..n).map(move |_| v));
    match path {
        3 => values.iter().for_each(|&(v, n)| h.record_n(v, n)),
        4 => h.record_many(&repeated().collect::<Vec<_>>()),
        _ => repeated().for_each(|v| match path {
            0 => h.record(v),
            // SAFETY: `h`'s own record functions.
            1 => unsafe { f(h, v) },
            // SAFETY: as above.
            2 => unsafe { portable(h, v) },
            5 => h.record_corrected(v, 0),
            _ => record_direct(h, v),
        }),
    }
}

fuzz_target!(|input: Input| {
    let config = config(&input);
    let shape = config.validate().expect("a drawn configuration is valid");
    let bits = if input.wide {
        CounterBits::U64
    } else {
        CounterBits::U32
    };
    let mode = mode(&input);
    let storage = if input.sparse && mode != Mode::ThreadLocal {
        Storage::Sparse
    } else {
        Storage::Dense
    };
    let extremes = input.extremes && !matches!(mode, Mode::Approximate(_));
    let values: Vec<(u64, u64)> = input
        .values
        .iter()
        .take(512)
        .map(|&(v, n)| (v, u64::from(n % 4)))
        .collect();
    let mut plain = config.build::<u64>().unwrap().with_exact_extremes();
    values
        .iter()
        .for_each(|&(v, n)| (0..n).for_each(|_| plain.record(v)));
    let view = plain.view();
    let cells: Vec<u64> = (0..view.shape().len())
        .map(|i| view.count(i).unwrap())
        .collect();
    let expected: Counts = (
        cells,
        view.outside(),
        plain.exact_extremes().filter(|_| extremes),
    );
    for path in 0..7 {
        let h = DynHistogram::with_storage(shape, bits, mode, storage).unwrap();
        let h = if extremes { h.with_exact_extremes() } else { h };
        record(path, &h, &values);
        assert!(counts_of_dyn(&h) == expected, "path {path} differs from the plain record ({config:?}, {bits:?}, {mode:?}, {storage:?})");
    }
});
