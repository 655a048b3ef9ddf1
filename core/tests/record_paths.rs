//! Every record path counts every value where the plain single-threaded record does: for
//! random configurations (relative errors 1e-6..0.1, units up to 2^23, ranges, widths, modes,
//! storages, exact extremes), the `Histogram` of `u32` and `u64` counters (`record`,
//! `record_n`, `record_corrected` with interval 0) and the `DynHistogram` of each concurrent
//! mode (`record`, its `record_fn`, the portable record function, `record_n`, `record_many`,
//! `record_corrected`, and counting through its `direct_path` as the C header's inline
//! recorder does) hold the same counts bucket by bucket, the same underflow, overflow and
//! saturated counts, and the same exact extremes. Float histograms: `record`, `record_n`,
//! `record_many` and `record_f32` the same way.

mod common;

use common::direct::{counts_of_dyn, record_direct, Counts};
use common::SplitMix64;
use picollo::concurrent::{ApproxPolicy, CounterBits, DynHistogram, Mode, Storage};
use picollo::float::{FloatConfig, FloatHistogram};
use picollo::Config;

/// The draws of these tests, from the shared generator.
struct Rng(SplitMix64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0.next_u64()
    }

    fn unit(&mut self) -> f64 {
        self.0.next_f64()
    }

    fn log_uniform(&mut self, lo: f64, hi: f64) -> f64 {
        (lo.ln() + self.unit() * (hi.ln() - lo.ln())).exp()
    }

    /// Uniform in `lo..=hi` (the whole `u64` included).
    fn between(&mut self, lo: u64, hi: u64) -> u64 {
        match (hi - lo).checked_add(1) {
            Some(span) => lo + self.next() % span,
            None => self.next(),
        }
    }
}

/// One drawn configuration.
struct Case {
    config: Config,
    bits: CounterBits,
    mode: Mode,
    storage: Storage,
    extremes: bool,
}

/// A random configuration whose dense storage stays at most 2^15 counters.
fn draw_case(rng: &mut Rng) -> Case {
    let r = rng.next();
    let lowest = if r & 3 == 0 {
        1
    } else {
        rng.log_uniform(1.0, (1u64 << 23) as f64) as u64
    };
    let min = if r >> 9 & 1 == 1 {
        0
    } else {
        rng.next() >> (rng.next() % 64)
    };
    let mut config = Config::new()
        .with_relative_error(rng.log_uniform(1e-6, 0.1))
        .with_lowest_discernible(lowest.max(1))
        .with_range(min, u64::MAX);
    while config.storage_len() > 1 << 15 {
        let max = config.max_trackable();
        config = config.with_range(min, min + (max - min) / 4);
    }
    let mode = match Mode::ALL[(r >> 3) as usize % Mode::ALL.len()] {
        Mode::Approximate(_) => {
            Mode::Approximate(ApproxPolicy::new().with_threshold(14 + (rng.next() % 49) as u32))
        }
        mode => mode,
    };
    let sparse = r >> 5 & 3 == 0 && mode != Mode::ThreadLocal;
    Case {
        config,
        bits: if r >> 2 & 1 == 1 {
            CounterBits::U64
        } else {
            CounterBits::U32
        },
        mode,
        storage: if sparse {
            Storage::Sparse
        } else {
            Storage::Dense
        },
        extremes: r >> 7 & 3 == 0 && !matches!(mode, Mode::Approximate(_)),
    }
}

/// The values of a case, each with a count of 1..=3: the edges, then random ones.
fn draw_values(case: &Case, rng: &mut Rng, n: usize) -> Vec<(u64, u64)> {
    let layout = case.config.validate().unwrap().layout();
    let (unit, block) = (layout.unit(), layout.block_size());
    let (min, max) = (case.config.min_trackable(), case.config.max_trackable());
    let mut v = vec![0, u64::MAX];
    for bit in 0..64 {
        let p = 1u64 << bit;
        v.extend([p - 1, p, p.wrapping_add(1)]);
    }
    for edge in [unit, block * unit, 2 * block * unit, min, max] {
        v.extend([edge.wrapping_sub(1), edge, edge.wrapping_add(1)]);
    }
    while v.len() < n {
        v.push(match rng.next() % 3 {
            0 => rng.next() >> (rng.next() % 64),
            1 => rng.between(min, max),
            _ => rng.next() % (4 * block * unit + 1),
        });
    }
    v.into_iter().map(|x| (x, 1 + rng.next() % 3)).collect()
}

/// Records `values` into `h` through path `p` (of `DYN_PATHS`).
fn record_dyn(p: &str, h: &DynHistogram, values: &[(u64, u64)]) {
    let (f, portable) = (h.record_fn(), h.portable_record_fn());
    let repeated = || values.iter().flat_map(|&(v, n)| (0..n).map(move |_| v));
    match p {
        "record_n" => values.iter().for_each(|&(v, n)| h.record_n(v, n)),
        "record_many" => h.record_many(&repeated().collect::<Vec<_>>()),
        _ => repeated().for_each(|v| match p {
            "record" => h.record(v),
            // SAFETY: `h`'s own record functions.
            "record_fn" => unsafe { f(h, v) },
            // SAFETY: as above.
            "portable record_fn" => unsafe { portable(h, v) },
            "record_corrected" => h.record_corrected(v, 0),
            _ => record_direct(h, v),
        }),
    }
}

