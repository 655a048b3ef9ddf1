// Picollo.Perf for .NET: perf_event counter sessions, discovery, timers, scopes and CPU
// helpers of libpicollo (Linux), on top of Picollo.cs. This file holds the C layer (enums,
// blittable structs, PerfNative's DllImports, the session handle) and the small static
// helpers; the session the announcement shows is in Perf/*.cs:
//
//   var session = PerfEventCounterSession.Factory.WithSoftwareCounter(PerfSoftwareCounterId.TaskClock).Create();
//   for (int i = 0; i < 1000; i++)
//   {
//       session.Read(forceSyscallRead: true); CpuUtils.AddChain256(100); session.Read(forceSyscallRead: true);
//       session.Record(deltas: true);
//   }
//   foreach (PerfEventCounter counter in session.Counters) counter.Histogram.GetSummary().PrettyPrint(counter.Name);
//   using (Scope.Begin(histogram, TimeUnit.Micros)) { Work(); }   // recorded on Dispose (the library's clock)

using System;
using System.Runtime.InteropServices;
using Picollo.Metrics;

namespace Picollo.Perf
{
    /// <summary>picollo_perf_hardware_event (PERF_COUNT_HW_*): the generic hardware counters.</summary>
    public enum PerfHardwareCounterId : uint
    {
        CpuCycles = 0, Instructions = 1, CacheReferences = 2, CacheMisses = 3, BranchInstructions = 4,
        BranchMisses = 5, BusCycles = 6, StalledCyclesFrontend = 7, StalledCyclesBackend = 8, RefCpuCycles = 9,
    }

    /// <summary>picollo_perf_software_event (PERF_COUNT_SW_*): counted by the kernel, no PMU needed.</summary>
    public enum PerfSoftwareCounterId : uint
    {
        CpuClock = 0, TaskClock = 1, PageFaults = 2, ContextSwitches = 3, CpuMigrations = 4,
        MinorPageFaults = 5, MajorPageFaults = 6, AlignmentFaults = 7, EmulationFaults = 8,
    }

    /// <summary>picollo_perf_cache_level (PERF_COUNT_HW_CACHE_*): which cache.</summary>
    public enum CacheLevel : uint { L1D = 0, L1I = 1, LL = 2, DTLB = 3, ITLB = 4, BPU = 5, NODE = 6 }
    /// <summary>picollo_perf_cache_op (PERF_COUNT_HW_CACHE_OP_*).</summary>
    public enum CacheOp : uint { Read = 0, Write = 1, Prefetch = 2 }
    /// <summary>picollo_perf_cache_result (PERF_COUNT_HW_CACHE_RESULT_*).</summary>
    public enum CacheResult : uint { Access = 0, Miss = 1 }

    /// <summary>picollo_perf_read_path.</summary>
    public enum ReadPath : uint { None = 0, Syscall = 1, Rdpmc = 2 }

    /// <summary>picollo_perf_read_policy (<c>PerfConfig.Rdpmc</c>): how a session picks its
    /// read path; ABI 1.19.</summary>
    public enum ReadPolicy : uint { Syscall = 0, Auto = 1, UserSpace = 2 }

    /// <summary>picollo_perf_path_reason: why a session reads the way it does; ABI 1.19.</summary>
    public enum PathReason : uint { NoPage = 0, Forced = 1, Cheaper = 2, Instrumented = 3, Pending = 4 }

    /// <summary>picollo_perf_path_choice: the read path a session took at open, its policy,
    /// why, and what each path cost a read of the group then (ns; NaN where not timed).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct PathChoice
    {
        public uint Path;
        public uint Policy;
        public uint Reason;
        public uint Reserved;
        public double UserNs;
        public double SyscallNs;

        public ReadPath ReadPath { get { return (ReadPath)Path; } }
        public ReadPolicy ReadPolicy { get { return (ReadPolicy)Policy; } }
        public PathReason PathReason { get { return (PathReason)Reason; } }
    }

