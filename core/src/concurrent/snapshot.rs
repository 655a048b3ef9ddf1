//! Snapshots of concurrent histograms: a consistent copy, refreshed in place.

use super::{Collect, Source};
use crate::config::ConfigError;
use crate::counter::Counter;
use crate::snapshot::Snapshot;
use crate::view::View;
use alloc::vec::Vec;

/// A refreshable copy of any concurrent histogram ([`Source`]), optionally as the deltas
/// since the previous refresh. It owns three bucket arrays (the fresh copy, the shown
/// counts, the previous counts), allocated once: [`ConcurrentSnapshot::update`] allocates
/// nothing.
///
/// With `deltas`, [`ConcurrentSnapshot::view`] holds what was recorded between the two
/// copies; when the source was reset in between, what was recorded since the reset.
pub struct ConcurrentSnapshot<C: Counter> {
    scratch: Vec<C>,
    inner: Snapshot<C, Vec<C>>,
}

impl<C: Counter> ConcurrentSnapshot<C> {
    /// A snapshot of `source`, taken now with full counts.
    pub fn new(source: &impl Source<C>) -> Result<Self, ConfigError> {
        let mut scratch = C::try_zeroes(source.storage_len())?;
        let view = source.read_into(&mut scratch)?;
        let inner = Snapshot::try_new(&view)?;
        Ok(ConcurrentSnapshot { scratch, inner })
    }

    /// Copy `source` again (it must have this snapshot's configuration). With `deltas`,
    /// the snapshot then holds the counts recorded since the previous update.
    pub fn update(&mut self, source: &impl Source<C>, deltas: bool) -> Result<(), ConfigError> {
        let view = source.read_into(&mut self.scratch)?;
        self.inner.update(&view, deltas)
    }

    /// Take the counts of `source` since its previous collect or reset into this snapshot
    /// ([`Collect::collect_into`]; allocates nothing): the view then holds that interval,
    /// and `source` counts from zero. A later [`ConcurrentSnapshot::update`] with deltas
    /// shows what was recorded since the collect.
    pub fn collect(&mut self, source: &impl Collect<C>) -> Result<(), ConfigError> {
        let view = source.collect_into(&mut self.scratch)?;
        self.inner.update(&view, false)
    }

    /// The snapshot's counts, for queries and reports.
    pub fn view(&self) -> View<'_, C> {
        self.inner.view()
    }
}