const DYN_PATHS: [&str; 7] = [
    "record",
    "record_fn",
    "portable record_fn",
    "record_n",
    "record_many",
    "record_corrected",
    "direct path",
];

/// The plain single-threaded histogram of counter `C`, through `record`, `record_n` or
/// `record_corrected`; `prefill` first with `record_n`.
fn plain<C: picollo::Counter>(
    case: &Case,
    values: &[(u64, u64)],
    prefill: Option<u64>,
) -> [Counts; 3] {
    ["record", "record_n", "record_corrected"].map(|p| {
        let mut h = case.config.build::<C>().unwrap().with_exact_extremes();
        if let Some(v) = prefill {
            h.record_n(v, u64::from(u32::MAX) - 4);
        }
        for &(v, n) in values {
            match p {
                "record_n" => h.record_n(v, n),
                "record" => (0..n).for_each(|_| h.record(v)),
                _ => (0..n).for_each(|_| h.record_corrected(v, 0)),
            }
        }
        let view = h.view();
        let cells = (0..view.shape().len())
            .map(|i| view.count(i).unwrap())
            .collect();
        let extremes = if case.extremes {
            h.exact_extremes()
        } else {
            None
        };
        (cells, view.outside(), extremes)
    })
}

fn describe(case: &Case, prefill: Option<u64>) -> String {
    format!(
        "relative error {:e}, lowest discernible {}, range {}..={}, {:?}, {:?}, {:?}, extremes {}, prefill {prefill:?}",
        case.config.relative_error(),
        case.config.lowest_discernible(),
        case.config.min_trackable(),
        case.config.max_trackable(),
        case.bits,
        case.mode,
        case.storage,
        case.extremes
    )
}

/// Where two counts first differ, for the message.
fn first_difference(a: &Counts, b: &Counts) -> String {
    match a.0.iter().zip(&b.0).position(|(x, y)| x != y) {
        Some(i) => format!("storage index {i}: {} against {}", a.0[i], b.0[i]),
        None => format!(
            "outside {:?} against {:?}, extremes {:?} against {:?}",
            a.1, b.1, a.2, b.2
        ),
    }
}

fn check_case(case: &Case, values: &[(u64, u64)], prefill: Option<u64>) -> usize {
    let mut compared = 0;
    let what = describe(case, prefill);
    let plains = if case.bits == CounterBits::U32 {
        plain::<u32>(case, values, prefill)
    } else {
        plain::<u64>(case, values, prefill)
    };
    let reference = &plains[0];
    for (p, counts) in ["record", "record_n", "record_corrected"]
        .iter()
        .zip(&plains)
    {
        assert!(
            counts == reference,
            "Histogram {p}: {} ({what})",
            first_difference(counts, reference)
        );
        compared += 1;
    }
    // The concurrent modes against their own `record` (the interlocked mode saturates below
    // the counter's maximum), and that against the plain record where nothing saturates.
    let mut dyn_reference = None;
    for p in DYN_PATHS {
        let shape = case.config.validate().unwrap();
        let h = DynHistogram::with_storage(shape, case.bits, case.mode, case.storage).unwrap();
        let h = if case.extremes {
            h.with_exact_extremes()
        } else {
            h
        };
        if let Some(v) = prefill {
            h.record_n(v, u64::from(u32::MAX) - 4);
        }
        record_dyn(p, &h, values);
        let counts = counts_of_dyn(&h);
        let expected = dyn_reference.get_or_insert_with(|| counts.clone());
        if prefill.is_none() || case.mode != Mode::Interlocked {
            assert!(
                expected == reference,
                "DynHistogram record: {} ({what})",
                first_difference(expected, reference)
            );
        }
        assert!(
            &counts == expected,
            "DynHistogram {p}: {} ({what})",
            first_difference(&counts, expected)
        );
        compared += 1;
    }
    compared
}

#[test]
fn every_integer_record_path_counts_like_the_plain_record() {
    let mut rng = Rng(SplitMix64(20_261_125));
    let (configs, values) = (
        if cfg!(miri) { 2 } else { 200 },
        if cfg!(miri) { 300 } else { 2_000 },
    );
    let (mut compared, mut with_unit) = (0, 0);
    for _ in 0..configs {
        let case = draw_case(&mut rng);
        let values = draw_values(&case, &mut rng, values);
        // Near the u32 ceiling: the later records of that bucket saturate on every path.
        let prefill = (case.bits == CounterBits::U32
            && !matches!(case.mode, Mode::Approximate(_))
            && rng.next() % 4 == 0)
            .then(|| rng.between(case.config.min_trackable(), case.config.max_trackable()));
        with_unit += usize::from(case.config.lowest_discernible() > 1);
        compared += check_case(&case, &values, prefill);
    }
    println!("{configs} configurations ({with_unit} with a unit) x {values} values: {compared} histograms equal to the reference");
    assert!(with_unit > configs / 2);
}

