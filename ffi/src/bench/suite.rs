//! `picollo_suite_*`: a suite of named benchmarks (`picollo_bench::suite::Suite`) over the C
//! ABI. C registers each benchmark's work, the callback `picollo_bench_run` takes, and hands
//! the command line to `picollo_suite_main`, which runs the library's runner: the filters,
//! `--list`, `--test`, the measurements, the outputs and `--against`, as a Rust suite does,
//! measuring by default as Google Benchmark's programs do. A benchmark that fails (a C++
//! exception caught in its work) says so with `picollo_suite_fail` and returns.
#![cfg(target_os = "linux")]

use std::cell::{Cell, RefCell};
use std::ffi::{c_char, c_int, c_void, CStr};

use picollo_bench::suite::{fail, Exit, Mode, Suite, WorkerCommand};
use picollo_bench::Throughput;

use crate::args::{read_sized, str_from, try_slice, try_str};
use crate::bench::args::{bench_of, picollo_bench_config};
use crate::bench::{picollo_bench_work, with_baseline};
use crate::boundary::boundary;
use crate::error::Failure;
use crate::handle::{free_boxed, set_boxed, try_mut};
use crate::status::picollo_status;

/// A suite of named benchmarks (opaque), from `picollo_suite_new`, for `picollo_suite_free`.
/// Threads: one thread at a time; its benchmarks run on the thread that calls
/// `picollo_suite_main`.
pub struct picollo_suite {
    _private: [u8; 0],
}