    /// <summary>picollo_perf_record_kind: what Record puts into the histograms.</summary>
    public enum RecordKind : uint { Delta = 0, Corrected = 1, RawDelta = 2, Value = 3 }

    /// <summary>picollo_time_unit.</summary>
    public enum TimeUnit : uint { Ticks = 0, Nanos = 1, Micros = 2, Millis = 3 }

    /// <summary>picollo_cpu_vendor.</summary>
    public enum CpuVendor : uint { Intel = 0, Amd = 1, Other = 2 }

    // ---------------------------------------------------------------------------------------
    // Blittable mirrors of the C structs (checked against the C layout by run.sh).
    // ---------------------------------------------------------------------------------------

    /// <summary>picollo_perf_config (48 bytes). Start from <see cref="Default"/>.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct PerfConfig
    {
        public uint StructSize;
        public int Pid;
        public int Cpu;
        public uint Pinned;
        public uint IncludeKernel;
        public uint Enabled;
        public uint Calibrate;
        public uint Rdpmc;
        public double RelativeError;
        public uint RecordKind;
        public uint Reserved;

        public static PerfConfig Default { get { return PerfNative.picollo_perf_config_default(); } }
    }

    /// <summary>picollo_perf_reading.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct Reading
    {
        public ulong Value;
        public ulong Enabled;
        public ulong Running;
        public ulong Scaled;
    }

    /// <summary>picollo_perf_delta.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct Delta
    {
        public ulong Raw;
        public ulong Scaled;
        public ulong Corrected;
        public ulong Enabled;
        public ulong Running;

        public bool Multiplexed { get { return Running < Enabled; } }
    }

    /// <summary>picollo_perf_counter_values.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct CounterValues
    {
        public Reading Current;
        public Reading Previous;
        public Delta Delta;
        public ulong OverheadSyscall;
        public ulong OverheadRdpmc;
        public ulong Id;
        public uint Multiplexed;
        public uint HasPage;
    }

    /// <summary>picollo_perf_derived: NaN where a counter is missing.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct Derived
    {
        public double Ipc;
        public double CacheMissRatio;
        public double BranchMissRatio;
    }

    /// <summary>picollo_perf_info.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct PmuInfo
    {
        public uint Present;
        public uint Vendor;
        public uint Hypervisor;
        public uint ArchPerfmonVersion;
        public uint FixedCounters;
        public uint FixedWidth;
        public uint ProgrammableCounters;
        public uint ProgrammableWidth;
        public int Rdpmc;
        public int Paranoid;
        public uint ParanoidKnown;
        public int CyclesErrno;
        public uint CorePmuCount;
        public uint PmuCount;
    }

    /// <summary>picollo_scope.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct ScopeData
    {
        public IntPtr Histogram;
        public ulong Start;
        public uint Unit;
        public uint Reserved;
    }

    internal static class PerfNative
    {
        const string Lib = "picollo";
        const CallingConvention Cdecl = CallingConvention.Cdecl;

