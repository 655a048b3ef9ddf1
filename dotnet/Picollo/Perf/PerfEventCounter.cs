// The counters of a PerfEventCounterSession: each with its name, its latest values and the
// HdrHistogram the session records it into (borrowed from the session), and the collection
// that finds them by position, by name or by id:
//   session.Counters.Hardware.CpuCycles, session.Counters.Software.TaskClock,
//   session.Counters.Cache[PerfCacheCounterId.L1DReadMiss] (null when not in the session).

using System;
using System.Collections;
using System.Collections.Generic;
using Picollo.Metrics;

namespace Picollo.Perf
{
    /// <summary>One counter of a session.</summary>
    public sealed class PerfEventCounter
    {
        readonly PerfEventCounterSession _session;

        internal PerfEventCounter(PerfEventCounterSession session, int index, string name, HdrHistogram histogram)
        {
            _session = session;
            Index = index;
            Name = name;
            Histogram = histogram;
        }

        public PerfEventCounterSession Session { get { return _session; } }

        /// <summary>The position in the session (the order counters were added).</summary>
        public int Index { get; private set; }

        /// <summary><c>Hardware:CpuCycles</c>, <c>HardwareCache:L1DReadMiss</c>,
        /// <c>Software:TaskClock</c>, <c>Raw:4:0x1c2</c>…</summary>
        public string Name { get; private set; }

        /// <summary>The histogram Record fills, owned by the session: every HdrHistogram query
        /// works on it; disposing it frees nothing; it is disposed with the session.</summary>
        public HdrHistogram Histogram { get; private set; }

        /// <summary>The latest readings and delta, the read overheads and whether the counter
        /// was multiplexed.</summary>
        public CounterValues Values
        {
            get
            {
                CounterValues v;
                PicolloException.Check(PerfNative.picollo_perf_session_counter_values(_session.Handle, new UIntPtr((uint)Index), out v));
                return v;
            }
        }

        /// <summary>The delta between the last two reads.</summary>
        public Delta Delta { get { return Values.Delta; } }

        public override string ToString() { return Name; }
    }

    /// <summary>The counters of a session, in order, and found by name or id (null when the
    /// session has no such counter).</summary>
    public sealed class PerfEventCounterCollection : IReadOnlyList<PerfEventCounter>
    {
        readonly PerfEventCounter[] _counters;

        internal PerfEventCounterCollection(PerfEventCounterSession session)
        {
            UIntPtr n;
            PicolloException.Check(PerfNative.picollo_perf_session_counter_count(session.Handle, out n));
            _counters = new PerfEventCounter[(int)n.ToUInt64()];
            for (int i = 0; i < _counters.Length; i++)
            {
                var index = new UIntPtr((uint)i);
                string name = Text.Render((byte[] buf, UIntPtr len, out UIntPtr needed) =>
                    PerfNative.picollo_perf_session_counter_name(session.Handle, index, buf, len, out needed));
                IntPtr raw;
                PicolloException.Check(PerfNative.picollo_perf_session_counter_histogram(session.Handle, index, out raw));
                _counters[i] = new PerfEventCounter(session, i, name, new HdrHistogram(new HistogramHandle(raw), session));
            }
            Hardware = new HardwareCounters(this);
            Software = new SoftwareCounters(this);
            Cache = new CacheCounters(this);
        }

        public int Count { get { return _counters.Length; } }

        public PerfEventCounter this[int index]
        {
            get
            {
                if ((uint)index >= (uint)_counters.Length) throw new ArgumentOutOfRangeException("index");
                return _counters[index];
            }
        }

        /// <summary>The counter with this name (as <see cref="PerfEventCounter.Name"/>), or null.</summary>
        public PerfEventCounter Find(string name)
        {
            foreach (var c in _counters) if (c.Name == name) return c;
            return null;
        }

        /// <summary>The generic hardware counters: <c>Counters.Hardware.CpuCycles</c>.</summary>
        public HardwareCounters Hardware { get; private set; }

