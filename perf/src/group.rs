//! Parsing one `read(2)` of a group leader with `PERF_FORMAT_GROUP | ID |
//! TOTAL_TIME_ENABLED | TOTAL_TIME_RUNNING`:
//!
//! ```text
//! nr, time_enabled, time_running, { value, id } × nr
//! ```
//!
//! Values are matched to our counters by the kernel's 64-bit id, not by position.
//!
//! A session's group holds at most [`MAX_GROUP_COUNTERS`], so its read buffer has a fixed
//! size ([`GroupBuffer`]) and a read allocates nothing.

use heapless::Vec;

/// The most counters one session (one perf group) holds: 64.
///
/// A group is scheduled onto the PMU as a whole, and no PMU has anywhere near 64 counters
/// (x86 parts have 4 to 8 general and 3 or 4 fixed ones), so a larger hardware group could
/// never run; software events need no group to be counted. At 64 the read buffer is 131
/// words (1,048 bytes) and lives inside the session. The kernel's own limit is about 1,020
/// counters with this read format: it refuses (E2BIG) a group whose read would not fit its
/// 16 KiB buffer.
pub const MAX_GROUP_COUNTERS: usize = 64;

/// Words a group read of `n` counters takes.
pub(crate) const fn group_read_words(n: usize) -> usize {
    3 + 2 * n
}

/// Words of a read of the largest group.
const MAX_GROUP_READ_WORDS: usize = group_read_words(MAX_GROUP_COUNTERS);

/// What reading one group needs, sized when the group opens and never grown: the words the
/// kernel writes, our counters' ids in opening order, and the values matched to them.
#[derive(Debug)]
pub(crate) struct GroupBuffer {
    words: Vec<u64, MAX_GROUP_READ_WORDS>,
    ids: Vec<u64, MAX_GROUP_COUNTERS>,
    values: Vec<u64, MAX_GROUP_COUNTERS>,
}

impl GroupBuffer {
    /// The buffer of a group whose counters have these ids, in opening order; `None` past
    /// [`MAX_GROUP_COUNTERS`].
    pub(crate) fn new(ids: impl IntoIterator<Item = u64>) -> Option<Self> {
        let mut b = GroupBuffer {
            words: Vec::new(),
            ids: Vec::new(),
            values: Vec::new(),
        };
        for id in ids {
            b.ids.push(id).ok()?;
        }
        b.words.resize(group_read_words(b.ids.len()), 0).ok()?;
        b.values.resize(b.ids.len(), 0).ok()?;
        Some(b)
    }

    /// Where one `read(2)` of the leader writes: exactly a full group read.
    pub(crate) fn words_mut(&mut self) -> &mut [u64] {
        &mut self.words
    }

    /// Parse the first `len` words the kernel wrote into [`GroupBuffer::values`].
    pub(crate) fn parse(&mut self, len: usize) -> Result<GroupTimes, GroupParseError> {
        let words = &self.words[..len.min(self.words.len())];
        parse_group_read(words, &self.ids, &mut self.values)
    }

    /// The values of the latest parse, in the order of the ids.
    pub(crate) fn values(&self) -> &[u64] {
        &self.values
    }
}

/// The group's times from one read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct GroupTimes {
    pub enabled: u64,
    pub running: u64,
}

/// Why a group read did not parse.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum GroupParseError {
    /// Fewer words than the header says (or than the header itself).
    Short { words: usize, needed: usize },
    /// `nr` differs from the number of counters we opened.
    CountMismatch { nr: u64, expected: usize },
    /// An id we did not open.
    UnknownId(u64),
    /// One of our ids is missing (or another appeared twice).
    MissingId(u64),
}

