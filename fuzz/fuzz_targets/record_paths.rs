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
use picollo::concurrent::{ApproxPolicy, CounterBits, DirectKind, DynHistogram, Mode, Storage};
use picollo::Config;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

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

type Counts = (Vec<u64>, [u64; 3], Option<(u64, u64)>);

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

fn counts(h: &DynHistogram) -> Counts {
    let (cells, outside) = h
        .with_view(|v| {
            picollo::dyn_view!(v, v => {
                let cells = (0..v.shape().len()).map(|i| v.count(i).unwrap()).collect();
                (cells, v.outside())
            })
        })
        .unwrap();
    (cells, outside, h.exact_extremes())
}

/// Counts `v` in its cell as the header's inline recorder does, or calls `record`.
fn record_direct(h: &DynHistogram, v: u64) {
    let (path, shape) = (h.direct_path(), h.shape());
    let offset = (shape.layout().index(v) as u64).wrapping_sub(shape.first_index() as u64);
    if path.kind != DirectKind::Call && offset < shape.len() as u64 {
        macro_rules! count {
            ($atomic:ty) => {{
                // SAFETY: `offset` is below `storage_len()` cells of this width, live while
                // `h` is, on the recording thread (DirectPath's contract).
                let cell = unsafe { &*path.cells.cast::<$atomic>().add(offset as usize) };
                let relaxed = Ordering::Relaxed;
                if path.kind == DirectKind::Plain {
                    let c = cell.load(relaxed);
                    if u64::from(c) < path.limit {
                        cell.store(c + 1, relaxed);
                        return;
                    }
                } else if u64::from(cell.fetch_add(1, relaxed)) < path.limit {
                    return;
                } else {
                    cell.fetch_sub(1, relaxed);
                }
            }};
        }
        match h.counter_bits() {
            CounterBits::U32 => count!(AtomicU32),
            CounterBits::U64 => count!(AtomicU64),
        }
    }
    h.record(v);
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
        assert!(counts(&h) == expected, "path {path} differs from the plain record ({config:?}, {bits:?}, {mode:?}, {storage:?})");
    }
});
