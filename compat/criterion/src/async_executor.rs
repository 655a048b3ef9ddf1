//! [`AsyncExecutor`]: what runs an async benchmark's futures to completion, as criterion's
//! trait; [`FuturesExecutor`] is one of Picollo's own (the calling thread, parked while the
//! future waits), so that an async bench needs no runtime.
//!
//! criterion's features `async_tokio`, `async_smol` and `async_std` bring executors of those
//! runtimes; this crate depends on none of them. The features' names are accepted, so that a
//! Cargo.toml that enables them builds, and a bench that hands `to_async` a runtime
//! (`&tokio::runtime::Runtime`) fails to compile with a message that names the replacement:
//! [`FuturesExecutor`], or a type of the bench's own that implements [`AsyncExecutor`] by
//! calling its runtime's `block_on`. `async` and `async_futures` need nothing
//! ([`FuturesExecutor`] is always here).
//!
//! ```compile_fail
//! # extern crate picollo_criterion as criterion;
//! struct Runtime; // a runtime's type, which implements no AsyncExecutor here
//! fn bench(b: &mut criterion::Bencher<'_>) {
//!     b.to_async(&Runtime).iter(|| async { 1 });
//! }
//! ```

use std::future::Future;
use std::pin::pin;
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};
use std::thread::{self, Thread};

/// Runs a future to its end on the calling thread: `block_on`, as criterion's trait.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an executor picollo-criterion knows: it has no tokio, smol or async-std executor",
    note = "use criterion::async_executor::FuturesExecutor, or a type of your own that implements criterion::async_executor::AsyncExecutor by calling your runtime's block_on"
)]
pub trait AsyncExecutor {
    /// `future`'s output, once it is ready.
    fn block_on<T>(&self, future: impl Future<Output = T>) -> T;
}

impl<E: AsyncExecutor> AsyncExecutor for &E {
    fn block_on<T>(&self, future: impl Future<Output = T>) -> T {
        (**self).block_on(future)
    }
}

/// The calling thread as an executor: it polls the future, and parks until the future's
/// waker unparks it. A future that needs a runtime's reactor (tokio's timers and sockets)
/// needs that runtime's executor instead.
#[derive(Clone, Copy, Debug, Default)]
pub struct FuturesExecutor;

/// Wakes the thread that polls: unparks it.
struct Unpark(Thread);

impl Wake for Unpark {
    fn wake(self: Arc<Self>) {
        self.0.unpark();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.0.unpark();
    }
}

impl AsyncExecutor for FuturesExecutor {
    fn block_on<T>(&self, future: impl Future<Output = T>) -> T {
        let mut future = pin!(future);
        let waker = Waker::from(Arc::new(Unpark(thread::current())));
        let mut cx = Context::from_waker(&waker);
        loop {
            match future.as_mut().poll(&mut cx) {
                Poll::Ready(out) => return out,
                // A wake before this park leaves the thread's token set: park returns at once.
                Poll::Pending => thread::park(),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::Duration;

    /// Ready once another thread has set its flag and woken it.
    struct Signalled {
        flag: Arc<AtomicBool>,
        started: bool,
    }

    impl Future for Signalled {
        type Output = u32;

        fn poll(mut self: std::pin::Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<u32> {
            if self.flag.load(Ordering::Acquire) {
                return Poll::Ready(7);
            }
            if !self.started {
                self.started = true;
                let (flag, waker) = (self.flag.clone(), cx.waker().clone());
                thread::spawn(move || {
                    thread::sleep(Duration::from_millis(5));
                    flag.store(true, Ordering::Release);
                    waker.wake();
                });
            }
            Poll::Pending
        }
    }

    #[test]
    fn a_future_woken_from_another_thread_completes() {
        let flag = Arc::new(AtomicBool::new(false));
        let future = Signalled {
            flag,
            started: false,
        };
        assert_eq!(FuturesExecutor.block_on(future), 7);
        let by_ref: &FuturesExecutor = &FuturesExecutor;
        assert_eq!(AsyncExecutor::block_on(&by_ref, async { 3 + 4 }), 7);
    }
}