/// Fill `values[i]` with the value whose id is `ids[i]`. `words` holds what the kernel wrote.
/// The kernel lists a group in the order its members were opened, so each id is looked up
/// at its own position first; only an out-of-order entry costs a search.
pub(crate) fn parse_group_read(
    words: &[u64],
    ids: &[u64],
    values: &mut [u64],
) -> Result<GroupTimes, GroupParseError> {
    let (times, pairs) = split_header(words, ids.len())?;
    let mut in_order = true;
    for (k, pair) in pairs.chunks_exact(2).enumerate() {
        let (value, id) = (pair[0], pair[1]);
        let slot = if ids.get(k) == Some(&id) {
            k
        } else {
            in_order = false;
            ids.iter()
                .position(|&i| i == id)
                .ok_or(GroupParseError::UnknownId(id))?
        };
        if let Some(v) = values.get_mut(slot) {
            *v = value;
        }
    }
    // Every entry matched one of our (distinct) ids. In order, each id was used once; out of
    // order, nr == n entries cover all ids unless one appeared twice.
    if in_order || !has_duplicate_ids(pairs) {
        Ok(times)
    } else {
        let present = |id: u64| pairs.chunks_exact(2).any(|p| p[1] == id);
        let missing = ids.iter().copied().find(|&id| !present(id)).unwrap_or(0);
        Err(GroupParseError::MissingId(missing))
    }
}

/// The times of a read of `n` counters and its `{value, id}` pairs, once the header says
/// `nr == n` and the words hold all of them.
fn split_header(words: &[u64], n: usize) -> Result<(GroupTimes, &[u64]), GroupParseError> {
    if words.len() < 3 {
        return Err(GroupParseError::Short {
            words: words.len(),
            needed: 3,
        });
    }
    let nr = words[0];
    if nr != n as u64 {
        return Err(GroupParseError::CountMismatch { nr, expected: n });
    }
    let needed = group_read_words(n);
    if words.len() < needed {
        return Err(GroupParseError::Short {
            words: words.len(),
            needed,
        });
    }
    let times = GroupTimes {
        enabled: words[1],
        running: words[2],
    };
    Ok((times, &words[3..needed]))
}

