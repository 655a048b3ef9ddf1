//! Which way a session reads its counters: in user space through each counter's mapped
//! page (`rdpmc`, `mrs`), or with one `read(2)` of the group. The user-space read is the
//! cheap one on bare metal (tens of nanoseconds against hundreds), but a hypervisor that
//! traps `rdpmc` makes it the dear one (tens of microseconds against a few), and under an
//! instrumenter that cannot run `rdpmc` (valgrind) it kills the process. So a session takes
//! the path that costs less, measured at open, unless told which; and never the user-space
//! one where it would fault.

use core::fmt;

use super::values::ReadPath;
use picollo::Grouped;

/// How a session picks its read path ([`super::SessionBuilder::with_read_policy`]).
#[repr(u32)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ReadPolicy {
    /// Always `read(2)`: no page is mapped.
    Syscall = 0,
    /// The cheaper of the two, measured at open (the default).
    #[default]
    Auto = 1,
    /// The user-space read wherever a counter's page allows it (and the process is not under
    /// an instrumenter that cannot run it), whatever it costs.
    UserSpace = 2,
}

impl ReadPolicy {
    /// The policy of `name`: `auto`, `user` (or `rdpmc`), `syscall` (or `read`).
    pub fn parse(name: &str) -> Option<ReadPolicy> {
        match name {
            "auto" => Some(ReadPolicy::Auto),
            "user" | "rdpmc" | "user-space" => Some(ReadPolicy::UserSpace),
            "syscall" | "read" => Some(ReadPolicy::Syscall),
            _ => None,
        }
    }

    /// Its name as [`ReadPolicy::parse`] reads it.
    pub fn name(self) -> &'static str {
        match self {
            ReadPolicy::Auto => "auto",
            ReadPolicy::UserSpace => "user",
            ReadPolicy::Syscall => "syscall",
        }
    }
}

/// Why a session reads the way it does.
#[repr(u32)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PathReason {
    /// No counter of the group can be read in user space: software or emulated events only,
    /// an inherited group, no mapped page, or a page that did not allow the read at open.
    #[default]
    NoPage = 0,
    /// The policy said which ([`ReadPolicy::Syscall`] or [`ReadPolicy::UserSpace`]).
    Forced = 1,
    /// [`ReadPolicy::Auto`]: this path cost less at open (both costs are given).
    Cheaper = 2,
    /// The process runs under an instrumenter that cannot run `rdpmc` (valgrind): read(2).
    Instrumented = 3,
    /// Not chosen yet: a session opened disabled under [`ReadPolicy::Auto`] measures both
    /// paths at its first enable; until then reads try the user-space path.
    Pending = 4,
}

/// The path a session took at open, why, and what each path cost then (nanoseconds a read
/// of the whole group, the median of [`COST_ROUNDS`]; NaN where not measured).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PathChoice {
    /// [`ReadPath::Rdpmc`] or [`ReadPath::Syscall`].
    pub path: ReadPath,
    /// The policy the session was opened with.
    pub policy: ReadPolicy,
    /// Why `path`.
    pub reason: PathReason,
    /// A user-space read of the group, in ns.
    pub user_ns: f64,
    /// A `read(2)` of the group, in ns.
    pub syscall_ns: f64,
}

/// Reads of each path timed at open under [`ReadPolicy::Auto`] (their medians are compared).
pub const COST_ROUNDS: usize = 31;

impl PathChoice {
    /// The choice where nothing was measured.
    pub(crate) fn unmeasured(path: ReadPath, policy: ReadPolicy, reason: PathReason) -> PathChoice {
        PathChoice {
            path,
            policy,
            reason,
            user_ns: f64::NAN,
            syscall_ns: f64::NAN,
        }
    }
}

