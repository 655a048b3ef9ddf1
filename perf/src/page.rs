//! The rdpmc fast path: read a counter through its mmapped `perf_event_mmap_page` with the
//! seqlock loop of `native/` (x86-64 Linux: `rdpmc`; arm64 Linux: `mrs` of the counter
//! register). Any status but OK sends the caller to read(2).

use crate::native::{self, PageReading, PAGE_OK};

use super::sys::MmapPage;
use super::values::Reading;

/// Read one counter through its page: the reading and how often the seqlock made the read
/// start over (a retry's own work lands in the counts: see [`super::exact`]); `None` when
/// the page says rdpmc cannot be used now (no `cap_user_rdpmc`, `index == 0`, or a seqlock
/// that would not settle).
#[inline]
pub(crate) fn read(page: &MmapPage) -> Option<(Reading, u32)> {
    let mut out = PageReading::default();
    // SAFETY: `page` maps at least one whole page (≥ the 96-byte head the C reads) for as
    // long as `page` lives; the C only reads it, field by field through volatile loads,
    // and writes `out`, which is live and exclusive here. The counter read (rdpmc, or mrs
    // on arm64) runs only when the kernel set cap_user_rdpmc, i.e. when it allows user
    // space to read this event's counter.
    let status = unsafe { native::picollo_native_page_read(page.as_ptr().cast(), &mut out) };
    (status == PAGE_OK).then_some((reading(&out), out.retries))
}

/// The reading a settled page read gives.
fn reading(out: &PageReading) -> Reading {
    Reading {
        value: out.count,
        enabled: out.enabled,
        running: out.running,
        scaled: out.scaled,
    }
}

#[cfg(test)]
mod tests {
    //! The page-read math on simulated pages: a fake page and a stubbed counter and clock
    //! drive the same C loop the fast path runs.
    use core::cell::UnsafeCell;
    use core::ffi::c_void;

    use super::super::values::{Delta, Reading};
    use crate::native::PageReading;
    use crate::native::{
        picollo_native_page_read_with, sign_extend, MmapPageHead, CAP_USER_RDPMC, CAP_USER_TIME,
        CAP_USER_TIME_SHORT, PAGE_NOT_SCHEDULED, PAGE_NO_RDPMC, PAGE_OK,
    };

    /// What the stubbed rdpmc returns, and what it does to the page while the loop runs.
    struct Stub {
        page: *mut MmapPageHead,
        pmc: u64,
        tsc: u64,
        pmc_calls: u32,
        last_counter: u32,
        /// Called on each rdpmc with the call number: simulates the kernel writing the page.
        kernel: fn(&mut MmapPageHead, u32),
    }

    unsafe extern "C" fn stub_pmc(ctx: *mut c_void, counter: u32) -> u64 {
        // SAFETY: `ctx` is the `&mut Stub` that `read_fake` passed and keeps alive.
        let stub = unsafe { &mut *ctx.cast::<Stub>() };
        stub.pmc_calls += 1;
        stub.last_counter = counter;
        // SAFETY: `stub.page` points at the test's page cell, alive for the whole read; the
        // C loop holds no reference across this call (it reads through volatile loads).
        (stub.kernel)(unsafe { &mut *stub.page }, stub.pmc_calls);
        stub.pmc
    }

    unsafe extern "C" fn stub_tsc(ctx: *mut c_void) -> u64 {
        // SAFETY: as in `stub_pmc`.
        unsafe { (*ctx.cast::<Stub>()).tsc }
    }

    fn quiet(_: &mut MmapPageHead, _: u32) {}

    fn page(offset: i64, index: u32, width: u16) -> MmapPageHead {
        MmapPageHead {
            lock: 2,
            index,
            offset,
            time_enabled: 1_000,
            time_running: 1_000,
            capabilities: CAP_USER_RDPMC | CAP_USER_TIME,
            pmc_width: width,
            ..Default::default()
        }
    }

    fn read_fake(
        head: MmapPageHead,
        pmc: u64,
        kernel: fn(&mut MmapPageHead, u32),
    ) -> (PageReading, u32) {
        read_fake_tsc(head, pmc, 0, kernel)
    }

