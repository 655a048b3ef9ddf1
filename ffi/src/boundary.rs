//! The panic boundary. Every exported function runs its body through [`boundary!`], which
//! catches a panic (no unwinding into C) and turns the body's outcome into what the C
//! signature returns, chosen by that return type ([`Outcome`]).

use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::error::Failure;
use crate::status::picollo_status;

/// A C return type: what the body of a function returning it computes, and what the
/// function returns when the body finishes or panics.
pub(crate) trait Outcome {
    /// What the body computes.
    type Body;
    /// The return value for a body that finished.
    fn finish(body: Self::Body) -> Self;
    /// The return value after a panic (reported as `PICOLLO_STATUS_PANIC` with a message).
    fn after_panic() -> Self;
}

/// Fallible calls: `Ok` is `PICOLLO_STATUS_OK`; a failure leaves its message and returns
/// its status; a panic returns `PICOLLO_STATUS_PANIC`.
impl Outcome for picollo_status {
    type Body = Result<(), Failure>;
    fn finish(body: Result<(), Failure>) -> Self {
        match body {
            Ok(()) => picollo_status::Ok,
            Err(failure) => failure.report(),
        }
    }
    fn after_panic() -> Self {
        picollo_status::Panic
    }
}

/// Calls that return nothing never fail: a failure (a NULL handle) is ignored, as their
/// documentation says, and leaves no message.
impl Outcome for () {
    type Body = Result<(), Failure>;
    fn finish(_: Result<(), Failure>) -> Self {}
    fn after_panic() -> Self {}
}

/// Clocks and arithmetic: 0 after a panic.
impl Outcome for u64 {
    type Body = u64;
    fn finish(body: u64) -> Self {
        body
    }
    fn after_panic() -> Self {
        0
    }
}

/// A program's exit status (`picollo_suite_main`): 101 after a panic, as a Rust program's.
impl Outcome for std::ffi::c_int {
    type Body = std::ffi::c_int;
    fn finish(body: std::ffi::c_int) -> Self {
        body
    }
    fn after_panic() -> Self {
        101
    }
}

/// A value the caller builds on: `None` after a panic.
impl<T> Outcome for Option<T> {
    type Body = Option<T>;
    fn finish(body: Option<T>) -> Self {
        body
    }
    fn after_panic() -> Self {
        None
    }
}

/// Run `body` at the C boundary (through [`boundary!`]).
pub(crate) fn run<R: Outcome>(body: impl FnOnce() -> R::Body) -> R {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(body) => R::finish(body),
        Err(payload) => {
            let what = panic_message(payload.as_ref());
            Failure::new(
                picollo_status::Panic,
                format_args!("internal panic: {what}"),
            )
            .report();
            R::after_panic()
        }
    }
}

fn panic_message(payload: &(dyn Any + Send)) -> &str {
    match payload.downcast_ref::<&str>() {
        Some(s) => s,
        None => payload.downcast_ref::<String>().map_or("", String::as_str),
    }
}

/// The body of an exported function: `boundary!({ let h = try_ref!(h)?; ...; Ok(()) })`.
/// What the block yields and what a panic returns follow from the function's return type
/// (see [`Outcome`]).
macro_rules! boundary {
    ($body:block) => {
        $crate::boundary::run(|| $body)
    };
}
pub(crate) use boundary;