crate::handle::boxed!(picollo_suite => Suite<'static>);

thread_local! {
    /// Whether this thread is inside `picollo_suite_main`.
    static RUNNING: Cell<bool> = const { Cell::new(false) };
    /// The message `picollo_suite_fail` left for the benchmark running on this thread.
    static FAILURE: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// This thread inside `picollo_suite_main`, until dropped (a panic included), when a
/// failure no benchmark took is dropped too.
struct Running {
    was: bool,
}

impl Running {
    fn enter() -> Running {
        Running {
            was: RUNNING.with(|r| r.replace(true)),
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        RUNNING.with(|r| r.set(self.was));
        FAILURE.with(|f| f.borrow_mut().take());
    }
}

/// Makes a new, empty suite named `name` (NUL-terminated UTF-8, copied: the folder its
/// outputs go to, under `.picollo/` unless `--out`), with the harness's default settings, in
/// `*out` for `picollo_suite_free`. Errors: NULL `name` or `out`; `INVALID_UTF8`. ABI 1.20.
#[no_mangle]
pub unsafe extern "C" fn picollo_suite_new(
    name: *const c_char,
    out: *mut *mut picollo_suite,
) -> picollo_status {
    boundary!({
        let name = try_str!(name)?;
        let out = try_mut!(out)?;
        set_boxed(out, Suite::new(name));
        Ok(())
    })
}

/// Frees a suite; NULL is ignored. ABI 1.20.
#[no_mangle]
pub unsafe extern "C" fn picollo_suite_free(suite: *mut picollo_suite) {
    free_boxed!(suite)
}

/// Sets the settings every benchmark of the suite runs with (read during the call; its
/// `name` is not used: each benchmark has its own); the command line's flags override them.
/// Their ranges are checked when `picollo_suite_main` measures (exit status 2). Errors: NULL
/// `suite` or `config`; `STRUCT_SIZE`; `INVALID_UTF8`; `INVALID_ARGUMENT` for a counter
/// name, a duration or a flag out of its domain. ABI 1.20.
#[no_mangle]
pub unsafe extern "C" fn picollo_suite_set_config(
    suite: *mut picollo_suite,
    config: *const picollo_bench_config,
) -> picollo_status {
    boundary!({
        let suite = try_mut!(suite)?;
        let config = read_sized!(config)?;
        // SAFETY: the strings of `config` are NULL or NUL-terminated, per the caller.
        let bench = with_baseline(unsafe { bench_of(&config) }?, &config)?;
        let old = std::mem::replace(suite, Suite::new(""));
        *suite = old.with_settings(bench);
        Ok(())
    })
}

/// Registers benchmark `name` (NUL-terminated UTF-8, copied): `work(ctx, k)` runs `k`
/// operations, as for `picollo_bench_run`. `ctx` must stay valid until the suite is freed.
/// Names are checked when `picollo_suite_main` runs: two of one name, or an empty one, end
/// it with exit status 2. Errors: NULL `suite`, `name` or `work`; `INVALID_UTF8`. Safety:
/// `work` may be called with `ctx` on the thread of `picollo_suite_main`, and never unwinds
/// or longjmps out (a C++ benchmark catches its exceptions and calls `picollo_suite_fail`).
/// ABI 1.20.
#[no_mangle]
pub unsafe extern "C" fn picollo_suite_add(
    suite: *mut picollo_suite,
    name: *const c_char,
    work: picollo_bench_work,
    ctx: *mut c_void,
) -> picollo_status {
    boundary!({
        let suite = try_mut!(suite)?;
        let name = try_str!(name)?;
        // SAFETY: as this function's caller promises of `work` and `ctx`.
        unsafe { add_work(suite, name, work, ctx) }
    })
}

/// Registers benchmark `name/param` (`sort/1000`: the name every language's suite gives a
/// benchmark of a parameter, formed here) as `picollo_suite_add` registers one: `name` and
/// `param` are NUL-terminated UTF-8, copied. Its name is listed, filtered, measured, saved and
/// compared as any other. Errors: NULL `suite`, `name`, `param` or `work`; `INVALID_UTF8`.
/// Safety: as for `picollo_suite_add`. ABI 1.24.
#[no_mangle]
pub unsafe extern "C" fn picollo_suite_add_param(
    suite: *mut picollo_suite,
    name: *const c_char,
    param: *const c_char,
    work: picollo_bench_work,
    ctx: *mut c_void,
) -> picollo_status {
    boundary!({
        let suite = try_mut!(suite)?;
        let name = Suite::param_name(try_str!(name)?, &try_str!(param)?);
        // SAFETY: as this function's caller promises of `work` and `ctx`.
        unsafe { add_work(suite, &name, work, ctx) }
    })
}

/// Registers `work(ctx, k)` as benchmark `name` of `suite`.
///
/// # Safety
/// `work` may be called with `ctx` on the thread of `picollo_suite_main` until the suite is
/// freed, and never unwinds.
unsafe fn add_work(
    suite: &mut Suite<'static>,
    name: &str,
    work: picollo_bench_work,
    ctx: *mut c_void,
) -> Result<(), Failure> {
    let work = work.ok_or_else(|| Failure::null("work"))?;
    suite.bench_batched(name, move |k| {
        // SAFETY: the caller promises `work` may be called with `ctx` on this thread
        // until the suite is freed.
        unsafe { work(ctx, k) };
        if let Some(message) = FAILURE.with(|f| f.borrow_mut().take()) {
            fail(message)
        }
    });
    Ok(())
}

/// Declares the work one operation of benchmark `name` does, or where `param` is not NULL,
/// of benchmark `name/param` (`picollo_suite_add_param`'s; the last registered of that
/// name): `per_operation` of `unit`, `"elements"` or `"bytes"` (strings NUL-terminated
/// UTF-8). Its results then carry the rate at their median time per operation, computed by
/// the library in decimal units (`1.21 GB/s`, `3.40 M elem/s`) and shown in the report's
/// line, the JSON (`throughput`) and beside a comparison's verdict, which stays on time.
/// Errors: NULL `suite`, `name` or `unit`; `INVALID_UTF8`; `INVALID_ARGUMENT` for another
/// unit, a `per_operation` of 0, or a name no benchmark of the suite has. ABI 1.24.
#[no_mangle]
pub unsafe extern "C" fn picollo_suite_set_throughput(
    suite: *mut picollo_suite,
    name: *const c_char,
    param: *const c_char,
    unit: *const c_char,
    per_operation: u64,
) -> picollo_status {
    boundary!({
        let suite = try_mut!(suite)?;
        // SAFETY: the caller promises `name` and `param` are NULL or NUL-terminated strings.
        let name = unsafe { benchmark_name(name, param) }?;
        let unit = try_str!(unit)?;
        let t = Throughput::parse(unit, per_operation).map_err(Failure::invalid)?;
        suite
            .set_throughput(&name, t)
            .map_err(|e| Failure::invalid(e.message))?;
        Ok(())
    })
}

/// The benchmark `name` names, or where `param` is not NULL, `name/param` (the name the
/// library forms for a parameter's benchmark).
///
/// # Safety
/// `name` and `param` are NULL or NUL-terminated strings.
unsafe fn benchmark_name(name: *const c_char, param: *const c_char) -> Result<String, Failure> {
    let name = try_str!(name)?;
    Ok(match param.is_null() {
        true => name.to_string(),
        false => Suite::param_name(name, &try_str!(param)?),
    })
}

/// Fixes the operations of each batch of benchmark `name`, or where `param` is not NULL, of
/// benchmark `name/param` (the last registered of that name), at `batch`, whatever
/// `picollo_suite_set_config` and the command line say: `work` is then called with `k` =
/// `batch` (its results say `batch N`; `--test` runs one batch of it), for a benchmark whose
/// work must run in batches of its own size (Google Benchmark's `->Iterations(n)`). Strings NUL-terminated UTF-8. Errors:
/// NULL `suite` or `name`; `INVALID_UTF8`; `INVALID_ARGUMENT` for a `batch` outside 1 to
/// 2^24, or a name no benchmark of the suite has. ABI 1.29.
#[no_mangle]
pub unsafe extern "C" fn picollo_suite_set_batch(
    suite: *mut picollo_suite,
    name: *const c_char,
    param: *const c_char,
    batch: u64,
) -> picollo_status {
    boundary!({
        let suite = try_mut!(suite)?;
        // SAFETY: the caller promises `name` and `param` are NULL or NUL-terminated strings.
        let name = unsafe { benchmark_name(name, param) }?;
        suite
            .set_batch(&name, batch)
            .map_err(|e| Failure::invalid(e.message))?;
        Ok(())
    })
}

/// Measures benchmark `name`, or where `param` is not NULL, benchmark `name/param` (the last
/// registered of that name), by the time its work tells with `picollo_suite_set_iteration_time`
/// instead of a clock (Google Benchmark's `->UseManualTime()`), here and as a worker; no perf
/// counters are read for it. Strings NUL-terminated UTF-8. Errors: NULL `suite` or `name`;
/// `INVALID_UTF8`; `INVALID_ARGUMENT` for a name no benchmark of the suite has. ABI 1.29.
#[no_mangle]
pub unsafe extern "C" fn picollo_suite_set_manual_time(
    suite: *mut picollo_suite,
    name: *const c_char,
    param: *const c_char,
) -> picollo_status {
    boundary!({
        let suite = try_mut!(suite)?;
        // SAFETY: the caller promises `name` and `param` are NULL or NUL-terminated strings.
        let name = unsafe { benchmark_name(name, param) }?;
        suite
            .set_manual_time(&name)
            .map_err(|e| Failure::invalid(e.message))?;
        Ok(())
    })
}

/// Adds `seconds` to the time of the batch running on this thread, which a benchmark of
/// `picollo_suite_set_manual_time` reports as its time (the batch's sum, divided by its
/// operations); outside such a batch it is dropped when the next starts. Errors:
/// `INVALID_ARGUMENT` for a negative or non-finite time. ABI 1.29.
#[no_mangle]
pub extern "C" fn picollo_suite_set_iteration_time(seconds: f64) -> picollo_status {
    boundary!({ picollo_bench::add_manual_time(seconds).map_err(Failure::invalid) })
}

/// Marks the benchmark running on this thread FAILED with `message` (copied; NULL: "the
/// benchmark failed"), as a Rust benchmark's panic is: the suite stops it when its work
/// returns, reports it with the message and goes on with the others (exit status 6). Call it
/// from a benchmark's work, then return. Errors: `INVALID_ARGUMENT` outside a benchmark run
/// by `picollo_suite_main` on this thread. ABI 1.20.
#[no_mangle]
pub unsafe extern "C" fn picollo_suite_fail(message: *const c_char) -> picollo_status {
    boundary!({
        if !RUNNING.with(Cell::get) {
            return Err(Failure::invalid(
                "picollo_suite_fail: no benchmark of picollo_suite_main runs on this thread",
            ));
        }
        let message = match message.is_null() {
            true => "the benchmark failed".into(),
            // SAFETY: a non-NULL `message` is NUL-terminated, per the caller.
            false => unsafe { CStr::from_ptr(message) }.to_string_lossy(),
        };
        FAILURE.with(|f| {
            f.borrow_mut().get_or_insert_with(|| message.into_owned());
        });
        Ok(())
    })
}

/// Stops the clock of the benchmark batch running on this thread: what runs until
/// `picollo_suite_resume` (or the batch's end) is left out of its time; perf counters still
/// count it. Pausing while paused does nothing; on a thread that runs no batch it changes
/// nothing. Never fails (the hot path: one tick read, no panic to cross). ABI 1.28.
#[no_mangle]
pub extern "C" fn picollo_suite_pause() {
    picollo_bench::pause();
}

/// Starts again the clock `picollo_suite_pause` stopped on this thread; resuming while
/// running does nothing. A batch that ends paused leaves out up to its end and the next
/// starts running. Never fails. ABI 1.28.
#[no_mangle]
pub extern "C" fn picollo_suite_resume() {
    picollo_bench::resume();
}

/// Sets the command that starts this program's suite as a worker for `--against` (`argc`
/// strings, copied: the program, found as `execvp` finds it, then its arguments;
/// `--picollo-worker` is added after them): for a suite run by an interpreter, whose
/// running program is not the suite. Default: the running program. Errors: NULL `suite`
/// or `argv`; `INVALID_ARGUMENT` for `argc` 0; `INVALID_UTF8`. ABI 1.21.
#[no_mangle]
pub unsafe extern "C" fn picollo_suite_set_worker(
    suite: *mut picollo_suite,
    argv: *const *const c_char,
    argc: usize,
) -> picollo_status {
    boundary!({
        let suite = try_mut!(suite)?;
        // SAFETY: `argv` is NULL or `argc` strings, per the caller.
        let mut args = unsafe { strings(argv, argc) }?.into_iter();
        let program = args
            .next()
            .ok_or_else(|| Failure::invalid("picollo_suite_set_worker: argc is 0: no program"))?;
        let command = WorkerCommand {
            program: program.into(),
            args: args.collect(),
        };
        let old = std::mem::replace(suite, Suite::new(""));
        *suite = old.with_worker(command);
        Ok(())
    })
}

/// The `argc` strings of `argv`, copied.
///
/// # Safety
/// `argv` is NULL or points to `argc` pointers, each NULL or NUL-terminated.
unsafe fn strings(argv: *const *const c_char, argc: usize) -> Result<Vec<String>, Failure> {
    let argv = try_slice!(argv, argc)?;
    let each = argv.iter().map(|&arg| {
        // SAFETY: each of `argv` is NULL or NUL-terminated, per the caller.
        unsafe { str_from(arg, "argv[i]", None) }.map(String::from)
    });
    each.collect()
}

/// Runs the suite as the command line `argv` (`argc` strings, the program's name first)
/// says, printing to the standard output and what went wrong to the standard error, and
/// returns the exit status for `main` to return (docs/suites.md): without a flag it measures
/// every benchmark; `--test` runs each once; `--list`; a FILTER, `--exact`, `--regex`; the
/// harness's flags; `--save`, `--baseline`, `--against OTHER` (another build of this
/// program). 0 ok, 2 a bad argument or a NULL `suite`/`argv`, 3 a file, 4 a saved baseline
/// unreadable, 5 no benchmark matches, 6 a benchmark failed, 7 one compared slower, 9 the
/// other build's worker failed; 101 after a panic in the library (a bug). ABI 1.20.
#[no_mangle]
pub unsafe extern "C" fn picollo_suite_main(
    suite: *mut picollo_suite,
    argc: c_int,
    argv: *const *const c_char,
) -> c_int {
    boundary!({
        let args = || {
            let suite = try_mut!(suite)?;
            let argc = usize::try_from(argc).map_err(|_| Failure::invalid("argc is negative"))?;
            // SAFETY: `argv` is NULL or `argc` strings, per the caller.
            let args = unsafe { strings(argv, argc) }?;
            Ok::<_, Failure>((suite, args.into_iter().skip(1).collect::<Vec<_>>()))
        };
        match args() {
            Ok((suite, args)) => {
                let _running = Running::enter();
                suite.main_args(&args, Mode::Measure) as c_int
            }
            Err(failure) => {
                eprintln!("error: {}", failure.message);
                failure.report();
                Exit::Usage as c_int
            }
        }
    })
}
