//! What the simulated-verdict tests share: normal draws and one-metric results made from
//! rows of times.

use std::cell::Cell;
use std::rc::Rc;

use picollo_bench::{
    Bench, BenchError, BenchResult, Measured, Meter, Metric, MetricKind, Unit, WarmUp, SCALE,
};

#[path = "../../../core/benches/splitmix/mod.rs"]
mod splitmix;
pub use splitmix::SplitMix64;

/// A standard normal draw (Box–Muller).
#[allow(dead_code)]
pub fn normal(rng: &mut SplitMix64) -> f64 {
    let (a, b) = (1.0 - rng.next_f64(), rng.next_f64());
    (-2.0 * a.ln()).sqrt() * (std::f64::consts::TAU * b).cos()
}

/// A result named `name` of one time metric, a round per row (nanoseconds × 1000).
#[allow(dead_code)]
pub fn time_result(name: &str, rows: Vec<u64>) -> BenchResult {
    let metric = Metric::new("time", Unit::parse("ns").unwrap(), MetricKind::Time);
    let warm_up = WarmUp {
        converged: true,
        ..WarmUp::default()
    };
    BenchResult::from_rows(
        &Bench::new(name),
        vec![metric],
        rows,
        "test".into(),
        warm_up,
    )
    .unwrap()
}

/// A simulated clock: the work adds the nanoseconds it takes to `now`; a batch reads the
/// difference (time only).
#[allow(dead_code)]
pub struct Clock {
    pub now: Rc<Cell<f64>>,
    pub started: f64,
}

#[allow(dead_code)]
impl Clock {
    /// A clock reading `now`.
    pub fn new(now: &Rc<Cell<f64>>) -> Self {
        Clock {
            now: Rc::clone(now),
            started: 0.0,
        }
    }
}

impl Meter for Clock {
    fn metrics(&self) -> Vec<Metric> {
        vec![Metric::new("time", Unit::Nanoseconds, MetricKind::Time)]
    }

    fn start(&mut self) -> Result<(), BenchError> {
        self.started = self.now.get();
        Ok(())
    }

    fn stop(&mut self, out: &mut [Measured]) -> Result<(), BenchError> {
        let ns = self.now.get() - self.started;
        out[0] = Measured {
            value: (ns * SCALE as f64) as u64,
            ..Measured::default()
        };
        Ok(())
    }

    fn clock(&self) -> String {
        "simulated".into()
    }
}

/// The median time per operation, in ns, that a result's JSON (a document's `result`)
/// reports: the P50 of its time's summary.
#[allow(dead_code)]
pub fn reported_median(result: &serde_json::Value) -> f64 {
    let time = &result["metrics"][0];
    assert_eq!(time["name"], "time");
    let ranks = time["summary"]["percentiles"].as_array().unwrap();
    let p50 = ranks.iter().find(|p| p["rank"] == 50.0).expect("a P50");
    p50["value"].as_f64().unwrap() / result["scale"].as_f64().unwrap()
}

/// A folder for one test's files under the system's temporary folder (`picollo-<name>-<pid>`),
/// emptied when made and removed when dropped, so that a test run leaves nothing behind (a
/// suite test's copies of the example binary weigh 36 MB each).
#[allow(dead_code)]
pub struct TempDir(std::path::PathBuf);

#[allow(dead_code)]
impl TempDir {
    pub fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("picollo-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl std::ops::Deref for TempDir {
    type Target = std::path::Path;
    fn deref(&self) -> &std::path::Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
