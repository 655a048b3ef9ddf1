//! Telling: a result and its rows, the report and the verdict line, the tail attribution and
//! the rates.

pub(crate) mod attribution;
pub(crate) mod report;
pub(crate) mod result;
pub(crate) mod rows;
pub(crate) mod throughput;
pub(crate) mod verdict_line;
