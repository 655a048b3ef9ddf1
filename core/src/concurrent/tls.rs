//! The thread-local words the record paths read: the thread-local mode's last
//! (histogram id, shard cells) pair, and the approximate mode's generator state and its
//! last (cell, count expected next) pair.
//!
//! Inside a shared library (`libpicollo.so`) std's `thread_local!` uses the general-dynamic
//! TLS model: every access calls `__tls_get_addr`, which cost the thread-local mode more
//! than the rest of its record through the C ABI. On x86-64 Linux these words therefore
//! live in a TLS block of our own, declared in assembly and reached with the initial-exec
//! model: the thread pointer (`%fs:0`) plus an offset the dynamic linker fixes once at load
//! time, two instructions and no call. The block is 40 bytes of static TLS (`.tbss`,
//! zeroed for every thread); a library loaded with `dlopen` takes them from the surplus
//! glibc reserves for that. Elsewhere (other targets, Miri, loom) `thread_local!` holds
//! them.
//!
//! The words of a thread are valid for the whole life of the thread, during its TLS
//! destructors too, and are touched by no other thread.

/// A thread's most recent (histogram id, shard cells) pair: the whole thread-local record
/// fast path. Id 0 is never a histogram's, so the all-zero state means "none".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C)]
pub(crate) struct Last {
    pub(crate) id: usize,
    pub(crate) base: *const (),
}

impl Last {
    pub(crate) const EMPTY: Last = Last {
        id: 0,
        base: core::ptr::null(),
    };
}

/// The thread's words: laid out as the assembly block (40 bytes, 8-aligned).
#[derive(Clone, Copy)]
#[repr(C)]
struct Words {
    last: Last,
    /// The approximate mode's xorshift state; 0 until first use.
    rng: u64,
    /// The approximate mode's last exact add: the cell's address (0: none).
    add_cell: usize,
    /// The count that cell holds after that add.
    add_count: u64,
}

#[cfg(all(target_arch = "x86_64", target_os = "linux", not(miri), not(loom)))]
mod imp {
    use super::Words;

    // 40 zero bytes of TLS per thread. Hidden: reached only from this library, so the
    // symbol is neither exported nor interposable. The name carries a version so that
    // two incompatible copies linked into one program would not share it.
    core::arch::global_asm!(
        ".pushsection .tbss,\"awT\",@nobits",
        ".p2align 3",
        ".globl picollo_record_tls_v2",
        ".hidden picollo_record_tls_v2",
        ".type picollo_record_tls_v2, @object",
        ".size picollo_record_tls_v2, 40",
        "picollo_record_tls_v2:",
        ".zero 40",
        ".popsection",
    );

    /// This thread's words.
    #[inline(always)]
    fn words() -> *mut Words {
        let p: *mut Words;
        // SAFETY: the x86-64 initial-exec sequence: `%fs:0` holds the thread pointer (the
        // psABI's TLS variant II), and the GOT slot of `picollo_record_tls_v2@GOTTPOFF`
        // holds the block's offset from it, set by the dynamic linker before any code of
        // this library runs. It only reads; the result is the same for every call on one
        // thread, hence `pure`.
        unsafe {
            core::arch::asm!(
                "mov {p}, qword ptr fs:[0]",
                "add {p}, qword ptr [rip + picollo_record_tls_v2@GOTTPOFF]",
                p = out(reg) p,
                options(pure, readonly, nostack),
            );
        }
        p
    }

    #[inline(always)]
    pub(super) fn read<R>(f: impl FnOnce(&Words) -> R) -> R {
        // SAFETY: `words()` points to this thread's 40-byte, 8-aligned block (the layout
        // of `Words`, all-zero valid), which lives as long as the thread and which no
        // other thread touches; no `&mut` to it exists (only `write` makes one, briefly,
        // and neither function calls out while holding its reference).
        f(unsafe { &*words() })
    }

