//! The harness's draws: the one source of every random choice a comparison makes (the
//! pairing of its results, the order of each round, the offsets and padding of each turn).
//! It is seeded once per comparison, from the plan's seed or else the clock, so that a
//! given seed replays the same rounds.
//!
//! The numbers come from core's xorshift generator, the one that flips the approximate
//! counters' coins; each draw below takes them exactly as the harness always has (`% n`
//! for an index, the low bit for a coin), so a seed names the same rounds it always named.

use std::vec::Vec;

use picollo::concurrent::XorShift64;

/// Where a comparison draws its random choices.
#[derive(Clone, Debug)]
pub struct Draws {
    rng: XorShift64,
}

impl Draws {
    /// Draws seeded with `seed`, or with the clock's ticks where there is none (a run of
    /// its own each time).
    pub fn new(seed: Option<u64>) -> Self {
        let seed = seed.unwrap_or_else(picollo_perf::time::ticks_begin);
        Draws {
            rng: XorShift64::new(seed),
        }
    }

    /// A comparison's pairing: the value its results share, so that a reader knows their
    /// rounds ran interleaved. Odd, so never 0. Drawn first, before any round.
    pub fn pairing(&mut self) -> u64 {
        self.rng.next() | 1
    }

    /// An index below `n` (`n` > 0; it panics on 0): the remainder of a 64-bit draw, whose
    /// bias (an index comes up at most once more in 2⁶⁴ draws than another) is far below
    /// anything a round could show.
    pub fn below(&mut self, n: usize) -> usize {
        (self.rng.next() % n as u64) as usize
    }

    /// A fair coin: true on an even draw.
    pub fn coin(&mut self) -> bool {
        self.rng.next() & 1 == 0
    }

    /// `0..n` in a drawn order (Fisher–Yates, from the last place down).
    pub fn shuffled(&mut self, n: usize) -> Vec<usize> {
        let mut order: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            let j = self.below(i + 1);
            order.swap(i, j);
        }
        order
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The harness's shuffle as it was written against the generator itself.
    fn shuffled_by_generator(n: usize, rng: &mut XorShift64) -> Vec<usize> {
        let mut order: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            let j = (rng.next() % (i as u64 + 1)) as usize;
            order.swap(i, j);
        }
        order
    }

    #[test]
    fn a_seed_draws_what_the_generator_drew_before() {
        for seed in [0, 1, 7, 11, 0xDEAD_BEEF, u64::MAX] {
            let mut rng = XorShift64::new(seed);
            let mut draws = Draws::new(Some(seed));
            assert_eq!(draws.pairing(), rng.next() | 1, "seed {seed}");
            for n in [1, 2, 3, 5, 8] {
                let order = shuffled_by_generator(n, &mut rng);
                assert_eq!(draws.shuffled(n), order, "seed {seed}, n {n}");
            }
            assert_eq!(draws.coin(), rng.next() & 1 == 0, "seed {seed}");
            assert_eq!(draws.below(256), (rng.next() % 256) as usize);
            assert_eq!(draws.below(65536), (rng.next() % 65536) as usize);
            assert_eq!(draws.below(3), (rng.next() % 3) as usize);
        }
    }

    #[test]
    fn every_shuffle_holds_each_index_once_and_orders_vary() {
        let mut draws = Draws::new(Some(7));
        let orders: Vec<Vec<usize>> = (0..50).map(|_| draws.shuffled(3)).collect();
        for o in &orders {
            let mut sorted = o.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, [0, 1, 2]);
        }
        let firsts = |i| orders.iter().filter(|o| o[0] == i).count();
        assert!((0..3).all(|i| firsts(i) >= 5), "{orders:?}");
    }

    #[test]
    fn coins_fall_both_ways_and_indices_stay_below_their_bound() {
        let mut draws = Draws::new(Some(3));
        let heads = (0..200).filter(|_| draws.coin()).count();
        assert!((50..150).contains(&heads), "{heads}");
        assert!((0..200).all(|_| draws.below(10) < 10));
        assert_eq!(draws.below(1), 0);
    }
}
