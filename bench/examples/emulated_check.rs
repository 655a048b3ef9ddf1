//! The harness on exact counts: run under QEMU's user mode with Picollo's plugin
//! (`picollo emulate -- target/release/examples/emulated_check`, as
//! `scripts/emulated-paths.sh` does on x86_64 and aarch64), it measures operations of known
//! instruction counts with `Emulated:Instructions` and checks what must hold exactly:
//! - `chain`: `add_chain(n)` per operation, P0 = P50 = P100, and twice the blocks add
//!   exactly `n` blocks' instructions (ADD_CHAIN_BLOCK_INSTRUCTIONS each);
//! - `aa`: 20 interleaved comparisons of one operation against itself: `no difference`,
//!   the interval [0, 0] at every rank;
//! - `one-more`: 20 comparisons against the same operation with one `nop` more: exactly
//!   1 more per operation, every time;
//! - `threads`: two threads of known, different work each count their own.
//!
//! Natively (no plugin) it says why it cannot run and exits 77. Each line starts
//! `emulated-check:`; a failed check exits 1.

use std::hint::black_box;
use std::process::ExitCode;
use std::time::Duration;

use picollo_bench::{Bench, Comparison};
use picollo_perf::time::{add_chain, ADD_CHAIN_BLOCK_INSTRUCTIONS};
use picollo_perf::{emulation, EmulatedEvent, Event, SessionBuilder};

const INSTRUCTIONS: Event = Event::Emulated(EmulatedEvent::Instructions);

/// Short runs: the emulator is 5–10× slower than the machine.
fn bench(name: &str) -> Bench {
    Bench::new(name)
        .with_counters(&[INSTRUCTIONS])
        .with_warmup(Duration::from_millis(20))
        .with_time_budget(Duration::from_millis(200))
        .with_samples(400)
        .with_rounds(10)
}

/// One chain of `blocks` blocks: the operation of every check.
fn chain(blocks: u64) -> impl FnMut() {
    move || {
        black_box(add_chain(black_box(blocks)));
    }
}

/// The same chain and one `nop` more.
fn chain_and_nop(blocks: u64) -> impl FnMut() {
    move || {
        black_box(add_chain(black_box(blocks)));
        nop();
    }
}

#[inline(always)]
fn nop() {
    // SAFETY: a `nop` has no effect on memory, registers or flags.
    unsafe { core::arch::asm!("nop", options(nomem, nostack, preserves_flags)) };
}

fn per_block() -> Result<u64, String> {
    ADD_CHAIN_BLOCK_INSTRUCTIONS.ok_or_else(|| "add_chain is a Rust loop in this build".into())
}

/// `add_chain(blocks)` per operation: P0 = P50 = P100, that value.
fn exact_per_op(blocks: u64) -> Result<f64, String> {
    let r = bench("chain")
        .run(chain(blocks))
        .map_err(|e| e.to_string())?;
    let name = INSTRUCTIONS.to_string();
    let at = |rank| r.percentile(&name, rank).unwrap_or(f64::NAN);
    let (p0, p50, p100) = (at(0.0), at(50.0), at(100.0));
    match r.constant(&name) {
        Some(c) if c == p0 && c == p50 && c == p100 => Ok(c),
        _ => Err(format!(
            "not constant: P0 {p0}, P50 {p50}, P100 {p100}\n{r}"
        )),
    }
}

fn check_chain() -> Result<String, String> {
    let (one, two) = (exact_per_op(100)?, exact_per_op(200)?);
    let truth = (100 * per_block()?) as f64;
    match two - one == truth {
        true => Ok(format!(
            "100 blocks {one} instructions per operation (P0 = P50 = P100), 200 blocks {two}: \
             exactly {truth} more"
        )),
        false => Err(format!("{one} and {two}: {} apart, not {truth}", two - one)),
    }
}

