//! A benchmark whose work stops: it panicked, or it called [`fail`] (work that catches its
//! own errors, as a C++ benchmark's exception is caught before it reaches the C ABI). The
//! suite reports either as that benchmark FAILED with its message, and runs the rest.

use std::boxed::Box;
use std::string::{String, ToString};

/// What [`fail`] unwinds with.
struct Failed(String);

/// Stop the benchmark being run and report it FAILED with `message`, as a panic would be,
/// but without the panic hook's output. Call it from a benchmark's work only: the suite
/// catches it there (elsewhere it unwinds like a panic).
pub fn fail(message: impl Into<String>) -> ! {
    std::panic::resume_unwind(Box::new(Failed(message.into())))
}

/// The message of what the work unwound with.
pub(crate) fn message(p: &(dyn std::any::Any + Send)) -> String {
    if let Some(Failed(m)) = p.downcast_ref::<Failed>() {
        return m.clone();
    }
    match (p.downcast_ref::<&str>(), p.downcast_ref::<String>()) {
        (Some(s), _) => (*s).to_string(),
        (_, Some(s)) => s.clone(),
        _ => "a panic without a message".to_string(),
    }
}

/// What the work did, then its message: `panicked: …` or `failed: …`.
pub(crate) fn described(p: &(dyn std::any::Any + Send)) -> String {
    let how = match p.is::<Failed>() {
        true => "failed",
        false => "panicked",
    };
    std::format!("{how}: {}", message(p))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::panic::catch_unwind;

    #[test]
    fn a_failure_and_a_panic_are_told_apart_and_keep_their_message() {
        let failed = catch_unwind(|| fail("threw std::runtime_error: boom")).unwrap_err();
        assert_eq!(message(&*failed), "threw std::runtime_error: boom");
        assert_eq!(
            described(&*failed),
            "failed: threw std::runtime_error: boom"
        );
        let panicked = catch_unwind(|| panic!("at {}", 3)).unwrap_err();
        assert_eq!(described(&*panicked), "panicked: at 3");
    }
}
