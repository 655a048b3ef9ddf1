//! `picollo_approx_counter_*`: the scalable approximate counter on its own (the counter
//! every bucket of an approximate-mode histogram is made of).

use picollo_core::concurrent::{ApproxCounter, ApproxPolicy};

use crate::args::out;
use crate::boundary::boundary;
use crate::error::Failure;
use crate::handle::{free_boxed, set_boxed, try_mut, try_ref, Boxed, Castable};
use crate::status::picollo_status;

/// A scalable approximate counter (opaque, 64-bit): Dice, Lev & Moir's counter as .NET's
/// Dynamic PGO uses it. Create with `picollo_approx_counter_new`, free with
/// `picollo_approx_counter_free`.
///
/// Counting: below 2^T (the threshold) every increment adds 1, so small counts are exact.
/// From 2^T on, an increment adds 2^k with probability 2^-k, where
/// k = floor(log2(count)) − T + 1 (capped at `max_shift`): the expected value stays the
/// true count, and updates get rarer as the count grows, so threads hitting one counter
/// stop fighting over its cache line. With T = 13 the error is about 2 % at two standard
/// deviations.
///
/// Threads: `picollo_approx_counter_increment`, `_add`, `_get` and `_reset` may be called
/// from any number of threads at once (the calls that change the count take a non-const
/// pointer, as the histogram's record functions do, but need no caller lock); each thread
/// flips its coins with its own generator, seeded differently per thread on its first
/// increment. `picollo_approx_counter_free` must not race any other call on the same
/// counter.
#[allow(non_camel_case_types)]
pub struct picollo_approx_counter {
    _private: [u8; 0],
}

impl Castable for picollo_approx_counter {
    type Ownership = Boxed;
    type RustType = ApproxCounter;
}

fn invalid(message: String) -> Failure {
    Failure::invalid(message)
}

/// The policy for the C arguments (0 meaning the default for the two numbers).
fn policy_of(threshold: u32, max_shift: u32, exact: u32) -> Result<ApproxPolicy, Failure> {
    let mut policy = ApproxPolicy::new();
    match threshold {
        0 => {}
        1..=62 => policy = policy.with_threshold(threshold),
        _ => {
            return Err(invalid(format!(
                "threshold is {threshold}: it must be 1..62 (0 for the default, 13)"
            )))
        }
    }
    match max_shift {
        0 => {}
        1..=62 => policy = policy.with_max_shift(max_shift),
        _ => {
            return Err(invalid(format!(
                "max_shift is {max_shift}: it must be 1..62 (0 for the default, 10)"
            )))
        }
    }
    match exact {
        0 => {}
        1 => policy = policy.with_exact_when_uncontended(true),
        _ => {
            return Err(invalid(format!(
                "exact_when_uncontended is {exact}: it must be 0 or 1"
            )))
        }
    }
    Ok(policy)
}

/// Creates an approximate counter at zero: on success `*out` holds a new handle for
/// `picollo_approx_counter_free`.
///
/// - `threshold`: T, 1..62; counts below 2^T are exact. 0 means the default, 13.
/// - `max_shift`: the cap on k, 1..62, so updates happen at least once every 2^max_shift
///   increments on average. 0 means the default, 10 (at least every 1,024).
/// - `exact_when_uncontended`: 1 tries an exact `count + 1` with one compare-exchange
///   first and flips a coin only when it fails (another thread got there first), so a
///   counter used by one thread stays exact; it costs an atomic read-modify-write per
///   increment, which the approximate counter otherwise avoids. 0 (the default) or 1.
///
/// Errors: NULL `out`; `INVALID_ARGUMENT` for a threshold or max_shift above 62 or an
/// `exact_when_uncontended` other than 0 or 1.
/// # Safety
/// `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn picollo_approx_counter_new(
    threshold: u32,
    max_shift: u32,
    exact_when_uncontended: u32,
    out: *mut *mut picollo_approx_counter,
) -> picollo_status {
    boundary!({
        let out = try_mut!(out)?;
        let policy = policy_of(threshold, max_shift, exact_when_uncontended)?;
        set_boxed(out, ApproxCounter::with_policy(policy));
        Ok(())
    })
}

/// Frees a counter. NULL is accepted and ignored. Free each handle exactly once, when no
/// other thread uses it.
/// # Safety
/// `c` is NULL or a handle from `picollo_approx_counter_new` not yet freed.
#[no_mangle]
pub unsafe extern "C" fn picollo_approx_counter_free(c: *mut picollo_approx_counter) {
    free_boxed!(c)
}

