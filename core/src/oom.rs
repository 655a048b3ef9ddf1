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
