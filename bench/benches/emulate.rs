//! What exact counts under QEMU cost, and whether they are exact: this bench runs itself
//! under `qemu-x86_64` (or `qemu-aarch64`) with the plugin the library carries, and the
//! guest copy measures a read pair of `Emulated:Instructions` (its time, under the
//! emulator), the time of a loop of known length, and 20 repeats of a chain read around by
//! the counter (each must count the same); the host copy times the same loop natively.
//! Figures, not assertions.
//!
//! `cargo bench -p picollo-bench --bench emulate`. The last line: `bench emulate:
//! read_ns=<a read pair under QEMU, ns> slowdown=<the loop under QEMU over native>
//! exact=<repeats that counted the same>/<repeats>`; without QEMU's user mode (Debian's
//! qemu-user) it says why and prints nothing else.

use std::hint::black_box;
use std::process::Command;
use std::time::Instant;

use picollo_perf::time::add_chain;
use picollo_perf::{install_qemu_plugin, EmulatedEvent, Event, SessionBuilder};

/// The environment variable that makes this program the guest.
const GUEST: &str = "PICOLLO_BENCH_EMULATE_GUEST";
/// Blocks of the timed loop.
const LOOP_BLOCKS: u64 = 20_000;

/// Seconds the loop of `LOOP_BLOCKS` chain blocks takes here.
fn timed_loop() -> f64 {
    let t = Instant::now();
    black_box(add_chain(black_box(LOOP_BLOCKS)));
    t.elapsed().as_secs_f64()
}

/// The guest: `read_ns loop_seconds exact repeats` on one line.
fn guest() {
    let instructions = Event::Emulated(EmulatedEvent::Instructions);
    let mut s = SessionBuilder::new()
        .with_counter(instructions)
        .open()
        .expect("the plugin answers");
    let pairs = 1_000;
    let t = Instant::now();
    for _ in 0..pairs {
        s.read(false).expect("a read");
        s.read(false).expect("a read");
    }
    let read_ns = t.elapsed().as_secs_f64() * 1e9 / pairs as f64;
    let mut counts = Vec::new();
    for _ in 0..20 {
        s.read(false).expect("a read");
        black_box(add_chain(black_box(100)));
        s.read(false).expect("a read");
        counts.push(s.counter(0).map_or(0, |c| c.delta().raw));
    }
    let exact = counts.iter().filter(|&&c| c == counts[0]).count();
    println!("{read_ns} {} {exact} {}", timed_loop(), counts.len());
}

/// This program's user-mode QEMU, by the machine it was built for.
fn qemu() -> String {
    format!("qemu-{}", std::env::consts::ARCH)
}

fn main() {
    if std::env::var_os(GUEST).is_some() {
        return guest();
    }
    let plugin = match install_qemu_plugin() {
        Ok(p) => p,
        Err(e) => return println!("bench emulate: SKIPPED: the plugin: {e}"),
    };
    let me = std::env::current_exe().expect("this program's path");
    let out = Command::new(qemu())
        .arg("-plugin")
        .arg(&plugin)
        .arg(&me)
        .arg("--bench")
        .env(GUEST, "1")
        .output();
    let line = match out {
        Ok(o) if o.status.success() => String::from_utf8_lossy(&o.stdout).trim().to_string(),
        Ok(o) => {
            let why = String::from_utf8_lossy(&o.stderr);
            return println!("bench emulate: SKIPPED: {} failed: {why}", qemu());
        }
        Err(e) => {
            return println!(
                "bench emulate: SKIPPED: {}: {e} (Debian: qemu-user)",
                qemu()
            )
        }
    };
    let f: Vec<f64> = line.split(' ').filter_map(|w| w.parse().ok()).collect();
    let [read_ns, emulated, exact, repeats] = f[..] else {
        return println!("bench emulate: the guest printed {line:?}");
    };
    let native = (0..5).map(|_| timed_loop()).fold(f64::INFINITY, f64::min);
    println!(
        "  a read pair {read_ns:.0} ns under QEMU; the loop {:.2} ms natively, {:.2} ms under QEMU",
        native * 1e3,
        emulated * 1e3
    );
    println!(
        "bench emulate: read_ns={read_ns:.0} slowdown={:.1} exact={exact}/{repeats}",
        emulated / native
    );
}
