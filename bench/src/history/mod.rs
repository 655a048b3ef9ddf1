//! Runs kept over commits: a store of every run's document, keyed by its commit, time and
//! machine ([`store`]).

pub mod store;
