//! `fork()` while other threads reset, read, attach and record: the child can use every
//! histogram at once (no lock left held, no version left odd), and a thread-local
//! histogram keeps the counts of the threads that did not survive the fork and lets the
//! child's threads reuse their shards.
//!
//! The parent waits for each child with a deadline and kills it when it hangs (a failure);
//! a watchdog aborts the test if `fork()` itself never returns.
#![cfg(all(target_os = "linux", not(loom)))]

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

mod common;

use common::Parked;
use picollo::concurrent::{AtomicHistogram, LocalHistogram, SharedHistogram, Source};
use picollo::Config;

/// Forks per test: each lands at another moment of the busy threads' work.
const FORKS: usize = 30;
/// Far beyond what a child needs; only a hung child reaches it.
const CHILD_DEADLINE: Duration = Duration::from_secs(30);

fn config() -> Config {
    Config::new()
        .with_relative_error(0.01)
        .with_range(1, 1_000_000)
}

/// Aborts the process unless dropped within `limit` (a `fork()` that never returns).
struct Watchdog(Option<mpsc::Sender<()>>);

impl Watchdog {
    fn new(limit: Duration) -> Self {
        let (tx, rx) = mpsc::channel::<()>();
        std::thread::spawn(move || {
            if let Err(mpsc::RecvTimeoutError::Timeout) = rx.recv_timeout(limit) {
                eprintln!("fork test: no progress in {limit:?}, aborting");
                std::process::abort();
            }
        });
        Watchdog(Some(tx))
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        drop(self.0.take());
    }
}

/// Fork; the child runs `check` and exits with its code (0: pass; a panic: 101). The parent
/// waits up to `CHILD_DEADLINE` and returns the child's code, or kills it and panics.
fn in_child(check: impl FnOnce() -> i32) -> i32 {
    // SAFETY: the child only runs `check` (which uses this library and std) and `_exit`s;
    // it never returns into the test harness.
    let pid = unsafe { libc::fork() };
    assert!(pid >= 0, "fork failed");
    if pid == 0 {
        let code = std::panic::catch_unwind(std::panic::AssertUnwindSafe(check)).unwrap_or(101);
        // SAFETY: ends the child without running the parent's exit handlers.
        unsafe { libc::_exit(code) };
    }
    let start = Instant::now();
    loop {
        let mut status = 0;
        // SAFETY: `pid` is our child; `status` is writable.
        let r = unsafe { libc::waitpid(pid, &mut status, libc::WNOHANG) };
        if r == pid {
            assert!(
                libc::WIFEXITED(status),
                "child killed by a signal: {status:#x}"
            );
            return libc::WEXITSTATUS(status);
        }
        assert_eq!(r, 0, "waitpid failed");
        if start.elapsed() > CHILD_DEADLINE {
            // SAFETY: `pid` is our child, still running.
            unsafe {
                libc::kill(pid, libc::SIGKILL);
                libc::waitpid(pid, &mut status, 0);
            }
            panic!("the child hung (killed after {CHILD_DEADLINE:?})");
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Threads running `work` in a loop until `stop`.
fn busy(
    n: usize,
    stop: &Arc<AtomicBool>,
    work: impl Fn() + Send + Sync + 'static,
) -> Vec<JoinHandle<()>> {
    let work = Arc::new(work);
    (0..n)
        .map(|_| {
            let (stop, work) = (stop.clone(), work.clone());
            std::thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    work();
                }
            })
        })
        .collect()
}

