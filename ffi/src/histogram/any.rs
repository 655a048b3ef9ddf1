//! The Rust value behind a `picollo_histogram` handle is the core's `DynHistogram` (counter
//! width and mode chosen at run time); this module names it for the exported functions and
//! turns its errors into statuses.

use picollo_core::{ConfigError, MergeError};

use crate::error::Failure;
use crate::status::picollo_status;

pub(crate) use picollo_core::concurrent::{DynHistogram as Histogram, DynView as AnyView};
pub(crate) use picollo_core::dyn_view as dispatch_view;

pub(crate) fn config_error(e: ConfigError) -> Failure {
    match e {
        ConfigError::OutOfMemory { .. } => Failure::new(picollo_status::OutOfMemory, e),
        _ => Failure::invalid(e),
    }
}

pub(crate) fn merge_error(e: MergeError) -> Failure {
    let status = match e {
        MergeError::LayoutMismatch { .. } | MergeError::UnitMismatch { .. } => {
            picollo_status::LayoutMismatch
        }
        MergeError::WouldGoNegative { .. } => picollo_status::WouldGoNegative,
        MergeError::Unsupported => picollo_status::Unsupported,
        MergeError::OutOfMemory { .. } => picollo_status::OutOfMemory,
        _ => picollo_status::InvalidArgument,
    };
    Failure::new(status, e)
}
