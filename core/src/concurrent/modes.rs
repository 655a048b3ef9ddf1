//! The one place that builds every concurrency mode: the constructor over mode × storage.
//! A new mode adds its rows here; everything else reaches it through [`RecordPath`] (and its
//! width-free part, [`super::ModePath`]).

use super::path::{Mode, RecordPath};
use super::{
    ApproxHistogram, AtomicCounter, AtomicHistogram, SharedHistogram, SparseCells, Storage,
};
use crate::config::ConfigError;
use crate::shape::Shape;

/// Builds what a histogram of any mode becomes: [`build`] hands it each mode's type.
pub(crate) trait Wrap<C: AtomicCounter> {
    /// What the histogram becomes (a boxed trait object).
    type Out;
    /// Wrap `h`.
    fn wrap<H: RecordPath<C> + 'static>(h: H) -> Self::Out;
}

/// The one place that names every mode: a histogram of `shape` counting in `mode` over
/// `storage`, handed to `W`. [`ConfigError::SparseThreadLocal`] for sparse storage in the
/// thread-local mode.
pub(crate) fn build<C: AtomicCounter, W: Wrap<C>>(
    shape: Shape,
    mode: Mode,
    storage: Storage,
) -> Result<W::Out, ConfigError> {
    let dense = || super::cell::zeroed_cells::<C>(shape.len());
    let sparse = || SparseCells::<C>::new(shape);
    Ok(match (mode, storage) {
        (Mode::SingleWriter, Storage::Dense) => {
            W::wrap(SharedHistogram::from_shape(shape, dense()?)?)
        }
        (Mode::SingleWriter, Storage::Sparse) => {
            W::wrap(SharedHistogram::from_shape(shape, sparse()?)?)
        }
        (Mode::Interlocked, Storage::Dense) => {
            W::wrap(AtomicHistogram::from_shape(shape, dense()?)?)
        }
        (Mode::Interlocked, Storage::Sparse) => {
            W::wrap(AtomicHistogram::from_shape(shape, sparse()?)?)
        }
        #[cfg(feature = "std")]
        (Mode::ThreadLocal, Storage::Dense) => {
            W::wrap(super::LocalHistogram::<C>::from_shape(shape)?)
        }
        #[cfg(feature = "std")]
        (Mode::ThreadLocal, Storage::Sparse) => return Err(ConfigError::SparseThreadLocal),
        (Mode::Approximate(p), Storage::Dense) => {
            W::wrap(ApproxHistogram::from_shape(shape, p, dense()?)?)
        }
        (Mode::Approximate(p), Storage::Sparse) => {
            W::wrap(ApproxHistogram::from_shape(shape, p, sparse()?)?)
        }
    })
}
