//! The user-space read racing the kernel, on a simulated page: a thread whose instructions a
//! simulated counter counts (the read loop's own among them), and a kernel that rewrites the
//! page in the middle of a read, seeded. Every reading must be the count at its own counter
//! read, and every delta that [`exact`] calls exact must count fixed work the same; the
//! deltas beside a raced read are flagged instead. Simulated because the machine these were
//! written on has no PMU (hardware events give ENOENT), and because a real kernel races a
//! read too rarely to test on.

use core::ffi::c_void;

use super::exact::{exact, ReadMark, ReadStats};
use crate::native::{
    picollo_native_page_read_with, sign_extend, MmapPageHead, PageReading, CAP_USER_RDPMC, PAGE_OK,
};

/// Instructions of one turn of the read loop up to its counter read (a retry runs them again).
const TURN: u64 = 23;
/// Instructions of a read after its counter read.
const TAIL: u64 = 11;
/// Instructions a read through read(2) runs in user space around the system call.
const SYSCALL: u64 = 140;
/// The fixed work between the two reads of a pair.
const WORK: u64 = 4_450;
/// Counter width: the register's value is sign-extended from bit 47.
const WIDTH: u32 = 48;

/// What the kernel does to the page during one counter read.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Race {
    None,
    /// Scheduled out and in again: a new register value and offset, times moved.
    Rescheduled,
    /// Taken off the PMU (multiplexed out): `index` 0 until the read has fallen back.
    Descheduled,
    /// Only the times rewritten (`time_running` moved): the count is unchanged.
    TimesMoved,
}

/// The simulated thread, its counter and the kernel that writes its page.
struct Thread {
    /// The page, on the heap (freed by `drop`): the C loop reads it through this pointer
    /// while the stubs rewrite it through the same one.
    page: *mut MmapPageHead,
    /// Instructions retired so far: the count the page and the register must give.
    retired: u64,
    /// `retired` when the register was last programmed, and what it was programmed to.
    programmed: (u64, u64),
    /// The race of the next counter read (then none).
    race: Race,
    /// `retired` at the latest counter read.
    at_read: u64,
    rng: u64,
}

impl Thread {
    fn new(seed: u64) -> Thread {
        let mut t = Thread {
            page: Box::into_raw(Box::new(MmapPageHead {
                capabilities: CAP_USER_RDPMC,
                pmc_width: WIDTH as u16,
                ..Default::default()
            })),
            retired: 1_000_000,
            programmed: (0, 0),
            race: Race::None,
            at_read: 0,
            rng: seed,
        };
        t.program(1);
        t
    }