#[test]
fn a_child_resets_reads_and_records_while_the_parent_resets_back_to_back() {
    let _watchdog = Watchdog::new(Duration::from_secs(600));
    let atomic = Arc::new(AtomicHistogram::<u32>::new(config()).unwrap());
    let shared = Arc::new(SharedHistogram::<u64>::new(config()).unwrap());
    let stop = Arc::new(AtomicBool::new(false));
    let mut threads = Vec::new();
    // Resets back to back keep the versions odd most of the time, and readers that fail
    // their optimistic copies hold resets off: both must be over before the child starts.
    {
        let h = atomic.clone();
        threads.extend(busy(2, &stop, move || h.reset()));
    }
    {
        let h = shared.clone();
        threads.extend(busy(1, &stop, move || h.reset()));
    }
    {
        let (a, s) = (atomic.clone(), shared.clone());
        threads.extend(busy(1, &stop, move || {
            let _ = a.total_count();
            let _ = s.total_count();
        }));
    }
    {
        let h = atomic.clone();
        threads.extend(busy(1, &stop, move || h.record(42)));
    }
    for _ in 0..FORKS {
        let code = in_child(|| {
            atomic.reset();
            shared.reset();
            for v in [1, 10, 100] {
                atomic.record(v);
                shared.record(v);
            }
            let ok = atomic.total_count() == 3 && shared.total_count() == 3;
            i32::from(!ok)
        });
        assert_eq!(code, 0, "the child's counts are wrong");
    }
    stop.store(true, Ordering::Relaxed);
    threads.into_iter().for_each(|t| t.join().unwrap());
}

#[test]
fn a_child_keeps_the_counts_of_threads_that_did_not_survive_and_reuses_their_shards() {
    const PARKED: usize = 3;
    const K: u64 = 1_000;
    let _watchdog = Watchdog::new(Duration::from_secs(600));
    // Room for the parked threads' shards and this thread's, no more: a thread of the child
    // gets a shard only if an orphaned one is given back.
    let h = Arc::new(LocalHistogram::<u32>::with_limits(config(), PARKED + 1, PARKED + 1).unwrap());
    h.record_n(7, 10);
    // Writers that record K values each, then stay alive (parked) across the forks.
    let parked = Parked::after(PARKED, |t| {
        let h = h.clone();
        move || (0..K).for_each(|i| h.record(1 + t as u64 * K + i))
    });
    assert_eq!(h.shard_count(), PARKED + 1);
    assert_eq!(h.idle_shard_count(), 0);

    // Another histogram whose registry is busy: threads attach and exit, readers and
    // resets lock it; so is `h`'s (a reader).
    let churn = Arc::new(LocalHistogram::<u32>::with_limits(config(), 4, 1).unwrap());
    let stop = Arc::new(AtomicBool::new(false));
    let mut threads = Vec::new();
    {
        let c = churn.clone();
        threads.extend(busy(1, &stop, move || {
            let c = c.clone();
            std::thread::spawn(move || c.record(5)).join().unwrap();
        }));
    }
    {
        let c = churn.clone();
        threads.extend(busy(1, &stop, move || {
            let _ = c.total_count();
            c.reset();
        }));
    }
    {
        let h = h.clone();
        threads.extend(busy(1, &stop, move || {
            let _ = h.total_count();
        }));
    }

    for _ in 0..FORKS {
        let code = in_child(|| {
            // Nothing lost: the parked threads' counts and this thread's.
            if h.total_count() != PARKED as u64 * K + 10 {
                return 1;
            }
            // The parked threads are gone here: their shards are idle, counts included.
            if h.shard_count() != PARKED + 1 || h.idle_shard_count() != PARKED {
                return 2;
            }
            // A new thread takes one of them over (no new shard: the cap is reached).
            let h2 = h.clone();
            let idle_while_attached = std::thread::spawn(move || {
                h2.record(3);
                h2.idle_shard_count()
            })
            .join()
            .unwrap();
            if idle_while_attached != PARKED - 1 || h.shard_count() != PARKED + 1 {
                return 3;
            }
            if h.total_count() != PARKED as u64 * K + 11 {
                return 4;
            }
            // This thread's own shard is still its own.
            h.record(9);
            if h.total_count() != PARKED as u64 * K + 12 || h.idle_shard_count() != PARKED {
                return 5;
            }
            // The busy histogram works too.
            churn.reset();
            let c = churn.clone();
            std::thread::spawn(move || c.record_n(5, 2)).join().unwrap();
            churn.record(6);
            if churn.total_count() != 3 {
                return 6;
            }
            0
        });
        assert_eq!(code, 0, "child check {code} failed");
    }
    stop.store(true, Ordering::Relaxed);
    threads.into_iter().for_each(|t| t.join().unwrap());
    parked.release();
    // The parent's histogram is untouched by the children.
    assert_eq!(h.total_count(), PARKED as u64 * K + 10);
}
