//! History over commits: a store of every run's document, keyed by its commit, time and
//! machine ([`store`]); a benchmark's runs in commit order ([`series`]), and where its
//! distribution changed ([`detect`]), benchmark by benchmark and in words ([`changes`]).

pub mod changes;
pub mod detect;
pub mod series;
pub mod store;
