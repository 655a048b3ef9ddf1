//! The writer: several families, then `# EOF`; refusals that write nothing.

use std::ffi::CString;
use std::ptr;

use picollo_core::openmetrics::Family;

use super::{core_openmetrics, histogram, labels};
use crate::metrics::openmetrics::{om_options, picollo_openmetrics_options_default};
use crate::metrics::{
    picollo_label, picollo_openmetrics_options, picollo_openmetrics_writer,
    picollo_openmetrics_writer_family, picollo_openmetrics_writer_finish,
    picollo_openmetrics_writer_free, picollo_openmetrics_writer_new,
    picollo_openmetrics_writer_point, picollo_openmetrics_writer_take,
};
use crate::status::picollo_status;
use crate::testing::{last_error, made, text_of, Handle};

struct Writer(*mut picollo_openmetrics_writer);

impl Writer {
    fn new() -> Writer {
        Writer(made(picollo_openmetrics_writer_new))
    }

    fn family(&self, name: &str, help: &str, o: &picollo_openmetrics_options) -> picollo_status {
        let name = CString::new(name).unwrap();
        let help = CString::new(help).unwrap();
        // SAFETY: a live writer, NUL-terminated strings, sized options.
        unsafe {
            picollo_openmetrics_writer_family(self.0, name.as_ptr(), help.as_ptr(), ptr::null(), o)
        }
    }

    fn point(&self, h: &Handle, pairs: &[(&str, &str)]) -> picollo_status {
        let l = labels(pairs);
        // SAFETY: live handles and a label array of its length.
        unsafe { picollo_openmetrics_writer_point(self.0, h.0, l.labels.as_ptr(), l.labels.len()) }
    }

    fn finish(&self) -> picollo_status {
        // SAFETY: a live writer.
        unsafe { picollo_openmetrics_writer_finish(self.0) }
    }

    fn take(&self) -> String {
        // SAFETY: the buffer arguments come from `text_of`.
        text_of(|buf, len, needed| unsafe {
            picollo_openmetrics_writer_take(self.0, buf, len, needed)
        })
    }
}

impl Drop for Writer {
    fn drop(&mut self) {
        // SAFETY: freed once, here.
        unsafe { picollo_openmetrics_writer_free(self.0) }
    }
}

#[test]
fn the_writer_writes_several_families_then_eof() {
    let (a, b) = (
        histogram(64, 0, [3, 30, 300]),
        histogram(64, 2, [7, 70_000]),
    );
    let c = histogram(32, 3, 1..1_000);
    let hist = picollo_openmetrics_options_default();
    let mut summary = picollo_openmetrics_options_default();
    summary.summary = 1;
    summary.unit_ratio = 1e6;
    let w = Writer::new();
    assert_eq!(
        w.family("db_latency", "Database latency", &hist),
        picollo_status::Ok
    );
    // The metadata is pending before any point.
    let head = w.take();
    assert_eq!(
        head,
        "# TYPE db_latency histogram\n# HELP db_latency Database latency\n"
    );
    assert_eq!(w.point(&a, &[("db", "users")]), picollo_status::Ok);
    assert_eq!(w.point(&b, &[("db", "orders")]), picollo_status::Ok);
    assert_eq!(w.family("queue_wait", "", &summary), picollo_status::Ok);
    assert_eq!(w.point(&c, &[]), picollo_status::Ok);
    assert_eq!(w.finish(), picollo_status::Ok);
    let text = head + &w.take();
    // SAFETY: no bounds to read.
    let (h_opts, s_opts) = unsafe { (om_options(&hist).unwrap(), om_options(&summary).unwrap()) };
    let expected = core_openmetrics(&[
        (
            Family::new("db_latency").with_help("Database latency"),
            &h_opts,
            &[(&[("db", "users")], &a), (&[("db", "orders")], &b)],
        ),
        (Family::new("queue_wait"), &s_opts, &[(&[], &c)]),
    ]);
    assert_eq!(text, expected);
    assert!(text.contains("\nqueue_wait_count 999\n"), "{text}");
    assert!(text.ends_with("\n# EOF\n") && text.matches("# EOF").count() == 1);
    // Nothing may follow # EOF, and the text was taken.
    assert_eq!(w.finish(), picollo_status::InvalidArgument);
    assert_eq!(w.family("late", "", &hist), picollo_status::InvalidArgument);
    assert!(last_error().contains("finished"), "{}", last_error());
    assert_eq!(w.point(&a, &[]), picollo_status::InvalidArgument);
    assert_eq!(w.take(), "");
}

#[test]
fn the_writer_refuses_bad_families_and_points_writing_nothing() {
    let w = Writer::new();
    let o = picollo_openmetrics_options_default();
    let a = histogram(64, 0, [1]);
    assert_eq!(w.point(&a, &[]), picollo_status::InvalidArgument);
    assert!(last_error().contains("no family"), "{}", last_error());
    assert_eq!(w.family("x", "", &o), picollo_status::Ok);
    assert_eq!(w.family("x", "", &o), picollo_status::InvalidArgument);
    assert!(last_error().contains("already"), "{}", last_error());
    for bad in ["", "1x", "x_bucket", "x-y", "x_total"] {
        assert_eq!(
            w.family(bad, "", &o),
            picollo_status::InvalidArgument,
            "{bad:?}"
        );
    }
    for bad in [
        &[("le", "1")][..],
        &[("__x", "1")],
        &[("a", "1"), ("a", "2")],
        &[("1a", "")],
    ] {
        assert_eq!(w.point(&a, bad), picollo_status::InvalidArgument, "{bad:?}");
    }
    assert_eq!(w.point(&a, &[("a", "1")]), picollo_status::Ok);
    // Another layout in the same family.
    let coarse = Handle::new(64, 0.01, 0);
    assert_eq!(
        w.point(&coarse, &[("a", "2")]),
        picollo_status::LayoutMismatch
    );
    // A NULL label value.
    let name = c"a";
    let label = picollo_label {
        name: name.as_ptr(),
        value: ptr::null(),
    };
    // SAFETY: live handles and one label.
    let status = unsafe { picollo_openmetrics_writer_point(w.0, a.0, &label, 1) };
    assert_eq!(status, picollo_status::NullPointer);
    assert!(last_error().contains("labels[0].value"), "{}", last_error());
    let text = w.take();
    assert_eq!(text.matches("x_count").count(), 1, "{text}");
    assert_eq!(text.matches("# TYPE").count(), 1, "{text}");
}
