//! What the loom models share: the explorer's bound and a thread with its own `Arc`.

use loom::sync::Arc;
use loom::thread::JoinHandle;

/// Every interleaving with at most three preemptions (the readers' retry and hold paths
/// make the unbounded space too large to explore in minutes).
pub fn model(f: impl Fn() + Sync + Send + 'static) {
    let mut builder = loom::model::Builder::new();
    builder.preemption_bound = Some(3);
    builder.check(f);
}

/// `f` run on a new loom thread with its own reference to `shared`.
pub fn spawn_with<T, R>(shared: &Arc<T>, f: impl FnOnce(&T) -> R + Send + 'static) -> JoinHandle<R>
where
    T: Send + Sync + 'static,
    R: Send + 'static,
{
    let shared = shared.clone();
    loom::thread::spawn(move || f(&shared))
}
