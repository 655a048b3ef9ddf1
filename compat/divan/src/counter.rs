//! What one iteration handles, as divan counts it: bytes, items, characters, cycles. A
//! benchmark's first counter becomes its Picollo throughput (bytes as bytes, items and
//! characters as elements); cycles have no Picollo unit and are read and dropped.

use picollo_bench::Throughput;

/// An unsigned integer a count is made of.
pub trait CountUInt: Copy {
    /// The count as a `u64` (a `u128` beyond it saturates).
    fn to_u64(self) -> u64;
}

macro_rules! count_uint {
    ($($t:ty),*) => {$(
        impl CountUInt for $t {
            fn to_u64(self) -> u64 {
                u64::try_from(self).unwrap_or(u64::MAX)
            }
        }
    )*};
}
count_uint!(u8, u16, u32, u64, u128, usize);

/// A count of what one iteration handles.
pub trait Counter {
    /// The count as Picollo's throughput, where it has a unit for it.
    fn throughput(&self) -> Option<Throughput>;
}

/// What [`crate::Bencher::counter`] takes: a counter, or what makes one.
pub trait IntoCounter {
    type Counter: Counter;
    fn into_counter(self) -> Self::Counter;
}

impl<C: Counter> IntoCounter for C {
    type Counter = C;
    fn into_counter(self) -> C {
        self
    }
}

/// Bytes an iteration handles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BytesCount {
    count: u64,
}

/// Items (elements, records) an iteration handles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ItemsCount {
    count: u64,
}

/// Characters (Unicode scalar values) an iteration handles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CharsCount {
    count: u64,
}

/// Cycles an iteration takes, as divan shows them (in hertz): no Picollo unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CyclesCount {
    count: u64,
}

impl BytesCount {
    /// `count` bytes.
    pub fn new<N: CountUInt>(count: N) -> Self {
        BytesCount {
            count: count.to_u64(),
        }
    }

    /// The bytes of one `T`.
    pub fn of<T>() -> Self {
        Self::of_many::<T>(1)
    }

    /// The bytes of `n` values of `T`.
    pub fn of_many<T>(n: usize) -> Self {
        Self::new(std::mem::size_of::<T>().saturating_mul(n))
    }

    /// The bytes of `s`.
    pub fn of_str<S: ?Sized + AsRef<str>>(s: &S) -> Self {
        Self::new(s.as_ref().len())
    }

    /// The bytes of `slice`'s values.
    pub fn of_slice<T, S: ?Sized + AsRef<[T]>>(slice: &S) -> Self {
        Self::of_many::<T>(slice.as_ref().len())
    }
}

impl ItemsCount {
    /// `count` items.
    pub fn new<N: CountUInt>(count: N) -> Self {
        ItemsCount {
            count: count.to_u64(),
        }
    }
}

impl CharsCount {
    /// `count` characters.
    pub fn new<N: CountUInt>(count: N) -> Self {
        CharsCount {
            count: count.to_u64(),
        }
    }

    /// The characters of `s`.
    pub fn of_str<S: ?Sized + AsRef<str>>(s: &S) -> Self {
        Self::new(s.as_ref().chars().count())
    }
}

impl CyclesCount {
    /// `count` cycles.
    pub fn new<N: CountUInt>(count: N) -> Self {
        CyclesCount {
            count: count.to_u64(),
        }
    }
}

impl Counter for BytesCount {
    fn throughput(&self) -> Option<Throughput> {
        Some(Throughput::Bytes(self.count))
    }
}

impl Counter for ItemsCount {
    fn throughput(&self) -> Option<Throughput> {
        Some(Throughput::Elements(self.count))
    }
}

impl Counter for CharsCount {
    fn throughput(&self) -> Option<Throughput> {
        Some(Throughput::Elements(self.count))
    }
}

impl Counter for CyclesCount {
    fn throughput(&self) -> Option<Throughput> {
        let _ = self.count;
        None
    }
}