impl fmt::Display for PathChoice {
    /// `read(2): it cost 5,669 ns a read against 18,715 ns in user space (rdpmc trapped?)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = |p: ReadPath| {
            if p == ReadPath::Rdpmc {
                "user space (rdpmc)"
            } else {
                "read(2)"
            }
        };
        let (user, sys) = (ns(self.user_ns), ns(self.syscall_ns));
        match self.reason {
            PathReason::NoPage => write!(f, "read(2): no counter can be read in user space"),
            PathReason::Forced => write!(f, "{}: the read policy says so", name(self.path)),
            PathReason::Pending => write!(
                f,
                "not chosen yet: both paths are timed when the session is first enabled"
            ),
            PathReason::Instrumented => write!(
                f,
                "read(2): the process runs under valgrind, which cannot run rdpmc"
            ),
            PathReason::Cheaper if self.path == ReadPath::Rdpmc => write!(
                f,
                "user space (rdpmc): {user} a read against {sys} through read(2)"
            ),
            PathReason::Cheaper => write!(
                f,
                "read(2): {sys} a read against {user} in user space (a hypervisor that traps \
                 rdpmc makes it dear)"
            ),
        }
    }
}

/// `18,715 ns` (whole nanoseconds with thousands separators), `?` for NaN.
fn ns(v: f64) -> String {
    match v.is_finite() {
        true => format!("{} ns", Grouped(v.max(0.0).round() as u64)),
        false => String::from("?"),
    }
}

/// The path of a session opened with `policy`, where `possible` says whether every perf
/// counter has a page, `instrumented` whether the process runs under valgrind (said before
/// the pages: user-space reads are out whatever they allow), and `measure` times both paths (user space, read(2); NaN for a user-space read the page sent
/// to read(2)). `measure` runs only under [`ReadPolicy::Auto`] when the page is possible.
pub(crate) fn choose(
    policy: ReadPolicy,
    possible: bool,
    instrumented: bool,
    measure: impl FnOnce() -> (f64, f64),
) -> PathChoice {
    let syscall = |reason| PathChoice::unmeasured(ReadPath::Syscall, policy, reason);
    if policy == ReadPolicy::Syscall {
        return syscall(PathReason::Forced);
    }
    if instrumented {
        return syscall(PathReason::Instrumented);
    }
    if !possible {
        return syscall(PathReason::NoPage);
    }
    if policy == ReadPolicy::UserSpace {
        return PathChoice::unmeasured(ReadPath::Rdpmc, policy, PathReason::Forced);
    }
    let (user_ns, syscall_ns) = measure();
    if user_ns.is_nan() {
        return PathChoice {
            user_ns,
            syscall_ns,
            ..syscall(PathReason::NoPage)
        };
    }
    let path = if user_ns <= syscall_ns {
        ReadPath::Rdpmc
    } else {
        ReadPath::Syscall
    };
    PathChoice {
        path,
        policy,
        reason: PathReason::Cheaper,
        user_ns,
        syscall_ns,
    }
}

/// The median of the costs of `reads` (a cost in ns, or `None` for a read that did not take
/// the path timed); NaN when fewer than half took it.
pub(crate) fn median_cost(reads: impl IntoIterator<Item = Option<f64>>) -> f64 {
    let mut rounds = 0;
    let mut costs: Vec<f64> = reads
        .into_iter()
        .inspect(|_| rounds += 1)
        .flatten()
        .collect();
    if costs.len() * 2 < rounds.max(1) {
        return f64::NAN;
    }
    costs.sort_by(f64::total_cmp);
    costs[costs.len() / 2]
}

/// Whether this process runs under valgrind, whose CPU cannot run `rdpmc` (SIGILL): its
/// preload objects are mapped into every process it runs (`vgpreload_*.so`). Read once.
pub fn under_instrumenter() -> bool {
    static ANSWER: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ANSWER.get_or_init(|| {
        std::fs::read_to_string("/proc/self/maps").is_ok_and(|maps| maps_show_valgrind(&maps))
    })
}

/// Whether `/proc/self/maps` text shows valgrind's preload objects.
pub(crate) fn maps_show_valgrind(maps: &str) -> bool {
    maps.lines()
        .filter_map(|l| l.rsplit('/').next())
        .any(|file| file.starts_with("vgpreload_"))
}

#[cfg(test)]
mod tests {
    use super::*;

    const NEVER: fn() -> (f64, f64) = || panic!("nothing to measure");

