//! The counter widths a [`super::DynHistogram`] can have, named once: how each one's views,
//! counts, snapshots and collected histograms take the width-blind forms.

use alloc::vec::Vec;

use super::snapshot::SnapInner;
use super::{CounterBits, DynView};
use crate::concurrent::path::{widened, Counts};
use crate::concurrent::{AtomicCounter, ConcurrentSnapshot, LiveView};
use crate::histogram::Histogram;
use crate::oom::OutOfMemory;
use crate::view::View;

/// A counter width a [`super::DynHistogram`] can have: how its views, counts, snapshots
/// and collected histograms take the width-blind forms.
pub(super) trait Width: AtomicCounter {
    const BITS: CounterBits;
    fn copy(v: View<'_, Self>) -> DynView<'_>;
    fn live(v: LiveView<'_, Self>) -> DynView<'_>;
    fn counts<'v, 'a>(v: &'v View<'a, Self>) -> Counts<'v, 'a>;
    fn widen(h: Histogram<Self, Vec<Self>>) -> Result<Histogram<u64, Vec<u64>>, OutOfMemory>;
    fn snap(s: ConcurrentSnapshot<Self>) -> SnapInner;
    fn snap_mut(s: &mut SnapInner) -> Option<&mut ConcurrentSnapshot<Self>>;
}

impl Width for u32 {
    const BITS: CounterBits = CounterBits::U32;
    fn copy(v: View<'_, u32>) -> DynView<'_> {
        DynView::U32(v)
    }
    fn live(v: LiveView<'_, u32>) -> DynView<'_> {
        DynView::LiveU32(v)
    }
    fn counts<'v, 'a>(v: &'v View<'a, u32>) -> Counts<'v, 'a> {
        Counts::U32(v)
    }
    fn widen(h: Histogram<u32, Vec<u32>>) -> Result<Histogram<u64, Vec<u64>>, OutOfMemory> {
        widened(&h.view())
    }
    fn snap(s: ConcurrentSnapshot<u32>) -> SnapInner {
        SnapInner::U32(s)
    }
    fn snap_mut(s: &mut SnapInner) -> Option<&mut ConcurrentSnapshot<u32>> {
        match s {
            SnapInner::U32(s) => Some(s),
            SnapInner::U64(_) => None,
        }
    }
}

impl Width for u64 {
    const BITS: CounterBits = CounterBits::U64;
    fn copy(v: View<'_, u64>) -> DynView<'_> {
        DynView::U64(v)
    }
    fn live(v: LiveView<'_, u64>) -> DynView<'_> {
        DynView::LiveU64(v)
    }
    fn counts<'v, 'a>(v: &'v View<'a, u64>) -> Counts<'v, 'a> {
        Counts::U64(v)
    }
    fn widen(h: Histogram<u64, Vec<u64>>) -> Result<Histogram<u64, Vec<u64>>, OutOfMemory> {
        Ok(h)
    }
    fn snap(s: ConcurrentSnapshot<u64>) -> SnapInner {
        SnapInner::U64(s)
    }
    fn snap_mut(s: &mut SnapInner) -> Option<&mut ConcurrentSnapshot<u64>> {
        match s {
            SnapInner::U64(s) => Some(s),
            SnapInner::U32(_) => None,
        }
    }
}