/// 20 comparisons of `a` against `b`: each one's exact difference per operation.
fn differences(b_has_nop: bool) -> Result<Vec<(Option<f64>, Comparison)>, String> {
    let name = INSTRUCTIONS.to_string();
    (0..20)
        .map(|seed| {
            let b = bench("pair").with_seed(seed + 1);
            let pair = match b_has_nop {
                true => b.compare_fns(("A", chain(10)), ("B", chain_and_nop(10))),
                false => b.compare_fns(("A", chain(10)), ("B", chain(10))),
            };
            let c = pair.map_err(|e| e.to_string())?.comparison;
            let d = c.metrics.iter().find(|d| d.name == name);
            let diff = d.and_then(|d| d.exact).and_then(|x| x.difference());
            Ok((diff, c))
        })
        .collect()
}

fn check_pairs(b_has_nop: bool) -> Result<String, String> {
    let want = if b_has_nop { 1.0 } else { 0.0 };
    let all = differences(b_has_nop)?;
    let name = INSTRUCTIONS.to_string();
    let exact = |c: &Comparison| {
        let d = c.metrics.iter().find(|d| d.name == name);
        d.is_some_and(|d| d.rows.iter().all(|r| r.interval == Some((want, want))))
    };
    let good = all
        .iter()
        .filter(|(d, c)| *d == Some(want) && exact(c))
        .count();
    match (
        good,
        all.iter().find(|(d, c)| *d != Some(want) || !exact(c)),
    ) {
        (20, _) => Ok(format!(
            "B − A = {want} per operation, [{want}, {want}] at every rank, in 20 of 20"
        )),
        (_, Some((_, c))) => Err(format!("{good} of 20 exact; one that was not:\n{c}")),
        (_, None) => Err(format!("{good} of 20")),
    }
}

/// A thread's own instructions over `add_chain(blocks)`, read around it.
fn thread_count(blocks: u64) -> Result<u64, String> {
    let mut s = SessionBuilder::new()
        .with_counter(INSTRUCTIONS)
        .open()
        .map_err(|e| e.to_string())?;
    s.read(false).map_err(|e| e.to_string())?;
    black_box(add_chain(black_box(blocks)));
    s.read(false).map_err(|e| e.to_string())?;
    Ok(s.counter(0).map_or(0, |c| c.delta().corrected))
}

fn check_threads() -> Result<String, String> {
    let barrier = std::sync::Arc::new(std::sync::Barrier::new(2));
    let spawn = |blocks: u64| {
        let barrier = barrier.clone();
        std::thread::spawn(move || {
            barrier.wait(); // both alive while either counts
            let n = thread_count(blocks);
            barrier.wait();
            n
        })
    };
    let (a, b) = (spawn(100), spawn(300));
    let a = a.join().map_err(|_| "a thread panicked")??;
    let b = b.join().map_err(|_| "a thread panicked")??;
    let truth = 200 * per_block()?;
    match b - a == truth {
        true => Ok(format!(
            "threads of 100 and 300 blocks counted {a} and {b}: exactly {truth} apart"
        )),
        false => Err(format!("threads counted {a} and {b}, not {truth} apart")),
    }
}

/// A check: its figures when it passes, why not when it fails.
type Check = fn() -> Result<String, String>;

fn main() -> ExitCode {
    let here = emulation();
    if here.counts.is_none() {
        println!("emulated-check: SKIPPED: {}", here.description);
        return ExitCode::from(77);
    }
    println!("emulated-check: {}", here.description);
    let checks: [(&str, Check); 4] = [
        ("chain", check_chain),
        ("aa", || check_pairs(false)),
        ("one-more", || check_pairs(true)),
        ("threads", check_threads),
    ];
    let mut failed = false;
    for (name, check) in checks {
        match check() {
            Ok(figures) => println!("emulated-check: {name}: ok: {figures}"),
            Err(why) => {
                failed = true;
                println!("emulated-check: {name}: FAILED: {why}");
            }
        }
    }
    match failed {
        true => ExitCode::FAILURE,
        false => ExitCode::SUCCESS,
    }
}