/// A float value of random sign and binary exponent; sometimes a special one.
fn draw_float(rng: &mut Rng) -> f32 {
    const SPECIAL: [f32; 7] = [
        0.0,
        -0.0,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        1e-45,
        -3.4e38,
    ];
    if rng.next() % 16 == 0 {
        return SPECIAL[(rng.next() % 7) as usize];
    }
    let sign = if rng.next() & 1 == 1 { -1.0 } else { 1.0 };
    (sign * (1.0 + rng.unit()) * 2f64.powi((rng.next() % 120) as i32 - 60)) as f32
}

#[test]
fn every_float_record_path_counts_like_the_plain_record() {
    let mut rng = Rng(SplitMix64(7));
    let configs = if cfg!(miri) { 1 } else { 60 };
    for _ in 0..configs {
        let e = rng.log_uniform(1e-6, 0.1);
        let (lo, hi) = (
            2f64.powi(-((rng.next() % 40) as i32)),
            2f64.powi((rng.next() % 40) as i32),
        );
        let sparse = rng.next() & 1 == 1 || e < 1e-3;
        let mode = if rng.next() & 1 == 1 {
            Mode::Interlocked
        } else {
            Mode::SingleWriter
        };
        let config = FloatConfig::new()
            .with_relative_error(e)
            .with_range(lo, hi)
            .with_mode(mode)
            .with_storage(if sparse {
                Storage::Sparse
            } else {
                Storage::Dense
            });
        let values: Vec<f32> = (0..2_000).map(|_| draw_float(&mut rng)).collect();
        let wide: Vec<f64> = values.iter().map(|&x| f64::from(x)).collect();
        let held = |p: &str| {
            let h = FloatHistogram::<u32>::new(config).unwrap();
            match p {
                "record" => wide.iter().for_each(|&x| h.record(x)),
                "record_n" => wide.iter().for_each(|&x| h.record_n(x, 1)),
                "record_many" => h.record_many(&wide),
                _ => values.iter().for_each(|&x| h.record_f32(x)),
            }
            let c = h.counts().unwrap();
            let specials = [
                c.total_count(),
                c.zero_count(),
                c.nan_count(),
                c.positive_infinity_count(),
                c.negative_infinity_count(),
                c.underflow_count(),
                c.overflow_count(),
                c.saturated_count(),
            ];
            let buckets: Vec<_> = c.buckets().map(|b| (b.side, b.index, b.count)).collect();
            (specials, buckets)
        };
        let reference = held("record");
        for p in ["record_n", "record_many", "record_f32"] {
            assert!(
                held(p) == reference,
                "float {p}: relative error {e:e}, magnitudes {lo}..{hi}, {mode:?}"
            );
        }
    }
}

/// A corrected record with a real interval adds `v − k·interval` down to `interval`: the
/// concurrent modes count them, and keep the exact extremes of those in the range, as the
/// plain histogram does.
#[test]
fn corrected_records_count_and_keep_extremes_like_the_plain_record() {
    let mut rng = Rng(SplitMix64(11));
    for _ in 0..if cfg!(miri) { 2 } else { 200 } {
        let mut case = draw_case(&mut rng);
        case.extremes = !matches!(case.mode, Mode::Approximate(_));
        let (min, max) = (case.config.min_trackable(), case.config.max_trackable());
        let records: Vec<(u64, u64)> = (0..20)
            .map(|_| {
                let v = match rng.next() % 3 {
                    0 => rng.between(min, max),
                    1 => rng.next() >> (rng.next() % 64),
                    _ => max.saturating_add(rng.next() % 1000),
                };
                (v, (v / (2 + rng.next() % 200)).max(1))
            })
            .collect();
        let mut plain = case.config.build::<u64>().unwrap().with_exact_extremes();
        records
            .iter()
            .for_each(|&(v, i)| plain.record_corrected(v, i));
        let shape = case.config.validate().unwrap();
        let h =
            DynHistogram::with_storage(shape, CounterBits::U64, case.mode, case.storage).unwrap();
        let h = if case.extremes {
            h.with_exact_extremes()
        } else {
            h
        };
        records.iter().for_each(|&(v, i)| h.record_corrected(v, i));
        let view = plain.view();
        let cells: Vec<u64> = (0..view.shape().len())
            .map(|i| view.count(i).unwrap())
            .collect();
        let expected = (
            cells,
            view.outside(),
            plain.exact_extremes().filter(|_| case.extremes),
        );
        let counts = counts_of_dyn(&h);
        assert!(
            counts == expected,
            "record_corrected: {} ({}; records {records:?})",
            first_difference(&counts, &expected),
            describe(&case, None)
        );
    }
}
