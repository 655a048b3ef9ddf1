//! Telling: the report, the verdict line and the tail attribution.

pub(crate) mod attribution;
pub(crate) mod escape;
pub(crate) mod report;
pub(crate) mod speed;
pub(crate) mod verdict_line;