    /// SplitMix64.
    fn next(&mut self) -> u64 {
        self.rng = self.rng.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.rng;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn page(&mut self) -> &mut MmapPageHead {
        // SAFETY: `page` came from `Box::into_raw` and lives until `drop`; the reference
        // lasts one field update, during which the C loop (the only other user) is inside a
        // stub call and reads nothing.
        unsafe { &mut *self.page }
    }

    /// Put the counter on register `index - 1`, programmed near the top of its width (as
    /// the kernel programs `-period`), and publish it: `offset + register = retired`.
    fn program(&mut self, index: u32) {
        let start = (1u64 << WIDTH) - 1 - self.next() % 5_000;
        self.programmed = (self.retired, start);
        let offset = self.retired.wrapping_sub(sign_extend(start, WIDTH)) as i64;
        let page = self.page();
        (page.lock, page.index, page.offset) = (page.lock + 2, index, offset);
    }

    /// The register now.
    fn register(&self) -> u64 {
        let (at, start) = self.programmed;
        start.wrapping_add(self.retired - at) & ((1u64 << WIDTH) - 1)
    }

    /// The kernel's work in the middle of a counter read, before the register is read.
    fn kernel(&mut self) {
        let race = core::mem::replace(&mut self.race, Race::None);
        match race {
            Race::None => {}
            Race::Rescheduled => {
                let index = 1 + (self.next() % 4) as u32;
                self.program(index);
            }
            Race::Descheduled => {
                let page = self.page();
                (page.lock, page.index) = (page.lock + 2, 0);
            }
            Race::TimesMoved => {
                let page = self.page();
                page.lock += 2;
                page.time_enabled += 1_000;
                page.time_running += 1_000;
            }
        }
    }
}

impl Drop for Thread {
    fn drop(&mut self) {
        // SAFETY: `page` came from `Box::into_raw` in `new` and is freed only here.
        drop(unsafe { Box::from_raw(self.page) });
    }
}

unsafe extern "C" fn pmc(ctx: *mut c_void, _counter: u32) -> u64 {
    // SAFETY: `ctx` is the `&mut Thread` that `read` passed, alive for the whole read; the C
    // loop reads the page only through volatile loads and holds no reference across this call.
    let t = unsafe { &mut *ctx.cast::<Thread>() };
    t.retired += TURN;
    t.kernel();
    t.at_read = t.retired;
    t.register()
}

unsafe extern "C" fn tsc(_ctx: *mut c_void) -> u64 {
    0
}

/// One read of the single-counter session: the page's, or read(2) where it sends the read
/// there (after which the kernel has put the counter back on the PMU). Returns the count,
/// the read's mark, and whether a page reading was the count at its own counter read.
fn read(t: &mut Thread) -> (u64, ReadMark, bool) {
    let mut out = PageReading::default();
    let page = t.page;
    // SAFETY: the page and the thread outlive the call; the stubs touch only the thread `ctx`
    // points at, through which the page is rewritten between the loop's volatile loads.
    let status = unsafe {
        picollo_native_page_read_with(page, pmc, tsc, (t as *mut Thread).cast(), &mut out)
    };
    let retries = (status == PAGE_OK).then_some(out.retries);
    let mark = ReadMark::of(true, retries);
    let (count, consistent) = match retries {
        Some(_) => (out.count, out.count == t.at_read),
        None => {
            t.retired += SYSCALL / 2;
            let count = t.retired;
            t.program(1);
            (count, true)
        }
    };
    t.retired += TAIL;
    (count, mark, consistent)
}

/// Pairs of reads around fixed work, one read in `odds` racing the kernel (the races drawn
/// by a generator seeded with `seed`): per pair its delta and whether [`exact`] calls it
/// exact; and the stats.
fn pairs(seed: u64, n: usize, odds: u64) -> (Vec<(u64, bool)>, ReadStats) {
    let mut t = Thread::new(seed);
    let mut stats = ReadStats::default();
    let mut read_racing = |t: &mut Thread| {
        t.race = match t.next() % (3 * odds) {
            0 => Race::Rescheduled,
            1 => Race::Descheduled,
            2 => Race::TimesMoved,
            _ => Race::None,
        };
        let (count, mark, consistent) = read(t);
        assert!(
            consistent,
            "a page reading that is not the count at its read: {mark:?}"
        );
        stats.count(mark);
        (count, mark)
    };
    let deltas = (0..n).map(|_| {
        let (a, opened) = read_racing(&mut t);
        t.retired += WORK;
        let (b, closed) = read_racing(&mut t);
        (b.wrapping_sub(a), exact(opened, closed))
    });
    let deltas = deltas.collect();
    (deltas, stats)
}

#[test]
fn fixed_work_counts_the_same_in_every_delta_called_exact() {
    let (deltas, stats) = pairs(0x5EED_0060, 10_000, 50);
    let clean = WORK + TAIL + TURN;
    let exact_deltas: Vec<u64> = deltas.iter().filter(|d| d.1).map(|d| d.0).collect();
    let off = exact_deltas.iter().filter(|&&d| d != clean).count();
    assert_eq!(off, 0, "exact deltas that are not {clean}");
    // About 2 reads in 50 race a pair (1 in 50 each): a few hundred flagged pairs, each one
    // that the read loop or read(2) really did move.
    let flagged = deltas.len() - exact_deltas.len();
    assert!((200..=800).contains(&flagged), "{flagged} flagged");
    let moved = deltas.iter().filter(|d| !d.1 && d.0 != clean).count();
    assert!(
        moved * 2 > flagged,
        "{moved} of {flagged} flagged pairs moved"
    );
    assert_eq!(stats.user, 20_000);
    assert!(stats.retried > 0 && stats.fell_back > 0, "{stats:?}");
}

#[test]
fn a_race_that_leaves_the_count_alone_still_restarts_the_read() {
    // Times moved under the read: the loop starts over (one turn more, counted), and the
    // reading is of the rewritten page.
    let mut t = Thread::new(7);
    t.race = Race::TimesMoved;
    let (count, mark, consistent) = read(&mut t);
    assert!(consistent && mark.retried && !mark.fell_back);
    assert_eq!(count, t.at_read);
    assert_eq!(t.page().time_running, 1_000);
    // Rescheduled onto another register mid-read: retried, and the new offset and register
    // give the count (the old offset with the new register would not).
    t.race = Race::Rescheduled;
    let before = t.page().offset;
    let (count, mark, _) = read(&mut t);
    assert!(mark.retried && count == t.at_read);
    assert_ne!(t.page().offset, before);
    // Taken off the PMU mid-read: read(2), flagged.
    t.race = Race::Descheduled;
    let (_, mark, _) = read(&mut t);
    assert!(mark.fell_back && !exact(mark, mark));
}
