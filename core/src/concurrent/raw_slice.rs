//! A boxed slice held through a raw pointer, for storage that records reach through raw
//! pointers of their own.

use alloc::boxed::Box;

/// A boxed slice held through a raw pointer, so that raw pointers into it (a record's: see
/// `Hot` in `float/histogram.rs` and `SparseCells::biased` in `store.rs`) stay valid when
/// its owner moves: moving a `Box` asserts unique access to its contents (Stacked
/// Borrows), which would invalidate them.
pub(crate) struct RawSlice<T> {
    ptr: core::ptr::NonNull<T>,
    len: usize,
}

impl<T> RawSlice<T> {
    pub(crate) fn new(b: Box<[T]>) -> Self {
        let len = b.len();
        let ptr = Box::into_raw(b) as *mut T;
        RawSlice {
            // SAFETY: `Box::into_raw` never gives null (a dangling, aligned pointer when
            // empty).
            ptr: unsafe { core::ptr::NonNull::new_unchecked(ptr) },
            len,
        }
    }

    /// The first element (no reference made on the way).
    pub(crate) fn as_ptr(&self) -> *const T {
        self.ptr.as_ptr()
    }
}

impl<T> core::ops::Deref for RawSlice<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        // SAFETY: `len` elements from one boxed slice, alive until `drop`; only shared
        // references are made (the elements are atomics where they are written).
        unsafe { core::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T> core::ops::DerefMut for RawSlice<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`, and `&mut self` excludes every other user.
        unsafe { core::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

impl<T> Drop for RawSlice<T> {
    fn drop(&mut self) {
        // SAFETY: the pointer and length of the box `new` took apart, freed only here.
        drop(unsafe {
            Box::from_raw(core::ptr::slice_from_raw_parts_mut(
                self.ptr.as_ptr(),
                self.len,
            ))
        });
    }
}

// SAFETY: a `RawSlice` owns its elements as the `Box` did.
unsafe impl<T: Send> Send for RawSlice<T> {}
// SAFETY: as above; shared access gives `&[T]` only.
unsafe impl<T: Sync> Sync for RawSlice<T> {}
