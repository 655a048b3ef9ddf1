//! The kernel interface: our own `perf_event_attr`, `perf_event_open(2)` through
//! `libc::syscall`, the ioctls, an fd that closes on drop, and a read-only mmapped page.

use std::io;

/// `PERF_TYPE_*`.
pub(crate) const TYPE_HARDWARE: u32 = 0;
pub(crate) const TYPE_SOFTWARE: u32 = 1;
pub(crate) const TYPE_HW_CACHE: u32 = 3;
pub(crate) const TYPE_RAW: u32 = 4;
/// The type [`super::Event::encoding`] gives emulated events: no PMU has it, and they are
/// never passed to `perf_event_open`.
pub(crate) const TYPE_EMULATED: u32 = u32::MAX;

/// `PERF_FORMAT_*`.
pub(crate) const FORMAT_TOTAL_TIME_ENABLED: u64 = 1 << 0;
pub(crate) const FORMAT_TOTAL_TIME_RUNNING: u64 = 1 << 1;
pub(crate) const FORMAT_ID: u64 = 1 << 2;
pub(crate) const FORMAT_GROUP: u64 = 1 << 3;

/// Bits of the attr's flag word (the C bitfield, lowest bit first).
pub(crate) const FLAG_DISABLED: u64 = 1 << 0;
pub(crate) const FLAG_INHERIT: u64 = 1 << 1;
pub(crate) const FLAG_PINNED: u64 = 1 << 2;
pub(crate) const FLAG_EXCLUDE_KERNEL: u64 = 1 << 5;
pub(crate) const FLAG_EXCLUDE_HV: u64 = 1 << 6;
pub(crate) const FLAG_ENABLE_ON_EXEC: u64 = 1 << 12;

/// `PERF_FLAG_FD_CLOEXEC`.
const FLAG_FD_CLOEXEC: libc::c_ulong = 1 << 3;

/// ioctl numbers: `_IO('$', n)` and `_IOR('$', 7, u64)`.
const IOC_ENABLE: libc::c_ulong = 0x2400;
const IOC_DISABLE: libc::c_ulong = 0x2401;
const IOC_RESET: libc::c_ulong = 0x2403;
const IOC_ID: libc::c_ulong = 0x8008_2407;
/// Apply an ioctl to the whole group when sent to the leader.
const IOC_FLAG_GROUP: libc::c_ulong = 1;

/// Sizes the kernel knows: VER0 is the smallest it accepts.
pub(crate) const ATTR_SIZE_VER0: u32 = 64;

/// `struct perf_event_attr` up to `PERF_ATTR_SIZE_VER8` (136 bytes). Unions are flattened to
/// the member we use; the bitfield is one `u64`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct PerfEventAttr {
    pub type_: u32,
    pub size: u32,
    pub config: u64,
    pub sample_period: u64,
    pub sample_type: u64,
    pub read_format: u64,
    pub flags: u64,
    pub wakeup_events: u32,
    pub bp_type: u32,
    pub config1: u64,
    pub config2: u64,
    pub branch_sample_type: u64,
    pub sample_regs_user: u64,
    pub sample_stack_user: u32,
    pub clockid: i32,
    pub sample_regs_intr: u64,
    pub aux_watermark: u32,
    pub sample_max_stack: u16,
    pub reserved_2: u16,
    pub aux_sample_size: u32,
    pub reserved_3: u32,
    pub sig_data: u64,
    pub config3: u64,
}

const _: () = {
    assert!(core::mem::size_of::<PerfEventAttr>() == 136);
    assert!(core::mem::offset_of!(PerfEventAttr, flags) == 40);
    assert!(core::mem::offset_of!(PerfEventAttr, config1) == 56);
    assert!(core::mem::offset_of!(PerfEventAttr, config2) == 64);
};

impl PerfEventAttr {
    pub(crate) fn new(type_: u32, config: u64) -> Self {
        PerfEventAttr {
            type_,
            size: core::mem::size_of::<Self>() as u32,
            config,
            ..Default::default()
        }
    }
}

/// The `errno` of the last failed libc call on this thread.
pub(crate) fn errno() -> i32 {
    io::Error::last_os_error().raw_os_error().unwrap_or(0)
}

/// A perf event file descriptor; closed on drop.
#[derive(Debug)]
pub(crate) struct EventFd(libc::c_int);

impl EventFd {
    pub(crate) fn raw(&self) -> libc::c_int {
        self.0
    }

    fn ioctl(&self, request: libc::c_ulong, arg: libc::c_ulong) -> Result<(), i32> {
        // SAFETY: `self.0` is an fd we own; these requests take an integer argument.
        let rc = unsafe { libc::ioctl(self.0, request as _, arg) };
        if rc < 0 {
            Err(errno())
        } else {
            Ok(())
        }
    }

    /// Enable the event (and its group when `group`).
    pub(crate) fn enable(&self, group: bool) -> Result<(), i32> {
        self.ioctl(IOC_ENABLE, if group { IOC_FLAG_GROUP } else { 0 })
    }

    /// Disable the event (and its group when `group`).
    pub(crate) fn disable(&self, group: bool) -> Result<(), i32> {
        self.ioctl(IOC_DISABLE, if group { IOC_FLAG_GROUP } else { 0 })
    }

