//! Why a call failed: [`Failure`] (a status and its message) and the thread-local message
//! `picollo_last_error_message()` returns.

use std::cell::RefCell;
use std::ffi::{c_char, CString};
use std::fmt::Display;

use crate::status::picollo_status;

/// A failed call: the status the exported function returns and the message it leaves for
/// `picollo_last_error_message()`.
#[derive(Debug)]
pub(crate) struct Failure {
    pub(crate) status: picollo_status,
    pub(crate) message: String,
}

impl Failure {
    pub(crate) fn new(status: picollo_status, message: impl Display) -> Failure {
        Failure {
            status,
            message: message.to_string(),
        }
    }

    /// A required pointer argument named `name` is NULL.
    pub(crate) fn null(name: &str) -> Failure {
        Failure::new(
            picollo_status::NullPointer,
            format_args!("argument `{name}` is NULL"),
        )
    }

    pub(crate) fn invalid(message: impl Display) -> Failure {
        Failure::new(picollo_status::InvalidArgument, message)
    }

    pub(crate) fn out_of_range(message: impl Display) -> Failure {
        Failure::new(picollo_status::OutOfRange, message)
    }

    pub(crate) fn struct_size(message: impl Display) -> Failure {
        Failure::new(picollo_status::StructSize, message)
    }

    /// A text output did not fit its buffer of `len` bytes.
    pub(crate) fn buffer_too_small(len: usize, needed: usize) -> Failure {
        Failure::new(
            picollo_status::BufferTooSmall,
            format_args!("buffer of {len} bytes is too small: {needed} needed"),
        )
    }

    /// An allocation failed.
    pub(crate) fn out_of_memory(e: picollo_core::OutOfMemory) -> Failure {
        Failure::new(picollo_status::OutOfMemory, e)
    }

    /// Leave the message for `picollo_last_error_message()` and give the status back.
    pub(crate) fn report(self) -> picollo_status {
        let text = CString::new(self.message.replace('\0', " ")).unwrap_or_default();
        // `try_with` fails only while the thread is being torn down; the status still reports.
        let _ = LAST_ERROR.try_with(|e| *e.borrow_mut() = text);
        self.status
    }
}

impl From<picollo_core::OutOfMemory> for Failure {
    fn from(e: picollo_core::OutOfMemory) -> Failure {
        Failure::out_of_memory(e)
    }
}

thread_local! {
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

/// Returns the message of the last failed call on this thread ("" if none): never NULL, owned
/// by the library, valid until the next Picollo call on this thread.
#[no_mangle]
pub extern "C" fn picollo_last_error_message() -> *const c_char {
    LAST_ERROR
        .try_with(|e| e.borrow().as_ptr())
        .unwrap_or(c"".as_ptr())
}
