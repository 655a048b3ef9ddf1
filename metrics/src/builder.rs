//! The builder: layouts per metric name, the HTTP listener, and installing the recorder.

use std::net::SocketAddr;
use std::time::Duration;

use crate::layout::{BuildError, Layout, Layouts, Matcher};
use crate::push::OtlpPush;
use crate::registry::Registry;
use crate::{PicolloHandle, PicolloRecorder};

/// Sets up a [`PicolloRecorder`]: the layout of every histogram name, and where scrapes
/// are answered.
///
/// ```
/// use picollo_metrics::{Layout, Matcher, PicolloBuilder};
/// let recorder = PicolloBuilder::new()
///     .set_layout_for_metric(
///         Matcher::Suffix("_seconds".into()),
///         Layout::new().with_relative_error(0.005).with_range(1e-7, 1e3),
///     )?
///     .build_recorder();
/// metrics::with_local_recorder(&recorder, || {
///     metrics::histogram!("rpc_seconds", "route" => "/a").record(0.0042);
/// });
/// assert!(recorder.handle().render().contains("rpc_seconds_count{route=\"/a\"} 1.0\n"));
/// # Ok::<(), picollo_metrics::BuildError>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct PicolloBuilder {
    layouts: Layouts,
    listener: Option<SocketAddr>,
    push: Option<OtlpPush>,
}

impl PicolloBuilder {
    /// The default layout for every histogram ([`Layout::new`]), no listener.
    pub fn new() -> Self {
        Self::default()
    }

    /// Answer scrapes at `addr` once installed (HTTP/1.1 on any path).
    pub fn with_http_listener(mut self, addr: impl Into<SocketAddr>) -> Self {
        self.listener = Some(addr.into());
        self
    }

    /// Once installed, push the metrics to an OTLP/HTTP endpoint every `interval` (an
    /// `ExportMetricsServiceRequest` in protobuf, POSTed to `endpoint` as given, e.g.
    /// `http://localhost:4318/v1/metrics`): histograms as cumulative exponential histograms,
    /// counters as monotonic sums, gauges as gauges. Plain HTTP only.
    ///
    /// # Errors
    /// [`BuildError::InvalidEndpoint`] ([`OtlpPush::new`]).
    pub fn with_otlp_push(self, endpoint: &str, interval: Duration) -> Result<Self, BuildError> {
        Ok(self.with_otlp(OtlpPush::new(endpoint, interval)?))
    }

    /// [`PicolloBuilder::with_otlp_push`] with the push described in full (headers, the
    /// service name).
    pub fn with_otlp(mut self, push: OtlpPush) -> Self {
        self.push = Some(push);
        self
    }

    /// The layout of histograms no matcher names.
    ///
    /// # Errors
    /// [`BuildError::InvalidLayout`] when Picollo refuses it.
    pub fn set_default_layout(mut self, layout: Layout) -> Result<Self, BuildError> {
        layout.check()?;
        self.layouts.default = layout;
        Ok(self)
    }

    /// The layout of the histograms whose name `matcher` matches. A name matched by a
    /// [`Matcher::Full`] takes that one, else the first matcher given that matches.
    ///
    /// # Errors
    /// [`BuildError::InvalidLayout`]; [`BuildError::ConflictingMatcher`] when the same
    /// matcher has another layout already.
    pub fn set_layout_for_metric(
        mut self,
        matcher: Matcher,
        layout: Layout,
    ) -> Result<Self, BuildError> {
        self.layouts.set(matcher, layout)?;
        Ok(self)
    }

    /// The recorder, not installed (for `metrics::with_local_recorder` or
    /// `metrics::set_global_recorder`); its [`PicolloRecorder::handle`] renders it.
    pub fn build_recorder(self) -> PicolloRecorder {
        PicolloRecorder::new(Registry::new(self.layouts))
    }

    /// Install the recorder as the global one and, when a listener was given, answer
    /// scrapes there from a thread of its own.
    ///
    /// # Errors
    /// [`BuildError::Listener`] when the address cannot be bound (nothing is installed
    /// then); [`BuildError::RecorderInstalled`] when a global recorder exists.
    pub fn install(self) -> Result<PicolloHandle, BuildError> {
        let (listener, push) = (self.listener, self.push.clone());
        let recorder = self.build_recorder();
        let mut handle = recorder.handle();
        if let Some(push) = push {
            handle.start_otlp_push(push)?;
        }
        if let Some(addr) = listener {
            let bound = crate::http::spawn(addr, handle.clone()).map_err(BuildError::Listener)?;
            handle.http_addr = Some(bound);
        }
        metrics::set_global_recorder(recorder).map_err(|_| BuildError::RecorderInstalled)?;
        Ok(handle)
    }
}
