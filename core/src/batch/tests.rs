//! The float gates of every batch path against the portable one's.

use super::{BatchPath, Gates};

/// SplitMix64: the next number of the sequence at `*state`.
fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Every path this CPU runs lets through exactly the magnitudes the portable path does,
/// over gates whose two signs differ (empty, whole, one bound at a magnitude), on
/// values at the bounds and one bit either side, of both signs, and random bits
/// (NaNs and infinities among them). The batch tests cannot see a gate too narrow: the
/// values it turns away are counted the same by the general path.
#[test]
fn every_path_gates_as_the_portable_one() {
    let mut state = 0x6A7E5;
    let bounds = |state: &mut u64| match next(state) % 4 {
        0 => 0,
        1 => u64::MAX,
        2 => i64::MAX as u64,
        _ => next(state) >> 1,
    };
    for _ in 0..64 {
        let (lo, hi) = (
            [0, 1].map(|_| bounds(&mut state)),
            [0, 1].map(|_| bounds(&mut state)),
        );
        let gates = Gates::new(lo, hi);
        let mut values = [0.0f64; 67];
        for (i, x) in values.iter_mut().enumerate() {
            let sign = (i as u64 & 1) << 63;
            let near = [lo[0], lo[1], hi[0], hi[1]][i / 2 % 4];
            let bits = match i / 8 % 3 {
                0 => near.wrapping_add(i as u64 / 24 % 3).wrapping_sub(1),
                _ => next(&mut state),
            };
            *x = f64::from_bits((bits & !(1 << 63)) | sign);
        }
        let mut want = [0u64; 67];
        gates.fill_portable(&values, &mut want);
        for path in BatchPath::ALL.into_iter().filter(|p| p.available()) {
            let mut got = [0u64; 67];
            gates.fill(path, &values, &mut got);
            for ((&x, &g), &w) in values.iter().zip(&got).zip(&want) {
                assert_eq!(g == 0, w == 0, "{path:?} {lo:x?} {hi:x?} {:x}", x.to_bits());
            }
        }
    }
}