/// Whether an id appears twice among the `{value, id}` pairs. Only reached for reads out
/// of opening order (the kernel keeps that order); quadratic, which a session's group of at
/// most [`MAX_GROUP_COUNTERS`] keeps to 2,016 comparisons, and allocation-free.
fn has_duplicate_ids(pairs: &[u64]) -> bool {
    let ids = || pairs.chunks_exact(2).map(|p| p[1]);
    ids()
        .enumerate()
        .any(|(k, a)| ids().skip(k + 1).any(|b| b == a))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec::Vec;

    /// A deterministic shuffle (xorshift), so failures reproduce.
    fn shuffle<T>(v: &mut [T], mut seed: u64) {
        for i in (1..v.len()).rev() {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            v.swap(i, (seed % (i as u64 + 1)) as usize);
        }
    }

    fn buffer(entries: &[(u64, u64)], enabled: u64, running: u64) -> Vec<u64> {
        let mut w = vec![entries.len() as u64, enabled, running];
        for &(value, id) in entries {
            w.extend([value, id]);
        }
        w
    }

    #[test]
    fn values_land_on_their_ids_for_1_to_64_counters_in_any_order() {
        for n in 1..=64usize {
            // Ids as the kernel hands them out: large, sparse, 64-bit.
            let ids: Vec<u64> = (0..n as u64)
                .map(|k| 0xdead_0000_0000 + k * 7919 + (k << 40))
                .collect();
            let mut entries: Vec<(u64, u64)> = ids
                .iter()
                .map(|&id| (id.wrapping_mul(3) ^ 0x55, id))
                .collect();
            shuffle(&mut entries, n as u64 * 0x9e37_79b9);
            let words = buffer(&entries, 1000 + n as u64, 900);
            let mut values = vec![0u64; n];
            let times = parse_group_read(&words, &ids, &mut values).unwrap();
            assert_eq!(
                times,
                GroupTimes {
                    enabled: 1000 + n as u64,
                    running: 900
                }
            );
            for (id, v) in ids.iter().zip(&values) {
                assert_eq!(*v, id.wrapping_mul(3) ^ 0x55, "n = {n}, id = {id:#x}");
            }
        }
    }

    #[test]
    fn the_fixed_buffer_parses_a_full_group_in_any_order() {
        let ids: Vec<u64> = (0..MAX_GROUP_COUNTERS as u64)
            .map(|k| 0x7000_0000_0000 + k * 104_729)
            .collect();
        let mut group = GroupBuffer::new(ids.iter().copied()).unwrap();
        assert_eq!(group.words_mut().len(), MAX_GROUP_READ_WORDS);
        for seed in [0, 0x9e37_79b9] {
            let mut entries: Vec<(u64, u64)> = ids.iter().map(|&id| (id / 3, id)).collect();
            if seed != 0 {
                shuffle(&mut entries, seed);
            }
            let words = buffer(&entries, 2_000, 1_000);
            group.words_mut().copy_from_slice(&words);
            let times = group.parse(words.len()).unwrap();
            assert_eq!((times.enabled, times.running), (2_000, 1_000));
            for (id, v) in ids.iter().zip(group.values()) {
                assert_eq!(*v, id / 3, "id {id:#x}");
            }
        }
    }

    #[test]
    fn no_buffer_past_the_cap_and_short_reads_are_errors() {
        let ids: Vec<u64> = (1..=MAX_GROUP_COUNTERS as u64 + 1).collect();
        assert!(GroupBuffer::new(ids.iter().copied()).is_none());
        let mut group = GroupBuffer::new([1, 2]).unwrap();
        group
            .words_mut()
            .copy_from_slice(&buffer(&[(5, 1), (6, 2)], 1, 1));
        assert_eq!(
            group.parse(6),
            Err(GroupParseError::Short {
                words: 6,
                needed: 7
            })
        );
        assert!(group.parse(7).is_ok());
        assert_eq!(group.values(), &[5, 6]);
    }

    #[test]
    fn the_parser_itself_has_no_cap() {
        let n = 300;
        let ids: Vec<u64> = (1..=n as u64).rev().collect();
        let entries: Vec<(u64, u64)> = (1..=n as u64).map(|id| (id * 10, id)).collect();
        let mut values = vec![0u64; n];
        parse_group_read(&buffer(&entries, 5, 5), &ids, &mut values).unwrap();
        assert_eq!(values[0], n as u64 * 10);
        assert_eq!(values[n - 1], 10);
    }

    #[test]
    fn malformed_reads_are_errors_not_panics() {
        let ids = [10u64, 20, 30];
        let mut values = [0u64; 3];
        let good = buffer(&[(1, 10), (2, 20), (3, 30)], 9, 9);
        assert_eq!(
            parse_group_read(&good[..2], &ids, &mut values),
            Err(GroupParseError::Short {
                words: 2,
                needed: 3
            })
        );
        assert_eq!(
            parse_group_read(&good[..8], &ids, &mut values),
            Err(GroupParseError::Short {
                words: 8,
                needed: 9
            })
        );
        let two = buffer(&[(1, 10), (2, 20)], 9, 9);
        assert_eq!(
            parse_group_read(&two, &ids, &mut values),
            Err(GroupParseError::CountMismatch { nr: 2, expected: 3 })
        );
        let stranger = buffer(&[(1, 10), (2, 99), (3, 30)], 9, 9);
        assert_eq!(
            parse_group_read(&stranger, &ids, &mut values),
            Err(GroupParseError::UnknownId(99))
        );
        let twice = buffer(&[(1, 10), (2, 10), (3, 30)], 9, 9);
        assert_eq!(
            parse_group_read(&twice, &ids, &mut values),
            Err(GroupParseError::MissingId(20))
        );
        assert!(parse_group_read(&[], &ids, &mut values).is_err());
    }
}
