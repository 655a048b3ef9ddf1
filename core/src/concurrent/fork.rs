//! `fork()` with other threads running: the child gets a copy of memory with only the
//! forking thread in it, so any lock another thread held, and any reset another thread had
//! half done (a seqlock version left odd), would stay that way in the child forever.
//!
//! Every piece of shared state that is not a plain counter is changed inside a **section**
//! ([`enter`]): the thread-local registry under its mutex, a seqlock reset, a reader holding
//! resets off. Sections are short and never wait for anything but other sections to end.
//! A `pthread_atfork` handler, registered when the first histogram is made, closes the
//! gate before `fork()` (new sections wait) and waits until no section is in flight; so
//! the child starts with every registry unlocked, every version even and no reader holding
//! resets off. The parent reopens the gate; the child reopens it and bumps the fork
//! [`epoch`], recording the forking thread as the [`survivor`], so the thread-local
//! histograms can hand the shards of the threads that did not survive to new threads (with
//! their counts) on their next registry access.
//!
//! Without `std` on a Unix target (or under loom or Miri, which cannot call
//! `pthread_atfork`) there is no `fork` to handle: sections cost nothing and the epoch never
//! changes.

#[cfg(all(feature = "std", unix, not(loom), not(miri)))]
mod imp {
    use core::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
    use std::cell::Cell;

    /// The gate's closed flag (a fork is being prepared), above the count of sections in
    /// flight.
    const CLOSED: usize = 1 << (usize::BITS - 1);

    static GATE: AtomicUsize = AtomicUsize::new(0);
    static EPOCH: AtomicU64 = AtomicU64::new(0);
    static SURVIVOR: AtomicU64 = AtomicU64::new(0);
    static REGISTERED: AtomicBool = AtomicBool::new(false);

    std::thread_local! {
        static TOKEN: Cell<u64> = const { Cell::new(0) };
    }

    /// One section in flight; leaving it is dropping it.
    pub(crate) struct Section(());

    impl Drop for Section {
        fn drop(&mut self) {
            // Release: the section's writes come before a fork that waited for it.
            GATE.fetch_sub(1, Ordering::Release);
        }
    }

    /// Enter a section: waits while a fork is being prepared.
    pub(crate) fn enter() -> Section {
        init();
        let mut spins = 0;
        loop {
            let g = GATE.load(Ordering::Relaxed);
            if g & CLOSED == 0
                && GATE
                    .compare_exchange_weak(g, g + 1, Ordering::Acquire, Ordering::Relaxed)
                    .is_ok()
            {
                return Section(());
            }
            super::super::cell::backoff(&mut spins);
        }
    }

    /// Register the fork handlers once per process (histogram constructors call it, and
    /// so does every section). Not a `std::sync::Once`: a fork while another thread is
    /// inside `call_once` would leave the child's `Once` running forever, and every later
    /// section waiting on it. Here a thread that loses the race goes on without waiting.
    #[inline]
    pub(crate) fn init() {
        if !REGISTERED.load(Ordering::Relaxed) && !REGISTERED.swap(true, Ordering::Relaxed) {
            // SAFETY: the three handlers are `extern "C" fn()` with no preconditions; they
            // touch only this module's atomics and the calling thread's token.
            let rc = unsafe { libc::pthread_atfork(Some(prepare), Some(parent), Some(child)) };
            // ENOMEM is the only failure: forks then stay as unsafe as without the
            // handlers.
            let _ = rc;
        }
    }

    extern "C" fn prepare() {
        let mut spins = 0;
        // Close the gate (another thread's fork may hold it closed: wait for its turn).
        loop {
            let g = GATE.load(Ordering::Relaxed);
            if g & CLOSED == 0
                && GATE
                    .compare_exchange_weak(g, g | CLOSED, Ordering::Acquire, Ordering::Relaxed)
                    .is_ok()
            {
                break;
            }
            super::super::cell::backoff(&mut spins);
        }
        // Wait out the sections in flight; Acquire pairs with their Release on leaving.
        while GATE.load(Ordering::Acquire) != CLOSED {
            super::super::cell::backoff(&mut spins);
        }
    }

    extern "C" fn parent() {
        GATE.fetch_and(!CLOSED, Ordering::Release);
    }

    extern "C" fn child() {
        SURVIVOR.store(thread_token(), Ordering::Relaxed);
        EPOCH.fetch_add(1, Ordering::Release);
        GATE.store(0, Ordering::Release);
    }

    /// This thread's token: unique among the threads of the process, never 0.
    pub(crate) fn thread_token() -> u64 {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        TOKEN
            .try_with(|t| {
                if t.get() == 0 {
                    t.set(NEXT.fetch_add(1, Ordering::Relaxed));
                }
                t.get()
            })
            // During thread teardown: a token no registry entry can hold.
            .unwrap_or(u64::MAX)
    }

    /// Forks survived: bumped in each child.
    pub(crate) fn epoch() -> u64 {
        EPOCH.load(Ordering::Acquire)
    }

    /// The token of the thread that called the last `fork` (in the child: the only thread
    /// left from before it).
    pub(crate) fn survivor() -> u64 {
        SURVIVOR.load(Ordering::Relaxed)
    }
}

#[cfg(not(all(feature = "std", unix, not(loom), not(miri))))]
#[allow(dead_code)]
mod imp {
    /// Nothing to wait for without `fork`.
    pub(crate) struct Section(());

    #[inline]
    pub(crate) fn enter() -> Section {
        Section(())
    }

    #[inline]
    pub(crate) fn init() {}

    pub(crate) fn thread_token() -> u64 {
        0
    }

    pub(crate) fn epoch() -> u64 {
        0
    }

    pub(crate) fn survivor() -> u64 {
        0
    }
}

#[allow(unused_imports)]
pub(crate) use imp::{enter, epoch, init, survivor, thread_token, Section};
