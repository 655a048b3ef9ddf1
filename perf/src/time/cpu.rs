//! CPU helpers for benchmarking: known work, thread pinning and priority. Errors come back
//! as `std::io::Error` (errno and text); nothing panics.

use std::io;

/// Instructions each block of [`add_chain`] retires where `native/` is built (256 adds, the
/// loop's decrement and branch, all in asm: an exact figure to check instruction counters
/// against); `None` for the Rust loop of other builds, whose count the compiler decides.
pub const ADD_CHAIN_BLOCK_INSTRUCTIONS: Option<u64> = {
    #[cfg(picollo_native)]
    let n = Some(crate::native::ADD_CHAIN_BLOCK_INSTRUCTIONS);
    #[cfg(not(picollo_native))]
    let n = None;
    n
};

/// A chain of 256 dependent additions per block (native asm where built, ≈ 256 cycles per
/// block on a PMU machine and [`ADD_CHAIN_BLOCK_INSTRUCTIONS`] instructions; a Rust loop of
/// opaque adds elsewhere). Returns 256 × blocks.
#[inline]
pub fn add_chain(blocks: u64) -> u64 {
    #[cfg(picollo_native)]
    return crate::native::add_chain(blocks);
    #[cfg(not(picollo_native))]
    {
        let mut acc = 0u64;
        for _ in 0..blocks {
            for _ in 0..256 {
                acc = core::hint::black_box(acc) + 1;
            }
        }
        acc
    }
}

fn check(rc: libc::c_int) -> io::Result<()> {
    if rc < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(())
    }
}

/// Pin the calling thread to one CPU (`sched_setaffinity`).
pub fn pin_current_thread(cpu: usize) -> io::Result<()> {
    // CPU_SETSIZE bits fit in a cpu_set_t; beyond it CPU_SET would index out of bounds.
    if cpu >= libc::CPU_SETSIZE as usize {
        return Err(io::Error::from_raw_os_error(libc::EINVAL));
    }
    // SAFETY: cpu_set_t is plain bits; all-zero is the empty set.
    let mut set: libc::cpu_set_t = unsafe { core::mem::zeroed() };
    // SAFETY: `cpu` < CPU_SETSIZE was checked above, so the bit lies inside `set`.
    unsafe { libc::CPU_SET(cpu, &mut set) };
    // SAFETY: `set` is a live cpu_set_t of the size we pass; pid 0 is the calling thread.
    check(unsafe { libc::sched_setaffinity(0, core::mem::size_of_val(&set), &set) })
}

/// The CPU the calling thread runs on now (`sched_getcpu`).
pub fn current_cpu() -> io::Result<usize> {
    // SAFETY: no arguments, no memory.
    let cpu = unsafe { libc::sched_getcpu() };
    check(cpu).map(|()| cpu as usize)
}

fn thread_id() -> libc::id_t {
    // SAFETY: gettid takes no arguments and cannot fail.
    (unsafe { libc::syscall(libc::SYS_gettid) }) as libc::id_t
}

/// Set the calling thread's nice value (-20 highest … 19 lowest). Raising the priority
/// (a lower value than now) needs CAP_SYS_NICE or RLIMIT_NICE: EACCES/EPERM otherwise.
pub fn set_current_thread_nice(nice: i32) -> io::Result<()> {
    // SAFETY: plain integers; on Linux PRIO_PROCESS with a tid addresses that thread.
    check(unsafe { libc::setpriority(libc::PRIO_PROCESS, thread_id(), nice) })
}

/// The calling thread's nice value.
pub fn current_thread_nice() -> io::Result<i32> {
    // getpriority may return -1 legitimately: clear errno first, then check it.
    // SAFETY: __errno_location returns this thread's errno slot, valid for writes.
    unsafe { *libc::__errno_location() = 0 };
    // SAFETY: plain integers.
    let nice = unsafe { libc::getpriority(libc::PRIO_PROCESS, thread_id()) };
    let err = io::Error::last_os_error();
    match err.raw_os_error() {
        Some(0) | None => Ok(nice),
        Some(_) => Err(err),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn add_chain_does_its_256_adds_per_block() {
        assert_eq!(add_chain(0), 0);
        assert_eq!(add_chain(1), 256);
        assert_eq!(add_chain(1_000), 256_000);
    }

    #[test]
    fn pinning_moves_the_thread_and_bad_cpus_are_errors() {
        std::thread::spawn(|| {
            // Some CPU we may run on: the one we are on now.
            let cpu = current_cpu().unwrap();
            pin_current_thread(cpu).unwrap();
            assert_eq!(current_cpu().unwrap(), cpu);
            let err = pin_current_thread(1 << 20).unwrap_err();
            assert_eq!(err.raw_os_error(), Some(libc::EINVAL));
        })
        .join()
        .unwrap();
    }

    #[test]
    fn lowering_priority_works_and_raising_reports_errors() {
        std::thread::spawn(|| {
            let before = current_thread_nice().unwrap();
            set_current_thread_nice((before + 1).min(19)).unwrap();
            assert_eq!(current_thread_nice().unwrap(), (before + 1).min(19));
            // Back up to -20 needs a privilege we may lack: either it works or it is a
            // permission error, never a panic.
            match set_current_thread_nice(-20) {
                Ok(()) => assert_eq!(current_thread_nice().unwrap(), -20),
                Err(e) => assert!(
                    matches!(e.raw_os_error(), Some(libc::EACCES) | Some(libc::EPERM)),
                    "{e}"
                ),
            }
        })
        .join()
        .unwrap();
    }
}