    #[inline(always)]
    pub(super) fn write(f: impl FnOnce(&mut Words)) {
        // SAFETY: as in `read`; this is the only reference to the block while `f` runs
        // (`f` is one of this module's field updates, which call nothing).
        f(unsafe { &mut *words() })
    }
}

#[cfg(not(all(target_arch = "x86_64", target_os = "linux", not(miri), not(loom))))]
mod imp {
    use super::{Last, Words};
    use core::cell::Cell;

    const ZERO: Words = Words {
        last: Last::EMPTY,
        rng: 0,
        add_cell: 0,
        add_count: 0,
    };

    #[cfg(not(loom))]
    std::thread_local! {
        static WORDS: Cell<Words> = const { Cell::new(ZERO) };
    }
    #[cfg(loom)]
    loom::thread_local! {
        static WORDS: Cell<Words> = Cell::new(ZERO);
    }

    /// During the thread's teardown the slot may be gone: it reads as zero then.
    #[inline(always)]
    pub(super) fn read<R>(f: impl FnOnce(&Words) -> R) -> R {
        let words = WORDS.try_with(Cell::get).unwrap_or(ZERO);
        f(&words)
    }

    /// During the thread's teardown the slot may be gone: the write is dropped then.
    #[inline(always)]
    pub(super) fn write(f: impl FnOnce(&mut Words)) {
        let _ = WORDS.try_with(|w| {
            let mut words = w.get();
            f(&mut words);
            w.set(words);
        });
    }
}

/// This thread's last (histogram, shard) pair.
#[inline(always)]
pub(crate) fn last() -> Last {
    imp::read(|w| w.last)
}

/// Make `last` this thread's last (histogram, shard) pair.
#[inline]
pub(crate) fn set_last(last: Last) {
    imp::write(|w| w.last = last);
}

/// This thread's generator state (0 before first use).
#[inline(always)]
pub(crate) fn rng_state() -> u64 {
    imp::read(|w| w.rng)
}

/// Store this thread's generator state.
#[inline(always)]
pub(crate) fn set_rng_state(state: u64) {
    imp::write(|w| w.rng = state);
}

/// Note that this thread's add to the cell at `cell` found `found`, and say whether
/// another write reached that cell since this thread's previous add to it (when that add
/// was this thread's last one): the count found is not the one that add left.
#[inline(always)]
pub(crate) fn foreign_write_since_last_add(cell: usize, found: u64) -> bool {
    let foreign = imp::read(|w| w.add_cell == cell && w.add_count != found);
    imp::write(|w| {
        w.add_cell = cell;
        w.add_count = found.wrapping_add(1);
    });
    foreign
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_thread_has_its_own_words_starting_at_zero() {
        let here = Last {
            id: 7,
            base: 0x1000 as *const (),
        };
        set_last(here);
        set_rng_state(99);
        std::thread::spawn(|| {
            assert_eq!(last(), Last::EMPTY);
            assert_eq!(rng_state(), 0);
            set_last(Last {
                id: 8,
                base: 0x2000 as *const (),
            });
            set_rng_state(5);
            assert_eq!((last().id, rng_state()), (8, 5));
        })
        .join()
        .unwrap();
        assert_eq!((last(), rng_state()), (here, 99));
        set_last(Last::EMPTY);
    }

    #[test]
    fn a_foreign_write_shows_between_two_adds_of_this_thread_to_one_cell() {
        assert!(!foreign_write_since_last_add(0x100, 7)); // first add: nothing to compare
        assert!(!foreign_write_since_last_add(0x100, 8)); // found what it left
        assert!(foreign_write_since_last_add(0x100, 10)); // someone added in between
        assert!(!foreign_write_since_last_add(0x200, 3)); // another cell: no memory of it
        assert!(!foreign_write_since_last_add(0x100, 42)); // the memo moved to 0x200
        assert!(!foreign_write_since_last_add(0x100, 43));
    }
}
