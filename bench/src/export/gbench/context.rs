//! Google Benchmark's `context`: the machine's figures (the date, the host, the executable,
//! the clock rate, ASLR, the load), read once in a process, and the conditions of the first
//! result.

use std::string::{String, ToString};
use std::vec::Vec;

use serde::Serialize;

use super::on_cpu;
use crate::measure::conditions::Conditions;
use crate::measure::result::BenchResult;

/// The file's `context`: the machine's figures, then the first result's conditions.
#[derive(Serialize)]
pub(super) struct Context {
    #[serde(flatten)]
    machine: &'static Machine,
    num_cpus: usize,
    cpu_scaling_enabled: bool,
    library_version: String,
    library_build_type: &'static str,
    json_schema_version: u32,
    picollo_cpu_model: String,
    picollo_cpu_time: &'static str,
}

/// The machine's figures of `context` that Picollo's conditions do not hold.
#[derive(Serialize)]
struct Machine {
    date: String,
    host_name: String,
    executable: String,
    mhz_per_cpu: u64,
    aslr_enabled: bool,
    /// Google Benchmark lists the caches; Picollo lists none.
    caches: [(); 0],
    load_avg: Vec<f64>,
}

/// The machine's figures, read at the first export of the process and kept: the clock rate,
/// the load and the date move from one read to the next, and the same results must give the
/// same text every time they are written (the C ABI asks for a text's size, then writes it:
/// a file whose load had changed between the two calls came out a byte longer than asked).
/// Google Benchmark, too, reads its context once a run.
fn machine() -> &'static Machine {
    static MACHINE: std::sync::OnceLock<Machine> = std::sync::OnceLock::new();
    MACHINE.get_or_init(read_machine)
}

/// The machine's figures, read now.
fn read_machine() -> Machine {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
    let exe = std::env::current_exe().map(|p| p.display().to_string());
    let cpuinfo = read("/proc/cpuinfo").unwrap_or_default();
    let mhz = cpuinfo.lines().find(|l| l.starts_with("cpu MHz"));
    let mhz = mhz.and_then(|l| l.split(':').nth(1)?.trim().parse::<f64>().ok());
    let load = read("/proc/loadavg").unwrap_or_default();
    Machine {
        date: utc_date(now.map_or(0, |d| d.as_secs())),
        host_name: read("/proc/sys/kernel/hostname").unwrap_or_default(),
        executable: exe.unwrap_or_default(),
        mhz_per_cpu: mhz.unwrap_or(0.0).round() as u64,
        aslr_enabled: read("/proc/sys/kernel/randomize_va_space").is_some_and(|v| v != "0"),
        caches: [],
        load_avg: load
            .split(' ')
            .take(3)
            .filter_map(|x| x.parse().ok())
            .collect(),
    }
}

/// The `context` of the first result's conditions (the machine's where none was measured).
pub(super) fn context(measured: &[(String, &BenchResult)]) -> Context {
    let of_machine;
    let c = match measured.first() {
        Some((_, r)) => &r.conditions,
        None => {
            of_machine = Conditions::of_machine(None);
            &of_machine
        }
    };
    let unoptimized = measured
        .iter()
        .any(|(_, r)| r.conditions.unoptimized.is_some());
    let all_cpu = measured.iter().all(|(_, r)| on_cpu(r).is_some());
    Context {
        machine: machine(),
        num_cpus: c.cpus,
        cpu_scaling_enabled: c.governor.as_deref().is_some_and(|g| g != "performance"),
        library_version: std::format!("picollo-bench {}", env!("CARGO_PKG_VERSION")),
        library_build_type: if unoptimized { "debug" } else { "release" },
        json_schema_version: 1,
        picollo_cpu_model: c.cpu_model.clone(),
        picollo_cpu_time: match all_cpu {
            true => "task-clock: the time on a CPU",
            false => "the real time where no task-clock was measured",
        },
    }
}

/// A line of a file under /proc or /sys, trimmed (`None` where unreadable).
fn read(path: &str) -> Option<String> {
    let text = std::fs::read_to_string(path).ok()?;
    Some(text.trim().into())
}

/// `2026-01-31T12:00:00+00:00` of `seconds` since the Unix epoch (UTC).
fn utc_date(seconds: u64) -> String {
    let (year, month, day) = crate::calendar::civil((seconds / 86_400) as i64);
    let s = seconds % 86_400;
    std::format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}+00:00",
        s / 3600,
        s % 3600 / 60,
        s % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utc_dates_fall_on_the_calendar_days_they_name() {
        assert_eq!(utc_date(0), "1970-01-01T00:00:00+00:00");
        // A leap day, a century that is a leap year, and the last second of a year.
        assert_eq!(utc_date(951_782_400), "2000-02-29T00:00:00+00:00");
        assert_eq!(utc_date(1_704_067_199), "2023-12-31T23:59:59+00:00");
        assert_eq!(utc_date(4_107_542_400), "2100-03-01T00:00:00+00:00");
    }
}
