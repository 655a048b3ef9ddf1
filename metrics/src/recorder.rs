//! The `metrics` recorder and the handle that renders what it holds.

use std::io;
use std::net::{SocketAddr, ToSocketAddrs};
use std::sync::atomic::Ordering;
use std::sync::Arc;

use metrics::{Counter, Gauge, Histogram, Key, KeyName, Metadata, Recorder, SharedString, Unit};

use crate::expose;
use crate::layout::BuildError;
use crate::push::{OtlpPush, PushState};
use crate::registry::{Cell, Conflict, FamilyCopy, Kind, Registry};

/// A `metrics` recorder keeping histograms in Picollo, counters and gauges in atomics.
/// Install it with [`PicolloBuilder::install`](crate::PicolloBuilder::install), or use it
/// locally (`metrics::with_local_recorder`) with a [`PicolloHandle`] to render it.
#[derive(Debug)]
pub struct PicolloRecorder {
    registry: Arc<Registry>,
}

impl PicolloRecorder {
    pub(crate) fn new(registry: Registry) -> Self {
        PicolloRecorder {
            registry: Arc::new(registry),
        }
    }

    /// A handle that renders this recorder's metrics (from any thread, any time).
    pub fn handle(&self) -> PicolloHandle {
        PicolloHandle {
            registry: Arc::clone(&self.registry),
            http_addr: None,
            push: None,
        }
    }
}

impl Recorder for PicolloRecorder {
    fn describe_counter(&self, key: KeyName, _: Option<Unit>, description: SharedString) {
        self.registry.describe(key.as_str(), &description);
    }

    fn describe_gauge(&self, key: KeyName, _: Option<Unit>, description: SharedString) {
        self.registry.describe(key.as_str(), &description);
    }

    fn describe_histogram(&self, key: KeyName, _: Option<Unit>, description: SharedString) {
        self.registry.describe(key.as_str(), &description);
    }

    fn register_counter(&self, key: &Key, _: &Metadata<'_>) -> Counter {
        match self.registry.register(key, Kind::Counter) {
            Some(Cell::Counter(c)) => Counter::from_arc(c),
            _ => Counter::noop(),
        }
    }

    fn register_gauge(&self, key: &Key, _: &Metadata<'_>) -> Gauge {
        match self.registry.register(key, Kind::Gauge) {
            Some(Cell::Gauge(g)) => Gauge::from_arc(g),
            _ => Gauge::noop(),
        }
    }

    fn register_histogram(&self, key: &Key, _: &Metadata<'_>) -> Histogram {
        let want = Kind::Histogram(self.registry.layouts.default);
        match self.registry.register(key, want) {
            Some(Cell::Histogram(h)) => Histogram::from_arc(h),
            _ => Histogram::noop(),
        }
    }
}

/// Renders the recorder's metrics, as a scrape sees them: cumulative since the start
/// (nothing is reset by a scrape).
#[derive(Clone, Debug)]
pub struct PicolloHandle {
    registry: Arc<Registry>,
    pub(crate) http_addr: Option<SocketAddr>,
    push: Option<Arc<PushState>>,
}

impl PicolloHandle {
    /// Answer scrapes at `addr` from a thread of its own (HTTP/1.1 `GET` on any path,
    /// protobuf when the `Accept` header prefers it, else OpenMetrics text); the address
    /// bound (port 0 picks a free one).
    ///
    /// # Errors
    /// When `addr` cannot be bound.
    pub fn serve(&self, addr: impl ToSocketAddrs) -> io::Result<SocketAddr> {
        crate::http::spawn(addr, self.clone())
    }

    /// Where the builder's listener answers, when it has one.
    pub fn http_addr(&self) -> Option<SocketAddr> {
        self.http_addr
    }

    /// The OpenMetrics text: counters, gauges, and histograms with classic buckets.
    pub fn render(&self) -> String {
        expose::text(&self.families())
    }

    /// The delimited protobuf body (`application/vnd.google.protobuf;
    /// proto=io.prometheus.client.MetricFamily; encoding=delimited`): histograms native,
    /// with their classic buckets too.
    pub fn render_protobuf(&self) -> Vec<u8> {
        expose::protobuf(&self.families())
    }

    /// Forget every series and its counts, as `metrics-util`'s registry `clear` does: the
    /// next scrape shows none until the `metrics` macros record again (each use registers,
    /// so they start new series from 0). A handle kept from before (`let h =
    /// histogram!(…)`) records into a series no scrape reads any more: take a new one.
    /// Layouts, descriptions and conflicts stay. Safe during records and scrapes: a scrape
    /// sees each series whole, before or after the clear.
    pub fn clear(&self) {
        self.registry.clear();
    }

    /// The conflicts seen so far, each once, in the order they arose.
    pub fn conflicts(&self) -> Vec<Conflict> {
        self.registry.conflicts()
    }

    /// Push the metrics to `push`'s OTLP endpoint every interval from a thread of its own,
    /// for as long as a handle or the recorder is alive; this handle (and its clones made
    /// afterwards) report the pushes. A push set up earlier on this handle keeps running but
    /// is no longer reported here.
    ///
    /// # Errors
    /// [`BuildError::Push`] when the thread cannot start.
    pub fn start_otlp_push(&mut self, push: OtlpPush) -> Result<(), BuildError> {
        let state = Arc::new(PushState::new(push));
        crate::push::spawn(Arc::downgrade(&self.registry), Arc::clone(&state))
            .map_err(BuildError::Push)?;
        self.push = Some(state);
        Ok(())
    }

    /// Push once now, from this thread (a last push before the process ends: the thread's
    /// pushes stop with it). Counted like the thread's.
    ///
    /// # Errors
    /// When no push was set up ([`io::ErrorKind::NotFound`]), or the endpoint could not be
    /// reached or did not answer 2xx.
    pub fn push_now(&self) -> io::Result<()> {
        let state = (self.push.as_ref())
            .ok_or_else(|| io::Error::new(io::ErrorKind::NotFound, "no OTLP push set up"))?;
        state.push(&self.families())
    }

    /// How many OTLP pushes succeeded (0 without a push).
    pub fn pushes(&self) -> u64 {
        self.push
            .as_ref()
            .map_or(0, |s| s.pushes.load(Ordering::Relaxed))
    }

    /// How many OTLP pushes failed (unreachable endpoint, an answer other than 2xx).
    pub fn push_errors(&self) -> u64 {
        self.push
            .as_ref()
            .map_or(0, |s| s.errors.load(Ordering::Relaxed))
    }

    /// Why the last failed push failed, in words.
    pub fn last_push_error(&self) -> Option<String> {
        let state = self.push.as_ref()?;
        let last = state.last_error.lock().unwrap_or_else(|e| e.into_inner());
        last.clone()
    }

    /// Every family that can be exposed; the others reported as conflicts.
    pub(crate) fn families(&self) -> Vec<FamilyCopy> {
        Self::families_of(&self.registry)
    }

    /// [`PicolloHandle::families`] of a registry.
    pub(crate) fn families_of(registry: &Registry) -> Vec<FamilyCopy> {
        let mut families = registry.copy();
        families.retain(|f| match expose::check_family(f) {
            Ok(()) => true,
            Err(_) => {
                let name = f.name.clone();
                registry.report(Conflict::InvalidName { name });
                false
            }
        });
        families
    }
}