        /// <summary>The software counters: <c>Counters.Software.TaskClock</c>.</summary>
        public SoftwareCounters Software { get; private set; }

        /// <summary>The cache counters: <c>Counters.Cache[PerfCacheCounterId.L1DReadMiss]</c>.</summary>
        public CacheCounters Cache { get; private set; }

        public IEnumerator<PerfEventCounter> GetEnumerator() { return ((IEnumerable<PerfEventCounter>)_counters).GetEnumerator(); }
        IEnumerator IEnumerable.GetEnumerator() { return GetEnumerator(); }

        /// <summary>The session is going: close the borrowed histogram wrappers.</summary>
        internal void Release() { foreach (var c in _counters) c.Histogram.Dispose(); }

        /// <summary>The counters of one kind by id: the one named <c>Kind:Id</c>, or null.</summary>
        public abstract class CountersOfKind<TId>
        {
            readonly PerfEventCounterCollection _all;
            readonly string _prefix;

            internal CountersOfKind(PerfEventCounterCollection all, string kind)
            {
                _all = all;
                _prefix = kind + ":";
            }

            public PerfEventCounter this[TId id] { get { return _all.Find(_prefix + id); } }
        }

        public sealed class HardwareCounters : CountersOfKind<PerfHardwareCounterId>
        {
            internal HardwareCounters(PerfEventCounterCollection all) : base(all, "Hardware") { }

            public PerfEventCounter CpuCycles { get { return this[PerfHardwareCounterId.CpuCycles]; } }
            public PerfEventCounter Instructions { get { return this[PerfHardwareCounterId.Instructions]; } }
            public PerfEventCounter CacheReferences { get { return this[PerfHardwareCounterId.CacheReferences]; } }
            public PerfEventCounter CacheMisses { get { return this[PerfHardwareCounterId.CacheMisses]; } }
            public PerfEventCounter BranchInstructions { get { return this[PerfHardwareCounterId.BranchInstructions]; } }
            public PerfEventCounter BranchMisses { get { return this[PerfHardwareCounterId.BranchMisses]; } }
            public PerfEventCounter BusCycles { get { return this[PerfHardwareCounterId.BusCycles]; } }
            public PerfEventCounter StalledCyclesFrontend { get { return this[PerfHardwareCounterId.StalledCyclesFrontend]; } }
            public PerfEventCounter StalledCyclesBackend { get { return this[PerfHardwareCounterId.StalledCyclesBackend]; } }
            public PerfEventCounter RefCpuCycles { get { return this[PerfHardwareCounterId.RefCpuCycles]; } }
        }

        public sealed class SoftwareCounters : CountersOfKind<PerfSoftwareCounterId>
        {
            internal SoftwareCounters(PerfEventCounterCollection all) : base(all, "Software") { }

            public PerfEventCounter CpuClock { get { return this[PerfSoftwareCounterId.CpuClock]; } }
            public PerfEventCounter TaskClock { get { return this[PerfSoftwareCounterId.TaskClock]; } }
            public PerfEventCounter PageFaults { get { return this[PerfSoftwareCounterId.PageFaults]; } }
            public PerfEventCounter ContextSwitches { get { return this[PerfSoftwareCounterId.ContextSwitches]; } }
            public PerfEventCounter CpuMigrations { get { return this[PerfSoftwareCounterId.CpuMigrations]; } }
            public PerfEventCounter MinorPageFaults { get { return this[PerfSoftwareCounterId.MinorPageFaults]; } }
            public PerfEventCounter MajorPageFaults { get { return this[PerfSoftwareCounterId.MajorPageFaults]; } }
            public PerfEventCounter AlignmentFaults { get { return this[PerfSoftwareCounterId.AlignmentFaults]; } }
            public PerfEventCounter EmulationFaults { get { return this[PerfSoftwareCounterId.EmulationFaults]; } }
        }

        public sealed class CacheCounters : CountersOfKind<PerfCacheCounterId>
        {
            internal CacheCounters(PerfEventCounterCollection all) : base(all, "HardwareCache") { }
        }
    }
}
