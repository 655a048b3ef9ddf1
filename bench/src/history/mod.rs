//! History over commits: a benchmark's runs in commit order, and where its distribution
//! changed.

pub mod detect;
pub mod series;
