//! `picollo_approx_counter_*`: the scalable approximate counter on its own (the counter
//! every bucket of an approximate-mode histogram is made of).

use picollo_core::concurrent::{ApproxCounter, ApproxPolicy};

use crate::args::out;
use crate::boundary::boundary;
use crate::error::Failure;
use crate::handle::{free_boxed, set_boxed, try_mut, try_ref};
use crate::status::picollo_status;

/// A scalable approximate counter (opaque, 64-bit; docs/c-api.md, "The approximate counter").
/// Threads: any call but `_free` from any number of threads at once; `_free` races none.
pub struct picollo_approx_counter {
    _private: [u8; 0],
}

crate::handle::boxed!(picollo_approx_counter => ApproxCounter);

fn invalid(message: String) -> Failure {
    Failure::invalid(message)
}

/// The policy for the C arguments (0 meaning the default for the two numbers).
fn policy_of(threshold: u32, max_shift: u32, exact: u32) -> Result<ApproxPolicy, Failure> {
    let mut policy = ApproxPolicy::new();
    if let Some(t) = shift_arg("threshold", threshold, 13)? {
        policy = policy.with_threshold(t);
    }
    if let Some(m) = shift_arg("max_shift", max_shift, 10)? {
        policy = policy.with_max_shift(m);
    }
    match exact {
        0 => Ok(policy),
        1 => Ok(policy.with_exact_when_uncontended(true)),
        _ => Err(invalid(format!(
            "exact_when_uncontended is {exact}: it must be 0 or 1"
        ))),
    }
}

/// A shift argument: `None` for 0 (the default, `default`), the value for 1..62.
fn shift_arg(name: &str, value: u32, default: u32) -> Result<Option<u32>, Failure> {
    match value {
        0 => Ok(None),
        1..=62 => Ok(Some(value)),
        _ => Err(invalid(format!(
            "{name} is {value}: it must be 1..62 (0 for the default, {default})"
        ))),
    }
}

/// Creates a counter at zero in `*out`, for `picollo_approx_counter_free`: `threshold` T (1..62,
/// 0 for 13), `max_shift` (1..62, 0 for 10), `exact_when_uncontended` (0 or 1). Errors: NULL
/// `out`; `INVALID_ARGUMENT` for a value outside those.
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

/// Frees a counter; NULL is ignored. Free each handle once, when no other thread uses it.
#[no_mangle]
pub unsafe extern "C" fn picollo_approx_counter_free(c: *mut picollo_approx_counter) {
    free_boxed!(c)
}

/// Counts one event (approximately from 2^T on). Never fails; NULL is ignored. Thread-safe.
/// cbindgen:prefix=PICOLLO_RECORD_ATTR
#[no_mangle]
pub unsafe extern "C" fn picollo_approx_counter_increment(c: *mut picollo_approx_counter) {
    // The counter is an atomic: a shared reference is all any thread needs.
    boundary!({
        try_ref!(c)?.increment();
        Ok(())
    })
}

/// Adds `n` exactly, saturating at UINT64_MAX − 2^22; NULL is ignored. Thread-safe.
#[no_mangle]
pub unsafe extern "C" fn picollo_approx_counter_add(c: *mut picollo_approx_counter, n: u64) {
    boundary!({
        try_ref!(c)?.add(n);
        Ok(())
    })
}

/// Writes the current estimate (unbiased; one atomic load) to `*out`. Thread-safe.
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

/// Takes the count to zero and writes the count taken to `*taken` (may be NULL): one atomic
/// swap, so a racing increment counts once, before or after. Thread-safe.
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

/// Writes T, the cap on k and `exact_when_uncontended` (defaults resolved) to the outputs, each
/// of which may be NULL.
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