    fn read_fake_tsc(
        head: MmapPageHead,
        pmc: u64,
        tsc: u64,
        kernel: fn(&mut MmapPageHead, u32),
    ) -> (PageReading, u32) {
        let cell = UnsafeCell::new(head);
        let mut stub = Stub {
            page: cell.get(),
            pmc,
            tsc,
            pmc_calls: 0,
            last_counter: u32::MAX,
            kernel,
        };
        let mut out = PageReading::default();
        // SAFETY: the page cell, the stub and `out` all outlive the call; the stubs only
        // touch what `ctx` points at.
        unsafe {
            picollo_native_page_read_with(
                cell.get(),
                stub_pmc,
                stub_tsc,
                (&mut stub as *mut Stub).cast(),
                &mut out,
            )
        };
        if stub.pmc_calls > 0 {
            assert_eq!(stub.last_counter, head.index - 1, "rdpmc takes index - 1");
        }
        (out, stub.pmc_calls)
    }

    #[test]
    fn sign_extension_at_width_48() {
        let (r, _) = read_fake(page(1_000, 1, 48), (1 << 48) - 5, quiet);
        assert_eq!(r.status, PAGE_OK);
        assert_eq!(r.count, 995, "the top bit of a 48-bit pmc is its sign");
        // Bits above the width are not part of the value.
        let (r, _) = read_fake(page(1_000, 1, 48), (0xABCD << 48) | 7, quiet);
        assert_eq!(r.count, 1_007);
        let (r, _) = read_fake(page(0, 1, 48), (1 << 47) - 1, quiet);
        assert_eq!(r.count, (1 << 47) - 1, "largest positive 48-bit value");
    }

    #[test]
    fn sign_extension_at_width_40() {
        let (r, _) = read_fake(page(1 << 41, 3, 40), (1 << 40) - 1, quiet);
        assert_eq!(r.count, (1 << 41) - 1);
        let (r, _) = read_fake(page(10, 3, 40), 1 << 39, quiet);
        assert_eq!(
            r.count,
            10u64.wrapping_sub(1 << 39),
            "1 << 39 is the most negative"
        );
        assert_eq!(sign_extend(1 << 39, 40), (-(1i64 << 39)) as u64);
        assert_eq!(sign_extend(u64::MAX, 64), u64::MAX);
        assert_eq!(sign_extend(0xFFFF, 0), 0xFFFF, "width 0 is treated as 64");
    }

    #[test]
    fn a_hardware_wrap_between_two_reads_gives_the_right_delta() {
        // The counter register runs from -256 through zero to +256 (48 bits) while the
        // kernel has not touched the page: the count grows by 512.
        let offset = 5_000_000;
        let (a, _) = read_fake(page(offset, 2, 48), (1 << 48) - 256, quiet);
        let (b, _) = read_fake(page(offset, 2, 48), 256, quiet);
        let ra = super::super::values::Reading::new(a.count, a.enabled, a.running);
        let rb = super::super::values::Reading::new(b.count, b.enabled, b.running);
        assert_eq!(Delta::between(&ra, &rb, 0).raw, 512);
        // Without the sign extension the first read would be 2^48 too large.
        assert_ne!(a.count, offset as u64 + (1 << 48) - 256);
        // Then the kernel folds the overflow into offset and reloads the register.
        let (c, _) = read_fake(page(offset + 1_000, 2, 48), 0, quiet);
        let rc = super::super::values::Reading::new(c.count, c.enabled, c.running);
        assert_eq!(Delta::between(&rb, &rc, 0).raw, 744);
    }

    #[test]
    fn index_zero_falls_back_without_touching_rdpmc() {
        let (r, calls) = read_fake(page(1_000, 0, 48), 42, quiet);
        assert_eq!(r.status, PAGE_NOT_SCHEDULED);
        assert_eq!(calls, 0);
    }

    #[test]
    fn capabilities_changing_between_reads_switch_paths() {
        let mut head = page(100, 1, 48);
        assert_eq!(read_fake(head, 1, quiet).0.status, PAGE_OK);
        head.capabilities &= !CAP_USER_RDPMC; // sysfs rdpmc set to 0, or multiplexing
        let (r, calls) = read_fake(head, 1, quiet);
        assert_eq!((r.status, calls), (PAGE_NO_RDPMC, 0));
        head.capabilities |= CAP_USER_RDPMC;
        let (r, _) = read_fake(head, 1, quiet);
        assert_eq!((r.status, r.count), (PAGE_OK, 101));
    }