    /// Zero the count (and the group's when `group`).
    pub(crate) fn reset(&self, group: bool) -> Result<(), i32> {
        self.ioctl(IOC_RESET, if group { IOC_FLAG_GROUP } else { 0 })
    }

    /// The kernel's 64-bit id of this event: the key of its value in a group read.
    pub(crate) fn id(&self) -> Result<u64, i32> {
        let mut id = 0u64;
        // SAFETY: PERF_EVENT_IOC_ID writes one u64 through the pointer, which is live.
        let rc = unsafe { libc::ioctl(self.0, IOC_ID as _, &mut id as *mut u64) };
        if rc < 0 {
            Err(errno())
        } else {
            Ok(id)
        }
    }

    /// One `read(2)` into `buf`: the number of bytes the kernel wrote.
    pub(crate) fn read_into(&self, buf: &mut [u64]) -> Result<usize, i32> {
        // SAFETY: `buf` is valid for writes of its full byte length.
        let n = unsafe { libc::read(self.0, buf.as_mut_ptr().cast(), core::mem::size_of_val(buf)) };
        if n < 0 {
            Err(errno())
        } else {
            Ok(n as usize)
        }
    }
}

impl Drop for EventFd {
    fn drop(&mut self) {
        // SAFETY: we own the fd and close it exactly once.
        unsafe { libc::close(self.0) };
    }
}

/// `perf_event_open(attr, pid, cpu, group_fd, FD_CLOEXEC)`. On E2BIG the kernel has written
/// the size it expects into `attr.size`; when that is a size it can take from our struct
/// (smaller, at least VER0) we retry once with it. The error is the errno.
pub(crate) fn open(
    attr: &mut PerfEventAttr,
    pid: i32,
    cpu: i32,
    group_fd: Option<&EventFd>,
) -> Result<EventFd, i32> {
    let ours = core::mem::size_of::<PerfEventAttr>() as u32;
    for _ in 0..2 {
        let group = group_fd.map_or(-1, |fd| fd.0);
        // SAFETY: `attr` points at a live, initialised attr of at least `attr.size` bytes;
        // the other arguments are plain integers.
        let fd = unsafe {
            libc::syscall(
                libc::SYS_perf_event_open,
                attr as *mut PerfEventAttr,
                pid as libc::c_long,
                cpu as libc::c_long,
                group as libc::c_long,
                FLAG_FD_CLOEXEC,
            )
        };
        if fd >= 0 {
            return Ok(EventFd(fd as libc::c_int));
        }
        let e = errno();
        let wanted = attr.size;
        if e == libc::E2BIG && (ATTR_SIZE_VER0..ours).contains(&wanted) {
            continue; // the kernel is older than our struct: speak its size
        }
        if e == libc::E2BIG {
            attr.size = wanted; // left for the error message
        }
        return Err(e);
    }
    Err(libc::E2BIG)
}

/// The first page of an event's mmap: `perf_event_mmap_page`, read-only; unmapped on drop.
#[derive(Debug)]
pub(crate) struct MmapPage {
    ptr: *mut libc::c_void,
    len: usize,
}

impl MmapPage {
    /// Map the user page of `fd` (no ring buffer). The error is the errno.
    pub(crate) fn map(fd: &EventFd) -> Result<MmapPage, i32> {
        // SAFETY: sysconf has no memory-safety preconditions.
        let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
        let len = if page > 0 { page as usize } else { 4096 };
        // SAFETY: a fresh shared read-only mapping of an fd we own; the kernel picks the
        // address, and we check for MAP_FAILED.
        let ptr = unsafe {
            libc::mmap(
                core::ptr::null_mut(),
                len,
                libc::PROT_READ,
                libc::MAP_SHARED,
                fd.0,
                0,
            )
        };
        if ptr == libc::MAP_FAILED {
            return Err(errno());
        }
        Ok(MmapPage { ptr, len })
    }

    /// The page's address, for the native read loop.
    #[cfg_attr(not(picollo_native), allow(dead_code))]
    pub(crate) fn as_ptr(&self) -> *const u8 {
        self.ptr.cast()
    }
}

impl Drop for MmapPage {
    fn drop(&mut self) {
        // SAFETY: `ptr`/`len` describe a mapping we created and unmap exactly once.
        unsafe { libc::munmap(self.ptr, self.len) };
    }
}

/// errno → its symbolic name (for messages).
pub(crate) fn errno_name(e: i32) -> &'static str {
    match e {
        libc::ENOENT => "ENOENT",
        libc::EOPNOTSUPP => "EOPNOTSUPP",
        libc::EACCES => "EACCES",
        libc::EPERM => "EPERM",
        libc::EINVAL => "EINVAL",
        libc::E2BIG => "E2BIG",
        libc::EMFILE => "EMFILE",
        libc::ENFILE => "ENFILE",
        libc::EBUSY => "EBUSY",
        libc::ESRCH => "ESRCH",
        libc::ENODEV => "ENODEV",
        libc::ENOSPC => "ENOSPC",
        libc::EFAULT => "EFAULT",
        libc::EINTR => "EINTR",
        libc::EBADF => "EBADF",
        libc::ENOMEM => "ENOMEM",
        libc::ENOSYS => "ENOSYS",
        _ => "errno",
    }
}
