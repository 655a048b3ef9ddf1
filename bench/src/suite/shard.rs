//! `--shard I/N`: a run keeps the benchmarks whose share is I of N, so that N jobs (a CI
//! matrix) each run one share and `picollo merge` joins their documents. A benchmark's share
//! depends on its name alone — FNV-1a 64 of the name's UTF-8 bytes, modulo N, plus one — so
//! it is the same in every build, language and machine, whatever other benchmarks exist.

use core::fmt;
use core::str::FromStr;
use std::string::String;

/// The most shards a run may be cut into.
pub const MAX_SHARDS: u32 = 1024;

/// One share of N: the `index`-th (1-based) of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    index: u32,
    count: u32,
}

impl Shard {
    /// Share `index` of `count`; an error unless 1 ≤ index ≤ count ≤ [`MAX_SHARDS`].
    pub fn new(index: u32, count: u32) -> Result<Shard, String> {
        match (1..=MAX_SHARDS).contains(&count) && (1..=count).contains(&index) {
            true => Ok(Shard { index, count }),
            false => Err(std::format!(
                "I/N with 1 <= I <= N <= {MAX_SHARDS} (e.g. 2/4), not {index}/{count}"
            )),
        }
    }

    /// Its place among the shares, 1-based.
    pub fn index(&self) -> u32 {
        self.index
    }

    /// How many shares there are.
    pub fn count(&self) -> u32 {
        self.count
    }

    /// Whether benchmark `name` falls in this share.
    pub fn holds(&self, name: &str) -> bool {
        share_of(name, self.count) == self.index
    }
}

/// The share (1 to `count`) of benchmark `name` among `count`: FNV-1a 64 of its UTF-8
/// bytes, modulo `count`, plus one.
pub fn share_of(name: &str, count: u32) -> u32 {
    (fnv1a64(name.as_bytes()) % u64::from(count.max(1))) as u32 + 1
}

/// FNV-1a, 64 bits: for each byte, xor it in, then multiply by the FNV prime.
fn fnv1a64(bytes: &[u8]) -> u64 {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    bytes
        .iter()
        .fold(OFFSET, |h, &b| (h ^ u64::from(b)).wrapping_mul(PRIME))
}

impl FromStr for Shard {
    type Err = String;

    /// `I/N`.
    fn from_str(text: &str) -> Result<Shard, String> {
        let bad = || std::format!("I/N with 1 <= I <= N <= {MAX_SHARDS} (e.g. 2/4), not {text:?}");
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let number = |v: &str| v.trim().parse::<u32>().map_err(|_| bad());
        Shard::new(number(i)?, number(n)?)
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec::Vec;

    /// A thousand names of the kinds suites register: plain, parameterized, non-ASCII.
    fn names() -> Vec<String> {
        (0..1000)
            .map(|i| match i % 3 {
                0 => std::format!("sort/{i}"),
                1 => std::format!("parse json {i}"),
                _ => std::format!("hash ünïcode {i}"),
            })
            .collect()
    }

    #[test]
    fn fnv1a64_matches_the_published_test_vectors() {
        // The FNV reference's vectors (Fowler, Noll, Vo: draft-eastlake-fnv): an independent
        // check of the offset basis, the prime and the order xor-then-multiply.
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn every_name_lies_in_exactly_one_shard_of_n() {
        for n in [1, 2, 3, 8, 17, 1024] {
            let mut per_shard = std::vec![0usize; n as usize];
            for name in names() {
                let holding: Vec<u32> = (1..=n)
                    .filter(|&i| Shard::new(i, n).unwrap().holds(&name))
                    .collect();
                assert_eq!(holding.len(), 1, "{name:?} of {n}: {holding:?}");
                per_shard[holding[0] as usize - 1] += 1;
            }
            assert_eq!(per_shard.iter().sum::<usize>(), 1000);
            if n == 8 {
                // 125 expected a shard; a hash that spreads badly would leave some empty.
                assert!(
                    per_shard.iter().all(|&k| (80..=170).contains(&k)),
                    "{per_shard:?}"
                );
            }
        }
    }

    #[test]
    fn a_names_share_does_not_depend_on_the_other_names() {
        let all = names();
        let alone: Vec<u32> = all.iter().map(|n| share_of(n, 8)).collect();
        // The same names among others, in another order: each keeps its share.
        let mut mixed: Vec<String> = all.iter().rev().cloned().collect();
        mixed.extend((0..500).map(|i| std::format!("other {i}")));
        for name in &mixed[..1000] {
            let i = all.iter().position(|n| n == name).unwrap();
            assert_eq!(share_of(name, 8), alone[i]);
        }
    }

    #[test]
    fn i_of_n_parses_within_its_bounds_and_nothing_else() {
        assert_eq!("2/4".parse(), Ok(Shard::new(2, 4).unwrap()));
        assert_eq!(
            "1024/1024".parse::<Shard>().unwrap().to_string(),
            "1024/1024"
        );
        for bad in [
            "0/4", "5/4", "1/0", "1/1025", "2", "a/b", "-1/4", "1/4/2", "",
        ] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }
}
