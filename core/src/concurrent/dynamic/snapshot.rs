//! A snapshot of a [`DynHistogram`], of either counter width.

use super::{DynHistogram, DynView};
use crate::concurrent::ConcurrentSnapshot;
use crate::config::{ConfigError, ValueSelection};

/// A [`ConcurrentSnapshot`] of a [`DynHistogram`]: a copy refreshed in place, optionally
/// as the deltas since the previous refresh, allocating nothing after creation.
pub struct DynSnapshot {
    inner: SnapInner,
    /// The source's value selection at the last refresh.
    selection: ValueSelection,
}

/// The snapshot of one counter width.
pub(super) enum SnapInner {
    U32(ConcurrentSnapshot<u32>),
    U64(ConcurrentSnapshot<u64>),
}

impl core::fmt::Debug for DynSnapshot {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("DynSnapshot")
            .field("selection", &self.selection)
            .finish_non_exhaustive()
    }
}

impl DynSnapshot {
    /// A snapshot of `h`, taken now with full counts.
    pub fn new(h: &DynHistogram) -> Result<Self, ConfigError> {
        Ok(DynSnapshot {
            inner: h.inner.snapshot()?,
            selection: h.value_selection(),
        })
    }

    /// Copy `h` again (same configuration and counter width; otherwise an error and no
    /// change). With `deltas`, the snapshot then holds what was recorded since the previous
    /// refresh.
    pub fn update(&mut self, h: &DynHistogram, deltas: bool) -> Result<(), ConfigError> {
        self.refresh(h, |s| h.inner.update(s, deltas))
    }

    /// Take the counts of `h` since its previous collect or reset into this snapshot,
    /// allocating nothing (see [`DynHistogram::collect`]); `h` counts from zero. Same
    /// configuration and counter width as the snapshot, otherwise an error and no change.
    pub fn collect(&mut self, h: &DynHistogram) -> Result<(), ConfigError> {
        self.refresh(h, |s| h.inner.collect_into(s))
    }

    /// `op` on the snapshot's counts (`None`: `h` has the other counter width, an error
    /// and no change), then the snapshot takes `h`'s value selection.
    fn refresh(
        &mut self,
        h: &DynHistogram,
        op: impl FnOnce(&mut SnapInner) -> Option<Result<(), ConfigError>>,
    ) -> Result<(), ConfigError> {
        let expected = self.view_len();
        match op(&mut self.inner) {
            Some(done) => done?,
            None => {
                return Err(ConfigError::StorageLength {
                    expected,
                    actual: h.storage_len(),
                })
            }
        }
        self.selection = h.value_selection();
        Ok(())
    }

    fn view_len(&self) -> usize {
        self.view().as_view().shape().len()
    }

    /// The snapshot's counts, reporting values with the source's selection at the last
    /// refresh.
    pub fn view(&self) -> DynView<'_> {
        match &self.inner {
            SnapInner::U32(s) => DynView::U32(s.view().with_value_selection(self.selection)),
            SnapInner::U64(s) => DynView::U64(s.view().with_value_selection(self.selection)),
        }
    }
}