        [DllImport(Lib, CallingConvention = Cdecl)] public static extern PerfConfig picollo_perf_config_default();
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern Status picollo_perf_session_new(ref PerfConfig config, out SessionHandle session);
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern void picollo_perf_session_free(IntPtr s);
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern Status picollo_perf_session_add_hardware(SessionHandle s, uint id);
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern Status picollo_perf_session_add_cache(SessionHandle s, uint level, uint op, uint result);
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern Status picollo_perf_session_add_software(SessionHandle s, uint id);
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern Status picollo_perf_session_add_raw(SessionHandle s, uint type, ulong config, ulong config1, ulong config2);
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern Status picollo_perf_session_add_fixed(SessionHandle s);
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern Status picollo_perf_session_add_named(SessionHandle s, byte[] name);
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern Status picollo_perf_session_open(SessionHandle s);
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern Status picollo_perf_session_read(SessionHandle s, uint forceSyscall, out uint path);
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern Status picollo_perf_session_path_choice(SessionHandle s, out PathChoice choice);
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern Status picollo_perf_session_path_describe(SessionHandle s, byte[] buf, UIntPtr len, out UIntPtr needed);
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern Status picollo_perf_session_deltas(SessionHandle s, [Out] Delta[] output, UIntPtr n, out UIntPtr count);
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern Status picollo_perf_session_record(SessionHandle s);
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern Status picollo_perf_session_record_kind(SessionHandle s, uint kind);
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern Status picollo_perf_session_enable(SessionHandle s);
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern Status picollo_perf_session_disable(SessionHandle s);
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern Status picollo_perf_session_reset(SessionHandle s);
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern Status picollo_perf_session_is_open(SessionHandle s, out uint open);
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern Status picollo_perf_session_counter_count(SessionHandle s, out UIntPtr count);
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern Status picollo_perf_session_counter_name(SessionHandle s, UIntPtr index, byte[] buf, UIntPtr len, out UIntPtr needed);
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern Status picollo_perf_session_counter_values(SessionHandle s, UIntPtr index, out CounterValues values);
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern Status picollo_perf_session_counter_histogram(SessionHandle s, UIntPtr index, out IntPtr histogram);
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern Status picollo_perf_session_derived(SessionHandle s, out Derived d);
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern Status picollo_perf_session_derived_means(SessionHandle s, out Derived d);
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern Status picollo_perf_discover(out PmuInfo info);
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern Status picollo_perf_describe(byte[] buf, UIntPtr len, out UIntPtr needed);
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern Status picollo_perf_emulation_describe(byte[] buf, UIntPtr len, out UIntPtr needed);
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern Status picollo_perf_counter_supported(byte[] name);
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern ulong picollo_ticks();
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern ulong picollo_ticks_begin();
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern ulong picollo_ticks_end();
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern ulong picollo_monotonic_nanos();
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern ulong picollo_tick_frequency();
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern ulong picollo_ticks_to_nanos(ulong ticks);
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern ulong picollo_convert_ticks(ulong ticks, ulong frequency, ulong perSecond);
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern ScopeData picollo_scope_begin(IntPtr h, uint unit);
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern Status picollo_scope_end(ref ScopeData scope, out ulong elapsed);
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern ulong picollo_add_chain(ulong blocks);
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern Status picollo_pin_thread(uint cpu);
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern Status picollo_set_thread_nice(int nice);
    }

    /// <summary>Owns a picollo_perf_session*.</summary>
    internal sealed class SessionHandle : SafeHandleZeroIsInvalid
    {
        protected override void Free(IntPtr pointer) { PerfNative.picollo_perf_session_free(pointer); }
    }

    /// <summary>Discovery: what this machine can count.</summary>
    public static class Pmu
    {
        public static PmuInfo Discover() { PmuInfo i; PicolloException.Check(PerfNative.picollo_perf_discover(out i)); return i; }

        /// <summary>"CPU PMU: fixedCounters=…" or "no hardware PMU (CPUID 0xA version 0; …)".</summary>
        public static string Describe()
        {
            return Text.Render((byte[] buf, UIntPtr len, out UIntPtr needed) =>
                PerfNative.picollo_perf_describe(buf, len, out needed));
        }

        /// <summary>What the emulator counts for this process, as one line: "emulated by
        /// Picollo's QEMU plugin: instructions, loads, stores…" under <c>picollo emulate --
        /// PROG</c>, else "not running under Picollo's QEMU plugin: …" with the reason. The
        /// exact counters <c>Emulated:Instructions</c>, <c>Emulated:Loads</c>,
        /// <c>Emulated:Stores</c> and <c>Emulated:L1DMisses</c> open only in the first case
        /// (<see cref="IsSupported"/> says the same per counter); ABI 1.16.</summary>
        public static string Emulation()
        {
            return Text.Render((byte[] buf, UIntPtr len, out UIntPtr needed) =>
                PerfNative.picollo_perf_emulation_describe(buf, len, out needed));
        }