    #[test]
    fn auto_takes_the_cheaper_path_measured() {
        // Bare metal: rdpmc tens of ns, read(2) hundreds.
        let c = choose(ReadPolicy::Auto, true, false, || (31.0, 420.0));
        assert_eq!((c.path, c.reason), (ReadPath::Rdpmc, PathReason::Cheaper));
        // A hypervisor that traps rdpmc: 3 counters 36–42 µs through the page, ~8 µs read(2).
        let c = choose(ReadPolicy::Auto, true, false, || (39_000.0, 8_100.0));
        assert_eq!((c.path, c.reason), (ReadPath::Syscall, PathReason::Cheaper));
        assert_eq!((c.user_ns, c.syscall_ns), (39_000.0, 8_100.0));
        let text = format!("{c}");
        assert!(
            text.starts_with("read(2): 8,100 ns a read against 39,000 ns"),
            "{text}"
        );
    }

    #[test]
    fn a_policy_forces_the_path_without_measuring() {
        let c = choose(ReadPolicy::UserSpace, true, false, NEVER);
        assert_eq!((c.path, c.reason), (ReadPath::Rdpmc, PathReason::Forced));
        let c = choose(ReadPolicy::Syscall, true, false, NEVER);
        assert_eq!((c.path, c.reason), (ReadPath::Syscall, PathReason::Forced));
        assert!(c.user_ns.is_nan() && c.syscall_ns.is_nan());
    }

    #[test]
    fn valgrind_overrides_even_a_forced_user_space_read() {
        for policy in [ReadPolicy::Auto, ReadPolicy::UserSpace] {
            let c = choose(policy, true, true, NEVER);
            assert_eq!(
                (c.path, c.reason),
                (ReadPath::Syscall, PathReason::Instrumented)
            );
        }
        // Said even where no page would have allowed it: the process could not take it.
        let c = choose(ReadPolicy::UserSpace, false, true, NEVER);
        assert_eq!(c.reason, PathReason::Instrumented);
        let c = choose(ReadPolicy::Syscall, true, true, NEVER);
        assert_eq!(c.reason, PathReason::Forced, "read(2) was asked for");
    }

    #[test]
    fn no_page_or_a_page_that_refuses_means_read2() {
        let c = choose(ReadPolicy::UserSpace, false, false, NEVER);
        assert_eq!((c.path, c.reason), (ReadPath::Syscall, PathReason::NoPage));
        let c = choose(ReadPolicy::Auto, true, false, || (f64::NAN, 500.0));
        assert_eq!((c.path, c.reason), (ReadPath::Syscall, PathReason::NoPage));
    }

    #[test]
    fn the_median_cost_ignores_rare_traps_and_needs_half_the_reads() {
        // A simulated trapped page: 1 read in 10 pays a 40 µs exit on top of 8 µs.
        let trapped = (1..=31).map(|i| {
            Some(if i % 10 == 0 {
                48_000.0
            } else {
                8_000.0 + i as f64
            })
        });
        let m = median_cost(trapped);
        assert!((8_000.0..8_032.0).contains(&m), "{m}");
        // A page that sends most reads to read(2) has no user-space cost.
        let m = median_cost((1..=31).map(|i| (i % 3 == 0).then_some(30.0)));
        assert!(m.is_nan());
        assert!(median_cost(core::iter::empty()).is_nan());
    }

    #[test]
    fn valgrind_is_told_by_its_preload_objects() {
        let native = "7f00-7f10 r-xp 00000000 08:01 1 /usr/lib/x86_64-linux-gnu/libc.so.6\n";
        let vg = "04000000-04001000 r-xp 0 08:01 2 \
                  /usr/libexec/valgrind/vgpreload_memcheck-amd64-linux.so\n";
        assert!(!maps_show_valgrind(native));
        assert!(maps_show_valgrind(&format!("{native}{vg}")));
        assert!(!maps_show_valgrind("7f00-7f10 r-xp 0 0:0 0 [vdso]\n"));
        for (name, policy) in [
            ("auto", ReadPolicy::Auto),
            ("user", ReadPolicy::UserSpace),
            ("syscall", ReadPolicy::Syscall),
        ] {
            assert_eq!(ReadPolicy::parse(name), Some(policy));
            assert_eq!(policy.name(), name);
        }
        assert_eq!(ReadPolicy::parse("fast"), None);
    }
}
