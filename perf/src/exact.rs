//! Whether a delta of the user-space read is exact. The page read starts over whenever the
//! kernel rewrote the page under it (its seqlock moved: a reschedule, an interrupt that
//! updated the page, the counter moved to another register or off the PMU), so each reading
//! is consistent. But the counters count the read's own work: a read that starts over runs
//! its loop again, and those instructions (tens) land in the delta the read closes (and, for
//! the counters read before it in the group, in the one it opens). A read that a page sent
//! to read(2) (the counter off the PMU at that moment) ends a delta of one path and starts
//! one of the other, whose costs differ. So the deltas on either side of such a read are not
//! exact, and say so; every other delta of fixed work counts the same (±1, as read(2) does).

use core::fmt;

use super::values::ReadPath;
use picollo::Grouped;

/// What one session read did, as far as the deltas beside it care.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct ReadMark {
    /// The path the perf counters took.
    pub path: ReadPath,
    /// Some counter's page read started over (the seqlock moved mid-read).
    pub retried: bool,
    /// The session meant to read in user space and a page sent the read to read(2).
    pub fell_back: bool,
}

impl ReadMark {
    /// The mark of a read that tried the user-space path or not (`tried`), whose page reads
    /// started over `retries` times in all, or that a page sent to read(2) (`None`).
    pub(crate) fn of(tried: bool, retries: Option<u32>) -> ReadMark {
        ReadMark {
            path: match retries {
                Some(_) => ReadPath::Rdpmc,
                None => ReadPath::Syscall,
            },
            retried: retries.is_some_and(|r| r > 0),
            fell_back: tried && retries.is_none(),
        }
    }

    /// The read raced the kernel: its counts hold work a clean read does not do.
    fn raced(self) -> bool {
        self.retried || self.fell_back
    }
}

/// Whether the delta from the read `previous` to the read `current` is exact: both took one
/// path and neither raced the kernel.
pub(crate) fn exact(previous: ReadMark, current: ReadMark) -> bool {
    previous.path == current.path && !previous.raced() && !current.raced()
}

/// How a session's user-space reads went since it opened
/// ([`super::Session::read_stats`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReadStats {
    /// Reads that tried the user-space path.
    pub user: u64,
    /// Of those, reads in which some counter's page read started over: the kernel rewrote
    /// the page mid-read.
    pub retried: u64,
    /// Of those, reads that a page sent to read(2): a counter off the PMU at that moment
    /// (`index` 0), `rdpmc` no longer allowed, or a page that would not settle.
    pub fell_back: u64,
}

impl ReadStats {
    /// Count one read that tried the user-space path.
    pub(crate) fn count(&mut self, mark: ReadMark) {
        self.user += 1;
        self.retried += u64::from(mark.retried && !mark.fell_back);
        self.fell_back += u64::from(mark.fell_back);
    }

    /// Reads that raced the kernel: the deltas on either side of each are not exact.
    pub fn raced(&self) -> u64 {
        self.retried + self.fell_back
    }
}

impl fmt::Display for ReadStats {
    /// `3 of 40,000 user-space reads raced the kernel (2 started over, 1 went to read(2))`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} of {} user-space reads raced the kernel ({} started over, {} went to read(2))",
            Grouped(self.raced()),
            Grouped(self.user),
            Grouped(self.retried),
            Grouped(self.fell_back)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CLEAN: ReadMark = ReadMark {
        path: ReadPath::Rdpmc,
        retried: false,
        fell_back: false,
    };

    #[test]
    fn a_delta_is_exact_only_between_two_clean_reads_of_one_path() {
        assert!(exact(CLEAN, CLEAN));
        let retried = ReadMark {
            retried: true,
            ..CLEAN
        };
        assert!(!exact(CLEAN, retried), "a retry closing the delta");
        assert!(!exact(retried, CLEAN), "a retry opening it");
        let fell_back = ReadMark {
            path: ReadPath::Syscall,
            retried: false,
            fell_back: true,
        };
        assert!(!exact(CLEAN, fell_back) && !exact(fell_back, CLEAN));
        let syscall = ReadMark {
            path: ReadPath::Syscall,
            ..CLEAN
        };
        assert!(exact(syscall, syscall), "read(2) asked for on both sides");
        assert!(!exact(syscall, CLEAN), "the paths' costs differ");
    }

    #[test]
    fn stats_count_each_raced_read_once() {
        let mut s = ReadStats::default();
        s.count(CLEAN);
        s.count(ReadMark {
            retried: true,
            ..CLEAN
        });
        let both = ReadMark {
            path: ReadPath::Syscall,
            retried: true,
            fell_back: true,
        };
        s.count(both);
        assert_eq!((s.user, s.retried, s.fell_back, s.raced()), (3, 1, 1, 2));
        assert_eq!(
            format!("{s}"),
            "2 of 3 user-space reads raced the kernel (1 started over, 1 went to read(2))"
        );
    }
}