        /// <summary>True when the named counter opens here; otherwise false with the reason.</summary>
        public static bool IsSupported(string name, out string reason)
        {
            Status st = PerfNative.picollo_perf_counter_supported(Utf8.ToNative(name));
            if (st == Status.Ok) { reason = ""; return true; }
            if (st == Status.Unsupported || st == Status.PermissionDenied)
            {
                reason = Utf8.FromNative(Native.picollo_last_error_message());
                return false;
            }
            PicolloException.Check(st);
            reason = "";
            return false;
        }
    }

    /// <summary>The library's clocks: <see cref="Ticks"/> (the CPU's time-stamp counter where
    /// there is one) and monotonic nanoseconds.</summary>
    public static class Clock
    {
        public static ulong Ticks { get { return PerfNative.picollo_ticks(); } }
        public static ulong MonotonicNanos { get { return PerfNative.picollo_monotonic_nanos(); } }
        public static ulong TickFrequency { get { return PerfNative.picollo_tick_frequency(); } }
        public static ulong TicksToNanos(ulong ticks) { return PerfNative.picollo_ticks_to_nanos(ticks); }
        public static ulong ConvertTicks(ulong ticks, ulong frequency, ulong perSecond) { return PerfNative.picollo_convert_ticks(ticks, frequency, perSecond); }
    }

    /// <summary>CPU helpers for measurements: known work, and keeping a thread in place.</summary>
    public static class CpuUtils
    {
        /// <summary>A chain of 256 dependent additions per block that the compiler cannot
        /// reorder or remove: about 256 × <paramref name="blocks"/> cycles. Returns 256 × blocks.</summary>
        public static ulong AddChain256(ulong blocks) { return PerfNative.picollo_add_chain(blocks); }

        /// <summary>Pin the calling thread to one CPU.</summary>
        public static void PinThread(uint cpu) { PicolloException.Check(PerfNative.picollo_pin_thread(cpu)); }

        /// <summary>The calling thread's nice value (-20..19).</summary>
        public static void SetThreadNice(int nice) { PicolloException.Check(PerfNative.picollo_set_thread_nice(nice)); }
    }

    /// <summary>A measurement on the library's clock (picollo_scope_begin/end: <see cref="TimeUnit.Ticks"/>
    /// are <see cref="Clock.Ticks"/>) that records its elapsed time into a histogram when
    /// disposed: <c>using (Scope.Begin(h, TimeUnit.Micros)) { … }</c>. A struct (no allocation);
    /// dispose it exactly once, as <c>using</c> does. The histogram is kept alive until then.
    /// <see cref="NanoScope"/> (<c>h.GetNanoScope()</c>) is the same on Stopwatch's clock.</summary>
    public struct Scope : IDisposable
    {
        ScopeData _data;
        HdrHistogram _histogram;
        bool _addRef;

        public static Scope Begin(HdrHistogram histogram, TimeUnit unit = TimeUnit.Nanos)
        {
            if (histogram == null) throw new ArgumentNullException("histogram");
            var s = new Scope();
            s._histogram = histogram;
            histogram.Handle.DangerousAddRef(ref s._addRef); // ObjectDisposedException if disposed
            s._data = PerfNative.picollo_scope_begin(histogram.Handle.DangerousGetHandle(), (uint)unit);
            return s;
        }

        /// <summary>The elapsed time recorded by Dispose, in the scope's unit.</summary>
        public ulong Elapsed { get; private set; }

        /// <summary>End now: record once and return the elapsed time.</summary>
        public ulong End()
        {
            if (_histogram == null) throw new InvalidOperationException("the scope has already ended");
            try
            {
                ulong elapsed;
                PicolloException.Check(PerfNative.picollo_scope_end(ref _data, out elapsed));
                Elapsed = elapsed;
                return elapsed;
            }
            finally
            {
                if (_addRef) _histogram.Handle.DangerousRelease();
                _addRef = false;
                _histogram = null;
            }
        }

        public void Dispose()
        {
            if (_histogram != null) End();
        }
    }
}
