//! Fallible allocation. A histogram's storage and a query's copy of it can be large
//! (hundreds of MiB at the finest precision over the whole `u64` range), so those
//! allocations report failure as a value instead of aborting the process.

/// An allocation of `bytes` bytes failed (or its size does not fit in `usize`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutOfMemory {
    /// The size asked for, saturating at `usize::MAX`.
    pub bytes: usize,
}

impl core::fmt::Display for OutOfMemory {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "out of memory: could not allocate {} bytes",
            crate::Grouped(self.bytes as u64)
        )
    }
}

#[cfg(feature = "std")]
impl std::error::Error for OutOfMemory {}

/// Abort the way a failed `Vec` allocation does, for the APIs that cannot return an error
/// (each has a fallible twin that returns [`OutOfMemory`]).
#[cfg(feature = "alloc")]
pub(crate) fn abort(e: OutOfMemory) -> ! {
    let layout = core::alloc::Layout::from_size_align(e.bytes.min(isize::MAX as usize), 1)
        .unwrap_or(core::alloc::Layout::new::<u8>());
    alloc::alloc::handle_alloc_error(layout)
}

/// `n` values made by `make`, in a vector allocated without aborting on failure.
#[cfg(feature = "alloc")]
pub(crate) fn try_vec<T>(
    n: usize,
    mut make: impl FnMut() -> T,
) -> Result<alloc::vec::Vec<T>, OutOfMemory> {
    let mut v = alloc::vec::Vec::new();
    v.try_reserve_exact(n).map_err(|_| OutOfMemory {
        bytes: n.saturating_mul(core::mem::size_of::<T>()),
    })?;
    v.extend((0..n).map(|_| make()));
    Ok(v)
}

/// `n` values of `T` made of zero bytes, allocated without aborting on failure, from the
/// allocator's zeroed memory: the system hands a large block over untouched, so a
/// histogram of hundreds of MiB costs pages only where it is counted into, and making one
/// writes nothing.
///
/// # Safety
///
/// Zero bytes must be a valid `T` (an integer, or an atomic integer, whose value is zero).
#[cfg(feature = "alloc")]
pub(crate) unsafe fn try_zeroed<T>(n: usize) -> Result<alloc::vec::Vec<T>, OutOfMemory> {
    let oom = OutOfMemory {
        bytes: n.saturating_mul(core::mem::size_of::<T>()),
    };
    let layout = core::alloc::Layout::array::<T>(n).map_err(|_| oom)?;
    if layout.size() == 0 {
        // No bytes to allocate: zero values, or values of no size, made without memory.
        return try_vec(n, || {
            // SAFETY: the caller guarantees zero bytes are a valid `T`, and `T` has none.
            unsafe { core::mem::zeroed() }
        });
    }
    // SAFETY: the layout's size is not zero (checked above).
    let p = unsafe { alloc::alloc::alloc_zeroed(layout) }.cast::<T>();
    if p.is_null() {
        return Err(oom);
    }
    // SAFETY: `p` comes from the global allocator with the layout of `n` values of `T`, all
    // zero bytes, which the caller guarantees are valid `T`s; length and capacity are `n`.
    Ok(unsafe { alloc::vec::Vec::from_raw_parts(p, n, n) })
}