/// Counts one event (approximately above 2^T, see `picollo_approx_counter`): the hot path.
/// Thread-safe. Never fails; a NULL handle is ignored.
/// # Safety
/// `c` is NULL or a live handle.
/// cbindgen:prefix=PICOLLO_RECORD_ATTR
#[no_mangle]
pub unsafe extern "C" fn picollo_approx_counter_increment(c: *mut picollo_approx_counter) {
    // The counter is an atomic: a shared reference is all any thread needs.
    boundary!({
        try_ref!(c)?.increment();
        Ok(())
    })
}

/// Adds `n` exactly, saturating at UINT64_MAX − 2^22 (the approximate and interlocked
/// ceiling; the count never wraps). Thread-safe. A NULL handle is ignored.
/// # Safety
/// `c` is NULL or a live handle.
#[no_mangle]
pub unsafe extern "C" fn picollo_approx_counter_add(c: *mut picollo_approx_counter, n: u64) {
    boundary!({
        try_ref!(c)?.add(n);
        Ok(())
    })
}

/// Writes the current estimate to `*out` (one atomic load; an unbiased estimate of the number
/// of increments plus everything added). Thread-safe.
/// # Safety
/// `c` is NULL or a live handle; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn picollo_approx_counter_get(
    c: *const picollo_approx_counter,
    out: *mut u64,
) -> picollo_status {
    boundary!({
        let c = try_ref!(c)?;
        out!(out, c.get())
    })
}

/// Takes the count to zero and writes the count taken to `*taken` (which may be NULL to
/// discard it). One atomic swap: an increment racing the reset is counted either in the
/// count taken or in the new count, never lost and never in both. Thread-safe.
/// # Safety
/// `c` is NULL or a live handle; `taken` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn picollo_approx_counter_reset(
    c: *mut picollo_approx_counter,
    taken: *mut u64,
) -> picollo_status {
    boundary!({
        let count = try_ref!(c)?.reset();
        out!(taken?, count)
    })
}

/// Writes the counter's policy to the outputs, each of which may be NULL. `*threshold` gets T,
/// `*max_shift` the cap on k, `*exact_when_uncontended` 0 or 1 (defaults resolved: 13, 10, 0).
/// # Safety
/// `c` is NULL or a live handle; each output is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn picollo_approx_counter_policy(
    c: *const picollo_approx_counter,
    threshold: *mut u32,
    max_shift: *mut u32,
    exact_when_uncontended: *mut u32,
) -> picollo_status {
    boundary!({
        let p = try_ref!(c)?.policy();
        out!(threshold?, p.threshold())?;
        out!(max_shift?, p.max_shift())?;
        out!(
            exact_when_uncontended?,
            u32::from(p.exact_when_uncontended())
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ptr;

    #[test]
    fn defaults_and_bad_arguments() {
        let mut c = ptr::null_mut();
        // SAFETY: valid out-pointers throughout; the handle is freed once.
        unsafe {
            assert_eq!(
                picollo_approx_counter_new(0, 0, 0, &mut c),
                picollo_status::Ok
            );
            let (mut t, mut m, mut e) = (0, 0, 9);
            assert_eq!(
                picollo_approx_counter_policy(c, &mut t, &mut m, &mut e),
                picollo_status::Ok
            );
            assert_eq!((t, m, e), (13, 10, 0));
            for _ in 0..1000 {
                picollo_approx_counter_increment(c);
            }
            picollo_approx_counter_add(c, 5);
            let mut v = 0;
            assert_eq!(picollo_approx_counter_get(c, &mut v), picollo_status::Ok);
            assert_eq!(v, 1005);
            assert_eq!(picollo_approx_counter_reset(c, &mut v), picollo_status::Ok);
            assert_eq!(v, 1005);
            assert_eq!(picollo_approx_counter_get(c, &mut v), picollo_status::Ok);
            assert_eq!(v, 0);
            picollo_approx_counter_free(c);

            let mut d = ptr::null_mut();
            for (t, m, e) in [(63, 0, 0), (0, 63, 0), (0, 0, 2), (u32::MAX, 0, 0)] {
                assert_eq!(
                    picollo_approx_counter_new(t, m, e, &mut d),
                    picollo_status::InvalidArgument
                );
                assert!(d.is_null(), "nothing is written on failure");
            }
            assert_eq!(
                picollo_approx_counter_new(0, 0, 0, ptr::null_mut()),
                picollo_status::NullPointer
            );
            assert_eq!(
                picollo_approx_counter_get(ptr::null(), &mut v),
                picollo_status::NullPointer
            );
            picollo_approx_counter_free(ptr::null_mut());
            picollo_approx_counter_increment(ptr::null_mut());
        }
    }
}
