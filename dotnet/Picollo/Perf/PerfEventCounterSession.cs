// PerfEventCounterSession: a group of perf_event counters read together, each with the
// HdrHistogram its deltas go into, as the announcement uses it:
//   var session = PerfEventCounterSession.Factory.WithFixedCounters().Create();
//   session.Read(forceSyscallRead: true); Work(); session.Read(forceSyscallRead: true);
//   session.Record(deltas: true);
//   foreach (PerfEventCounter c in session.Counters) c.Histogram.GetSummary().PrettyPrint(c.Name);
// A thin layer over picollo_perf_session_*; the counters and their collection are in
// PerfEventCounter.cs.

using System;

namespace Picollo.Perf
{
    /// <summary>Counters opened as one group, one histogram per counter: Read, work, Read,
    /// Record. Made by <see cref="Factory"/>. It counts the thread that created it (by
    /// default): use it from that thread. Dispose frees the counters and their histograms (the
    /// counters' <see cref="PerfEventCounter.Histogram"/> objects become disposed).</summary>
    public sealed class PerfEventCounterSession : IDisposable
    {
        readonly SessionHandle _handle;
        readonly PerfEventCounterCollection _counters;

        /// <summary>The entry point: <c>PerfEventCounterSession.Factory.With…().Create()</c>.</summary>
        public static PerfEventCounterSessionBuilder Factory { get { return new PerfEventCounterSessionBuilder(); } }

        /// <summary>The CPU's fixed and programmable counters per core, when a hardware PMU is
        /// usable here; false (and zeros) otherwise, e.g. in a VM without a vPMU.
        /// <see cref="Pmu.Describe"/> says why.</summary>
        public static bool TryGetNumberOfCounters(out uint fixedCounters, out uint programmableCounters)
        {
            fixedCounters = 0;
            programmableCounters = 0;
            PmuInfo info;
            if (PerfNative.picollo_perf_discover(out info) != Status.Ok || info.Present == 0) return false;
            fixedCounters = info.FixedCounters;
            programmableCounters = info.ProgrammableCounters;
            return true;
        }

        /// <summary>Adopt an open native session.</summary>
        internal PerfEventCounterSession(SessionHandle opened)
        {
            _handle = opened;
            _counters = new PerfEventCounterCollection(this);
        }

        internal SessionHandle Handle { get { return _handle; } }

        /// <summary>The counters, in the order they were added (fixed counters: cycles,
        /// instructions, reference cycles).</summary>
        public PerfEventCounterCollection Counters { get { return _counters; } }

        /// <summary>Read every counter (the previous reading becomes the delta's base): through
        /// rdpmc where it is allowed and every counter has it, else one read(2) of the group;
        /// <paramref name="forceSyscallRead"/> always takes read(2), slower but atomic for the
        /// whole group. Returns the path taken.</summary>
        public ReadPath Read(bool forceSyscallRead = false)
        {
            uint path;
            PicolloException.Check(PerfNative.picollo_perf_session_read(_handle, forceSyscallRead ? 1u : 0u, out path));
            return (ReadPath)path;
        }

        /// <summary>Record each counter into its histogram: with <paramref name="deltas"/>, the
        /// delta between the last two reads (of the kind the builder chose; by default scaled
        /// when multiplexed), else the last reading itself.</summary>
        public void Record(bool deltas = true)
        {
            if (deltas) PicolloException.Check(PerfNative.picollo_perf_session_record(_handle));
            else Record(RecordKind.Value);
        }

        /// <summary>Record each counter's latest value of this kind.</summary>
        public void Record(RecordKind kind) { PicolloException.Check(PerfNative.picollo_perf_session_record_kind(_handle, (uint)kind)); }

        /// <summary>Zero the kernel's counts and every histogram; the next deltas start from here.</summary>
        public void Reset() { PicolloException.Check(PerfNative.picollo_perf_session_reset(_handle)); }

        public void Enable() { PicolloException.Check(PerfNative.picollo_perf_session_enable(_handle)); }
        public void Disable() { PicolloException.Check(PerfNative.picollo_perf_session_disable(_handle)); }

        /// <summary>The latest deltas, one per counter.</summary>
        /// <summary>The read path the session took at open, its policy, why, and what each
        /// path cost then (ABI 1.19).</summary>
        public PathChoice PathChoice
        {
            get { PathChoice c; PicolloException.Check(PerfNative.picollo_perf_session_path_choice(_handle, out c)); return c; }
        }

        /// <summary>The same as one line: "read(2): 8,100 ns a read against 39,000 ns in user
        /// space (…)".</summary>
        public string DescribePath()
        {
            return Text.Render((byte[] buf, UIntPtr len, out UIntPtr needed) =>
                PerfNative.picollo_perf_session_path_describe(_handle, buf, len, out needed));
        }

        public Delta[] Deltas()
        {
            var output = new Delta[Math.Max(_counters.Count, 1)];
            UIntPtr n;
            PicolloException.Check(PerfNative.picollo_perf_session_deltas(_handle, output, new UIntPtr((uint)output.Length), out n));
            Array.Resize(ref output, (int)n.ToUInt64());
            return output;
        }

        /// <summary>IPC and miss ratios of the latest deltas (NaN where a counter is missing).</summary>
        public Derived Derived { get { Derived d; PicolloException.Check(PerfNative.picollo_perf_session_derived(_handle, out d)); return d; } }

        /// <summary>The same ratios from the histograms' means.</summary>
        public Derived DerivedMeans { get { Derived d; PicolloException.Check(PerfNative.picollo_perf_session_derived_means(_handle, out d)); return d; } }

        public bool IsDisposed { get { return _handle.IsClosed; } }

        public void Dispose()
        {
            _counters.Release();   // borrowed histograms: marks them closed, frees nothing
            _handle.Dispose();
        }
    }
}