    #[test]
    fn a_seqlock_change_mid_read_restarts_with_the_new_page() {
        // The kernel updates the page during our first rdpmc: new offset, new lock.
        fn update_once(p: &mut MmapPageHead, call: u32) {
            if call == 1 {
                p.lock += 2;
                p.offset += 7_000;
            }
        }
        let (r, calls) = read_fake(page(1_000, 1, 48), 5, update_once);
        assert_eq!(r.status, PAGE_OK);
        assert_eq!((r.retries, calls), (1, 2));
        assert_eq!(r.count, 8_005, "the value comes from the settled page");
        // A page that never settles is given up on, not spun on forever.
        fn update_always(p: &mut MmapPageHead, _: u32) {
            p.lock += 2;
        }
        let (r, _) = read_fake(page(1_000, 1, 48), 5, update_always);
        assert_eq!(r.status, crate::native::PAGE_CONTENDED);
    }

    #[test]
    fn time_scaling_when_multiplexed() {
        // running < enabled: the times advance by time_offset + (cyc × mult) >> shift, and
        // the count scales by enabled / running.
        let mut head = page(0, 1, 48);
        head.time_enabled = 3_000;
        head.time_running = 1_000;
        head.time_mult = 3 << 10; // 3 ns per cycle at shift 10
        head.time_shift = 10;
        head.time_offset = (-1_000i64) as u64;
        let (r, _) = read_fake_tsc(head, 600, 500, quiet);
        // delta = -1,000 + 500 × 3 = 500 ns
        assert_eq!((r.enabled, r.running), (3_500, 1_500));
        assert_eq!(r.scaled, 600 * 3_500 / 1_500);
        // With cap_user_time_short the cycles are taken relative to time_cycles under mask.
        head.capabilities |= CAP_USER_TIME_SHORT;
        head.time_cycles = 0x1_0000_0000;
        head.time_mask = 0xFFFF_FFFF;
        let (r, _) = read_fake_tsc(head, 600, 0x2_0000_0000 + 500, quiet);
        // cyc = 0x1_0000_0000 + 500: delta = -1,000 + (2^32 + 500) × 3
        let delta = ((0x1_0000_0000u64 + 500) * 3).wrapping_sub(1_000);
        assert_eq!(r.enabled, 3_000 + delta);
        assert_eq!(r.running, 1_000 + delta);
    }

    /// Two reads of a page whose times the kernel last wrote at schedule-in: equal and
    /// stale, as they are between reads of a counter that is not multiplexed.
    fn two_stale_reads(capabilities: u64) -> Delta {
        let mut head = page(0, 1, 48);
        head.capabilities = capabilities;
        head.time_mult = 1 << 10; // 1 ns per tick at shift 10
        head.time_shift = 10;
        head.time_offset = (-8_000i64) as u64;
        let (a, _) = read_fake_tsc(head, 100, 10_000, quiet);
        let (b, _) = read_fake_tsc(head, 1_100, 10_500, quiet);
        let reading = |r: PageReading| Reading::new(r.count, r.enabled, r.running);
        Delta::between(&reading(a), &reading(b), 0)
    }

    #[test]
    fn stale_equal_times_are_extrapolated_so_deltas_keep_their_count() {
        // cap_user_time: the times move with the clock even when enabled == running, so
        // the interval has its 500 ns and the delta its 1,000 counts.
        let d = two_stale_reads(CAP_USER_RDPMC | CAP_USER_TIME);
        assert_eq!((d.enabled, d.running), (500, 500));
        assert_eq!((d.raw, d.scaled), (1_000, 1_000));
        assert!(!d.multiplexed());
    }

    #[test]
    fn stale_equal_times_without_a_clock_keep_the_delta_unscaled() {
        // No cap_user_time: the times cannot be brought forward and the interval shows 0
        // ns enabled and running; nothing says the counter was multiplexed, so the delta
        // is the raw count, not 0.
        let d = two_stale_reads(CAP_USER_RDPMC);
        assert_eq!((d.enabled, d.running), (0, 0));
        assert_eq!((d.raw, d.scaled), (1_000, 1_000));
    }

    #[test]
    fn time_scaling_with_running_zero_does_not_divide_by_zero() {
        // Without cap_user_time nothing is extrapolated: running stays 0 and the scaled
        // count is 0 (the counter never ran), not a trap.
        let mut head = page(0, 1, 48);
        head.capabilities = CAP_USER_RDPMC;
        head.time_enabled = 5_000;
        head.time_running = 0;
        let (r, _) = read_fake(head, 1_234, quiet);
        assert_eq!(r.status, PAGE_OK);
        assert_eq!((r.count, r.running, r.scaled), (1_234, 0, 0));
        // Equal times: no scaling, no clock read needed.
        head.time_running = 5_000;
        let (r, _) = read_fake(head, 1_234, quiet);
        assert_eq!(r.scaled, 1_234);
    }
}
