//! The float tickets of every batch path against the portable one's.

use super::float::{Gates, Tickets};
use super::{BatchPath, Fold, Sink};
use alloc::vec::Vec;

/// The tickets a pipeline gives, in order.
struct Collect(Vec<u64>);

impl Sink<f64> for Collect {
    fn fold(&mut self, _: &Fold) {}

    fn add(&mut self, _: &[f64], tickets: &[u64]) {
        self.0.extend_from_slice(tickets);
    }
}

/// The tickets of `values` on `path` with gates `gates` (read at every chunk) and `shift`.
fn tickets(path: BatchPath, gates: Gates, shift: u32, values: &[f64]) -> Vec<u64> {
    let mut out = Collect(Vec::new());
    let t = Tickets {
        read: || gates,
        shift,
    };
    t.pipeline(path, values, &mut out);
    out.0
}

/// SplitMix64: the next number of the sequence at `*state`.
fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Every path this CPU runs gives exactly the portable path's tickets (so lets through
/// exactly the magnitudes it does), over gates whose two signs differ (empty, whole, one
/// bound at a magnitude), on values at the bounds and one bit either side, of both signs,
/// and random bits (NaNs and infinities among them), 67 of them (ragged parts and vectors).
/// The batch tests cannot see a gate too narrow: the values it turns away are counted the
/// same by the general path.
#[test]
fn every_path_gives_the_portable_ones_tickets() {
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
        let shift = 1 + (next(&mut state) % 51) as u32;
        let want = tickets(BatchPath::Portable, gates, shift, &values);
        for path in BatchPath::ALL.into_iter().filter(|p| p.available()) {
            let got = tickets(path, gates, shift, &values);
            for ((&x, &g), &w) in values.iter().zip(&got).zip(&want) {
                assert_eq!(g, w, "{path:?} {lo:x?} {hi:x?} {:x}", x.to_bits());
            }
            assert_eq!(got.len(), values.len(), "{path:?}");
        }
    }
}
