//! Counter readings and the deltas between two of them: 64-bit, wrap-safe, scaled when the
//! kernel multiplexed the counter (running < enabled), never dividing by zero.

/// `count × enabled / running` in 128 bits, saturating at `u64::MAX`. Equal times (0 and 0
/// included: an interval whose times did not move) mean the counter was not multiplexed:
/// `count` stands. `running == 0` with `enabled > 0` means the counter was never on the PMU
/// in that interval: there is nothing to scale, so 0.
pub fn scale(count: u64, enabled: u64, running: u64) -> u64 {
    if enabled == running {
        return count;
    }
    if running == 0 {
        return 0;
    }
    let v = count as u128 * enabled as u128 / running as u128;
    u64::try_from(v).unwrap_or(u64::MAX)
}

/// How a reading was taken.
#[repr(u32)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ReadPath {
    /// Not read yet.
    #[default]
    None = 0,
    /// One `read(2)` of the whole group.
    Syscall = 1,
    /// The user-space read through each counter's mmapped page (`rdpmc` on x86-64, `mrs`
    /// on arm64).
    Rdpmc = 2,
}

/// One counter's state at one read.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reading {
    /// The kernel's 64-bit count (unscaled).
    pub value: u64,
    /// Nanoseconds the counter was enabled.
    pub enabled: u64,
    /// Nanoseconds it was actually on the PMU.
    pub running: u64,
    /// `value` scaled by `enabled / running` (equal to `value` unless multiplexed; 0 when it
    /// was enabled and never ran).
    pub scaled: u64,
}

impl Reading {
    /// A reading from its raw parts.
    pub fn new(value: u64, enabled: u64, running: u64) -> Self {
        Reading {
            value,
            enabled,
            running,
            scaled: scale(value, enabled, running),
        }
    }

    /// The kernel multiplexed the counter: it ran for only part of the time it was enabled.
    pub fn multiplexed(&self) -> bool {
        self.running < self.enabled
    }
}

/// The change of one counter between two reads.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Delta {
    /// `current − previous` of the raw count, modulo 2^64 (correct across a wrap).
    pub raw: u64,
    /// `raw` scaled by the interval's `enabled / running`; equals `raw` when not
    /// multiplexed (equal times, or times that did not move), 0 when the counter never ran
    /// in the interval.
    pub scaled: u64,
    /// `scaled` minus the calibrated cost of a read, floored at 0.
    pub corrected: u64,
    /// Enabled nanoseconds in the interval.
    pub enabled: u64,
    /// Running nanoseconds in the interval.
    pub running: u64,
}

impl Delta {
    /// The delta from `previous` to `current`, less `overhead` in `corrected`.
    pub fn between(previous: &Reading, current: &Reading, overhead: u64) -> Self {
        let raw = current.value.wrapping_sub(previous.value);
        let enabled = current.enabled.wrapping_sub(previous.enabled);
        let running = current.running.wrapping_sub(previous.running);
        let scaled = scale(raw, enabled, running);
        Delta {
            raw,
            scaled,
            corrected: scaled.saturating_sub(overhead),
            enabled,
            running,
        }
    }

    /// The counter was multiplexed during the interval.
    pub fn multiplexed(&self) -> bool {
        self.running < self.enabled
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scaling_never_divides_by_zero_and_never_overflows() {
        assert_eq!(
            scale(1_000, 0, 0),
            1_000,
            "times that did not move: not multiplexed"
        );
        assert_eq!(scale(1_000, 500, 0), 0);
        assert_eq!(scale(1_000, 500, 500), 1_000);
        assert_eq!(scale(1_000, 1_000, 250), 4_000);
        assert_eq!(scale(u64::MAX, u64::MAX, 1), u64::MAX);
        assert_eq!(scale(u64::MAX / 2, 4, 2), u64::MAX - 1);
    }

    #[test]
    fn deltas_are_correct_across_a_64_bit_wrap() {
        let before = Reading::new(u64::MAX - 9, 100, 100);
        let after = Reading::new(20, 200, 200);
        let d = Delta::between(&before, &after, 5);
        assert_eq!(d.raw, 30);
        assert_eq!(d.scaled, 30);
        assert_eq!(d.corrected, 25);
        assert!(!d.multiplexed());
        assert_eq!(Delta::between(&before, &after, 1_000).corrected, 0);
    }

    #[test]
    fn multiplexed_deltas_scale_by_the_interval_not_the_total() {
        // Over the interval: enabled 1,000 ns, running 250 ns → ×4.
        let before = Reading::new(100, 1_000, 1_000);
        let after = Reading::new(350, 2_000, 1_250);
        assert!(after.multiplexed());
        let d = Delta::between(&before, &after, 0);
        assert!(d.multiplexed());
        assert_eq!((d.raw, d.scaled), (250, 1_000));
        // Never scheduled in the interval: scaled is 0, not a division by zero.
        let idle = Reading::new(350, 3_000, 1_250);
        assert_eq!(Delta::between(&after, &idle, 0).scaled, 0);
    }

    #[test]
    fn a_delta_whose_times_did_not_move_keeps_its_count() {
        // Two readings with the same stale times (a page the kernel has not rewritten):
        // the interval shows 0 ns enabled and running, and nothing was multiplexed.
        let before = Reading::new(100, 5_000, 5_000);
        let after = Reading::new(600, 5_000, 5_000);
        let d = Delta::between(&before, &after, 0);
        assert_eq!((d.enabled, d.running), (0, 0));
        assert_eq!((d.raw, d.scaled), (500, 500));
        assert!(!d.multiplexed());
    }
}
