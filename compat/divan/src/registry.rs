//! What the attributes register before `main` (through `.init_array`, see
//! `picollo-divan-macros`), and the benchmarks `divan::main()` makes of it. Not an API:
//! the attributes' expansions use it as `divan::__private`.

use std::fmt::{Debug, Display};
use std::string::String;
use std::sync::Mutex;

pub use crate::bencher::Bencher;
pub use crate::counter::{BytesCount, CharsCount, ItemsCount};

/// A `#[divan::bench]` function.
pub struct BenchEntry {
    /// `module_path!()` where the function is.
    pub module_path: &'static str,
    /// Its name: the function's, or the `name` option's.
    pub name: &'static str,
    pub ignore: bool,
    /// The options it was given that are accepted and ignored (`threads`, `min_time`, ...).
    pub ignored_options: &'static [&'static str],
    /// Its benchmarks: one, or one per type, constant and argument.
    pub instances: fn() -> Vec<Instance>,
}

/// A `#[divan::bench_group]` module.
pub struct GroupEntry {
    /// The module's own path.
    pub module_path: &'static str,
    /// The name its benchmarks' paths give it.
    pub name: &'static str,
    pub ignore: bool,
    /// The options it was given that are accepted and ignored.
    pub ignored_options: &'static [&'static str],
}

/// One benchmark of an entry: the names its type, constant and argument add to the
/// entry's path, and how it runs.
pub struct Instance {
    pub path: Vec<String>,
    pub run: Box<dyn Fn(Bencher<'_, '_>)>,
}

static BENCHES: Mutex<Vec<BenchEntry>> = Mutex::new(Vec::new());
static GROUPS: Mutex<Vec<GroupEntry>> = Mutex::new(Vec::new());

/// Add a benchmark function (before `main`).
pub fn register_bench(entry: BenchEntry) {
    BENCHES
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push(entry);
}

/// Add a group (before `main`).
pub fn register_group(entry: GroupEntry) {
    GROUPS.lock().unwrap_or_else(|e| e.into_inner()).push(entry);
}

/// The options the attributes were given that are accepted and ignored, each once, in
/// order.
pub(crate) fn ignored_options() -> std::collections::BTreeSet<&'static str> {
    let benches = BENCHES.lock().unwrap_or_else(|e| e.into_inner());
    let groups = GROUPS.lock().unwrap_or_else(|e| e.into_inner());
    let of_benches = benches.iter().flat_map(|b| b.ignored_options.iter());
    let of_groups = groups.iter().flat_map(|g| g.ignored_options.iter());
    of_benches.chain(of_groups).copied().collect()
}

/// A benchmark as the suite registers it.
pub(crate) struct Named {
    pub name: String,
    pub ignore: bool,
    pub run: Box<dyn Fn(Bencher<'_, '_>)>,
}

/// Every registered benchmark, named as divan names it (`group::function::arg`), ordered
/// by its function's path, then as its types, constants and arguments are given.
pub(crate) fn benchmarks() -> Vec<Named> {
    let benches = std::mem::take(&mut *BENCHES.lock().unwrap_or_else(|e| e.into_inner()));
    let groups = GROUPS.lock().unwrap_or_else(|e| e.into_inner());
    let mut named: Vec<(String, &BenchEntry, bool)> = benches
        .iter()
        .map(|e| {
            let (path, ignored) = path_of(e.module_path, &groups);
            (join(&path, e.name), e, ignored || e.ignore)
        })
        .collect();
    named.sort_by(|a, b| a.0.cmp(&b.0));
    let mut all = Vec::new();
    for (base, entry, ignore) in named {
        for instance in (entry.instances)() {
            let name = instance.path.iter().fold(base.clone(), |n, p| join(&n, p));
            let run = instance.run;
            all.push(Named { name, ignore, run });
        }
    }
    all
}

/// `a::b`, or `b` where `a` is empty.
fn join(a: &str, b: &str) -> String {
    match a.is_empty() {
        true => b.into(),
        false => std::format!("{a}::{b}"),
    }
}

/// The path of module `module_path` below the crate, each module named by its group, and
/// whether a group on it is ignored.
fn path_of(module_path: &str, groups: &[GroupEntry]) -> (String, bool) {
    let (mut path, mut ignored, mut here) = (String::new(), false, String::new());
    for (i, segment) in module_path.split("::").enumerate() {
        here = match i {
            0 => segment.into(),
            _ => std::format!("{here}::{segment}"),
        };
        if i == 0 {
            continue;
        }
        let group = groups.iter().find(|g| g.module_path == here);
        ignored |= group.is_some_and(|g| g.ignore);
        path = join(&path, group.map_or(segment, |g| g.name));
    }
    (path, ignored)
}

/// The argument a benchmark's parameter of type `P` takes from a value of `args`: the
/// value by reference, or a copy of it, or a `&String`'s `&str`.
pub trait ArgOf<P> {
    fn arg(self) -> P;
}

impl<'a, T: ?Sized> ArgOf<&'a T> for &'a T {
    fn arg(self) -> &'a T {
        self
    }
}

impl<T: Copy> ArgOf<T> for &T {
    fn arg(self) -> T {
        *self
    }
}

impl<'a> ArgOf<&'a str> for &'a String {
    fn arg(self) -> &'a str {
        self
    }
}

/// An argument's or a constant's name: its `Display`, else (through [`DebugArgName`])
/// its `Debug`.
pub struct ArgName<'a, T: ?Sized>(pub &'a T);

impl<T: ?Sized + Display> ArgName<'_, T> {
    pub fn arg_name(&self) -> String {
        std::format!("{}", self.0)
    }
}

/// [`ArgName`] of a value without `Display`: method resolution picks the inherent method
/// first and this one only where it does not apply.
pub trait DebugArgName {
    fn arg_name(&self) -> String;
}

impl<T: ?Sized + Debug> DebugArgName for ArgName<'_, T> {
    fn arg_name(&self) -> String {
        std::format!("{:?}", self.0)
    }
}

/// `T`'s name without the modules before it (`Vec<u8>`, not `alloc::vec::Vec<u8>`).
pub fn type_name<T: ?Sized>() -> String {
    let full = std::any::type_name::<T>();
    let head_end = full.find('<').unwrap_or(full.len());
    let start = full[..head_end].rfind("::").map_or(0, |i| i + 2);
    full[start..].into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_type_loses_its_modules_but_not_its_parameters() {
        assert_eq!(type_name::<u8>(), "u8");
        assert_eq!(type_name::<Vec<String>>(), "Vec<alloc::string::String>");
        assert_eq!(
            type_name::<std::collections::HashMap<u8, u8>>(),
            "HashMap<u8, u8>"
        );
    }

    #[test]
    fn a_grouped_module_takes_its_group_name() {
        let groups = [GroupEntry {
            module_path: "krate::outer::inner",
            name: "renamed",
            ignore: true,
            ignored_options: &[],
        }];
        assert_eq!(
            path_of("krate::outer::inner", &groups),
            ("outer::renamed".into(), true)
        );
        assert_eq!(path_of("krate", &groups), (String::new(), false));
    }
}
